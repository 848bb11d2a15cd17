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
use std::fmt::Write;

use super::bits::{Cells, PEERS, UNITS, bit, digits, units_of};
use super::grid::Grid;
use super::implications::{STATES, State, cell_of, digit_of, is_on, opposite, state};
use super::reach::{Reach, of_every_link};
use super::reasoning;
use super::scope::Scope;
use super::step::{Link, Mark, Step, implication};
use super::technique::{Rating, Technique, length_bonus};
use super::words::Words;

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
/// is `None`. The X sweep, which follows one digit's links, starts only
/// from the digits in `scope`; the others start everywhere.
pub fn cycle_or_forcing_chain(
    grid: &Grid,
    scope: Scope,
    should_stop: &dyn Fn() -> bool,
) -> Option<Step> {
    let mut best: Option<Find> = None;
    let finished = each_find(grid, scope, should_stop, Wanted::Easiest, &mut |find| {
        keep_easiest(&mut best, find)
    });
    let best = best.filter(|_| finished)?;
    let mut step = best.step;
    step.links = links_along(&best.path);
    Some(step)
}

/// The links of a find's path (its nodes from the end back to the
/// start), from the start on.
fn links_along(path: &[State]) -> Vec<Link> {
    let mark = |node: State| Mark::new(cell_of(node), digit_of(node));
    path.windows(2)
        .rev()
        .map(|pair| implication(mark(pair[1]), is_on(pair[1]), mark(pair[0]), is_on(pair[0])))
        .collect()
}

/// Hands every cycle and forcing chain on the grid to `sink`, in the
/// order found: the X sweep, the Y sweep, the XY sweep, and in each, the
/// cells in order and their digits. False if `should_stop` said stop.
///
/// Every search skips the nodes that cannot lead where it is going
/// ([`Reach`]), which changes nothing it finds. For the easiest find
/// alone, a search also stops where whatever it could still find would
/// come after the easiest handed over so far (ratings grow with length,
/// and searches go level by level), and a sweep whose easiest possible
/// find would is skipped.
fn each_find(
    grid: &Grid,
    scope: Scope,
    should_stop: &dyn Fn() -> bool,
    wanted: Wanted,
    sink: &mut dyn FnMut(Find),
) -> bool {
    thread_local! {
        /// The searches' buffers, kept from one grid to the next.
        static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
    }
    let mut scratch = SCRATCH.take();
    let finished = each_find_with(grid, scope, should_stop, wanted, sink, &mut scratch);
    SCRATCH.set(scratch);
    finished
}

fn each_find_with(
    grid: &Grid,
    scope: Scope,
    should_stop: &dyn Fn() -> bool,
    wanted: Wanted,
    sink: &mut dyn FnMut(Find),
    scratch: &mut Scratch,
) -> bool {
    let (mut graph, mut reach) = (None, None);
    let ceiling = Ceiling(std::cell::Cell::new(None));
    let mut sink = |find: Find| {
        if wanted == Wanted::Easiest {
            ceiling.lower(find.order_key());
        }
        sink(find);
    };
    for sweep in [X, Y, XY] {
        let cheapest = sweep.cycle.base_rating().min(
            sweep
                .chain
                .map_or(sweep.cycle.base_rating(), Technique::base_rating),
        );
        if ceiling.excludes((cheapest.value(), 2, sweep.order)) {
            continue;
        }
        let graph: &Graph = graph.get_or_insert_with(|| Graph::new(grid));
        let reach = match wanted {
            Wanted::Unpruned => None,
            _ => Some(&**reach.get_or_insert_with(|| of_every_link(grid, || graph.reach()))),
        };
        let links = Links::new(graph, sweep, reach);
        let search = Search {
            grid,
            links: &links,
            sweep,
        };
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
            let starts = match sweep.cell_links {
                true => marks,
                false => marks & scope.digits(),
            };
            for digit in digits(starts) {
                let start = state(cell, digit, true);
                for find in search.cycles_from(start, &ceiling, scratch) {
                    sink(find);
                }
                let Some(chain) = sweep.chain else {
                    continue;
                };
                for start in [start, opposite(start)] {
                    let found = search.forcing_chain_from(start, chain, &ceiling, scratch);
                    found.into_iter().for_each(&mut sink);
                }
            }
        }
    }
    true
}

/// Which finds a search hands over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wanted {
    /// Those that may be the easiest.
    Easiest,
    /// All of them.
    All,
    /// All of them, every node followed: the plain search, for tests.
    #[cfg_attr(not(test), allow(dead_code))]
    Unpruned,
}

/// The order key of the easiest find so far, when searches may stop at it.
struct Ceiling(std::cell::Cell<Option<(f64, usize, u8)>>);

impl Ceiling {
    fn lower(&self, key: (f64, usize, u8)) {
        if self.0.get().is_none_or(|c| key < c) {
            self.0.set(Some(key));
        }
    }

    /// Whether a find of this key, or of any later one, would come after
    /// the easiest so far (equals keep the earlier find).
    fn excludes(&self, key: (f64, usize, u8)) -> bool {
        self.0.get().is_some_and(|c| key >= c)
    }

    /// Whether every find of `technique` in `sweep` resting on
    /// `complexity` nodes or more would come after the easiest so far.
    fn excludes_from(&self, technique: Technique, sweep: Sweep, complexity: usize) -> bool {
        let base = technique.base_rating();
        let rating = explainer_rating(base, length_bonus(complexity));
        self.excludes((rating, complexity, sweep.order))
    }
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

/// Which nodes lead to which under every cell and unit link of `grid`,
/// as the cycles work it out, for tests.
#[cfg(test)]
pub(super) fn every_link_reach(grid: &Grid) -> Reach {
    Graph::new(grid).reach()
}

/// Every cycle and forcing chain on the grid, easiest first, in the order
/// Sukaku Explainer sorts them (rating, then nodes, then kind, then the
/// order found).
pub(super) fn all_cycles_and_chains(grid: &Grid) -> Vec<Find> {
    let mut all = Vec::new();
    each_find(grid, Scope::WHOLE, &|| false, Wanted::All, &mut |find| {
        all.push(find)
    });
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
    /// The nodes a search has seen.
    seen: NodeSet,
    /// The nodes on the way to the one being followed.
    on_path: NodeSet,
}

impl Scratch {
    /// Empties the buffers for a search from `start`, and adds `start` to
    /// the arena as its root.
    fn restart(&mut self, start: State) -> u32 {
        self.arena.nodes.clear();
        self.ons.clear();
        self.offs.clear();
        self.arena.add(start, ROOT)
    }
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
    fn path(&self, mut index: u32) -> Vec<State> {
        let mut path = Vec::new();
        while index != ROOT {
            let (node, parent) = self.nodes[index as usize];
            path.push(node);
            index = parent;
        }
        path
    }

    /// The nodes from `index` back to the start, as a new set in `set`.
    fn path_set(&self, mut index: u32, set: &mut NodeSet) {
        set.renew();
        while index != ROOT {
            let (node, parent) = self.nodes[index as usize];
            set.insert(node);
            index = parent;
        }
    }
}

/// Sets of nodes, one at a time: each node keeps the number of the last
/// set it joined, so a new set starts empty without clearing anything
/// (the searches make one per start, millions over a hard puzzle).
#[derive(Default)]
struct NodeSet {
    joined: Vec<u32>,
    current: u32,
}

impl NodeSet {
    /// Starts a new, empty set.
    fn renew(&mut self) {
        if self.joined.is_empty() || self.current == u32::MAX {
            self.joined = vec![0; STATES];
            self.current = 0;
        }
        self.current += 1;
    }

    /// Adds `node`; false if it was there already.
    fn insert(&mut self, node: State) -> bool {
        let joined = &mut self.joined[usize::from(node)];
        let new = *joined != self.current;
        *joined = self.current;
        new
    }

    fn has(&self, node: State) -> bool {
        self.joined[usize::from(node)] == self.current
    }
}

/// Every node's successors under the cell and unit links together,
/// worked out once per grid, with the cell links first: each sweep
/// follows a part of each list.
struct Graph {
    /// For each node, where its successors are in `next`: start, end of
    /// the cell links, end.
    spans: Vec<[u32; 3]>,
    next: Vec<State>,
    /// The grid's candidates, on and off.
    nodes: Vec<State>,
}

impl Graph {
    fn new(grid: &Grid) -> Graph {
        let candidates: usize = grid
            .blanks()
            .iter()
            .map(|cell| grid.marks(cell).count_ones() as usize)
            .sum();
        let mut graph = Graph {
            spans: vec![[0; 3]; STATES],
            next: Vec::with_capacity(candidates * 16),
            nodes: Vec::with_capacity(candidates * 2),
        };
        for cell in grid.blanks().iter() {
            for digit in digits(grid.marks(cell)) {
                for on in [false, true] {
                    let node = state(cell, digit, on);
                    graph.nodes.push(node);
                    let start = graph.next.len() as u32;
                    let cell_links = if on {
                        turned_off(grid, node, &mut graph.next)
                    } else {
                        turned_on(grid, node, &mut graph.next)
                    };
                    graph.spans[usize::from(node)] =
                        [start, start + cell_links as u32, graph.next.len() as u32];
                }
            }
        }
        graph
    }

    /// Which nodes lead to which under all the links.
    pub(super) fn reach(&self) -> Reach {
        Reach::new(&self.nodes, |node| {
            let [start, _, end] = self.spans[usize::from(node)];
            &self.next[start as usize..end as usize]
        })
    }
}

/// The links one sweep follows on a grid.
struct Links<'a> {
    graph: &'a Graph,
    /// The parts of a span it follows, from an "off" and from an "on".
    parts: [(usize, usize); 2],
    /// Which nodes lead to which under all the links (a node that cannot
    /// lead somewhere under them cannot under the sweep's part either),
    /// unless every node is followed.
    reach: Option<&'a Reach>,
}

impl<'a> Links<'a> {
    fn new(graph: &'a Graph, sweep: Sweep, reach: Option<&'a Reach>) -> Links<'a> {
        // The parts of a node's span the sweep follows, from an "off"
        // and from an "on": 0 to 1 are the cell links, 1 to 2 the others.
        let parts = match (sweep.cell_links, sweep.unit_links) {
            (true, true) => [(0, 2), (0, 2)],
            (true, false) => [(0, 1), (0, 2)],
            (false, _) => [(1, 2), (1, 2)],
        };
        Links {
            graph,
            parts,
            reach,
        }
    }

    /// Whether `from` may lead to `to`.
    fn leads(&self, from: State, to: State) -> bool {
        self.reach.is_none_or(|reach| reach.reaches(from, to))
    }

    /// Whether `node`, which `start` leads to, may lead back to it: the
    /// two then reach each other, so they share a component.
    fn leads_back(&self, node: State, start: State) -> bool {
        self.reach.is_none_or(|reach| reach.together(node, start))
    }

    /// Whether a loop of `length` distinct nodes may pass through `node`:
    /// each node of a loop reaches every other, so it needs as many in
    /// `node`'s component.
    fn may_loop(&self, node: State, length: usize) -> bool {
        self.reach
            .is_none_or(|reach| reach.looped_with(node) >= length)
    }

    /// The nodes `node` implies, in Sukaku Explainer's order: an "on"
    /// turns off the same digit in the cells it sees, and with cell links
    /// first the cell's other candidates; an "off" turns on the other
    /// candidate of its cell with cell links, and the other places of its
    /// digit with unit links.
    fn of(&self, node: State) -> &'a [State] {
        let span = self.graph.spans[usize::from(node)];
        let (from, to) = self.parts[usize::from(is_on(node))];
        &self.graph.next[span[from] as usize..span[to] as usize]
    }
}

/// Adds to `out` the nodes an "on" turns off, in Sukaku Explainer's
/// order: the cell's other candidates (with cell links), then the digit's
/// other places in its box, row and column, each cell once; and says how
/// many of them are cell links.
fn turned_off(grid: &Grid, on: State, out: &mut Vec<State>) -> usize {
    let (cell, digit) = (cell_of(on), digit_of(on));
    let others = grid.marks(cell) & !bit(digit);
    out.extend(digits(others).map(|other| state(cell, other, false)));
    let holders = grid.cells_with(digit);
    let mut listed = Cells::single(cell);
    for unit in units_of(cell) {
        let peers = UNITS[unit].and(holders).minus(listed);
        out.extend(peers.iter().map(|peer| state(peer, digit, false)));
        listed = listed.or(UNITS[unit]);
    }
    others.count_ones() as usize
}

/// Adds to `out` the nodes an "off" turns on: the other candidate of a
/// cell with two (its cell link), then the other place of the digit in
/// its box, row and column where it has two (its unit links), each node
/// once; and says how many of them are cell links.
fn turned_on(grid: &Grid, off: State, out: &mut Vec<State>) -> usize {
    let (cell, digit) = (cell_of(off), digit_of(off));
    let marks = grid.marks(cell);
    let start = out.len();
    if marks.count_ones() == 2 && marks & bit(digit) != 0 {
        let other = digits(marks & !bit(digit)).next().expect("two candidates");
        out.push(state(cell, other, true));
    }
    let cell_links = out.len() - start;
    let holders = grid.cells_with(digit);
    for unit in units_of(cell) {
        let places = UNITS[unit].and(holders);
        if places.len() == 2 && places.has(cell) {
            let other = places
                .minus(Cells::single(cell))
                .first()
                .expect("two places");
            let node = state(other, digit, true);
            if !out[start + cell_links..].contains(&node) {
                out.push(node);
            }
        }
    }
    cell_links
}

/// One sweep's searches on a grid.
struct Search<'a> {
    grid: &'a Grid,
    links: &'a Links<'a>,
    sweep: Sweep,
}

impl Search<'_> {
    /// The cycles back to `start` (on) that the sweep finds, each a find if
    /// it removes something and may come before the `ceiling`. Level by
    /// level: every "on" reached, then every "off"; an "off" is followed
    /// again when reached another way, unless it is already on the way that
    /// led to it.
    fn cycles_from(&self, start: State, ceiling: &Ceiling, scratch: &mut Scratch) -> Vec<Find> {
        let Search { grid, links, sweep } = *self;
        // A cycle closes at depth 4 or more, on as many distinct nodes: its
        // "ons" are each met once, and an "off" is never one on its way.
        if !links.may_loop(start, 4)
            || !links
                .of(start)
                .iter()
                .any(|&next| links.leads_back(next, start))
        {
            return Vec::new();
        }
        let root = scratch.restart(start);
        let Scratch {
            arena,
            ons,
            offs,
            seen: seen_on,
            on_path,
            ..
        } = scratch;
        ons.push_back(root);
        seen_on.renew();
        seen_on.insert(start);
        let (mut depth, mut finds) = (0, Vec::new());
        while !ons.is_empty() || !offs.is_empty() {
            if ceiling.excludes_from(sweep.cycle, sweep, (depth + 2).max(4)) {
                break;
            }
            depth += 1;
            while let Some(from) = ons.pop_front() {
                arena.path_set(from, on_path);
                for &node in links.of(arena.node(from)) {
                    if links.leads_back(node, start) && !on_path.has(node) {
                        offs.push_back(arena.add(node, from));
                    }
                }
            }
            depth += 1;
            while let Some(from) = offs.pop_front() {
                for &node in links.of(arena.node(from)) {
                    if depth >= 4
                        && node == start
                        && !ceiling.excludes_from(sweep.cycle, sweep, depth)
                    {
                        let closing = arena.add(node, from);
                        finds.extend(cycle(grid, &arena.path(closing), sweep));
                    }
                    if links.leads_back(node, start) && seen_on.insert(node) {
                        ons.push_back(arena.add(node, from));
                    }
                }
            }
        }
        finds
    }

    /// The forcing chain from `start` to its opposite, if the sweep's links
    /// reach it and it may come before the `ceiling`: level by level, each
    /// node followed once.
    fn forcing_chain_from(
        &self,
        start: State,
        technique: Technique,
        ceiling: &Ceiling,
        scratch: &mut Scratch,
    ) -> Option<Find> {
        let Search { links, sweep, .. } = *self;
        let target = opposite(start);
        if !links.leads(start, target) {
            return None;
        }
        let root = scratch.restart(start);
        let Scratch {
            arena,
            ons,
            offs,
            reached,
            seen,
            ..
        } = scratch;
        seen.renew();
        seen.insert(start);
        if is_on(start) {
            ons.push_back(root);
        } else {
            offs.push_back(root);
        }
        // Each round takes two levels; a chain ending in round `r` has at
        // least `2 r + 1` nodes.
        let mut shortest = 1;
        while !ons.is_empty() || !offs.is_empty() {
            if ceiling.excludes_from(technique, sweep, shortest) {
                return None;
            }
            shortest += 2;
            for on_side in [true, false] {
                let queue = if on_side { &mut *ons } else { &mut *offs };
                reached.clear();
                while let Some(from) = queue.pop_front() {
                    for &node in links.of(arena.node(from)) {
                        if node == target {
                            let end = arena.add(node, from);
                            return Some(forcing_chain(&arena.path(end), technique, sweep));
                        }
                        if links.leads(node, target) && seen.insert(node) {
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

/// How a player is told about a cycle or forcing chain step.
pub(super) fn explain(step: &Step, _words: &Words, text: &mut String) {
    match step.technique {
        Technique::XCycle | Technique::YCycle | Technique::XYCycle => {
            let _ = write!(
                text,
                "the loop {} of alternating links holds one way round or the other, and either \
                 way no cell outside it that sees both kinds of end holds their digit",
                reasoning::eureka(&step.links)
            );
        }
        Technique::ForcingXChain | Technique::ForcingChain => {
            let _ = write!(
                text,
                "assuming the opposite of the result, {}, the chain {} leads to the result itself",
                step.links
                    .first()
                    .map(|l| reasoning::state(l.source, l.source_on))
                    .unwrap_or_default(),
                reasoning::eureka(&step.links)
            );
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::path_of;
    use super::*;

    /// What tells finds apart, for comparing two searches.
    fn described(find: &Find) -> (String, usize, u8, Step, Vec<State>, bool) {
        let Find {
            rating,
            complexity,
            order,
            step,
            path,
            is_cycle,
        } = find;
        let rating = format!("{rating}");
        (
            rating,
            *complexity,
            *order,
            step.clone(),
            path.clone(),
            *is_cycle,
        )
    }

    fn finds(grid: &Grid, wanted: Wanted) -> Vec<Find> {
        finds_within(grid, Scope::WHOLE, wanted)
    }

    fn finds_within(grid: &Grid, scope: Scope, wanted: Wanted) -> Vec<Find> {
        let mut found = Vec::new();
        each_find(grid, scope, &|| false, wanted, &mut |find| found.push(find));
        found
    }

    #[test]
    fn the_x_sweep_of_a_digit_rests_on_that_digit_s_places_alone() {
        // What a ladder that remembers relies on: narrowed to one digit,
        // the X sweep finds what the whole search finds on that digit,
        // and the same again once another digit loses a candidate.
        let x_finds = |grid: &Grid, digit: u8| {
            let x_of_digit = |find: &Find| find.order == X.order && find.step.digits == bit(digit);
            let narrowed: Vec<_> = finds_within(grid, Scope::of_digits(bit(digit)), Wanted::All)
                .iter()
                .filter(|find| find.order == X.order)
                .map(described)
                .collect();
            let whole: Vec<_> = finds(grid, Wanted::All)
                .iter()
                .filter(|find| x_of_digit(find))
                .map(described)
                .collect();
            assert_eq!(narrowed, whole, "digit {digit} at {}", grid.marks_text());
            narrowed
        };
        let mut compared = 0;
        for (text, ..) in super::super::tests::CYCLES_AND_CHAINS {
            for (grid, _) in path_of(text).0 {
                let wide = grid
                    .blanks()
                    .iter()
                    .find(|&c| grid.marks(c).count_ones() >= 3);
                if let Some(cell) = wide {
                    for digit in digits(grid.marks(cell)) {
                        let other = digits(grid.marks(cell)).find(|&d| d != digit);
                        let mut changed = grid.clone();
                        changed.eliminate(cell, other.expect("three candidates"));
                        let before = x_finds(&grid, digit);
                        let after = x_finds(&changed, digit);
                        assert_eq!(before, after, "digit {digit} at {}", grid.marks_text());
                        compared += before.len();
                    }
                }
            }
        }
        assert!(compared > 20, "{compared} finds");
    }

    #[test]
    fn pruned_searches_find_what_the_plain_search_finds() {
        // Every grid on the grading paths of puzzles that need cycles and
        // forcing chains: skipping the nodes that cannot lead back changes
        // no find nor their order, and the easiest search keeps the
        // easiest find.
        let (mut grids, mut compared) = (0, 0);
        for (text, ..) in super::super::tests::CYCLES_AND_CHAINS {
            for (grid, _) in path_of(text).0 {
                let plain = finds(&grid, Wanted::Unpruned);
                let pruned = finds(&grid, Wanted::All);
                let described_all =
                    |finds: &[Find]| finds.iter().map(described).collect::<Vec<_>>();
                assert_eq!(described_all(&pruned), described_all(&plain), "{text}");
                let mut easiest = None;
                plain
                    .into_iter()
                    .for_each(|find| keep_easiest(&mut easiest, find));
                let found = cycle_or_forcing_chain(&grid, Scope::WHOLE, &|| false);
                let with_links = easiest.map(|find| Step {
                    links: links_along(&find.path),
                    ..find.step
                });
                assert_eq!(found, with_links, "{text}");
                grids += 1;
                compared += pruned.len();
            }
        }
        assert!(
            grids > 100 && compared > 1000,
            "{grids} grids, {compared} finds"
        );
    }

    #[test]
    fn ratings_are_summed_a_tenth_at_a_time_as_sukaku_explainer_sums_them() {
        assert_eq!(explainer_rating(Rating(66), 1), 6.699999999999999);
        assert_eq!(explainer_rating(Rating(65), 2), 6.7);
        assert!(explainer_rating(Rating(66), 1) < explainer_rating(Rating(65), 2));
        assert_eq!(explainer_rating(Rating(66), 3), 6.8999999999999995);
    }
}
