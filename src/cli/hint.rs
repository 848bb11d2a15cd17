//! `sudoku hint` and `sudoku explain`: the next logical step from a
//! position, drawn on the grid, and the whole path from the givens.
//!
//! Both run in this process. The grid marks the step's pattern cells:
//! in colour on a terminal, and with brackets otherwise, so that the
//! output reads the same in a pipe or a log.

use std::io::IsTerminal;
use std::time::Instant;

use clap::Args;

use super::Failure;
use super::output::ExitCode;
use crate::domain::logic::{Hint, Mark, Step};
use crate::domain::{Board, Outcome, explain_puzzle, hint_puzzle, parse_board};

/// Flags of `sudoku hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// The puzzle's givens (81 cells).
    pub puzzle: String,
    /// The givens plus your placements (81 cells).
    #[arg(long, default_value = "")]
    pub progress: String,
    /// Your pencil marks: 729 characters, digit d at 9*cell+d-1 while it is
    /// a candidate, '.' where crossed out.
    #[arg(long, default_value = "")]
    pub marks: String,
}

/// Flags of `sudoku explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The puzzle (81 cells).
    pub puzzle: String,
}

/// Runs `sudoku hint`.
pub fn run_hint(args: HintArgs) -> Result<ExitCode, Failure> {
    let answer = hint_puzzle(
        &args.puzzle,
        &args.progress,
        &args.marks,
        Instant::now(),
        None,
        &|| false,
    )
    .map_err(|error| Failure::usage(error.to_string()))?;
    let position = match args.progress.as_str() {
        "" => parse_board(&args.puzzle),
        progress => parse_board(progress),
    }
    .map_err(|error| Failure::usage(error.to_string()))?;
    match answer.hint {
        None => refuse(answer.outcome),
        Some(Hint::Step(step)) => {
            print!(
                "{}",
                draw(&position, &step.pattern, std::io::stdout().is_terminal())
            );
            println!("{}", step_line(&step));
            Ok(ExitCode::Success)
        }
        Some(Hint::Mistake(mark)) => {
            println!(
                "mistake at {}: {} is not the solution's digit there, or was crossed out",
                mark.cell(),
                mark.digit
            );
            Ok(ExitCode::Success)
        }
        Some(Hint::Solved) => {
            println!("the position is solved");
            Ok(ExitCode::Success)
        }
        Some(Hint::Stalled) => Err(Failure::error("no technique this solver knows applies")),
    }
}

/// Runs `sudoku explain`: one step per line, then the grade.
pub fn run_explain(args: ExplainArgs) -> Result<ExitCode, Failure> {
    let explained = explain_puzzle(&args.puzzle, Instant::now(), None, &|| false)
        .map_err(|error| Failure::usage(error.to_string()))?;
    let Some(grade) = explained.grade else {
        return refuse(explained.outcome);
    };
    for (number, step) in explained.steps.iter().enumerate() {
        println!("{:3}. {}", number + 1, step_line(step));
    }
    let hardest = grade.hardest.map_or("none", |t| t.name());
    let stalled = grade
        .stalled
        .map(|s| format!(" (stalled: {s})"))
        .unwrap_or_default();
    println!(
        "rating {} ({}), hardest step: {hardest}{stalled}",
        grade.rating,
        grade.level()
    );
    Ok(ExitCode::Success)
}

fn step_line(step: &Step) -> String {
    format!(
        "{} ({}): {}",
        step.technique,
        step.rating,
        step.explanation()
    )
}

fn refuse(outcome: Outcome) -> Result<ExitCode, Failure> {
    let why = match outcome {
        Outcome::MultipleSolutions => "the puzzle has several solutions",
        Outcome::NoSolution => "the puzzle has no solution",
        _ => "the puzzle could not be solved",
    };
    eprintln!("sudoku: {why}, so there is no logical path to show");
    Ok(ExitCode::of(outcome))
}

/// The grid with the pattern's cells marked: reversed colours on a
/// terminal, brackets otherwise.
pub fn draw(board: &Board, pattern: &[Mark], colour: bool) -> String {
    let marked = |cell: usize| pattern.iter().any(|m| usize::from(m.cell) == cell);
    let mut text = String::new();
    for row in 0..9 {
        if row % 3 == 0 {
            text.push_str("+---------+---------+---------+\n");
        }
        for column in 0..9 {
            if column % 3 == 0 {
                text.push('|');
            }
            let cell = row * 9 + column;
            let value = board.cells()[cell];
            let shown = if value == 0 {
                '.'
            } else {
                char::from(b'0' + value)
            };
            text.push_str(&match (marked(cell), colour) {
                (true, true) => format!("\x1b[7m {shown} \x1b[0m"),
                (true, false) => format!("[{shown}]"),
                (false, _) => format!(" {shown} "),
            });
        }
        text.push_str("|\n");
    }
    text.push_str("+---------+---------+---------+\n");
    text
}
