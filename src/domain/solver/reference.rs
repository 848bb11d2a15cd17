//! The plain backtracking solver, kept as a test oracle.
//!
//! This is the seed's algorithm: take an empty cell, try each digit that
//! does not clash with its row, column or box, recurse, and undo on failure.
//! Every check is a scan of the grid, with nothing clever to get wrong. The
//! one change from the seed is which empty cell it takes: the one with the
//! fewest legal digits rather than the first, so that it finishes sparse
//! puzzles in milliseconds instead of minutes. The order of cells cannot
//! change which solutions exist, so it stays a faithful oracle.
//!
//! It is slow by design; the service never uses it.

use crate::domain::Board;

/// Counts the solutions of `board`, stopping at `limit`, and returns the
/// count with the first solution found.
pub fn count_solutions(board: &Board, limit: usize) -> (usize, Option<Board>) {
    let mut cells = *board.cells();
    let mut found = 0;
    let mut first = None;
    search(&mut cells, limit, &mut found, &mut first);
    (found, first)
}

fn search(cells: &mut [u8; 81], limit: usize, found: &mut usize, first: &mut Option<Board>) {
    let Some((index, legal)) = most_constrained_empty_cell(cells) else {
        *found += 1;
        first.get_or_insert_with(|| Board::from_cells(*cells).expect("digits are 0-9"));
        return;
    };
    for digit in 1..=9u8 {
        if legal[usize::from(digit)] {
            cells[index] = digit;
            search(cells, limit, found, first);
            cells[index] = 0;
            if *found >= limit {
                return;
            }
        }
    }
}

/// The empty cell with the fewest legal digits, and which digits are legal
/// there (indexed 1-9); `None` when the grid is full.
fn most_constrained_empty_cell(cells: &[u8; 81]) -> Option<(usize, [bool; 10])> {
    let mut best: Option<(usize, [bool; 10])> = None;
    let mut fewest = usize::MAX;
    for index in (0..81).filter(|&i| cells[i] == 0) {
        let mut legal = [true; 10];
        let (row, column) = (index / 9, index % 9);
        let (box_row, box_column) = (row / 3 * 3, column / 3 * 3);
        for k in 0..9 {
            legal[usize::from(cells[row * 9 + k])] = false;
            legal[usize::from(cells[k * 9 + column])] = false;
            legal[usize::from(cells[(box_row + k / 3) * 9 + box_column + k % 3])] = false;
        }
        let count = legal[1..].iter().filter(|&&ok| ok).count();
        if count < fewest {
            fewest = count;
            best = Some((index, legal));
        }
    }
    best
}
