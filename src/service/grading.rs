//! The Hint and Explain calls.
//!
//! Like solving, every grade, hint and explanation runs on the worker
//! pool: the certifying solve within `--max-solve-time`, the logical
//! solver after it within `--max-grade-time` (rating the hardest puzzles
//! takes far longer than solving them).

use std::time::Instant;

use crate::domain::logic::Hint;
use crate::domain::{Outcome, PositionText, explain_puzzle, hint_puzzle};
use crate::pb;

use super::admission::{check_puzzle, check_puzzle_length};
use super::error::ServiceError;
use super::logic_messages::{pb_candidate, pb_grade, pb_outcome, pb_step};
use super::state::SudokuService;

impl SudokuService {
    /// Answers a Hint call on the pool, with the puzzle's outcome.
    pub(super) async fn hint_one(
        &self,
        request: pb::HintRequest,
    ) -> Result<(Outcome, pb::HintResponse), ServiceError> {
        check_puzzle(&request.puzzle)?;
        check_puzzle_length(request.progress.len()).map_err(ServiceError::InvalidProgress)?;
        let limits = self.limits.time_limits();
        let answer = self.pool.try_submit(move |cancel| {
            hint_puzzle(
                &request.puzzle,
                &request.progress,
                &request.marks,
                Instant::now(),
                limits,
                &|| cancel.is_cancelled(),
            )
        })?;
        let answer = answer.await??;
        let mut response = pb::HintResponse {
            outcome: pb_outcome(answer.outcome) as i32,
            ..Default::default()
        };
        match answer.hint {
            Some(Hint::Step(step)) => response.step = Some(pb_step(&step)),
            Some(Hint::Mistake(mark)) => response.mistake = Some(pb_candidate(mark)),
            Some(Hint::Solved) => response.position_solved = true,
            Some(Hint::Stalled) => {
                response.stalled_reason =
                    "no technique the logical solver knows applies, or the time budget ran out"
                        .to_string()
            }
            None => {}
        }
        Ok((answer.outcome, response))
    }

    /// Answers an Explain call on the pool, with the puzzle's outcome.
    pub(super) async fn explain_one(
        &self,
        request: pb::ExplainRequest,
    ) -> Result<(Outcome, pb::ExplainResponse), ServiceError> {
        check_puzzle(&request.puzzle)?;
        check_puzzle_length(request.progress.len()).map_err(ServiceError::InvalidProgress)?;
        let limits = self.limits.time_limits();
        let answer = self.pool.try_submit(move |cancel| {
            let position = PositionText {
                progress: &request.progress,
                marks: &request.marks,
            };
            explain_puzzle(&request.puzzle, position, Instant::now(), limits, &|| {
                cancel.is_cancelled()
            })
        })?;
        let explained = answer.await??;
        let response = pb::ExplainResponse {
            steps: explained.steps.iter().map(pb_step).collect(),
            grade: explained.grade.as_ref().map(pb_grade),
            outcome: pb_outcome(explained.outcome) as i32,
            mistake: explained.mistake.map(pb_candidate),
        };
        Ok((explained.outcome, response))
    }
}
