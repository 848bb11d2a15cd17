//! From a checked puzzle to the model the search runs on: rows, columns
//! and regions, then each constraint in turn, the negative rules last so
//! that they see every clue, then what summed cages imply of the houses
//! they lie in (`constraints/innies.rs`).

use super::constraints::{self, Constraint, HouseSums, UnionSum};
use super::model::{Builder, Model};
use super::puzzle::VariantPuzzle;

/// Compiles `puzzle` into the model the search runs on.
pub(crate) fn compile(puzzle: &VariantPuzzle) -> Model {
    let builder = rules(puzzle);
    derive_sums(puzzle, builder).finish()
}

/// Compiles only what `puzzle` says, without what its rules imply
/// together: enough to check a full grid, at a fraction of the cost.
pub(crate) fn compile_rules(puzzle: &VariantPuzzle) -> Model {
    rules(puzzle).finish_rules()
}

/// The builder with the houses and every constraint's own rule.
fn rules(puzzle: &VariantPuzzle) -> Builder<'_> {
    let mut builder = Builder::new(puzzle);
    let houses = puzzle.houses();
    for cells in &houses {
        builder.distinct(cells);
    }
    let mut ordered: Vec<&Constraint> = puzzle.constraints().iter().collect();
    ordered.sort_by_key(|constraint| constraint.is_negative_rule());
    for constraint in ordered {
        constraint.compile(&mut builder);
    }
    builder
}

/// Adds the sums the summed cages imply of the houses.
fn derive_sums<'p>(puzzle: &'p VariantPuzzle, mut builder: Builder<'p>) -> Builder<'p> {
    let houses = puzzle.houses();
    let HouseSums {
        remainders,
        unions,
        overhangs,
    } = constraints::house_sums(puzzle, &houses);
    for (cells, sum) in remainders {
        builder.cage_sum(&cells, sum);
    }
    for (
        UnionSum {
            inside,
            outside,
            total,
        },
        found,
    ) in unions
    {
        let terms: Vec<(usize, i64)> = inside
            .iter()
            .map(|&cell| (cell, 1))
            .chain(outside.iter().map(|&cell| (cell, -1)))
            .collect();
        builder.linear(&terms, total);
        for _ in 1..found {
            builder.weigh_sum(terms.iter().map(|&(cell, _)| cell));
        }
    }
    for (cells, total) in overhangs {
        builder.sum_if_tight(&cells, total);
    }
    builder
}
