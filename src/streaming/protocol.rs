//! What the driver needs to know of one streaming RPC: how a request
//! becomes units of work, how the work is done, how its answers become
//! responses, and what the stream's end is called on the wire.
//!
//! The driver itself deals only in requests, items (a request's units of
//! work: a puzzle), answers and counts. Everything about messages, the
//! solver and statuses stays behind this trait, which is what lets the
//! driver be tested with a protocol made up for the test.

use std::time::Duration;

use crate::pool::{CancelCheck, JobError};

/// How a stream ended, for [`Protocol::end`] to turn into the error the
/// client sees (and to count and log).
#[derive(Debug)]
pub enum Ending<E> {
    /// The client sent its last request and every request was answered.
    Finished,
    /// The client stopped listening (the response side was dropped): there
    /// is nobody to tell.
    ClientGone,
    /// The request side failed with this error (a message over the limit,
    /// one that would not decode, a reset).
    RequestFailed(E),
    /// The server started draining: the requests read so far were
    /// answered, the rest must go elsewhere.
    Draining,
    /// No request came within [`Protocol::first_message_timeout`].
    NoFirstMessage(Duration),
    /// The call's deadline passed: what was already answered was sent,
    /// the rest of the work was stopped.
    DeadlineExceeded,
    /// A server-streaming source made no response within its patience
    /// ([`Source::patience`](super::Source::patience)).
    Idle(Duration),
    /// A server-streaming source's work failed with this error.
    Failed(E),
}

/// How the messages of one streaming RPC map to work and back.
pub trait Protocol: Send + Sync + 'static {
    /// A request message.
    type Request: Send + 'static;
    /// A response message.
    type Response: Send + 'static;
    /// What the driver keeps of a request until it is answered.
    type Kept: Send + 'static;
    /// One unit of work of a request, or why it was refused before any
    /// work (which a worker then answers at once).
    type Item: Send + 'static;
    /// The answer to one item.
    type Answer: Send + 'static;
    /// What a worker makes of a job's answers for the responses, besides
    /// the answers themselves (for batches, their results already
    /// encoded, so that the transport's threads only copy bytes).
    type Encoded: Send + 'static;
    /// The transport's error: what a failed request side yields, and what
    /// the stream ends with when it fails.
    type Error: Send + 'static;

    /// The stream's window: items and bytes in flight at once.
    fn window(&self) -> (usize, usize);
    /// How long the stream may wait for its first request, if that is
    /// bounded.
    fn first_message_timeout(&self) -> Option<Duration> {
        None
    }
    /// The most items one pool job holds, if the protocol sets it; by
    /// default the driver's choice ([`job_size`](super::driver::job_size)).
    /// Items that may each take a whole time budget go one a job, so that
    /// a few of them spread over every worker instead of queueing on one.
    fn items_per_job(&self) -> Option<usize> {
        None
    }
    /// The most items one request can carry and the most bytes it can be
    /// charged: what the driver makes room for before it reads one.
    fn largest(&self) -> (usize, usize);
    /// Checks a request against the caps and appends its items to `items`;
    /// returns what to keep of it and the bytes it is charged (at most
    /// [`Protocol::largest`]'s).
    fn admit(&self, request: Self::Request, items: &mut Vec<Self::Item>) -> (Self::Kept, usize);
    /// How many items the request with this `kept` added.
    fn items(kept: &Self::Kept) -> usize;
    /// Does the work of `items` on a pool worker: one answer per item, in
    /// order, and their encoding. Once `cancel` says so, the items left are
    /// answered without being worked on (see [`Protocol::is_answered`]).
    fn work(
        &self,
        items: Vec<Self::Item>,
        cancel: &CancelCheck,
    ) -> (Vec<Self::Answer>, Self::Encoded);
    /// The answers, and their encoding, of a job of `count` items that
    /// failed as a whole.
    fn failed(&self, error: JobError, count: usize) -> (Vec<Self::Answer>, Self::Encoded);
    /// False for the answer of an item that a stopped job never got to.
    fn is_answered(answer: &Self::Answer) -> bool;
    /// The responses to requests taken in together, in order, from the
    /// answers to all their items and what the workers encoded of them
    /// (one per job, in order).
    fn respond(
        &self,
        kept: Vec<Self::Kept>,
        answers: Vec<Self::Answer>,
        encoded: Vec<Self::Encoded>,
    ) -> Vec<Self::Response>;
    /// The error the stream ends with, if it ends with one, once it is
    /// known how it ended (the transport sends it as the call's status,
    /// and whoever counts calls counts that). Called once per stream.
    fn end(&self, ending: Ending<Self::Error>) -> Option<Self::Error>;
}
