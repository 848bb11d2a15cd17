//! Forcing chains from Nishio (7.5) to nested dynamic chains (10.0 and
//! up): Sukaku Explainer's last resorts, found and rated as it finds and
//! rates them.
//!
//! Every producer assumes each candidate on, and most also off, follows
//! what that implies ([`propagation`]), and draws one conclusion from a
//! contradiction or from branches that agree ([`search`]). They differ in
//! the rules they follow:
//!
//! | producer | base | links | dynamic | nested rules |
//! |---|---|---|---|---|
//! | Nishio | 7.5 | one digit's | yes | none |
//! | static cell and region chains | 8.0 | all | no | none |
//! | dynamic forcing chains | 8.5 | all | yes | none |
//! | (+) | 9.0 | all | yes | simple techniques |
//! | (+ Forcing Chains) | 9.5 | all | yes | and cycles and forcing chains |
//! | (+ Multiple Forcing Chains) | 10.0 | all | yes | and static chains |
//! | (+ Dynamic Forcing Chains) | 10.5 | all | yes | simple techniques, then dynamic chains nested to 0, 1, 2 or 3 |
//!
//! A step is rated by its base plus Sudoku Explainer's length bonus over
//! the nodes its chains rest on, nested chains included
//! ([`search::complexity`]). The rules behind each detail (the order of
//! implications, which parents a node gets, which nested rule answers)
//! are written up in `docs/se-rating-notes.md` §3, since every one of
//! them changes some rating.

mod advanced;
mod branches;
mod inner;
mod nested;
mod propagation;
mod search;

use std::cell::RefCell;
use std::fmt::Write;

use super::bits::bit;
use super::grid::Grid;
use super::implications::{cell_of, digit_of, is_on};
use super::scope::Scope;
use super::step::{Mark, Step};
use super::technique::{Rating, Technique, length_bonus};
use super::words::Words;
use advanced::Advanced;
use nested::NestedChains;
use search::{Conclusion, Kind, Producer, Sink, complexity, conclusions};

/// The easiest Nishio forcing chain (7.5 and up), among the digits in
/// `scope`: a Nishio chain follows its digit's links alone, and its
/// contradictions are that digit both on and off.
pub fn nishio(grid: &Grid, scope: Scope, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    let producer = Producer {
        digits: scope.digits(),
        ..search::NISHIO
    };
    easiest(grid, producer, should_stop)
}

/// The easiest static cell or region forcing chain (8.0 and up).
pub fn static_forcing_chain(grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    easiest(grid, search::STATIC, should_stop)
}

/// The easiest dynamic forcing chain nested to `level` (0 to 3: 8.5, 9.0,
/// 9.5 and 10.0 and up; 4 to 7: 10.5 and up, with dynamic chains nested
/// to 0 to 3 as links).
pub fn dynamic_forcing_chain(
    grid: &Grid,
    level: u8,
    should_stop: &dyn Fn() -> bool,
) -> Option<Step> {
    easiest(grid, search::dynamic(level), should_stop)
}

/// The conclusion the producer sorts first: fewest nodes, then the lowest
/// kind, then the first found.
fn easiest(grid: &Grid, producer: Producer, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    thread_local! {
        static ADVANCED: RefCell<Advanced> = RefCell::default();
    }
    ADVANCED.with_borrow_mut(|advanced| {
        advanced.trim();
        easiest_with(grid, producer, advanced, should_stop)
    })
}

fn easiest_with(
    grid: &Grid,
    producer: Producer,
    advanced: &mut Advanced,
    should_stop: &dyn Fn() -> bool,
) -> Option<Step> {
    let mut easiest = Easiest(None);
    if !conclusions(grid, producer, advanced, should_stop, &mut easiest) {
        return None;
    }
    let best = easiest.0;
    best.map(|(complexity, kind, conclusion)| step(producer, complexity, kind, &conclusion))
}

/// The conclusion sorted first so far: fewest nodes, then the lowest
/// kind, then the first found.
struct Easiest(Option<(u32, Kind, Conclusion)>);

impl Easiest {
    fn beats(&self, nodes: u32, kind: Kind) -> bool {
        self.0
            .as_ref()
            .is_none_or(|(best, best_kind, _)| (nodes, kind) < (*best, *best_kind))
    }
}

impl Sink for Easiest {
    fn wants(&self, nodes: u32, kind: Kind) -> bool {
        self.beats(nodes, kind)
    }

    fn take(&mut self, conclusion: Conclusion, nested: &NestedChains) {
        let complexity = complexity(&conclusion.targets, nested);
        if self.beats(complexity, conclusion.kind) {
            self.0 = Some((complexity, conclusion.kind, conclusion));
        }
    }
}

/// The technique a producer's conclusion of `kind` is reported as.
fn technique(producer: Producer, kind: Kind) -> Technique {
    use Technique::*;
    match (
        producer.mode.level,
        producer.mode.dynamic,
        producer.mode.cell_links,
    ) {
        (0, true, false) => NishioForcingChain,
        (0, false, _) => match kind {
            Kind::Region => StaticUnitForcingChain,
            _ => StaticCellForcingChain,
        },
        (0, true, true) => match kind {
            Kind::Contradiction => ContradictionForcingChain,
            Kind::Double => DoubleForcingChain,
            Kind::Cell => CellForcingChain,
            Kind::Region => UnitForcingChain,
        },
        (1, ..) => DynamicForcingChainPlus,
        (2, ..) => NestedForcingChain,
        (3, ..) => NestedMultipleForcingChain,
        _ => NestedDynamicForcingChain,
    }
}

fn step(producer: Producer, complexity: u32, kind: Kind, conclusion: &Conclusion) -> Step {
    let technique = technique(producer, kind);
    let mut step = Step::new(technique);
    step.rating = Rating(technique.base_rating().0 + length_bonus(complexity as usize));
    let node = conclusion.node;
    let result = Mark::new(cell_of(node), digit_of(node));
    match is_on(node) {
        true => step.placements.push(result),
        false => step.eliminations.push(result),
    }
    match (kind, conclusion.unit) {
        (Kind::Region, Some(unit)) => {
            step.units.push(unit);
            step.digits = bit(conclusion.digit);
            let places = grid_places(conclusion);
            step.pattern
                .extend(places.iter().map(|c| Mark::new(c, conclusion.digit)));
        }
        (Kind::Cell, _) => step.pattern.push(Mark::new(conclusion.cell, 0)),
        _ => {
            step.pattern
                .push(Mark::new(conclusion.cell, conclusion.digit));
            step.digits = bit(conclusion.digit);
        }
    }
    step.branches = branches::branches_of(conclusion);
    step
}

/// The cells whose assumptions a region conclusion's branches start from.
fn grid_places(conclusion: &Conclusion) -> super::bits::Cells {
    conclusion
        .targets
        .iter()
        .map(|(branch, _)| cell_of(branch.node(0).state))
        .collect()
}

/// How a player is told about a Nishio, static, dynamic or nested forcing chain step.
pub(super) fn explain(step: &Step, words: &Words, text: &mut String) {
    let Words {
        digits,
        units,
        cells,
    } = words;
    // A region chain's assumptions are the places of a unit, a cell
    // chain's the candidates of a cell.
    let assumed_at = if units.is_empty() { cells } else { units };
    match step.technique {
        Technique::ContradictionForcingChain => {
            let _ = write!(
                text,
                "assuming the opposite of the result for {cells} leads to a contradiction"
            );
        }
        Technique::DoubleForcingChain => {
            let _ = write!(
                text,
                "{cells} holding {digits} and {cells} not holding it both lead to the result"
            );
        }
        Technique::NishioForcingChain => {
            let _ = write!(
                text,
                "following only the places of {digits}, assuming the opposite of the result \
                 leads to a contradiction"
            );
        }
        Technique::CellForcingChain
        | Technique::UnitForcingChain
        | Technique::StaticCellForcingChain
        | Technique::StaticUnitForcingChain => {
            let _ = write!(
                text,
                "every candidate of {assumed_at} leads to the same result"
            );
        }
        Technique::DynamicForcingChainPlus
        | Technique::NestedForcingChain
        | Technique::NestedMultipleForcingChain
        | Technique::NestedDynamicForcingChain => {
            let _ = write!(
                text,
                "every case assumed at {assumed_at}, followed with the simpler techniques{} as \
                 links, leads to the result",
                match step.technique {
                    Technique::DynamicForcingChainPlus => "",
                    Technique::NestedForcingChain => " and forcing chains",
                    Technique::NestedMultipleForcingChain => " and forcing chains of every kind",
                    _ => " and dynamic forcing chains",
                }
            );
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
