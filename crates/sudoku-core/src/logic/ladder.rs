//! The ladder: every technique, simplest first, and the one step it finds.
//!
//! The order is Sukaku Explainer's, the program that rated the Sudoku
//! Exchange bank: the first technique that applies gives the step, even
//! where a later one is rated lower (a hidden pair is tried after an
//! X-Wing). Chains and forcing chains search exhaustively and keep their
//! lowest-rated find.
//!
//! One table ([`LADDER`], and [`BESIDE`] for the techniques off the
//! ladder) names each rung's techniques, its finder and its explanation;
//! the ladder's order, [`find_technique`] and the explanation of a step
//! all derive from it.

use std::rc::Rc;

use super::aligned::{aligned_pair_exclusion, aligned_triple_exclusion};
use super::als_wings::als_wing;
use super::bug::bug;
use super::cycles::cycle_or_forcing_chain;
use super::fish::fish;
use super::forcing::{dynamic_forcing_chain, nishio, static_forcing_chain};
use super::grid::Grid;
use super::intersections::{claiming, locked_candidates, pointing};
use super::loops::{rectangle_or_loop, unique_loop};
use super::reasoning::branches_text;
use super::scope::Scope;
use super::singles::Single;
use super::step::Step;
use super::strong_links::{strong_links, two_strong_links};
use super::subsets::{hidden_subset, naked_subset};
use super::technique::{Rating, Technique};
use super::uniqueness::unique_rectangle_of;
use super::wings::{xy_wing, xyz_wing};
use super::words::{Explain, Words};
use super::{
    aligned, als_wings, bug, chains, cycles, fish, forcing, intersections, loops, singles,
    strong_links, subsets, wings,
};

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

/// A rung's search: the first step it finds on a grid, among the patterns
/// `scope` touches (techniques that cannot narrow their search ignore
/// it), polling `should_stop` in the long ones.
type Find = fn(&Grid, Scope, &dyn Fn() -> bool) -> Option<Step>;

/// A search for one technique of a rung that reports several kinds and
/// stops at the first it meets, whatever its kind.
type FindKind = fn(&Grid, Technique) -> Option<Step>;

/// One row of the technique table: the techniques its steps are reported
/// as, how it finds one, and how each is explained (every finder's file
/// exports its own explanation).
struct Rung {
    techniques: &'static [Technique],
    find: Find,
    /// For [`find_technique`], where `find` would stop at another kind.
    find_kind: Option<FindKind>,
    explain: Explain,
}

impl Rung {
    const fn new(techniques: &'static [Technique], find: Find, explain: Explain) -> Rung {
        Rung {
            techniques,
            find,
            find_kind: None,
            explain,
        }
    }

    /// A row beside the ladder, which the ladder never climbs: its
    /// techniques are found only one kind at a time.
    const fn beside(
        techniques: &'static [Technique],
        find_kind: FindKind,
        explain: Explain,
    ) -> Rung {
        Rung::new(techniques, |_, _, _| None, explain).by_kind(find_kind)
    }

    const fn by_kind(self, find_kind: FindKind) -> Rung {
        Rung {
            find_kind: Some(find_kind),
            ..self
        }
    }
}

use Technique::*;

/// Every technique above the easy singles, in Sukaku Explainer's order:
/// the ladder. Adding a technique is adding its row here (and its finder
/// and explanation in its own file).
const LADDER: &[Rung] = &[
    Rung::new(
        &[DirectPointing],
        |g, s, _| pointing(g, true, s),
        intersections::explain,
    ),
    Rung::new(
        &[DirectClaiming],
        |g, s, _| claiming(g, true, s),
        intersections::explain,
    ),
    Rung::new(
        &[DirectHiddenPair],
        |g, s, _| hidden_subset(g, 2, true, s),
        subsets::explain,
    ),
    Rung::new(&[NakedSingle], |g, _, _| naked_single(g), singles::explain),
    Rung::new(
        &[DirectHiddenTriple],
        |g, s, _| hidden_subset(g, 3, true, s),
        subsets::explain,
    ),
    Rung::new(
        &[Pointing, Claiming],
        |g, s, _| locked_candidates(g, s),
        intersections::explain,
    ),
    Rung::new(
        &[NakedPair],
        |g, s, _| naked_subset(g, 2, s),
        subsets::explain,
    ),
    Rung::new(&[XWing], |g, s, _| fish(g, 2, s), fish::explain),
    Rung::new(
        &[HiddenPair],
        |g, s, _| hidden_subset(g, 2, false, s),
        subsets::explain,
    ),
    Rung::new(
        &[NakedTriple],
        |g, s, _| naked_subset(g, 3, s),
        subsets::explain,
    ),
    Rung::new(&[Swordfish], |g, s, _| fish(g, 3, s), fish::explain),
    Rung::new(
        &[HiddenTriple],
        |g, s, _| hidden_subset(g, 3, false, s),
        subsets::explain,
    ),
    Rung::new(
        &[
            Skyscraper,
            TwoStringKite,
            TurbotFish,
            GroupedSkyscraper,
            GroupedTwoStringKite,
            GroupedTurbotFish,
        ],
        |g, s, _| two_strong_links(g, s),
        strong_links::explain,
    )
    .by_kind(strong_links::of_kind),
    Rung::new(&[XYWing], |g, _, _| xy_wing(g), wings::explain),
    Rung::new(&[XYZWing], |g, _, _| xyz_wing(g), wings::explain),
    Rung::new(
        &[
            UniqueRectangle1,
            UniqueRectangle2,
            UniqueRectangle4,
            UniqueRectangle3,
            UniqueLoop1,
            UniqueLoop2,
            UniqueLoop4,
        ],
        |g, _, _| rectangle_or_loop(g),
        loops::explain,
    )
    .by_kind(|g, technique| match technique {
        UniqueLoop1 | UniqueLoop2 | UniqueLoop4 => unique_loop(g),
        _ => unique_rectangle_of(g, technique),
    }),
    Rung::new(
        &[NakedQuad],
        |g, s, _| naked_subset(g, 4, s),
        subsets::explain,
    ),
    Rung::new(&[Jellyfish], |g, s, _| fish(g, 4, s), fish::explain),
    Rung::new(
        &[HiddenQuad],
        |g, s, _| hidden_subset(g, 4, false, s),
        subsets::explain,
    ),
    Rung::new(&[XChain], |g, s, _| strong_links(g, 3, s), chains::explain),
    Rung::new(&[WxyzWing], |g, s, _| als_wing(g, 3, s), als_wings::explain),
    Rung::new(&[Bug1, Bug2, Bug3, Bug4], |g, _, _| bug(g), bug::explain),
    Rung::new(&[XChain], |g, s, _| strong_links(g, 4, s), chains::explain),
    Rung::new(
        &[VwxyzWing],
        |g, s, _| als_wing(g, 4, s),
        als_wings::explain,
    ),
    Rung::new(
        &[AlignedPairExclusion],
        |g, s, _| aligned_pair_exclusion(g, s),
        aligned::explain,
    ),
    Rung::new(
        &[UvwxyzWing],
        |g, s, _| als_wing(g, 5, s),
        als_wings::explain,
    ),
    Rung::new(
        &[XCycle, YCycle, ForcingXChain, XYCycle, ForcingChain],
        cycle_or_forcing_chain,
        cycles::explain,
    ),
    Rung::new(
        &[TuvwxyzWing],
        |g, s, _| als_wing(g, 6, s),
        als_wings::explain,
    ),
    Rung::new(
        &[AlignedTripleExclusion],
        |g, s, _| aligned_triple_exclusion(g, s),
        aligned::explain,
    ),
    Rung::new(&[NishioForcingChain], nishio, forcing::explain),
    Rung::new(
        &[StaticCellForcingChain, StaticUnitForcingChain],
        |g, _, stop| static_forcing_chain(g, stop),
        forcing::explain,
    ),
    Rung::new(
        &[
            ContradictionForcingChain,
            CellForcingChain,
            UnitForcingChain,
            DoubleForcingChain,
        ],
        |g, _, stop| dynamic_forcing_chain(g, 0, stop),
        forcing::explain,
    ),
    Rung::new(
        &[DynamicForcingChainPlus],
        |g, _, stop| dynamic_forcing_chain(g, 1, stop),
        forcing::explain,
    ),
    Rung::new(
        &[NestedForcingChain],
        |g, _, stop| dynamic_forcing_chain(g, 2, stop),
        forcing::explain,
    ),
    Rung::new(
        &[NestedMultipleForcingChain],
        |g, _, stop| dynamic_forcing_chain(g, 3, stop),
        forcing::explain,
    ),
    // Sukaku Explainer's level 4: dynamic chains nested to 0, 1, 2 and 3
    // serve as links, each limit tried when the one before finds nothing.
    Rung::new(
        &[NestedDynamicForcingChain],
        |g, _, stop| dynamic_forcing_chain(g, 4, stop),
        forcing::explain,
    ),
    Rung::new(
        &[NestedDynamicForcingChain],
        |g, _, stop| dynamic_forcing_chain(g, 5, stop),
        forcing::explain,
    ),
    Rung::new(
        &[NestedDynamicForcingChain],
        |g, _, stop| dynamic_forcing_chain(g, 6, stop),
        forcing::explain,
    ),
    Rung::new(
        &[NestedDynamicForcingChain],
        |g, _, stop| dynamic_forcing_chain(g, 7, stop),
        forcing::explain,
    ),
];

/// The techniques beside the ladder: the easy singles, taken before it,
/// and the chains the hints and reference checks name, which Sukaku
/// Explainer's ladder reports as cycles and forcing chains instead.
const BESIDE: &[Rung] = &[
    Rung::beside(
        &[FullHouse, HiddenSingleBox, HiddenSingleLine],
        single_of_kind,
        singles::explain,
    ),
    Rung::beside(&[XChain, XYChain, Aic], chains::chain_of, chains::explain),
];

/// Every row of the table: beside the ladder, then on it.
fn rows() -> impl Iterator<Item = &'static Rung> {
    BESIDE.iter().chain(LADDER)
}

/// How steps of `technique` are explained.
pub(super) fn explainer(technique: Technique) -> Explain {
    rows()
        .find(|row| row.techniques.contains(&technique))
        .map_or(no_explanation, |row| row.explain)
}

/// For a technique no row names, which the table's test rules out.
fn no_explanation(_: &Step, _: &Words, _: &mut String) {}

impl Step {
    /// One sentence a player understands, in r1c1 terms: the family's
    /// own explanation (from its finder's file, through the table), then
    /// the single a direct technique leaves, the outcome and any branches.
    pub fn explanation(&self) -> String {
        let mut text = String::new();
        let words = Words::of(self);
        (explainer(self.technique))(self, &words, &mut text);
        text.push_str(&self.direct_sentence());
        text.push_str(&self.outcome_sentence());
        text.push_str(&branches_text(&self.branches));
        text
    }
}

/// The simplest step above the easy singles, if any technique finds one.
///
/// `should_stop` is polled between techniques and inside the chain
/// searches; once it says stop, the answer is `None`.
pub fn harder_step(grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    Ladder::new().harder_step(grid, should_stop)
}

/// How many rungs the ladder has.
const RUNGS: usize = LADDER.len();

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
        self.step_on_rungs(grid, RUNGS, should_stop)
    }

    /// The simplest step of the rungs whose techniques are all rated
    /// `ceiling` or less (before any length bonus): the ladder's foot.
    pub fn step_within(
        &mut self,
        grid: &Grid,
        ceiling: Rating,
        should_stop: &dyn Fn() -> bool,
    ) -> Option<Step> {
        let rungs = LADDER
            .iter()
            .take_while(|rung| {
                rung.techniques
                    .iter()
                    .all(|technique| technique.base_rating() <= ceiling)
            })
            .count();
        self.step_on_rungs(grid, rungs, should_stop)
    }

    /// The simplest step of the first `rungs` rungs.
    fn step_on_rungs(
        &mut self,
        grid: &Grid,
        rungs: usize,
        should_stop: &dyn Fn() -> bool,
    ) -> Option<Step> {
        let now = Rc::new(grid.clone());
        // Most rungs last failed on the same grid: its scope is kept.
        let mut known: Option<(Rc<Grid>, Scope)> = None;
        for (at, rung) in LADDER.iter().enumerate().take(rungs) {
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
            let found = (rung.find)(grid, scope, should_stop);
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
    let never = &|| false;
    rows()
        .filter(|row| row.techniques.contains(&technique))
        .find_map(|row| {
            let found = match row.find_kind {
                Some(find_kind) => find_kind(grid, technique),
                None => (row.find)(grid, Scope::WHOLE, never),
            };
            found.filter(|step| step.technique == technique)
        })
}

/// The first easy single of one kind, whatever other singles exist.
fn single_of_kind(grid: &Grid, technique: Technique) -> Option<Step> {
    let mut found = Vec::new();
    singles::full_houses(grid, &mut found);
    singles::hidden_singles_in_boxes(grid, &mut found);
    singles::hidden_singles_in_lines(grid, &mut found);
    found
        .into_iter()
        .find(|s| s.technique == technique)
        .map(Single::to_step)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_technique_has_one_explanation_and_a_row_that_finds_it() {
        for &technique in Technique::ALL {
            let rows: Vec<&Rung> = rows()
                .filter(|r| r.techniques.contains(&technique))
                .collect();
            assert!(!rows.is_empty(), "{technique} has a row");
            let explain = rows[0].explain;
            assert!(
                rows.iter().all(|r| r.explain as usize == explain as usize),
                "{technique} is explained one way"
            );
        }
    }
}
