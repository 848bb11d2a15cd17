//! The forcing-chain producers: from every candidate of every cell, what
//! its truth and its falsity imply, and the conclusions that follow.
//!
//! For each cell (in index order) and each of its digits, Sukaku
//! Explainer's producers look at four kinds of conclusion, in this order:
//!
//! * **contradiction**: assuming the candidate on (or off) leads to some
//!   candidate both on and off, so the candidate is off (or on);
//! * **double**: a node that follows from the candidate on and from it
//!   off holds either way (only from cells with three candidates or
//!   more);
//! * **region**: a node that follows from every place of the digit in a
//!   box, row or column holds (tried from the unit's first place only);
//! * **cell**: after the cell's last digit, a node that follows from
//!   every candidate of the cell holds.
//!
//! Each conclusion is about one node, placing or removing one candidate.
//! It rests on the nodes its chains need ([`complexity`]), and the
//! producer's step is the conclusion with the fewest, then the lowest
//! kind (double 1, cell 5, region 6, contradiction 7), then the first
//! found.

use std::collections::HashSet;
use std::rc::Rc;

use super::super::bits::{UNITS, bit, digits, units_of};
use super::super::grid::Grid;
use super::super::implications::{STATES, State, cell_of, digit_of, is_on, state};
use super::super::reach::Reach;
use super::nested::{NestedChains, NestedRules};
use super::propagation::{Links, Mode, NO_NESTED, NodeId, Propagation, propagate, propagate_fixed};

/// What one producer looks for.
#[derive(Debug, Clone, Copy)]
pub(super) struct Producer {
    pub mode: Mode,
    /// Fewest candidates a cell needs for its candidates to be assumed.
    pub min_candidates: u32,
    /// The digits whose candidates are assumed: all, except for a Nishio
    /// search that follows one digit's links and needs only the digits a
    /// change touched (see `Scope`).
    pub digits: u16,
    pub contradictions: bool,
    /// Double conclusions (from cells with three candidates or more).
    pub double: bool,
    /// Region and cell conclusions.
    pub multiple: bool,
}

/// Sukaku Explainer's Nishio forcing chains (7.5).
pub(super) const NISHIO: Producer = Producer {
    mode: Mode {
        cell_links: false,
        dynamic: true,
        level: 0,
    },
    min_candidates: 2,
    digits: 0x1ff,
    contradictions: true,
    double: false,
    multiple: false,
};

/// Its static multiple forcing chains (8.0).
pub(super) const STATIC: Producer = Producer {
    mode: Mode {
        cell_links: true,
        dynamic: false,
        level: 0,
    },
    min_candidates: 3,
    digits: 0x1ff,
    contradictions: false,
    double: false,
    multiple: true,
};

/// Its dynamic forcing chains (8.5), nested to `level` (9.0, 9.5, 10.0;
/// 4 to 7 are its level 4, 10.5, with dynamic chains nested to 0 to 3 as
/// their inner rule).
pub(super) const fn dynamic(level: u8) -> Producer {
    Producer {
        mode: Mode {
            cell_links: true,
            dynamic: true,
            level,
        },
        min_candidates: 2,
        digits: 0x1ff,
        contradictions: true,
        double: true,
        multiple: true,
    }
}

/// The kind of a conclusion, numbered as Sukaku Explainer sorts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
    Double = 1,
    Cell = 5,
    Region = 6,
    Contradiction = 7,
}

/// One conclusion: a node that holds, with the chains it rests on.
pub(super) struct Conclusion {
    /// "On" places its candidate; "off" removes it.
    pub node: State,
    pub kind: Kind,
    /// The end of each chain: one per branch (two for a contradiction or
    /// a double conclusion).
    pub targets: Vec<(Rc<Propagation>, NodeId)>,
    /// The cell assumed (and for a region conclusion the digit and unit).
    pub cell: usize,
    pub digit: u8,
    pub unit: Option<usize>,
}

/// The searches of one grid, each assumption followed once.
struct Branches<'a> {
    grid: &'a Grid,
    /// Polled by the chains nested in the searches.
    should_stop: &'a dyn Fn() -> bool,
    mode: Mode,
    /// The grid's links, for a static search.
    links: Option<Links>,
    /// Which nodes lead to which by those links.
    reach: Option<Rc<Reach>>,
    on: Vec<Option<Rc<Propagation>>>,
}

impl Branches<'_> {
    fn on(&mut self, cell: usize, digit: u8, advanced: &mut dyn NestedRules) -> Rc<Propagation> {
        let index = cell * 9 + usize::from(digit) - 1;
        if let Some(found) = &self.on[index] {
            return found.clone();
        }
        let start = state(cell, digit, true);
        let found = Rc::new(match &self.links {
            Some(links) => propagate_fixed(links, start),
            None => propagate(self.grid, start, self.mode, advanced, self.should_stop),
        });
        self.on[index] = Some(found.clone());
        found
    }

    /// Whether the searches from `starts` (each an "on") may reach a node
    /// in common. A static search reaches no more than what its start
    /// leads to, so where those share no node the searches need not be
    /// followed: they cannot agree. A dynamic search may reach more.
    fn may_agree(&self, starts: &[State]) -> bool {
        self.reach
            .as_ref()
            .is_none_or(|reach| reach.reached_from_all(starts))
    }
}

/// Where a search's conclusions go.
pub(super) trait Sink {
    /// Whether a conclusion of `kind` resting on at least `nodes` nodes
    /// could be kept. The search hands over only those, sparing the
    /// others the count of what they rest on.
    fn wants(&self, nodes: u32, kind: Kind) -> bool;

    /// Takes a conclusion (`nested` holds its nested chains).
    fn take(&mut self, conclusion: Conclusion, nested: &NestedChains);
}

/// Every conclusion `producer` finds on `grid` that `sink` wants, in
/// discovery order; false if `should_stop` said stop first.
pub(super) fn conclusions(
    grid: &Grid,
    producer: Producer,
    advanced: &mut dyn NestedRules,
    should_stop: &dyn Fn() -> bool,
    sink: &mut dyn Sink,
) -> bool {
    search(grid, producer, advanced, should_stop, sink, true)
}

/// [`conclusions`], following every branch of every cell and unit, even
/// of those whose branches cannot meet: what the search skips, for tests.
#[cfg(test)]
pub(super) fn unskipped_conclusions(
    grid: &Grid,
    producer: Producer,
    advanced: &mut dyn NestedRules,
    sink: &mut dyn Sink,
) {
    search(grid, producer, advanced, &|| false, sink, false);
}

/// [`conclusions`]; a static search skips cells and units whose branches
/// cannot meet if `skip` says so.
fn search(
    grid: &Grid,
    producer: Producer,
    advanced: &mut dyn NestedRules,
    should_stop: &dyn Fn() -> bool,
    sink: &mut dyn Sink,
    skip: bool,
) -> bool {
    let static_mode = !producer.mode.dynamic && producer.mode.level == 0;
    let links = static_mode.then(|| Links::new(grid, producer.mode));
    let mut branches = Branches {
        grid,
        should_stop,
        mode: producer.mode,
        reach: links.as_ref().filter(|_| skip).map(|l| l.reach(grid)),
        links,
        on: vec![None; 729],
    };
    for cell in grid.blanks().iter() {
        let count = grid.marks(cell).count_ones();
        if count < producer.min_candidates.max(2) {
            continue;
        }
        if should_stop() {
            return false;
        }
        let assumed = grid.marks(cell) & producer.digits;
        // A dynamic producer follows each "on" here first, before its
        // regions and its cell need it: the order nested searches fill
        // their caches in, which their ratings depend on, stays the one
        // of the cells and digits. Only a static producer follows them
        // lazily.
        debug_assert!(
            !producer.mode.dynamic || producer.contradictions || producer.double,
            "a dynamic producer follows each on in order"
        );
        for digit in digits(assumed) {
            if producer.contradictions || producer.double {
                let on = branches.on(cell, digit, advanced);
                let start = state(cell, digit, false);
                let off = propagate(grid, start, producer.mode, advanced, should_stop);
                binary(
                    grid,
                    producer,
                    count,
                    cell,
                    digit,
                    &on,
                    off,
                    advanced.nested(),
                    sink,
                );
            }
            if producer.multiple {
                regions(grid, &mut branches, cell, digit, advanced, sink);
            }
        }
        let starts: Vec<State> = digits(assumed).map(|d| state(cell, d, true)).collect();
        if producer.multiple && branches.may_agree(&starts) {
            let per_digit: Vec<_> = digits(assumed)
                .map(|digit| branches.on(cell, digit, advanced))
                .collect();
            let source = (Kind::Cell, cell, 0, None);
            agreements(grid, &per_digit, source, advanced.nested(), sink);
        }
    }
    true
}

/// Contradictions from `digit` in `cell` on and off, then (from cells
/// with three candidates or more) what both imply.
#[allow(clippy::too_many_arguments)]
fn binary(
    grid: &Grid,
    producer: Producer,
    count: u32,
    cell: usize,
    digit: u8,
    on: &Rc<Propagation>,
    off: Propagation,
    nested: &NestedChains,
    sink: &mut dyn Sink,
) {
    let off = Rc::new(off);
    let conclusion = |node, kind, targets| Conclusion {
        node,
        kind,
        targets,
        cell,
        digit,
        unit: None,
    };
    if producer.contradictions {
        for (branch, result) in [(on, false), (&off, true)] {
            if let Some((a, b)) = branch.contradiction {
                if !sink.wants(least(branch, a) + least(branch, b), Kind::Contradiction) {
                    continue;
                }
                let targets = vec![(branch.clone(), a), (branch.clone(), b)];
                let node = state(cell, digit, result);
                sink.take(conclusion(node, Kind::Contradiction, targets), nested);
            }
        }
    }
    if !producer.double || count < 3 {
        return;
    }
    for list in [on.ons(), on.offs()] {
        for &from_on in list {
            let node = on.node(from_on).state;
            let Some(from_off) = off.find(node) else {
                continue;
            };
            let nodes = least(on, from_on) + least(&off, from_off);
            if worth(grid, node) && sink.wants(nodes, Kind::Double) {
                let targets = vec![(on.clone(), from_on), (off.clone(), from_off)];
                sink.take(conclusion(node, Kind::Double, targets), nested);
            }
        }
    }
}

/// What every place of `digit` implies in each unit of `cell` where
/// `cell` is the digit's first place.
fn regions(
    grid: &Grid,
    branches: &mut Branches,
    cell: usize,
    digit: u8,
    advanced: &mut dyn NestedRules,
    sink: &mut dyn Sink,
) {
    for unit in units_of(cell) {
        let places = UNITS[unit].and(grid.cells_with(digit));
        if places.len() < 2 || places.first() != Some(cell) {
            continue;
        }
        let starts: Vec<State> = places.iter().map(|p| state(p, digit, true)).collect();
        if !branches.may_agree(&starts) {
            continue;
        }
        let per_place: Vec<Rc<Propagation>> = places
            .iter()
            .map(|place| branches.on(place, digit, advanced))
            .collect();
        let source = (Kind::Region, cell, digit, Some(unit));
        agreements(grid, &per_place, source, advanced.nested(), sink);
    }
}

/// The conclusions every branch agrees on (one branch per candidate of a
/// cell, or per place of a digit in a unit), for `source`: their kind,
/// and the cell, digit and unit assumed.
fn agreements(
    grid: &Grid,
    branches: &[Rc<Propagation>],
    (kind, cell, digit, unit): (Kind, usize, u8, Option<usize>),
    nested: &NestedChains,
    sink: &mut dyn Sink,
) {
    for node in common(branches) {
        let nodes = branches.iter().map(|b| least(b, id(b, node))).sum();
        if worth(grid, node) && sink.wants(nodes, kind) {
            let targets = branches.iter().map(|b| (b.clone(), id(b, node))).collect();
            let conclusion = Conclusion {
                node,
                kind,
                targets,
                cell,
                digit,
                unit,
            };
            sink.take(conclusion, nested);
        }
    }
}

/// The fewest nodes `target` can rest on in `branch`: its line of first
/// parents, itself included (each a different node).
pub(super) fn least(branch: &Propagation, target: NodeId) -> u32 {
    u32::from(branch.node(target).depth) + 1
}

fn id(branch: &Propagation, node: State) -> NodeId {
    branch.find(node).expect("common to every branch")
}

/// The nodes every branch reaches: the first branch's "ons", then its
/// "offs", in the order it reached them.
fn common(branches: &[Rc<Propagation>]) -> Vec<State> {
    let first = &branches[0];
    first
        .ons()
        .iter()
        .chain(first.offs())
        .map(|&id| first.node(id).state)
        .filter(|&node| branches[1..].iter().all(|b| b.reached(node)))
        .collect()
}

/// Whether concluding `node` changes the grid: a placement needs another
/// candidate in its cell to remove.
fn worth(grid: &Grid, node: State) -> bool {
    !is_on(node) || grid.marks(cell_of(node)) & !bit(digit_of(node)) != 0
}

/// How many nodes a conclusion rests on: each target's ancestors (itself
/// included) through every parent, counted once per target, plus the
/// complexity of every distinct nested chain among them.
pub(super) fn complexity(targets: &[(Rc<Propagation>, NodeId)], nested: &NestedChains) -> u32 {
    let mut processed = HashSet::new();
    let (mut flat, mut inner) = (0, 0);
    for (branch, target) in targets {
        flat += walk(branch, *target, |node| {
            if node.nested != NO_NESTED {
                let chain = nested.get(node.nested);
                if processed.insert(chain.identity) {
                    inner += chain.complexity;
                }
            }
        });
    }
    flat + inner
}

/// Visits every ancestor of `target` (itself included) once per state,
/// breadth first; returns how many there are.
pub(super) fn walk(
    branch: &Propagation,
    target: NodeId,
    mut visit: impl FnMut(&super::propagation::Node),
) -> u32 {
    thread_local! {
        /// The queue's room, kept between walks: a conclusion's
        /// complexity walks each of its chains, a hundred thousand times
        /// over a hard puzzle.
        static QUEUE: std::cell::Cell<Vec<NodeId>> = const { std::cell::Cell::new(Vec::new()) };
    }
    let mut seen = [0u64; STATES.div_ceil(64)];
    let mut queue = QUEUE.take();
    queue.push(target);
    let mut next = 0;
    while next < queue.len() {
        let id = queue[next];
        next += 1;
        let node = branch.node(id);
        let (word, mask) = (usize::from(node.state) / 64, 1u64 << (node.state % 64));
        if seen[word] & mask != 0 {
            continue;
        }
        seen[word] |= mask;
        visit(node);
        queue.extend_from_slice(branch.parents(id));
    }
    queue.clear();
    QUEUE.set(queue);
    seen.iter().map(|w| w.count_ones()).sum()
}
