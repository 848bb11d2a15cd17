//! Locked candidates: a digit confined to where a box and a line cross.
//!
//! When a box's candidates for a digit all lie in one row or column
//! (pointing), the digit must go there, so the rest of that line loses it;
//! when a line's candidates all lie in one box (claiming), the rest of the
//! box loses it. The "direct" forms are the same patterns, counted only
//! when the eliminations leave a hidden single, and rated lower because a
//! player sees them as a way to a placement.

use std::fmt::Write;

use super::bits::{BOXES, COLUMNS, Cells, ROWS, UNITS, bit, unit_kind};
use super::grid::Grid;
use super::scope::Scope;
use super::singles::single_left_by;
use super::step::{Mark, Step};
use super::technique::Technique;
use super::words::Words;

/// The first locked candidate that eliminates something: pointing first,
/// then claiming. Only digits in `scope` are tried.
pub fn locked_candidates(grid: &Grid, scope: Scope) -> Option<Step> {
    pointing(grid, false, scope).or_else(|| claiming(grid, false, scope))
}

/// The first pointing pattern (a box's digit confined to one line) that
/// eliminates something; with `direct`, only one that leaves a hidden
/// single in another box, which it places. Only digits in `scope` are
/// tried: the pattern and what it leaves are all that digit's places.
pub fn pointing(grid: &Grid, direct: bool, scope: Scope) -> Option<Step> {
    let technique = if direct {
        Technique::DirectPointing
    } else {
        Technique::Pointing
    };
    let columns = BOXES.flat_map(|b| COLUMNS.map(move |line| (b, line)));
    let rows = BOXES.flat_map(|b| ROWS.map(move |line| (b, line)));
    first_locked(grid, columns, technique, direct, scope)
        .or_else(|| first_locked(grid, rows, technique, direct, scope))
}

/// The first claiming pattern (a line's digit confined to one box) that
/// eliminates something; with `direct`, only one that leaves a hidden
/// single in another line, which it places. Only digits in `scope` are
/// tried.
pub fn claiming(grid: &Grid, direct: bool, scope: Scope) -> Option<Step> {
    let technique = if direct {
        Technique::DirectClaiming
    } else {
        Technique::Claiming
    };
    let columns = COLUMNS.flat_map(|line| BOXES.map(move |b| (line, b)));
    let rows = ROWS.flat_map(|line| BOXES.map(move |b| (line, b)));
    first_locked(grid, columns, technique, direct, scope)
        .or_else(|| first_locked(grid, rows, technique, direct, scope))
}

/// The first digit, then the first of the `(base, cover)` unit pairs in
/// order, whose crossing locks the digit: Sukaku Explainer's order, box
/// and column pairs before box and row pairs, each digit by digit.
fn first_locked(
    grid: &Grid,
    pairs: impl Iterator<Item = (usize, usize)> + Clone,
    technique: Technique,
    direct: bool,
    scope: Scope,
) -> Option<Step> {
    (1..=9)
        .filter(|&digit| scope.has_digit(digit))
        .find_map(|digit| {
            pairs.clone().find_map(|(base, cover)| {
                let crosses = !UNITS[base].and(UNITS[cover]).is_empty();
                crosses.then(|| locked(grid, base, cover, digit, technique, direct))?
            })
        })
}

/// The digit of `base` confined to its crossing with `cover`, eliminated
/// from the rest of `cover`.
fn locked(
    grid: &Grid,
    base: usize,
    cover: usize,
    digit: u8,
    technique: Technique,
    direct: bool,
) -> Option<Step> {
    let crossing = UNITS[base].and(UNITS[cover]);
    let places = grid.cells_with(digit);
    let in_base = places.and(UNITS[base]);
    if in_base.len() < 2 || !in_base.minus(crossing).is_empty() {
        return None;
    }
    let removed = places.and(UNITS[cover]).minus(crossing);
    if removed.is_empty() {
        return None;
    }
    let mut step = Step::new(technique);
    step.pattern = marks(in_base, digit);
    step.units = vec![base, cover];
    step.digits = bit(digit);
    if direct {
        let cell = single_left_by(grid, digit, removed, unit_kind(base))?;
        step.placements.push(Mark::new(cell, digit));
    } else {
        step.eliminations = marks(removed, digit);
    }
    Some(step)
}

/// The candidate `digit` in each of `cells`.
pub fn marks(cells: Cells, digit: u8) -> Vec<Mark> {
    cells.iter().map(|cell| Mark::new(cell, digit)).collect()
}

/// How a player is told about a pointing or claiming step.
pub(super) fn explain(step: &Step, words: &Words, text: &mut String) {
    let digits = &words.digits;
    let units = &words.units;
    let cells = &words.cells;
    match step.technique {
        Technique::DirectPointing
        | Technique::DirectClaiming
        | Technique::Pointing
        | Technique::Claiming => {
            let _ = write!(
                text,
                "in {units}, {digits} can only go in {cells}, so it can go nowhere else in both"
            );
        }
        _ => {}
    }
}
