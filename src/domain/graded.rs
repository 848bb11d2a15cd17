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
    Board, Outcome, PuzzleError, SolvePuzzleError, SolveReport, parse_board, solve_board_since,
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

/// Certifies `board`, then, when it has exactly one solution, runs
/// `logic` on that solution within what the solve left of `max_time`
/// (counted from `started`).
fn certify_then<T>(
    board: &Board,
    started: Instant,
    max_time: Option<Duration>,
    is_cancelled: &dyn Fn() -> bool,
    logic: impl FnOnce(&Board, &Budget) -> T,
) -> Result<(SolveReport, Option<T>), SolvePuzzleError> {
    let report = solve_board_since(board, started, max_time, is_cancelled)?;
    let (Outcome::Solved, Some(solution)) = (report.outcome, report.solution) else {
        return Ok((report, None));
    };
    let budget = Budget {
        started,
        deadline: max_time.and_then(|budget| started.checked_add(budget)),
        is_cancelled,
    };
    let result = logic(&solution, &budget);
    if is_cancelled() {
        return Err(SolvePuzzleError::Cancelled);
    }
    Ok((report, Some(result)))
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
    solve_and_grade_board(&parse_board(text)?, grade, started, max_time, is_cancelled)
}

/// [`solve_and_grade`] for a parsed puzzle.
pub fn solve_and_grade_board(
    board: &Board,
    grade: bool,
    started: Instant,
    max_time: Option<Duration>,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<GradedReport, SolvePuzzleError> {
    if !grade {
        let report = solve_board_since(board, started, max_time, is_cancelled)?;
        return Ok(GradedReport {
            report,
            grade: None,
        });
    }
    let (report, grade) = certify_then(board, started, max_time, is_cancelled, |_, budget| {
        logic::grade_until(board, &|| budget.should_stop(), &|| budget.elapsed())
    })?;
    Ok(GradedReport { report, grade })
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
    let board = parse_board(text)?;
    let (report, path) = certify_then(&board, started, max_time, is_cancelled, |_, budget| {
        logic::explain_until(&board, &|| budget.should_stop(), &|| budget.elapsed())
    })?;
    let (steps, grade) = path.map_or((Vec::new(), None), |(steps, grade)| (steps, Some(grade)));
    Ok(Explained {
        outcome: report.outcome,
        steps,
        grade,
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
/// `progress` and `marks` mean none given. The position is read and
/// checked before the puzzle is solved.
pub fn hint_puzzle(
    text: &str,
    progress: &str,
    marks: &str,
    started: Instant,
    max_time: Option<Duration>,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<HintAnswer, HintError> {
    let givens = parse_board(text).map_err(SolvePuzzleError::from)?;
    let placed = match progress {
        "" => None,
        text => Some(parse_board(text).map_err(HintError::Progress)?),
    };
    let marks = (!marks.is_empty()).then_some(marks);
    let grid = logic::position(&givens, placed.as_ref(), marks)?;
    let (report, hint) = certify_then(
        &givens,
        started,
        max_time,
        is_cancelled,
        |solution, budget| logic::hint_at(&grid, solution, &|| budget.should_stop()),
    )?;
    Ok(HintAnswer {
        outcome: report.outcome,
        hint,
    })
}
