//! Thermometers: digits strictly rise from the bulb along the line.

use super::{Rule, check_cells};
use crate::variant::geometry::Shape;
use crate::variant::model::Builder;

/// Cells whose digits strictly rise, bulb first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thermometer {
    /// The bulb, then each cell along the line.
    pub cells: Vec<usize>,
}

impl Rule for Thermometer {
    fn check(&self, shape: Shape) -> Result<(), String> {
        check_cells(shape, &self.cells, "the thermometer")?;
        if self.cells.len() > shape.size() {
            return Err(format!(
                "the thermometer has {} cells, but digits can rise only {} times",
                self.cells.len(),
                shape.size()
            ));
        }
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        for step in self.cells.windows(2) {
            builder.relate(step[0], step[1], |lower, higher| lower < higher);
        }
        // Rising digits differ, which the peers spread faster.
        builder.implied_distinct(&self.cells);
    }
}
