//! What summed killer cages imply about the houses they lie in, as extra
//! sums for the model: a solver's "innies" and "outies".
//!
//! Every row, column and region holds each digit once, so its digits sum
//! to `size × (size + 1) / 2`. In one house, the cells no summed cage
//! inside it covers sum to what the cages leave of that total
//! ([`house_remainders`]). Across a run of houses (the first k rows, from
//! the top or the bottom; the first k columns, either way; the first k
//! regions), a cage that lies mostly inside counts whole: the cells inside
//! that no such cage covers, less the cells of those cages that stick out,
//! make up the difference between the houses' total and the cages' sums
//! ([`union_sums`]). Measured on the Interactive Sudoku Solver, whose
//! optimizer derives the same sums, they cut hard killers' searches by
//! tens of times.

use super::{Cage, Constraint};
use crate::variant::puzzle::VariantPuzzle;

/// The most cells a derived sum over a run of houses may have: larger
/// ones narrow little and cost a propagation each.
const MOST_DERIVED_CELLS: usize = 9;

/// The summed cages that overlap no summed cage before them.
fn disjoint_cages(puzzle: &VariantPuzzle) -> Vec<(&[usize], u32)> {
    let mut taken = vec![false; puzzle.shape().cell_count()];
    let mut cages = Vec::new();
    for constraint in puzzle.constraints() {
        if let Constraint::Cage(Cage {
            cells,
            sum: Some(sum),
        }) = constraint
            && cells.iter().all(|&cell| !taken[cell])
        {
            cells.iter().for_each(|&cell| taken[cell] = true);
            cages.push((cells.as_slice(), *sum));
        }
    }
    cages
}

/// For each row, column and region, the cells no summed cage inside it
/// covers, and the sum they hold: distinct digits, since they share a
/// house. A house with no summed cage inside gives nothing.
pub(crate) fn house_remainders(puzzle: &VariantPuzzle) -> Vec<(Vec<usize>, u32)> {
    let size = puzzle.shape().size() as u32;
    let total = size * (size + 1) / 2;
    let cages = disjoint_cages(puzzle);
    let mut remainders = Vec::new();
    for (_, house) in puzzle.units() {
        let mut covered = vec![false; puzzle.shape().cell_count()];
        let mut caged = 0;
        for &(cells, sum) in &cages {
            if cells.iter().all(|cell| house.contains(cell)) {
                cells.iter().for_each(|&cell| covered[cell] = true);
                caged += sum;
            }
        }
        let rest: Vec<usize> = house
            .iter()
            .copied()
            .filter(|&cell| !covered[cell])
            .collect();
        if caged > 0 && !rest.is_empty() && rest.len() < house.len() {
            remainders.push((rest, total.saturating_sub(caged)));
        }
    }
    remainders
}

/// A derived sum: `sum(inside) - sum(outside) == total`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct UnionSum {
    /// Cells counted in (innies).
    pub inside: Vec<usize>,
    /// Cells counted out (outies).
    pub outside: Vec<usize>,
    /// What the innies less the outies come to.
    pub total: i64,
}

/// The runs of houses the unions grow along: rows from the top and from
/// the bottom, columns from the left and from the right, regions in order.
fn house_runs(puzzle: &VariantPuzzle) -> Vec<Vec<Vec<usize>>> {
    let units = puzzle.units();
    let size = puzzle.shape().size();
    let rows: Vec<Vec<usize>> = units[..size]
        .iter()
        .map(|(_, cells)| cells.clone())
        .collect();
    let columns: Vec<Vec<usize>> = units[size..2 * size]
        .iter()
        .map(|(_, c)| c.clone())
        .collect();
    let regions: Vec<Vec<usize>> = units[2 * size..].iter().map(|(_, c)| c.clone()).collect();
    let reversed = |run: &[Vec<usize>]| run.iter().rev().cloned().collect::<Vec<_>>();
    vec![
        reversed(&rows),
        rows.clone(),
        reversed(&columns),
        columns,
        regions,
    ]
    .into_iter()
    .rev()
    .collect()
}

/// The sums that runs of houses and the summed cages mostly inside them
/// imply, each at most [`MOST_DERIVED_CELLS`] cells, without repeats.
pub(crate) fn union_sums(puzzle: &VariantPuzzle) -> Vec<UnionSum> {
    let size = puzzle.shape().size();
    let house_total = (size * (size + 1) / 2) as i64;
    let cages = disjoint_cages(puzzle);
    let mut sums = Vec::new();
    for run in house_runs(puzzle) {
        let mut inside = vec![false; puzzle.shape().cell_count()];
        let mut joined = vec![false; cages.len()];
        for (k, house) in run.iter().enumerate().take(size - 1) {
            house.iter().for_each(|&cell| inside[cell] = true);
            for (index, &(cells, _)) in cages.iter().enumerate() {
                let within = cells.iter().filter(|&&cell| inside[cell]).count();
                if 2 * within > cells.len() {
                    joined[index] = true;
                }
            }
            if let Some(sum) = union_sum(&cages, &joined, &inside, house_total * (k as i64 + 1)) {
                sums.push(sum);
            }
        }
    }
    sums.sort();
    sums.dedup();
    sums
}

/// The sum a union of houses (`inside`) and the cages joined to it make,
/// if it is small enough to be worth a propagator.
fn union_sum(
    cages: &[(&[usize], u32)],
    joined: &[bool],
    inside: &[bool],
    houses_total: i64,
) -> Option<UnionSum> {
    let mut caged = vec![false; inside.len()];
    let mut outside = Vec::new();
    let mut joined_total = 0i64;
    for (&(cells, sum), _) in cages.iter().zip(joined).filter(|(_, joined)| **joined) {
        joined_total += i64::from(sum);
        for &cell in cells {
            caged[cell] = true;
            if !inside[cell] {
                outside.push(cell);
            }
        }
    }
    if joined_total == 0 {
        return None;
    }
    let innies: Vec<usize> = (0..inside.len())
        .filter(|&cell| inside[cell] && !caged[cell])
        .collect();
    let cells = innies.len() + outside.len();
    let small =
        cells > 0 && cells <= MOST_DERIVED_CELLS && (innies.len() <= 2 || outside.len() <= 2);
    small.then(|| {
        outside.sort_unstable();
        UnionSum {
            inside: innies,
            outside,
            total: houses_total - joined_total,
        }
    })
}
