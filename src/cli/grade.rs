//! `sudoku grade`: how hard puzzles are for a person, one line each.
//!
//! Grading runs in this process: the certifying solver first (a puzzle
//! without exactly one solution has no grade, and its line says why),
//! then the logical solver. A file ends with a summary of the levels on
//! stderr, so that stdout stays one line per puzzle.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use clap::Args;

use super::Failure;
use super::output::{ExitCode, Format, outcome_word};
use super::solve::{is_puzzle_argument, open_input};
use crate::domain::logic::{Grade, Level};
use crate::domain::{Answer, Outcome, SolveReport, solve_and_grade};
use crate::file::is_puzzle_line;

/// Flags of `sudoku grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// A puzzle (81 cells), or a file of puzzles one per line (`-` for
    /// stdin).
    pub input: String,
    /// Grade in this process: the default, and for now the only way
    /// (on a server, grading is the Solve RPC with `grade` set).
    #[arg(long)]
    pub local: bool,
    /// How to print each puzzle's grade: `RATING LEVEL HARDEST` lines
    /// (e.g. `3.2 hard X-Wing`), or one JSON object per line with every
    /// technique's count.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Runs `sudoku grade`.
pub fn run(args: GradeArgs) -> Result<ExitCode, Failure> {
    let mut out = io::stdout().lock();
    if is_puzzle_argument(&args.input) {
        let (code, line, _) = grade_line(&args.input, args.format);
        writeln!(out, "{line}").map_err(Failure::io)?;
        return Ok(code);
    }
    let input = open_input(&args.input)?;
    let started = Instant::now();
    let mut summary = Summary {
        levels: [0; 4],
        ungraded: 0,
        worst: ExitCode::Success,
    };
    for line in input.split(b'\n') {
        let line = line.map_err(Failure::io)?;
        if !is_puzzle_line(&line) {
            continue;
        }
        let puzzle = String::from_utf8_lossy(&line);
        let (code, text, level) = grade_line(puzzle.trim(), args.format);
        summary.count(code, level);
        writeln!(out, "{text}").map_err(Failure::io)?;
    }
    out.flush().map_err(Failure::io)?;
    eprintln!("{}", summary.report(started.elapsed().as_secs_f64()));
    Ok(summary.worst)
}

/// Grades one puzzle: its exit code, its output line, and its level
/// when it has a grade.
fn grade_line(puzzle: &str, format: Format) -> (ExitCode, String, Option<Level>) {
    let (code, line) = match solve_and_grade(puzzle, true, Instant::now(), None, &|| false) {
        Ok(graded) => match graded.grade {
            Some(grade) => {
                let line = format_grade(puzzle, &grade, format);
                return (ExitCode::Success, line, Some(grade.level()));
            }
            None => {
                let outcome = graded.report.outcome;
                let reason = format!("{}: {}", outcome_word(outcome), why_ungraded(outcome));
                (
                    ExitCode::of(outcome),
                    format_refusal(puzzle, &reason, format),
                )
            }
        },
        Err(error) => {
            let answer = Answer::from(Err::<SolveReport, _>(error));
            let reason = format!("invalid: {}", answer.error.unwrap_or_default());
            (
                ExitCode::of(answer.outcome),
                format_refusal(puzzle, &reason, format),
            )
        }
    };
    (code, line, None)
}

fn why_ungraded(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::MultipleSolutions => "the puzzle has several solutions, so no grade",
        Outcome::NoSolution => "the puzzle has no solution, so no grade",
        _ => "no grade",
    }
}

fn format_grade(puzzle: &str, grade: &Grade, format: Format) -> String {
    let hardest = grade.hardest.map_or("none", |t| t.name());
    match format {
        Format::Text => {
            let stalled = if grade.stalled.is_some() {
                " (stalled)"
            } else {
                ""
            };
            format!("{} {} {hardest}{stalled}", grade.rating, grade.level())
        }
        Format::Json => {
            let techniques: serde_json::Map<String, serde_json::Value> = grade
                .techniques
                .iter()
                .map(|(t, n)| (t.name().to_string(), n.into()))
                .collect();
            serde_json::json!({
                "puzzle": puzzle,
                "rating": grade.rating.value(),
                "level": grade.level().name(),
                "hardest_technique": hardest,
                "techniques": techniques,
                "stalled": grade.stalled.map(|s| s.to_string()),
            })
            .to_string()
        }
    }
}

fn format_refusal(puzzle: &str, reason: &str, format: Format) -> String {
    match format {
        Format::Text => reason.to_string(),
        Format::Json => serde_json::json!({ "puzzle": puzzle, "error": reason }).to_string(),
    }
}

/// Levels and refusals of a file run.
#[derive(Debug)]
struct Summary {
    levels: [usize; 4],
    ungraded: usize,
    worst: ExitCode,
}

impl Summary {
    fn count(&mut self, code: ExitCode, level: Option<Level>) {
        self.worst = self.worst.max(code);
        match level {
            Some(level) => self.levels[level as usize] += 1,
            None => self.ungraded += 1,
        }
    }

    fn report(&self, seconds: f64) -> String {
        let graded: usize = self.levels.iter().sum();
        let levels = Level::ALL
            .iter()
            .zip(self.levels)
            .map(|(level, n)| format!("{n} {level}"))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "graded {graded} puzzles in {seconds:.2}s: {levels}; {} not graded",
            self.ungraded
        )
    }
}
