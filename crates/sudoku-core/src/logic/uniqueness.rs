//! Uniqueness techniques: deductions that hold only because the puzzle
//! has exactly one solution.
//!
//! Four cells in two rows, two columns and two boxes that could all be
//! left with the same two digits {a, b} would allow the solution with a
//! and b swapped: a "deadly pattern". A unique puzzle cannot end that
//! way, so some cell of the rectangle must take another digit (Unique
//! Rectangle types 1-4). The bivalue universal grave, another deadly
//! pattern, is in [`super::bug`]. The grader only calls these on puzzles
//! whose uniqueness the solver has certified.

use super::bits::{Cells, PEERS, UNITS, bit, digits, units_of};
use super::grid::Grid;
use super::step::{Link, Mark, Step};
use super::technique::Technique;

/// The first unique rectangle of types 1 to 4 that eliminates something.
pub fn unique_rectangle(grid: &Grid) -> Option<Step> {
    let rectangles = rectangles(grid);
    [type_1, type_2, type_4, type_3]
        .iter()
        .find_map(|finder| rectangles.iter().find_map(|r| finder(grid, r)))
}

/// The first unique rectangle of one type that eliminates something.
pub fn unique_rectangle_of(grid: &Grid, technique: Technique) -> Option<Step> {
    let finder = match technique {
        Technique::UniqueRectangle1 => type_1,
        Technique::UniqueRectangle2 => type_2,
        Technique::UniqueRectangle3 => type_3,
        _ => type_4,
    };
    rectangles(grid).iter().find_map(|r| finder(grid, r))
}

/// Four cells of a possible deadly pattern on `pair`.
#[derive(Debug, Clone, Copy)]
struct Rectangle {
    cells: [usize; 4],
    pair: u16,
}

impl Rectangle {
    fn marks(&self, grid: &Grid) -> Vec<Mark> {
        self.cells
            .iter()
            .flat_map(|&cell| digits(self.pair & grid.marks(cell)).map(move |d| Mark::new(cell, d)))
            .collect()
    }

    /// Cells holding exactly the pair, and the others.
    fn split(&self, grid: &Grid) -> (Vec<usize>, Vec<usize>) {
        self.cells
            .iter()
            .partition(|&&c| grid.marks(c) == self.pair)
    }

    fn step(&self, grid: &Grid, technique: Technique) -> Step {
        let mut step = Step::new(technique);
        step.pattern = self.marks(grid);
        step.digits = self.pair;
        step
    }
}

fn rectangles(grid: &Grid) -> Vec<Rectangle> {
    let mut found = Vec::new();
    let bivalue = grid.bivalue_cells();
    // The blank columns of each row, as a mask.
    let open: [u16; 9] = std::array::from_fn(|row| (grid.blanks().0 >> (9 * row)) as u16 & 0x1ff);
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            let both = open[r1] & open[r2];
            for c1 in (0..9).filter(|&c| both >> c & 1 != 0) {
                for c2 in (c1 + 1..9).filter(|&c| both >> c & 1 != 0) {
                    let cells = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c2, r2 * 9 + c1];
                    let same_band = r1 / 3 == r2 / 3;
                    let same_stack = c1 / 3 == c2 / 3;
                    // A deadly pattern needs two corners holding only its
                    // pair (see `could_be_deadly`).
                    let two_pairs = cells.iter().filter(|&&c| bivalue.has(c)).count() >= 2;
                    if same_band == same_stack || !two_pairs {
                        continue;
                    }
                    let held = cells.iter().fold(0, |m, &c| m | grid.marks(c));
                    for a in digits(held) {
                        for b in digits(held).filter(|&b| b > a) {
                            let pair = bit(a) | bit(b);
                            if could_be_deadly(grid, &cells, pair) {
                                found.push(Rectangle { cells, pair });
                            }
                        }
                    }
                }
            }
        }
    }
    found
}

/// Whether the four cells could end as a deadly pattern on `pair`: at
/// least two hold exactly the pair, and every one holds at least one of
/// its digits. A corner may lack one (HoDoKu's "missing candidates"):
/// the argument only needs each corner's final digit to be one of the
/// pair, and a digit crossed out there was never possible.
fn could_be_deadly(grid: &Grid, cells: &[usize; 4], pair: u16) -> bool {
    let exact = cells.iter().filter(|&&c| grid.marks(c) == pair).count();
    exact >= 2 && cells.iter().all(|&c| grid.marks(c) & pair != 0)
}

/// Three cells hold only the pair: the fourth cannot be either digit.
fn type_1(grid: &Grid, rectangle: &Rectangle) -> Option<Step> {
    let (floor, roof) = rectangle.split(grid);
    let [corner] = roof[..] else { return None };
    (floor.len() == 3).then_some(())?;
    let mut step = rectangle.step(grid, Technique::UniqueRectangle1);
    step.eliminations = digits(rectangle.pair & grid.marks(corner))
        .map(|d| Mark::new(corner, d))
        .collect();
    Some(step)
}

/// The two cells that are not just the pair hold it plus the same one
/// extra digit: one of them is that digit, so no cell seeing both is.
fn type_2(grid: &Grid, rectangle: &Rectangle) -> Option<Step> {
    let (floor, roof) = rectangle.split(grid);
    let (2, &[a, b]) = (floor.len(), &roof[..]) else {
        return None;
    };
    let extra = grid.marks(a) & !rectangle.pair;
    if extra.count_ones() != 1 || grid.marks(b) & !rectangle.pair != extra {
        return None;
    }
    let z = digits(extra).next()?;
    let removed = grid.cells_with(z).and(PEERS[a]).and(PEERS[b]);
    if removed.is_empty() {
        return None;
    }
    let mut step = rectangle.step(grid, Technique::UniqueRectangle2);
    step.eliminations = removed.iter().map(|c| Mark::new(c, z)).collect();
    Some(step)
}

/// The two extra cells share a unit in which one digit of the pair has
/// no other place: they hold it between them, so neither holds the other
/// digit of the pair.
fn type_4(grid: &Grid, rectangle: &Rectangle) -> Option<Step> {
    let (floor, roof) = rectangle.split(grid);
    let (2, &[a, b]) = (floor.len(), &roof[..]) else {
        return None;
    };
    let both = Cells::single(a).or(Cells::single(b));
    for unit in shared_units(a, b) {
        for strong in digits(rectangle.pair) {
            if grid.cells_with(strong).and(UNITS[unit]) != both {
                continue;
            }
            let other = rectangle.pair & !bit(strong);
            let removed: Vec<Mark> = [a, b]
                .iter()
                .flat_map(|&c| digits(other & grid.marks(c)).map(move |d| Mark::new(c, d)))
                .collect();
            if removed.is_empty() {
                continue;
            }
            let mut step = rectangle.step(grid, Technique::UniqueRectangle4);
            step.eliminations = removed;
            step.units.push(unit);
            step.links = vec![Link::strong(Mark::new(a, strong), Mark::new(b, strong))];
            return Some(step);
        }
    }
    None
}

/// The extra digits of the two roof cells act as one cell: with other
/// cells of a shared unit they form a naked subset, whose digits the rest
/// of the unit loses.
fn type_3(grid: &Grid, rectangle: &Rectangle) -> Option<Step> {
    let (floor, roof) = rectangle.split(grid);
    let (2, &[a, b]) = (floor.len(), &roof[..]) else {
        return None;
    };
    let extra = (grid.marks(a) | grid.marks(b)) & !rectangle.pair;
    let roof_cells = Cells::single(a).or(Cells::single(b));
    for unit in shared_units(a, b) {
        let others: Vec<usize> = grid
            .blanks()
            .and(UNITS[unit])
            .minus(roof_cells)
            .iter()
            .collect();
        for choice in 1u16..1 << others.len().min(9) {
            let size = choice.count_ones();
            if size > 3 {
                continue;
            }
            let chosen: Vec<usize> = (0..others.len())
                .filter(|i| choice >> i & 1 != 0)
                .map(|i| others[i])
                .collect();
            let held = chosen.iter().fold(extra, |m, &c| m | grid.marks(c));
            if held.count_ones() != size + 1 {
                continue;
            }
            let set = chosen
                .iter()
                .fold(roof_cells, |s, &c| s.or(Cells::single(c)));
            let mut step = rectangle.step(grid, Technique::UniqueRectangle3);
            for digit in digits(held) {
                for cell in grid.cells_with(digit).and(UNITS[unit]).minus(set).iter() {
                    step.eliminations.push(Mark::new(cell, digit));
                }
            }
            if step.eliminations.is_empty() {
                continue;
            }
            step.rating.0 += size as u16 - 1;
            step.pattern.extend(chosen.iter().map(|&c| Mark::new(c, 0)));
            step.units.push(unit);
            return Some(step);
        }
    }
    None
}

fn shared_units(a: usize, b: usize) -> Vec<usize> {
    let theirs = units_of(b);
    units_of(a)
        .into_iter()
        .filter(|u| theirs.contains(u))
        .collect()
}
