//! Solving with grading, hints and explanations: the logical solver run
//! after the certifying one, within the same per-puzzle budget.
//!
//! The backtracking solver certifies that a puzzle has exactly one
//! solution first, because the logical solver's uniqueness techniques
//! and the hint's mistake check rely on it. Whatever time the solve left
//! of the budget goes to the logical solver; a grade that runs out of it
//! is marked stalled rather than failing, so a caller always keeps the
//! solve result.

use std::time::{Duration, Instant};

use super::logic::{self, Grade, Hint, PositionError, Step};
use super::{
    Board, Outcome, PuzzleError, SolvePuzzleError, SolveReport, parse_board, solve_puzzle_since,
};

/// A solve, and its grade when one was asked for and the puzzle has
/// exactly one solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GradedReport {
    /// What the certifying solver found.
    pub report: SolveReport,
    /// The grade, if asked for and the puzzle is unique.
    pub grade: Option<Grade>,
}

/// The time left of a budget that started at `started`, as a stop check.
struct Budget<'a> {
    started: Instant,
    deadline: Option<Instant>,
    is_cancelled: &'a dyn Fn() -> bool,
}

impl Budget<'_> {
    fn should_stop(&self) -> bool {
        (self.is_cancelled)() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// Parses, solves and (with `grade`) grades one puzzle, all within
/// `max_time` from `started`.
pub fn solve_and_grade(
    text: &str,
    grade: bool,
    started: Instant,
    max_time: Option<Duration>,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<GradedReport, SolvePuzzleError> {
    let report = solve_puzzle_since(text, started, max_time, is_cancelled)?;
    let grade = if grade && report.outcome == Outcome::Solved {
        let board = parse_board(text)?;
        let budget = budget(started, max_time, is_cancelled);
        let grade = logic::grade_until(&board, &|| budget.should_stop(), &|| budget.elapsed());
        if is_cancelled() {
            return Err(SolvePuzzleError::Cancelled);
        }
        Some(grade)
    } else {
        None
    };
    Ok(GradedReport { report, grade })
}

fn budget(
    started: Instant,
    max_time: Option<Duration>,
    is_cancelled: &dyn Fn() -> bool,
) -> Budget<'_> {
    Budget {
        started,
        deadline: max_time.and_then(|budget| started.checked_add(budget)),
        is_cancelled,
    }
}

/// A puzzle's logical path: its steps and grade when it has exactly one
/// solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explained {
    /// What the certifying solver found.
    pub outcome: Outcome,
    /// The path (empty unless the puzzle is unique).
    pub steps: Vec<Step>,
    /// Its grade (unless the puzzle is not unique).
    pub grade: Option<Grade>,
}

/// Solves a puzzle and, when it is unique, explains it step by step, all
/// within `max_time`.
pub fn explain_puzzle(
    text: &str,
    started: Instant,
    max_time: Option<Duration>,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<Explained, SolvePuzzleError> {
    let report = solve_puzzle_since(text, started, max_time, is_cancelled)?;
    if report.outcome != Outcome::Solved {
        return Ok(Explained {
            outcome: report.outcome,
            steps: Vec::new(),
            grade: None,
        });
    }
    let board = parse_board(text)?;
    let budget = budget(started, max_time, is_cancelled);
    let (steps, grade) =
        logic::explain_until(&board, &|| budget.should_stop(), &|| budget.elapsed());
    if is_cancelled() {
        return Err(SolvePuzzleError::Cancelled);
    }
    Ok(Explained {
        outcome: report.outcome,
        steps,
        grade: Some(grade),
    })
}

/// Why a hint could not be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HintError {
    /// The puzzle itself is invalid, or solving it failed.
    #[error(transparent)]
    Puzzle(#[from] SolvePuzzleError),
    /// The progress text is malformed.
    #[error("progress: {0}")]
    Progress(PuzzleError),
    /// The progress or marks do not fit the puzzle.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A hint, with the puzzle's outcome (a hint comes only for a unique
/// puzzle).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintAnswer {
    /// What the certifying solver found.
    pub outcome: Outcome,
    /// The hint, when the puzzle is unique.
    pub hint: Option<Hint>,
}

/// The hint for a player's position (see [`logic::hint`]); empty
/// `progress` and `marks` mean none given.
pub fn hint_puzzle(
    text: &str,
    progress: &str,
    marks: &str,
    started: Instant,
    max_time: Option<Duration>,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<HintAnswer, HintError> {
    let report = solve_puzzle_since(text, started, max_time, is_cancelled)?;
    let position: Option<Board> = match progress {
        "" => None,
        text => Some(parse_board(text).map_err(HintError::Progress)?),
    };
    let (Outcome::Solved, Some(solution)) = (report.outcome, report.solution) else {
        return Ok(HintAnswer {
            outcome: report.outcome,
            hint: None,
        });
    };
    let givens = parse_board(text).map_err(SolvePuzzleError::from)?;
    let marks = (!marks.is_empty()).then_some(marks);
    let budget = budget(started, max_time, is_cancelled);
    let hint = logic::hint(&givens, &solution, position.as_ref(), marks, &|| {
        budget.should_stop()
    })?;
    Ok(HintAnswer {
        outcome: report.outcome,
        hint: Some(hint),
    })
}
