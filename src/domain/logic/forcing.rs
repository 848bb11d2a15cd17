//! Forcing chains: the last logical resort.
//!
//! Assume a candidate true and follow the singles it forces, on a copy of
//! the grid. If that breaks the grid, the candidate is false
//! (contradiction). If every candidate of a cell, or every place of a
//! digit in a unit, forces the same placement or elimination, that
//! result holds whichever is true (cell and unit forcing chains). The
//! chains are "dynamic" in Sudoku Explainer's sense, since each
//! assumption's consequences build on one another, and they are rated on
//! its dynamic scale, 8.5 plus the length bonus of the implications used.

use super::bits::{UNITS, bit, digits};
use super::grid::Grid;
use super::singles;
use super::step::{Mark, Step, keep_lowest};
use super::technique::{Rating, Technique, length_bonus};

/// Most implications one assumption is followed through: the assumed
/// candidate, then two for each single it forces (about 40 singles).
const MAX_IMPLICATIONS: usize = 81;

/// What one assumption led to.
struct Branch {
    grid: Grid,
    broken: bool,
    /// Implications made: each placement counts for the candidate it sets
    /// and the one it is forced by.
    nodes: usize,
}

/// Follows the singles that placing `digit` in `cell` forces, until none
/// is left, the grid breaks, or [`MAX_IMPLICATIONS`] are made.
fn assume(grid: &Grid, cell: usize, digit: u8) -> Branch {
    let mut grid = grid.clone();
    grid.place(cell, digit);
    let mut nodes = 1;
    let mut found = Vec::new();
    let broken = loop {
        if grid.is_broken() {
            break true;
        }
        if nodes >= MAX_IMPLICATIONS {
            break false;
        }
        found.clear();
        singles::naked_singles(&grid, &mut found);
        if found.is_empty() {
            singles::hidden_singles_in_boxes(&grid, &mut found);
            singles::hidden_singles_in_lines(&grid, &mut found);
        }
        let Some(single) = found.first().copied() else {
            break false;
        };
        grid.place(single.cell, single.digit);
        nodes += 2;
    };
    Branch {
        grid,
        broken,
        nodes,
    }
}

/// Every candidate's branch, worked out once for all the forcing chains
/// of one grid; `None` if `should_stop` said stop first.
fn all_branches(grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Vec<Option<Branch>>> {
    let mut branches: Vec<Option<Branch>> = (0..729).map(|_| None).collect();
    for cell in grid.blanks().iter() {
        if should_stop() {
            return None;
        }
        for digit in digits(grid.marks(cell)) {
            branches[cell * 9 + usize::from(digit) - 1] = Some(assume(grid, cell, digit));
        }
    }
    Some(branches)
}

fn branch(branches: &[Option<Branch>], cell: usize, digit: u8) -> &Branch {
    branches[cell * 9 + usize::from(digit) - 1]
        .as_ref()
        .expect("every candidate has a branch")
}

/// The lowest-rated forcing chain: a contradiction, else a cell or unit
/// whose every option agrees on something.
pub fn forcing_chain(grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    let branches = all_branches(grid, should_stop)?;
    contradiction(grid, &branches).or_else(|| agreement(grid, &branches, should_stop))
}

/// The lowest-rated candidate whose branch breaks the grid: it is false.
fn contradiction(grid: &Grid, branches: &[Option<Branch>]) -> Option<Step> {
    let mut best = None;
    for cell in grid.blanks().iter() {
        for digit in digits(grid.marks(cell)) {
            let branch = branch(branches, cell, digit);
            if branch.broken {
                let mut step = Step::new(Technique::ContradictionForcingChain);
                step.rating = Rating(85 + length_bonus(branch.nodes + 1));
                step.pattern.push(Mark::new(cell, digit));
                step.eliminations.push(Mark::new(cell, digit));
                step.digits = bit(digit);
                keep_lowest(&mut best, step);
            }
        }
    }
    best
}

/// The lowest-rated cell, then unit, forcing chain.
fn agreement(
    grid: &Grid,
    branches: &[Option<Branch>],
    should_stop: &dyn Fn() -> bool,
) -> Option<Step> {
    let mut best = None;
    for cell in grid.blanks().iter() {
        let options: Vec<(usize, u8)> = digits(grid.marks(cell)).map(|d| (cell, d)).collect();
        if let Some(step) = agreed(grid, branches, &options, Technique::CellForcingChain, None) {
            keep_lowest(&mut best, step);
        }
    }
    for (unit, cells) in UNITS.iter().enumerate() {
        if should_stop() {
            return None;
        }
        for digit in 1..=9 {
            let places = grid.cells_with(digit).and(*cells);
            if places.len() < 2 {
                continue;
            }
            let options: Vec<(usize, u8)> = places.iter().map(|c| (c, digit)).collect();
            let technique = Technique::UnitForcingChain;
            if let Some(step) = agreed(grid, branches, &options, technique, Some(unit)) {
                keep_lowest(&mut best, step);
            }
        }
    }
    best
}

/// What every option (one of which must be true) forces alike.
fn agreed(
    grid: &Grid,
    branches: &[Option<Branch>],
    options: &[(usize, u8)],
    technique: Technique,
    unit: Option<usize>,
) -> Option<Step> {
    let branches: Vec<&Branch> = options
        .iter()
        .map(|&(cell, digit)| branch(branches, cell, digit))
        .collect();
    if branches.iter().any(|branch| branch.broken) {
        return None;
    }
    let mut step = Step::new(technique);
    for cell in grid.blanks().iter() {
        let placed = branches[0].grid.value(cell);
        if placed != 0 && branches.iter().all(|b| b.grid.value(cell) == placed) {
            step.placements.push(Mark::new(cell, placed));
            continue;
        }
        for digit in digits(grid.marks(cell)) {
            let gone = branches
                .iter()
                .all(|b| !b.grid.has(cell, digit) && b.grid.value(cell) != digit);
            if gone {
                step.eliminations.push(Mark::new(cell, digit));
            }
        }
    }
    if step.is_empty() {
        return None;
    }
    let nodes: usize = branches.iter().map(|b| b.nodes).sum();
    step.rating = Rating(85 + length_bonus(nodes + 1));
    step.pattern = options.iter().map(|&(c, d)| Mark::new(c, d)).collect();
    step.units.extend(unit);
    step.digits = options.iter().fold(0, |m, &(_, d)| m | bit(d));
    Some(step)
}
