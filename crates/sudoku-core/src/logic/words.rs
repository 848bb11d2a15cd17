//! The words explanations are written in: a step's digits, units and
//! cells (`Words`), lists of cells and effects, and the sentences every
//! explanation ends with.
//!
//! Each finder's file explains its own steps (its `explain`, which the
//! ladder names beside the finder); this module works out the words those
//! explanations share, and ends every explanation the same way: the single
//! a direct technique leaves, then the placements and eliminations. The
//! ladder puts the two together ([`Step::explanation`]).

use std::fmt::Write;

use super::bits::{digits, unit_name};
use super::step::{Mark, Step};
use super::technique::Technique;

impl Step {
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
    pub(super) fn direct_sentence(&self) -> String {
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

    pub(super) fn outcome_sentence(&self) -> String {
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
