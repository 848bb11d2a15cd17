//! Log lines that a flood cannot multiply: at most one per interval per
//! kind, each saying how many were left out since the last.
//!
//! A shed call, a refused connection or a failed TLS handshake is worth a
//! line, but a flood of them would turn into millions of lines (the
//! metrics count every one anyway). A [`LogLimit`] lets one through per
//! interval and counts the rest.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A rate limit for one kind of log line.
pub struct LogLimit {
    interval: Duration,
    state: Mutex<State>,
}

struct State {
    last: Option<Instant>,
    suppressed: u64,
}

impl LogLimit {
    /// At most one line per `interval`.
    pub const fn new(interval: Duration) -> LogLimit {
        LogLimit {
            interval,
            state: Mutex::new(State {
                last: None,
                suppressed: 0,
            }),
        }
    }

    /// `Some(lines left out since the last one)` when a line may be written
    /// now; `None` (and the line counted as left out) otherwise.
    pub fn check(&self) -> Option<u64> {
        self.check_at(Instant::now())
    }

    fn check_at(&self, now: Instant) -> Option<u64> {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let due = state
            .last
            .is_none_or(|last| now.duration_since(last) >= self.interval);
        if due {
            state.last = Some(now);
            Some(std::mem::take(&mut state.suppressed))
        } else {
            state.suppressed += 1;
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_interval_then_the_count_of_the_rest() {
        let limit = LogLimit::new(Duration::from_secs(1));
        let start = Instant::now();
        assert_eq!(limit.check_at(start), Some(0));
        for _ in 0..5 {
            assert_eq!(limit.check_at(start + Duration::from_millis(500)), None);
        }
        assert_eq!(limit.check_at(start + Duration::from_secs(1)), Some(5));
        assert_eq!(limit.check_at(start + Duration::from_millis(1500)), None);
        assert_eq!(limit.check_at(start + Duration::from_secs(3)), Some(1));
    }
}
