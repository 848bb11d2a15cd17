//! The server's settings: command-line flags with environment fallbacks.

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::time::Duration;

/// Flags of `sudoku-server`. Each can also be set by the environment
/// variable named in its help.
#[derive(Debug, Clone, clap::Args)]
pub struct Settings {
    /// Address to listen on (use 0.0.0.0:50051 to accept remote clients).
    #[arg(long, env = "SUDOKU_LISTEN", default_value = "127.0.0.1:50051")]
    pub listen: SocketAddr,

    /// Solver threads [default: the number of available cores].
    #[arg(long, env = "SUDOKU_WORKERS")]
    pub workers: Option<NonZeroUsize>,

    /// Puzzles that may wait for a solver thread while all are busy. Beyond
    /// this, unary calls are refused with RESOURCE_EXHAUSTED and streams wait.
    #[arg(long, env = "SUDOKU_QUEUE_DEPTH", default_value_t = 1024)]
    pub queue_depth: usize,

    /// Puzzles of one stream in flight at once; past this the server stops
    /// reading that stream until answers go out.
    #[arg(long, env = "SUDOKU_STREAM_WINDOW", default_value_t = NonZeroUsize::new(128).unwrap())]
    pub stream_window: NonZeroUsize,

    /// Largest request or response message in bytes. A puzzle is about 100
    /// bytes; the limit guards against memory abuse.
    #[arg(long, env = "SUDOKU_MAX_MESSAGE_BYTES", default_value_t = 64 * 1024)]
    pub max_message_bytes: usize,

    /// After SIGTERM or SIGINT, how long in-flight calls get to finish
    /// before the server closes them, e.g. `30s` or `500ms`.
    #[arg(long, env = "SUDOKU_DRAIN_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub drain_timeout: Duration,
}

impl Settings {
    /// Solver threads: the flag, or the number of available cores.
    pub fn worker_count(&self) -> usize {
        self.workers.map_or_else(available_cores, NonZeroUsize::get)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            listen: SocketAddr::from(([127, 0, 0, 1], 50051)),
            workers: None,
            queue_depth: 1024,
            stream_window: NonZeroUsize::new(128).unwrap(),
            max_message_bytes: 64 * 1024,
            drain_timeout: Duration::from_secs(30),
        }
    }
}

/// The number of cores this process may use (at least 1).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// Parses `250ms`, `30s`, `2m` or a bare number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a duration such as 500ms, 30s or 2m"))?;
    Duration::try_from_secs_f64(value * scale).map_err(|error| format!("{text:?}: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        settings: Settings,
    }

    #[test]
    fn defaults_match_the_documented_ones() {
        let parsed = Cli::try_parse_from(["sudoku-server"]).unwrap().settings;
        let default = Settings::default();
        assert_eq!(parsed.listen, default.listen);
        assert_eq!(parsed.queue_depth, default.queue_depth);
        assert_eq!(parsed.stream_window, default.stream_window);
        assert_eq!(parsed.max_message_bytes, 65536);
        assert_eq!(parsed.drain_timeout, Duration::from_secs(30));
        assert!(parsed.worker_count() >= 1);
    }

    #[test]
    fn flags_override_defaults() {
        let parsed = Cli::try_parse_from([
            "sudoku-server",
            "--listen",
            "0.0.0.0:7000",
            "--workers",
            "3",
            "--drain-timeout",
            "250ms",
        ])
        .unwrap()
        .settings;
        assert_eq!(parsed.listen.port(), 7000);
        assert_eq!(parsed.worker_count(), 3);
        assert_eq!(parsed.drain_timeout, Duration::from_millis(250));
    }

    #[test]
    fn durations_parse_in_common_units() {
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("-1s").is_err());
    }
}
