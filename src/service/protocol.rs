//! What tells SolveStream and SolveBatchStream apart, for the one stream
//! driver that runs both ([`super::stream`]).
//!
//! The driver deals in puzzles: it reads request messages, turns each into
//! puzzles (or refusals) charged to the stream's window and the server's
//! budget, has the pool solve them, and answers each message once all its
//! puzzles are answered. A [`Protocol`] says how one message becomes
//! puzzles and how their answers become its response: SolveStream carries
//! one puzzle per message, SolveBatchStream up to `--max-batch`.

use tonic::Status;

use std::collections::VecDeque;

use prost::bytes::Bytes;

use super::convert::{EncodedResults, Solved, stream_response};
use super::error::{ServiceError, rpc_status};
use super::jobs::QueuedPuzzle;
use super::limits::{Limits, MAX_ITEM_CHARGE, admit_batch, admit_item};
use super::metrics::{PuzzleTally, Rpc};
use crate::pb::{SolveBatchRequest, SolveBatchResponse, SolveStreamRequest, SolveStreamResponse};

/// A puzzle to solve, or why it was refused before solving.
pub type Item = Result<QueuedPuzzle, ServiceError>;

/// A puzzle's answer, or why it has none.
pub type Answer = Result<Solved, ServiceError>;

/// How the messages of one streaming RPC map to puzzles and back.
pub trait Protocol: Send + Sync + 'static {
    /// A request message.
    type Request: Send + 'static;
    /// A response message.
    type Response: Send + 'static;
    /// What the driver keeps of a request until it is answered.
    type Kept: Send + 'static;
    /// What a worker makes of a job's answers (see [`Protocol::encode`]).
    type Encoded: Send + 'static;
    /// The encoded answers of requests taken in together, read in order
    /// by [`Protocol::respond`].
    type Cursor: FromIterator<Self::Encoded>;
    /// The RPC, for metrics and logs.
    const RPC: Rpc;

    /// The stream's window: puzzles and bytes in flight at once.
    fn window(&self) -> (usize, usize);
    /// How long the stream may wait for its first request, if that is
    /// bounded.
    fn first_message_timeout(&self) -> Option<std::time::Duration> {
        None
    }
    /// The most puzzles one request can carry and the most it can be
    /// charged: what the driver makes room for before it reads one.
    fn largest(&self) -> (usize, usize);
    /// Checks a request against the caps and appends its puzzles to
    /// `items`; returns what to keep of it and what it is charged.
    fn admit(&self, request: Self::Request, items: &mut Vec<Item>) -> (Self::Kept, usize);
    /// How many puzzles of `items` the request with this `kept` added.
    fn puzzles(kept: &Self::Kept) -> usize;
    /// What a worker makes of a job's answers, besides keeping them, for
    /// the responses: for batches, their results already encoded, so that
    /// the transport's threads only copy bytes.
    fn encode(answers: &[Answer]) -> Self::Encoded;
    /// The response to a request, from the answers to its puzzles, in
    /// order, and what the workers encoded of them; each answer is counted
    /// in `tally`.
    fn respond(
        kept: Self::Kept,
        answers: &mut dyn Iterator<Item = Answer>,
        encoded: &mut Self::Cursor,
        tally: &mut PuzzleTally<'_>,
    ) -> Self::Response;
}

/// SolveStream: one puzzle per message, with its id.
pub struct SingleItems {
    limits: Limits,
}

impl SingleItems {
    /// The protocol under `limits`.
    pub fn new(limits: Limits) -> SingleItems {
        SingleItems { limits }
    }
}

impl Protocol for SingleItems {
    type Request = SolveStreamRequest;
    type Response = SolveStreamResponse;
    type Kept = String;
    type Encoded = ();
    type Cursor = ();
    const RPC: Rpc = Rpc::SolveStream;

    fn window(&self) -> (usize, usize) {
        (self.limits.stream_window, self.limits.stream_window_bytes)
    }

    fn largest(&self) -> (usize, usize) {
        (1, MAX_ITEM_CHARGE)
    }

    fn admit(&self, request: SolveStreamRequest, items: &mut Vec<Item>) -> (String, usize) {
        let (id, item, charge) = admit_item(request.id, request.puzzle, request.grade);
        items.push(item);
        (id, charge)
    }

    fn puzzles(_: &String) -> usize {
        1
    }

    fn encode(_: &[Answer]) {}

    fn respond(
        id: String,
        answers: &mut dyn Iterator<Item = Answer>,
        (): &mut (),
        tally: &mut PuzzleTally<'_>,
    ) -> SolveStreamResponse {
        let answer = answers.next().unwrap_or(Err(ServiceError::Cancelled));
        tally.record(&answer);
        stream_response(id, answer)
    }
}

/// SolveBatchStream: up to `--max-batch` puzzles per message.
pub struct Batches {
    limits: Limits,
}

impl Batches {
    /// The protocol under `limits`.
    pub fn new(limits: Limits) -> Batches {
        Batches { limits }
    }
}

/// What is kept of a batch: its id, and how many puzzles it added or why
/// it was refused as a whole.
pub struct KeptBatch {
    id: String,
    puzzles: Result<usize, ServiceError>,
}

impl Protocol for Batches {
    type Request = SolveBatchRequest;
    type Response = SolveBatchResponse;
    type Kept = KeptBatch;
    type Encoded = EncodedResults;
    type Cursor = EncodedCursor;
    const RPC: Rpc = Rpc::SolveBatchStream;

    fn window(&self) -> (usize, usize) {
        self.limits.batch_stream_window()
    }

    fn first_message_timeout(&self) -> Option<std::time::Duration> {
        Some(self.limits.first_message_timeout)
    }

    fn largest(&self) -> (usize, usize) {
        (self.limits.max_batch, self.limits.max_batch_charge())
    }

    fn admit(&self, request: SolveBatchRequest, items: &mut Vec<Item>) -> (KeptBatch, usize) {
        let grade = request.grade;
        let (id, puzzles, count) = request.into_parts();
        let (id, admitted, charge) = admit_batch(id, puzzles, count, self.limits.max_batch, grade);
        let puzzles = admitted.map(|admitted| {
            let count = admitted.len();
            items.extend(admitted);
            count
        });
        (KeptBatch { id, puzzles }, charge)
    }

    fn puzzles(kept: &KeptBatch) -> usize {
        *kept.puzzles.as_ref().unwrap_or(&0)
    }

    fn encode(answers: &[Answer]) -> EncodedResults {
        EncodedResults::of(answers)
    }

    fn respond(
        kept: KeptBatch,
        answers: &mut dyn Iterator<Item = Answer>,
        encoded: &mut EncodedCursor,
        tally: &mut PuzzleTally<'_>,
    ) -> SolveBatchResponse {
        batch_response(kept.id, kept.puzzles, answers, encoded, tally)
    }
}

/// Reads encoded results in order, across the jobs that made them.
#[derive(Debug, Default)]
pub struct EncodedCursor {
    jobs: VecDeque<EncodedResults>,
    /// Results of the front job already taken.
    taken: usize,
}

impl FromIterator<EncodedResults> for EncodedCursor {
    fn from_iter<I: IntoIterator<Item = EncodedResults>>(jobs: I) -> Self {
        EncodedCursor {
            jobs: jobs.into_iter().filter(|job| !job.is_empty()).collect(),
            taken: 0,
        }
    }
}

impl EncodedCursor {
    /// The next `count` results' bytes, shared, in as few pieces as the
    /// jobs that encoded them.
    fn take(&mut self, mut count: usize) -> Vec<Bytes> {
        let mut pieces = Vec::new();
        while count > 0 {
            let Some(job) = self.jobs.front() else {
                debug_assert!(false, "fewer encoded results than answers");
                break;
            };
            let taking = count.min(job.len() - self.taken);
            pieces.push(job.slice(self.taken, self.taken + taking));
            self.taken += taking;
            count -= taking;
            if self.taken == job.len() {
                self.jobs.pop_front();
                self.taken = 0;
            }
        }
        pieces
    }
}

/// The response to a batch: one result per answer, or the batch's refusal
/// (counted as one invalid puzzle).
pub fn batch_response(
    id: String,
    puzzles: Result<usize, ServiceError>,
    answers: &mut dyn Iterator<Item = Answer>,
    encoded: &mut EncodedCursor,
    tally: &mut PuzzleTally<'_>,
) -> SolveBatchResponse {
    match puzzles {
        Ok(count) => {
            for answer in answers.take(count) {
                tally.record(&answer);
            }
            SolveBatchResponse::encoded(id, encoded.take(count))
        }
        Err(refused) => {
            tally.record(&Err(refused.clone()));
            SolveBatchResponse::refused(id, rpc_status(&Status::from(refused)))
        }
    }
}
