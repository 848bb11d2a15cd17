//! Aligned pair exclusion (6.2), as Sukaku Explainer finds it.
//!
//! Two cells (the *base*), each with two candidates or more, share at
//! least two *excluders*: cells with exactly two candidates that each of
//! them sees. Try every pair of digits the base could take. A pair is
//! impossible when the base cells see each other and it repeats a digit,
//! or when it takes both digits of some shared excluder, which would then
//! be left with none. A base digit that is in no possible pair goes.
//!
//! The base cells are those with two candidates or more whose peers hold
//! no naked single and include at least one two-candidate cell; pairs of
//! them are tried in Sukaku Explainer's order, (0, 1), (0, 2), (1, 2),
//! (0, 3) and so on, and the first that removes something is the step.

use super::bits::{Cells, PEERS, bit, digits};
use super::grid::Grid;
use super::step::{Mark, Step};
use super::technique::Technique;

/// The first aligned pair exclusion that removes something, if any.
pub fn aligned_pair_exclusion(grid: &Grid) -> Option<Step> {
    let bases: Vec<(usize, Cells)> = grid
        .blanks()
        .iter()
        .filter(|&cell| grid.marks(cell).count_ones() >= 2)
        .filter_map(|cell| excluders(grid, cell).map(|excluders| (cell, excluders)))
        .collect();
    for second in 1..bases.len() {
        for first in 0..second {
            let (a, a_excluders) = bases[first];
            let (b, b_excluders) = bases[second];
            let shared = a_excluders.and(b_excluders);
            if shared.len() < 2 {
                continue;
            }
            if let Some(step) = exclusion(grid, [a, b], shared) {
                return Some(step);
            }
        }
    }
    None
}

/// The two-candidate cells `cell` sees, if it sees some and no cell with
/// one candidate left.
fn excluders(grid: &Grid, cell: usize) -> Option<Cells> {
    let mut found = Cells::EMPTY;
    for peer in PEERS[cell].and(grid.blanks()).iter() {
        match grid.marks(peer).count_ones() {
            1 => return None,
            2 => found = found.or(Cells::single(peer)),
            _ => {}
        }
    }
    (!found.is_empty()).then_some(found)
}

/// The step that removes the digits of `base` found in no possible pair,
/// if there are any.
fn exclusion(grid: &Grid, base: [usize; 2], shared: Cells) -> Option<Step> {
    let [a, b] = base;
    let see_each_other = PEERS[a].has(b);
    let mut allowed = [0u16; 2];
    for x in digits(grid.marks(a)) {
        for y in digits(grid.marks(b)) {
            let repeats = x == y && see_each_other;
            let pair = bit(x) | bit(y);
            let empties = shared.iter().any(|cell| grid.marks(cell) & !pair == 0);
            if !repeats && !empties {
                allowed[0] |= bit(x);
                allowed[1] |= bit(y);
            }
        }
    }
    let mut step = Step::new(Technique::AlignedPairExclusion);
    for (index, cell) in base.into_iter().enumerate() {
        step.pattern.push(Mark::new(cell, 0));
        step.eliminations
            .extend(digits(grid.marks(cell) & !allowed[index]).map(|digit| Mark::new(cell, digit)));
    }
    step.pattern
        .extend(shared.iter().map(|cell| Mark::new(cell, 0)));
    (!step.eliminations.is_empty()).then_some(step)
}
