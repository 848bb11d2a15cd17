//! How a stream's end is told to its client: the stream core
//! ([`crate::streaming`]) says how the stream ended, and this turns it
//! into the gRPC status the client gets. The call layer counts and logs
//! it from that status, as it does every call's
//! (`crate::server::calls`).

use std::time::Duration;

use tonic::Status;

use super::error::{ServiceError, is_client_reset};
use super::rpc::Rpc;
use crate::streaming::Ending;

/// The status a stream of `rpc` that ended so ends with: none for a
/// stream that finished (OK), or whose client went away (nobody to tell:
/// the call layer counts it CANCELLED).
pub fn end_stream(rpc: Rpc, ending: Ending<Status>) -> Option<Status> {
    let status = match ending {
        Ending::Finished | Ending::ClientGone => return None,
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

    use tonic::Code;

    /// The code a stream that ended so ends with. None: no status is sent,
    /// and the call layer counts the call from what the client gets: OK
    /// after the last answer, or CANCELLED for a client gone, since its
    /// response is dropped before any status (`server::call_end`'s tests).
    fn ends_with(ending: Ending<Status>) -> Option<Code> {
        end_stream(Rpc::SolveStream, ending).map(|status| status.code())
    }

    #[test]
    fn a_stream_whose_client_went_away_sends_no_status_or_cancelled_however_it_went() {
        assert_eq!(ends_with(Ending::ClientGone), None);
        let reset = Status::cancelled("h2 protocol error: stream no longer needed");
        assert_eq!(
            ends_with(Ending::RequestFailed(reset)),
            Some(Code::Cancelled)
        );
        // The connection dropped under the request: tonic's status carries
        // the transport's error.
        let dropped = Status::from_error(Box::new(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "connection reset",
        )));
        assert_eq!(dropped.code(), Code::Unknown);
        assert_eq!(
            ends_with(Ending::RequestFailed(dropped)),
            Some(Code::Cancelled)
        );
        assert_eq!(ends_with(Ending::Finished), None);
        // A status of the request's own, with no transport error under it,
        // keeps its code.
        let other =
            Status::internal("protocol error: received message with invalid compression flag");
        assert_eq!(
            ends_with(Ending::RequestFailed(other)),
            Some(Code::Internal)
        );
    }
}
