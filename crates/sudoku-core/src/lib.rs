//! The Sudoku domain: boards, puzzle text, the certifying solver, the
//! logical solver that grades, hints and explains ([`logic`]), the
//! generator ([`generate`]), and what became of a puzzle.
//!
//! Nothing here knows about gRPC or threads. The service layer turns
//! [`PuzzleError`] into a gRPC status and runs [`solve_puzzle`] on the worker
//! pool; the command line client calls the same functions directly. Every
//! layer names a puzzle's fate with the one [`Outcome`] type defined here.

use std::time::{Duration, Instant};

mod answer;
mod board;
mod error;
pub mod generate;
mod graded;
pub mod logic;
mod outcome;
mod parse;
pub mod solver;
pub mod variant;

pub use answer::{Answer, GradeSummary, HintReport, HintSummary, PathReport, StepSummary};
pub use board::{Board, Cell, Conflict, Unit};
pub use error::{MAX_PUZZLE_BYTES, PuzzleError};
pub use graded::{
    Explained, GradedReport, HintAnswer, HintError, PositionText, TimeLimits, explain_puzzle,
    hint_puzzle, solve_and_grade, solve_and_grade_board,
};
pub use outcome::{Outcome, Tally};
pub use parse::{looks_like_puzzle, parse_board, parse_board_bytes};
pub use solver::{SolveReport, SolveStats, Stopped};

/// Reads puzzle text and checks its givens: the board a solver may be given.
///
/// Fails with [`PuzzleError`] when the text is malformed or two givens repeat
/// a digit in a row, column or box.
pub fn parse_puzzle(text: &str) -> Result<Board, PuzzleError> {
    let board = parse_board(text)?;
    match board.find_conflict() {
        Some(conflict) => Err(PuzzleError::ConflictingGivens(conflict)),
        None => Ok(board),
    }
}

/// Why a puzzle got no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolvePuzzleError {
    /// The text is malformed or the givens conflict.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// The caller cancelled the solve before it finished.
    #[error("the solve was cancelled")]
    Cancelled,
    /// The solve ran out of its time budget.
    #[error(transparent)]
    GaveUp(#[from] GaveUp),
}

/// A solve that ran out of its time budget, and how far it got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "gave up after {:.3}s and {guesses} guesses: the limit is {:.3}s per puzzle",
    elapsed.as_secs_f64(),
    budget.as_secs_f64()
)]
pub struct GaveUp {
    /// How long it ran.
    pub elapsed: Duration,
    /// Branching decisions it made.
    pub guesses: u64,
    /// The budget it had.
    pub budget: Duration,
}

/// Parses, checks and solves one puzzle, certifying uniqueness.
///
/// The solve gives up once it has run for `max_time` (`None`: no limit),
/// and stops once `is_cancelled` returns true; both are polled now and then
/// during the search, every few microseconds of it.
pub fn solve_puzzle(
    text: &str,
    max_time: Option<Duration>,
    is_cancelled: impl Fn() -> bool,
) -> Result<SolveReport, SolvePuzzleError> {
    solve_puzzle_since(text, Instant::now(), max_time, is_cancelled)
}

/// [`solve_puzzle`], with its time budget counted from `started`: a
/// caller that solves puzzles back to back reads the clock once per
/// puzzle, not twice.
pub fn solve_puzzle_since(
    text: &str,
    started: Instant,
    max_time: Option<Duration>,
    is_cancelled: impl Fn() -> bool,
) -> Result<SolveReport, SolvePuzzleError> {
    solve_board_since(&parse_board(text)?, started, max_time, is_cancelled)
}

/// Checks and solves a parsed board, certifying uniqueness; see
/// [`solve_puzzle`].
pub fn solve_board(
    board: &Board,
    max_time: Option<Duration>,
    is_cancelled: impl Fn() -> bool,
) -> Result<SolveReport, SolvePuzzleError> {
    solve_board_since(board, Instant::now(), max_time, is_cancelled)
}

/// [`solve_board`], with its time budget counted from `started`.
fn solve_board_since(
    board: &Board,
    started: Instant,
    max_time: Option<Duration>,
    is_cancelled: impl Fn() -> bool,
) -> Result<SolveReport, SolvePuzzleError> {
    let deadline = max_time.and_then(|budget| started.checked_add(budget));
    let out_of_time = || deadline.is_some_and(|deadline| Instant::now() >= deadline);
    // The solver notices conflicting givens as it places them; only then
    // is the board scanned to name the two cells.
    solver::solve_checked(board, || is_cancelled() || out_of_time()).map_err(|error| match error {
        solver::SolveError::ConflictingGivens => {
            let conflict = board
                .find_conflict()
                .expect("the solver saw two givens conflict");
            SolvePuzzleError::Puzzle(PuzzleError::ConflictingGivens(conflict))
        }
        solver::SolveError::Stopped(_) if is_cancelled() => SolvePuzzleError::Cancelled,
        solver::SolveError::Stopped(stopped) => SolvePuzzleError::GaveUp(GaveUp {
            elapsed: started.elapsed(),
            guesses: stopped.guesses,
            budget: max_time.unwrap_or_default(),
        }),
    })
}
