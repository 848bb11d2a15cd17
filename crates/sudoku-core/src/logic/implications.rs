//! Nodes of the implication chains: a candidate being on (true) or off
//! (false), as one small integer.
//!
//! The cycles ([`super::cycles`]) and the forcing chains
//! ([`super::forcing`]) link nodes by four rules: on, to off, the other
//! candidates of its cell and the same digit in every cell it sees; off,
//! to on, the other candidate of a cell with two and the other place of
//! its digit in a unit with two. Numbering the 1,458 nodes lets a search
//! keep its sets as bit sets and its tables as flat arrays.

/// A candidate being on or off: `(cell * 9 + digit - 1) * 2 + on`.
pub(super) type State = u16;

/// States there are: 729 candidates, on and off.
pub(super) const STATES: usize = 729 * 2;

pub(super) fn state(cell: usize, digit: u8, on: bool) -> State {
    ((cell * 9 + usize::from(digit) - 1) * 2 + usize::from(on)) as State
}

pub(super) fn cell_of(state: State) -> usize {
    usize::from(state) / 18
}

pub(super) fn digit_of(state: State) -> u8 {
    (usize::from(state) / 2 % 9) as u8 + 1
}

pub(super) fn is_on(state: State) -> bool {
    state % 2 == 1
}

pub(super) fn opposite(state: State) -> State {
    state ^ 1
}
