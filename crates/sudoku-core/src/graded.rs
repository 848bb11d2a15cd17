//! Solving with grading, hints and explanations: the logical solver run
//! after the certifying one, each within a time budget of its own
//! ([`TimeLimits`]).
//!
//! The backtracking solver certifies that a puzzle has exactly one
//! solution first, because the logical solver's uniqueness techniques
//! and the hint's mistake check rely on it. The logical solver then gets
//! its own budget, counted from when it starts: rating the hardest
//! puzzles legitimately takes far longer than solving them. A grade that
//! runs out of it is marked stalled rather than failing, so a caller
//! always keeps the solve result.

use std::time::{Duration, Instant};

use super::logic::{self, Grade, Hint, Mark, PositionError, Step};
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

/// How long the certifying solve and the logical solver after it may each
/// take (`None`: no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TimeLimits {
    /// The certifying solve, counted from the caller's start.
    pub solve: Option<Duration>,
    /// Grading, a hint or an explanation, counted from when it starts.
    pub grade: Option<Duration>,
}

impl TimeLimits {
    /// No limit on either.
    pub const NONE: TimeLimits = TimeLimits {
        solve: None,
        grade: None,
    };
}

/// The time left of a budget that started at `started`, as a stop check.
pub(super) struct Budget<'a> {
    started: Instant,
    deadline: Option<Instant>,
    is_cancelled: &'a dyn Fn() -> bool,
}

impl<'a> Budget<'a> {
    /// A budget of `limit` (`None`: no limit) from now, which also stops
    /// once `is_cancelled` says so.
    pub(super) fn starting_now(
        limit: Option<Duration>,
        is_cancelled: &'a dyn Fn() -> bool,
    ) -> Budget<'a> {
        let started = Instant::now();
        Budget {
            started,
            deadline: limit.and_then(|limit| started.checked_add(limit)),
            is_cancelled,
        }
    }

    /// Whether the work must stop: cancelled, or out of time.
    pub(super) fn should_stop(&self) -> bool {
        (self.is_cancelled)() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// Certifies `board` within `limits.solve` (counted from `started`),
/// then, when it has exactly one solution, runs `logic` on that solution
/// within `limits.grade` (counted from now).
fn certify_then<T>(
    board: &Board,
    started: Instant,
    limits: TimeLimits,
    is_cancelled: &dyn Fn() -> bool,
    logic: impl FnOnce(&Board, &Budget) -> T,
) -> Result<(SolveReport, Option<T>), SolvePuzzleError> {
    let report = solve_board_since(board, started, limits.solve, is_cancelled)?;
    let (Outcome::Solved, Some(solution)) = (report.outcome, report.solution) else {
        return Ok((report, None));
    };
    let budget = Budget::starting_now(limits.grade, is_cancelled);
    let result = logic(&solution, &budget);
    if is_cancelled() {
        return Err(SolvePuzzleError::Cancelled);
    }
    Ok((report, Some(result)))
}

/// Parses, solves and (with `grade`) grades one puzzle, within `limits`
/// (the solve's counted from `started`).
pub fn solve_and_grade(
    text: &str,
    grade: bool,
    started: Instant,
    limits: TimeLimits,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<GradedReport, SolvePuzzleError> {
    solve_and_grade_board(&parse_board(text)?, grade, started, limits, is_cancelled)
}

/// [`solve_and_grade`] for a parsed puzzle.
pub fn solve_and_grade_board(
    board: &Board,
    grade: bool,
    started: Instant,
    limits: TimeLimits,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<GradedReport, SolvePuzzleError> {
    if !grade {
        let report = solve_board_since(board, started, limits.solve, is_cancelled)?;
        return Ok(GradedReport {
            report,
            grade: None,
        });
    }
    let (report, grade) = certify_then(board, started, limits, is_cancelled, |_, budget| {
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
    /// Its grade (unless the puzzle is not unique or the position holds
    /// a mistake).
    pub grade: Option<Grade>,
    /// A placement or crossed-out mark of the position that contradicts
    /// the solution: then there is no path.
    pub mistake: Option<Mark>,
}

/// A player's position as a Hint or Explain request gives it: the givens
/// plus placements (81 cells) and pencil marks (729 characters), each
/// empty when not given.
#[derive(Debug, Clone, Copy, Default)]
pub struct PositionText<'a> {
    /// The givens plus the player's placements, or "".
    pub progress: &'a str,
    /// The player's pencil marks, or "".
    pub marks: &'a str,
}

impl PositionText<'_> {
    /// The position as a grid, read and checked against `givens`.
    fn grid(&self, givens: &Board) -> Result<logic::Grid, HintError> {
        let placed = match self.progress {
            "" => None,
            text => Some(parse_board(text).map_err(HintError::Progress)?),
        };
        let marks = (!self.marks.is_empty()).then_some(self.marks);
        Ok(logic::position(givens, placed.as_ref(), marks)?)
    }
}

/// Solves a puzzle and, when it is unique, explains it step by step
/// from the player's `position` (the givens when it is empty), within
/// `limits`. The position is read and checked before the puzzle is
/// solved.
pub fn explain_puzzle(
    text: &str,
    position: PositionText<'_>,
    started: Instant,
    limits: TimeLimits,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<Explained, HintError> {
    let board = parse_board(text).map_err(SolvePuzzleError::from)?;
    let grid = position.grid(&board)?;
    let (report, path) =
        certify_then(&board, started, limits, is_cancelled, |solution, budget| {
            logic::explain_from(&grid, solution, &|| budget.should_stop(), &|| {
                budget.elapsed()
            })
        })?;
    let (steps, grade, mistake) = match path {
        None => (Vec::new(), None, None),
        Some(Ok((steps, grade))) => (steps, Some(grade), None),
        Some(Err(mistake)) => (Vec::new(), None, Some(mistake)),
    };
    Ok(Explained {
        outcome: report.outcome,
        steps,
        grade,
        mistake,
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
    limits: TimeLimits,
    is_cancelled: &dyn Fn() -> bool,
) -> Result<HintAnswer, HintError> {
    let givens = parse_board(text).map_err(SolvePuzzleError::from)?;
    let grid = PositionText { progress, marks }.grid(&givens)?;
    let (report, hint) = certify_then(
        &givens,
        started,
        limits,
        is_cancelled,
        |solution, budget| logic::hint_at(&grid, solution, &|| budget.should_stop()),
    )?;
    Ok(HintAnswer {
        outcome: report.outcome,
        hint,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Grade;

    /// A puzzle whose grade needs more than singles, so that the grader
    /// checks its budget.
    const NEEDS_CHAINS: &str =
        ".......4...2..4..1.7..5..9...3..7....4..6....6..1..8...2....1..85.9...6.....8...3";

    fn graded(started: Instant, limits: TimeLimits) -> Grade {
        solve_and_grade(NEEDS_CHAINS, true, started, limits, &|| false)
            .expect("solved")
            .grade
            .expect("graded")
    }

    #[test]
    fn grading_has_a_budget_of_its_own_counted_from_its_start() {
        // No time at all for the grade: stalled, however long the solve may take.
        let none_for_grading = TimeLimits {
            solve: Some(Duration::from_secs(3600)),
            grade: Some(Duration::ZERO),
        };
        assert!(graded(Instant::now(), none_for_grading).stalled.is_some());
        // A clock started an hour ago, as a worker's may have: the solve's
        // budget is counted from it, the grade's from its own start.
        let an_hour_ago = Instant::now() - Duration::from_secs(3600);
        let limits = TimeLimits {
            solve: Some(Duration::from_secs(7200)),
            grade: Some(Duration::from_secs(60)),
        };
        assert_eq!(graded(an_hour_ago, limits).stalled, None);
        assert_eq!(graded(Instant::now(), TimeLimits::NONE).stalled, None);
    }
}
