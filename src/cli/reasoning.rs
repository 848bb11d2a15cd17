//! A step's reasoning as the command line shows it: drawn on the text
//! grid as far as text allows (pattern cells, witnesses, placements and
//! removals), spelled out below it (units, links in Eureka notation,
//! each forcing chain's branch), and as JSON for `--format json`.
//!
//! The JSON keeps the proto's field names (as the proto writes them,
//! in snake case), with enum values as lower-case words (`"strong"`,
//! `"box"`), as the command line's other JSON does.

use serde_json::{Value, json};

use crate::domain::logic::{Branch, Link, LinkKind, Mark, eureka, state};
use crate::domain::{Board, StepSummary, Unit};

/// How a cell is marked on the grid, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Placed,
    Removed,
    Pattern,
    Witness,
    Plain,
}

/// The legend printed under a grid drawn without colour.
pub const LEGEND: &str =
    "{ } placed here  < > candidates removed here  [ ] the pattern  ( ) witnesses";

/// The position with the step drawn on it: placements, removals, the
/// pattern's cells and the witnesses, in colour on a terminal and with
/// brackets otherwise.
pub fn draw(board: &Board, step: &StepSummary, colour: bool) -> String {
    let has = |marks: &[Mark], cell: usize| marks.iter().any(|m| usize::from(m.cell) == cell);
    let linked = link_cells(step);
    let role = |cell: usize| {
        if has(&step.placements, cell) {
            Role::Placed
        } else if has(&step.eliminations, cell) {
            Role::Removed
        } else if has(&step.pattern, cell) || linked.contains(&cell) {
            Role::Pattern
        } else if has(&step.witnesses, cell) {
            Role::Witness
        } else {
            Role::Plain
        }
    };
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
            let shown = match board.cells()[cell] {
                0 => '.',
                value => char::from(b'0' + value),
            };
            text.push_str(&marked(shown, role(cell), colour));
        }
        text.push_str("|\n");
    }
    text.push_str("+---------+---------+---------+\n");
    if !colour {
        text.push_str(LEGEND);
        text.push('\n');
    }
    text
}

fn marked(shown: char, role: Role, colour: bool) -> String {
    let (open, close, ansi) = match role {
        Role::Placed => ('{', '}', "1;32"),
        Role::Removed => ('<', '>', "1;31"),
        Role::Pattern => ('[', ']', "7"),
        Role::Witness => ('(', ')', "4"),
        Role::Plain => (' ', ' ', ""),
    };
    match (colour, role) {
        (_, Role::Plain) => format!(" {shown} "),
        (true, _) => format!("\x1b[{ansi}m {shown} \x1b[0m"),
        (false, _) => format!("{open}{shown}{close}"),
    }
}

/// Every cell a link of the step (not of its branches) touches.
fn link_cells(step: &StepSummary) -> Vec<usize> {
    step.links
        .iter()
        .flat_map(|link| {
            let mut cells = vec![link.source, link.target];
            cells.extend(link.source_group());
            cells.extend(link.target_group());
            cells
        })
        .map(|mark| usize::from(mark.cell))
        .collect()
}

/// The lines under the grid: the units, the witnesses, the links and the
/// branches, each named in full.
pub fn spelled_out(step: &StepSummary) -> String {
    let mut text = String::new();
    if !step.units.is_empty() {
        let units: Vec<String> = step.units.iter().map(Unit::to_string).collect();
        text.push_str(&format!("units: {}\n", units.join(", ")));
    }
    if !step.witnesses.is_empty() {
        let witnesses: Vec<String> = step
            .witnesses
            .iter()
            .map(|m| format!("{} at {}", m.digit, m.cell()))
            .collect();
        text.push_str(&format!("witnesses: {}\n", witnesses.join(", ")));
    }
    if !step.links.is_empty() {
        text.push_str(&format!("links: {}\n", eureka(&step.links)));
    }
    for (number, branch) in step.branches.iter().enumerate() {
        text.push_str(&format!("branch {}: {}\n", number + 1, branch_line(branch)));
    }
    text
}

fn branch_line(branch: &Branch) -> String {
    let end = match branch.contradiction {
        true => format!("{} both on and off: a contradiction", branch.result.cell()),
        false => state(branch.result, branch.result_on),
    };
    let techniques = match branch.techniques.is_empty() {
        true => String::new(),
        false => format!(" (with {})", branch.techniques.join(", ")),
    };
    format!(
        "if {}: {}{techniques}; so {end}",
        state(branch.assumption, branch.assumed_on),
        eureka(&branch.links)
    )
}

/// A candidate as the proto writes it: 1-based row and column.
pub fn candidate(mark: Mark) -> Value {
    let cell = mark.cell();
    json!({"row": cell.row() + 1, "column": cell.column() + 1, "digit": mark.digit})
}

fn candidates(marks: &[Mark]) -> Value {
    Value::Array(marks.iter().copied().map(candidate).collect())
}

fn link_json(link: &Link) -> Value {
    json!({
        "source": candidate(link.source),
        "target": candidate(link.target),
        "kind": match link.kind {
            LinkKind::Strong => "strong",
            LinkKind::Weak => "weak",
            LinkKind::Inference => "inference",
        },
        "source_on": link.source_on,
        "target_on": link.target_on,
        "source_group": candidates(&link.source_group()),
        "target_group": candidates(&link.target_group()),
    })
}

fn unit_json(unit: &Unit) -> Value {
    let (kind, number) = match *unit {
        Unit::Row(n) => ("row", n),
        Unit::Column(n) => ("column", n),
        Unit::Box(n) => ("box", n),
    };
    json!({"kind": kind, "number": number})
}

/// A step as one JSON object, its reasoning included.
pub fn step_json(step: &StepSummary) -> Value {
    json!({
        "technique": step.technique.name(),
        "rating": step.rating.value(),
        "explanation": step.explanation,
        "cells": candidates(&step.pattern),
        "placements": candidates(&step.placements),
        "eliminations": candidates(&step.eliminations),
        "units": step.units.iter().map(unit_json).collect::<Vec<_>>(),
        "witnesses": candidates(&step.witnesses),
        "links": step.links.iter().map(link_json).collect::<Vec<_>>(),
        "branches": step.branches.iter().map(|branch| json!({
            "assumption": candidate(branch.assumption),
            "assumed_on": branch.assumed_on,
            "links": branch.links.iter().map(link_json).collect::<Vec<_>>(),
            "result": candidate(branch.result),
            "result_on": branch.result_on,
            "contradiction": branch.contradiction,
            "techniques": branch.techniques,
        })).collect::<Vec<_>>(),
    })
}
