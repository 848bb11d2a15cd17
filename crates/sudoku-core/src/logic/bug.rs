//! The bivalue universal grave (BUG, 5.6 to 6.1), as Sukaku Explainer
//! finds it.
//!
//! A grid where every blank cell has two candidates and every digit two
//! places (or none) in each unit has two solutions: swap the two digits
//! round every cell's pair. A puzzle with one solution cannot reach it, so
//! some of the *extra* candidates that keep the grid from being one must
//! be true.
//!
//! The extras are found from the units where a digit has neither two
//! places nor none: among its places there, the one cell with three
//! candidates or more holds it as an extra (with several such cells the
//! unit says nothing; with none, there is no grave). When every such unit
//! is about one digit, every wide cell among its places holds it as an
//! extra (the lkSudoku rule Sukaku Explainer applies). With the extras
//! crossed out, every blank cell must have two candidates and every digit
//! two places or none in each unit. Then, first found:
//!
//! * **type 1** (one cell with extras): the cell holds one of its extras,
//!   so its other candidates go (5.6);
//! * **type 2** (one extra digit, in several cells): one of them holds it,
//!   so no cell that sees them all does (5.7);
//! * **type 4** (two cells in one unit, sharing one digit besides their
//!   extras): each keeps only its extras and that digit (5.7);
//! * **type 3** (several extra digits): together they act as one cell
//!   that forms a naked set of `n` digits with `n - 1` other cells of a
//!   unit all the cells with extras share; the set's digits go from the
//!   unit's other cells that see every cell with extras (5.7 and a tenth
//!   per digit past the first).
//!
//! The grader calls this only on puzzles whose uniqueness the solver has
//! certified.

use std::fmt::Write;

use super::bits::{BOXES, COLUMNS, Cells, ROWS, UNITS, bit, digits};
use super::grid::Grid;
use super::step::{Mark, Step};
use super::technique::{Rating, Technique};
use super::words::Words;

/// The first BUG step of types 1 to 4 on the grid, if there is one.
pub fn bug(grid: &Grid) -> Option<Step> {
    let extras = Extras::find(grid)?;
    if !extras.leave_a_grave(grid) {
        return None;
    }
    if let [cell] = extras.cells[..] {
        return Some(type_1(grid, cell, extras.by_cell[cell]));
    }
    if extras.digits.count_ones() == 1 {
        return type_2(grid, &extras).or_else(|| type_4(grid, &extras));
    }
    if !extras.seen_by_all().is_empty() {
        return type_4(grid, &extras).or_else(|| type_3(grid, &extras));
    }
    None
}

/// The extra candidates that keep the grid from being a grave.
struct Extras {
    /// The cells holding them, in the order found.
    cells: Vec<usize>,
    /// Each cell's extras, as a mask.
    by_cell: [u16; 81],
    /// Every extra digit found as the one wide cell of a unit.
    digits: u16,
}

impl Extras {
    /// The extras of the grid, or `None` when it cannot be a grave with
    /// them, or when several cells hold several extra digits and nothing
    /// sees them all (no type could follow).
    fn find(grid: &Grid) -> Option<Extras> {
        let mut extras = Extras {
            cells: Vec::new(),
            by_cell: [0; 81],
            digits: 0,
        };
        // The lkSudoku rule: whether every odd unit is about one digit, and
        // the wide cells among its places.
        let mut one_digit: Option<(u8, Cells)> = None;
        let mut several_digits = false;
        for unit in BOXES.chain(ROWS).chain(COLUMNS) {
            for digit in 1..=9u8 {
                let places = grid.cells_with(digit).and(UNITS[unit]);
                if matches!(places.len(), 0 | 2) {
                    continue;
                }
                let wide: Cells = places
                    .iter()
                    .filter(|&cell| grid.marks(cell).count_ones() >= 3)
                    .collect();
                match &mut one_digit {
                    None if !several_digits => one_digit = Some((digit, wide)),
                    Some((only, cells)) if *only == digit => *cells = cells.or(wide),
                    Some(_) => {
                        one_digit = None;
                        several_digits = true;
                    }
                    None => {}
                }
                match wide.len() {
                    0 => return None,
                    1 => {
                        let cell = wide.first().expect("one wide cell");
                        extras.digits |= bit(digit);
                        if !extras.add(cell, digit) {
                            return None;
                        }
                    }
                    _ => {}
                }
            }
        }
        if let Some((digit, cells)) = one_digit
            && cells.len() as usize > extras.cells.len()
        {
            for cell in cells.iter() {
                if !extras.cells.contains(&cell) && !extras.add(cell, digit) {
                    return None;
                }
            }
        }
        Some(extras)
    }

    /// Notes `digit` as an extra of `cell`; false when no type can follow
    /// (several cells, several digits, and no cell seeing them all).
    fn add(&mut self, cell: usize, digit: u8) -> bool {
        if !self.cells.contains(&cell) {
            self.cells.push(cell);
        }
        self.by_cell[cell] |= bit(digit);
        !(self.cells.len() > 1 && self.digits.count_ones() > 1 && self.seen_by_all().is_empty())
    }

    /// The cells with extras.
    fn holding(&self) -> Cells {
        self.cells.iter().copied().collect()
    }

    /// The cells that see every cell with extras, none of those.
    fn seen_by_all(&self) -> Cells {
        self.holding().common_peers()
    }

    /// Whether the grid without the extras is a grave: every blank cell
    /// with two candidates, every digit with two places or none in each
    /// unit.
    fn leave_a_grave(&self, grid: &Grid) -> bool {
        let marks = |cell: usize| grid.marks(cell) & !self.by_cell[cell];
        if grid
            .blanks()
            .iter()
            .any(|cell| marks(cell).count_ones() != 2)
        {
            return false;
        }
        UNITS.iter().all(|unit| {
            (1..=9u8).all(|digit| {
                let places = unit.iter().filter(|&cell| marks(cell) & bit(digit) != 0);
                matches!(places.count(), 0 | 2)
            })
        })
    }

    fn holders(&self) -> Vec<Mark> {
        self.cells.iter().map(|&cell| Mark::new(cell, 0)).collect()
    }
}

/// Type 1: the one cell with extras keeps only them.
fn type_1(grid: &Grid, cell: usize, kept: u16) -> Step {
    let mut step = Step::new(Technique::Bug1);
    step.pattern.push(Mark::new(cell, 0));
    step.digits = kept;
    step.eliminations = digits(grid.marks(cell) & !kept)
        .map(|digit| Mark::new(cell, digit))
        .collect();
    step
}

/// Type 2: the one extra digit goes from every cell that sees all the
/// cells holding it.
fn type_2(grid: &Grid, extras: &Extras) -> Option<Step> {
    let digit = digits(extras.digits).next()?;
    let seen = extras.seen_by_all().and(grid.cells_with(digit));
    if seen.is_empty() {
        return None;
    }
    let mut step = Step::new(Technique::Bug2);
    step.pattern = extras.holders();
    step.digits = bit(digit);
    step.eliminations = seen.iter().map(|cell| Mark::new(cell, digit)).collect();
    Some(step)
}

/// Type 4: two cells with extras in one unit, sharing exactly one digit
/// besides the extras, keep only their extras and that digit.
fn type_4(grid: &Grid, extras: &Extras) -> Option<Step> {
    let [first, second] = extras.cells[..] else {
        return None;
    };
    let shared = grid.marks(first) & grid.marks(second) & !extras.digits;
    if shared.count_ones() != 1 {
        return None;
    }
    let both = Cells::single(first).or(Cells::single(second));
    let unit = (0..27).find(|&unit| UNITS[unit].and(both) == both)?;
    let mut step = Step::new(Technique::Bug4);
    step.pattern = extras.holders();
    step.units = vec![unit];
    step.digits = shared;
    for cell in [first, second] {
        let removed = grid.marks(cell) & !extras.by_cell[cell] & !shared;
        step.eliminations
            .extend(digits(removed).map(|digit| Mark::new(cell, digit)));
    }
    step.eliminations.sort();
    (!step.eliminations.is_empty()).then_some(step)
}

/// Type 3: the extras, as one cell, and `n - 1` other cells of a unit the
/// cells with extras share hold `n` digits between them; those digits go
/// from the unit's other cells that see every cell with extras. Sets of
/// two digits first, then three and up to six; boxes, rows, then columns.
fn type_3(grid: &Grid, extras: &Extras) -> Option<Step> {
    let holders = extras.holding();
    let seen = extras.seen_by_all();
    for size in 2..=6usize {
        for kind in [BOXES, ROWS, COLUMNS] {
            let Some(unit) = kind.clone().find(|&u| UNITS[u].and(holders) == holders) else {
                continue;
            };
            let candidates: Vec<usize> = UNITS[unit].and(seen).iter().collect();
            if let Some(step) = naked_set_with_extras(grid, extras, unit, &candidates, size) {
                return Some(step);
            }
        }
    }
    None
}

/// The first set of `size - 1` of `candidates` (in Sukaku Explainer's
/// order of subsets) whose digits, with the extras, make a naked set of
/// `size` that removes something from the rest of `candidates`.
fn naked_set_with_extras(
    grid: &Grid,
    extras: &Extras,
    unit: usize,
    candidates: &[usize],
    size: usize,
) -> Option<Step> {
    if candidates.len() < size || extras.digits.count_ones() < 2 {
        return None;
    }
    // Subsets as the numbers with `size - 1` bits set, in increasing order.
    for chosen in 0u32..1 << candidates.len() {
        if chosen.count_ones() as usize != size - 1 {
            continue;
        }
        let members = || (0..candidates.len()).filter(move |i| chosen >> i & 1 != 0);
        let union = members().fold(0u16, |union, i| union | grid.marks(candidates[i]));
        let narrow = members().any(|i| grid.marks(candidates[i]).count_ones() < 2);
        if narrow || union.count_ones() as usize != size || union | extras.digits != union {
            continue;
        }
        let eliminations: Vec<Mark> = (0..candidates.len())
            .filter(|i| chosen >> i & 1 == 0)
            .flat_map(|i| {
                let cell = candidates[i];
                digits(grid.marks(cell) & union).map(move |digit| Mark::new(cell, digit))
            })
            .collect();
        if eliminations.is_empty() {
            continue;
        }
        let mut step = Step::new(Technique::Bug3);
        step.rating = Rating(Technique::Bug3.base_rating().0 + size as u16 - 1);
        step.pattern = extras.holders();
        step.pattern
            .extend(members().map(|i| Mark::new(candidates[i], 0)));
        step.units = vec![unit];
        step.digits = union;
        step.eliminations = eliminations;
        return Some(step);
    }
    None
}

/// How a player is told about a BUG step.
pub(super) fn explain(step: &Step, words: &Words, text: &mut String) {
    let digits = &words.digits;
    let cells = &words.cells;
    match step.technique {
        Technique::Bug1 => {
            let _ = write!(
                text,
                "without {digits} in {cells} every blank cell would have two candidates and every \
                 digit two places in each unit, a deadly pattern with two solutions, so {cells} \
                 holds {digits}"
            );
        }
        Technique::Bug2 | Technique::Bug3 | Technique::Bug4 => {
            let _ = write!(
                text,
                "without their extra candidates {cells} would leave a deadly pattern with two \
                 solutions (every blank cell with two candidates, every digit with two places \
                 in each unit), so one of those extras is true"
            );
        }
        _ => {}
    }
}
