//! The shape of a step's reasoning, for a player or a client to draw:
//! the links of its chains and patterns, the branches of its forcing
//! chains, and the placed digits that witness its singles.
//!
//! A [`Step`] carries its links and branches from the finder that made
//! it, since only the finder knows the chain it followed. Witnesses are
//! worked out afterwards from the grid before the step ([`witnesses`]):
//! they cost a scan of peers, which grading a million puzzles has no use
//! for. The Eureka notation players know (`(7)r9c3=(7)r9c1-(7)r6c1`) is
//! written from the links when an explanation is asked for.

use super::bits::{Cells, PEERS, UNITS, digits};
use super::grid::Grid;
use super::step::{Branch, Link, LinkKind, Mark, Step};
use super::technique::Technique;
/// The simpler techniques a nested forcing chain's inference links may
/// rest on, by name.
pub const INFERENCE_RULES: [&str; 7] = [
    "Locked Candidates",
    "Hidden Pair",
    "Naked Pair",
    "X-Wing",
    "Forcing Chains",
    "Multiple Forcing Chains",
    "Dynamic Forcing Chains",
];

impl Step {
    /// The step with its witnesses worked out from `before`, the grid it
    /// was found on: what a hint or an explanation shows, and grading
    /// skips.
    pub fn with_witnesses(mut self, before: &Grid) -> Step {
        let found = witnesses(&self, before);
        self.witnesses = found.witnesses;
        self.lost_earlier = found.lost_earlier;
        self
    }
}

/// "(7)r9c3 and (7)r6c1": the first link's source and the last link's
/// target.
pub(super) fn chain_ends(links: &[Link]) -> String {
    match (links.first(), links.last()) {
        (Some(first), Some(last)) => format!(
            "{} and {}",
            end_name(first.source, first.source_group),
            end_name(last.target, last.target_group)
        ),
        _ => String::new(),
    }
}

/// A linear chain in Eureka notation: `(7)r9c3=(7)r9c1-(7)r6c1`, `=` for
/// a strong link, `-` for a weak one and `->` for an inference. Links
/// that do not continue from the previous target start a new segment
/// after "; ".
pub fn eureka(links: &[Link]) -> String {
    segments(links, "; ")
}

/// The links in Eureka notation, a new segment after `separator` where a
/// link does not continue from the previous one's target.
fn segments(links: &[Link], separator: &str) -> String {
    let mut text = String::new();
    let mut at: Option<(Mark, bool)> = None;
    for link in links {
        if at != Some((link.source, link.source_on)) {
            if at.is_some() {
                text.push_str(separator);
            }
            text.push_str(&end_name(link.source, link.source_group));
        }
        text.push_str(match link.kind {
            LinkKind::Strong => "=",
            LinkKind::Weak => "-",
            LinkKind::Inference => "->",
        });
        text.push_str(&end_name(link.target, link.target_group));
        at = Some((link.target, link.target_on));
    }
    text
}

/// A candidate, or a group of cells of one digit, as Eureka writes it:
/// `(7)r9c3`, `(7)r9c13` for r9c1 and r9c3, `(7)r12c3` for r1c3 and r2c3.
pub fn end_name(mark: Mark, group: Cells) -> String {
    if group.len() < 2 {
        return format!("({}){}", mark.digit, mark.cell());
    }
    let rows: Vec<usize> = group.iter().map(|c| c / 9 + 1).collect();
    let columns: Vec<usize> = group.iter().map(|c| c % 9 + 1).collect();
    let list = |numbers: &[usize]| {
        let mut numbers = numbers.to_vec();
        numbers.dedup();
        numbers.iter().map(usize::to_string).collect::<String>()
    };
    let cells = if rows.iter().all(|&r| r == rows[0]) || columns.iter().all(|&c| c == columns[0]) {
        let mut sorted_columns = columns.clone();
        sorted_columns.sort_unstable();
        format!("r{}c{}", list(&rows), list(&sorted_columns))
    } else {
        group
            .iter()
            .map(|c| Mark::new(c, 0).cell().to_string())
            .collect::<Vec<_>>()
            .join("|")
    };
    format!("({}){cells}", mark.digit)
}

/// The branches of a forcing chain, one clause each: the assumption, its
/// links in Eureka notation, and where it ends.
pub fn branches_text(branches: &[Branch]) -> String {
    let mut text = String::new();
    for branch in branches {
        text.push_str(&format!(
            " If {}: ",
            state(branch.assumption, branch.assumed_on)
        ));
        text.push_str(&segments(&branch.links, ", "));
        if !branch.techniques.is_empty() {
            text.push_str(&format!(" (with {})", branch.techniques.join(", ")));
        }
        let end = match branch.contradiction {
            true => format!(
                "; so {} both holds {} and does not, a contradiction.",
                branch.result.cell(),
                branch.result.digit
            ),
            false => format!("; so {}.", state(branch.result, branch.result_on)),
        };
        text.push_str(&end);
    }
    text
}

/// A candidate with its state in a forcing chain: `r9c3=7` when on,
/// `r9c3<>7` when off.
pub fn state(mark: Mark, on: bool) -> String {
    format!(
        "{}{}{}",
        mark.cell(),
        if on { "=" } else { "<>" },
        mark.digit
    )
}

/// What rules out the places a single relies on being empty, on `grid`
/// (the grid before the single): the placed digits that do (for a
/// hidden single, one for each other blank cell of its unit that the
/// digit cannot take; for a naked single, one for each other digit the
/// cell cannot take), and the places no placed digit rules out, which an
/// earlier step or the player crossed out. Other techniques have none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Witnessed {
    /// The placed digits.
    pub witnesses: Vec<Mark>,
    /// The places crossed out earlier, with no placed digit behind them.
    pub lost_earlier: Vec<Mark>,
}

/// The witnesses of `step` on `grid`, the grid it was found on.
pub fn witnesses(step: &Step, grid: &Grid) -> Witnessed {
    let mut found = Witnessed::default();
    let Some(&target) = step.placements.first() else {
        return found;
    };
    let cell = usize::from(target.cell);
    match step.technique {
        Technique::HiddenSingleBox | Technique::HiddenSingleLine => {
            for &unit in &step.units {
                for other in UNITS[unit].and(grid.blanks()).iter() {
                    if other != cell {
                        found.witness(grid, other, target.digit);
                    }
                }
            }
        }
        Technique::NakedSingle => {
            for digit in digits(0x1ff & !super::bits::bit(target.digit)) {
                found.witness(grid, cell, digit);
            }
        }
        _ => {}
    }
    found
}

impl Witnessed {
    /// Notes what rules out `digit` in `cell`: the first placed `digit`
    /// it sees (unless one already listed sees it), or, with none, that
    /// it was crossed out earlier.
    fn witness(&mut self, grid: &Grid, cell: usize, digit: u8) {
        let seen = PEERS[cell].and(grid.placed(digit));
        if seen
            .iter()
            .any(|c| self.witnesses.contains(&Mark::new(c, digit)))
        {
            return;
        }
        match seen.first() {
            Some(witness) => self.witnesses.push(Mark::new(witness, digit)),
            None => self.lost_earlier.push(Mark::new(cell, digit)),
        }
    }
}
