//! `sudoku grade`: how hard puzzles are for a person, one line each.
//!
//! Grading is solving with `grade` set, so it runs wherever `sudoku
//! solve` does, with the same flags: on a server by default (Solve for
//! one puzzle, SolveBatchStream for a file, every grade checked before it
//! is printed), or in this process with `--local`. A puzzle without
//! exactly one solution has no grade, and its line says why. A file ends
//! with the run's summary and one of the levels on stderr, so that stdout
//! stays one line per puzzle.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use clap::Args;

use super::Failure;
use super::output::{ExitCode, Format, escaped, outcome_word, why_no_path, write_json_string};
use super::solve::{RunArgs, answer_one, is_puzzle_argument, run_file};
use crate::domain::logic::Level;
use crate::domain::{Answer, GradeSummary, Outcome};
use crate::file::LineFormat;
use crate::wording::count_of;

/// Flags of `sudoku grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// A puzzle (81 cells), or a file of puzzles one per line (`-` for
    /// stdin).
    pub input: String,
    /// How to print each puzzle's grade: `ER/EP/ED LEVEL HARDEST` lines
    /// (Sudoku Explainer's rating, pearl and diamond, e.g. `3.2/2.3/1.2
    /// hard X-Wing`), or one JSON object per line with the input line
    /// number, the three ratings and every technique's count.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Runs `sudoku grade`.
pub fn run(args: GradeArgs) -> Result<ExitCode, Failure> {
    let lines = Arc::new(GradeLines::new(args.format));
    if is_puzzle_argument(&args.input) {
        let answer = answer_one(&args.input, &args.run, true)?;
        let mut line = Vec::new();
        lines.write_line(&mut line, 1, &answer);
        io::stdout().write_all(&line).map_err(Failure::io)?;
        return Ok(ExitCode::of(answer.outcome));
    }
    let code = run_file(&args.input, &args.run, lines.clone(), true)?;
    if !args.run.quiet {
        super::note(lines.summary());
    }
    Ok(code)
}

/// Grade lines, counting the levels as they are written (on whichever
/// threads write them).
#[derive(Debug)]
struct GradeLines {
    format: Format,
    levels: [AtomicU64; Level::ALL.len()],
    /// Grades whose path stalled: their level is only a lower bound.
    stalled: AtomicU64,
    ungraded: AtomicU64,
}

impl GradeLines {
    fn new(format: Format) -> GradeLines {
        GradeLines {
            format,
            levels: Default::default(),
            stalled: AtomicU64::new(0),
            ungraded: AtomicU64::new(0),
        }
    }

    /// The levels of the puzzles written so far (stalled grades, whose
    /// level is only a lower bound, apart), and how many had no grade.
    fn summary(&self) -> String {
        let counts = self.levels.iter().map(|n| n.load(Ordering::Relaxed));
        let stalled = self.stalled.load(Ordering::Relaxed);
        let graded: u64 = counts.clone().sum::<u64>() + stalled;
        let mut levels: Vec<String> = Level::ALL
            .iter()
            .zip(counts)
            .map(|(level, n)| format!("{n} {level}"))
            .collect();
        if stalled > 0 {
            levels.push(format!("{stalled} stalled"));
        }
        format!(
            "graded {}: {}; {} not graded",
            count_of(graded, "puzzle"),
            levels.join(", "),
            self.ungraded.load(Ordering::Relaxed)
        )
    }
}

impl LineFormat for GradeLines {
    fn write_line(&self, out: &mut Vec<u8>, line: u64, answer: &Answer) {
        match &answer.grade {
            Some(grade) => {
                let count = match grade.stalled {
                    Some(_) => &self.stalled,
                    None => &self.levels[grade.level() as usize],
                };
                count.fetch_add(1, Ordering::Relaxed);
                match self.format {
                    Format::Text => write_grade_text(out, grade),
                    Format::Json => write_grade_json(out, line, grade),
                }
            }
            None => {
                self.ungraded.fetch_add(1, Ordering::Relaxed);
                let reason = why_ungraded(answer);
                match self.format {
                    Format::Text => {
                        let word = outcome_word(answer.outcome);
                        out.extend_from_slice(format!("{word}: {}", escaped(&reason)).as_bytes());
                    }
                    Format::Json => write_refusal_json(out, line, answer.outcome, &reason),
                }
            }
        }
        out.push(b'\n');
    }
}

/// Why a puzzle has no grade.
fn why_ungraded(answer: &Answer) -> String {
    match (answer.outcome, &answer.error) {
        (_, Some(error)) => error.clone(),
        (outcome @ (Outcome::MultipleSolutions | Outcome::NoSolution), None) => {
            format!("{}, so no grade", why_no_path(outcome))
        }
        (_, None) => "no grade".to_string(),
    }
}

/// `ER/EP/ED LEVEL HARDEST`, and `(stalled)` when the path stalled.
fn write_grade_text(out: &mut Vec<u8>, grade: &GradeSummary) {
    let hardest = grade.hardest.map_or("none", |t| t.name());
    let stalled = if grade.stalled.is_some() {
        " (stalled)"
    } else {
        ""
    };
    let text = format!(
        "{}/{}/{} {} {hardest}{stalled}",
        grade.rating,
        grade.pearl,
        grade.diamond,
        grade.level()
    );
    out.extend_from_slice(text.as_bytes());
}

fn write_grade_json(out: &mut Vec<u8>, line: u64, grade: &GradeSummary) {
    let techniques: serde_json::Map<String, serde_json::Value> = grade
        .techniques
        .iter()
        .map(|(t, n)| (t.name().to_string(), (*n).into()))
        .collect();
    let object = serde_json::json!({
        "line": line,
        "outcome": outcome_word(Outcome::Solved),
        "rating": grade.rating.value(),
        "pearl": grade.pearl.value(),
        "diamond": grade.diamond.value(),
        "level": grade.level().name(),
        "hardest_technique": grade.hardest.map_or("none", |t| t.name()),
        "techniques": techniques,
        "stalled": grade.stalled,
    });
    out.extend_from_slice(object.to_string().as_bytes());
}

fn write_refusal_json(out: &mut Vec<u8>, line: u64, outcome: Outcome, reason: &str) {
    out.extend_from_slice(b"{\"line\":");
    out.extend_from_slice(itoa::Buffer::new().format(line).as_bytes());
    out.extend_from_slice(b",\"outcome\":\"");
    out.extend_from_slice(outcome_word(outcome).as_bytes());
    out.extend_from_slice(b"\",\"error\":");
    write_json_string(out, reason);
    out.push(b'}');
}
