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

use super::convert::{Solved, solve_result, stream_response};
use super::error::{ServiceError, rpc_status};
use super::limits::{Limits, MAX_ITEM_CHARGE, admit_batch, admit_item};
use super::metrics::{PuzzleTally, Rpc};
use crate::pb::{SolveBatchRequest, SolveBatchResponse, SolveStreamRequest, SolveStreamResponse};

/// A puzzle to solve, or why it was refused before solving.
pub type Item = Result<String, ServiceError>;

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
    /// The RPC, for metrics and logs.
    const RPC: Rpc;

    /// The stream's window: puzzles and bytes in flight at once.
    fn window(&self) -> (usize, usize);
    /// The most puzzles one request can carry and the most it can be
    /// charged: what the driver makes room for before it reads one.
    fn largest(&self) -> (usize, usize);
    /// Checks a request against the caps and appends its puzzles to
    /// `items`; returns what to keep of it and what it is charged.
    fn admit(&self, request: Self::Request, items: &mut Vec<Item>) -> (Self::Kept, usize);
    /// How many puzzles of `items` the request with this `kept` added.
    fn puzzles(kept: &Self::Kept) -> usize;
    /// The response to a request, from the answers to its puzzles, in
    /// order; each answer is counted in `tally`.
    fn respond(
        kept: Self::Kept,
        answers: &mut dyn Iterator<Item = Answer>,
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
    const RPC: Rpc = Rpc::SolveStream;

    fn window(&self) -> (usize, usize) {
        (self.limits.stream_window, self.limits.stream_window_bytes)
    }

    fn largest(&self) -> (usize, usize) {
        (1, MAX_ITEM_CHARGE)
    }

    fn admit(&self, request: SolveStreamRequest, items: &mut Vec<Item>) -> (String, usize) {
        let (id, item, charge) = admit_item(request.id, request.puzzle);
        items.push(item);
        (id, charge)
    }

    fn puzzles(_: &String) -> usize {
        1
    }

    fn respond(
        id: String,
        answers: &mut dyn Iterator<Item = Answer>,
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
    const RPC: Rpc = Rpc::SolveBatchStream;

    fn window(&self) -> (usize, usize) {
        self.limits.batch_stream_window()
    }

    fn largest(&self) -> (usize, usize) {
        (self.limits.max_batch, self.limits.max_batch_charge())
    }

    fn admit(&self, request: SolveBatchRequest, items: &mut Vec<Item>) -> (KeptBatch, usize) {
        let count = request.puzzle_count();
        let SolveBatchRequest { id, puzzles, .. } = request;
        let (id, admitted, charge) = admit_batch(id, puzzles, count, self.limits.max_batch);
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

    fn respond(
        kept: KeptBatch,
        answers: &mut dyn Iterator<Item = Answer>,
        tally: &mut PuzzleTally<'_>,
    ) -> SolveBatchResponse {
        batch_response(kept.id, kept.puzzles, answers, tally)
    }
}

/// The response to a batch: one result per answer, or the batch's refusal
/// (counted as one invalid puzzle).
pub fn batch_response(
    id: String,
    puzzles: Result<usize, ServiceError>,
    answers: &mut dyn Iterator<Item = Answer>,
    tally: &mut PuzzleTally<'_>,
) -> SolveBatchResponse {
    match puzzles {
        Ok(count) => {
            let results = answers
                .take(count)
                .map(|answer| {
                    tally.record(&answer);
                    solve_result(answer)
                })
                .collect();
            SolveBatchResponse::new(id, results)
        }
        Err(refused) => {
            tally.record(&Err(refused.clone()));
            SolveBatchResponse::refused(id, rpc_status(&Status::from(refused)))
        }
    }
}
