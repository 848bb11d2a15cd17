//! Clues between two cells: kropki dots (white for a difference, black for
//! a ratio) and the X and V of XV. Each marks its pair, so that the
//! negative rules ([`super::negative`]) pass over it: a kropki dot of
//! either colour exempts its pair from both negative kropki rules, an X or
//! a V from the negative XV rule, as f-puzzles and its solvers read them.

use super::{Rule, check_cells};
use crate::variant::geometry::Shape;
use crate::variant::model::{Builder, PairMark};

/// A white dot: the two digits differ by `difference` (1 unless labelled).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Difference {
    /// The two cells.
    pub cells: [usize; 2],
    /// The difference, 1 for a plain dot.
    pub difference: u32,
}

/// A black dot: one digit is `ratio` times the other (2 unless labelled).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ratio {
    /// The two cells.
    pub cells: [usize; 2],
    /// The ratio, 2 for a plain dot.
    pub ratio: u32,
}

/// An X (the digits sum to 10) or a V (to 5), or any other sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XvSum {
    /// The two cells.
    pub cells: [usize; 2],
    /// The sum: 10 for an X, 5 for a V.
    pub sum: u32,
}

/// Checks the pair, then that `value` lies in `range`.
fn check_pair(
    shape: Shape,
    cells: [usize; 2],
    what: &str,
    value: u32,
    range: std::ops::RangeInclusive<u32>,
) -> Result<(), String> {
    check_cells(shape, &cells, what)?;
    if !range.contains(&value) {
        return Err(format!(
            "{what} on {} and {} says {value}, but on a {size}×{size} grid it must be {} to {}",
            shape.cell_name(cells[0]),
            shape.cell_name(cells[1]),
            range.start(),
            range.end(),
            size = shape.size()
        ));
    }
    Ok(())
}

impl Rule for Difference {
    fn check(&self, shape: Shape) -> Result<(), String> {
        let size = shape.size() as u32;
        check_pair(
            shape,
            self.cells,
            "the white dot",
            self.difference,
            1..=size - 1,
        )
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        let [a, b] = self.cells;
        let difference = self.difference;
        builder.relate(a, b, |x, y| x.abs_diff(y) == difference);
        builder.mark(a, b, PairMark::Kropki);
    }
}

impl Rule for Ratio {
    fn check(&self, shape: Shape) -> Result<(), String> {
        let size = shape.size() as u32;
        check_pair(shape, self.cells, "the black dot", self.ratio, 1..=size)
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        let [a, b] = self.cells;
        let ratio = self.ratio;
        builder.relate(a, b, |x, y| x == ratio * y || y == ratio * x);
        builder.mark(a, b, PairMark::Kropki);
    }
}

impl Rule for XvSum {
    fn check(&self, shape: Shape) -> Result<(), String> {
        let size = shape.size() as u32;
        check_pair(shape, self.cells, "the XV clue", self.sum, 2..=2 * size)
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        let [a, b] = self.cells;
        let sum = self.sum;
        builder.relate(a, b, |x, y| x + y == sum);
        builder.mark(a, b, PairMark::Xv);
    }
}
