//! Grades, hints and explanations: the logical solver's answers as
//! protobuf messages, and the Hint and Explain calls.
//!
//! Like solving, every grade, hint and explanation runs on the worker
//! pool within the per-puzzle time budget (`--max-solve-time`), which
//! covers the certifying solve and the logical one together.

use std::time::Instant;

use crate::domain::logic::{Grade, Hint, Level, Mark, Step};
use crate::domain::{HintError, Outcome, explain_puzzle, hint_puzzle};
use crate::pb;

use super::SudokuService;
use super::convert::pb_outcome;
use super::error::ServiceError;
use super::limits::{check_puzzle, check_puzzle_length};

/// The protobuf form of a grade.
pub fn pb_grade(grade: &Grade) -> pb::Grade {
    pb::Grade {
        rating: grade.rating.value(),
        level: pb_level(grade.level()) as i32,
        hardest_technique: grade
            .hardest
            .map(|t| t.name().to_string())
            .unwrap_or_default(),
        techniques: grade
            .techniques
            .iter()
            .map(|(technique, count)| pb::TechniqueCount {
                technique: technique.name().to_string(),
                count,
            })
            .collect(),
        stalled: grade.stalled.is_some(),
        stalled_reason: grade.stalled.map(|s| s.to_string()).unwrap_or_default(),
    }
}

fn pb_level(level: Level) -> pb::Level {
    match level {
        Level::Easy => pb::Level::Easy,
        Level::Medium => pb::Level::Medium,
        Level::Hard => pb::Level::Hard,
        Level::Diabolical => pb::Level::Diabolical,
    }
}

/// The protobuf form of a candidate: 1-based row and column.
pub fn pb_candidate(mark: Mark) -> pb::Candidate {
    let cell = mark.cell();
    pb::Candidate {
        row: cell.row() as u32 + 1,
        column: cell.column() as u32 + 1,
        digit: u32::from(mark.digit),
    }
}

/// The protobuf form of a step, with its explanation.
pub fn pb_step(step: &Step) -> pb::Step {
    let candidates = |marks: &[Mark]| marks.iter().copied().map(pb_candidate).collect();
    pb::Step {
        technique: step.technique.name().to_string(),
        rating: step.rating.value(),
        cells: candidates(&step.pattern),
        placements: candidates(&step.placements),
        eliminations: candidates(&step.eliminations),
        explanation: step.explanation(),
    }
}

impl From<HintError> for ServiceError {
    fn from(error: HintError) -> ServiceError {
        match error {
            HintError::Puzzle(error) => error.into(),
            HintError::Progress(error) => ServiceError::InvalidProgress(error),
            HintError::Position(error) => ServiceError::InvalidPosition(error),
        }
    }
}

impl SudokuService {
    /// Answers a Hint call on the pool, with the puzzle's outcome.
    pub(super) async fn hint_one(
        &self,
        request: pb::HintRequest,
    ) -> Result<(Outcome, pb::HintResponse), ServiceError> {
        check_puzzle(&request.puzzle)?;
        check_puzzle_length(request.progress.len()).map_err(ServiceError::InvalidProgress)?;
        let max_time = self.limits.max_solve_time;
        let answer = self.pool.try_submit(move |cancel| {
            hint_puzzle(
                &request.puzzle,
                &request.progress,
                &request.marks,
                Instant::now(),
                Some(max_time),
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
        let max_time = self.limits.max_solve_time;
        let answer = self.pool.try_submit(move |cancel| {
            explain_puzzle(&request.puzzle, Instant::now(), Some(max_time), &|| {
                cancel.is_cancelled()
            })
        })?;
        let explained = answer.await??;
        let response = pb::ExplainResponse {
            steps: explained.steps.iter().map(pb_step).collect(),
            grade: explained.grade.as_ref().map(pb_grade),
            outcome: pb_outcome(explained.outcome) as i32,
        };
        Ok((explained.outcome, response))
    }
}
