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
    for (union, found) in unions {
        let terms = union_terms(&union);
        builder.linear(&terms, union.total);
        for _ in 1..found {
            builder.weigh_sum(terms.iter().map(|&(cell, _)| cell));
        }
    }
    for (cells, total) in overhangs {
        builder.sum_if_tight(&cells, total);
    }
    builder
}

/// A derived sum's terms: its innies count 1, its outies -1.
fn union_terms(union: &UnionSum) -> Vec<(usize, i64)> {
    let innies = union.inside.iter().map(|&cell| (cell, 1));
    innies
        .chain(union.outside.iter().map(|&cell| (cell, -1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::constraints::{TWIN_CAGES, caged_puzzle};
    use crate::variant::search::propagators::Propagator;

    #[test]
    fn a_derived_sum_found_twice_runs_once_and_weighs_as_if_run_twice() {
        // Its top row and bottom three rows imply R1C4 - R2C1 = 0 both
        // ways.
        let puzzle = caged_puzzle(4, TWIN_CAGES);
        let merged = compile(&puzzle);
        // Every derived sum run as often as it was found.
        let sums = constraints::house_sums(&puzzle, &puzzle.houses());
        let mut builder = rules(&puzzle);
        for (cells, sum) in sums.remainders {
            builder.cage_sum(&cells, sum);
        }
        let mut twins = 0;
        for (union, found) in &sums.unions {
            for _ in 0..*found {
                builder.linear(&union_terms(union), union.total);
            }
            twins += found - 1;
        }
        for (cells, total) in sums.overhangs {
            builder.sum_if_tight(&cells, total);
        }
        let each_run = builder.finish();
        assert!(twins > 0);
        assert_eq!(merged.weights, each_run.weights);
        let linears = |model: &Model| {
            (model.propagators.iter())
                .filter(|p| matches!(p, Propagator::Linear(_)))
                .count()
        };
        assert_eq!(linears(&merged) + twins as usize, linears(&each_run));
    }
}
