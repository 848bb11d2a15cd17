//! The stream core: what runs one SolveStream, SolveBatchStream or
//! Generate call, with no knowledge of gRPC, protobuf or the solver. The service's
//! handlers adapt their messages to a [`Protocol`] and hand the call to a
//! [`Driver`] (a server-streaming call, Generate, is a [`Source`] and goes
//! to a [`SourceDriver`]); this module keeps the rules that make a stream safe to
//! serve. The rules that say what a stream may wait for next, and how each
//! event changes what it holds, are a plain state type (`flow.rs`), unit
//! tested one transition at a time with no runtime; the driver polls what
//! that state holds, and its own tests check the whole on a paused clock
//! with a protocol made up for the test.
//!
//! The rules:
//!
//! * **Bounded, in items and in bytes.** Before the driver reads a request
//!   it reserves the most the request can be charged from its
//!   [`ByteBudget`], shared with other streams, and it reads only while its
//!   [`StreamWindow`] has room for that much; when either is full it stops
//!   reading, so that the transport's flow control pushes back on the
//!   client instead of the server buffering. Once the request is read the
//!   reservation shrinks to its charge.
//! * **Room comes back only when the transport has taken the answers.**
//!   A group's [`Admission`] travels with its responses and is dropped with
//!   the last one, so a client that stops reading answers stops the server
//!   too.
//! * **Answers leave in request order.** The driver only ever waits for
//!   the oldest pending job; later jobs finishing first just wait.
//! * **Few hand-offs.** Requests that have already arrived when one is read
//!   are taken in with it, up to [`JOB_ITEMS`] items, and their items go to
//!   the pool in jobs of up to [`JOB_ITEMS`] (or an even share of the
//!   workers): handing a job to a worker costs about as much as solving an
//!   easy puzzle. A stream that trickles gets one job per request, with no
//!   waiting to fill a batch.
//! * **Everything the driver waits for is one branch of one `select!`**
//!   (room in the budget, in the pool, in the response channel, the oldest
//!   job's answers, the next request), so the deadline, the client going
//!   away and the server draining are seen whatever it is waiting for.
//! * **Early ends.** The stream ends early, after the answers it owes,
//!   when the request side fails, when the server drains, when no first
//!   request comes in time, or when the deadline passes (the answers
//!   already computed are sent, the rest of the work is stopped). The
//!   protocol names each [`Ending`] for the client. The final error is set
//!   without waiting for the client, and a stream that failed (other than
//!   by its deadline) keeps reading and dropping what its client still
//!   sends for a while (see [`LINGER`]). If the client goes away, the driver drops its pending
//!   jobs, which cancels them (see [`crate::pool`]).

mod budget;
mod driver;
mod flow;
mod protocol;
mod responses;
mod source;
#[cfg(test)]
mod tests;

pub use budget::{Admission, ByteBudget, Charge, StreamWindow};
pub use driver::{Driver, JOB_ITEMS, LINGER, STOP_GRACE, into_chunks, job_size};
pub use protocol::{Ending, Protocol};
pub use responses::{
    RESPONSE_BUFFER, ResponseSender, ResponseStream, StreamSlot, response_channel,
};
pub use source::{Source, SourceDriver, SourceJob};
