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
mod tables;

use engine::State;

use super::Board;

/// What a certifying solve found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Exactly one solution.
    Solved,
    /// More than one solution.
    MultipleSolutions,
    /// The givens admit no solution.
    NoSolution,
}

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
    /// One solution, several, or none.
    pub outcome: Outcome,
    /// A solution when there is at least one (the first found).
    pub solution: Option<Board>,
    /// How the search went.
    pub stats: SolveStats,
}

/// The caller cancelled the solve before it finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the solve was cancelled")]
pub struct Cancelled;

/// How many branching decisions pass between two polls of the cancellation
/// check: often enough to stop within microseconds, rare enough to cost
/// nothing measurable.
const CANCEL_POLL_INTERVAL: u64 = 64;

/// Solves `board`, certifying uniqueness: searches for up to two solutions.
///
/// The board's givens should agree (see [`Board::find_conflict`]); givens
/// that conflict simply yield [`Outcome::NoSolution`]. `is_cancelled` is
/// polled every few dozen branching decisions, and at the first one.
pub fn solve(board: &Board, is_cancelled: impl Fn() -> bool) -> Result<SolveReport, Cancelled> {
    let mut search = Search {
        limit: 2,
        found: 0,
        first: None,
        guesses: 0,
        is_cancelled,
        cancelled: false,
    };
    search.run(State::new(board));
    if search.cancelled {
        return Err(Cancelled);
    }
    let outcome = match search.found {
        0 => Outcome::NoSolution,
        1 => Outcome::Solved,
        _ => Outcome::MultipleSolutions,
    };
    Ok(SolveReport {
        outcome,
        solution: search.first,
        stats: SolveStats {
            guesses: search.guesses,
        },
    })
}

/// A depth-first search that stops at `limit` solutions.
struct Search<F> {
    limit: u32,
    found: u32,
    first: Option<Board>,
    guesses: u64,
    is_cancelled: F,
    cancelled: bool,
}

impl<F: Fn() -> bool> Search<F> {
    fn run(&mut self, mut state: State) {
        // The last candidate of each branching cell continues in this loop
        // instead of a recursive call, so the state is copied one time fewer.
        loop {
            if !state.propagate() {
                return;
            }
            if state.is_solved() {
                self.found += 1;
                if self.first.is_none() {
                    self.first = Some(state.solution());
                }
                return;
            }
            if self.guesses.is_multiple_of(CANCEL_POLL_INTERVAL) && (self.is_cancelled)() {
                self.cancelled = true;
                return;
            }
            self.guesses += 1;
            let (band, cell, mut digits) = state.branch_cell();
            while digits & (digits - 1) != 0 {
                let mut child = state;
                child.place(digits.trailing_zeros() as usize, band, cell);
                self.run(child);
                if self.found >= self.limit || self.cancelled {
                    return;
                }
                digits &= digits - 1;
            }
            state.place(digits.trailing_zeros() as usize, band, cell);
        }
    }
}

#[cfg(test)]
mod tests;
