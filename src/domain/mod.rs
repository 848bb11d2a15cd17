//! The Sudoku domain: boards, puzzle text, the solver, and what became of
//! a puzzle.
//!
//! Nothing here knows about gRPC or threads. The service layer turns
//! [`PuzzleError`] into a gRPC status and runs [`solve_puzzle`] on the worker
//! pool; the command line client calls the same functions directly. Every
//! layer names a puzzle's fate with the one [`Outcome`] type defined here.

mod answer;
mod board;
mod error;
mod outcome;
mod parse;
pub mod solver;

pub use answer::Answer;
pub use board::{Board, Cell, Conflict, Unit};
pub use error::PuzzleError;
pub use outcome::{Outcome, Tally};
pub use parse::{looks_like_puzzle, parse_board, parse_board_bytes};
pub use solver::{Cancelled, SolveReport, SolveStats};

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

/// Why a puzzle got no answer: it was invalid, or the caller gave up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolvePuzzleError {
    /// The text is malformed or the givens conflict.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// The caller cancelled the solve before it finished.
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}

/// Parses, checks and solves one puzzle, certifying uniqueness.
///
/// `is_cancelled` is polled now and then during the search; once it returns
/// true the search stops with [`Cancelled`].
pub fn solve_puzzle(
    text: &str,
    is_cancelled: impl Fn() -> bool,
) -> Result<SolveReport, SolvePuzzleError> {
    solve_board(&parse_board(text)?, is_cancelled)
}

/// Checks and solves a parsed board, certifying uniqueness; see
/// [`solve_puzzle`].
pub fn solve_board(
    board: &Board,
    is_cancelled: impl Fn() -> bool,
) -> Result<SolveReport, SolvePuzzleError> {
    // The solver notices conflicting givens as it places them; only then
    // is the board scanned to name the two cells.
    solver::solve_checked(board, is_cancelled).map_err(|error| match error {
        solver::SolveError::ConflictingGivens => {
            let conflict = board
                .find_conflict()
                .expect("the solver saw two givens conflict");
            SolvePuzzleError::Puzzle(PuzzleError::ConflictingGivens(conflict))
        }
        solver::SolveError::Cancelled => SolvePuzzleError::Cancelled(Cancelled),
    })
}
