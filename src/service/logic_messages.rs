//! The domain's logical values (outcomes, grades, steps, candidates) as
//! protobuf messages: the one place the service converts them, shared by
//! Solve's grades, Hint, Explain and Generate.

use crate::domain::Outcome;
use crate::domain::logic::{Grade, Level, Mark, Step};
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

/// The protobuf form of a step, with its explanation.
pub fn pb_step(step: &Step) -> pb::Step {
    let candidates = |marks: &[Mark]| marks.iter().copied().map(pb_candidate).collect();
    pb::Step {
        technique: step.technique.name().to_string(),
        rating: step.rating.value(),
        cells: candidates(&step.pattern),
        placements: candidates(&step.placements),
        eliminations: candidates(&step.eliminations),
        explanation: step.explanation(),
        ..Default::default()
    }
}
