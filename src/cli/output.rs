//! What the command line prints: one line per puzzle, a summary, and the
//! exit code.
//!
//! Text lines are an outcome word, a space, and the solution (81 digits) or
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
//!
//! Every string that may have come from a server is escaped: in JSON by the
//! JSON encoder, in text by writing control characters as escapes, so that
//! a line stays one line and a terminal shows what was sent rather than
//! obeying it.

use std::time::Duration;

use crate::domain::{Answer, Outcome, Tally};
use crate::file::LineFormat;
use crate::wording::count_of;

/// Output formats of the command line. Each command's `--format` help
/// says what its text line holds (solve's `OUTCOME SOLUTION-OR-ERROR`,
/// grade's `ER/EP/ED LEVEL HARDEST`, generate's `PUZZLE`), so the values'
/// own help says nothing a command does not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line of text per puzzle, as described above.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// How answers are printed: the format, and whether a solution is also
/// drawn as a grid (after the line in text; as a `grid` field in JSON).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Output {
    /// Text or JSON.
    pub format: Format,
    /// Also draw the solution as a 9-line grid.
    pub grid: bool,
}

/// The word for an outcome: what starts a text line, and the JSON
/// `outcome`.
pub fn outcome_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Solved => "solved",
        Outcome::MultipleSolutions => "multiple",
        Outcome::NoSolution => "unsolvable",
        Outcome::Invalid => "invalid",
        Outcome::GaveUp => "gave-up",
        Outcome::Failed => "failed",
    }
}

/// Why a puzzle without exactly one solution has no logical path (so no
/// grade, hint or explanation).
pub fn why_no_path(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::MultipleSolutions => "the puzzle has several solutions",
        Outcome::NoSolution => "the puzzle has no solution",
        _ => "the puzzle could not be solved",
    }
}

impl LineFormat for Output {
    fn write_line(&self, out: &mut Vec<u8>, line: u64, answer: &Answer) {
        match self.format {
            Format::Text => self.write_text(out, answer),
            Format::Json => self.write_json(out, line, answer),
        }
    }
}

impl Output {
    fn write_text(&self, out: &mut Vec<u8>, answer: &Answer) {
        out.extend_from_slice(outcome_word(answer.outcome).as_bytes());
        if let Some(solution) = &answer.solution {
            let mut digits = [0u8; 81];
            solution.write_line(&mut digits);
            out.push(b' ');
            out.extend_from_slice(&digits);
        } else if let Some(error) = &answer.error {
            out.push(b' ');
            write_escaped(out, error);
        }
        out.push(b'\n');
        if let (true, Some(solution)) = (self.grid, &answer.solution) {
            out.extend_from_slice(solution.to_grid().as_bytes());
        }
    }

    fn write_json(&self, out: &mut Vec<u8>, line: u64, answer: &Answer) {
        out.extend_from_slice(b"{\"line\":");
        out.extend_from_slice(itoa::Buffer::new().format(line).as_bytes());
        out.extend_from_slice(b",\"outcome\":\"");
        out.extend_from_slice(outcome_word(answer.outcome).as_bytes());
        out.push(b'"');
        if let Some(solution) = &answer.solution {
            // A board's line is 81 ASCII digits: nothing to escape.
            let mut digits = [0u8; 81];
            solution.write_line(&mut digits);
            out.extend_from_slice(b",\"solution\":\"");
            out.extend_from_slice(&digits);
            out.push(b'"');
            if self.grid {
                out.extend_from_slice(b",\"grid\":");
                write_json_string(out, &solution.to_grid());
            }
        }
        if let Some(error) = &answer.error {
            out.extend_from_slice(b",\"error\":");
            write_json_string(out, error);
        }
        if let Some(guesses) = answer.guesses {
            out.extend_from_slice(b",\"guesses\":");
            out.extend_from_slice(itoa::Buffer::new().format(guesses).as_bytes());
        }
        out.extend_from_slice(b"}\n");
    }
}

/// Writes `text` as a JSON string, quotes included.
pub fn write_json_string(out: &mut Vec<u8>, text: &str) {
    serde_json::to_writer(&mut *out, text).expect("writing to a Vec cannot fail");
}

/// Writes `text` with control characters (line breaks, escape sequences)
/// written as escapes, so that it stays on one line and cannot steer a
/// terminal.
pub fn write_escaped(out: &mut Vec<u8>, text: &str) {
    if !text.chars().any(char::is_control) {
        out.extend_from_slice(text.as_bytes());
        return;
    }
    for character in text.chars() {
        if character.is_control() {
            out.extend(character.escape_default().to_string().into_bytes());
        } else {
            let mut buffer = [0; 4];
            out.extend_from_slice(character.encode_utf8(&mut buffer).as_bytes());
        }
    }
}

/// `text` with its control characters escaped, as [`write_escaped`] does.
pub fn escaped(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len());
    write_escaped(&mut out, text);
    String::from_utf8(out).expect("escaping keeps UTF-8")
}

/// The summary line for stderr: counts, elapsed time and rate.
pub fn summary(tally: &Tally, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let rate = if seconds > 0.0 {
        tally.total() as f64 / seconds
    } else {
        0.0
    };
    let mut rare = String::new();
    for (outcome, name) in [(Outcome::GaveUp, "gave up"), (Outcome::Failed, "failed")] {
        if tally.count(outcome) > 0 {
            rare += &format!(", {} {name}", tally.count(outcome));
        }
    }
    format!(
        "{}: {} solved, {} multiple, {} unsolvable, {} invalid{rare} in {seconds:.3}s ({rate:.0} puzzles/s)",
        count_of(tally.total(), "puzzle"),
        tally.count(Outcome::Solved),
        tally.count(Outcome::MultipleSolutions),
        tally.count(Outcome::NoSolution),
        tally.count(Outcome::Invalid),
    )
}

/// The command line's exit codes, from best to worst. A run exits with the
/// worst code any of its puzzles earned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitCode {
    /// Every puzzle has exactly one solution (or every server is serving).
    Success = 0,
    /// Every puzzle was answered, but some have no solution or several (or
    /// a server is not serving).
    NotUnique = 1,
    /// Some puzzle was invalid, or the command line was misused.
    Invalid = 2,
    /// A server could not be reached, failed, gave up on a puzzle or broke
    /// the protocol, or the input could not be read.
    Failure = 3,
}

impl ExitCode {
    /// The code one outcome earns.
    pub fn of(outcome: Outcome) -> ExitCode {
        match outcome {
            Outcome::Solved => ExitCode::Success,
            Outcome::MultipleSolutions | Outcome::NoSolution => ExitCode::NotUnique,
            Outcome::Invalid => ExitCode::Invalid,
            Outcome::GaveUp | Outcome::Failed => ExitCode::Failure,
        }
    }

    /// The code a run earns: the worst of its outcomes'.
    pub fn of_tally(tally: &Tally) -> ExitCode {
        Outcome::ALL
            .into_iter()
            .filter(|&outcome| tally.count(outcome) > 0)
            .map(ExitCode::of)
            .max()
            .unwrap_or(ExitCode::Success)
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
    use crate::domain::parse_board;

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn line(output: Output, answer: &Answer) -> String {
        let mut out = Vec::new();
        output.write_line(&mut out, 7, answer);
        String::from_utf8(out).unwrap()
    }

    fn json(output: Output, answer: &Answer) -> serde_json::Value {
        let text = line(output, answer);
        assert_eq!(text.matches('\n').count(), 1, "one line: {text:?}");
        serde_json::from_str(&text).unwrap()
    }

    fn solved() -> Answer {
        Answer {
            outcome: Outcome::Solved,
            solution: Some(parse_board(SOLUTION).unwrap()),
            error: None,
            guesses: Some(3),
            grade: None,
        }
    }

    const TEXT: Output = Output {
        format: Format::Text,
        grid: false,
    };
    const JSON: Output = Output {
        format: Format::Json,
        grid: false,
    };

    #[test]
    fn text_lines_are_outcome_and_detail() {
        assert_eq!(line(TEXT, &solved()), format!("solved {SOLUTION}\n"));
        let none = Answer {
            outcome: Outcome::NoSolution,
            solution: None,
            error: None,
            guesses: Some(0),
            grade: None,
        };
        assert_eq!(line(TEXT, &none), "unsolvable\n");
        let invalid = Answer::refused(Outcome::Invalid, "bad 'x'");
        assert_eq!(line(TEXT, &invalid), "invalid bad 'x'\n");
        let gave_up = Answer::refused(Outcome::GaveUp, "gave up after 1s");
        assert_eq!(line(TEXT, &gave_up), "gave-up gave up after 1s\n");
    }

    #[test]
    fn text_escapes_control_characters_from_a_server() {
        let sneaky = Answer::refused(Outcome::Failed, "two\nlines \u{1b}[2J");
        assert_eq!(line(TEXT, &sneaky), "failed two\\nlines \\u{1b}[2J\n");
    }

    #[test]
    fn json_lines_carry_line_outcome_and_escaped_errors() {
        let value = json(JSON, &solved());
        assert_eq!(value["line"], 7);
        assert_eq!(value["outcome"], "solved");
        assert_eq!(value["solution"], SOLUTION);
        assert_eq!(value["guesses"], 3);
        let message = "invalid character '\"' and '\\' and '\u{0}' and\nmore";
        let tricky = Answer::refused(Outcome::Invalid, message);
        assert_eq!(json(JSON, &tricky)["error"], message);
        assert!(json(JSON, &tricky).get("solution").is_none());
    }

    #[test]
    fn a_grid_goes_after_a_text_line_and_inside_a_json_object() {
        let grid = parse_board(SOLUTION).unwrap().to_grid();
        let text = line(Output { grid: true, ..TEXT }, &solved());
        assert_eq!(text, format!("solved {SOLUTION}\n{grid}"));
        let value = json(Output { grid: true, ..JSON }, &solved());
        assert_eq!(value["grid"], grid.as_str());
    }

    #[test]
    fn the_exit_code_is_the_worst_outcome() {
        let mut tally = Tally::default();
        assert_eq!(ExitCode::of_tally(&tally), ExitCode::Success);
        tally.add(Outcome::Solved);
        assert_eq!(ExitCode::of_tally(&tally), ExitCode::Success);
        tally.add(Outcome::MultipleSolutions);
        assert_eq!(ExitCode::of_tally(&tally), ExitCode::NotUnique);
        tally.add(Outcome::Invalid);
        assert_eq!(ExitCode::of_tally(&tally), ExitCode::Invalid);
        tally.add(Outcome::GaveUp);
        assert_eq!(ExitCode::of_tally(&tally), ExitCode::Failure);
    }

    #[test]
    fn the_summary_counts_and_rates() {
        let mut tally = Tally::default();
        for _ in 0..3 {
            tally.add(Outcome::Solved);
        }
        tally.add(Outcome::Invalid);
        assert_eq!(
            summary(&tally, Duration::from_secs(2)),
            "4 puzzles: 3 solved, 0 multiple, 0 unsolvable, 1 invalid in 2.000s (2 puzzles/s)"
        );
        tally.add(Outcome::GaveUp);
        assert!(summary(&tally, Duration::from_secs(1)).contains("1 invalid, 1 gave up in"));
        let mut one = Tally::default();
        one.add(Outcome::Solved);
        assert!(summary(&one, Duration::from_secs(1)).starts_with("1 puzzle: 1 solved"));
    }
}
