//! Aligned pair exclusion (6.2) and aligned triple exclusion (7.5), as
//! Sukaku Explainer finds them.
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
//!
//! The triple exclusion works the same on three cells, with excluders of
//! two or three candidates: after each pair of base cells, its third cell
//! is each other base cell among the pair's excluders (the first cell's,
//! then the second's), and the three must share at least two.

use super::bits::{Cells, PEERS, bit, digits};
use super::grid::Grid;
use super::step::{Mark, Step};
use super::technique::Technique;

/// The first aligned pair exclusion that removes something, if any.
pub fn aligned_pair_exclusion(grid: &Grid) -> Option<Step> {
    let bases = base_cells(grid, 2);
    for second in 1..bases.len() {
        for first in 0..second {
            let (a, a_excluders) = bases[first];
            let (b, b_excluders) = bases[second];
            let shared = a_excluders.and(b_excluders);
            if shared.len() < 2 {
                continue;
            }
            let step = exclusion(grid, &[a, b], shared, Technique::AlignedPairExclusion);
            if step.is_some() {
                return step;
            }
        }
    }
    None
}

/// The first aligned triple exclusion that removes something, if any.
pub fn aligned_triple_exclusion(grid: &Grid) -> Option<Step> {
    let bases = base_cells(grid, 3);
    let base_set: Cells = bases.iter().map(|&(cell, _)| cell).collect();
    let excluders_of = |cell: usize| {
        bases
            .iter()
            .find(|&&(base, _)| base == cell)
            .map_or(Cells::EMPTY, |&(_, excluders)| excluders)
    };
    for second in 1..bases.len() {
        for first in 0..second {
            let (a, a_excluders) = bases[first];
            let (b, b_excluders) = bases[second];
            let pair = Cells::single(a).or(Cells::single(b));
            let firsts = a_excluders.and(base_set).minus(pair);
            let seconds = b_excluders.minus(a_excluders).and(base_set).minus(pair);
            for c in firsts.iter().chain(seconds.iter()) {
                let shared = a_excluders.and(b_excluders).and(excluders_of(c));
                if shared.len() < 2 {
                    continue;
                }
                let step = exclusion(grid, &[a, b, c], shared, Technique::AlignedTripleExclusion);
                if step.is_some() {
                    return step;
                }
            }
        }
    }
    None
}

/// The cells that can be a base, in index order, with their excluders:
/// two candidates or more, no peer with one candidate, and some peer with
/// two to `widest` candidates (the excluders).
fn base_cells(grid: &Grid, widest: u32) -> Vec<(usize, Cells)> {
    grid.blanks()
        .iter()
        .filter(|&cell| grid.marks(cell).count_ones() >= 2)
        .filter_map(|cell| excluders(grid, cell, widest).map(|excluders| (cell, excluders)))
        .collect()
}

/// The cells with two to `widest` candidates that `cell` sees, if it
/// sees some and no cell with one candidate left.
fn excluders(grid: &Grid, cell: usize, widest: u32) -> Option<Cells> {
    let mut found = Cells::EMPTY;
    for peer in PEERS[cell].and(grid.blanks()).iter() {
        match grid.marks(peer).count_ones() {
            1 => return None,
            n if n <= widest => found = found.or(Cells::single(peer)),
            _ => {}
        }
    }
    (!found.is_empty()).then_some(found)
}

/// The step that removes the digits of `base` found in no possible
/// combination, if there are any. A combination (a digit for each base
/// cell) is impossible when two base cells that see each other take the
/// same digit, or when it leaves a shared excluder no candidate.
fn exclusion(grid: &Grid, base: &[usize], shared: Cells, technique: Technique) -> Option<Step> {
    let mut allowed = vec![0u16; base.len()];
    let mut chosen = Vec::with_capacity(base.len());
    combine(grid, base, shared, &mut chosen, &mut allowed);
    let mut step = Step::new(technique);
    for (index, &cell) in base.iter().enumerate() {
        step.pattern.push(Mark::new(cell, 0));
        step.eliminations
            .extend(digits(grid.marks(cell) & !allowed[index]).map(|digit| Mark::new(cell, digit)));
    }
    step.pattern
        .extend(shared.iter().map(|cell| Mark::new(cell, 0)));
    (!step.eliminations.is_empty()).then_some(step)
}

/// Tries every digit for the next base cell after `chosen`, and marks the
/// digits of each possible whole combination `allowed`.
fn combine(grid: &Grid, base: &[usize], shared: Cells, chosen: &mut Vec<u8>, allowed: &mut [u16]) {
    let next = chosen.len();
    if next == base.len() {
        let taken = chosen.iter().fold(0, |mask, &digit| mask | bit(digit));
        if shared.iter().all(|cell| grid.marks(cell) & !taken != 0) {
            for (index, &digit) in chosen.iter().enumerate() {
                allowed[index] |= bit(digit);
            }
        }
        return;
    }
    for digit in digits(grid.marks(base[next])) {
        let repeats = (0..next).any(|i| chosen[i] == digit && PEERS[base[i]].has(base[next]));
        if !repeats {
            chosen.push(digit);
            combine(grid, base, shared, chosen, allowed);
            chosen.pop();
        }
    }
}
