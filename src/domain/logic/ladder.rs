//! The ladder: every technique, simplest first, and the one step it finds.
//!
//! The order is Sukaku Explainer's, the program that rated the Sudoku
//! Exchange bank: the first technique that applies gives the step, even
//! where a later one is rated lower (a hidden pair is tried after an
//! X-Wing). Chains and forcing chains search exhaustively and keep their
//! lowest-rated find.

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

/// A technique's search: the first step it finds on a grid.
type Finder<'a> = dyn Fn(&Grid) -> Option<Step> + 'a;

/// The simplest step above the easy singles, if any technique finds one.
///
/// `should_stop` is polled between techniques and inside the chain
/// searches; once it says stop, the answer is `None`.
pub fn harder_step(grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    let ladder: [&Finder; 35] = [
        &|g| pointing(g, true),
        &|g| claiming(g, true),
        &|g| hidden_subset(g, 2, true),
        &naked_single,
        &|g| hidden_subset(g, 3, true),
        &locked_candidates,
        &|g| naked_subset(g, 2),
        &|g| fish(g, 2),
        &|g| hidden_subset(g, 2, false),
        &|g| naked_subset(g, 3),
        &|g| fish(g, 3),
        &|g| hidden_subset(g, 3, false),
        &two_strong_links,
        &xy_wing,
        &xyz_wing,
        &rectangle_or_loop,
        &|g| naked_subset(g, 4),
        &|g| fish(g, 4),
        &|g| hidden_subset(g, 4, false),
        &|g| strong_links(g, 3),
        &|g| als_wing(g, 3),
        &bug,
        &|g| strong_links(g, 4),
        &|g| als_wing(g, 4),
        &aligned_pair_exclusion,
        &|g| als_wing(g, 5),
        &|g| cycle_or_forcing_chain(g, should_stop),
        &|g| als_wing(g, 6),
        &aligned_triple_exclusion,
        &|g| nishio(g, should_stop),
        &|g| static_forcing_chain(g, should_stop),
        &|g| dynamic_forcing_chain(g, 0, should_stop),
        &|g| dynamic_forcing_chain(g, 1, should_stop),
        &|g| dynamic_forcing_chain(g, 2, should_stop),
        &|g| dynamic_forcing_chain(g, 3, should_stop),
    ];
    for finder in ladder {
        if should_stop() {
            return None;
        }
        if let Some(step) = finder(grid) {
            return Some(step);
        }
    }
    None
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
            super::subsets::naked_subsets(grid, size, &mut keep);
        }
        HiddenPair | HiddenTriple | HiddenQuad => {
            let size = match technique {
                HiddenPair => 2,
                HiddenTriple => 3,
                _ => 4,
            };
            super::subsets::hidden_subsets(grid, size, false, &mut keep);
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
        DirectPointing => pointing(grid, true),
        DirectClaiming => claiming(grid, true),
        DirectHiddenPair => hidden_subset(grid, 2, true),
        DirectHiddenTriple => hidden_subset(grid, 3, true),
        Pointing => pointing(grid, false),
        Claiming => claiming(grid, false),
        NakedPair => naked_subset(grid, 2),
        NakedTriple => naked_subset(grid, 3),
        NakedQuad => naked_subset(grid, 4),
        HiddenPair => hidden_subset(grid, 2, false),
        HiddenTriple => hidden_subset(grid, 3, false),
        HiddenQuad => hidden_subset(grid, 4, false),
        XWing => fish(grid, 2),
        Swordfish => fish(grid, 3),
        Jellyfish => fish(grid, 4),
        Skyscraper | TwoStringKite | TurbotFish | GroupedSkyscraper | GroupedTwoStringKite
        | GroupedTurbotFish => super::strong_links::of_kind(grid, technique),
        XYWing => xy_wing(grid),
        WxyzWing => als_wing(grid, 3),
        VwxyzWing => als_wing(grid, 4),
        UvwxyzWing => als_wing(grid, 5),
        TuvwxyzWing => als_wing(grid, 6),
        XYZWing => xyz_wing(grid),
        UniqueRectangle1 | UniqueRectangle2 | UniqueRectangle3 | UniqueRectangle4 => {
            super::uniqueness::unique_rectangle_of(grid, technique)
        }
        UniqueLoop1 | UniqueLoop2 | UniqueLoop4 => unique_loop(grid),
        Bug1 | Bug2 | Bug3 | Bug4 => bug(grid),
        AlignedPairExclusion => aligned_pair_exclusion(grid),
        AlignedTripleExclusion => aligned_triple_exclusion(grid),
        XChain | XYChain | Aic => chains::chain_of(grid, technique),
        XCycle | YCycle | ForcingXChain | XYCycle | ForcingChain => {
            cycle_or_forcing_chain(grid, never)
        }
        NishioForcingChain => nishio(grid, never),
        StaticCellForcingChain | StaticUnitForcingChain => static_forcing_chain(grid, never),
        ContradictionForcingChain | CellForcingChain | UnitForcingChain | DoubleForcingChain => {
            dynamic_forcing_chain(grid, 0, never)
        }
        DynamicForcingChainPlus => dynamic_forcing_chain(grid, 1, never),
        NestedForcingChain => dynamic_forcing_chain(grid, 2, never),
        NestedMultipleForcingChain => dynamic_forcing_chain(grid, 3, never),
    };
    step.filter(|s| s.technique == technique)
}
