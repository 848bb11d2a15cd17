//! The search engine: band bitboards, propagation to a fixed point, and
//! branching on a cell with the fewest candidates.
//!
//! The state holds, for each digit and each band (three rows), the 27-bit
//! mask of cells where the digit may still go (see [`super::tables`]).
//! Propagation works one (digit, band) entry at a time and only on entries
//! that changed since they were last propagated, so a guess costs a copy of
//! 232 bytes and a few dozen table look-ups. It applies:
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
    BAND, COLUMN_0, PEERS_CLEAR, PERMUTATION_MASK, ROW_BOXES, ROW_CELLS, SINGLE_CELL_ROWS,
    SINGLE_COLUMN_STACKS, STACK_PAIR_CLEAR, STACK_SINGLE_CLEAR,
};
use crate::Board;

/// For each band, the other two bands.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// The search state. Copying it is how the search saves a position before
/// a guess.
#[derive(Clone, Copy)]
pub(super) struct State {
    /// Where each digit may still go: `candidates[band][digit]`. An
    /// "entry" elsewhere is the pair's number `digit * 3 + band`, the order
    /// in which propagation sweeps them; the storage is by band so that one
    /// band's nine digits sit side by side (see [`State::update`]).
    candidates: [[u32; 9]; 3],
    /// Each entry as it was when last propagated: an entry that differs
    /// from it has changed since and is due for an update.
    ///
    /// Comparing against this copy, rather than keeping a bit set of changed
    /// entries, lets an update write its results without tracking which of
    /// them changed, and keeps the sweep's branches off the long chain of
    /// updates; measured, it made the whole search about a quarter faster.
    seen: [[u32; 9]; 3],
    /// Cells of each band that have no digit placed yet.
    open_cells: [u32; 3],
}

/// The cells that hold a digit, bit `index`, found eight cells at a time
/// so that placing the givens visits only them, without a branch per cell.
#[inline(always)]
fn given_cells(cells: &[u8; 81]) -> u128 {
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;
    // Multiplying the per-byte flags (bit 0 of each byte) by this gathers
    // them, in order, into the top byte: flag `i` lands on bit 56 + i.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut givens = u128::from(cells[80] != 0) << 80;
    for (chunk, bytes) in cells.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(bytes.try_into().expect("chunks of 8"));
        // Values are 0-9, so a byte is non-zero iff one of its low four
        // bits is set; the shifts only spill into the bytes' top bits.
        let flags = (x | x >> 1 | x >> 2 | x >> 3) & LOW_BITS;
        givens |= u128::from(flags.wrapping_mul(GATHER) >> 56) << (8 * chunk);
    }
    givens
}

/// The column of each cell of a band, as a one-bit mask.
const COLUMN_BIT: [u16; 27] = {
    let mut table = [0; 27];
    let mut cell = 0;
    while cell < 27 {
        table[cell] = 1 << (cell % 9);
        cell += 1;
    }
    table
};

/// Eight bits spread to eight bytes: byte `i` of entry `bits` is bit `i`
/// of `bits`.
const BYTE_PER_BIT: [u64; 256] = {
    let mut table = [0; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut i = 0;
        while i < 8 {
            table[bits] |= ((bits as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        bits += 1;
    }
    table
};

/// True when `cell` is not in `mask`.
#[inline(always)]
fn is_clear(mask: u32, cell: usize) -> bool {
    mask & (1 << cell) == 0
}

/// The columns (nine bits) a band mask still uses.
#[inline(always)]
fn columns(mask: u32) -> u32 {
    (mask | mask >> 9 | mask >> 18) & 0x1FF
}

impl State {
    /// The state for a board: every digit possible everywhere, then each
    /// given placed. Nothing is propagated yet. `None` when two givens
    /// repeat a digit in a row, column or box.
    pub(super) fn new(board: &Board) -> Option<State> {
        let mut state = State {
            candidates: [[BAND; 9]; 3],
            seen: [[BAND; 9]; 3],
            open_cells: [BAND; 3],
        };
        let cells = board.cells();
        let givens = given_cells(cells);
        let mut columns_used = [0u16; 9];
        let mut conflict = false;
        for band in 0..3 {
            let mut rest = (givens >> (27 * band)) as u32 & BAND;
            let band_cells = &cells[band * 27..band * 27 + 27];
            while rest != 0 {
                let cell = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let digit = usize::from(band_cells[cell] - 1);
                // Before propagation, only earlier givens of the same digit
                // take candidates away: in this band by placing, in other
                // bands only through the column, which `columns_used` tracks.
                let column = COLUMN_BIT[cell];
                conflict |= is_clear(state.candidates[band][digit], cell)
                    | (columns_used[digit] & column != 0);
                columns_used[digit] |= column;
                state.candidates[band][digit] &= PEERS_CLEAR[cell];
            }
        }
        (!conflict).then_some(state)
    }

    /// True when every cell has its digit.
    #[inline(always)]
    pub(super) fn is_solved(&self) -> bool {
        self.open_cells == [0; 3]
    }

    /// The solved grid. Only meaningful when [`State::is_solved`].
    ///
    /// Built from bit planes rather than cell by cell: plane `k` holds the
    /// cells whose digit has bit `k` set, and each nine-cell row of a plane
    /// becomes nine bytes of 0 or 1 through one table look-up.
    #[inline(always)]
    pub(super) fn solution(&self) -> Board {
        let mut cells = [0u8; 81];
        for (band, digits) in self.candidates.iter().enumerate() {
            let mut planes = [0u32; 4];
            for (index, &mask) in digits.iter().enumerate() {
                let digit = index + 1;
                for (bit, plane) in planes.iter_mut().enumerate() {
                    if digit >> bit & 1 != 0 {
                        *plane |= mask;
                    }
                }
            }
            for row in 0..3 {
                let mut first_eight = 0u64;
                let mut ninth = 0u8;
                for (bit, &plane) in planes.iter().enumerate() {
                    let row_cells = plane >> (9 * row);
                    first_eight |= BYTE_PER_BIT[(row_cells & 0xFF) as usize] << bit;
                    ninth |= (((row_cells >> 8) & 1) as u8) << bit;
                }
                let start = band * 27 + row * 9;
                cells[start..start + 8].copy_from_slice(&first_eight.to_le_bytes());
                cells[start + 8] = ninth;
            }
        }
        Board::from_cells(cells).expect("digits are 1-9")
    }

    /// Puts `digit` (0-8) in cell `cell` (0..27) of `band`: the digit leaves
    /// the cell's peers in the band. The rest follows in propagation.
    #[inline(always)]
    pub(super) fn place(&mut self, digit: usize, band: usize, cell: usize) {
        self.candidates[band][digit] &= PEERS_CLEAR[cell];
    }

    /// Applies all the rules until nothing changes. Returns false on a
    /// contradiction.
    #[inline(always)]
    pub(super) fn propagate(&mut self) -> bool {
        loop {
            // Sweep the entries in order, updating those that changed;
            // entries that change behind the sweep wait for the next one,
            // so their changes pile up and are handled together.
            loop {
                let mut swept_any = false;
                macro_rules! sweep {
                    ($($i:literal)*) => {
                        $(
                            if self.candidates[$i % 3][$i / 3] != self.seen[$i % 3][$i / 3] {
                                swept_any = true;
                                if !self.update::<$i>() {
                                    return false;
                                }
                            }
                        )*
                    };
                }
                sweep!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26);
                if !swept_any {
                    break;
                }
            }
            match self.place_naked_singles() {
                Some(false) => return true,
                Some(true) => {}
                None => return false,
            }
        }
    }

    /// Propagates one changed (digit, band) entry, `INDEX = digit * 3 +
    /// band`: rows and boxes of the band, columns to the other bands, and
    /// placements of rows down to one cell. Returns the entries it changed,
    /// or `None` on a contradiction. Compiled once per entry, so that every
    /// index and shift is a constant.
    #[inline(always)]
    fn update<const INDEX: usize>(&mut self) -> bool {
        let (digit, band) = (INDEX / 3, INDEX % 3);
        let mut mask = self.candidates[band][digit];
        let reach = usize::from(ROW_BOXES[(mask & 0x1FF) as usize])
            | usize::from(ROW_BOXES[((mask >> 9) & 0x1FF) as usize]) << 3
            | usize::from(ROW_BOXES[(mask >> 18) as usize & 0x1FF]) << 6;
        mask &= PERMUTATION_MASK[reach];
        if mask == 0 {
            return false;
        }
        // The permutation mask is idempotent, so the entry is now settled.
        self.candidates[band][digit] = mask;
        self.seen[band][digit] = mask;

        let used = columns(mask);
        let keep = STACK_SINGLE_CLEAR[used as usize];
        let [band_p, band_q] = OTHER_BANDS[band];
        let (mask_p, mask_q) = (
            self.candidates[band_p][digit],
            self.candidates[band_q][digit],
        );
        let new_p = mask_p & keep & STACK_PAIR_CLEAR[(used | columns(mask_q)) as usize];
        let new_q = mask_q & keep & STACK_PAIR_CLEAR[(used | columns(mask_p)) as usize];
        self.candidates[band_p][digit] = new_p;
        self.candidates[band_q][digit] = new_q;

        // Rows of the digit down to one cell own that cell, which leaves
        // the other digits. Done every time rather than only for newly
        // settled rows: clearing again changes nothing, and an unpredictable
        // branch costs more than the few instructions it would skip.
        let stacks = usize::from(SINGLE_COLUMN_STACKS[used as usize]);
        let rows = u32::from(SINGLE_CELL_ROWS[reach << 3 | stacks]);
        let placed = mask & ROW_CELLS[rows as usize];
        self.open_cells[band] &= !placed;
        for (other, entry) in self.candidates[band].iter_mut().enumerate() {
            if other != digit {
                *entry &= !placed;
            }
        }
        true
    }

    /// Gives each open cell with one candidate its digit. Returns whether
    /// that changed anything, or `None` if an open cell has no candidate at
    /// all.
    #[inline(always)]
    fn place_naked_singles(&mut self) -> Option<bool> {
        let mut changed = false;
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
            for entry in &mut self.candidates[band] {
                let mut cells = singles & *entry;
                if cells == 0 {
                    continue;
                }
                let before = *entry;
                let mut after = before;
                while cells != 0 {
                    after &= PEERS_CLEAR[cells.trailing_zeros() as usize];
                    cells &= cells - 1;
                }
                *entry = after;
                changed |= after != before;
            }
        }
        Some(changed)
    }

    /// Cells of a band with at least one, two and three candidate digits.
    #[inline(always)]
    fn candidate_counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut one, mut two, mut three) = (0, 0, 0);
        for &mask in &self.candidates[band] {
            three |= two & mask;
            two |= one & mask;
            one |= mask;
        }
        (one, two, three)
    }

    /// The cell to branch on, as (band, cell in band), and its candidate
    /// digits as a 9-bit mask. Only called on a propagated, unsolved state.
    ///
    /// A cell with two candidates, and among those the one with the most
    /// two-candidate cells among its peers: placing either digit there is
    /// likely to settle those peers too, so both branches stay small. On the
    /// hardest benchmark set this takes about a quarter fewer guesses than
    /// the first two-candidate cell. Without any such cell, the first cell
    /// with the fewest candidates.
    #[inline(always)]
    pub(super) fn branch_cell(&self) -> (usize, usize, u32) {
        let pair_cells = |band: usize| {
            let (_, two, three) = self.candidate_counts(band);
            self.open_cells[band] & two & !three
        };
        let pairs = [pair_cells(0), pair_cells(1), pair_cells(2)];
        let mut best = None;
        let mut best_score = 0;
        for band in 0..3 {
            let [other_1, other_2] = OTHER_BANDS[band];
            let mut cells = pairs[band];
            while cells != 0 {
                let cell = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let column = COLUMN_0 << (cell % 9);
                let in_band = pairs[band] & !PEERS_CLEAR[cell];
                let in_column = (pairs[other_1] & column) | (pairs[other_2] & column) << 1;
                let score = (u64::from(in_band) | u64::from(in_column) << 32).count_ones() + 1;
                if score > best_score {
                    best_score = score;
                    best = Some((band, cell));
                }
            }
        }
        if let Some((band, cell)) = best {
            return (band, cell, self.digits_at(band, cell));
        }
        let mut fewest = u32::MAX;
        let mut best = (0, 0, 0u32);
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
    #[inline(always)]
    fn digits_at(&self, band: usize, cell: usize) -> u32 {
        (0..9).fold(0, |digits, digit| {
            digits | ((self.candidates[band][digit] >> cell) & 1) << digit
        })
    }

    /// True when some row, column or box cannot take all nine digits: a
    /// set of its digits has fewer candidate cells in it than digits (say
    /// three digits that only two cells can hold), so no solution exists.
    ///
    /// Propagation does not see this, and a search that misses it can try
    /// millions of guesses elsewhere on the board, failing on it each time.
    /// It costs a few microseconds, so [`super::search`] checks it only now
    /// and then, once a search is long. It only grows true down a branch:
    /// candidates only go.
    #[inline(never)]
    pub(super) fn has_unplaceable_digits(&self) -> bool {
        self.unit_places()
            .iter()
            .any(|places| !has_perfect_matching(places))
    }

    /// Where each digit may go in each unit: `places[unit][digit]` has bit
    /// `i` for the unit's `i`-th cell in reading order. Units 0-8 are the
    /// rows, 9-17 the columns, 18-26 the boxes.
    fn unit_places(&self) -> [[u16; 9]; 27] {
        let mut places = [[0u16; 9]; 27];
        for (band, digits) in self.candidates.iter().enumerate() {
            for (digit, &mask) in digits.iter().enumerate() {
                for row in 0..3 {
                    let line = band * 3 + row;
                    let cells = (mask >> (9 * row)) & 0x1FF;
                    places[line][digit] = cells as u16;
                    for stack in 0..3 {
                        let three = (cells >> (3 * stack)) & 0b111;
                        places[18 + band * 3 + stack][digit] |= (three << (3 * row)) as u16;
                    }
                    let mut rest = cells;
                    while rest != 0 {
                        let column = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        places[9 + column][digit] |= 1 << line;
                    }
                }
            }
        }
        places
    }
}

/// True when each digit can have a cell of its own among `places` (bit `i`
/// of `places[digit]`: the digit may go in cell `i`): a perfect matching, by
/// augmenting paths.
fn has_perfect_matching(places: &[u16; 9]) -> bool {
    /// Finds `digit` a cell, moving earlier digits along if need be.
    fn augment(digit: usize, places: &[u16; 9], owner: &mut [u8; 9], tried: &mut u16) -> bool {
        loop {
            let options = places[digit] & !*tried;
            if options == 0 {
                return false;
            }
            let cell = options.trailing_zeros() as usize;
            *tried |= 1 << cell;
            let taken_by = owner[cell];
            if taken_by == u8::MAX || augment(usize::from(taken_by), places, owner, tried) {
                owner[cell] = digit as u8;
                return true;
            }
        }
    }
    let mut owner = [u8::MAX; 9];
    (0..9).all(|digit| augment(digit, places, &mut owner, &mut 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_cells_marks_exactly_the_non_blank_cells() {
        for seed in 0..200u32 {
            let mut cells = [0u8; 81];
            for (index, cell) in cells.iter_mut().enumerate() {
                let mix =
                    (index as u32 + 1).wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(40_503);
                if mix.is_multiple_of(3) {
                    *cell = (mix % 9 + 1) as u8;
                }
            }
            let expected = (0..81).fold(0u128, |mask, i| mask | u128::from(cells[i] != 0) << i);
            assert_eq!(given_cells(&cells), expected, "seed {seed}");
        }
        assert_eq!(given_cells(&[9; 81]), (1u128 << 81) - 1);
        assert_eq!(given_cells(&[0; 81]), 0);
    }

    #[test]
    fn a_matching_needs_a_cell_for_every_digit() {
        assert!(has_perfect_matching(&[0x1FF; 9]));
        let diagonal: [u16; 9] = std::array::from_fn(|digit| 1 << digit);
        assert!(has_perfect_matching(&diagonal));
        // Found only by moving digits along: each digit's first choice is
        // taken by the one before it.
        let chain: [u16; 9] = std::array::from_fn(|digit| 0b11 << digit & 0x1FF | 1);
        assert!(has_perfect_matching(&chain));
        let mut three_in_two = [0x1FF; 9];
        three_in_two[1..4].fill(0b110);
        assert!(!has_perfect_matching(&three_in_two));
        let mut nowhere = [0x1FF; 9];
        nowhere[8] = 0;
        assert!(!has_perfect_matching(&nowhere));
    }

    fn propagated(line: &str) -> State {
        let mut state = State::new(&crate::parse_board(line).unwrap()).unwrap();
        assert!(state.propagate());
        state
    }

    #[test]
    fn unit_places_read_rows_columns_and_boxes() {
        // One 5, at r2c3 (band 0, cell 11): row 1, column 2, box 0.
        let state = propagated(&format!("{}5{}", ".".repeat(11), ".".repeat(69)));
        let places = state.unit_places();
        assert_eq!(places[1][4], 1 << 2);
        assert_eq!(places[9 + 2][4], 1 << 1);
        assert_eq!(places[18][4], 1 << 5);
        // Every other digit may still go anywhere but r2c3.
        assert_eq!(places[1][0], 0x1FF & !(1 << 2));
        assert_eq!(places[9 + 2][0], 0x1FF & !(1 << 1));
        assert_eq!(places[18][0], 0x1FF & !(1 << 5));
        assert!(!state.has_unplaceable_digits());
    }

    #[test]
    fn three_digits_for_two_cells_are_unplaceable() {
        // Box 7 must put 2, 4 and 6 in row 7, where only r7c1 and r7c3
        // are open: propagation alone does not see it.
        let state = propagated(
            ".......................................................3............264....6.42..",
        );
        assert!(!state.is_solved());
        assert!(state.has_unplaceable_digits());
        let fine = propagated(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        assert!(!fine.has_unplaceable_digits());
    }
}
