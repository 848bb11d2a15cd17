//! Odd and even cells.

use super::{Rule, check_on_grid};
use crate::variant::geometry::Shape;
use crate::variant::model::Builder;

/// A cell that holds an odd digit, or an even one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parity {
    /// The cell.
    pub cell: usize,
    /// True for odd, false for even.
    pub odd: bool,
}

impl Rule for Parity {
    fn check(&self, shape: Shape) -> Result<(), String> {
        check_on_grid(shape, &[self.cell])
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        // Bit d stands for digit d: odd digits sit on odd bits.
        let odd_digits = 0xAAAA_AAAA;
        let mask = if self.odd { odd_digits } else { !odd_digits };
        builder.restrict(self.cell, mask);
    }
}
