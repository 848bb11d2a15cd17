//! Two houses that meet in several cells (a row and a box, a diagonal and
//! a box, a window and a column): each holds every digit once, so the cells
//! of one outside the other hold exactly the digits the other's cells
//! outside the first hold. Each side keeps only the digits the other side
//! can still take, which is pointing and claiming, both ways. On 16×16
//! grids this is what keeps the search small.

use super::narrowing::{Contradiction, Narrowing};

/// The two outer parts of two houses that meet.
#[derive(Debug, Clone)]
pub(crate) struct Intersection {
    /// The first house's cells outside the second, then the second's
    /// outside the first.
    cells: Box<[u16]>,
    /// Where the second part starts in `cells`.
    split: usize,
}

impl Intersection {
    pub fn new(first: Vec<u16>, second: Vec<u16>) -> Intersection {
        let split = first.len();
        let mut cells = first;
        cells.extend(second);
        Intersection {
            cells: cells.into(),
            split,
        }
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let (first, second) = self.cells.split_at(self.split);
        let union =
            |part: &[u16], grid: &Narrowing<'_>| part.iter().fold(0, |u, &c| u | grid.mask(c));
        let (first_digits, second_digits) = (union(first, grid), union(second, grid));
        if first_digits == second_digits {
            return Ok(());
        }
        for &cell in first {
            grid.narrow(cell, second_digits)?;
        }
        for &cell in second {
            grid.narrow(cell, first_digits)?;
        }
        Ok(())
    }

    pub fn accepts(&self, masks: &[u32]) -> bool {
        let (first, second) = self.cells.split_at(self.split);
        let union = |part: &[u16]| part.iter().fold(0, |u, &c| u | masks[usize::from(c)]);
        union(first) == union(second)
    }
}
