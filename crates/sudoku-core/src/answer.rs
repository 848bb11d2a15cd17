//! One puzzle's answer, wherever it was worked out.
//!
//! A file solved in this process and a file streamed through servers end
//! in the same place: one [`Answer`] per puzzle, which the command line
//! prints. On the client side an answer is built only from a response that
//! has been checked (by the service crate's client), so what it holds can be trusted
//! as much as the local solver.

use super::graded::{Explained, GradedReport, HintAnswer};
use super::logic::{Branch, Grade, Hint, Level, Link, Mark, Rating, Step, Technique};
use super::solver::SolveReport;
use super::{Board, Outcome, SolvePuzzleError, Unit};

/// What became of one puzzle, with what goes with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The outcome.
    pub outcome: Outcome,
    /// A solution, when the outcome has one.
    pub solution: Option<Board>,
    /// Why there is no verdict, for invalid, abandoned and failed puzzles.
    pub error: Option<String>,
    /// The solver's branching decisions, when known.
    pub guesses: Option<u64>,
    /// How hard the puzzle is for a person, when that was asked for and
    /// the puzzle has exactly one solution (boxed: most answers have none).
    pub grade: Option<Box<GradeSummary>>,
}

/// A grade as an answer carries it, worked out here or checked from a
/// server's: what the command line prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradeSummary {
    /// On Sudoku Explainer's scale (its ER).
    pub rating: Rating,
    /// The hardest step up to the first placement (SE's EP).
    pub pearl: Rating,
    /// The rating of the first step (SE's ED).
    pub diamond: Rating,
    /// The technique of the hardest step, if there was a step.
    pub hardest: Option<Technique>,
    /// Each technique used, with how many times, in the ladder's order.
    pub techniques: Vec<(Technique, u32)>,
    /// Why the logical path stopped short, if it did.
    pub stalled: Option<String>,
}

impl GradeSummary {
    /// The level the rating falls in.
    pub fn level(&self) -> Level {
        self.rating.level()
    }
}

impl From<&Grade> for GradeSummary {
    fn from(grade: &Grade) -> GradeSummary {
        GradeSummary {
            rating: grade.rating,
            pearl: grade.pearl,
            diamond: grade.diamond,
            hardest: grade.hardest,
            techniques: grade.techniques.iter().collect(),
            stalled: grade.stalled.map(|stall| stall.to_string()),
        }
    }
}

/// A logical step as the command line shows it, worked out here or
/// checked from a server's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepSummary {
    /// The technique that found it.
    pub technique: Technique,
    /// Its rating on Sudoku Explainer's scale.
    pub rating: Rating,
    /// The cells (and candidates) the reasoning uses.
    pub pattern: Vec<Mark>,
    /// Digits it places.
    pub placements: Vec<Mark>,
    /// Candidates it crosses out.
    pub eliminations: Vec<Mark>,
    /// One sentence a player understands.
    pub explanation: String,
    /// The units the reasoning works in.
    pub units: Vec<Unit>,
    /// Placed digits that rule out the places a single relies on.
    pub witnesses: Vec<Mark>,
    /// The links of its chains and patterns.
    pub links: Vec<Link>,
    /// A forcing chain's branches.
    pub branches: Vec<Branch>,
}

impl From<&Step> for StepSummary {
    fn from(step: &Step) -> StepSummary {
        StepSummary {
            technique: step.technique,
            rating: step.rating,
            pattern: step.pattern.clone(),
            placements: step.placements.clone(),
            eliminations: step.eliminations.clone(),
            explanation: step.explanation(),
            units: step.unit_names(),
            witnesses: step.witnesses.clone(),
            links: step.links.clone(),
            branches: step.branches.clone(),
        }
    }
}

/// A hint as the command line shows it, worked out here or checked from
/// a server's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HintSummary {
    /// The simplest step from the position.
    Step(StepSummary),
    /// A placement or crossed-out mark that contradicts the solution.
    Mistake(Mark),
    /// The position is solved.
    Solved,
    /// The logical solver found no step; why.
    Stalled(String),
}

/// A hint answer: the puzzle's outcome, and a hint when the puzzle has
/// exactly one solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintReport {
    /// What the certifying solver found.
    pub outcome: Outcome,
    /// The hint, for a puzzle with exactly one solution.
    pub hint: Option<HintSummary>,
}

/// A puzzle's logical path, as the command line shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathReport {
    /// What the certifying solver found.
    pub outcome: Outcome,
    /// The path from the givens (empty unless the puzzle is unique).
    pub steps: Vec<StepSummary>,
    /// Its grade (unless the puzzle is not unique).
    pub grade: Option<GradeSummary>,
    /// A placement or crossed-out mark of the position that contradicts
    /// the solution: then there is no path.
    pub mistake: Option<Mark>,
}

impl PathReport {
    /// No path: the puzzle's outcome alone.
    pub fn none(outcome: Outcome) -> PathReport {
        PathReport {
            outcome,
            steps: Vec::new(),
            grade: None,
            mistake: None,
        }
    }
}

impl From<HintAnswer> for HintReport {
    fn from(answer: HintAnswer) -> HintReport {
        let hint = answer.hint.map(|hint| match hint {
            Hint::Step(step) => HintSummary::Step(StepSummary::from(&step)),
            Hint::Mistake(mark) => HintSummary::Mistake(mark),
            Hint::Solved => HintSummary::Solved,
            Hint::Stalled => {
                HintSummary::Stalled("no technique the logical solver knows applies".to_string())
            }
        });
        HintReport {
            outcome: answer.outcome,
            hint,
        }
    }
}

impl From<Explained> for PathReport {
    fn from(explained: Explained) -> PathReport {
        PathReport {
            outcome: explained.outcome,
            steps: explained.steps.iter().map(StepSummary::from).collect(),
            grade: explained.grade.as_ref().map(GradeSummary::from),
            mistake: explained.mistake,
        }
    }
}

impl From<Result<GradedReport, SolvePuzzleError>> for Answer {
    /// The answer a graded solve in this process gives: as a plain solve's
    /// (see below), with the grade.
    fn from(result: Result<GradedReport, SolvePuzzleError>) -> Answer {
        match result {
            Ok(graded) => Answer {
                grade: graded
                    .grade
                    .as_ref()
                    .map(|g| Box::new(GradeSummary::from(g))),
                ..Answer::from(&graded.report)
            },
            Err(error) => Answer::from(Err::<SolveReport, _>(error)),
        }
    }
}

impl Answer {
    /// A puzzle that got no verdict (`outcome` is one that
    /// [`Outcome::has_error`]), with the reason.
    pub fn refused(outcome: Outcome, message: impl Into<String>) -> Answer {
        Answer {
            outcome,
            solution: None,
            error: Some(message.into()),
            guesses: None,
            grade: None,
        }
    }
}

impl From<&SolveReport> for Answer {
    fn from(report: &SolveReport) -> Answer {
        Answer {
            outcome: report.outcome,
            solution: report.solution,
            error: None,
            guesses: Some(report.stats.guesses),
            grade: None,
        }
    }
}

impl From<Result<SolveReport, SolvePuzzleError>> for Answer {
    /// The answer a solve in this process gives: its report, or the error
    /// as the outcome it stands for.
    fn from(result: Result<SolveReport, SolvePuzzleError>) -> Answer {
        match result {
            Ok(report) => Answer::from(&report),
            Err(error) => {
                let outcome = match error {
                    SolvePuzzleError::Puzzle(_) => Outcome::Invalid,
                    SolvePuzzleError::GaveUp(_) => Outcome::GaveUp,
                    SolvePuzzleError::Cancelled => Outcome::Failed,
                };
                Answer::refused(outcome, error.to_string())
            }
        }
    }
}
