//! One puzzle's answer, wherever it was worked out.
//!
//! A file solved in this process and a file streamed through servers end
//! in the same place: one [`Answer`] per puzzle, which the command line
//! prints. On the client side an answer is built only from a response that
//! has been checked (see `crate::client`), so what it holds can be trusted
//! as much as the local solver.

use super::solver::SolveReport;
use super::{Board, Outcome, SolvePuzzleError};

/// What became of one puzzle, with what goes with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The outcome.
    pub outcome: Outcome,
    /// A solution, when the outcome has one.
    pub solution: Option<Board>,
    /// Why there is no verdict, for invalid, abandoned and failed puzzles.
    pub error: Option<String>,
    /// The solver's branching decisions, when known.
    pub guesses: Option<u64>,
}

impl Answer {
    /// A puzzle that got no verdict (`outcome` is one that
    /// [`Outcome::has_error`]), with the reason.
    pub fn refused(outcome: Outcome, message: impl Into<String>) -> Answer {
        Answer {
            outcome,
            solution: None,
            error: Some(message.into()),
            guesses: None,
        }
    }
}

impl From<&SolveReport> for Answer {
    fn from(report: &SolveReport) -> Answer {
        Answer {
            outcome: report.outcome,
            solution: report.solution,
            error: None,
            guesses: Some(report.stats.guesses),
        }
    }
}

impl From<Result<SolveReport, SolvePuzzleError>> for Answer {
    /// The answer a solve in this process gives: its report, or the error
    /// as the outcome it stands for.
    fn from(result: Result<SolveReport, SolvePuzzleError>) -> Answer {
        match result {
            Ok(report) => Answer::from(&report),
            Err(error) => {
                let outcome = match error {
                    SolvePuzzleError::Puzzle(_) => Outcome::Invalid,
                    SolvePuzzleError::GaveUp(_) => Outcome::GaveUp,
                    SolvePuzzleError::Cancelled => Outcome::Failed,
                };
                Answer::refused(outcome, error.to_string())
            }
        }
    }
}
