//! An independent checker: whether digits break a puzzle's rules, written
//! from the rules as setters state them, sharing nothing with the model
//! the solver compiles. A blank (0) breaks nothing, and a rule is judged
//! only once every cell it reads is filled, so that the brute-force
//! enumeration can prune with the same function.

use crate::variant::VariantPuzzle;
use crate::variant::constraints::{Constraint, Diagonal};

/// True when the filled cells of `grid` break no rule of `puzzle`.
pub fn keeps_rules(puzzle: &VariantPuzzle, grid: &[u8]) -> bool {
    let size = puzzle.shape().size();
    let keeps_givens = puzzle
        .givens()
        .iter()
        .zip(grid)
        .all(|(&given, &digit)| given == 0 || digit == 0 || given == digit);
    keeps_givens
        && grid.iter().all(|&d| usize::from(d) <= size)
        && houses(puzzle).iter().all(|cells| distinct(grid, cells))
        && puzzle.constraints().iter().all(|c| keeps(puzzle, c, grid))
}

/// Rows, columns and regions.
fn houses(puzzle: &VariantPuzzle) -> Vec<Vec<usize>> {
    let size = puzzle.shape().size();
    let mut houses = Vec::new();
    for i in 0..size {
        houses.push((0..size).map(|j| i * size + j).collect());
        houses.push((0..size).map(|j| j * size + i).collect());
        houses.push(
            (0..size * size)
                .filter(|&cell| usize::from(puzzle.regions()[cell]) == i)
                .collect(),
        );
    }
    houses
}

fn distinct(grid: &[u8], cells: &[usize]) -> bool {
    let digits: Vec<u8> = cells.iter().map(|&c| grid[c]).filter(|&d| d != 0).collect();
    (0..digits.len()).all(|i| !digits[i + 1..].contains(&digits[i]))
}

fn filled(grid: &[u8], cells: &[usize]) -> Option<Vec<u32>> {
    cells
        .iter()
        .map(|&c| (grid[c] != 0).then_some(u32::from(grid[c])))
        .collect()
}

/// Pairs of cells `moves` apart, by row and column offsets.
fn pairs_by(size: usize, apart: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for a in 0..size * size {
        for b in a + 1..size * size {
            let rows = (a / size).abs_diff(b / size);
            let columns = (a % size).abs_diff(b % size);
            if apart(rows, columns) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

fn orthogonal(size: usize) -> Vec<(usize, usize)> {
    pairs_by(size, |r, c| r + c == 1)
}

/// True when the pair carries one of the clues `is_clue` picks.
fn clued(
    puzzle: &VariantPuzzle,
    a: usize,
    b: usize,
    is_clue: impl Fn(&Constraint) -> Option<[usize; 2]>,
) -> bool {
    puzzle
        .constraints()
        .iter()
        .filter_map(is_clue)
        .any(|[x, y]| (x, y) == (a, b) || (y, x) == (a, b))
}

fn kropki(constraint: &Constraint) -> Option<[usize; 2]> {
    match constraint {
        Constraint::Difference(dot) => Some(dot.cells),
        Constraint::Ratio(dot) => Some(dot.cells),
        _ => None,
    }
}

fn xv(constraint: &Constraint) -> Option<[usize; 2]> {
    match constraint {
        Constraint::XvSum(clue) => Some(clue.cells),
        _ => None,
    }
}

/// Every unclued orthogonal pair whose digits are both filled keeps `rule`.
fn unclued_keep(
    puzzle: &VariantPuzzle,
    grid: &[u8],
    is_clue: impl Fn(&Constraint) -> Option<[usize; 2]> + Copy,
    rule: impl Fn(u32, u32) -> bool,
) -> bool {
    orthogonal(puzzle.shape().size()).into_iter().all(|(a, b)| {
        grid[a] == 0
            || grid[b] == 0
            || clued(puzzle, a, b, is_clue)
            || rule(u32::from(grid[a]), u32::from(grid[b]))
    })
}

fn keeps(puzzle: &VariantPuzzle, constraint: &Constraint, grid: &[u8]) -> bool {
    let size = puzzle.shape().size();
    let pair_keeps = |cells: [usize; 2], rule: &dyn Fn(u32, u32) -> bool| {
        filled(grid, &cells).is_none_or(|d| rule(d[0], d[1]))
    };
    match constraint {
        Constraint::Cage(cage) => {
            distinct(grid, &cage.cells)
                && match (cage.sum, filled(grid, &cage.cells)) {
                    (Some(sum), Some(digits)) => digits.iter().sum::<u32>() == sum,
                    _ => true,
                }
        }
        Constraint::Thermometer(thermo) => {
            filled(grid, &thermo.cells).is_none_or(|d| d.windows(2).all(|w| w[0] < w[1]))
        }
        Constraint::Arrow(arrow) => match (filled(grid, &arrow.bulb), filled(grid, &arrow.line)) {
            (Some(bulb), Some(line)) => {
                let number: u32 = bulb.iter().fold(0, |n, &d| n * 10 + d);
                line.iter().sum::<u32>() == number
            }
            _ => true,
        },
        Constraint::Diagonal(diagonal) => {
            let cells: Vec<usize> = (0..size)
                .map(|i| match diagonal {
                    Diagonal::Negative => i * size + i,
                    Diagonal::Positive => (size - 1 - i) * size + i,
                })
                .collect();
            distinct(grid, &cells)
        }
        Constraint::ExtraRegion(region) => distinct(grid, &region.cells),
        Constraint::DisjointGroups(_) => (0..size).all(|k| {
            // The k-th cell of each region, reading order.
            let cells: Vec<usize> = (0..size)
                .filter_map(|region| {
                    (0..size * size)
                        .filter(|&c| usize::from(puzzle.regions()[c]) == region)
                        .nth(k)
                })
                .collect();
            distinct(grid, &cells)
        }),
        Constraint::AntiKnight(_) => pairs_by(size, |r, c| r * c == 2)
            .into_iter()
            .all(|(a, b)| grid[a] == 0 || grid[a] != grid[b]),
        Constraint::AntiKing(_) => pairs_by(size, |r, c| r == 1 && c == 1)
            .into_iter()
            .all(|(a, b)| grid[a] == 0 || grid[a] != grid[b]),
        Constraint::NonConsecutive(_) => {
            unclued_keep(puzzle, grid, kropki, |x, y| x.abs_diff(y) != 1)
        }
        Constraint::Parity(parity) => {
            grid[parity.cell] == 0 || (grid[parity.cell] % 2 == 1) == parity.odd
        }
        Constraint::Difference(dot) => {
            pair_keeps(dot.cells, &|x, y| x.abs_diff(y) == dot.difference)
        }
        Constraint::Ratio(dot) => {
            pair_keeps(dot.cells, &|x, y| x == dot.ratio * y || y == dot.ratio * x)
        }
        Constraint::XvSum(clue) => pair_keeps(clue.cells, &|x, y| x + y == clue.sum),
        Constraint::NegativeRatio(_) => {
            let mut ratios: Vec<u32> = puzzle
                .constraints()
                .iter()
                .filter_map(|c| match c {
                    Constraint::Ratio(dot) => Some(dot.ratio),
                    _ => None,
                })
                .collect();
            if ratios.is_empty() {
                ratios.push(2);
            }
            unclued_keep(puzzle, grid, kropki, |x, y| {
                ratios.iter().all(|&r| x != r * y && y != r * x)
            })
        }
        Constraint::NegativeXv(_) => {
            unclued_keep(puzzle, grid, xv, |x, y| x + y != 5 && x + y != 10)
        }
    }
}
