//! The depth-first search over [`State`]s.
//!
//! A loop with an explicit stack of saved states rather than recursion, so
//! that it and the propagation it calls compile into one function. (Building
//! that function a second time for CPUs with `popcnt` and BMI, chosen at run
//! time, was measured and bought nothing.)

use super::engine::State;
use crate::domain::Board;

/// How many branching decisions pass between two polls of the cancellation
/// check: often enough to stop within microseconds, rare enough to cost
/// nothing measurable.
const CANCEL_POLL_INTERVAL: u64 = 64;

/// What a search found.
#[derive(Debug, Default)]
pub(super) struct Found {
    /// Solutions found, up to the limit.
    pub count: u32,
    /// The first solution found.
    pub first: Option<Board>,
    /// Branching decisions made.
    pub guesses: u64,
    /// The search stopped because `is_cancelled` said so.
    pub cancelled: bool,
}

/// A saved position: the state before a guess, the cell guessed, and the
/// digits still to try there.
struct Branch {
    state: State,
    band: usize,
    cell: usize,
    digits: u32,
}

/// Searches from `state` for up to `limit` solutions: propagate, and on a
/// stall save the state and try the branching cell's digits one by one,
/// backtracking on contradictions.
pub(super) fn search(mut state: State, limit: u32, is_cancelled: &dyn Fn() -> bool) -> Found {
    let mut found = Found::default();
    let mut stack: Vec<Branch> = Vec::new();
    loop {
        if state.propagate() {
            if state.is_solved() {
                found.count += 1;
                if found.first.is_none() {
                    found.first = Some(state.solution());
                }
                if found.count >= limit {
                    return found;
                }
            } else {
                if found.guesses.is_multiple_of(CANCEL_POLL_INTERVAL) && is_cancelled() {
                    found.cancelled = true;
                    return found;
                }
                found.guesses += 1;
                let (band, cell, digits) = state.branch_cell();
                let first = digits.trailing_zeros() as usize;
                stack.push(Branch {
                    state,
                    band,
                    cell,
                    digits: digits & (digits - 1),
                });
                state.place(first, band, cell);
                continue;
            }
        }
        // Backtrack to the latest branch with a digit left to try; its last
        // digit takes the saved state itself instead of a copy.
        let Some(branch) = stack.last_mut() else {
            return found;
        };
        let digit = branch.digits.trailing_zeros() as usize;
        branch.digits &= branch.digits - 1;
        let (band, cell) = (branch.band, branch.cell);
        state = if branch.digits == 0 {
            stack.pop().expect("the branch is on the stack").state
        } else {
            branch.state
        };
        state.place(digit, band, cell);
    }
}
