//! The domain's logical values (outcomes, grades, steps, candidates) as
//! protobuf messages: the one place the service converts them, shared by
//! Solve's grades, Hint, Explain and Generate.

use crate::domain::logic::{Branch, Grade, Level, Link, LinkKind, Mark, Step};
use crate::domain::{Outcome, Unit};
use crate::pb;

/// The protobuf value of an outcome: the one place the service converts
/// it.
pub fn pb_outcome(outcome: Outcome) -> pb::Outcome {
    match outcome {
        Outcome::Solved => pb::Outcome::Solved,
        Outcome::MultipleSolutions => pb::Outcome::MultipleSolutions,
        Outcome::NoSolution => pb::Outcome::NoSolution,
        Outcome::Invalid => pb::Outcome::Invalid,
        Outcome::GaveUp => pb::Outcome::GaveUp,
        Outcome::Failed => pb::Outcome::Failed,
    }
}

/// The protobuf form of a grade.
pub fn pb_grade(grade: &Grade) -> pb::Grade {
    pb::Grade {
        rating: grade.rating.value(),
        level: pb_level(grade.level()) as i32,
        hardest_technique: grade
            .hardest
            .map(|t| t.name().to_string())
            .unwrap_or_default(),
        techniques: grade
            .techniques
            .iter()
            .map(|(technique, count)| pb::TechniqueCount {
                technique: technique.name().to_string(),
                count,
            })
            .collect(),
        stalled: grade.stalled.is_some(),
        stalled_reason: grade.stalled.map(|s| s.to_string()).unwrap_or_default(),
        pearl: grade.pearl.value(),
        diamond: grade.diamond.value(),
    }
}

fn pb_level(level: Level) -> pb::Level {
    match level {
        Level::Easy => pb::Level::Easy,
        Level::Medium => pb::Level::Medium,
        Level::Hard => pb::Level::Hard,
        Level::Diabolical => pb::Level::Diabolical,
        Level::Extreme => pb::Level::Extreme,
    }
}

/// The protobuf form of a candidate: 1-based row and column.
pub fn pb_candidate(mark: Mark) -> pb::Candidate {
    let cell = mark.cell();
    pb::Candidate {
        row: cell.row() as u32 + 1,
        column: cell.column() as u32 + 1,
        digit: u32::from(mark.digit),
    }
}

/// The protobuf form of a step, with its explanation and reasoning.
pub fn pb_step(step: &Step) -> pb::Step {
    let candidates = |marks: &[Mark]| marks.iter().copied().map(pb_candidate).collect();
    pb::Step {
        technique: step.technique.name().to_string(),
        rating: step.rating.value(),
        cells: candidates(&step.pattern),
        placements: candidates(&step.placements),
        eliminations: candidates(&step.eliminations),
        explanation: step.explanation(),
        units: step.unit_names().into_iter().map(pb_unit).collect(),
        witnesses: candidates(&step.witnesses),
        links: step.links.iter().map(pb_link).collect(),
        branches: step.branches.iter().map(pb_branch).collect(),
    }
}

/// A unit as a kind and a 1-based number.
fn pb_unit(unit: Unit) -> pb::Unit {
    let (kind, number) = match unit {
        Unit::Row(row) => (pb::UnitKind::Row, row),
        Unit::Column(column) => (pb::UnitKind::Column, column),
        Unit::Box(number) => (pb::UnitKind::Box, number),
    };
    pb::Unit {
        kind: kind as i32,
        number: u32::from(number),
    }
}

/// The protobuf form of a link, its groups' cells listed.
fn pb_link(link: &Link) -> pb::Link {
    let group = |marks: Vec<Mark>| marks.into_iter().map(pb_candidate).collect();
    pb::Link {
        source: Some(pb_candidate(link.source)),
        target: Some(pb_candidate(link.target)),
        kind: match link.kind {
            LinkKind::Strong => pb::LinkKind::Strong,
            LinkKind::Weak => pb::LinkKind::Weak,
            LinkKind::Inference => pb::LinkKind::Inference,
        } as i32,
        source_on: link.source_on,
        target_on: link.target_on,
        source_group: group(link.source_group()),
        target_group: group(link.target_group()),
    }
}

/// The protobuf form of a forcing chain's branch.
fn pb_branch(branch: &Branch) -> pb::Branch {
    pb::Branch {
        assumption: Some(pb_candidate(branch.assumption)),
        assumed_on: branch.assumed_on,
        links: branch.links.iter().map(pb_link).collect(),
        result: Some(pb_candidate(branch.result)),
        result_on: branch.result_on,
        contradiction: branch.contradiction,
        techniques: branch.techniques.iter().map(|t| t.to_string()).collect(),
    }
}
