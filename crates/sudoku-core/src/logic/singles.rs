//! Singles: the last empty cell of a unit, a digit with one place left in
//! a unit, and a cell with one candidate left.
//!
//! Singles are most of the steps of most puzzles, so they are found
//! without building a [`Step`]: each finder yields plain [`Single`]
//! values, and the grader turns them into steps only when a path is
//! recorded. Every single found in one scan stays true after the others
//! are placed (placing digits only removes candidates), so the grader
//! places a whole scan's worth at once.

use std::fmt::Write;

use super::bits::{BOXES, COLUMNS, Cells, ROWS, UNITS, UnitKind, bit, unit_kind, units_of};
use super::grid::Grid;
use super::step::{Mark, Step};
use super::technique::Technique;
use super::words::Words;

/// A digit a single places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Single {
    /// The technique that found it.
    pub technique: Technique,
    /// Row-major cell index.
    pub cell: usize,
    /// The digit it places.
    pub digit: u8,
    /// The unit it was found in (none for a naked single).
    pub unit: Option<usize>,
}

impl Single {
    /// The step this single is.
    pub fn to_step(self) -> Step {
        let mut step = Step::new(self.technique);
        step.pattern.push(Mark::new(self.cell, self.digit));
        step.placements.push(Mark::new(self.cell, self.digit));
        step.units.extend(self.unit);
        step.digits = bit(self.digit);
        step
    }
}

/// Cells that are the last blank of a box, row or column, in that order
/// of units.
pub fn full_houses(grid: &Grid, found: &mut Vec<Single>) {
    let blanks = grid.blanks();
    for (unit, cells) in UNITS.iter().enumerate() {
        let open = blanks.and(*cells);
        if open.len() != 1 {
            continue;
        }
        let cell = open.first().expect("one blank");
        let placed = cells
            .minus(open)
            .iter()
            .fold(0u16, |seen, index| seen | bit(grid.value(index)));
        let missing = !placed & 0x1ff;
        if missing.count_ones() == 1 && grid.marks(cell) & missing != 0 {
            let digit = missing.trailing_zeros() as u8 + 1;
            found.push(Single {
                technique: Technique::FullHouse,
                cell,
                digit,
                unit: Some(unit),
            });
        }
    }
}

/// Digits with one place left in a box.
pub fn hidden_singles_in_boxes(grid: &Grid, found: &mut Vec<Single>) {
    hidden_singles(grid, BOXES, Technique::HiddenSingleBox, found);
}

/// Digits with one place left in a row, then in a column.
pub fn hidden_singles_in_lines(grid: &Grid, found: &mut Vec<Single>) {
    hidden_singles(grid, ROWS, Technique::HiddenSingleLine, found);
    hidden_singles(grid, COLUMNS, Technique::HiddenSingleLine, found);
}

fn hidden_singles(
    grid: &Grid,
    units: std::ops::Range<usize>,
    technique: Technique,
    found: &mut Vec<Single>,
) {
    for unit in units {
        let cells = UNITS[unit];
        if grid.blanks().and(cells).len() < 2 {
            continue;
        }
        for digit in 1..=9 {
            let places = grid.cells_with(digit).and(cells);
            if places.len() == 1 {
                let cell = places.first().expect("one place");
                found.push(Single {
                    technique,
                    cell,
                    digit,
                    unit: Some(unit),
                });
            }
        }
    }
}

/// Cells with one candidate left.
pub fn naked_singles(grid: &Grid, found: &mut Vec<Single>) {
    for cell in grid.blanks().iter() {
        let marks = grid.marks(cell);
        if marks.count_ones() == 1 {
            found.push(Single {
                technique: Technique::NakedSingle,
                cell,
                digit: marks.trailing_zeros() as u8 + 1,
                unit: None,
            });
        }
    }
}

/// The hidden single that removing `removed` (cells, all losing `digit`)
/// leaves in a unit of `kind` those cells belong to, if any: what makes a
/// "direct" intersection direct.
pub fn single_left_by(grid: &Grid, digit: u8, removed: Cells, kind: UnitKind) -> Option<usize> {
    let remaining = grid.cells_with(digit).minus(removed);
    for index in removed.iter() {
        for unit in units_of(index)
            .into_iter()
            .filter(|&u| unit_kind(u) == kind)
        {
            let places = remaining.and(UNITS[unit]);
            if places.len() == 1 {
                return places.first();
            }
        }
    }
    None
}

/// How a player is told about a full house, hidden single or naked single step.
pub(super) fn explain(step: &Step, words: &Words, text: &mut String) {
    let digits = &words.digits;
    let units = &words.units;
    let cells = &words.cells;
    match step.technique {
        Technique::FullHouse => {
            let _ = write!(text, "{cells} is the last empty cell of {units}");
        }
        Technique::HiddenSingleBox | Technique::HiddenSingleLine => {
            let _ = write!(
                text,
                "{digits} has only one place left in {units}: {cells}{}",
                step.why_other_places_are_empty()
            );
        }
        Technique::NakedSingle => {
            let _ = write!(
                text,
                "{cells} has no candidate left but {digits}{}",
                step.why_other_digits_are_gone()
            );
        }
        _ => {}
    }
}
