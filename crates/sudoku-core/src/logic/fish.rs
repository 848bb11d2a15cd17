//! Basic fish: X-Wing, Swordfish and Jellyfish.
//!
//! When a digit's candidates in n rows all fall in the same n columns, the
//! digit takes one cell in each of those columns within those rows, so the
//! columns lose it everywhere else (and the same with rows and columns
//! swapped). Finned and franken fish are left to the chains.

use std::fmt::Write;

use super::bits::{COLUMNS, Cells, ROWS, UNITS, bit};
use super::grid::Grid;
use super::scope::Scope;
use super::step::{Mark, Step};
use super::technique::Technique;
use super::words::Words;

/// The first fish of `size` lines (2, 3 or 4) that eliminates something,
/// in Sukaku Explainer's order: columns as the base first, then rows;
/// sets of base lines in order, and for each the digits in order, those
/// placed too often to leave room skipped. Only digits in `scope` are
/// tried: a fish is all of its digit's places in its lines.
pub fn fish(grid: &Grid, size: u32, scope: Scope) -> Option<Step> {
    let technique = match size {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    let digits: Vec<u8> = (1..=9)
        .filter(|&digit| scope.has_digit(digit) && grid.placed(digit).len() + 2 * size <= 9)
        .collect();
    if digits.is_empty() {
        return None;
    }
    for (base, cover) in [(COLUMNS, ROWS), (ROWS, COLUMNS)] {
        let mut lines = [LineMasks::EMPTY; 9];
        for &digit in &digits {
            lines[usize::from(digit) - 1] =
                LineMasks::new(grid, digit, base.start == COLUMNS.start);
        }
        for &choice in choices(size) {
            for &digit in &digits {
                if !lines[usize::from(digit) - 1].is_fish(choice, size) {
                    continue;
                }
                let chosen: Vec<usize> = (0..9)
                    .filter(|i| choice >> i & 1 != 0)
                    .map(|i| base.start + i)
                    .collect();
                let step = fish_on(grid, digit, &chosen, cover.clone(), technique);
                if step.is_some() {
                    return step;
                }
            }
        }
    }
    None
}

/// The sets of `size` lines out of nine, as masks in increasing order.
fn choices(size: u32) -> &'static [u16] {
    static CHOICES: [std::sync::OnceLock<Vec<u16>>; 5] = [const { std::sync::OnceLock::new() }; 5];
    CHOICES[size as usize]
        .get_or_init(|| (0u16..1 << 9).filter(|c| c.count_ones() == size).collect())
}

/// Where one digit lies in each line of one orientation: for each base
/// line, the cover lines holding it there, and for each cover line, the
/// base lines.
struct LineMasks {
    base: [u16; 9],
    cover: [u16; 9],
}

impl LineMasks {
    const EMPTY: LineMasks = LineMasks {
        base: [0; 9],
        cover: [0; 9],
    };

    fn new(grid: &Grid, digit: u8, columns_as_base: bool) -> LineMasks {
        let mut masks = LineMasks {
            base: [0; 9],
            cover: [0; 9],
        };
        for cell in grid.cells_with(digit).iter() {
            let (row, column) = (cell / 9, cell % 9);
            let (b, c) = match columns_as_base {
                true => (column, row),
                false => (row, column),
            };
            masks.base[b] |= 1 << c;
            masks.cover[c] |= 1 << b;
        }
        masks
    }

    /// Whether the base lines of `choice` each hold the digit twice or
    /// more, all within `size` cover lines, and those cover lines hold it
    /// elsewhere too (the fish removes something).
    fn is_fish(&self, choice: u16, size: u32) -> bool {
        let mut covers = 0u16;
        for line in 0..9 {
            if choice >> line & 1 != 0 {
                if self.base[line].count_ones() < 2 {
                    return false;
                }
                covers |= self.base[line];
            }
        }
        covers.count_ones() == size
            && (0..9).any(|line| covers >> line & 1 != 0 && self.cover[line] & !choice != 0)
    }
}

/// The fish of `digit` on the base lines `chosen`, if each holds it in two
/// places or more, all within `chosen.len()` cover lines, and it removes
/// something.
fn fish_on(
    grid: &Grid,
    digit: u8,
    chosen: &[usize],
    cover: std::ops::Range<usize>,
    technique: Technique,
) -> Option<Step> {
    let places = grid.cells_with(digit);
    if chosen.iter().any(|&line| places.and(UNITS[line]).len() < 2) {
        return None;
    }
    let body = chosen
        .iter()
        .fold(Cells::EMPTY, |set, &line| set.or(places.and(UNITS[line])));
    let covers: Vec<usize> = cover
        .filter(|&line| !body.and(UNITS[line]).is_empty())
        .collect();
    if covers.len() != chosen.len() {
        return None;
    }
    let covered = covers
        .iter()
        .fold(Cells::EMPTY, |set, &line| set.or(UNITS[line]));
    let removed = places.and(covered).minus(body);
    if removed.is_empty() {
        return None;
    }
    let mut step = Step::new(technique);
    step.pattern = body.iter().map(|cell| Mark::new(cell, digit)).collect();
    step.eliminations = removed.iter().map(|cell| Mark::new(cell, digit)).collect();
    step.units = chosen.iter().copied().chain(covers).collect();
    step.digits = bit(digit);
    Some(step)
}

/// How a player is told about a fish step.
pub(super) fn explain(step: &Step, words: &Words, text: &mut String) {
    let digits = &words.digits;
    let units = &words.units;
    let cells = &words.cells;
    match step.technique {
        Technique::XWing | Technique::Swordfish | Technique::Jellyfish => {
            let _ = write!(
                text,
                "{digits} is confined to {cells} across {units}, so it goes nowhere else in the crossing lines"
            );
        }
        _ => {}
    }
}
