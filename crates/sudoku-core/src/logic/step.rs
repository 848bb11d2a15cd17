//! One logical step: the technique, the pattern it found, and what it
//! changes on the grid.
//!
//! A step is data, not prose: the cells and digits of its pattern, the
//! links of its chains and the branches of its forcing chains, its
//! placements and its eliminations. The one-sentence explanation a player
//! reads is written from that data only when someone asks for it
//! ([`super::words`] and the ladder), so that grading a million puzzles
//! formats no text. This file is the bottom of the logical solver's
//! files: it imports none of the others but the grid and its bit sets.

use std::collections::HashSet;

use super::bits::{Cells, unit_name};
use super::grid::Grid;
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
}

/// Keeps the lower-rated of `best` and `step`, the earlier one among
/// equals: how the searches that try every start pick their step.
pub fn keep_lowest(best: &mut Option<Step>, step: Step) {
    if best.as_ref().is_none_or(|b| step.rating < b.rating) {
        *best = Some(step);
    }
}

/// What a link between two candidates says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinkKind {
    /// At least one of the two is true: "if the source is off, the target
    /// is on".
    Strong,
    /// At most one of the two is true: "if the source is on, the target is
    /// off".
    Weak,
    /// A simpler technique's inference on a forcing chain's working grid.
    Inference,
}

/// A link from one candidate to another, read in one direction: from the
/// source being on or off follows the target being on or off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Link {
    /// The candidate the link reads from.
    pub source: Mark,
    /// The candidate it reaches.
    pub target: Mark,
    /// Strong, weak, or an inference.
    pub kind: LinkKind,
    /// The source's state the link reads from.
    pub source_on: bool,
    /// The target's state it gives.
    pub target_on: bool,
    /// When the source is a group of cells (a grouped strong link's end),
    /// all of them; empty for one cell.
    pub(super) source_group: Cells,
    /// The same for the target.
    pub(super) target_group: Cells,
}

impl Link {
    /// A link of `kind` read from `source` in one state to `target` in
    /// another.
    pub fn between(
        source: Mark,
        target: Mark,
        kind: LinkKind,
        source_on: bool,
        target_on: bool,
    ) -> Link {
        Link {
            kind,
            ..implication(source, source_on, target, target_on)
        }
    }

    /// The link between two groups of cells of one digit, as a client
    /// reads it back: `source` and `target` name each end, and the groups
    /// (empty for one cell) list all of its cells.
    pub fn with_groups(mut self, source: &[Mark], target: &[Mark]) -> Link {
        let cells = |marks: &[Mark]| marks.iter().map(|m| usize::from(m.cell)).collect();
        self.source_group = cells(source);
        self.target_group = cells(target);
        self
    }

    /// The cells of a grouped source, as candidates of its digit; empty
    /// for one cell.
    pub fn source_group(&self) -> Vec<Mark> {
        group_marks(self.source_group, self.source.digit)
    }

    /// The cells of a grouped target, likewise.
    pub fn target_group(&self) -> Vec<Mark> {
        group_marks(self.target_group, self.target.digit)
    }

    /// A strong link read "source off, so target on".
    pub fn strong(source: Mark, target: Mark) -> Link {
        implication(source, false, target, true)
    }

    /// A weak link read "source on, so target off".
    pub fn weak(source: Mark, target: Mark) -> Link {
        implication(source, true, target, false)
    }

    /// Whether the link is read the way its kind reads: a strong link
    /// from off to on, a weak one from on to off (an inference either
    /// way).
    pub fn reads_as_its_kind(&self) -> bool {
        match self.kind {
            LinkKind::Strong => !self.source_on && self.target_on,
            LinkKind::Weak => self.source_on && !self.target_on,
            LinkKind::Inference => true,
        }
    }
}

/// The cells of a group as candidates of `digit`.
fn group_marks(cells: Cells, digit: u8) -> Vec<Mark> {
    cells.iter().map(|cell| Mark::new(cell, digit)).collect()
}

/// One branch of a forcing chain: an assumption and what it implies, up
/// to a contradiction or to the result the branches share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The candidate assumed.
    pub assumption: Mark,
    /// Assumed on (placed) or off (crossed out).
    pub assumed_on: bool,
    /// What it implies, each link's source reached before the link.
    pub links: Vec<Link>,
    /// The candidate the branch ends on.
    pub result: Mark,
    /// The state it forces the result into (with a contradiction, the
    /// state of the last link to reach it; the other is reached too).
    pub result_on: bool,
    /// The branch forces its result both on and off.
    pub contradiction: bool,
    /// The simpler techniques behind its inference links, by name.
    pub techniques: Vec<&'static str>,
}

/// The link by which `source` in one state gives `target` in another:
/// strong from off to on, weak from on to off, otherwise an inference.
pub fn implication(source: Mark, source_on: bool, target: Mark, target_on: bool) -> Link {
    let kind = match (source_on, target_on) {
        (false, true) => LinkKind::Strong,
        (true, false) => LinkKind::Weak,
        _ => LinkKind::Inference,
    };
    Link {
        source,
        target,
        kind,
        source_on,
        target_on,
        source_group: Cells::EMPTY,
        target_group: Cells::EMPTY,
    }
}

/// A link between two ends of `digit` that may be groups of cells: each
/// end is named by its first cell, and a group of more than one cell is
/// kept whole.
pub fn grouped(kind: LinkKind, digit: u8, source: Cells, target: Cells) -> Link {
    let first = |cells: Cells| Mark::new(cells.first().unwrap_or(0), digit);
    let group = |cells: Cells| if cells.len() > 1 { cells } else { Cells::EMPTY };
    let mut link = match kind {
        LinkKind::Weak => Link::weak(first(source), first(target)),
        _ => Link::strong(first(source), first(target)),
    };
    link.source_group = group(source);
    link.target_group = group(target);
    link
}

impl Branch {
    /// What breaks the branch's shape, read without a grid: a link whose
    /// source the branch has not reached before it, a result it does not
    /// reach (both ways for a contradiction), or inference links with no
    /// technique named. `None` when it holds together.
    pub fn shape_fault(&self) -> Option<String> {
        let mut reached = HashSet::from([(self.assumption, self.assumed_on)]);
        for link in &self.links {
            if !reached.contains(&(link.source, link.source_on)) {
                return Some(format!(
                    "a branch link from {} before the branch reaches it",
                    link.source.cell()
                ));
            }
            reached.insert((link.target, link.target_on));
        }
        let ends = match self.contradiction {
            true => {
                reached.contains(&(self.result, true)) && reached.contains(&(self.result, false))
            }
            false => reached.contains(&(self.result, self.result_on)),
        };
        if !ends {
            return Some("a branch that does not reach its result".into());
        }
        let inferences = self.links.iter().any(|l| l.kind == LinkKind::Inference);
        (inferences && self.techniques.is_empty())
            .then(|| "a branch with inference links that names no technique".into())
    }
}

/// The links of an alternating chain through `nodes`, the first strong
/// (`nodes[0]` off, so `nodes[1]` on), then weak, and so on.
pub fn alternating(nodes: &[Mark]) -> Vec<Link> {
    nodes
        .windows(2)
        .enumerate()
        .map(|(at, pair)| match at % 2 {
            0 => Link::strong(pair[0], pair[1]),
            _ => Link::weak(pair[0], pair[1]),
        })
        .collect()
}
