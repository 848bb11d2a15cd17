//! The work of puzzles on the pool, shared by streams and unary batches:
//! what a queued puzzle is, how a job solves a list of them, and what a
//! job that failed as a whole answers.

use std::time::Instant;

use super::convert::{Solved, solve_timed};
use super::error::ServiceError;
use crate::domain::TimeLimits;
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

/// A puzzle to solve, or why it was refused before solving.
pub type Item = Result<QueuedPuzzle, ServiceError>;

/// A puzzle's answer, or why it has none.
pub type Answer = Result<Solved, ServiceError>;

/// Solves (and grades, where asked) some puzzles on a worker, each within
/// `limits`, one answer each; once the job is stopped or cancelled, the
/// puzzles left are not started and answer [`ServiceError::Cancelled`].
pub fn solve_items(items: &[Item], limits: TimeLimits, cancel: &CancelCheck) -> Vec<Answer> {
    let mut clock = Instant::now();
    items
        .iter()
        .map(|item| match item {
            Err(refused) => Err(refused.clone()),
            Ok(_) if cancel.is_cancelled() => Err(ServiceError::Cancelled),
            Ok(puzzle) => {
                let (answer, ended) =
                    solve_timed(&puzzle.text, puzzle.grade, clock, limits, cancel);
                clock = ended;
                answer.map_err(Into::into)
            }
        })
        .collect()
}

/// The answers of a job of `count` puzzles that failed as a whole: each
/// fails alike.
pub fn failed_answers(error: JobError, count: usize) -> Vec<Answer> {
    vec![Err(ServiceError::from(error)); count]
}

/// True for the answer of a puzzle a stopped job never got to.
pub fn is_cancelled(answer: &Answer) -> bool {
    matches!(answer, Err(ServiceError::Cancelled))
}
