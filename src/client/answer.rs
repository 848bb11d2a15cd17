//! One answer as the command line prints it, and the exit code a run earns.
//!
//! Text output is one line per puzzle: a verdict word, a space, then the
//! solution (81 digits) or the error message:
//!
//! ```text
//! solved 534678912672195348198342567859761423426853791713924856961537284287419635345286179
//! multiple 123456789456789123789123456214365897365897214897214365531642978642978531978531642
//! unsolvable
//! invalid expected 81 cells (digits 1-9, or '.' or '0' for blanks), found 80
//! ```

use std::fmt;

use crate::pb;

/// What became of one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one solution.
    Solved,
    /// Several solutions; one is shown.
    Multiple,
    /// No solution.
    Unsolvable,
    /// Malformed text or conflicting givens.
    Invalid,
    /// The server failed on this puzzle.
    Failed,
}

impl Verdict {
    /// The word that starts the output line.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Solved => "solved",
            Verdict::Multiple => "multiple",
            Verdict::Unsolvable => "unsolvable",
            Verdict::Invalid => "invalid",
            Verdict::Failed => "failed",
        }
    }
}

/// One puzzle's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// What became of the puzzle.
    pub verdict: Verdict,
    /// The solution as 81 digits, when there is one.
    pub solution: Option<String>,
    /// The error message, for invalid or failed puzzles.
    pub error: Option<String>,
}

impl Answer {
    /// The answer for an invalid puzzle.
    pub fn invalid(message: &str) -> Answer {
        Answer {
            verdict: Verdict::Invalid,
            solution: None,
            error: Some(message.to_string()),
        }
    }

    fn from_parts(outcome: pb::Outcome, solution: String, error: Option<String>) -> Answer {
        let verdict = match outcome {
            pb::Outcome::Solved => Verdict::Solved,
            pb::Outcome::MultipleSolutions => Verdict::Multiple,
            pb::Outcome::NoSolution => Verdict::Unsolvable,
            pb::Outcome::Invalid => Verdict::Invalid,
            pb::Outcome::Unspecified => Verdict::Failed,
        };
        Answer {
            verdict,
            solution: (!solution.is_empty()).then_some(solution),
            error,
        }
    }
}

impl From<pb::SolveResponse> for Answer {
    fn from(response: pb::SolveResponse) -> Answer {
        Answer::from_parts(response.outcome(), response.solution, None)
    }
}

impl From<pb::SolveStreamResponse> for Answer {
    fn from(response: pb::SolveStreamResponse) -> Answer {
        let error = response.error.as_ref().map(|status| status.message.clone());
        Answer::from_parts(response.outcome(), response.solution, error)
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.verdict.word())?;
        if let Some(detail) = self.solution.as_ref().or(self.error.as_ref()) {
            write!(f, " {detail}")?;
        }
        Ok(())
    }
}

/// The command line's exit codes, from best to worst. A run exits with the
/// worst code any of its puzzles earned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitCode {
    /// Every puzzle has exactly one solution (or the health check passed).
    Success = 0,
    /// Every puzzle was answered, but some have no solution or several (or
    /// the server is not serving).
    NotUnique = 1,
    /// Some puzzle was invalid, or the command line was misused.
    Invalid = 2,
    /// The server could not be reached or failed.
    Failure = 3,
}

impl ExitCode {
    /// The code one answer earns.
    pub fn for_verdict(verdict: Verdict) -> ExitCode {
        match verdict {
            Verdict::Solved => ExitCode::Success,
            Verdict::Multiple | Verdict::Unsolvable => ExitCode::NotUnique,
            Verdict::Invalid => ExitCode::Invalid,
            Verdict::Failed => ExitCode::Failure,
        }
    }
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(code: ExitCode) -> Self {
        std::process::ExitCode::from(code as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_start_with_the_verdict() {
        let solved = Answer::from(pb::SolveResponse {
            outcome: pb::Outcome::Solved as i32,
            solution: "1".repeat(81),
            stats: None,
        });
        assert_eq!(solved.to_string(), format!("solved {}", "1".repeat(81)));
        let none = Answer::from(pb::SolveResponse {
            outcome: pb::Outcome::NoSolution as i32,
            ..Default::default()
        });
        assert_eq!(none.to_string(), "unsolvable");
        assert_eq!(Answer::invalid("bad").to_string(), "invalid bad");
    }

    #[test]
    fn exit_codes_rank_from_best_to_worst() {
        assert!(ExitCode::Success < ExitCode::NotUnique);
        assert!(ExitCode::NotUnique < ExitCode::Invalid);
        assert_eq!(
            ExitCode::for_verdict(Verdict::Multiple),
            ExitCode::NotUnique
        );
        assert_eq!(ExitCode::for_verdict(Verdict::Failed), ExitCode::Failure);
    }
}
