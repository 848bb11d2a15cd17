//! The depth-first search over [`State`]s.
//!
//! A loop with an explicit stack of saved states rather than recursion, so
//! that it and the propagation it calls compile into one function, which is
//! built twice on x86-64: once for any CPU and once for CPUs with `popcnt`,
//! chosen at run time.
//!
//! A long search also checks now and then for a unit that cannot take its
//! digits (say three digits with two cells for them): a flaw propagation
//! misses, which would otherwise make the search fail on it under every
//! branch elsewhere on the board. Sparse boards built that way took
//! millions of guesses and up to a minute before the check (the fuzz target
//! `solve_board` found them; tests/suite/fuzz_regressions.rs keeps them).

use super::engine::State;
use crate::Board;

/// How many branching decisions pass between two polls of the stop check
/// (cancellation, the time budget): often enough to stop within
/// microseconds, rare enough to cost nothing measurable.
const STOP_POLL_INTERVAL: u64 = 64;

/// How many branching decisions pass between two checks for units that
/// cannot take their digits ([`State::has_unplaceable_digits`]). Puzzles
/// that need fewer guesses (nearly all) never pay for one; a search stuck
/// under such a dead end escapes it within this many guesses.
const DEAD_END_CHECK_INTERVAL: u64 = 256;

/// What a search found.
#[derive(Debug, Default)]
pub(super) struct Found {
    /// Solutions found, up to the limit.
    pub count: u32,
    /// The first solution found.
    pub first: Option<Board>,
    /// Branching decisions made.
    pub guesses: u64,
    /// The search stopped because `should_stop` said so.
    pub stopped: bool,
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
/// backtracking on contradictions. Each solution found is also pushed to
/// `listed`, if given.
pub(super) fn search(
    state: State,
    limit: u32,
    should_stop: &dyn Fn() -> bool,
    listed: Option<&mut Vec<Board>>,
) -> Found {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: `search_with_popcnt` enables exactly one target feature,
        // `popcnt`, and the CPU was just seen to have it.
        return unsafe { search_with_popcnt(state, limit, should_stop, listed) };
    }
    search_loop(state, limit, should_stop, listed)
}

/// [`search_loop`] compiled for CPUs with a `popcnt` instruction, which the
/// branching heuristic uses for every candidate cell. Baseline x86-64 lacks
/// it, and counting bits without it costs about a tenth of the time on hard
/// puzzles. Only `popcnt` is enabled: the SSE4 levels that usually come
/// with it bought nothing measurable (hardest_1905_11plus: 2.29 s with
/// them, 2.31 s without, ±0.03 s), and each enabled feature is one more
/// the CPU would have to be checked for.
///
/// # Safety
/// The CPU must support `popcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn search_with_popcnt(
    state: State,
    limit: u32,
    should_stop: &dyn Fn() -> bool,
    listed: Option<&mut Vec<Board>>,
) -> Found {
    search_loop(state, limit, should_stop, listed)
}

/// The search itself, inlined into each of the entry points above.
#[inline(always)]
fn search_loop(
    mut state: State,
    limit: u32,
    should_stop: &dyn Fn() -> bool,
    mut listed: Option<&mut Vec<Board>>,
) -> Found {
    let mut found = Found::default();
    // Room for a deep search up front, so that pushing never reallocates.
    let mut stack: Vec<Branch> = Vec::with_capacity(64);
    loop {
        if state.propagate() {
            if state.is_solved() {
                found.count += 1;
                if found.first.is_none() {
                    found.first = Some(state.solution());
                }
                if let Some(listed) = listed.as_deref_mut() {
                    listed.push(state.solution());
                }
                if found.count >= limit {
                    return found;
                }
            } else {
                if found.guesses.is_multiple_of(STOP_POLL_INTERVAL) && should_stop() {
                    found.stopped = true;
                    return found;
                }
                if found.guesses > 0
                    && found.guesses.is_multiple_of(DEAD_END_CHECK_INTERVAL)
                    && state.has_unplaceable_digits()
                {
                    // No solution here, nor under the saved branches that
                    // already had the flaw (the deepest ones: it only grows
                    // down a branch). Drop them, and backtrack above them.
                    let first_dead =
                        stack.partition_point(|branch| !branch.state.has_unplaceable_digits());
                    stack.truncate(first_dead);
                } else {
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
