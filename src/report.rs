//! What the command line prints: one line per puzzle, a summary, and the
//! exit code.
//!
//! Text lines are a verdict word, a space, and the solution (81 digits) or
//! the error message; `unsolvable` stands alone:
//!
//! ```text
//! solved 534678912672195348198342567859761423426853791713924856961537284287419635345286179
//! multiple 123456789456789123789123456214365897365897214897214365531642978642978531978531642
//! unsolvable
//! invalid expected 81 cells (digits 1-9, or '.' or '0' for blanks), found 80
//! ```
//!
//! JSON lines carry the same, plus the puzzle's line number in the input and
//! the solver's guesses when known:
//!
//! ```text
//! {"line":1,"outcome":"solved","solution":"534678912…","guesses":0}
//! {"line":2,"outcome":"invalid","error":"expected 81 cells (…), found 80"}
//! ```

use std::fmt;
use std::time::Duration;

use crate::domain::Board;
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
    /// The word that starts a text line and is the JSON `outcome`.
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

impl From<crate::domain::Outcome> for Verdict {
    fn from(outcome: crate::domain::Outcome) -> Verdict {
        match outcome {
            crate::domain::Outcome::Solved => Verdict::Solved,
            crate::domain::Outcome::MultipleSolutions => Verdict::Multiple,
            crate::domain::Outcome::NoSolution => Verdict::Unsolvable,
        }
    }
}

impl From<pb::Outcome> for Verdict {
    fn from(outcome: pb::Outcome) -> Verdict {
        match outcome {
            pb::Outcome::Solved => Verdict::Solved,
            pb::Outcome::MultipleSolutions => Verdict::Multiple,
            pb::Outcome::NoSolution => Verdict::Unsolvable,
            pb::Outcome::Invalid => Verdict::Invalid,
            pb::Outcome::Unspecified => Verdict::Failed,
        }
    }
}

/// One puzzle's answer, however it was obtained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// What became of the puzzle.
    pub verdict: Verdict,
    /// The solution as 81 digits, when there is one.
    pub solution: Option<String>,
    /// The error message, for invalid or failed puzzles.
    pub error: Option<String>,
    /// The solver's branching decisions, when known.
    pub guesses: Option<u64>,
}

impl Answer {
    /// The answer for an invalid puzzle.
    pub fn invalid(message: &str) -> Answer {
        Answer {
            verdict: Verdict::Invalid,
            solution: None,
            error: Some(message.to_string()),
            guesses: None,
        }
    }

    /// Appends the answer as one line in `format`; `line` is the puzzle's
    /// line number in the input.
    pub fn write(&self, out: &mut Vec<u8>, format: Format, line: u64) {
        let fields = Fields {
            verdict: self.verdict,
            solution: self.solution.as_deref().map(str::as_bytes),
            error: self.error.as_deref(),
            guesses: self.guesses,
        };
        fields.write(out, format, line);
    }
}

impl From<pb::SolveResponse> for Answer {
    fn from(response: pb::SolveResponse) -> Answer {
        Answer {
            verdict: response.outcome().into(),
            guesses: response.stats.map(|stats| stats.guesses),
            solution: Some(response.solution).filter(|s| !s.is_empty()),
            error: None,
        }
    }
}

impl From<pb::SolveStreamResponse> for Answer {
    fn from(response: pb::SolveStreamResponse) -> Answer {
        Answer {
            verdict: response.outcome().into(),
            guesses: response.stats.map(|stats| stats.guesses),
            error: response.error.map(|status| status.message),
            solution: Some(response.solution).filter(|s| !s.is_empty()),
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = Vec::new();
        self.write(&mut line, Format::Text, 1);
        line.pop(); // the newline
        f.write_str(&String::from_utf8_lossy(&line))
    }
}

/// Output formats of the command line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `VERDICT SOLUTION-OR-ERROR` lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// The parts of an output line, borrowed so the batch path allocates nothing.
pub(crate) struct Fields<'a> {
    pub verdict: Verdict,
    pub solution: Option<&'a [u8]>,
    pub error: Option<&'a str>,
    pub guesses: Option<u64>,
}

impl Fields<'_> {
    pub(crate) fn write(&self, out: &mut Vec<u8>, format: Format, line: u64) {
        match format {
            Format::Text => {
                out.extend_from_slice(self.verdict.word().as_bytes());
                if let Some(detail) = self.solution.or(self.error.map(str::as_bytes)) {
                    out.push(b' ');
                    out.extend_from_slice(detail);
                }
            }
            Format::Json => {
                out.extend_from_slice(b"{\"line\":");
                out.extend_from_slice(itoa::Buffer::new().format(line).as_bytes());
                out.extend_from_slice(b",\"outcome\":\"");
                out.extend_from_slice(self.verdict.word().as_bytes());
                out.push(b'"');
                if let Some(solution) = self.solution {
                    out.extend_from_slice(b",\"solution\":\"");
                    out.extend_from_slice(solution);
                    out.push(b'"');
                }
                if let Some(error) = self.error {
                    out.extend_from_slice(b",\"error\":");
                    serde_json::to_writer(&mut *out, error).expect("writing to a Vec cannot fail");
                }
                if let Some(guesses) = self.guesses {
                    out.extend_from_slice(b",\"guesses\":");
                    out.extend_from_slice(itoa::Buffer::new().format(guesses).as_bytes());
                }
                out.push(b'}');
            }
        }
        out.push(b'\n');
    }
}

/// Writes a solved board's line without allocating.
pub(crate) fn write_solution(
    out: &mut Vec<u8>,
    format: Format,
    line: u64,
    verdict: Verdict,
    solution: Option<&Board>,
    guesses: u64,
) {
    let mut digits = [0u8; 81];
    let solution = solution.map(|board| {
        board.write_line(&mut digits);
        &digits[..]
    });
    Fields {
        verdict,
        solution,
        error: None,
        guesses: Some(guesses),
    }
    .write(out, format, line);
}

/// How many puzzles got each verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Exactly one solution.
    pub solved: u64,
    /// Several solutions.
    pub multiple: u64,
    /// No solution.
    pub unsolvable: u64,
    /// Invalid puzzles.
    pub invalid: u64,
    /// Puzzles the server failed on.
    pub failed: u64,
}

impl Tally {
    /// Counts one verdict.
    pub fn add(&mut self, verdict: Verdict) {
        *match verdict {
            Verdict::Solved => &mut self.solved,
            Verdict::Multiple => &mut self.multiple,
            Verdict::Unsolvable => &mut self.unsolvable,
            Verdict::Invalid => &mut self.invalid,
            Verdict::Failed => &mut self.failed,
        } += 1;
    }

    /// Adds another tally to this one.
    pub fn merge(&mut self, other: &Tally) {
        self.solved += other.solved;
        self.multiple += other.multiple;
        self.unsolvable += other.unsolvable;
        self.invalid += other.invalid;
        self.failed += other.failed;
    }

    /// All puzzles counted.
    pub fn total(&self) -> u64 {
        self.solved + self.multiple + self.unsolvable + self.invalid + self.failed
    }

    /// The exit code these verdicts earn: the worst of them.
    pub fn exit_code(&self) -> ExitCode {
        if self.failed > 0 {
            ExitCode::Failure
        } else if self.invalid > 0 {
            ExitCode::Invalid
        } else if self.multiple + self.unsolvable > 0 {
            ExitCode::NotUnique
        } else {
            ExitCode::Success
        }
    }

    /// The summary line for stderr: counts, elapsed time and rate.
    pub fn summary(&self, elapsed: Duration) -> String {
        let seconds = elapsed.as_secs_f64();
        let rate = if seconds > 0.0 {
            self.total() as f64 / seconds
        } else {
            0.0
        };
        let failed = if self.failed > 0 {
            format!(", {} failed", self.failed)
        } else {
            String::new()
        };
        format!(
            "{} puzzles: {} solved, {} multiple, {} unsolvable, {} invalid{failed} in {seconds:.3}s ({rate:.0} puzzles/s)",
            self.total(),
            self.solved,
            self.multiple,
            self.unsolvable,
            self.invalid,
        )
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
    /// The server could not be reached or failed, or the input could not be
    /// read.
    Failure = 3,
}

impl From<ExitCode> for std::process::ExitCode {
    fn from(code: ExitCode) -> Self {
        std::process::ExitCode::from(code as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(answer: &Answer) -> String {
        let mut out = Vec::new();
        answer.write(&mut out, Format::Text, 7);
        String::from_utf8(out).unwrap()
    }

    fn json(answer: &Answer) -> serde_json::Value {
        let mut out = Vec::new();
        answer.write(&mut out, Format::Json, 7);
        assert_eq!(out.pop(), Some(b'\n'));
        serde_json::from_slice(&out).unwrap()
    }

    fn solved() -> Answer {
        Answer {
            verdict: Verdict::Solved,
            solution: Some("1".repeat(81)),
            error: None,
            guesses: Some(3),
        }
    }

    #[test]
    fn text_lines_are_verdict_and_detail() {
        assert_eq!(text(&solved()), format!("solved {}\n", "1".repeat(81)));
        let none = Answer {
            verdict: Verdict::Unsolvable,
            solution: None,
            error: None,
            guesses: Some(0),
        };
        assert_eq!(text(&none), "unsolvable\n");
        assert_eq!(text(&Answer::invalid("bad 'x'")), "invalid bad 'x'\n");
        assert_eq!(Answer::invalid("bad").to_string(), "invalid bad");
    }

    #[test]
    fn json_lines_carry_line_outcome_and_escaped_errors() {
        let value = json(&solved());
        assert_eq!(value["line"], 7);
        assert_eq!(value["outcome"], "solved");
        assert_eq!(value["solution"], "1".repeat(81));
        assert_eq!(value["guesses"], 3);
        let tricky = Answer::invalid("invalid character '\"' and '\\' and '\u{0}'");
        assert_eq!(
            json(&tricky)["error"],
            "invalid character '\"' and '\\' and '\u{0}'"
        );
        assert!(json(&tricky).get("solution").is_none());
    }

    #[test]
    fn the_exit_code_is_the_worst_verdict() {
        let mut tally = Tally::default();
        assert_eq!(tally.exit_code(), ExitCode::Success);
        tally.add(Verdict::Solved);
        assert_eq!(tally.exit_code(), ExitCode::Success);
        tally.add(Verdict::Multiple);
        assert_eq!(tally.exit_code(), ExitCode::NotUnique);
        tally.add(Verdict::Invalid);
        assert_eq!(tally.exit_code(), ExitCode::Invalid);
        tally.add(Verdict::Failed);
        assert_eq!(tally.exit_code(), ExitCode::Failure);
        assert_eq!(tally.total(), 4);
    }

    #[test]
    fn the_summary_counts_and_rates() {
        let mut tally = Tally::default();
        for _ in 0..3 {
            tally.add(Verdict::Solved);
        }
        tally.add(Verdict::Invalid);
        assert_eq!(
            tally.summary(Duration::from_secs(2)),
            "4 puzzles: 3 solved, 0 multiple, 0 unsolvable, 1 invalid in 2.000s (2 puzzles/s)"
        );
    }
}
