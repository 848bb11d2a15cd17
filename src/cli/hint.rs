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
use serde_json::json;

use super::output::{ExitCode, Format, outcome_word, why_no_path};
use super::reasoning;
use super::{Failure, print_out, with_runtime};
use crate::client::{self, ClientError};
use crate::domain::logic::Mark;
use crate::domain::{
    HintReport, HintSummary, Outcome, PathReport, PositionText, StepSummary, TimeLimits,
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
    /// How to print the hint: the grid with the step drawn on it, its
    /// line and its reasoning spelled out; or one JSON object with the
    /// outcome and the step (its units, witnesses, links and branches, as
    /// the proto names them), the mistake, or whether the position is
    /// solved.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
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
    /// How to print the path: one line per step and the grade; or one
    /// JSON object with the outcome, every step with its reasoning, and
    /// the grade.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
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
    if args.format == Format::Json {
        print_out(&format!("{}\n", hint_json(&report)))?;
        return match report.hint {
            None => Ok(ExitCode::of(report.outcome)),
            Some(HintSummary::Stalled(_)) => Err(Failure::error("no hint: the solver stalled")),
            Some(_) => Ok(ExitCode::Success),
        };
    }
    match report.hint {
        None => refuse(report.outcome),
        Some(HintSummary::Step(step)) => {
            let colour = std::io::stdout().is_terminal();
            let grid = reasoning::draw(&position, &step, colour);
            let spelled = reasoning::spelled_out(&step);
            print_out(&format!("{grid}{}\n{spelled}", step_line(&step)))?;
            Ok(ExitCode::Success)
        }
        Some(HintSummary::Mistake(mark)) => {
            print_out(&format!("{}\n", mistake_line(mark)))?;
            Ok(ExitCode::Success)
        }
        Some(HintSummary::Solved) => {
            print_out("the position is solved\n")?;
            Ok(ExitCode::Success)
        }
        Some(HintSummary::Stalled(why)) => Err(Failure::error(format!("no hint: {why}"))),
    }
}

/// The line a mistake in the position is named in.
fn mistake_line(mark: Mark) -> String {
    format!(
        "mistake at {}: {} is not the solution's digit there, or was crossed out",
        mark.cell(),
        mark.digit
    )
}

/// A hint as one JSON object: the outcome, and the step, the mistake,
/// `position_solved` or `stalled_reason`.
fn hint_json(report: &HintReport) -> serde_json::Value {
    let mut value = json!({"outcome": outcome_word(report.outcome)});
    match &report.hint {
        None => {}
        Some(HintSummary::Step(step)) => value["step"] = reasoning::step_json(step),
        Some(HintSummary::Mistake(mark)) => value["mistake"] = reasoning::candidate(*mark),
        Some(HintSummary::Solved) => value["position_solved"] = json!(true),
        Some(HintSummary::Stalled(why)) => value["stalled_reason"] = json!(why),
    }
    value
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
    if let Some(mark) = path.mistake {
        let line = match args.format {
            Format::Json => json!({
                "outcome": outcome_word(path.outcome),
                "mistake": reasoning::candidate(mark),
            })
            .to_string(),
            Format::Text => mistake_line(mark),
        };
        print_out(&format!("{line}\n"))?;
        return Ok(ExitCode::Success);
    }
    let Some(grade) = path.grade else {
        return refuse(path.outcome);
    };
    if args.format == Format::Json {
        let value = json!({
            "outcome": outcome_word(path.outcome),
            "steps": path.steps.iter().map(reasoning::step_json).collect::<Vec<_>>(),
            "rating": grade.rating.value(),
            "level": grade.level().name(),
            "hardest_technique": grade.hardest.map_or("", |t| t.name()),
            "stalled_reason": grade.stalled.clone().unwrap_or_default(),
        });
        print_out(&format!("{value}\n"))?;
        return Ok(ExitCode::Success);
    }
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
