//! Random puzzles for the differential tests: a random solution grid, then
//! random constraints, most of them drawn true of that solution (so that
//! many puzzles have solutions) and some drawn at random (so that some
//! have none), then a random share of the solution as givens.

use super::checker::keeps_rules;
use crate::generate::random::Random;
use crate::variant::constraints::*;
use crate::variant::{Constraint, PuzzleParts, Shape, VariantPuzzle};

/// A puzzle of `size` with no given and no rule but its houses.
pub fn plain_puzzle(size: usize) -> VariantPuzzle {
    VariantPuzzle::new(PuzzleParts {
        size,
        ..PuzzleParts::default()
    })
    .expect("a plain grid of a supported size")
}

/// Jigsaw layouts, one region index a cell.
pub const JIGSAW_4: [u8; 16] = [0, 0, 0, 1, 2, 0, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3];
pub const JIGSAW_6: [u8; 36] = [
    0, 0, 0, 1, 1, 1, //
    0, 0, 2, 2, 1, 1, //
    0, 2, 2, 3, 3, 1, //
    4, 2, 2, 3, 3, 5, //
    4, 4, 3, 3, 5, 5, //
    4, 4, 4, 5, 5, 5, //
];

/// The rules about the whole grid a puzzle may draw.
fn global_rules() -> Vec<Constraint> {
    vec![
        Diagonal::Positive.into(),
        Diagonal::Negative.into(),
        DisjointGroups.into(),
        AntiKnight.into(),
        AntiKing.into(),
        NonConsecutive.into(),
        NegativeRatio.into(),
        NegativeXv.into(),
    ]
}

/// A random puzzle of `size`, with jigsaw regions when asked: whole-grid
/// rules first, a solution that keeps them, then clues most of which that
/// solution keeps, and `given_share` percent of it as givens.
pub fn random_puzzle(seed: u64, size: usize, jigsaw: bool, given_share: u32) -> VariantPuzzle {
    let mut random = Random::new(seed);
    let shape = Shape::new(size).unwrap();
    let regions = match (jigsaw, size) {
        (true, 4) => JIGSAW_4.to_vec(),
        (true, 6) => JIGSAW_6.to_vec(),
        _ => shape.standard_regions(),
    };
    let mut globals: Vec<Constraint> = global_rules()
        .into_iter()
        .filter(|_| random.below(100) < 15)
        .collect();
    let solution = loop {
        if let Some(solution) = random_solution(&mut random, size, &regions, &globals) {
            break solution;
        }
        let drop = random.below(globals.len() as u32) as usize;
        globals.remove(drop);
    };
    let mut constraints = globals;
    for _ in 0..1 + random.below(4) {
        constraints.extend(random_clues(&mut random, shape, &solution));
    }
    let givens = solution
        .iter()
        .map(|&d| {
            if random.below(100) < given_share {
                d
            } else {
                0
            }
        })
        .collect();
    let parts = PuzzleParts {
        size,
        givens,
        regions,
        constraints,
    };
    VariantPuzzle::new(parts.clone()).unwrap_or_else(|error| panic!("{error}: {parts:?}"))
}

/// A random full grid with these regions that keeps `rules`, if the
/// search finds one within its budget.
pub fn random_solution(
    random: &mut Random,
    size: usize,
    regions: &[u8],
    rules: &[Constraint],
) -> Option<Vec<u8>> {
    let puzzle = VariantPuzzle::new(PuzzleParts {
        size,
        regions: regions.to_vec(),
        constraints: rules.to_vec(),
        ..PuzzleParts::default()
    })
    .unwrap();
    let mut grid = vec![0u8; size * size];
    let mut budget = 20_000;
    fill(random, &puzzle, &mut grid, 0, &mut budget).then_some(grid)
}

fn fill(
    random: &mut Random,
    puzzle: &VariantPuzzle,
    grid: &mut [u8],
    cell: usize,
    budget: &mut u32,
) -> bool {
    if cell == grid.len() {
        return true;
    }
    let mut digits: Vec<u8> = (1..=puzzle.shape().size() as u8).collect();
    random.shuffle(&mut digits);
    for digit in digits {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        grid[cell] = digit;
        if keeps_rules(puzzle, grid) && fill(random, puzzle, grid, cell + 1, budget) {
            return true;
        }
    }
    grid[cell] = 0;
    false
}

/// Random distinct cells, `count` of them.
fn cells(random: &mut Random, shape: Shape, count: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..shape.cell_count()).collect();
    random.shuffle(&mut all);
    all.truncate(count);
    all
}

/// A random pair of orthogonal neighbours.
fn neighbours(random: &mut Random, shape: Shape) -> [usize; 2] {
    let size = shape.size();
    loop {
        let cell = random.below(shape.cell_count() as u32) as usize;
        if random.below(2) == 0 {
            if shape.column(cell) + 1 < size {
                return [cell, cell + 1];
            }
        } else if shape.row(cell) + 1 < size {
            return [cell, cell + size];
        }
    }
}

/// A clue, true of `solution` three times in four.
fn random_clues(random: &mut Random, shape: Shape, solution: &[u8]) -> Vec<Constraint> {
    let size = shape.size();
    let truthful = random.below(4) != 0;
    let digit = |cell: usize| u32::from(solution[cell]);
    match random.below(9) {
        0 => {
            let count = 2 + random.below(3) as usize;
            let mut cage = cells(random, shape, count);
            if truthful {
                cage.sort_by_key(|&c| solution[c]);
                cage.dedup_by_key(|c| solution[*c]);
            }
            let least = (cage.len() * (cage.len() + 1) / 2) as u32;
            let sum = match random.below(4) {
                0 => None,
                _ if truthful => Some(cage.iter().map(|&c| digit(c)).sum()),
                _ => Some(least + random.below(size as u32)),
            };
            let most = (cage.len() * size - cage.len() * (cage.len() - 1) / 2) as u32;
            vec![
                Cage {
                    cells: cage,
                    sum: sum.map(|s| s.min(most)),
                }
                .into(),
            ]
        }
        1 => {
            let count = 2 + random.below(3) as usize;
            let mut cells = cells(random, shape, count);
            if truthful {
                cells.sort_by_key(|&c| solution[c]);
                cells.dedup_by_key(|c| solution[*c]);
            }
            vec![Thermometer { cells }.into()]
        }
        2 => vec![random_arrow(random, shape, solution, truthful).into()],
        3 => {
            let count = 2 + random.below(size as u32 - 1) as usize;
            let mut cells = cells(random, shape, count);
            if truthful {
                cells.sort_by_key(|&c| solution[c]);
                cells.dedup_by_key(|c| solution[*c]);
            }
            vec![ExtraRegion { cells }.into()]
        }
        4 => {
            let cell = random.below(shape.cell_count() as u32) as usize;
            let odd = if truthful {
                digit(cell) % 2 == 1
            } else {
                random.below(2) == 0
            };
            vec![Parity { cell, odd }.into()]
        }
        5 => {
            let pair = neighbours(random, shape);
            let difference = if truthful {
                digit(pair[0]).abs_diff(digit(pair[1]))
            } else {
                1 + random.below(size as u32 - 1)
            };
            vec![
                Difference {
                    cells: pair,
                    difference,
                }
                .into(),
            ]
        }
        6 => {
            let pair = neighbours(random, shape);
            let (low, high) = (
                digit(pair[0]).min(digit(pair[1])),
                digit(pair[0]).max(digit(pair[1])),
            );
            let ratio = if truthful && high % low == 0 {
                high / low
            } else {
                2
            };
            vec![Ratio { cells: pair, ratio }.into()]
        }
        _ => {
            let pair = neighbours(random, shape);
            let sum = match () {
                _ if truthful => digit(pair[0]) + digit(pair[1]),
                _ if size >= 6 => [5, 10][random.below(2) as usize],
                _ => 3 + random.below(2 * size as u32 - 3),
            };
            vec![XvSum { cells: pair, sum }.into()]
        }
    }
}

fn random_arrow(random: &mut Random, shape: Shape, solution: &[u8], truthful: bool) -> Arrow {
    let pill = shape.size() <= 9 && random.below(5) == 0;
    let picked = cells(random, shape, 5);
    let bulb: Vec<usize> = picked[..if pill { 2 } else { 1 }].to_vec();
    let rest = &picked[bulb.len()..];
    let mut line = vec![rest[0]];
    if truthful && !pill {
        // Cells whose digits add up to the bulb's, if these few allow it.
        let target = u32::from(solution[bulb[0]]);
        let mut total = 0;
        line.clear();
        for &cell in rest {
            if total + u32::from(solution[cell]) <= target {
                total += u32::from(solution[cell]);
                line.push(cell);
            }
        }
        if line.is_empty() {
            line.push(rest[0]);
        }
    } else {
        line.extend(&rest[1..1 + random.below(3) as usize]);
    }
    Arrow { bulb, line }
}
