//! Cutting puzzles into pool jobs, and a job's answers back into one
//! answer per puzzle: shared by streams and unary batches.
//!
//! Handing a job to a worker costs about as much as solving an easy
//! puzzle, so puzzles go to the pool in jobs of up to [`JOB_PUZZLES`]; a
//! large batch cut into jobs is solved by every worker at once.

use std::time::{Duration, Instant};

use super::convert::solve_timed;
use super::error::ServiceError;
use super::protocol::{Answer, Item};
use crate::pb::SharedText;
use crate::pool::{CancelCheck, JobError};

/// A puzzle admitted to be solved, and whether its answer is to carry a
/// grade: requests of one stream may differ, and a job may hold puzzles
/// of several.
#[derive(Debug, Clone)]
pub struct QueuedPuzzle {
    /// The puzzle text, as the client sent it.
    pub text: SharedText,
    /// Also grade it (within the same time budget).
    pub grade: bool,
}

/// The most puzzles solved as one pool job, and the most a stream takes in
/// at once from requests that have already arrived.
pub const JOB_PUZZLES: usize = 64;

/// `items` cut into chunks of at most `size`, in order (none for no
/// items).
pub fn into_chunks(items: Vec<Item>, size: usize) -> Vec<Vec<Item>> {
    if items.is_empty() {
        return Vec::new();
    }
    if items.len() <= size {
        return vec![items];
    }
    let mut chunks = Vec::with_capacity(items.len().div_ceil(size));
    let mut items = items.into_iter();
    loop {
        let chunk: Vec<Item> = items.by_ref().take(size).collect();
        if chunk.is_empty() {
            return chunks;
        }
        chunks.push(chunk);
    }
}

/// The pool job that solves some puzzles, each within `max_time`; once the
/// job is stopped or cancelled, the puzzles left are not started.
pub fn solve_items(
    items: Vec<Item>,
    max_time: Duration,
) -> impl FnOnce(&CancelCheck) -> Vec<Answer> + Send + 'static {
    move |cancel| {
        let mut clock = Instant::now();
        items
            .iter()
            .map(|item| match item {
                Err(refused) => Err(refused.clone()),
                Ok(_) if cancel.is_cancelled() => Err(ServiceError::Cancelled),
                Ok(puzzle) => {
                    let (answer, ended) =
                        solve_timed(&puzzle.text, puzzle.grade, clock, max_time, cancel);
                    clock = ended;
                    answer.map_err(Into::into)
                }
            })
            .collect()
    }
}

/// [`solve_items`], and then `encode` on the same worker: what a stream's
/// protocol makes of the answers for its responses.
pub fn solve_and_encode<E: 'static>(
    items: Vec<Item>,
    max_time: Duration,
    encode: fn(&[Answer]) -> E,
) -> impl FnOnce(&CancelCheck) -> (Vec<Answer>, E) + Send + 'static {
    let solve = solve_items(items, max_time);
    move |cancel| {
        let answers = solve(cancel);
        let encoded = encode(&answers);
        (answers, encoded)
    }
}

/// A job's answers and their encoding, one answer per puzzle: a job that
/// failed as a whole fails each of its `count` puzzles alike, encoded
/// here with `encode`.
pub fn encoded_answers<E>(
    result: Result<(Vec<Answer>, E), JobError>,
    count: usize,
    encode: fn(&[Answer]) -> E,
) -> (Vec<Answer>, E) {
    result.unwrap_or_else(|error| {
        let answers = vec![Err(ServiceError::from(error)); count];
        let encoded = encode(&answers);
        (answers, encoded)
    })
}

/// Puzzles per job for a batch of `puzzles` on `workers` threads: the
/// batch split evenly among the workers, so that each hand-off carries as
/// much as it can while every worker has a share, and never fewer than
/// [`JOB_PUZZLES`] (unless the batch is smaller).
pub fn job_size(puzzles: usize, workers: usize) -> usize {
    JOB_PUZZLES.max(puzzles.div_ceil(workers.max(1)))
}
