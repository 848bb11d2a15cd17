//! How a stream's end is told to its client: the stream core
//! ([`crate::streaming`]) says how the stream ended, and this turns it
//! into the gRPC status the client gets, counted and logged like any
//! call's.

use std::time::Duration;

use tonic::{Code, Status};

use super::call_log::log_failed_call;
use super::error::{ServiceError, is_client_reset};
use super::metrics::Metrics;
use super::rpc::Rpc;
use crate::streaming::Ending;

/// The status a stream of `rpc` that ended so ends with (none for a
/// stream that finished, or whose client went away), with the call
/// counted in `metrics` and, if it failed, logged.
pub fn end_stream(rpc: Rpc, metrics: &Metrics, ending: Ending<Status>) -> Option<Status> {
    let status = match ending {
        Ending::Finished => {
            metrics.call_finished(rpc, Code::Ok);
            return None;
        }
        Ending::ClientGone => {
            metrics.call_finished(rpc, Code::Cancelled);
            return None;
        }
        Ending::RequestFailed(status) => inbound_status(status, rpc.message_limit()),
        Ending::Draining => Status::unavailable(
            "the server is shutting down; every request before this point \
             was answered, send the rest to another server",
        ),
        Ending::NoFirstMessage(waited) => no_first_message(waited),
        Ending::DeadlineExceeded => Status::deadline_exceeded(
            "the call's deadline passed: the answers sent before this stand, \
             and the requests after them were not answered",
        ),
        Ending::Idle(waited) => Status::resource_exhausted(format!(
            "nothing was found within {waited:?}; the answers sent before this stand"
        )),
        Ending::Failed(status) => status,
    };
    failed_stream(rpc, metrics, status)
}

/// A stream of `rpc` that ends with `status`, counted in `metrics` and
/// logged: for a stream whose own words for its end are richer than
/// [`end_stream`]'s (Generate's progress).
pub fn failed_stream(rpc: Rpc, metrics: &Metrics, status: Status) -> Option<Status> {
    metrics.call_finished(rpc, status.code());
    log_failed_call(rpc.label(), &status, false);
    Some(status)
}

/// The status a stream that failed on its request side ends with: this
/// service's code for what tonic refused (an oversized or undecodable
/// message; `limit` names what sets the size limit), CANCELLED for a
/// client that reset the stream or whose connection failed (a status that
/// carries the transport's error: tonic says UNKNOWN or INTERNAL, but the
/// client went away), or the status as it came.
fn inbound_status(status: Status, limit: &'static str) -> Status {
    if let Some(error) = ServiceError::from_inbound_status(&status, limit) {
        return Status::from(error);
    }
    if is_client_reset(&status) {
        return Status::cancelled("the client reset the stream");
    }
    if std::error::Error::source(&status).is_some() {
        return Status::cancelled("the client's connection failed");
    }
    status
}

/// The status of a stream whose first request did not come within
/// `waited`.
fn no_first_message(waited: Duration) -> Status {
    Status::deadline_exceeded(format!(
        "the stream's first request message did not arrive within {waited:?} of its headers \
         (--first-call-timeout)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How a stream that ended so is counted, by code name.
    fn counted_as(ending: Ending<Status>) -> Option<String> {
        let metrics = Metrics::new();
        end_stream(Rpc::SolveStream, &metrics, ending);
        let text = metrics.render(Default::default(), (0, 0));
        text.lines()
            .filter(|line| line.starts_with("sudoku_calls_total{") && line.ends_with(" 1"))
            .find_map(|line| {
                line.split("code=\"")
                    .nth(1)?
                    .split('"')
                    .next()
                    .map(String::from)
            })
    }

    #[test]
    fn a_stream_whose_client_went_away_is_counted_cancelled_however_it_went() {
        assert_eq!(counted_as(Ending::ClientGone).as_deref(), Some("CANCELLED"));
        let reset = Status::cancelled("h2 protocol error: stream no longer needed");
        assert_eq!(
            counted_as(Ending::RequestFailed(reset)).as_deref(),
            Some("CANCELLED")
        );
        // The connection dropped under the request: tonic's status carries
        // the transport's error.
        let dropped = Status::from_error(Box::new(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "connection reset",
        )));
        assert_eq!(dropped.code(), Code::Unknown);
        assert_eq!(
            counted_as(Ending::RequestFailed(dropped)).as_deref(),
            Some("CANCELLED")
        );
        assert_eq!(counted_as(Ending::Finished).as_deref(), Some("OK"));
        // A status of the request's own, with no transport error under it,
        // keeps its code.
        let other =
            Status::internal("protocol error: received message with invalid compression flag");
        assert_eq!(
            counted_as(Ending::RequestFailed(other)).as_deref(),
            Some("INTERNAL")
        );
    }
}
