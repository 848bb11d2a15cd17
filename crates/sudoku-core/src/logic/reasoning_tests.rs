//! Tests of the reasoning steps carry: every link a step draws keeps the
//! rules of links on the grid it was found on ([`reasoning_faults`]),
//! every technique that reasons with links or branches fills them, and
//! the explanation writes them in a notation players know.

use std::collections::BTreeMap;
use std::time::Duration;

use proptest::prelude::*;

use super::tests::{board, unique_puzzles, walked_puzzles};
use super::*;
use crate::Board;

/// Techniques whose reasoning is a chain, a wing or a strong-link
/// pattern: their steps must carry links.
fn draws_links(technique: Technique) -> bool {
    use Technique::*;
    matches!(
        technique,
        Skyscraper
            | TwoStringKite
            | TurbotFish
            | GroupedSkyscraper
            | GroupedTwoStringKite
            | GroupedTurbotFish
            | XYWing
            | XYZWing
            | WxyzWing
            | VwxyzWing
            | UvwxyzWing
            | TuvwxyzWing
            | UniqueRectangle4
            | UniqueLoop4
            | XChain
            | XYChain
            | Aic
            | XCycle
            | YCycle
            | XYCycle
            | ForcingXChain
            | ForcingChain
    )
}

/// Techniques whose reasoning is a forcing chain's branches.
fn draws_branches(technique: Technique) -> bool {
    use Technique::*;
    matches!(
        technique,
        NishioForcingChain
            | StaticCellForcingChain
            | StaticUnitForcingChain
            | ContradictionForcingChain
            | CellForcingChain
            | UnitForcingChain
            | DoubleForcingChain
            | DynamicForcingChainPlus
            | NestedForcingChain
            | NestedMultipleForcingChain
    )
}

/// Checks each step of a walk, witnesses worked out as a hint shows them,
/// and counts the techniques it met.
#[derive(Default)]
struct ReasoningReferee {
    faults: Vec<String>,
    seen: BTreeMap<Technique, usize>,
}

/// Everything wrong with a step's reasoning on `before`: the rules of its
/// links, and the parts its technique must fill (links for chains, wings
/// and strong-link patterns, branches for forcing chains, the unit of a
/// single, a fish's base and cover lines).
pub(super) fn shape_faults(step: &Step, before: &Grid) -> Vec<String> {
    use Technique::*;
    let mut faults = reasoning_faults(step, before);
    if draws_links(step.technique) && step.links.is_empty() {
        faults.push("no links".into());
    }
    if draws_branches(step.technique) && step.branches.is_empty() {
        faults.push("no branches".into());
    }
    let units = match step.technique {
        HiddenSingleBox | HiddenSingleLine | FullHouse => 1,
        Pointing | Claiming | DirectPointing | DirectClaiming => 2,
        XWing => 4,
        Swordfish => 6,
        Jellyfish => 8,
        _ => step.units.len(),
    };
    if step.units.len() != units {
        faults.push(format!("{} units, not {units}", step.units.len()));
    }
    faults
}

impl ReasoningReferee {
    fn check(&mut self, before: &Grid, step: Step) {
        let step = step.with_witnesses(before);
        *self.seen.entry(step.technique).or_default() += 1;
        for fault in shape_faults(&step, before) {
            self.faults.push(format!(
                "{} ({}): {fault}",
                step.technique,
                step.explanation()
            ));
        }
    }
}

impl Observer for ReasoningReferee {
    fn single(&mut self, before: &Grid, single: Single) {
        self.check(before, single.to_step());
    }
    fn step(&mut self, before: &Grid, step: &Step) {
        self.check(before, step.clone());
    }
}

fn referee_walk(puzzle: &Board, referee: &mut ReasoningReferee) {
    walk(Grid::new(puzzle), &|| false, &|| Duration::ZERO, referee);
}

#[test]
fn every_step_of_the_made_and_classic_puzzles_draws_links_that_hold() {
    let mut referee = ReasoningReferee::default();
    // From top1465: an X-Chain through a box whose places form a cross, so
    // that both ends of its strong link hold the cross's centre.
    let cross = ".......71.2.8........5.3...7.9.6.......2..8..1.........3...25..6...1..4..........";
    for text in walked_puzzles().chain([cross]) {
        referee_walk(&board(text), &mut referee);
    }
    assert!(referee.faults.is_empty(), "{:#?}", referee.faults);
    // The walks meet singles, wings, chains and nested forcing chains.
    for technique in [
        Technique::HiddenSingleBox,
        Technique::XYWing,
        Technique::XYZWing,
        Technique::ContradictionForcingChain,
        Technique::NestedForcingChain,
    ] {
        assert!(
            referee.seen.contains_key(&technique),
            "no {technique} met: {:?}",
            referee.seen
        );
    }
}

proptest! {
    // A minimal puzzle per case and its whole path: 24 cases keep it to
    // seconds.
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_step_on_a_random_unique_puzzle_draws_links_that_hold(case in unique_puzzles()) {
        let (puzzle, _) = case;
        let mut referee = ReasoningReferee::default();
        referee_walk(&puzzle, &mut referee);
        prop_assert!(referee.faults.is_empty(), "{}: {:#?}", puzzle, referee.faults);
    }
}
