//! Killer cages: distinct digits, and when a sum is given, that sum.

use super::{Rule, check_cells};
use crate::variant::geometry::Shape;
use crate::variant::model::Builder;

/// Cells that hold distinct digits, summing to `sum` when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cage {
    /// The cage's cells.
    pub cells: Vec<usize>,
    /// Its sum, if the setter gave one.
    pub sum: Option<u32>,
}

impl Rule for Cage {
    fn check(&self, shape: Shape) -> Result<(), String> {
        check_cells(shape, &self.cells, "the cage")?;
        let count = self.cells.len() as u32;
        let size = shape.size() as u32;
        if count > size {
            return Err(format!(
                "the cage has {count} cells, but only {size} distinct digits exist"
            ));
        }
        let Some(sum) = self.sum else { return Ok(()) };
        // Distinct digits from 1 to `size` make every sum between these.
        let least = count * (count + 1) / 2;
        let most = count * size - count * (count - 1) / 2;
        if sum < least || sum > most {
            return Err(format!(
                "no {count} distinct digits from 1 to {size} sum to {sum}: \
                 their sums run from {least} to {most}"
            ));
        }
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        builder.distinct(&self.cells);
        if let Some(sum) = self.sum {
            builder.cage_sum(&self.cells, sum);
        }
    }
}
