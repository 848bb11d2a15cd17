//! The chess rules: cells a knight's or a king's move apart differ.

use super::Rule;
use crate::variant::geometry::Shape;
use crate::variant::model::Builder;

/// Cells a knight's move apart hold different digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AntiKnight;

/// Cells a king's move apart (diagonally touching) hold different digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AntiKing;

const KNIGHT_MOVES: [(isize, isize); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

/// Orthogonal king moves already lie in a row or a column.
const KING_MOVES: [(isize, isize); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// Every pair of cells one of `moves` apart, each pair once.
pub(crate) fn pairs_apart(shape: Shape, moves: &[(isize, isize)]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for cell in 0..shape.cell_count() {
        let (row, column) = (shape.row(cell) as isize, shape.column(cell) as isize);
        for &(down, across) in moves {
            let (Ok(r), Ok(c)) = (
                usize::try_from(row + down),
                usize::try_from(column + across),
            ) else {
                continue;
            };
            if let Some(other) = shape.cell_at(r, c).filter(|&other| other > cell) {
                pairs.push((cell, other));
            }
        }
    }
    pairs
}

impl AntiKnight {
    /// The pairs it keeps apart.
    pub fn pairs(shape: Shape) -> Vec<(usize, usize)> {
        pairs_apart(shape, &KNIGHT_MOVES)
    }
}

impl AntiKing {
    /// The pairs it keeps apart.
    pub fn pairs(shape: Shape) -> Vec<(usize, usize)> {
        pairs_apart(shape, &KING_MOVES)
    }
}

impl Rule for AntiKnight {
    fn check(&self, _shape: Shape) -> Result<(), String> {
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        for (a, b) in AntiKnight::pairs(builder.shape()) {
            builder.exclude(a, b);
        }
    }
}

impl Rule for AntiKing {
    fn check(&self, _shape: Shape) -> Result<(), String> {
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        for (a, b) in AntiKing::pairs(builder.shape()) {
            builder.exclude(a, b);
        }
    }
}
