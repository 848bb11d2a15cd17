//! The main diagonals of X-sudoku: each holds distinct digits.

use super::Rule;
use crate::variant::geometry::Shape;
use crate::variant::model::Builder;

/// One of the two main diagonals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Diagonal {
    /// From the bottom left to the top right (f-puzzles' `diagonal+`).
    Positive,
    /// From the top left to the bottom right (`diagonal-`).
    Negative,
}

impl Diagonal {
    /// Its cells, from the top row down.
    pub fn cells(self, shape: Shape) -> Vec<usize> {
        let size = shape.size();
        (0..size)
            .map(|row| match self {
                Diagonal::Positive => row * size + (size - 1 - row),
                Diagonal::Negative => row * size + row,
            })
            .collect()
    }
}

impl Rule for Diagonal {
    fn check(&self, _shape: Shape) -> Result<(), String> {
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        let cells = self.cells(builder.shape());
        builder.distinct(&cells);
    }
}
