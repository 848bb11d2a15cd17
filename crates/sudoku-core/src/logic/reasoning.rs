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

use std::collections::HashSet;

use super::bits::{Cells, PEERS, UNITS, digits};
use super::grid::Grid;
use super::step::{Mark, Step};
use super::technique::Technique;

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
