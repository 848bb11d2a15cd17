//! Naked and hidden subsets: n cells of a unit that hold only n digits
//! between them, or n digits of a unit that fit only in n cells.
//!
//! Subsets are enumerated as 9-bit masks over a unit's cells (or digits),
//! which for n ≤ 4 is at most 126 masks a unit: cheaper than any clever
//! pruning at this size. Units are searched boxes first, then columns,
//! then rows, as Sukaku Explainer does: which subset comes first decides
//! the grid every later step sees.

use std::fmt::Write;

use super::bits::{BOXES, COLUMNS, Cells, ROWS, UNITS, bit, digits};
use super::grid::Grid;
use super::scope::Scope;
use super::step::{Mark, Step};
use super::technique::Technique;
use super::words::Words;

/// The first naked subset of `size` cells that eliminates something,
/// among the units `scope` touches: a subset and its removals lie in its
/// unit.
pub fn naked_subset(grid: &Grid, size: u32, scope: Scope) -> Option<Step> {
    let mut first = None;
    naked_subsets(grid, size, scope, &mut |step| {
        first = Some(step);
        true
    });
    first
}

/// Every naked subset of `size` cells that eliminates something, in the
/// units `scope` touches, in search order, to `visit` until it returns
/// true.
pub fn naked_subsets(grid: &Grid, size: u32, scope: Scope, visit: &mut dyn FnMut(Step) -> bool) {
    let technique = match size {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    };
    for unit in explainer_order().filter(|&unit| scope.touches(UNITS[unit])) {
        let cells = &UNITS[unit];
        let open: Vec<usize> = grid.blanks().and(*cells).iter().collect();
        if open.len() <= size as usize {
            continue;
        }
        let marks: Vec<u16> = open.iter().map(|&cell| grid.marks(cell)).collect();
        for choice in choices(&marks, size) {
            let held = union_of(&marks, choice);
            if held.count_ones() != size {
                continue;
            }
            let chosen = pick(&open, choice);
            let set: Cells = chosen.iter().copied().collect();
            let mut step = Step::new(technique);
            for digit in digits(held) {
                for cell in grid.cells_with(digit).and(*cells).minus(set).iter() {
                    step.eliminations.push(Mark::new(cell, digit));
                }
            }
            if step.eliminations.is_empty() {
                continue;
            }
            step.eliminations.sort();
            step.pattern = chosen.iter().map(|&cell| Mark::new(cell, 0)).collect();
            step.units.push(unit);
            step.digits = held;
            if visit(step) {
                return;
            }
        }
    }
}

/// The first hidden subset of `size` digits that eliminates something;
/// with `direct`, only one whose eliminations leave a hidden single of
/// another digit in the same unit, which the step then places. Only the
/// units `scope` touches are searched: all of that lies in the unit.
pub fn hidden_subset(grid: &Grid, size: u32, direct: bool, scope: Scope) -> Option<Step> {
    let mut first = None;
    hidden_subsets(grid, size, direct, scope, &mut |step| {
        first = Some(step);
        true
    });
    first
}

/// Every hidden subset of `size` digits that eliminates something (see
/// [`hidden_subset`]), in the units `scope` touches, in search order, to
/// `visit` until it returns true.
pub fn hidden_subsets(
    grid: &Grid,
    size: u32,
    direct: bool,
    scope: Scope,
    visit: &mut dyn FnMut(Step) -> bool,
) {
    let technique = match (size, direct) {
        (2, true) => Technique::DirectHiddenPair,
        (2, false) => Technique::HiddenPair,
        (3, true) => Technique::DirectHiddenTriple,
        (3, false) => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    };
    for unit in explainer_order().filter(|&unit| scope.touches(UNITS[unit])) {
        let cells = &UNITS[unit];
        let open_digits: Vec<u8> = (1..=9)
            .filter(|&d| !grid.cells_with(d).and(*cells).is_empty())
            .collect();
        if open_digits.len() <= size as usize {
            continue;
        }
        let positions: Vec<u16> = open_digits
            .iter()
            .map(|&d| {
                (0..9)
                    .filter(|&p| grid.has(super::bits::cell_at(unit, p), d))
                    .fold(0u16, |mask, p| mask | 1 << p)
            })
            .collect();
        for choice in choices(&positions, size) {
            if union_of(&positions, choice).count_ones() != size {
                continue;
            }
            let chosen = pick(&open_digits, choice);
            let set = chosen.iter().fold(Cells::EMPTY, |set, &d| {
                set.or(grid.cells_with(d).and(*cells))
            });
            let kept = chosen.iter().fold(0u16, |mask, &d| mask | bit(d));
            if let Some(step) = hidden_step(grid, unit, set, kept, technique, direct)
                && visit(step)
            {
                return;
            }
        }
    }
}

fn hidden_step(
    grid: &Grid,
    unit: usize,
    set: Cells,
    kept: u16,
    technique: Technique,
    direct: bool,
) -> Option<Step> {
    let mut step = Step::new(technique);
    for cell in set.iter() {
        for digit in digits(grid.marks(cell) & !kept) {
            step.eliminations.push(Mark::new(cell, digit));
        }
    }
    if step.eliminations.is_empty() {
        return None;
    }
    step.pattern = set
        .iter()
        .flat_map(|cell| digits(grid.marks(cell) & kept).map(move |d| Mark::new(cell, d)))
        .collect();
    step.units.push(unit);
    step.digits = kept;
    if direct {
        let placement = (1..=9).filter(|&d| kept & bit(d) == 0).find_map(|digit| {
            let places = grid.cells_with(digit).and(UNITS[unit]);
            let left = places.minus(set);
            (left.len() == 1 && places != left).then(|| Mark::new(left.first().unwrap_or(0), digit))
        })?;
        step.eliminations.clear();
        step.placements.push(placement);
    }
    Some(step)
}

/// The units in the order Sukaku Explainer searches them for subsets:
/// boxes, columns, rows.
fn explainer_order() -> impl Iterator<Item = usize> {
    BOXES.chain(COLUMNS).chain(ROWS)
}

/// Every `size`-element subset of the indices of `masks` that could hold
/// a subset of `size` (those whose mask has at most `size` bits; no other
/// can be in a union of `size` bits), as bit masks, in increasing order
/// of the mask: the order of every `size`-element subset, without those
/// that cannot be one.
fn choices(masks: &[u16], size: u32) -> impl Iterator<Item = u16> {
    let eligible = masks
        .iter()
        .enumerate()
        .filter(|(_, mask)| mask.count_ones() <= size)
        .fold(0u16, |set, (index, _)| set | 1 << index);
    // The subsets of `eligible` in increasing order: (x - e) & e is the
    // next one after x.
    let mut next = Some(0u16);
    std::iter::from_fn(move || {
        loop {
            let current = next?;
            next = (current != eligible).then(|| current.wrapping_sub(eligible) & eligible);
            if current.count_ones() == size {
                return Some(current);
            }
        }
    })
}

/// The union of the masks a choice mask selects.
fn union_of(masks: &[u16], choice: u16) -> u16 {
    masks
        .iter()
        .enumerate()
        .filter(|(i, _)| choice >> i & 1 != 0)
        .fold(0, |all, (_, &mask)| all | mask)
}

/// The elements of `items` a choice mask selects.
fn pick<T: Copy>(items: &[T], choice: u16) -> Vec<T> {
    items
        .iter()
        .enumerate()
        .filter(|(i, _)| choice >> i & 1 != 0)
        .map(|(_, &item)| item)
        .collect()
}

/// How a player is told about a hidden or naked subset step.
pub(super) fn explain(step: &Step, words: &Words, text: &mut String) {
    let digits = &words.digits;
    let units = &words.units;
    let cells = &words.cells;
    match step.technique {
        Technique::DirectHiddenPair
        | Technique::DirectHiddenTriple
        | Technique::HiddenPair
        | Technique::HiddenTriple
        | Technique::HiddenQuad => {
            let _ = write!(
                text,
                "in {units}, {digits} can only go in {cells}, so those cells hold nothing else"
            );
        }
        Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad => {
            let _ = write!(
                text,
                "{cells} hold only {digits} between them, so no other cell of {units} can"
            );
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_skip_only_what_cannot_be_a_subset() {
        // Every subset of `size` masks whose union has `size` bits, in
        // increasing order, against all subsets of that size filtered
        // (it fails when an eligible index is dropped, or the order
        // changes).
        let mut seed = 0x2545_f491_u32;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let mut found = 0;
        for _ in 0..2_000 {
            let len = 2 + random() as usize % 8;
            // Few digits, so that many choices are subsets.
            let masks: Vec<u16> = (0..len)
                .map(|_| (random() as u16 & 0x3e) | 1 << (1 + random() % 5))
                .collect();
            for size in 2..=4 {
                let is_subset = |choice: &u16| union_of(&masks, *choice).count_ones() == size;
                let every: Vec<u16> = (0u16..1 << len)
                    .filter(|mask| mask.count_ones() == size)
                    .filter(is_subset)
                    .collect();
                let chosen: Vec<u16> = choices(&masks, size).filter(is_subset).collect();
                assert_eq!(chosen, every, "{masks:?} size {size}");
                found += every.len();
            }
        }
        assert!(found > 1_000, "{found}");
    }
}
