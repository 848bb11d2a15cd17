//! The unary SolveBatch: a whole batch solved on the pool, or refused at
//! once.
//!
//! The batch is checked against `--max-batch` and the item caps, charged
//! to the batch budget (which SolveBatchStreams share), cut into jobs, and
//! queued all together or not at all: a budget or pool without room sheds
//! the call with RESOURCE_EXHAUSTED, as Solve is shed, so that a full
//! server never holds half-started batches. Dropping the
//! future (the deadline passed, the client went away) drops the job
//! handles, which cancels the jobs.

use super::admission::admit_batch;
use super::convert::encode_answers;
use super::error::ServiceError;
use super::jobs::{Answer, Item, failed_answers, solve_items};
use super::protocol::batch_response;
use super::rpc::Rpc;
use super::state::SudokuService;
use crate::domain::TimeLimits;
use crate::pb::{EncodedResults, SolveBatchRequest, SolveBatchResponse};
use crate::pool::CancelCheck;
use crate::streaming::{into_chunks, job_size};

/// Solves every puzzle of `request`, one result each, in order; a batch
/// refused as a whole, or shed, fails the call (and counts as one puzzle
/// in the metrics).
pub async fn solve_batch(
    service: &SudokuService,
    request: SolveBatchRequest,
) -> Result<SolveBatchResponse, ServiceError> {
    let grade = request.grade;
    let (id, puzzles, count) = request.into_parts();
    let (id, admitted, charge) = admit_batch(id, puzzles, count, service.limits.max_batch, grade);
    let refused = |error: ServiceError| {
        service
            .metrics
            .tally(Rpc::SolveBatch)
            .record(&Err(error.clone()));
        error
    };
    let items = admitted.map_err(refused)?;
    // Held until the response is made: the batch's text and answers.
    let budget = service.batch_budget();
    let _charge = budget.try_reserve(charge).ok_or_else(|| {
        refused(ServiceError::BatchesOverloaded {
            budget: budget.total(),
        })
    })?;
    let chunks = into_chunks(items, job_size(count, service.pool.workers()));
    let sizes: Vec<usize> = chunks.iter().map(Vec::len).collect();
    let limits = service.limits.time_limits();
    let jobs = chunks
        .into_iter()
        .map(|chunk| batch_job(chunk, limits))
        .collect();
    let jobs = service
        .pool
        .try_submit_all(jobs)
        .map_err(|full| refused(full.into()))?;
    let mut answers = Vec::with_capacity(count);
    let mut encoded = Vec::with_capacity(sizes.len());
    for (job, size) in jobs.into_iter().zip(sizes) {
        let (job_answers, job_encoded) = job.await.unwrap_or_else(|error| {
            let answers = failed_answers(error, size);
            let encoded = encode_answers(&answers);
            (answers, encoded)
        });
        answers.extend(job_answers);
        encoded.push(job_encoded);
    }
    let mut tally = service.metrics.tally(Rpc::SolveBatch);
    let mut encoded = encoded.into_iter().collect();
    Ok(batch_response(
        id,
        Ok(count),
        &mut answers.into_iter(),
        &mut encoded,
        &mut tally,
    ))
}

/// The pool job that solves a chunk of the batch, each puzzle within
/// `limits`, and encodes the results on the worker.
fn batch_job(
    chunk: Vec<Item>,
    limits: TimeLimits,
) -> impl FnOnce(&CancelCheck) -> (Vec<Answer>, EncodedResults) + Send + 'static {
    move |cancel| {
        let answers = solve_items(&chunk, limits, cancel);
        let encoded = encode_answers(&answers);
        (answers, encoded)
    }
}
