//! Variant puzzles made from a seed: a random full grid of any size with
//! its standard boxes, givens taken away one at a time while the puzzle
//! keeps one solution, and killer cages cut from a grid.
//!
//! The grid is a fixed pattern shuffled by the moves that keep every row,
//! column and box whole (digits relabelled, rows within a band, bands,
//! columns within a stack, stacks), which reaches a rich enough family
//! for test and benchmark sets at every size at no search cost. The
//! givens are then removed in a random order, each kept only if the
//! puzzle loses its one solution without it, so the result is minimal:
//! no given can go. The figures in docs/variants.md come from here.

use super::constraints::Cage;
use super::geometry::Shape;
use super::puzzle::{PuzzleParts, VariantPuzzle};
use super::solve_variant;
use crate::Outcome;
use crate::generate::random::Random;

/// A puzzle made by [`minimal_puzzle`] or [`killer_puzzle`], with its one
/// solution.
#[derive(Debug, Clone)]
pub struct MadePuzzle {
    /// The puzzle.
    pub puzzle: VariantPuzzle,
    /// Its solution, one digit a cell.
    pub solution: Vec<u8>,
}

/// A full grid of `shape` with its standard boxes, from `seed`.
pub fn random_grid(shape: Shape, seed: u64) -> Vec<u8> {
    let mut random = Random::new(seed);
    let size = shape.size();
    let (box_rows, box_columns) = shape.box_dims();
    let rows = shuffled_lines(size, box_rows, &mut random);
    let columns = shuffled_lines(size, box_columns, &mut random);
    let mut digits: Vec<u8> = (1..=size as u8).collect();
    random.shuffle(&mut digits);
    (0..shape.cell_count())
        .map(|cell| {
            let (row, column) = (rows[shape.row(cell)], columns[shape.column(cell)]);
            // The pattern: each row the one above it shifted by a box's
            // width, each band by one more.
            let value = ((row % box_rows) * box_columns + row / box_rows + column) % size;
            digits[value]
        })
        .collect()
}

/// The lines `0..size` in groups of `group`, shuffled within each group
/// and group by group.
fn shuffled_lines(size: usize, group: usize, random: &mut Random) -> Vec<usize> {
    let mut groups: Vec<usize> = (0..size / group).collect();
    random.shuffle(&mut groups);
    let mut lines = Vec::with_capacity(size);
    for band in groups {
        let mut inside: Vec<usize> = (0..group).map(|line| band * group + line).collect();
        random.shuffle(&mut inside);
        lines.extend(inside);
    }
    lines
}

/// A minimal puzzle of `shape` with standard boxes and no other rule,
/// from `seed`. `should_stop` bounds the work: each check of uniqueness
/// polls it, and a check it stops keeps its given, so the puzzle stays
/// unique (though perhaps not minimal) when it says stop.
pub fn minimal_puzzle(shape: Shape, seed: u64, should_stop: &dyn Fn() -> bool) -> MadePuzzle {
    let solution = random_grid(shape, seed);
    let parts = PuzzleParts {
        size: shape.size(),
        ..PuzzleParts::default()
    };
    minimal_givens(parts, solution, seed, should_stop)
}

/// A 9×9 killer puzzle from `seed`: cages of 2 to `largest_cage` cells
/// cut from a random grid, each with its sum, and the fewest givens
/// needed for one solution (removed one at a time as
/// [`minimal_puzzle`] does).
pub fn killer_puzzle(seed: u64, largest_cage: usize, should_stop: &dyn Fn() -> bool) -> MadePuzzle {
    let shape = Shape::CLASSIC;
    let solution = random_grid(shape, seed);
    let cages = cut_cages(shape, &solution, largest_cage, &mut Random::new(seed ^ 1));
    let parts = PuzzleParts {
        size: shape.size(),
        constraints: cages.into_iter().map(Into::into).collect(),
        ..PuzzleParts::default()
    };
    minimal_givens(parts, solution, seed, should_stop)
}

/// The puzzle of `parts` with the fewest of `solution`'s digits as givens
/// that keep one solution, removed in an order from `seed`.
fn minimal_givens(
    mut parts: PuzzleParts,
    solution: Vec<u8>,
    seed: u64,
    should_stop: &dyn Fn() -> bool,
) -> MadePuzzle {
    let mut random = Random::new(seed ^ 2);
    let mut order: Vec<usize> = (0..solution.len()).collect();
    random.shuffle(&mut order);
    parts.givens = solution.clone();
    for cell in order {
        parts.givens[cell] = 0;
        if !has_one_solution(&parts, should_stop) {
            parts.givens[cell] = solution[cell];
        }
    }
    let puzzle = VariantPuzzle::new(parts).expect("a grid's own digits make a valid puzzle");
    MadePuzzle { puzzle, solution }
}

/// True when the puzzle of `parts` has one solution; false when it has
/// several, or the check was stopped.
fn has_one_solution(parts: &PuzzleParts, should_stop: &dyn Fn() -> bool) -> bool {
    let Ok(puzzle) = VariantPuzzle::new(parts.clone()) else {
        return false;
    };
    matches!(
        solve_variant(&puzzle, should_stop),
        Ok(report) if report.outcome == Outcome::Solved
    )
}

/// Killer cages covering the grid: each grown from a random uncovered
/// cell through uncovered orthogonal neighbours whose digits it does not
/// hold yet, to a random size of 2 to `largest` cells where the grid
/// allows (a cell left alone is a cage of one).
fn cut_cages(shape: Shape, solution: &[u8], largest: usize, random: &mut Random) -> Vec<Cage> {
    let mut covered = vec![false; shape.cell_count()];
    let mut order: Vec<usize> = (0..shape.cell_count()).collect();
    random.shuffle(&mut order);
    let mut cages = Vec::new();
    for start in order {
        if covered[start] {
            continue;
        }
        let target = 2 + random.below(largest.max(2) as u32 - 1) as usize;
        let mut cells = vec![start];
        covered[start] = true;
        while cells.len() < target {
            let mut open: Vec<usize> = cells
                .iter()
                .flat_map(|&cell| neighbours(shape, cell))
                .filter(|&next| {
                    !covered[next] && cells.iter().all(|&c| solution[c] != solution[next])
                })
                .collect();
            open.sort_unstable();
            open.dedup();
            if open.is_empty() {
                break;
            }
            let next = open[random.below(open.len() as u32) as usize];
            covered[next] = true;
            cells.push(next);
        }
        let sum = cells.iter().map(|&cell| u32::from(solution[cell])).sum();
        cages.push(Cage {
            cells,
            sum: Some(sum),
        });
    }
    cages
}

/// A cell's orthogonal neighbours.
fn neighbours(shape: Shape, cell: usize) -> impl Iterator<Item = usize> {
    let (row, column) = (shape.row(cell) as isize, shape.column(cell) as isize);
    [(-1, 0), (1, 0), (0, -1), (0, 1)]
        .into_iter()
        .filter_map(move |(dr, dc)| {
            let (r, c) = (row + dr, column + dc);
            (r >= 0 && c >= 0)
                .then(|| shape.cell_at(r as usize, c as usize))
                .flatten()
        })
}

/// The puzzle as f-puzzles JSON: its size, givens and killer cages (all
/// this module makes), for files the command line and the service read.
pub fn to_fpuzzles_json(puzzle: &VariantPuzzle) -> String {
    let shape = puzzle.shape();
    let size = shape.size();
    let rows: Vec<String> = (0..size)
        .map(|row| {
            let cells: Vec<String> = (0..size)
                .map(|column| match puzzle.givens()[row * size + column] {
                    0 => "{}".to_string(),
                    digit => format!(r#"{{"value":{digit},"given":true}}"#),
                })
                .collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    let cages: Vec<String> = puzzle
        .constraints()
        .iter()
        .filter_map(|constraint| match constraint {
            super::Constraint::Cage(cage) => {
                let names: Vec<String> = cage
                    .cells
                    .iter()
                    .map(|&cell| format!("\"{}\"", shape.cell_name(cell)))
                    .collect();
                let value = cage
                    .sum
                    .map_or(String::new(), |sum| format!(r#","value":"{sum}""#));
                Some(format!(r#"{{"cells":[{}]{value}}}"#, names.join(",")))
            }
            _ => None,
        })
        .collect();
    let cages = if cages.is_empty() {
        String::new()
    } else {
        format!(r#","killercage":[{}]"#, cages.join(","))
    };
    format!(r#"{{"size":{size},"grid":[{}]{cages}}}"#, rows.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::tests::random::plain_puzzle;
    use crate::variant::{fpuzzles, keeps_rules};

    #[test]
    fn random_grids_are_full_grids_of_every_size() {
        for size in Shape::SIZES {
            let shape = Shape::new(size).unwrap();
            let grid = random_grid(shape, size as u64);
            assert!(keeps_rules(&plain_puzzle(size), &grid), "{size}");
            assert_ne!(grid, random_grid(shape, size as u64 + 1), "{size}");
        }
    }

    #[test]
    fn made_puzzles_have_one_solution_no_given_can_go_and_read_back() {
        let shape = Shape::new(6).unwrap();
        let made = minimal_puzzle(shape, 7, &|| false);
        let report = solve_variant(&made.puzzle, || false).unwrap();
        assert_eq!(report.outcome, Outcome::Solved);
        assert_eq!(report.solutions[0], made.solution);
        let givens = made.puzzle.givens();
        for cell in (0..givens.len()).filter(|&cell| givens[cell] != 0) {
            let mut fewer = givens.to_vec();
            fewer[cell] = 0;
            let parts = PuzzleParts {
                size: 6,
                givens: fewer,
                ..PuzzleParts::default()
            };
            assert!(!has_one_solution(&parts, &|| false), "{cell} could go");
        }
        let killer = killer_puzzle(3, 4, &|| false);
        assert!(killer.puzzle.constraints().len() >= 81 / 4);
        let report = solve_variant(&killer.puzzle, || false).unwrap();
        assert_eq!(report.solutions, vec![killer.solution.clone()]);
        let json = to_fpuzzles_json(&killer.puzzle);
        assert_eq!(fpuzzles::read(&json).unwrap(), killer.puzzle);
    }
}
