//! One logical step: the technique, the pattern it found, and what it
//! changes on the grid.
//!
//! A step is data, not prose: the cells and digits of its pattern, its
//! placements and its eliminations. The one-sentence explanation a player
//! reads is written from that data only when someone asks for it, so that
//! grading a million puzzles formats no text.
//!
//! Each finder's file explains its own steps (its `explain`, which the
//! ladder names beside the finder). This module works out the words those
//! explanations share (`Words`: the step's digits, units and cells, and
//! helpers such as `cell_list`), and ends every explanation the same way:
//! the single a direct technique leaves, the placements and eliminations,
//! and a forcing chain's branches.

use std::fmt::Write;

use super::bits::{digits, unit_name};
use super::grid::Grid;
use super::reasoning::{self, Branch, Link};
use super::technique::{Rating, Technique};
use crate::Cell;

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
    pub fn unit_names(&self) -> Vec<crate::Unit> {
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

    /// One sentence a player understands, in r1c1 terms: the family's
    /// own explanation (from its finder's file, through the ladder), then
    /// the single a direct technique leaves, the outcome and any branches.
    pub fn explanation(&self) -> String {
        let mut text = String::new();
        let words = Words::of(self);
        (super::ladder::explainer(self.technique))(self, &words, &mut text);
        text.push_str(&self.direct_sentence());
        text.push_str(&self.outcome_sentence());
        text.push_str(&reasoning::branches_text(&self.branches));
        text
    }

    /// A hidden single's other places: ", since the 8 at r5c4 rules out
    /// its other blank cells", naming those crossed out earlier apart.
    pub(super) fn why_other_places_are_empty(&self) -> String {
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
    pub(super) fn why_other_digits_are_gone(&self) -> String {
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

/// The words an explanation is built from, worked out once per step.
pub(super) struct Words {
    /// The step's digits, e.g. "4" or "4 and 7".
    pub digits: String,
    /// Its units by name, joined with " and ", e.g. "row 3 and box 1".
    pub units: String,
    /// Its pattern's cells, each once, e.g. "r1c2, r1c5 and r3c4".
    pub cells: String,
}

impl Words {
    /// The words of `step`.
    pub(super) fn of(step: &Step) -> Words {
        Words {
            digits: digit_list(step.digits),
            units: step
                .units
                .iter()
                .map(|&unit| unit_name(unit).to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            cells: cell_list(&step.pattern),
        }
    }
}

/// A family's explanation of one of its steps, written into `text`.
pub(super) type Explain = fn(&Step, &Words, &mut String);

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
pub(super) fn cell_list(marks: &[Mark]) -> String {
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
pub(super) fn chain_ends(links: &[Link]) -> String {
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
