//! One logical step: the technique, the pattern it found, and what it
//! changes on the grid.
//!
//! A step is data, not prose: the cells and digits of its pattern, its
//! placements and its eliminations. The one-sentence explanation a player
//! reads is written from that data only when someone asks for it, so that
//! grading a million puzzles formats no text.

use std::fmt::Write;

use super::bits::{digits, unit_name};
use super::grid::Grid;
use super::reasoning::{self, Branch, Link};
use super::technique::{Rating, Technique};
use crate::domain::Cell;

/// A digit in a cell: a candidate, a placement, or (digit 0) just the cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mark {
    /// Row-major cell index, 0..81.
    pub cell: u8,
    /// 1-9, or 0 where only the cell matters.
    pub digit: u8,
}

impl Mark {
    /// The digit `digit` in the cell with row-major index `cell`.
    pub fn new(cell: usize, digit: u8) -> Mark {
        Mark {
            cell: cell as u8,
            digit,
        }
    }

    /// The cell.
    pub fn cell(self) -> Cell {
        Cell::new(usize::from(self.cell)).expect("marks hold cell indices below 81")
    }
}

/// One step of a logical solve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique that found it.
    pub technique: Technique,
    /// Its rating on Sudoku Explainer's scale.
    pub rating: Rating,
    /// The cells (and candidates) the reasoning uses.
    pub pattern: Vec<Mark>,
    /// Digits it places.
    pub placements: Vec<Mark>,
    /// Candidates it crosses out.
    pub eliminations: Vec<Mark>,
    /// The units the pattern lives in (indices as in `bits::UNITS`), for
    /// the explanation.
    pub units: Vec<usize>,
    /// The digits the pattern is about, as a 9-bit mask.
    pub digits: u16,
    /// The links of its chains, loops, wings and strong-link patterns, in
    /// chain order.
    pub links: Vec<Link>,
    /// A forcing chain's branches, in order.
    pub branches: Vec<Branch>,
    /// The placed digits that rule out the places a single relies on
    /// being empty, once [`Step::with_witnesses`] has worked them out.
    pub witnesses: Vec<Mark>,
    /// The places a single relies on being empty that no placed digit
    /// rules out: an earlier step or the player crossed them out.
    pub lost_earlier: Vec<Mark>,
}

impl Step {
    /// A step rated at its technique's base rating, with no units or
    /// digits named yet.
    pub fn new(technique: Technique) -> Step {
        Step {
            technique,
            rating: technique.base_rating(),
            pattern: Vec::new(),
            placements: Vec::new(),
            eliminations: Vec::new(),
            units: Vec::new(),
            digits: 0,
            links: Vec::new(),
            branches: Vec::new(),
            witnesses: Vec::new(),
            lost_earlier: Vec::new(),
        }
    }

    /// The step with its witnesses worked out from `before`, the grid it
    /// was found on: what a hint or an explanation shows, and grading
    /// skips.
    pub fn with_witnesses(mut self, before: &Grid) -> Step {
        let found = super::reasoning::witnesses(&self, before);
        self.witnesses = found.witnesses;
        self.lost_earlier = found.lost_earlier;
        self
    }

    /// The units the reasoning works in, by name.
    pub fn unit_names(&self) -> Vec<crate::domain::Unit> {
        self.units.iter().map(|&unit| unit_name(unit)).collect()
    }

    /// True when the step changes nothing: techniques never return one.
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty() && self.eliminations.is_empty()
    }

    /// Applies the step's placements and eliminations to a grid.
    pub fn apply(&self, grid: &mut Grid) {
        for mark in &self.eliminations {
            grid.eliminate(usize::from(mark.cell), mark.digit);
        }
        for mark in &self.placements {
            if grid.value(usize::from(mark.cell)) == 0 {
                grid.place(usize::from(mark.cell), mark.digit);
            }
        }
    }

    /// One sentence a player understands, in r1c1 terms.
    pub fn explanation(&self) -> String {
        let mut text = String::new();
        let digits = digit_list(self.digits);
        let units = self
            .units
            .iter()
            .map(|&unit| unit_name(unit).to_string())
            .collect::<Vec<_>>()
            .join(" and ");
        let cells = cell_list(&self.pattern);
        let _ = match self.technique {
            Technique::FullHouse => write!(text, "{cells} is the last empty cell of {units}"),
            Technique::HiddenSingleBox | Technique::HiddenSingleLine => write!(
                text,
                "{digits} has only one place left in {units}: {cells}{}",
                self.why_other_places_are_empty()
            ),
            Technique::NakedSingle => write!(
                text,
                "{cells} has no candidate left but {digits}{}",
                self.why_other_digits_are_gone()
            ),
            Technique::DirectPointing
            | Technique::DirectClaiming
            | Technique::Pointing
            | Technique::Claiming => write!(
                text,
                "in {units}, {digits} can only go in {cells}, so it can go nowhere else in both"
            ),
            Technique::DirectHiddenPair
            | Technique::DirectHiddenTriple
            | Technique::HiddenPair
            | Technique::HiddenTriple
            | Technique::HiddenQuad => write!(
                text,
                "in {units}, {digits} can only go in {cells}, so those cells hold nothing else"
            ),
            Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad => write!(
                text,
                "{cells} hold only {digits} between them, so no other cell of {units} can"
            ),
            Technique::XWing | Technique::Swordfish | Technique::Jellyfish => write!(
                text,
                "{digits} is confined to {cells} across {units}, so it goes nowhere else in the crossing lines"
            ),
            Technique::Skyscraper | Technique::TwoStringKite | Technique::TurbotFish => write!(
                text,
                "{digits} is in one end or the other of the chain of strong links {}, whose ends \
                 are {}, so no cell seeing both ends holds it",
                reasoning::eureka(&self.links),
                chain_ends(&self.links)
            ),
            Technique::GroupedSkyscraper
            | Technique::GroupedTwoStringKite
            | Technique::GroupedTurbotFish => write!(
                text,
                "{digits} is in one end or the other of the chain of strong links {} across \
                 {units}, some ends being groups of cells; its ends are {}, so no cell seeing \
                 every cell of both ends holds it",
                reasoning::eureka(&self.links),
                chain_ends(&self.links)
            ),
            Technique::XYWing | Technique::XYZWing => {
                let wings = self
                    .pattern
                    .iter()
                    .copied()
                    .filter(|m| m.cell != self.pattern[0].cell)
                    .collect::<Vec<_>>();
                let holder = match self.technique {
                    Technique::XYWing => "one of the wings",
                    _ => "the pivot or one of the wings",
                };
                write!(
                    text,
                    "whichever digit the pivot {} takes, {holder} {} holds {digits}: {}",
                    cell_list(&self.pattern[..1]),
                    cell_list(&wings),
                    reasoning::eureka(&self.links)
                )
            }
            Technique::WxyzWing
            | Technique::VwxyzWing
            | Technique::UvwxyzWing
            | Technique::TuvwxyzWing => {
                let pair = self.pattern.last().map_or(0, |m| m.cell);
                let (set, rest): (Vec<Mark>, Vec<Mark>) =
                    self.pattern.iter().partition(|m| m.cell != pair);
                write!(
                    text,
                    "{} hold one digit more than they have cells, and {} holds two of those \
                     digits; whichever it takes, {digits} ends up in it or in the set ({}), so no \
                     cell seeing all of those places holds {digits}",
                    cell_list(&set),
                    cell_list(&rest),
                    reasoning::eureka(&self.links)
                )
            }
            Technique::UniqueRectangle1
            | Technique::UniqueRectangle2
            | Technique::UniqueRectangle3
            | Technique::UniqueRectangle4
            | Technique::UniqueLoop1
            | Technique::UniqueLoop2
            | Technique::UniqueLoop4 => write!(
                text,
                "{cells} would form a deadly pattern on {digits} (two solutions), which a puzzle with one solution cannot have"
            ),
            Technique::Bug1 => write!(
                text,
                "without {digits} in {cells} every blank cell would have two candidates and every \
                 digit two places in each unit, a deadly pattern with two solutions, so {cells} \
                 holds {digits}"
            ),
            Technique::Bug2 | Technique::Bug3 | Technique::Bug4 => write!(
                text,
                "without their extra candidates {cells} would leave a deadly pattern with two \
                 solutions (every blank cell with two candidates, every digit with two places \
                 in each unit), so one of those extras is true"
            ),
            Technique::XChain | Technique::XYChain | Technique::Aic => write!(
                text,
                "in the chain {}, one of the ends {} is true, so each crossed-out candidate, \
                 which sees both, is false",
                reasoning::eureka(&self.links),
                chain_ends(&self.links)
            ),
            Technique::AlignedPairExclusion => write!(
                text,
                "{} cannot take two digits that would leave one of the two-candidate cells \
                 {} they both see with nothing, nor one digit twice if they see each other",
                cell_list(&self.pattern[..2]),
                cell_list(&self.pattern[2..])
            ),
            Technique::AlignedTripleExclusion => write!(
                text,
                "{} cannot take three digits that would leave one of the cells {} they all \
                 see with nothing, nor one digit twice in cells that see each other",
                cell_list(&self.pattern[..3]),
                cell_list(&self.pattern[3..])
            ),
            Technique::XCycle | Technique::YCycle | Technique::XYCycle => write!(
                text,
                "the loop {} of alternating links holds one way round or the other, and either \
                 way no cell outside it that sees both kinds of end holds their digit",
                reasoning::eureka(&self.links)
            ),
            Technique::ForcingXChain | Technique::ForcingChain => write!(
                text,
                "assuming the opposite of the result, {}, the chain {} leads to the result itself",
                self.links
                    .first()
                    .map(|l| reasoning::state(l.source, l.source_on))
                    .unwrap_or_default(),
                reasoning::eureka(&self.links)
            ),
            Technique::ContradictionForcingChain => write!(
                text,
                "assuming the opposite of the result for {} leads to a contradiction",
                cell_list(&self.pattern)
            ),
            Technique::DoubleForcingChain => write!(
                text,
                "{} holding {digits} and {} not holding it both lead to the result",
                cell_list(&self.pattern),
                cell_list(&self.pattern)
            ),
            Technique::NishioForcingChain => write!(
                text,
                "following only the places of {digits}, assuming the opposite of the result \
                 leads to a contradiction"
            ),
            Technique::CellForcingChain
            | Technique::UnitForcingChain
            | Technique::StaticCellForcingChain
            | Technique::StaticUnitForcingChain => write!(
                text,
                "every candidate of {} leads to the same result",
                if units.is_empty() {
                    cells.clone()
                } else {
                    units.clone()
                }
            ),
            Technique::DynamicForcingChainPlus
            | Technique::NestedForcingChain
            | Technique::NestedMultipleForcingChain
            | Technique::NestedDynamicForcingChain => write!(
                text,
                "every case assumed at {}, followed with the simpler techniques{} as links, \
                 leads to the result",
                if units.is_empty() {
                    cells.clone()
                } else {
                    units.clone()
                },
                match self.technique {
                    Technique::DynamicForcingChainPlus => "",
                    Technique::NestedForcingChain => " and forcing chains",
                    Technique::NestedMultipleForcingChain => " and forcing chains of every kind",
                    _ => " and dynamic forcing chains",
                }
            ),
        };
        text.push_str(&self.direct_sentence());
        text.push_str(&self.outcome_sentence());
        text.push_str(&reasoning::branches_text(&self.branches));
        text
    }

    /// A hidden single's other places: ", since the 8 at r5c4 rules out
    /// its other blank cells", naming those crossed out earlier apart.
    fn why_other_places_are_empty(&self) -> String {
        let lost = cell_list(&self.lost_earlier);
        let earlier = match self.placements.first() {
            Some(placed) => format!("{lost} lost {} earlier", placed.digit),
            None => String::new(),
        };
        match (self.witnesses.is_empty(), self.lost_earlier.is_empty()) {
            (true, true) => String::new(),
            (false, true) => format!(
                ", since {} rule{} out its other blank cells",
                witness_list(&self.witnesses),
                if self.witnesses.len() == 1 { "s" } else { "" }
            ),
            (false, false) => format!(
                ", since {} rule{} out some of its other blank cells and {earlier}",
                witness_list(&self.witnesses),
                if self.witnesses.len() == 1 { "s" } else { "" }
            ),
            (true, false) => format!(", since its other blank cells {earlier}"),
        }
    }

    /// A naked single's other digits: ", since it sees the 1 at r5c9, ...",
    /// naming those crossed out earlier apart.
    fn why_other_digits_are_gone(&self) -> String {
        let digits = self
            .lost_earlier
            .iter()
            .fold(0, |mask, m| mask | super::bits::bit(m.digit));
        let earlier = format!("lost {} earlier", digit_list(digits));
        match (self.witnesses.is_empty(), self.lost_earlier.is_empty()) {
            (true, true) => String::new(),
            (false, true) => format!(", since it sees {}", witness_list(&self.witnesses)),
            (false, false) => format!(
                ", since it sees {} and {earlier}",
                witness_list(&self.witnesses)
            ),
            (true, false) => format!(", since it {earlier}"),
        }
    }

    /// For a direct technique, the single its eliminations leave.
    fn direct_sentence(&self) -> String {
        use Technique::*;
        let direct = matches!(
            self.technique,
            DirectPointing | DirectClaiming | DirectHiddenPair | DirectHiddenTriple
        );
        match (direct, self.placements.first()) {
            (true, Some(placed)) => format!(
                "; that leaves {} one place in its unit, {}",
                placed.digit,
                placed.cell()
            ),
            _ => String::new(),
        }
    }

    fn outcome_sentence(&self) -> String {
        let mut text = String::new();
        if !self.placements.is_empty() {
            let _ = write!(text, "; place {}", effect_list(&self.placements, "in"));
        }
        if !self.eliminations.is_empty() {
            let _ = write!(text, "; remove {}", effect_list(&self.eliminations, "from"));
        }
        text.push('.');
        text
    }
}

/// Keeps the lower-rated of `best` and `step`, the earlier one among
/// equals: how the searches that try every start pick their step.
pub fn keep_lowest(best: &mut Option<Step>, step: Step) {
    if best.as_ref().is_none_or(|b| step.rating < b.rating) {
        *best = Some(step);
    }
}

/// "3, 5 and 7".
fn digit_list(mask: u16) -> String {
    let names = digits(mask).map(|d| d.to_string()).collect::<Vec<_>>();
    join_words(&names)
}

/// "r1c2, r1c5 and r3c4", each cell once, in the pattern's order.
fn cell_list(marks: &[Mark]) -> String {
    let mut seen = Vec::new();
    for mark in marks {
        if !seen.contains(&mark.cell) {
            seen.push(mark.cell);
        }
    }
    let names = seen
        .iter()
        .map(|&cell| Mark::new(usize::from(cell), 0).cell().to_string())
        .collect::<Vec<_>>();
    join_words(&names)
}

/// "the 8 at r1c5 and the 3 at r2c7".
fn witness_list(marks: &[Mark]) -> String {
    let names = marks
        .iter()
        .map(|mark| format!("the {} at {}", mark.digit, mark.cell()))
        .collect::<Vec<_>>();
    join_words(&names)
}

/// "(7)r9c3 and (7)r6c1": the first link's source and the last link's
/// target.
fn chain_ends(links: &[Link]) -> String {
    match (links.first(), links.last()) {
        (Some(first), Some(last)) => format!(
            "{} and {}",
            reasoning::end_name(first.source, first.source_group),
            reasoning::end_name(last.target, last.target_group)
        ),
        _ => String::new(),
    }
}

/// "5 from r1c2 and 7 from r3c3" (or "5 in r1c2" with `in`).
fn effect_list(marks: &[Mark], preposition: &str) -> String {
    let names = marks
        .iter()
        .map(|mark| format!("{} {preposition} {}", mark.digit, mark.cell()))
        .collect::<Vec<_>>();
    join_words(&names)
}

fn join_words(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
