//! The constraint kinds, one file each, listed once in the table below.
//!
//! A kind is a plain type that implements [`Rule`]: what makes one
//! malformed ([`Rule::check`]) and what it means, said to the model's
//! [`Builder`] ([`Rule::compile`]). The table makes [`Constraint`], the
//! enum the rest of the crate matches on, and its dispatch; adding a kind
//! is its file and one row here, then its readers (f-puzzles, protobuf).

mod arrow;
mod cage;
mod chess;
mod diagonal;
mod dots;
mod innies;
mod negative;
mod parity;
mod regions;
mod thermometer;

pub use arrow::Arrow;
pub use cage::Cage;
pub use chess::{AntiKing, AntiKnight};
pub use diagonal::Diagonal;
pub use dots::{Difference, Ratio, XvSum};
pub(crate) use innies::{HouseSums, UnionSum, house_sums};
#[cfg(test)]
pub(crate) use innies::{TWIN_CAGES, caged_puzzle};
pub use negative::{NegativeRatio, NegativeXv, NonConsecutive};
pub use parity::Parity;
pub use regions::{DisjointGroups, ExtraRegion};
pub use thermometer::Thermometer;

use super::geometry::Shape;
use super::model::Builder;

/// What a constraint kind must say about itself.
pub(crate) trait Rule {
    /// True for the rules about every pair without a clue (the negative
    /// rules): they are compiled after every clue is known.
    const NEGATIVE: bool = false;

    /// What makes this constraint malformed on a grid of `shape`, in words
    /// that name the cell at fault.
    fn check(&self, shape: Shape) -> Result<(), String>;

    /// Tells the builder what the constraint means.
    fn compile(&self, builder: &mut Builder<'_>);
}

macro_rules! constraint_kinds {
    ($($(#[$doc:meta])* $variant:ident = $name:literal;)*) => {
        /// A constraint beyond rows, columns and regions.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Constraint {
            $($(#[$doc])* $variant($variant),)*
        }

        impl Constraint {
            /// Every kind's name, in the table's order.
            pub const KIND_NAMES: &[&str] = &[$($name),*];

            /// The kind's name, as messages and counts print it.
            pub fn kind_name(&self) -> &'static str {
                match self {
                    $(Constraint::$variant(_) => $name,)*
                }
            }

            pub(crate) fn check(&self, shape: Shape) -> Result<(), String> {
                match self {
                    $(Constraint::$variant(rule) => rule.check(shape),)*
                }
            }

            pub(crate) fn compile(&self, builder: &mut Builder<'_>) {
                match self {
                    $(Constraint::$variant(rule) => rule.compile(builder),)*
                }
            }

            pub(crate) fn is_negative_rule(&self) -> bool {
                match self {
                    $(Constraint::$variant(_) => <$variant as Rule>::NEGATIVE,)*
                }
            }
        }

        $(impl From<$variant> for Constraint {
            fn from(rule: $variant) -> Constraint {
                Constraint::$variant(rule)
            }
        })*
    };
}

constraint_kinds! {
    /// A killer cage: distinct digits, with or without a sum.
    Cage = "killer cage";
    /// A thermometer: digits rise from the bulb.
    Thermometer = "thermometer";
    /// An arrow: the line sums to the number in the bulb.
    Arrow = "arrow";
    /// A main diagonal with distinct digits.
    Diagonal = "diagonal";
    /// An extra region with distinct digits.
    ExtraRegion = "extra region";
    /// Cells in the same place of each box hold distinct digits.
    DisjointGroups = "disjoint groups";
    /// Cells a knight's move apart differ.
    AntiKnight = "anti-knight";
    /// Cells a king's move apart differ.
    AntiKing = "anti-king";
    /// Orthogonal neighbours are not consecutive, unless a kropki dot
    /// joins them.
    NonConsecutive = "non-consecutive";
    /// An odd or an even cell.
    Parity = "parity";
    /// A white kropki dot: the two digits differ by a given amount.
    Difference = "difference dot";
    /// A black kropki dot: one digit is a given multiple of the other.
    Ratio = "ratio dot";
    /// An X or a V: the two digits sum to 10 or 5.
    XvSum = "xv";
    /// Every black dot is given: no other neighbours in ratio 2.
    NegativeRatio = "negative ratio";
    /// Every X and V is given: no other neighbours sum to 10 or 5.
    NegativeXv = "negative xv";
}

/// Checks that `cells` are on the grid and none repeats.
pub(crate) fn check_cells(shape: Shape, cells: &[usize], what: &str) -> Result<(), String> {
    if cells.is_empty() {
        return Err(format!("{what} has no cells"));
    }
    check_on_grid(shape, cells)?;
    for (i, &cell) in cells.iter().enumerate() {
        if cells[..i].contains(&cell) {
            return Err(format!("{what} lists {} twice", shape.cell_name(cell)));
        }
    }
    Ok(())
}

/// Checks that every cell is on the grid.
pub(crate) fn check_on_grid(shape: Shape, cells: &[usize]) -> Result<(), String> {
    match cells.iter().find(|&&cell| cell >= shape.cell_count()) {
        Some(cell) => Err(format!(
            "cell {cell} is outside the {size}×{size} grid (cells 0 to {})",
            shape.cell_count() - 1,
            size = shape.size()
        )),
        None => Ok(()),
    }
}
