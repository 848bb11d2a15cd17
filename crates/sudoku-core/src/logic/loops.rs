//! Unique loops (4.6 for six cells, 4.7 for eight, 5.0 for ten or more):
//! the deadly pattern of a unique rectangle, stretched over more cells.
//!
//! Cells that all hold the same two digits {a, b}, joined into a closed
//! loop where each step moves along a different kind of unit than the one
//! before, and where every unit the loop visits holds exactly two of its
//! cells (one on each side of the alternation), would allow the solution
//! with a and b swapped round the loop. A puzzle with one solution cannot
//! end that way, so the cells with extra candidates must keep one of them:
//!
//! * **type 1** (one cell with extras): a and b go from it;
//! * **type 2** (one extra digit, in every cell with extras): it goes from
//!   every cell that sees them all;
//! * **type 4** (two cells with extras in one unit where a has no other
//!   place): a is locked in them, so b goes from both.
//!
//! The search follows Sukaku Explainer: from every cell with exactly two
//! candidates, depth first through boxes, rows and columns in that order,
//! at most two cells with extras unless they all share one extra digit.
//! Every loop's steps are kept, and the first by rating, then type, wins.
//! Loops of four cells are rectangles, and named so (4.5); the rectangle
//! finder of [`super::uniqueness`] is asked too, for its type 3 (the
//! extras forming a naked or hidden set), which loops do not try yet.

use std::fmt::Write;

use super::bits::{BOXES, COLUMNS, Cells, ROWS, UNITS, digits, units_of};
use super::grid::Grid;
use super::step::{Link, Mark, Step};
use super::technique::{Rating, Technique};
use super::uniqueness::unique_rectangle;
use super::words::Words;

/// Sukaku Explainer's one step for unique rectangles and loops: the
/// lower of the first rectangle and the first loop, by rating then type.
pub fn rectangle_or_loop(grid: &Grid) -> Option<Step> {
    let kind = |step: &Step| pattern_type(step.technique);
    match (unique_rectangle(grid), unique_loop(grid)) {
        (Some(rectangle), Some(found))
            if (found.rating, kind(&found)) < (rectangle.rating, kind(&rectangle)) =>
        {
            Some(found)
        }
        (Some(rectangle), _) => Some(rectangle),
        (None, found) => found,
    }
}

/// The type (1 to 4) of a unique rectangle or loop step.
fn pattern_type(technique: Technique) -> u8 {
    match technique {
        Technique::UniqueRectangle1 | Technique::UniqueLoop1 => 1,
        Technique::UniqueRectangle2 | Technique::UniqueLoop2 => 2,
        Technique::UniqueRectangle3 => 3,
        _ => 4,
    }
}

/// The first unique loop (a rectangle, for four cells), by rating then
/// type, if one removes something.
pub fn unique_loop(grid: &Grid) -> Option<Step> {
    first_loop(grid, true)
}

/// [`unique_loop`] with every loop searched from every two-candidate cell
/// of it, for tests of the search that starts each loop from its first
/// one only.
#[cfg(test)]
pub(super) fn unique_loop_from_every_cell(grid: &Grid) -> Option<Step> {
    first_loop(grid, false)
}

fn first_loop(grid: &Grid, from_first_cell: bool) -> Option<Step> {
    // Each loop once per type, however many of its cells it was found from.
    let mut found: Vec<(Rating, u8, Vec<Mark>, Step)> = Vec::new();
    let bivalue = grid.bivalue_cells();
    for start in bivalue.iter() {
        let pair = grid.marks(start);
        // A loop through a two-candidate cell before `start` was found
        // already, from the first such cell of it, and is dropped here as
        // a repeat: whether a loop is kept does not depend on the cell it
        // is searched from (the extras rule looks at all its cells with
        // extras, and `alternates` at its cells in any rotation, rejecting
        // the loops whose first and last moves share a unit kind, which
        // the growth alone does not check).
        let earlier = match from_first_cell {
            true => bivalue.and(Cells::below(start)),
            false => Cells::EMPTY,
        };
        let mut growth = Growth {
            grid,
            pair,
            holders: digits(pair)
                .fold(Cells::ALL, |cells, d| cells.and(grid.cells_with(d)))
                .minus(earlier),
            on_path: Cells::single(start),
            loops: Vec::new(),
        };
        growth.grow(&mut vec![start], 2, 0, None);
        for cells in growth.loops {
            if !alternates(&cells) {
                continue;
            }
            for step in steps(grid, pair, &cells) {
                let kind = pattern_type(step.technique);
                let mut key = step.pattern.clone();
                key.sort();
                let seen = found
                    .iter()
                    .any(|(_, k, cells, _)| *k == kind && *cells == key);
                if !seen && !step.eliminations.is_empty() {
                    found.push((step.rating, kind, key, step));
                }
            }
        }
    }
    found.sort_by_key(|&(rating, kind, _, _)| (rating, kind));
    found.into_iter().next().map(|(_, _, _, step)| step)
}

/// The search for loops on one pair of digits.
struct Growth<'a> {
    grid: &'a Grid,
    pair: u16,
    /// The cells holding both digits of the pair: the only ones a loop
    /// can pass through.
    holders: Cells,
    /// The cells of the path so far.
    on_path: Cells,
    loops: Vec<Vec<usize>>,
}

impl Growth<'_> {
    /// Extends `path` (which ends in the cell to move from) through every
    /// unit kind but `last`, keeping in `loops` each way back to the start
    /// of four cells or more. Every cell holds both digits of the pair; up
    /// to `allowed` of them may hold more, and more than that only while
    /// all the extras are one digit (`extras`).
    fn grow(&mut self, path: &mut Vec<usize>, allowed: u32, extras: u16, last: Option<usize>) {
        let cell = *path.last().expect("a path has its start");
        for (kind, unit) in units_of(cell).into_iter().enumerate() {
            if last == Some(kind) {
                continue;
            }
            for next in UNITS[unit].and(self.holders).iter() {
                if next == path[0] && path.len() >= 4 {
                    self.loops.push(path.clone());
                    continue;
                }
                if self.on_path.has(next) {
                    continue;
                }
                let marks = self.grid.marks(next);
                let more = (extras | marks) & !self.pair;
                let wide = marks.count_ones() > 2;
                if !wide || more.count_ones() == 1 || allowed > 0 {
                    path.push(next);
                    self.on_path = self.on_path.or(Cells::single(next));
                    let allowed = allowed.saturating_sub(u32::from(wide));
                    self.grow(path, allowed, more, Some(kind));
                    self.on_path = self.on_path.minus(Cells::single(next));
                    path.pop();
                }
            }
        }
    }
}

/// Whether the loop's cells alternate over its units: no unit visited
/// twice on one side, and the same units on both sides.
fn alternates(cells: &[usize]) -> bool {
    let mut sides = [Vec::new(), Vec::new()];
    for (index, &cell) in cells.iter().enumerate() {
        let side = &mut sides[index % 2];
        for unit in units_of(cell) {
            if side.contains(&unit) {
                return false;
            }
            side.push(unit);
        }
    }
    let [mut even, mut odd] = sides;
    even.sort_unstable();
    odd.sort_unstable();
    even == odd
}

/// The steps a loop gives, by its cells with extras.
fn steps(grid: &Grid, pair: u16, cells: &[usize]) -> Vec<Step> {
    let wide: Vec<usize> = cells
        .iter()
        .copied()
        .filter(|&cell| grid.marks(cell).count_ones() > 2)
        .collect();
    let extras = wide
        .iter()
        .fold(0u16, |extras, &cell| extras | grid.marks(cell))
        & !pair;
    let step = |technique| loop_step(technique, pair, cells);
    match wide[..] {
        [cell] => {
            let mut one = step(Technique::UniqueLoop1);
            one.eliminations = digits(pair).map(|digit| Mark::new(cell, digit)).collect();
            vec![one]
        }
        [first, second] => {
            let mut found = Vec::new();
            if extras.count_ones() == 1 {
                found.push(type_2(grid, &wide, extras, step(Technique::UniqueLoop2)));
            }
            found.extend(type_4(
                grid,
                pair,
                first,
                second,
                step(Technique::UniqueLoop4),
            ));
            found
        }
        [] => Vec::new(),
        _ => vec![type_2(grid, &wide, extras, step(Technique::UniqueLoop2))],
    }
}

/// A step of a loop: its pattern the loop's cells, rated by its length.
fn loop_step(technique: Technique, pair: u16, cells: &[usize]) -> Step {
    let rectangle = cells.len() == 4;
    let technique = match technique {
        Technique::UniqueLoop1 if rectangle => Technique::UniqueRectangle1,
        Technique::UniqueLoop2 if rectangle => Technique::UniqueRectangle2,
        Technique::UniqueLoop4 if rectangle => Technique::UniqueRectangle4,
        other => other,
    };
    let mut step = Step::new(technique);
    let length = match cells.len() {
        0..=5 => 0,
        6 | 7 => 1,
        8 | 9 => 2,
        _ => 5,
    };
    step.rating = Rating(45 + length);
    step.pattern = cells.iter().map(|&cell| Mark::new(cell, 0)).collect();
    step.digits = pair;
    step
}

/// Type 2: the one extra digit goes from the cells that see every cell
/// holding extras.
fn type_2(grid: &Grid, wide: &[usize], extra: u16, mut step: Step) -> Step {
    let seen = wide.iter().copied().collect::<Cells>().common_peers();
    let digit = digits(extra).next().expect("one extra digit");
    step.eliminations = seen
        .and(grid.cells_with(digit))
        .iter()
        .map(|cell| Mark::new(cell, digit))
        .collect();
    step
}

/// Type 4: in a unit holding both cells with extras where one digit of
/// the pair has no other place, that digit is locked in them and the
/// other goes from both. Units are tried box, row, column, and a later one
/// decides, as in Sukaku Explainer; the pair's lower digit first.
fn type_4(grid: &Grid, pair: u16, first: usize, second: usize, mut step: Step) -> Option<Step> {
    let both = Cells::single(first).or(Cells::single(second));
    let mut locked = [None, None];
    for unit in [BOXES, ROWS, COLUMNS]
        .into_iter()
        .filter_map(|mut kind| kind.find(|&u| UNITS[u].and(both) == both))
    {
        for (slot, digit) in digits(pair).enumerate() {
            if grid
                .cells_with(digit)
                .and(UNITS[unit])
                .minus(both)
                .is_empty()
            {
                locked[slot] = Some(unit);
            }
        }
    }
    let (slot, unit) = locked
        .iter()
        .enumerate()
        .find_map(|(slot, unit)| unit.map(|unit| (slot, unit)))?;
    let removed = digits(pair).nth(1 - slot).expect("two digits");
    let kept = digits(pair).nth(slot).expect("two digits");
    step.units = vec![unit];
    step.links = vec![Link::strong(
        Mark::new(first, kept),
        Mark::new(second, kept),
    )];
    step.eliminations = [first, second]
        .into_iter()
        .filter(|&cell| grid.has(cell, removed))
        .map(|cell| Mark::new(cell, removed))
        .collect();
    step.eliminations.sort();
    Some(step)
}

/// How a player is told about a unique rectangle or unique loop step.
pub(super) fn explain(step: &Step, words: &Words, text: &mut String) {
    let digits = &words.digits;
    let cells = &words.cells;
    match step.technique {
        Technique::UniqueRectangle1
        | Technique::UniqueRectangle2
        | Technique::UniqueRectangle3
        | Technique::UniqueRectangle4
        | Technique::UniqueLoop1
        | Technique::UniqueLoop2
        | Technique::UniqueLoop4 => {
            let _ = write!(
                text,
                "{cells} would form a deadly pattern on {digits} (two solutions), which a puzzle with one solution cannot have"
            );
        }
        _ => {}
    }
}
