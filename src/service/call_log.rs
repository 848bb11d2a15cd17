//! The log line of a failed call: one place, so that every RPC logs its
//! failures alike, louder for the failures that are the server's own, and
//! rate-limited, since a client can cause any kind in floods (an INTERNAL
//! is what tonic answers a truncated frame or a bad compression flag, as
//! well as a bug of ours).

use std::time::Duration;

use tonic::{Code, Status};

use crate::log_limit::LogLimit;

/// At most one log line a second about calls shed for overload; the
/// metrics count every one.
static SHED_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// At most one line a second about INTERNAL failures.
static INTERNAL_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// At most one line a second about calls that ran out of a resource
/// (a message over its limit, a Generate that gave up).
static EXHAUSTED_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// At most one log line a second about calls that failed for their
/// client's reasons (invalid requests, deadlines, resets).
static CLIENT_FAILURE_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// How a call failed, for its log line: each kind has its own level and
/// its own limit, so a flood of one kind hides no line of another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    /// Refused for overload.
    Shed,
    /// INTERNAL: a bug of ours, or a request tonic could not read.
    Internal,
    /// RESOURCE_EXHAUSTED, other than a shed.
    Exhausted,
    /// What a client got wrong, or did (went away, ran out of time).
    Client,
}

impl Failure {
    fn of(code: Code, shed: bool) -> Failure {
        match code {
            _ if shed => Failure::Shed,
            Code::Internal => Failure::Internal,
            Code::ResourceExhausted => Failure::Exhausted,
            _ => Failure::Client,
        }
    }

    fn limit(self) -> &'static LogLimit {
        match self {
            Failure::Shed => &SHED_LOG,
            Failure::Internal => &INTERNAL_LOG,
            Failure::Exhausted => &EXHAUSTED_LOG,
            Failure::Client => &CLIENT_FAILURE_LOG,
        }
    }
}

/// A log line per failed call, louder for the failures that are ours
/// (INTERNAL at ERROR), and at most one a second of each kind, with how
/// many were left out (the metrics count them all). True when a line was
/// written.
pub fn log_failed_call(rpc: &str, status: &Status, shed: bool) -> bool {
    let (code, detail) = (status.code(), status.message());
    let failure = Failure::of(code, shed);
    let Some(suppressed) = failure.limit().check() else {
        return false;
    };
    match failure {
        Failure::Shed => tracing::warn!(rpc, ?code, detail, suppressed, "call shed"),
        Failure::Internal => tracing::error!(rpc, ?code, detail, suppressed, "call failed"),
        Failure::Exhausted => tracing::warn!(rpc, ?code, detail, suppressed, "call failed"),
        Failure::Client => tracing::info!(rpc, ?code, detail, suppressed, "call failed"),
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines written for `calls` failures with `status` in a burst.
    fn lines_for(status: &Status, shed: bool, calls: usize) -> usize {
        (0..calls)
            .filter(|_| log_failed_call("Solve", status, shed))
            .count()
    }

    #[test]
    fn a_flood_of_any_kind_of_failure_writes_a_line_or_two() {
        // A burst takes far less than a second, so at most one line, or
        // two if it straddles the moment the limit opens again.
        let kinds = [
            (
                Status::internal("protocol error: bad compression flag"),
                false,
            ),
            (Status::resource_exhausted("message too large"), false),
            (Status::resource_exhausted("server overloaded"), true),
            (Status::invalid_argument("puzzle too short"), false),
        ];
        for (status, shed) in &kinds {
            let lines = lines_for(status, *shed, 2_000);
            assert!(lines <= 2, "{lines} lines for {:?}", status.code());
        }
    }

    #[test]
    fn each_kind_of_failure_has_its_own_limit() {
        let failures = [
            Failure::of(Code::ResourceExhausted, true),
            Failure::of(Code::Internal, false),
            Failure::of(Code::ResourceExhausted, false),
            Failure::of(Code::Cancelled, false),
        ];
        assert_eq!(
            failures,
            [
                Failure::Shed,
                Failure::Internal,
                Failure::Exhausted,
                Failure::Client
            ]
        );
        for (at, failure) in failures.iter().enumerate() {
            for other in &failures[at + 1..] {
                assert!(!std::ptr::eq(failure.limit(), other.limit()));
            }
        }
    }
}
