//! Small unavoidable sets of a solved grid: cells whose digits can be
//! rearranged among themselves into another valid grid. A puzzle of that
//! grid with no given in such a set has a second solution, so generation
//! turns down emptying an orbit that would clear one without calling the
//! solver.
//!
//! Proving a second solution is the costly half of emptying: the search
//! must find two, while a puzzle that stays unique is mostly settled by
//! propagation alone. About seven failed orbits in ten of a minimal puzzle
//! under a half turn clear one of the sets found here. The check never
//! changes a puzzle: a set it reports is truly unavoidable, and a set it
//! misses only leaves the decision to the solver.
//!
//! The sets are those of **two rows of a band** (or two columns of a
//! stack). Where the digits of some columns of one row are those of the
//! same columns of the other, in another order, swapping the two rows'
//! digits in those columns keeps every row, column and box whole (the
//! rows share their boxes). Following, column by column, where the first
//! row's digit sits in the second row splits the nine columns into cycles,
//! and each cycle is such a set; a cycle of two columns is the familiar
//! rectangle of two digits.
//!
//! Two digits give sets across bands too (every cell of `a` and `b` in
//! some rows, linked through shared columns and boxes), but finding them
//! cost more per grid than the searches they saved (they caught 1.6 more
//! failed orbits per puzzle, for about 4 µs per grid).

use crate::Board;

/// The most columns (or rows) a set kept spans. Larger sets are rarely
/// left without a given (keeping every size catches one failed orbit more
/// in a hundred), and each set kept costs a look on every orbit tried.
const MAX_SET_LINES: usize = 4;

/// The bit of each cell in a mask of cells.
const CELL: [u128; 81] = {
    let mut bits = [0; 81];
    let mut cell = 0;
    while cell < 81 {
        bits[cell] = 1 << cell;
        cell += 1;
    }
    bits
};

/// The unavoidable sets found for one solved grid, as masks of cells
/// (bit `row * 9 + column`).
#[derive(Debug, Clone)]
pub struct UnavoidableSets(Vec<u128>);

impl UnavoidableSets {
    /// The sets of `solution`, which must be a solved grid.
    pub fn of(solution: &Board) -> UnavoidableSets {
        let digits = solution.cells();
        let mut transposed = [0; 81];
        for (index, &digit) in digits.iter().enumerate() {
            transposed[index % 9 * 9 + index / 9] = digit;
        }
        let mut sets = Vec::with_capacity(64);
        row_pair_sets(
            &Places::of(digits),
            |row, column| row * 9 + column,
            &mut sets,
        );
        // Two columns of a stack are two rows of a band of the transpose.
        row_pair_sets(
            &Places::of(&transposed),
            |row, column| column * 9 + row,
            &mut sets,
        );
        UnavoidableSets(sets)
    }

    /// True when every set holds one of `givens` (a mask of cells): the
    /// puzzle may still have one solution. False means it certainly has
    /// more than one.
    pub fn all_hit(&self, givens: u128) -> bool {
        self.0.iter().all(|set| set & givens != 0)
    }

    /// The sets.
    #[cfg(test)]
    pub fn masks(&self) -> &[u128] {
        &self.0
    }
}

/// Where each digit sits in each row, as `column_in_row[digit][row]`, and
/// the digit of each cell, as `digit[row][column]`.
struct Places {
    column_in_row: [[u8; 9]; 10],
    digit: [[u8; 9]; 9],
}

impl Places {
    fn of(digits: &[u8; 81]) -> Places {
        let mut places = Places {
            column_in_row: [[0; 9]; 10],
            digit: [[0; 9]; 9],
        };
        for (index, &digit) in digits.iter().enumerate() {
            let (row, column) = (index / 9, index % 9);
            places.digit[row][column] = digit;
            places.column_in_row[usize::from(digit)][row] = column as u8;
        }
        places
    }
}

/// The pairs of rows of one band: 0-1, 0-2, 1-2, 3-4, ...
fn line_pairs() -> impl Iterator<Item = (usize, usize)> {
    (0..9).flat_map(|first| (first + 1..first / 3 * 3 + 3).map(move |second| (first, second)))
}

/// The sets of two rows of one band, as cells numbered by `cell(row,
/// column)`: following each column's first-row digit to its column in the
/// second row runs through cycles of columns, and each cycle of 2 to
/// [`MAX_SET_LINES`] columns is a set.
fn row_pair_sets(places: &Places, cell: impl Fn(usize, usize) -> usize, sets: &mut Vec<u128>) {
    for (first, second) in line_pairs() {
        let mut visited = [false; 9];
        for start in 0..9 {
            let (mut set, mut length, mut column) = (0u128, 0, start);
            while !visited[column] {
                visited[column] = true;
                set |= CELL[cell(first, column)] | CELL[cell(second, column)];
                length += 1;
                let digit = places.digit[first][column];
                column = usize::from(places.column_in_row[usize::from(digit)][second]);
            }
            if (2..=MAX_SET_LINES).contains(&length) {
                sets.push(set);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::random::Random;
    use crate::generate::random_solution;
    use crate::{Outcome, solver};

    fn cells_of(set: u128) -> Vec<usize> {
        (0..81).filter(|&index| set & 1 << index != 0).collect()
    }

    /// `solution` with the digits of `set` swapped between its two rows
    /// (or, if it spans more rows, its two columns).
    fn rearranged(solution: &Board, set: u128) -> [u8; 81] {
        let digits = solution.cells();
        let cells = cells_of(set);
        let mut rows: Vec<usize> = cells.iter().map(|&index| index / 9).collect();
        rows.dedup();
        let across_rows = rows.len() == 2;
        let mut swapped = *digits;
        for &index in &cells {
            let partner = cells
                .iter()
                .copied()
                .find(|&other| {
                    other != index
                        && if across_rows {
                            other % 9 == index % 9
                        } else {
                            other / 9 == index / 9
                        }
                })
                .expect("two cells per line crossed");
            swapped[index] = digits[partner];
        }
        swapped
    }

    #[test]
    fn every_set_rearranges_into_another_valid_grid() {
        let mut found = 0;
        for seed in 0..200 {
            let solution = random_solution(&mut Random::new(seed));
            for &set in UnavoidableSets::of(&solution).masks() {
                let other = rearranged(&solution, set);
                assert_ne!(&other, solution.cells(), "seed {seed}");
                let grid = Board::from_cells(other).expect("digits 1-9");
                assert!(
                    grid.is_solved(),
                    "seed {seed}: set {set:#x} is not unavoidable"
                );
                found += 1;
            }
        }
        assert!(found > 200 * 10, "{found} sets in 200 grids");
    }

    /// Every set of columns (2 to [`MAX_SET_LINES`]) where two rows of a
    /// band hold the same digits, with no smaller such set inside it: the
    /// sets the cycles should give, found the slow way.
    fn row_pair_sets_by_brute_force(digits: &[u8; 81]) -> Vec<u128> {
        let mut sets = Vec::new();
        for (first, second) in line_pairs() {
            let digits_in = |row: usize, columns: u32| -> u32 {
                (0..9)
                    .filter(|&column| columns & 1 << column != 0)
                    .fold(0, |held, column| held | 1 << digits[row * 9 + column])
            };
            let matching = |columns: u32| digits_in(first, columns) == digits_in(second, columns);
            for columns in 1u32..1 << 9 {
                let size = columns.count_ones() as usize;
                if !(2..=MAX_SET_LINES).contains(&size) || !matching(columns) {
                    continue;
                }
                // The proper subsets of `columns`, none of which may match.
                let mut inner = (columns - 1) & columns;
                let mut smallest = true;
                while inner != 0 {
                    smallest &= !matching(inner);
                    inner = (inner - 1) & columns;
                }
                if smallest {
                    sets.push(
                        (0..9).filter(|&column| columns & 1 << column != 0).fold(
                            0u128,
                            |set, column| {
                                set | CELL[first * 9 + column] | CELL[second * 9 + column]
                            },
                        ),
                    );
                }
            }
        }
        sets
    }

    #[test]
    fn the_cycles_give_every_small_set_of_two_rows() {
        for seed in 0..20 {
            let solution = random_solution(&mut Random::new(seed));
            let mut expected = row_pair_sets_by_brute_force(solution.cells());
            let mut found = Vec::new();
            row_pair_sets(
                &Places::of(solution.cells()),
                |row, column| row * 9 + column,
                &mut found,
            );
            expected.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, expected, "seed {seed}");
        }
    }

    #[test]
    fn a_puzzle_without_a_given_in_a_set_has_two_solutions() {
        let solution = random_solution(&mut Random::new(3));
        let sets = UnavoidableSets::of(&solution);
        let full: u128 = (1 << 81) - 1;
        assert!(sets.all_hit(full));
        for &set in sets.masks() {
            assert!(!sets.all_hit(full & !set));
            let mut cells = *solution.cells();
            for cell in cells_of(set) {
                cells[cell] = 0;
            }
            let puzzle = Board::from_cells(cells).expect("digits 1-9");
            let report = solver::solve(&puzzle, || false).expect("not stopped");
            assert_eq!(report.outcome, Outcome::MultipleSolutions, "{set:#x}");
        }
    }
}
