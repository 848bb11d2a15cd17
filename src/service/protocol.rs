//! SolveStream and SolveBatchStream as protocols of the stream core
//! ([`crate::streaming`]): how one message becomes puzzles charged to the
//! stream, how a job solves them, and how their answers become the
//! message's response. SolveStream carries one puzzle per message,
//! SolveBatchStream up to `--max-batch`.

use std::collections::VecDeque;
use std::sync::Arc;

use tonic::Status;

use super::admission::{admit_batch, admit_item};
use super::convert::{encode_answers, stream_response};
use super::error::{ServiceError, rpc_status};
use super::jobs::{Answer, Item, failed_answers, is_cancelled, solve_items};
use super::limits::{Limits, MAX_ITEM_CHARGE};
use super::metrics::{Metrics, PuzzleTally};
use super::rpc::Rpc;
use super::stream::end_stream;
use crate::pb::{
    EncodedResults, EncodedRun, SolveBatchRequest, SolveBatchResponse, SolveStreamRequest,
    SolveStreamResponse,
};
use crate::pool::{CancelCheck, JobError};
use crate::streaming::{Ending, Protocol};

/// SolveStream: one puzzle per message, with its id.
pub struct SingleItems {
    limits: Limits,
    metrics: Arc<Metrics>,
}

impl SingleItems {
    /// The protocol under `limits`, counted in `metrics`.
    pub fn new(limits: Limits, metrics: Arc<Metrics>) -> SingleItems {
        SingleItems { limits, metrics }
    }
}

impl Protocol for SingleItems {
    type Request = SolveStreamRequest;
    type Response = SolveStreamResponse;
    type Kept = String;
    type Item = Item;
    type Answer = Answer;
    type Encoded = ();
    type Error = Status;

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

    fn items(_: &String) -> usize {
        1
    }

    fn work(&self, items: Vec<Item>, cancel: &CancelCheck) -> (Vec<Answer>, ()) {
        (solve_items(&items, self.limits.time_limits(), cancel), ())
    }

    fn failed(&self, error: JobError, count: usize) -> (Vec<Answer>, ()) {
        (failed_answers(error, count), ())
    }

    fn is_answered(answer: &Answer) -> bool {
        !is_cancelled(answer)
    }

    fn respond(
        &self,
        ids: Vec<String>,
        answers: Vec<Answer>,
        _: Vec<()>,
    ) -> Vec<SolveStreamResponse> {
        let mut tally = self.metrics.tally(Rpc::SolveStream);
        let mut answers = answers.into_iter();
        ids.into_iter()
            .map(|id| {
                let answer = answers.next().unwrap_or(Err(ServiceError::Cancelled));
                tally.record(&answer);
                stream_response(id, answer)
            })
            .collect()
    }

    fn end(&self, ending: Ending<Status>) -> Option<Status> {
        end_stream(Rpc::SolveStream, ending)
    }
}

/// SolveBatchStream: up to `--max-batch` puzzles per message.
pub struct Batches {
    limits: Limits,
    metrics: Arc<Metrics>,
}

impl Batches {
    /// The protocol under `limits`, counted in `metrics`.
    pub fn new(limits: Limits, metrics: Arc<Metrics>) -> Batches {
        Batches { limits, metrics }
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
    type Item = Item;
    type Answer = Answer;
    type Encoded = EncodedResults;
    type Error = Status;

    fn window(&self) -> (usize, usize) {
        self.limits.batch_stream_window()
    }

    fn first_message_timeout(&self) -> Option<std::time::Duration> {
        Some(self.limits.first_call_timeout)
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

    fn items(kept: &KeptBatch) -> usize {
        *kept.puzzles.as_ref().unwrap_or(&0)
    }

    fn work(&self, items: Vec<Item>, cancel: &CancelCheck) -> (Vec<Answer>, EncodedResults) {
        let answers = solve_items(&items, self.limits.time_limits(), cancel);
        let encoded = encode_answers(&answers);
        (answers, encoded)
    }

    fn failed(&self, error: JobError, count: usize) -> (Vec<Answer>, EncodedResults) {
        let answers = failed_answers(error, count);
        let encoded = encode_answers(&answers);
        (answers, encoded)
    }

    fn is_answered(answer: &Answer) -> bool {
        !is_cancelled(answer)
    }

    fn respond(
        &self,
        kept: Vec<KeptBatch>,
        answers: Vec<Answer>,
        encoded: Vec<EncodedResults>,
    ) -> Vec<SolveBatchResponse> {
        let mut tally = self.metrics.tally(Rpc::SolveBatchStream);
        let mut answers = answers.into_iter();
        let mut encoded = encoded.into_iter().collect();
        kept.into_iter()
            .map(|kept| {
                batch_response(
                    kept.id,
                    kept.puzzles,
                    &mut answers,
                    &mut encoded,
                    &mut tally,
                )
            })
            .collect()
    }

    fn end(&self, ending: Ending<Status>) -> Option<Status> {
        end_stream(Rpc::SolveBatchStream, ending)
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
    fn take(&mut self, mut count: usize) -> Vec<EncodedRun> {
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
            SolveBatchResponse::from_encoded(id, encoded.take(count))
        }
        Err(refused) => {
            tally.record(&Err(refused.clone()));
            SolveBatchResponse::refused(id, rpc_status(&Status::from(refused)))
        }
    }
}
