//! The plain backtracking solver, kept as a test oracle.
//!
//! This is the seed's algorithm: take an empty cell, try each digit that
//! does not clash with its row, column or box, recurse, and undo on failure.
//! It keeps one "used digits" set per row, column and box, with nothing
//! clever to get wrong: no propagation, no inference. The one change from
//! the seed is which empty cell it takes: the one with the fewest legal
//! digits rather than the first, so that it finishes sparse puzzles in
//! milliseconds instead of minutes. The order of cells cannot change which
//! solutions exist, so it stays a faithful oracle.
//!
//! It assumes the givens agree with each other (check them with
//! [`Board::find_conflict`] first). It is slow by design; the service never
//! uses it.

use crate::Board;

/// Counts the solutions of `board`, stopping at `limit`, and returns the
/// count with the first solution found.
pub fn count_solutions(board: &Board, limit: usize) -> (usize, Option<Board>) {
    count_solutions_within(board, limit, u64::MAX).expect("an unbounded search finishes")
}

/// Like [`count_solutions`], but gives up (returning `None`) after trying
/// `max_steps` digits. Some boards take plain backtracking minutes; property
/// tests use this to skip those instead of stalling.
pub fn count_solutions_within(
    board: &Board,
    limit: usize,
    max_steps: u64,
) -> Option<(usize, Option<Board>)> {
    let mut grid = Grid {
        cells: *board.cells(),
        used: [[false; 10]; 27],
        steps_left: max_steps,
    };
    for index in 0..81 {
        let digit = grid.cells[index];
        if digit != 0 {
            grid.mark(index, digit, true);
        }
    }
    let mut found = 0;
    let mut first = None;
    grid.search(limit, &mut found, &mut first);
    (grid.steps_left > 0).then_some((found, first))
}

struct Grid {
    cells: [u8; 81],
    /// `used[unit][digit]`: units 0-8 are rows, 9-17 columns, 18-26 boxes.
    used: [[bool; 10]; 27],
    /// Digits the search may still try; at zero it unwinds.
    steps_left: u64,
}

/// The row, column and box of a cell, as indices into `Grid::used`.
fn units(index: usize) -> [usize; 3] {
    let (row, column) = (index / 9, index % 9);
    [row, 9 + column, 18 + row / 3 * 3 + column / 3]
}

impl Grid {
    fn mark(&mut self, index: usize, digit: u8, used: bool) {
        for unit in units(index) {
            self.used[unit][usize::from(digit)] = used;
        }
    }

    fn is_legal(&self, index: usize, digit: u8) -> bool {
        units(index)
            .iter()
            .all(|&unit| !self.used[unit][usize::from(digit)])
    }

    fn search(&mut self, limit: usize, found: &mut usize, first: &mut Option<Board>) {
        let Some(index) = self.most_constrained_empty_cell() else {
            *found += 1;
            first.get_or_insert_with(|| Board::from_cells(self.cells).expect("digits are 0-9"));
            return;
        };
        for digit in 1..=9 {
            if self.is_legal(index, digit) {
                if self.steps_left == 0 {
                    return;
                }
                self.steps_left -= 1;
                self.cells[index] = digit;
                self.mark(index, digit, true);
                self.search(limit, found, first);
                self.mark(index, digit, false);
                self.cells[index] = 0;
                if *found >= limit || self.steps_left == 0 {
                    return;
                }
            }
        }
    }

    /// The empty cell with the fewest legal digits; `None` when the grid is
    /// full.
    fn most_constrained_empty_cell(&self) -> Option<usize> {
        (0..81)
            .filter(|&index| self.cells[index] == 0)
            .min_by_key(|&index| (1..=9).filter(|&digit| self.is_legal(index, digit)).count())
    }
}
