//! The search engine: band bitboards, propagation to a fixed point, and
//! branching on a cell with the fewest candidates.
//!
//! The state holds, for each digit and each band (three rows), the 27-bit
//! mask of cells where the digit may still go (see [`super::tables`]).
//! Propagation works one (digit, band) entry at a time and only on entries
//! that changed, so a guess costs a copy of 136 bytes and a few dozen
//! table look-ups. It applies:
//!
//! * **rows and boxes of a band**: a digit takes one box per row and one row
//!   per box, so its 3×3 row/box reachability must hold a permutation; the
//!   union of the fitting permutations masks the band (hidden singles in rows
//!   and boxes, pointing and claiming along rows);
//! * **columns across bands**: each band takes one column per stack for a
//!   digit; a column that is a band's only choice in its stack leaves the
//!   other bands, and two bands confined to the same two columns of a stack
//!   push the third band out of them (hidden singles in columns, pointing
//!   and claiming along columns);
//! * **placements**: a digit with one cell left in a row owns that cell, which
//!   leaves every other digit's mask;
//! * **naked singles**: an open cell with one candidate digit gets it, and an
//!   open cell with none is a contradiction.
//!
//! When propagation stalls, the search branches on the first cell with two
//! candidates (or, if there is none, the cell with the fewest), trying each
//! digit on a copy of the state, which is the classic backtracking of the
//! seed solver, made cheap.

use super::tables::{
    BAND, PEERS_CLEAR, PERMUTATION_MASK, ROW_BOXES, STACK_PAIR_CLEAR, STACK_SINGLE_CLEAR,
};
use crate::domain::Board;

/// For each band, the other two bands.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// The search state. Copying it is how the search saves a position before
/// a guess.
#[derive(Clone, Copy)]
pub(super) struct State {
    /// Where each digit may still go: entry `digit * 3 + band`.
    candidates: [u32; 27],
    /// Entries of `candidates` that changed and are not yet propagated
    /// (bit `digit * 3 + band`).
    dirty: u32,
    /// Cells of each band that have no digit placed yet.
    open_cells: [u32; 3],
    /// Rows of each band where a digit is not yet placed (bit `digit * 3 +
    /// row_in_band`).
    open_rows: [u32; 3],
}

/// The columns (nine bits) a band mask still uses.
#[inline(always)]
fn columns(mask: u32) -> u32 {
    (mask | mask >> 9 | mask >> 18) & 0x1FF
}

impl State {
    /// The state for a board: every digit possible everywhere, then each
    /// given placed. Nothing is propagated yet.
    pub(super) fn new(board: &Board) -> State {
        let mut state = State {
            candidates: [BAND; 27],
            dirty: 0,
            open_cells: [BAND; 3],
            open_rows: [BAND; 3],
        };
        for (index, &value) in board.cells().iter().enumerate() {
            if value != 0 {
                state.place(usize::from(value - 1), index / 27, index % 27);
            }
        }
        state
    }

    /// True when every cell has its digit.
    #[inline]
    pub(super) fn is_solved(&self) -> bool {
        self.open_cells == [0; 3]
    }

    /// The solved grid. Only meaningful when [`State::is_solved`].
    pub(super) fn solution(&self) -> Board {
        let mut cells = [0u8; 81];
        for (entry, &mask) in self.candidates.iter().enumerate() {
            let (digit, band) = (entry / 3, entry % 3);
            let mut rest = mask;
            while rest != 0 {
                cells[band * 27 + rest.trailing_zeros() as usize] = digit as u8 + 1;
                rest &= rest - 1;
            }
        }
        Board::from_cells(cells).expect("digits are 1-9")
    }

    /// Sets entry `index`, marking it dirty if it changed.
    #[inline(always)]
    fn set(&mut self, index: usize, mask: u32) {
        self.dirty |= u32::from(mask != self.candidates[index]) << index;
        self.candidates[index] = mask;
    }

    /// Puts `digit` (0-8) in cell `cell` (0..27) of `band`: the digit leaves
    /// the cell's peers in the band. The rest follows in propagation.
    #[inline]
    pub(super) fn place(&mut self, digit: usize, band: usize, cell: usize) {
        let index = digit * 3 + band;
        self.set(index, self.candidates[index] & PEERS_CLEAR[cell]);
    }

    /// Applies all the rules until nothing changes. Returns false on a
    /// contradiction.
    pub(super) fn propagate(&mut self) -> bool {
        loop {
            while self.dirty != 0 {
                let index = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                if !self.update(index) {
                    return false;
                }
            }
            match self.place_naked_singles() {
                Some(true) => continue,
                Some(false) => return true,
                None => return false,
            }
        }
    }

    /// Propagates one changed (digit, band) entry: rows and boxes of the
    /// band, columns to the other bands, and placements of rows down to one
    /// cell. Returns false on a contradiction.
    #[inline(always)]
    fn update(&mut self, index: usize) -> bool {
        let (digit, band) = (index / 3, index % 3);
        let mut mask = self.candidates[index];
        let reach = usize::from(ROW_BOXES[(mask & 0x1FF) as usize])
            | usize::from(ROW_BOXES[((mask >> 9) & 0x1FF) as usize]) << 3
            | usize::from(ROW_BOXES[(mask >> 18) as usize]) << 6;
        mask &= PERMUTATION_MASK[reach];
        if mask == 0 {
            return false;
        }
        // The permutation mask is idempotent, so the entry stays clean.
        self.candidates[index] = mask;

        let used = columns(mask);
        let keep = STACK_SINGLE_CLEAR[used as usize];
        let [p, q] = OTHER_BANDS[band].map(|other| index - band + other);
        let (mask_p, mask_q) = (self.candidates[p], self.candidates[q]);
        self.set(
            p,
            mask_p & keep & STACK_PAIR_CLEAR[(used | columns(mask_q)) as usize],
        );
        self.set(
            q,
            mask_q & keep & STACK_PAIR_CLEAR[(used | columns(mask_p)) as usize],
        );

        let open = (self.open_rows[band] >> (digit * 3)) & 7;
        if open != 0 {
            let mut placed = 0;
            let mut rows = 0;
            for row in 0..3 {
                let cells = (mask >> (9 * row)) & 0x1FF;
                // Every row has a cell left: the permutation mask saw to it.
                if open & (1 << row) != 0 && cells & (cells - 1) == 0 {
                    placed |= cells << (9 * row);
                    rows |= 1 << row;
                }
            }
            if placed != 0 {
                self.open_rows[band] &= !(rows << (digit * 3));
                self.open_cells[band] &= !placed;
                for other in (band..27).step_by(3) {
                    if other != index {
                        self.set(other, self.candidates[other] & !placed);
                    }
                }
            }
        }
        true
    }

    /// Gives each open cell with one candidate its digit. Returns whether it
    /// placed any, or `None` if an open cell has no candidate at all.
    fn place_naked_singles(&mut self) -> Option<bool> {
        let mut placed_any = false;
        for band in 0..3 {
            let open = self.open_cells[band];
            if open == 0 {
                continue;
            }
            let (at_least_one, at_least_two, _) = self.candidate_counts(band);
            if open & !at_least_one != 0 {
                return None;
            }
            let singles = open & !at_least_two;
            if singles == 0 {
                continue;
            }
            placed_any = true;
            for index in (band..27).step_by(3) {
                let mut cells = singles & self.candidates[index];
                while cells != 0 {
                    self.place(index / 3, band, cells.trailing_zeros() as usize);
                    cells &= cells - 1;
                }
            }
        }
        Some(placed_any)
    }

    /// Cells of a band with at least one, two and three candidate digits.
    #[inline(always)]
    fn candidate_counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut one, mut two, mut three) = (0, 0, 0);
        for index in (band..27).step_by(3) {
            let mask = self.candidates[index];
            three |= two & mask;
            two |= one & mask;
            one |= mask;
        }
        (one, two, three)
    }

    /// The cell to branch on, as (band, cell in band), and its candidate
    /// digits as a 9-bit mask: the first open cell with two candidates, or
    /// else the first with the fewest. Only called on a propagated, unsolved
    /// state.
    pub(super) fn branch_cell(&self) -> (usize, usize, u32) {
        for band in 0..3 {
            let (_, two, three) = self.candidate_counts(band);
            let pairs = self.open_cells[band] & two & !three;
            if pairs != 0 {
                let cell = pairs.trailing_zeros() as usize;
                return (band, cell, self.digits_at(band, cell));
            }
        }
        let mut best = (0, 0, 0u32);
        let mut fewest = u32::MAX;
        for band in 0..3 {
            let mut open = self.open_cells[band];
            while open != 0 {
                let cell = open.trailing_zeros() as usize;
                let digits = self.digits_at(band, cell);
                if digits.count_ones() < fewest {
                    fewest = digits.count_ones();
                    best = (band, cell, digits);
                }
                open &= open - 1;
            }
        }
        best
    }

    /// The candidate digits of one cell, bit `digit` (0-8).
    fn digits_at(&self, band: usize, cell: usize) -> u32 {
        (0..9).fold(0, |digits, digit| {
            digits | ((self.candidates[digit * 3 + band] >> cell) & 1) << digit
        })
    }
}
