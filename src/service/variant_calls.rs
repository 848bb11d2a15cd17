//! The variant RPCs on the pool: SolveVariant and VariantCandidates, one
//! puzzle a call, and SolveVariantStream as a protocol of the stream core
//! ([`crate::streaming`]), one puzzle a message, charged to the batch
//! calls' budget as SolveBatchStream's batches are (variant calls share
//! their slots).

use std::sync::Arc;

use tonic::Status;

use super::error::ServiceError;
use super::limits::VARIANT_ANSWER_BYTES;
use super::limits::{ITEM_OVERHEAD_BYTES, Limits, MAX_ID_BYTES, MAX_VARIANT_ITEM_CHARGE};
use super::metrics::Metrics;
use super::rpc::Rpc;
use super::state::SudokuService;
use super::stream::end_stream;
use super::variant::{
    VariantCandidates, VariantSolved, candidates_job, held_bytes, solve_variant_job,
    variant_response,
};
use crate::pb::{self, SolveVariantRequest, SolveVariantResponse};
use crate::pool::{CancelCheck, JobError};
use crate::streaming::{Ending, Protocol};

impl SudokuService {
    /// Certifies one variant puzzle on the pool; shed if the queue is full.
    pub(super) async fn solve_variant_one(
        &self,
        request: SolveVariantRequest,
    ) -> Result<pb::SolveVariantResponse, ServiceError> {
        check_id(&request.id)?;
        let limits = self.limits.time_limits();
        let source = request.puzzle;
        let answer = self
            .pool
            .try_submit(move |cancel| solve_variant_job(source, limits, cancel))?
            .await?;
        self.metrics
            .tally(Rpc::SolveVariant)
            .record_outcome(answer.as_ref().map(VariantSolved::outcome));
        Ok(variant_response(request.id, Ok(answer?)))
    }

    /// Finds a variant puzzle's true candidates on the pool.
    pub(super) async fn variant_candidates_one(
        &self,
        request: pb::VariantCandidatesRequest,
    ) -> Result<pb::VariantCandidatesResponse, ServiceError> {
        let limits = self.limits.time_limits();
        let answer = self
            .pool
            .try_submit(move |cancel| {
                candidates_job(request.puzzle, request.max_solutions, limits, cancel)
            })?
            .await?;
        self.metrics
            .tally(Rpc::VariantCandidates)
            .record_outcome(answer.as_ref().map(VariantCandidates::outcome));
        Ok(answer?.into())
    }
}

/// Refuses an id over [`MAX_ID_BYTES`].
fn check_id(id: &str) -> Result<(), ServiceError> {
    if id.len() > MAX_ID_BYTES {
        return Err(ServiceError::IdTooLong { length: id.len() });
    }
    Ok(())
}

/// SolveVariantStream: one variant puzzle per message, with its id.
pub struct VariantItems {
    limits: Limits,
    metrics: Arc<Metrics>,
}

impl VariantItems {
    /// The protocol under `limits`, counted in `metrics`.
    pub fn new(limits: Limits, metrics: Arc<Metrics>) -> VariantItems {
        VariantItems { limits, metrics }
    }
}

/// A variant puzzle to read and certify, or why it was refused first.
pub type VariantItem = Result<Option<pb::VariantSource>, ServiceError>;

/// A variant puzzle's answer, or why it has none.
pub type VariantAnswer = Result<VariantSolved, ServiceError>;

impl Protocol for VariantItems {
    type Request = SolveVariantRequest;
    type Response = SolveVariantResponse;
    type Kept = String;
    type Item = VariantItem;
    type Answer = VariantAnswer;
    type Encoded = ();
    type Error = Status;

    fn window(&self) -> (usize, usize) {
        self.limits.variant_stream_window()
    }

    fn first_message_timeout(&self) -> Option<std::time::Duration> {
        Some(self.limits.first_call_timeout)
    }

    fn largest(&self) -> (usize, usize) {
        (1, MAX_VARIANT_ITEM_CHARGE)
    }

    fn items_per_job(&self) -> Option<usize> {
        // A variant puzzle may take the whole solve budget: one a job.
        Some(1)
    }

    fn admit(&self, request: SolveVariantRequest, items: &mut Vec<VariantItem>) -> (String, usize) {
        match check_id(&request.id) {
            Ok(()) => {
                let charge = request.id.len() + held_bytes(&request.puzzle) + VARIANT_ANSWER_BYTES;
                items.push(Ok(request.puzzle));
                (request.id, charge)
            }
            Err(refused) => {
                items.push(Err(refused));
                (String::new(), ITEM_OVERHEAD_BYTES)
            }
        }
    }

    fn items(_: &String) -> usize {
        1
    }

    fn work(&self, items: Vec<VariantItem>, cancel: &CancelCheck) -> (Vec<VariantAnswer>, ()) {
        let limits = self.limits.time_limits();
        let answers = items
            .into_iter()
            .map(|item| match item {
                Err(refused) => Err(refused),
                Ok(_) if cancel.is_cancelled() => Err(ServiceError::Cancelled),
                Ok(source) => solve_variant_job(source, limits, cancel),
            })
            .collect();
        (answers, ())
    }

    fn failed(&self, error: JobError, count: usize) -> (Vec<VariantAnswer>, ()) {
        (vec![Err(ServiceError::from(error)); count], ())
    }

    fn is_answered(answer: &VariantAnswer) -> bool {
        !matches!(answer, Err(ServiceError::Cancelled))
    }

    fn respond(
        &self,
        ids: Vec<String>,
        answers: Vec<VariantAnswer>,
        _: Vec<()>,
    ) -> Vec<SolveVariantResponse> {
        let mut tally = self.metrics.tally(Rpc::SolveVariantStream);
        let mut answers = answers.into_iter();
        ids.into_iter()
            .map(|id| {
                let answer = answers.next().unwrap_or(Err(ServiceError::Cancelled));
                tally.record_outcome(answer.as_ref().map(VariantSolved::outcome));
                variant_response(id, answer)
            })
            .collect()
    }

    fn end(&self, ending: Ending<Status>) -> Option<Status> {
        end_stream(Rpc::SolveVariantStream, ending)
    }
}
