//! The ladder: every technique, simplest first, and the one step it finds.
//!
//! The order is Sukaku Explainer's, the program that rated the Sudoku
//! Exchange bank: the first technique that applies gives the step, even
//! where a later one is rated lower (a hidden pair is tried after an
//! X-Wing). Chains and forcing chains search exhaustively and keep their
//! lowest-rated find.

use std::rc::Rc;

use super::aligned::{aligned_pair_exclusion, aligned_triple_exclusion};
use super::als_wings::als_wing;
use super::bug::bug;
use super::chains;
use super::cycles::cycle_or_forcing_chain;
use super::fish::fish;
use super::forcing::{dynamic_forcing_chain, nishio, static_forcing_chain};
use super::grid::Grid;
use super::intersections::{claiming, locked_candidates, pointing};
use super::loops::{rectangle_or_loop, unique_loop};
use super::scope::Scope;
use super::singles::{self, Single};
use super::step::Step;
use super::strong_links::{strong_links, two_strong_links};
use super::subsets::{hidden_subset, naked_subset};
use super::technique::Technique;
use super::wings::{xy_wing, xyz_wing};

/// The singles of the simplest kind available, all that one scan finds:
/// full houses, else hidden singles in boxes, else in rows and columns.
pub fn easy_singles(grid: &Grid, found: &mut Vec<Single>) {
    found.clear();
    singles::full_houses(grid, found);
    if found.is_empty() {
        singles::hidden_singles_in_boxes(grid, found);
    }
    if found.is_empty() {
        singles::hidden_singles_in_lines(grid, found);
    }
}

/// A technique's search: the first step it finds on a grid, among the
/// patterns `scope` touches (techniques that cannot narrow their search
/// ignore it).
type Finder<'a> = dyn Fn(&Grid, Scope) -> Option<Step> + 'a;

/// The simplest step above the easy singles, if any technique finds one.
///
/// `should_stop` is polled between techniques and inside the chain
/// searches; once it says stop, the answer is `None`.
pub fn harder_step(grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    Ladder::new().harder_step(grid, should_stop)
}

/// How many rungs the ladder has.
const RUNGS: usize = 39;

/// The ladder, remembering for each rung the last grid it found nothing
/// on: there it need only search what changed since (see [`Scope`]).
/// The steps are the same as [`harder_step`]'s, found sooner. One ladder
/// serves one walk: each grid it is given must come from the one before
/// by placements and removals.
#[derive(Debug)]
pub struct Ladder {
    failed_on: [Option<Rc<Grid>>; RUNGS],
}

impl Default for Ladder {
    fn default() -> Ladder {
        Ladder::new()
    }
}

impl Ladder {
    /// A ladder with nothing searched yet.
    pub fn new() -> Ladder {
        Ladder {
            failed_on: std::array::from_fn(|_| None),
        }
    }

    /// The simplest step above the easy singles, as [`harder_step`].
    pub fn harder_step(&mut self, grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Step> {
        let now = Rc::new(grid.clone());
        // Most rungs last failed on the same grid: its scope is kept.
        let mut known: Option<(Rc<Grid>, Scope)> = None;
        // Every technique above the easy singles, in Sukaku Explainer's
        // order.
        let rungs: [&Finder; RUNGS] = [
            &|g, s| pointing(g, true, s),
            &|g, s| claiming(g, true, s),
            &|g, s| hidden_subset(g, 2, true, s),
            &|g, _| naked_single(g),
            &|g, s| hidden_subset(g, 3, true, s),
            &locked_candidates,
            &|g, s| naked_subset(g, 2, s),
            &|g, s| fish(g, 2, s),
            &|g, s| hidden_subset(g, 2, false, s),
            &|g, s| naked_subset(g, 3, s),
            &|g, s| fish(g, 3, s),
            &|g, s| hidden_subset(g, 3, false, s),
            &two_strong_links,
            &|g, _| xy_wing(g),
            &|g, _| xyz_wing(g),
            &|g, _| rectangle_or_loop(g),
            &|g, s| naked_subset(g, 4, s),
            &|g, s| fish(g, 4, s),
            &|g, s| hidden_subset(g, 4, false, s),
            &|g, s| strong_links(g, 3, s),
            &|g, s| als_wing(g, 3, s),
            &|g, _| bug(g),
            &|g, s| strong_links(g, 4, s),
            &|g, s| als_wing(g, 4, s),
            &aligned_pair_exclusion,
            &|g, s| als_wing(g, 5, s),
            &|g, s| cycle_or_forcing_chain(g, s, should_stop),
            &|g, s| als_wing(g, 6, s),
            &aligned_triple_exclusion,
            &|g, s| nishio(g, s, should_stop),
            &|g, _| static_forcing_chain(g, should_stop),
            &|g, _| dynamic_forcing_chain(g, 0, should_stop),
            &|g, _| dynamic_forcing_chain(g, 1, should_stop),
            &|g, _| dynamic_forcing_chain(g, 2, should_stop),
            &|g, _| dynamic_forcing_chain(g, 3, should_stop),
            &|g, _| dynamic_forcing_chain(g, 4, should_stop),
            &|g, _| dynamic_forcing_chain(g, 5, should_stop),
            &|g, _| dynamic_forcing_chain(g, 6, should_stop),
            &|g, _| dynamic_forcing_chain(g, 7, should_stop),
        ];
        for (at, finder) in rungs.iter().enumerate() {
            if should_stop() {
                *self = Ladder::new();
                return None;
            }
            let scope = match &self.failed_on[at] {
                None => Scope::WHOLE,
                Some(before) => match &known {
                    Some((grid_then, scope)) if Rc::ptr_eq(grid_then, before) => *scope,
                    _ => {
                        let scope = Scope::since(before, grid);
                        known = Some((before.clone(), scope));
                        scope
                    }
                },
            };
            let found = finder(grid, scope);
            // A search cut short by the stop found nothing for certain.
            let failed = found.is_none() && !should_stop();
            self.failed_on[at] = failed.then(|| now.clone());
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

fn naked_single(grid: &Grid) -> Option<Step> {
    let mut found = Vec::new();
    singles::naked_singles(grid, &mut found);
    found.first().map(|single| single.to_step())
}

/// The simplest step of all, singles included.
pub fn simplest_step(grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    let mut found = Vec::new();
    easy_singles(grid, &mut found);
    match found.first() {
        Some(single) => Some(single.to_step()),
        None => harder_step(grid, should_stop),
    }
}

/// Every instance of one technique on the grid, for the techniques whose
/// search can list them (subsets and the XY- and XYZ-Wings); for the
/// others, the first. For checking a technique against reference cases
/// that name one instance among several.
pub fn all_instances(grid: &Grid, technique: Technique) -> Vec<Step> {
    use Technique::*;
    let mut found = Vec::new();
    let mut keep = |step: Step| {
        found.push(step);
        false
    };
    match technique {
        NakedPair | NakedTriple | NakedQuad => {
            let size = match technique {
                NakedPair => 2,
                NakedTriple => 3,
                _ => 4,
            };
            super::subsets::naked_subsets(grid, size, Scope::WHOLE, &mut keep);
        }
        HiddenPair | HiddenTriple | HiddenQuad => {
            let size = match technique {
                HiddenPair => 2,
                HiddenTriple => 3,
                _ => 4,
            };
            super::subsets::hidden_subsets(grid, size, false, Scope::WHOLE, &mut keep);
        }
        XYWing => super::wings::wings(grid, 2, XYWing, &mut keep),
        XYZWing => super::wings::wings(grid, 3, XYZWing, &mut keep),
        _ => found.extend(find_technique(grid, technique)),
    }
    found
}

/// The first step of one technique alone, whatever simpler steps exist:
/// for checking a technique against reference cases. Singles return the
/// first single of that kind.
pub fn find_technique(grid: &Grid, technique: Technique) -> Option<Step> {
    use Technique::*;
    let never = &|| false;
    let step = match technique {
        FullHouse | HiddenSingleBox | HiddenSingleLine | NakedSingle => {
            let mut found = Vec::new();
            singles::full_houses(grid, &mut found);
            singles::hidden_singles_in_boxes(grid, &mut found);
            singles::hidden_singles_in_lines(grid, &mut found);
            singles::naked_singles(grid, &mut found);
            return found
                .into_iter()
                .find(|s| s.technique == technique)
                .map(Single::to_step);
        }
        DirectPointing => pointing(grid, true, Scope::WHOLE),
        DirectClaiming => claiming(grid, true, Scope::WHOLE),
        DirectHiddenPair => hidden_subset(grid, 2, true, Scope::WHOLE),
        DirectHiddenTriple => hidden_subset(grid, 3, true, Scope::WHOLE),
        Pointing => pointing(grid, false, Scope::WHOLE),
        Claiming => claiming(grid, false, Scope::WHOLE),
        NakedPair => naked_subset(grid, 2, Scope::WHOLE),
        NakedTriple => naked_subset(grid, 3, Scope::WHOLE),
        NakedQuad => naked_subset(grid, 4, Scope::WHOLE),
        HiddenPair => hidden_subset(grid, 2, false, Scope::WHOLE),
        HiddenTriple => hidden_subset(grid, 3, false, Scope::WHOLE),
        HiddenQuad => hidden_subset(grid, 4, false, Scope::WHOLE),
        XWing => fish(grid, 2, Scope::WHOLE),
        Swordfish => fish(grid, 3, Scope::WHOLE),
        Jellyfish => fish(grid, 4, Scope::WHOLE),
        Skyscraper | TwoStringKite | TurbotFish | GroupedSkyscraper | GroupedTwoStringKite
        | GroupedTurbotFish => super::strong_links::of_kind(grid, technique),
        XYWing => xy_wing(grid),
        WxyzWing => als_wing(grid, 3, Scope::WHOLE),
        VwxyzWing => als_wing(grid, 4, Scope::WHOLE),
        UvwxyzWing => als_wing(grid, 5, Scope::WHOLE),
        TuvwxyzWing => als_wing(grid, 6, Scope::WHOLE),
        XYZWing => xyz_wing(grid),
        UniqueRectangle1 | UniqueRectangle2 | UniqueRectangle3 | UniqueRectangle4 => {
            super::uniqueness::unique_rectangle_of(grid, technique)
        }
        UniqueLoop1 | UniqueLoop2 | UniqueLoop4 => unique_loop(grid),
        Bug1 | Bug2 | Bug3 | Bug4 => bug(grid),
        AlignedPairExclusion => aligned_pair_exclusion(grid, Scope::WHOLE),
        AlignedTripleExclusion => aligned_triple_exclusion(grid, Scope::WHOLE),
        XChain | XYChain | Aic => chains::chain_of(grid, technique),
        XCycle | YCycle | ForcingXChain | XYCycle | ForcingChain => {
            cycle_or_forcing_chain(grid, Scope::WHOLE, never)
        }
        NishioForcingChain => nishio(grid, Scope::WHOLE, never),
        StaticCellForcingChain | StaticUnitForcingChain => static_forcing_chain(grid, never),
        ContradictionForcingChain | CellForcingChain | UnitForcingChain | DoubleForcingChain => {
            dynamic_forcing_chain(grid, 0, never)
        }
        DynamicForcingChainPlus => dynamic_forcing_chain(grid, 1, never),
        NestedForcingChain => dynamic_forcing_chain(grid, 2, never),
        NestedMultipleForcingChain => dynamic_forcing_chain(grid, 3, never),
        NestedDynamicForcingChain => {
            (4..=7).find_map(|level| dynamic_forcing_chain(grid, level, never))
        }
    };
    step.filter(|s| s.technique == technique)
}
