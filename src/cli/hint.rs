//! `sudoku hint` and `sudoku explain`: the next logical step from a
//! position, drawn on the grid, and the whole path from the givens.
//!
//! Both run on a server by default (the Hint and Explain calls, every
//! step checked against this client's own solve before it is shown; see
//! [`crate::client::logic`]) or in this process with `--local`. The grid
//! marks the step's pattern cells: in colour on a terminal, and with
//! brackets otherwise, so that the output reads the same in a pipe or a
//! log.

use std::io::IsTerminal;
use std::time::Instant;

use clap::Args;

use super::args::TargetArgs;
use super::output::{ExitCode, why_no_path};
use super::{Failure, print_out, with_runtime};
use crate::client::{self, ClientError};
use crate::domain::logic::Mark;
use crate::domain::{
    Board, HintReport, HintSummary, Outcome, PathReport, PositionText, StepSummary, TimeLimits,
    explain_puzzle, hint_puzzle, parse_board,
};
use crate::pb;

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
    #[command(flatten)]
    pub target: TargetArgs,
}

/// Flags of `sudoku explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The puzzle (81 cells).
    pub puzzle: String,
    /// Start from this position instead of the givens: the givens plus
    /// your placements (81 cells).
    #[arg(long, default_value = "")]
    pub progress: String,
    /// Your pencil marks, as for `sudoku hint`.
    #[arg(long, default_value = "")]
    pub marks: String,
    #[command(flatten)]
    pub target: TargetArgs,
}

/// Runs `sudoku hint`.
pub fn run_hint(args: HintArgs) -> Result<ExitCode, Failure> {
    let report = if args.target.local {
        hint_puzzle(
            &args.puzzle,
            &args.progress,
            &args.marks,
            Instant::now(),
            TimeLimits::NONE,
            &|| false,
        )
        .map(HintReport::from)
        .map_err(|error| Failure::usage(error.to_string()))?
    } else {
        let request = pb::HintRequest {
            puzzle: args.puzzle.clone(),
            progress: args.progress.clone(),
            marks: args.marks.clone(),
        };
        on_server(&args.target, |channel, connect| async move {
            client::logic::hint(channel, &connect, request).await
        })?
    };
    let position = match args.progress.as_str() {
        "" => parse_board(&args.puzzle),
        progress => parse_board(progress),
    }
    .map_err(|error| Failure::usage(error.to_string()))?;
    match report.hint {
        None => refuse(report.outcome),
        Some(HintSummary::Step(step)) => {
            let grid = draw(&position, &step.pattern, std::io::stdout().is_terminal());
            print_out(&format!("{grid}{}\n", step_line(&step)))?;
            Ok(ExitCode::Success)
        }
        Some(HintSummary::Mistake(mark)) => {
            print_out(&format!(
                "mistake at {}: {} is not the solution's digit there, or was crossed out\n",
                mark.cell(),
                mark.digit
            ))?;
            Ok(ExitCode::Success)
        }
        Some(HintSummary::Solved) => {
            print_out("the position is solved\n")?;
            Ok(ExitCode::Success)
        }
        Some(HintSummary::Stalled(why)) => Err(Failure::error(format!("no hint: {why}"))),
    }
}

/// Runs `sudoku explain`: one step per line, then the grade.
pub fn run_explain(args: ExplainArgs) -> Result<ExitCode, Failure> {
    let path = if args.target.local {
        let position = PositionText {
            progress: &args.progress,
            marks: &args.marks,
        };
        explain_puzzle(
            &args.puzzle,
            position,
            Instant::now(),
            TimeLimits::NONE,
            &|| false,
        )
        .map(PathReport::from)
        .map_err(|error| Failure::usage(error.to_string()))?
    } else {
        let request = pb::ExplainRequest {
            puzzle: args.puzzle.clone(),
            progress: args.progress.clone(),
            marks: args.marks.clone(),
        };
        on_server(&args.target, |channel, connect| async move {
            client::logic::explain(channel, &connect, request).await
        })?
    };
    let Some(grade) = path.grade else {
        return refuse(path.outcome);
    };
    let mut text = String::new();
    for (number, step) in path.steps.iter().enumerate() {
        text.push_str(&format!("{:3}. {}\n", number + 1, step_line(step)));
    }
    let hardest = grade.hardest.map_or("none", |t| t.name());
    let stalled = grade
        .stalled
        .as_ref()
        .map(|s| format!(" (stalled: {s})"))
        .unwrap_or_default();
    text.push_str(&format!(
        "rating {} ({}), hardest step: {hardest}{stalled}\n",
        grade.rating,
        grade.level()
    ));
    print_out(&text)?;
    Ok(ExitCode::Success)
}

/// Runs `call` on the first server. A puzzle, progress or marks the
/// server refuses as invalid is a usage error (exit code 2), as it is
/// here.
fn on_server<T, F>(
    target: &TargetArgs,
    call: impl FnOnce(tonic::transport::Channel, client::ConnectOptions) -> F,
) -> Result<T, Failure>
where
    F: Future<Output = Result<T, ClientError>>,
{
    let connect = target.options()?;
    let server = &target.servers.servers()?[0];
    with_runtime(async {
        let channel = client::connect(server, &connect).await?;
        call(channel, connect)
            .await
            .map_err(Failure::refused_as_usage)
    })
}

fn step_line(step: &StepSummary) -> String {
    format!("{} ({}): {}", step.technique, step.rating, step.explanation)
}

fn refuse(outcome: Outcome) -> Result<ExitCode, Failure> {
    super::note(format_args!(
        "sudoku: {}, so there is no logical path to show",
        why_no_path(outcome)
    ));
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
