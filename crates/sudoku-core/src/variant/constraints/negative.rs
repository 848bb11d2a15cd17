//! The negative rules, about every pair of orthogonal neighbours that
//! carries no clue: non-consecutive (no white dot means no difference of
//! 1), negative ratio (no black dot means no ratio the black dots use, 2
//! when there are none) and negative XV (no X or V means no sum of 10 or
//! 5). A kropki dot of either colour exempts its pair from both kropki
//! rules; only an X or a V exempts one from the XV rule.
//!
//! They are compiled after every clue, so that they see every mark.

use super::{Constraint, Rule};
use crate::variant::geometry::Shape;
use crate::variant::model::{Builder, PairMark};

/// Orthogonal neighbours without a kropki dot are not consecutive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonConsecutive;

/// Orthogonal neighbours without a kropki dot are not in the ratio of any
/// black dot (2 when there is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NegativeRatio;

/// Orthogonal neighbours without an X or a V do not sum to 10 or 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NegativeXv;

/// Applies `allowed` to every orthogonal pair not marked with `exempt`.
fn unmarked_pairs(builder: &mut Builder<'_>, exempt: PairMark, allowed: impl Fn(u32, u32) -> bool) {
    for (a, b) in builder.orthogonal_pairs() {
        if !builder.is_marked(a, b, exempt) {
            builder.relate(a, b, &allowed);
        }
    }
}

impl Rule for NonConsecutive {
    const NEGATIVE: bool = true;

    fn check(&self, _shape: Shape) -> Result<(), String> {
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        unmarked_pairs(builder, PairMark::Kropki, |x, y| x.abs_diff(y) != 1);
    }
}

impl NegativeRatio {
    /// The ratios it forbids: those of the puzzle's black dots, or 2.
    pub fn ratios(constraints: &[Constraint]) -> Vec<u32> {
        let mut ratios: Vec<u32> = constraints
            .iter()
            .filter_map(|constraint| match constraint {
                Constraint::Ratio(dot) => Some(dot.ratio),
                _ => None,
            })
            .collect();
        ratios.sort_unstable();
        ratios.dedup();
        if ratios.is_empty() {
            ratios.push(2);
        }
        ratios
    }
}

impl Rule for NegativeRatio {
    const NEGATIVE: bool = true;

    fn check(&self, _shape: Shape) -> Result<(), String> {
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        let ratios = NegativeRatio::ratios(builder.puzzle().constraints());
        unmarked_pairs(builder, PairMark::Kropki, |x, y| {
            !ratios.iter().any(|&r| x == r * y || y == r * x)
        });
    }
}

impl Rule for NegativeXv {
    const NEGATIVE: bool = true;

    fn check(&self, _shape: Shape) -> Result<(), String> {
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        unmarked_pairs(builder, PairMark::Xv, |x, y| x + y != 5 && x + y != 10);
    }
}
