//! Arrows: the digits along the line sum to the number in the bulb. A
//! bulb of several cells (a pill) spells a number, its digits read in the
//! order given; on grids past 9 digits such a number would be ambiguous
//! (1 then 12, or 11 then 2), so pills are refused there.
//! Digits on the line may repeat unless another rule forbids it.

use super::{Rule, check_cells};
use crate::variant::geometry::Shape;
use crate::variant::model::Builder;

/// Most cells a pill may have: past this its number outgrows any line.
pub const MAX_PILL_CELLS: usize = 4;

/// The line sums to the number the bulb spells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrow {
    /// The bulb: one cell, or the cells of a pill in reading order.
    pub bulb: Vec<usize>,
    /// The line, not counting the bulb.
    pub line: Vec<usize>,
}

impl Rule for Arrow {
    fn check(&self, shape: Shape) -> Result<(), String> {
        check_cells(shape, &self.bulb, "the arrow's bulb")?;
        check_cells(shape, &self.line, "the arrow's line")?;
        if let Some(&cell) = self.line.iter().find(|cell| self.bulb.contains(cell)) {
            return Err(format!(
                "{} is both in the arrow's bulb and on its line",
                shape.cell_name(cell)
            ));
        }
        if self.bulb.len() > 1 && shape.size() > 9 {
            return Err(format!(
                "a bulb of {} cells spells an ambiguous number on a {size}×{size} grid, \
                 whose digits run past 9",
                self.bulb.len(),
                size = shape.size()
            ));
        }
        if self.bulb.len() > MAX_PILL_CELLS {
            return Err(format!(
                "the bulb has {} cells; at most {MAX_PILL_CELLS} are supported",
                self.bulb.len()
            ));
        }
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        let mut terms: Vec<(usize, i64)> = self.line.iter().map(|&cell| (cell, 1)).collect();
        let mut place = 1;
        for &cell in self.bulb.iter().rev() {
            terms.push((cell, -place));
            place *= 10;
        }
        builder.linear(&terms, 0);
    }
}
