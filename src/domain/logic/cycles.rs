//! Sudoku Explainer's first chaining step: cycles and forcing chains
//! (6.5 to about 7.5), the step it tries after the UVWXYZ-Wing.
//!
//! Implications link a candidate being on (true) or off (false) to others,
//! as in [`super::implications`]: on, to off, the same digit in every cell
//! it sees (and, with cell links, the cell's other candidates); off, to
//! on, the other place of its digit in a unit with two (with unit links)
//! or the other candidate of a cell with two (with cell links). Three
//! sweeps use three sets of links: **X** one digit's unit links, **Y**
//! cell links from cells with two candidates, and **XY** both.
//!
//! From each candidate, assumed on, each sweep looks for **cycles**: an
//! alternating loop back to it. A loop holds one way round or the other,
//! so a candidate outside it that sees an "on" of the loop and an "off" of
//! the same digit is false either way. The X and XY sweeps also follow a
//! **forcing chain** from the candidate on and from it off: an assumption
//! that leads to its own opposite is false, so the chain removes that one
//! candidate (or places it).
//!
//! Every find of every sweep is kept and the easiest wins, as Sukaku
//! Explainer picks: by rating, then the number of nodes, then the kind (X,
//! Y, then XY), then the order found. Ratings are compared as Sukaku
//! Explainer's floating-point sums (a tenth added once per step of the
//! length bonus), which is what orders a 6.6 chain with one tenth of bonus
//! before a 6.5 cycle with two. The searches are breadth first, level by
//! level, so the chain kept from each start is a shortest one, as in
//! Sukaku Explainer, whose choices these follow so that ratings agree.

use std::collections::VecDeque;

use super::bits::{Cells, PEERS, UNITS, bit, digits, units_of};
use super::grid::Grid;
use super::implications::{STATES, State, cell_of, digit_of, is_on, opposite, state};
use super::step::{Mark, Step};
use super::technique::{Rating, Technique, length_bonus};

/// The links one sweep follows, and what it finds.
#[derive(Debug, Clone, Copy)]
struct Sweep {
    /// Links between the candidates of one cell.
    cell_links: bool,
    /// Links between the two places of a digit in a unit.
    unit_links: bool,
    /// Its cycles' technique, and its forcing chains' if it follows them
    /// (not the Y sweep).
    cycle: Technique,
    chain: Option<Technique>,
    /// Sukaku Explainer's order among equally rated finds of one length.
    order: u8,
}

const X: Sweep = Sweep {
    cell_links: false,
    unit_links: true,
    cycle: Technique::XCycle,
    chain: Some(Technique::ForcingXChain),
    order: 2,
};

const Y: Sweep = Sweep {
    cell_links: true,
    unit_links: false,
    cycle: Technique::YCycle,
    chain: None,
    order: 3,
};

const XY: Sweep = Sweep {
    cell_links: true,
    unit_links: true,
    cycle: Technique::XYCycle,
    chain: Some(Technique::ForcingChain),
    order: 4,
};

/// The easiest cycle or forcing chain on the grid, if there is one.
/// `should_stop` is polled between starts; once it says stop, the answer
/// is `None`.
pub fn cycle_or_forcing_chain(grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    let mut best: Option<Find> = None;
    let finished = each_find(grid, should_stop, &mut |find| keep_easiest(&mut best, find));
    finished.then_some(best?.step)
}

/// Hands every cycle and forcing chain on the grid to `sink`, in the
/// order found: the X sweep, the Y sweep, the XY sweep, and in each, the
/// cells in order and their digits. False if `should_stop` said stop.
fn each_find(grid: &Grid, should_stop: &dyn Fn() -> bool, sink: &mut dyn FnMut(Find)) -> bool {
    let mut scratch = Scratch::default();
    for sweep in [X, Y, XY] {
        let links = Links::new(grid, sweep);
        for cell in grid.blanks().iter() {
            let marks = grid.marks(cell);
            let enough = if sweep.cell_links && !sweep.unit_links {
                marks.count_ones() == 2
            } else {
                marks.count_ones() >= 2
            };
            if !enough {
                continue;
            }
            if should_stop() {
                return false;
            }
            for digit in digits(marks) {
                let start = state(cell, digit, true);
                for find in cycles_from(grid, &links, start, sweep, &mut scratch) {
                    sink(find);
                }
                let Some(chain) = sweep.chain else {
                    continue;
                };
                for start in [start, opposite(start)] {
                    let found = forcing_chain_from(&links, start, chain, sweep, &mut scratch);
                    found.into_iter().for_each(&mut *sink);
                }
            }
        }
    }
    true
}

/// A cycle or chain found, with what orders it among the others.
pub(super) struct Find {
    /// Sudoku Explainer's rating, as its floating-point sum.
    pub rating: f64,
    /// Nodes it rests on.
    pub complexity: usize,
    order: u8,
    pub step: Step,
    /// Its nodes, from the end (for a cycle, the node that closes it) back
    /// to the start.
    pub path: Vec<State>,
    pub is_cycle: bool,
}

/// Every cycle and forcing chain on the grid, easiest first, in the order
/// Sukaku Explainer sorts them (rating, then nodes, then kind, then the
/// order found).
pub(super) fn all_cycles_and_chains(grid: &Grid) -> Vec<Find> {
    let mut all = Vec::new();
    each_find(grid, &|| false, &mut |find| all.push(find));
    all.sort_by(|a, b| {
        let order = a.order_key().partial_cmp(&b.order_key());
        order.expect("ratings are numbers")
    });
    all
}

impl Find {
    /// What Sukaku Explainer sorts finds by: rating, nodes, then kind.
    fn order_key(&self) -> (f64, usize, u8) {
        (self.rating, self.complexity, self.order)
    }
}

/// Keeps `find` if it comes before `best`: a strictly lower rating, or
/// the same with fewer nodes, or the same again of an earlier kind. Among
/// equals the earlier find stays, as a stable sort keeps it.
fn keep_easiest(best: &mut Option<Find>, find: Find) {
    if best.as_ref().is_none_or(|b| {
        find.order_key().partial_cmp(&b.order_key()) == Some(std::cmp::Ordering::Less)
    }) {
        *best = Some(find);
    }
}

/// `base` (in tenths) plus `bonus` tenths, summed as Sukaku Explainer sums
/// them: one tenth at a time, in floating point.
fn explainer_rating(base: Rating, bonus: u16) -> f64 {
    let mut added = 0.0;
    for _ in 0..bonus {
        added += 0.1;
    }
    base.value() + added
}

/// Buffers the searches from each start reuse.
#[derive(Default)]
struct Scratch {
    arena: Arena,
    ons: VecDeque<u32>,
    offs: VecDeque<u32>,
    reached: VecDeque<u32>,
    path: Vec<State>,
}

/// Nodes of one search, each with the index of the node that led to it.
#[derive(Default)]
struct Arena {
    nodes: Vec<(State, u32)>,
}

/// Marks a node with no parent: the search's start.
const ROOT: u32 = u32::MAX;

impl Arena {
    fn add(&mut self, node: State, parent: u32) -> u32 {
        self.nodes.push((node, parent));
        (self.nodes.len() - 1) as u32
    }

    fn node(&self, index: u32) -> State {
        self.nodes[index as usize].0
    }

    /// The nodes from `index` back to the start, through first parents.
    fn path(&self, index: u32) -> Vec<State> {
        let mut path = Vec::new();
        self.path_into(index, &mut path);
        path
    }

    /// The nodes from `index` back to the start, into `path`.
    fn path_into(&self, mut index: u32, path: &mut Vec<State>) {
        path.clear();
        while index != ROOT {
            let (node, parent) = self.nodes[index as usize];
            path.push(node);
            index = parent;
        }
    }
}

/// A set of nodes, one bit each.
struct NodeSet([u64; STATES.div_ceil(64)]);

impl NodeSet {
    fn new() -> NodeSet {
        NodeSet([0; STATES.div_ceil(64)])
    }

    /// Adds `node`; false if it was there already.
    fn insert(&mut self, node: State) -> bool {
        let (word, mask) = (usize::from(node) / 64, 1u64 << (node % 64));
        let new = self.0[word] & mask == 0;
        self.0[word] |= mask;
        new
    }
}

/// Every node's successors under one sweep's links, worked out once per
/// grid: the searches from every start follow the same links many times.
struct Links {
    /// For each node, where its successors are in `next`: start and end.
    spans: Vec<(u32, u32)>,
    next: Vec<State>,
}

impl Links {
    fn new(grid: &Grid, sweep: Sweep) -> Links {
        let mut links = Links {
            spans: vec![(0, 0); STATES],
            next: Vec::new(),
        };
        let mut found = Vec::new();
        for cell in grid.blanks().iter() {
            for digit in digits(grid.marks(cell)) {
                for on in [false, true] {
                    let node = state(cell, digit, on);
                    if on {
                        turned_off(grid, node, sweep.cell_links, &mut found);
                    } else {
                        turned_on(grid, node, sweep, &mut found);
                    }
                    let start = links.next.len() as u32;
                    links.next.extend_from_slice(&found);
                    links.spans[usize::from(node)] = (start, links.next.len() as u32);
                }
            }
        }
        links
    }

    /// The nodes `node` implies, in Sukaku Explainer's order.
    fn of(&self, node: State) -> &[State] {
        let (start, end) = self.spans[usize::from(node)];
        &self.next[start as usize..end as usize]
    }
}

/// The nodes an "on" turns off, in Sukaku Explainer's order: the cell's
/// other candidates (with cell links), then the digit's other places in
/// its box, row and column, each cell once.
fn turned_off(grid: &Grid, on: State, cell_links: bool, out: &mut Vec<State>) {
    out.clear();
    let (cell, digit) = (cell_of(on), digit_of(on));
    if cell_links {
        for other in digits(grid.marks(cell) & !bit(digit)) {
            out.push(state(cell, other, false));
        }
    }
    let holders = grid.cells_with(digit);
    let mut listed = Cells::single(cell);
    for unit in units_of(cell) {
        for peer in UNITS[unit].and(holders).minus(listed).iter() {
            out.push(state(peer, digit, false));
        }
        listed = listed.or(UNITS[unit]);
    }
}

/// The nodes an "off" turns on: the other candidate of a cell with two
/// (with cell links), then the other place of the digit in its box, row
/// and column where it has two (with unit links), each node once.
fn turned_on(grid: &Grid, off: State, sweep: Sweep, out: &mut Vec<State>) {
    out.clear();
    let (cell, digit) = (cell_of(off), digit_of(off));
    let marks = grid.marks(cell);
    if sweep.cell_links && marks.count_ones() == 2 && marks & bit(digit) != 0 {
        let other = digits(marks & !bit(digit)).next().expect("two candidates");
        out.push(state(cell, other, true));
    }
    if sweep.unit_links {
        let holders = grid.cells_with(digit);
        for unit in units_of(cell) {
            let places = UNITS[unit].and(holders);
            if places.len() == 2 && places.has(cell) {
                let other = places
                    .minus(Cells::single(cell))
                    .first()
                    .expect("two places");
                let node = state(other, digit, true);
                if !out.contains(&node) {
                    out.push(node);
                }
            }
        }
    }
}

/// The cycles back to `start` (on) that `sweep` finds, each a find if it
/// removes something. Level by level: every "on" reached, then every
/// "off"; an "off" is followed again when reached another way, unless it
/// is already on the way that led to it.
fn cycles_from(
    grid: &Grid,
    links: &Links,
    start: State,
    sweep: Sweep,
    scratch: &mut Scratch,
) -> Vec<Find> {
    let Scratch {
        arena,
        ons,
        offs,
        path,
        ..
    } = scratch;
    arena.nodes.clear();
    ons.clear();
    offs.clear();
    ons.push_back(arena.add(start, ROOT));
    let mut seen_on = NodeSet::new();
    seen_on.insert(start);
    let (mut depth, mut finds) = (0, Vec::new());
    while !ons.is_empty() || !offs.is_empty() {
        depth += 1;
        while let Some(from) = ons.pop_front() {
            arena.path_into(from, path);
            for &node in links.of(arena.node(from)) {
                if !path.contains(&node) {
                    offs.push_back(arena.add(node, from));
                }
            }
        }
        depth += 1;
        while let Some(from) = offs.pop_front() {
            for &node in links.of(arena.node(from)) {
                if depth >= 4 && node == start {
                    let closing = arena.add(node, from);
                    finds.extend(cycle(grid, &arena.path(closing), sweep));
                }
                if seen_on.insert(node) {
                    ons.push_back(arena.add(node, from));
                }
            }
        }
    }
    finds
}

/// The find of a loop (its nodes from the closing one back to the start):
/// the candidates outside its cells that see an "on" and an "off" of
/// their digit on it, if there are any.
fn cycle(grid: &Grid, path: &[State], sweep: Sweep) -> Option<Find> {
    let loop_nodes = &path[..path.len() - 1];
    let cells: Cells = loop_nodes.iter().map(|&node| cell_of(node)).collect();
    let mut if_on = [Cells::EMPTY; 9];
    let mut if_off = [Cells::EMPTY; 9];
    for &node in loop_nodes {
        let digit = digit_of(node);
        let seen = PEERS[cell_of(node)]
            .and(grid.cells_with(digit))
            .minus(cells);
        let side = if is_on(node) { &mut if_on } else { &mut if_off };
        side[usize::from(digit) - 1] = side[usize::from(digit) - 1].or(seen);
    }
    let eliminations: Vec<Mark> = (1..=9u8)
        .flat_map(|digit| {
            let index = usize::from(digit) - 1;
            if_on[index]
                .and(if_off[index])
                .iter()
                .map(move |cell| Mark::new(cell, digit))
        })
        .collect();
    if eliminations.is_empty() {
        return None;
    }
    let complexity = loop_nodes.len();
    let mut step = chain_step(sweep.cycle, complexity, loop_nodes);
    step.eliminations = eliminations;
    step.eliminations.sort();
    Some(find(step, complexity, sweep, path, true))
}

/// The forcing chain from `start` to its opposite, if `sweep`'s links
/// reach it: level by level, each node followed once.
fn forcing_chain_from(
    links: &Links,
    start: State,
    technique: Technique,
    sweep: Sweep,
    scratch: &mut Scratch,
) -> Option<Find> {
    let Scratch {
        arena,
        ons,
        offs,
        reached,
        ..
    } = scratch;
    arena.nodes.clear();
    ons.clear();
    offs.clear();
    let mut seen = NodeSet::new();
    seen.insert(start);
    let root = arena.add(start, ROOT);
    if is_on(start) {
        ons.push_back(root);
    } else {
        offs.push_back(root);
    }
    let target = opposite(start);
    while !ons.is_empty() || !offs.is_empty() {
        for on_side in [true, false] {
            let queue = if on_side { &mut *ons } else { &mut *offs };
            reached.clear();
            while let Some(from) = queue.pop_front() {
                for &node in links.of(arena.node(from)) {
                    if node == target {
                        let end = arena.add(node, from);
                        return Some(forcing_chain(&arena.path(end), technique, sweep));
                    }
                    if seen.insert(node) {
                        reached.push_back(arena.add(node, from));
                    }
                }
            }
            if on_side {
                offs.extend(reached.drain(..));
            } else {
                ons.extend(reached.drain(..));
            }
        }
    }
    None
}

/// The find of a forcing chain (its nodes from the end back to the start):
/// the start's candidate removed, or placed when the start was "off".
fn forcing_chain(path: &[State], technique: Technique, sweep: Sweep) -> Find {
    let end = path[0];
    let complexity = path.len();
    let mut step = chain_step(technique, complexity, path);
    let mark = Mark::new(cell_of(end), digit_of(end));
    if is_on(end) {
        step.placements.push(mark);
    } else {
        step.eliminations.push(mark);
    }
    find(step, complexity, sweep, path, false)
}

/// A step of `technique` resting on `complexity` nodes, its pattern the
/// candidates of `nodes` from the start on.
fn chain_step(technique: Technique, complexity: usize, nodes: &[State]) -> Step {
    let mut step = Step::new(technique);
    step.rating = Rating(technique.base_rating().0 + length_bonus(complexity));
    for &node in nodes.iter().rev() {
        step.pattern.push(Mark::new(cell_of(node), digit_of(node)));
        step.digits |= bit(digit_of(node));
    }
    step
}

fn find(step: Step, complexity: usize, sweep: Sweep, path: &[State], is_cycle: bool) -> Find {
    let base = step.technique.base_rating();
    Find {
        rating: explainer_rating(base, step.rating.0 - base.0),
        complexity,
        order: sweep.order,
        step,
        path: path.to_vec(),
        is_cycle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_are_summed_a_tenth_at_a_time_as_sukaku_explainer_sums_them() {
        assert_eq!(explainer_rating(Rating(66), 1), 6.699999999999999);
        assert_eq!(explainer_rating(Rating(65), 2), 6.7);
        assert!(explainer_rating(Rating(66), 1) < explainer_rating(Rating(65), 2));
        assert_eq!(explainer_rating(Rating(66), 3), 6.8999999999999995);
    }
}
