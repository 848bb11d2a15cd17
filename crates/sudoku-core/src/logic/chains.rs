//! Alternating inference chains: X-Chains, XY-Chains and their mixture.
//!
//! A chain alternates strong links (of two candidates, at least one is
//! true: the two places of a digit in a unit, the two digits of a cell)
//! and weak links (at most one is true: two places of a digit that see
//! each other, two digits of a cell). Reading it from one end, "if the
//! first candidate is false, the last is true", so one of the two ends is
//! true and any candidate that sees both ends is false.
//!
//! The finder runs a breadth-first search from every candidate over the
//! states "candidate is false" and "candidate is true", so each chain it
//! finds is the shortest from its start, and it keeps the lowest-rated
//! chain over all starts, as Sudoku Explainer does. Chains on one digit
//! with three or four strong links are rated as Sukaku Explainer's
//! "strong links" patterns; longer ones by length.

use std::fmt::Write;

use super::bits::{PEERS, UNITS, UnitKind, bit, digits, unit_kind, units_of};
use super::grid::Grid;
use super::reasoning;
use super::reasoning::chain_ends;
use super::step::{Mark, Step, alternating, keep_lowest};
use super::technique::{Rating, Technique, length_bonus};
use super::words::Words;

/// The longest chain searched for, in candidates.
const MAX_NODES: usize = 24;

/// A candidate as a node: `cell * 9 + digit - 1`.
type Node = usize;

fn node(cell: usize, digit: u8) -> Node {
    cell * 9 + usize::from(digit) - 1
}

fn cell_of(node: Node) -> usize {
    node / 9
}

fn digit_of(node: Node) -> u8 {
    (node % 9) as u8 + 1
}

/// Which links a search may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    /// Links on one digit only: X-Chains.
    OneDigit,
    /// The two digits of bivalue cells, and one digit between cells:
    /// XY-Chains.
    Bivalue,
    /// Every kind of link.
    All,
}

/// What kind of strong link joins two candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strong {
    /// The two digits of a bivalue cell.
    Cell,
    /// The two places of a digit in a unit.
    Unit(usize),
}

/// The lowest-rated chain of one kind (X-Chain, XY-Chain or AIC).
pub fn chain_of(grid: &Grid, technique: Technique) -> Option<Step> {
    let links = match technique {
        Technique::XChain => Links::OneDigit,
        Technique::XYChain => Links::Bivalue,
        _ => Links::All,
    };
    let accept = |step: &Step| step.technique == technique;
    best_chain(grid, links, MAX_NODES, &accept, &|| false)
}

/// The lowest-rated chain of one kind that makes `effect`: places it with
/// `placement`, else crosses it out. For checking the finder against
/// reference chains, where one chain is named among many that make the
/// same eliminations.
pub fn chain_making(
    grid: &Grid,
    technique: Technique,
    effect: Mark,
    placement: bool,
) -> Option<Step> {
    let links = match technique {
        Technique::XChain => Links::OneDigit,
        Technique::XYChain => Links::Bivalue,
        _ => Links::All,
    };
    let accept = |step: &Step| {
        let made = if placement {
            &step.placements
        } else {
            &step.eliminations
        };
        step.technique == technique && made.contains(&effect)
    };
    best_chain(grid, links, MAX_NODES, &accept, &|| false)
}

/// The lowest-rated chain of at most `max_nodes` candidates that
/// `accept` takes, the earliest start first among equals.
fn best_chain(
    grid: &Grid,
    links: Links,
    max_nodes: usize,
    accept: &dyn Fn(&Step) -> bool,
    should_stop: &dyn Fn() -> bool,
) -> Option<Step> {
    let mut best: Option<Step> = None;
    let mut search = Search::new(grid, links);
    for start in search.starts() {
        if should_stop() {
            break;
        }
        for step in search.chains_from(start, max_nodes) {
            if accept(&step) {
                keep_lowest(&mut best, step);
            }
        }
    }
    // Only the chain kept gets its links: the pattern holds its nodes in
    // order, the first link strong.
    best.map(|mut step| {
        step.links = alternating(&step.pattern);
        step
    })
}

/// Breadth-first search state, reused from start to start.
struct Search<'g> {
    grid: &'g Grid,
    links: Links,
    /// For each state `node * 2 + on`, the state it was reached from.
    parent: Vec<u16>,
    /// Depth of each state in the current search, 0 when unvisited.
    depth: Vec<u8>,
    /// Strong links of each candidate, and the kind of each, worked out
    /// once per grid.
    strong: Vec<Vec<(Node, Strong)>>,
    /// Weak links of each candidate, worked out once per grid.
    weak: Vec<Vec<Node>>,
}

const NONE: u16 = u16::MAX;

impl<'g> Search<'g> {
    fn new(grid: &'g Grid, links: Links) -> Search<'g> {
        let mut search = Search {
            grid,
            links,
            parent: vec![NONE; 729 * 2],
            depth: vec![0; 729 * 2],
            strong: vec![Vec::new(); 729],
            weak: vec![Vec::new(); 729],
        };
        for cell in grid.blanks().iter() {
            for digit in digits(grid.marks(cell)) {
                let at = node(cell, digit);
                search.strong[at] = search.strong_links(at);
                search.weak[at] = search.weak_links(at);
            }
        }
        search
    }

    /// Candidates with at least one strong link, in cell then digit order.
    fn starts(&self) -> Vec<Node> {
        (0..729).filter(|&at| !self.strong[at].is_empty()).collect()
    }

    /// The strong links of a candidate: its cell's other digit when the
    /// cell is bivalue, and its digit's other place in each unit (box,
    /// row, column) where the digit has two; a partner linked twice is
    /// listed once, by its first unit.
    fn strong_links(&self, from: Node) -> Vec<(Node, Strong)> {
        let (cell, digit) = (cell_of(from), digit_of(from));
        let mut found = Vec::new();
        let marks = self.grid.marks(cell);
        if self.links != Links::OneDigit && marks.count_ones() == 2 {
            let other = digits(marks & !bit(digit)).next().expect("two digits");
            found.push((node(cell, other), Strong::Cell));
        }
        if self.links == Links::Bivalue {
            return found;
        }
        for unit in units_of(cell) {
            let places = self.grid.cells_with(digit).and(UNITS[unit]);
            if places.len() == 2 {
                let other = places.iter().find(|&c| c != cell).expect("two places");
                if !found.iter().any(|&(n, _)| n == node(other, digit)) {
                    found.push((node(other, digit), Strong::Unit(unit)));
                }
            }
        }
        found
    }

    fn weak_links(&self, from: Node) -> Vec<Node> {
        let (cell, digit) = (cell_of(from), digit_of(from));
        let mut found: Vec<Node> = self
            .grid
            .cells_with(digit)
            .and(PEERS[cell])
            .iter()
            .map(|peer| node(peer, digit))
            .collect();
        if self.links == Links::All {
            found.extend(digits(self.grid.marks(cell) & !bit(digit)).map(|d| node(cell, d)));
        }
        found
    }

    /// Every chain from `start` (assumed false) to a candidate it makes
    /// true, shortest first, that eliminates or places something.
    fn chains_from(&mut self, start: Node, max_nodes: usize) -> Vec<Step> {
        self.parent.fill(NONE);
        self.depth.fill(0);
        let mut found = Vec::new();
        let mut queue = std::collections::VecDeque::new();
        let origin = start * 2;
        self.depth[origin] = 1;
        queue.push_back(origin);
        while let Some(state) = queue.pop_front() {
            let depth = self.depth[state];
            if usize::from(depth) >= max_nodes {
                continue;
            }
            let (at, on) = (state / 2, state % 2 == 1);
            // From a false candidate the strong links lead on, from a true
            // one the weak links.
            let (weak, strong): (&[Node], &[(Node, Strong)]) = if on {
                (&self.weak[at], &[])
            } else {
                (&[], &self.strong[at])
            };
            for to in weak.iter().copied().chain(strong.iter().map(|&(n, _)| n)) {
                let reached = to * 2 + usize::from(!on);
                if self.depth[reached] != 0 {
                    continue;
                }
                self.depth[reached] = depth + 1;
                self.parent[reached] = state as u16;
                queue.push_back(reached);
                if !on && let Some(chain) = self.chain_to(start, reached) {
                    found.push(chain);
                }
            }
        }
        found
    }

    fn chain_to(&self, start: Node, end_state: usize) -> Option<Step> {
        let end = end_state / 2;
        let (effects, placement) = conclusions(self.grid, start, end);
        if effects.is_empty() && !placement {
            return None;
        }
        let mut nodes = vec![end];
        let mut state = end_state;
        while self.parent[state] != NONE {
            state = usize::from(self.parent[state]);
            nodes.push(state / 2);
        }
        nodes.reverse();
        let strong: Vec<Strong> = nodes
            .chunks(2)
            .map(|pair| self.strong_kind(pair[0], pair[1]))
            .collect();
        let technique = technique_of(&nodes, &strong);
        let mut step = Step::new(technique);
        step.rating = rating_of(technique, &strong, nodes.len());
        step.pattern = nodes
            .iter()
            .map(|&n| Mark::new(cell_of(n), digit_of(n)))
            .collect();
        if placement {
            step.placements
                .push(Mark::new(cell_of(start), digit_of(start)));
        } else {
            step.eliminations = effects;
        }
        step.digits = nodes.iter().fold(0, |m, &n| m | bit(digit_of(n)));
        Some(step)
    }

    /// The kind of the strong link the search took from `a` to `b`.
    fn strong_kind(&self, a: Node, b: Node) -> Strong {
        self.strong[a]
            .iter()
            .find(|&&(n, _)| n == b)
            .map(|&(_, kind)| kind)
            .expect("a chain's strong links come from the table")
    }
}

/// What "`start` or `end` is true" proves: the candidates weakly linked
/// to both, or (when the two are one candidate) that it is true.
fn conclusions(grid: &Grid, start: Node, end: Node) -> (Vec<Mark>, bool) {
    if start == end {
        return (Vec::new(), true);
    }
    let (c1, d1, c2, d2) = (cell_of(start), digit_of(start), cell_of(end), digit_of(end));
    let mut marks = Vec::new();
    if d1 == d2 {
        for cell in grid.cells_with(d1).and(PEERS[c1]).and(PEERS[c2]).iter() {
            marks.push(Mark::new(cell, d1));
        }
    } else if c1 == c2 {
        for digit in digits(grid.marks(c1) & !bit(d1) & !bit(d2)) {
            marks.push(Mark::new(c1, digit));
        }
    } else if PEERS[c1].has(c2) {
        if grid.has(c1, d2) {
            marks.push(Mark::new(c1, d2));
        }
        if grid.has(c2, d1) {
            marks.push(Mark::new(c2, d1));
        }
    }
    (marks, false)
}

fn technique_of(nodes: &[Node], strong: &[Strong]) -> Technique {
    let one_digit = nodes.iter().all(|&n| digit_of(n) == digit_of(nodes[0]));
    if one_digit {
        Technique::XChain
    } else if strong.iter().all(|s| *s == Strong::Cell) {
        Technique::XYChain
    } else {
        Technique::Aic
    }
}

/// Sukaku Explainer's ratings: one-digit chains of 3 or 4 strong links
/// rate 5.4 or 5.8, plus a tenth when a link lies in a box or the lines
/// cross, two when both; other chains rate 6.6 (one digit) or 7.0, plus
/// their length bonus over the chain and its two ends.
fn rating_of(technique: Technique, strong: &[Strong], nodes: usize) -> Rating {
    if technique != Technique::XChain {
        return Rating(70 + length_bonus(nodes + 2));
    }
    let base = match strong.len() {
        2 => 40,
        3 => 54,
        4 => 58,
        _ => return Rating(66 + length_bonus(nodes + 2)),
    };
    let kinds: Vec<UnitKind> = strong
        .iter()
        .filter_map(|s| match s {
            Strong::Unit(unit) => Some(unit_kind(*unit)),
            Strong::Cell => None,
        })
        .collect();
    let boxed = kinds.contains(&UnitKind::Box);
    let crossed = kinds.contains(&UnitKind::Row) && kinds.contains(&UnitKind::Column);
    Rating(base + u16::from(boxed) + u16::from(crossed))
}

/// How a player is told about an X-Chain, XY-Chain or AIC step.
pub(super) fn explain(step: &Step, _words: &Words, text: &mut String) {
    match step.technique {
        Technique::XChain | Technique::XYChain | Technique::Aic => {
            let _ = write!(
                text,
                "in the chain {}, one of the ends {} is true, so each crossed-out candidate, \
                 which sees both, is false",
                reasoning::eureka(&step.links),
                chain_ends(&step.links)
            );
        }
        _ => {}
    }
}
