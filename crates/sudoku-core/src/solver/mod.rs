//! Certifying Sudoku solver.
//!
//! [`solve`] searches for up to two solutions, so every answer says whether
//! the puzzle has exactly one solution, several, or none. The search is
//! backtracking at heart (try a digit, recurse, undo), made fast by bitboard
//! candidates, constraint propagation and branching on the cell with the
//! fewest candidates; see [`engine`](self::engine) for how.
//! [`reference`] keeps the plain algorithm as a test oracle.

mod engine;
pub mod reference;
mod search;
mod tables;

use engine::State;

use super::{Board, Outcome};

/// Figures from one solve.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Branching decisions: cells the search had to try digits in because
    /// propagation alone did not settle them. Zero when logic alone solved it.
    pub guesses: u64,
}

/// The answer to one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveReport {
    /// One solution, several, or none: always [`Outcome::Solved`],
    /// [`Outcome::MultipleSolutions`] or [`Outcome::NoSolution`].
    pub outcome: Outcome,
    /// A solution when there is at least one (the first found).
    pub solution: Option<Board>,
    /// How the search went.
    pub stats: SolveStats,
}

/// The caller's stop check said stop before the solve finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the solve was stopped after {guesses} guesses")]
pub struct Stopped {
    /// Branching decisions made until then.
    pub guesses: u64,
}

/// Solves `board`, certifying uniqueness: searches for up to two solutions.
///
/// Givens that repeat a digit in a row, column or box yield
/// [`Outcome::NoSolution`]; [`solve_checked`] tells them apart.
/// `should_stop` is polled every few dozen branching decisions, and at the
/// first one; once it says so the search stops with [`Stopped`].
pub fn solve(board: &Board, should_stop: impl Fn() -> bool) -> Result<SolveReport, Stopped> {
    match solve_checked(board, should_stop) {
        Err(SolveError::ConflictingGivens) => Ok(SolveReport {
            outcome: Outcome::NoSolution,
            solution: None,
            stats: SolveStats::default(),
        }),
        Err(SolveError::Stopped(stopped)) => Err(stopped),
        Ok(report) => Ok(report),
    }
}

/// Why [`solve_checked`] gave no report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveError {
    /// Two givens repeat a digit in a row, column or box (found while
    /// placing them, at no extra cost; [`Board::find_conflict`] names them).
    ConflictingGivens,
    /// The caller's stop check said stop.
    Stopped(Stopped),
}

/// Like [`solve`], but reports conflicting givens instead of answering
/// [`Outcome::NoSolution`] for them.
pub fn solve_checked(
    board: &Board,
    should_stop: impl Fn() -> bool,
) -> Result<SolveReport, SolveError> {
    let state = State::new(board).ok_or(SolveError::ConflictingGivens)?;
    let found = search::search(state, 2, &should_stop, None);
    if found.stopped {
        return Err(SolveError::Stopped(Stopped {
            guesses: found.guesses,
        }));
    }
    Ok(SolveReport {
        outcome: Outcome::of_solution_count(found.count as usize),
        solution: found.first,
        stats: SolveStats {
            guesses: found.guesses,
        },
    })
}

/// The first solution the search finds for `board`, without looking for
/// a second: what filling in a grid needs, at less cost than [`solve`].
/// `None` when it has none.
pub fn first_solution(board: &Board) -> Option<Board> {
    let state = State::new(board)?;
    search::search(state, 1, &|| false, None).first
}

/// Adds the solutions of `board`, up to `limit` of them, to `listed`, in
/// the search's order (fixed for a board): what a neighbourhood search
/// needs to see which added givens restore uniqueness. Nothing when two
/// givens clash.
pub fn list_solutions(board: &Board, limit: usize, listed: &mut Vec<Board>) {
    if let Some(state) = State::new(board) {
        let limit = u32::try_from(limit).unwrap_or(u32::MAX);
        search::search(state, limit, &|| false, Some(listed));
    }
}

#[cfg(test)]
mod tests;
