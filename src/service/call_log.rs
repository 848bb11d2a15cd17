//! The log line of a failed call: one place, so that every RPC logs its
//! failures alike, louder for the failures that are the server's own, and
//! rate-limited for those any client can cause in floods.

use std::time::Duration;

use tonic::{Code, Status};

use crate::log_limit::LogLimit;

/// At most one log line a second about calls shed for overload; the
/// metrics count every one.
static SHED_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// At most one log line a second about calls that failed for their
/// client's reasons (invalid requests, deadlines, resets).
static CLIENT_FAILURE_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// A log line per failed call, louder for the failures that are ours.
/// Calls `shed` for overload come in floods: at most one line a second
/// says so, with how many were left out (the metrics count them all).
pub(crate) fn log_failed_call(rpc: &str, status: &Status, shed: bool) {
    let (code, detail) = (status.code(), status.message());
    if shed {
        if let Some(suppressed) = SHED_LOG.check() {
            tracing::warn!(rpc, ?code, detail, suppressed, "call shed");
        }
        return;
    }
    match code {
        Code::Internal => tracing::error!(rpc, ?code, detail, "call failed"),
        Code::ResourceExhausted => tracing::warn!(rpc, ?code, detail, "call failed"),
        // What a client got wrong, or did (went away, ran out of time): at
        // most a line a second, like sheds, since any client can make many.
        _ => {
            if let Some(suppressed) = CLIENT_FAILURE_LOG.check() {
                tracing::info!(rpc, ?code, detail, suppressed, "call failed");
            }
        }
    }
}
