//! Everything one assumption implies, followed the way Sukaku Explainer
//! follows it, with every implication's parents kept.
//!
//! A node is a candidate being on or off. From an "on", its cell's other
//! candidates (with cell links) and its digit's other places in its box,
//! row and column go off; from an "off", the other candidate of a cell
//! left with two goes on (with cell links), and so does the other place of
//! the digit in a unit left with two. Pending "ons" are always followed
//! before pending "offs", and each node is reached once. A *dynamic*
//! search crosses each "off" out of a working copy of the grid as it
//! follows it, so the cells and units it empties count what is left; the
//! "offs" that emptied them become hidden parents of what they imply. When
//! nothing is pending, a nested search (level 1 and up) asks the simple
//! techniques, and from level 2 chains, what the working grid allows
//! ([`super::nested`]).
//!
//! The order matters: which parents a node gets decides how many nodes a
//! conclusion rests on, and that count is its rating. Each node keeps the
//! length of its line of first parents, a lower bound on that count that
//! lets a producer skip counting conclusions that cannot win. A static
//! search, whose grid never changes, reads each node's successors from a
//! table made once per grid ([`Links`]).

use std::rc::Rc;

use super::super::bits::{Cells, UNITS, bit, digits, units_of};
use super::super::grid::Grid;
use super::super::implications::{STATES, State, cell_of, digit_of, is_on, opposite, state};
use super::super::reach::{Reach, of_every_link};
use super::nested::{NestedRules, Rule};

/// Why a node follows from its first parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cause {
    /// The assumption a search starts from.
    Assumed,
    /// A cell link: the cell's only other candidate, or a candidate its
    /// placed digit rules out.
    Cell,
    /// A unit link in this unit (index as in `bits::UNITS`).
    Unit(u8),
    /// A simple technique or a nested chain on the working grid.
    Advanced(Rule),
}

/// A node's index in its [`Propagation`].
pub(super) type NodeId = u32;

/// No nested chain.
pub(super) const NO_NESTED: u32 = u32::MAX;

/// One node reached, and what it rests on.
#[derive(Debug, Clone, Copy)]
pub(super) struct Node {
    pub state: State,
    pub cause: Cause,
    /// How many steps of first parents lead back to the assumption: the
    /// node rests on at least one more node than that (those of the line
    /// and itself, each a different node).
    pub depth: u16,
    parent_count: u16,
    first_parent: u32,
    /// The nested chain that implied it (an index into
    /// [`NestedRules::nested`]), or [`NO_NESTED`].
    pub nested: u32,
}

/// The rules a search follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Mode {
    /// Links between the candidates of one cell (all but Nishio).
    pub cell_links: bool,
    /// Cross each "off" out of the working grid as it is followed.
    pub dynamic: bool,
    /// Nesting level: 0 for plain chains, up to 3; 4 to 7 for level 4
    /// with an inner limit of 0 to 3.
    pub level: u8,
}

/// Everything one assumption implies, up to a contradiction if it meets
/// one.
pub(super) struct Propagation {
    /// Its nodes and lists, handed back to the thread's pool when it is
    /// dropped.
    buffers: Buffers,
    /// A candidate found both on and off: its "on" node and its "off"
    /// node (one of them the node that closed the contradiction, which is
    /// in neither list).
    pub contradiction: Option<(NodeId, NodeId)>,
}

/// A search's working lists, empty between uses.
#[derive(Default)]
struct Scratch {
    successors: Vec<Successor>,
    parents: Vec<NodeId>,
}

/// A propagation's nodes and lists. Emptied (the index all zero), they
/// are kept for reuse: the nested searches make and drop propagations by
/// the hundred thousand, and allocating them was a sixth of their time.
#[derive(Default)]
struct Buffers {
    nodes: Vec<Node>,
    parents: Vec<NodeId>,
    /// For each state reached, its node's index plus one (0: not reached;
    /// a search reaches each state once, so there are fewer than 1,460).
    index: Vec<u16>,
    /// The "on" nodes, in the order reached.
    ons: Vec<NodeId>,
    /// The "off" nodes, in the order reached.
    offs: Vec<NodeId>,
    /// The working lists of the search that fills them.
    scratch: Scratch,
}

impl Buffers {
    /// Fresh buffers with room for a typical search (the default has
    /// no index: only a placeholder).
    fn with_room() -> Buffers {
        Buffers {
            nodes: Vec::with_capacity(256),
            parents: Vec::with_capacity(512),
            index: vec![0; STATES],
            ..Buffers::default()
        }
    }

    /// Empties them for reuse, keeping their room: the index back to all
    /// zeros (clearing only the states reached), every list cleared.
    fn clear(&mut self) {
        for node in &self.nodes {
            self.index[usize::from(node.state)] = 0;
        }
        self.nodes.clear();
        self.parents.clear();
        self.ons.clear();
        self.offs.clear();
        self.scratch.successors.clear();
        self.scratch.parents.clear();
    }

    /// The heap bytes it holds.
    fn bytes(&self) -> usize {
        let ids = self.parents.capacity()
            + self.ons.capacity()
            + self.offs.capacity()
            + self.scratch.parents.capacity();
        self.nodes.capacity() * size_of::<Node>()
            + ids * size_of::<NodeId>()
            + self.index.capacity() * size_of::<u16>()
            + self.scratch.successors.capacity() * size_of::<Successor>()
    }
}

/// Most bytes of buffers a thread keeps for reuse. A search keeps the
/// propagation of every "on" of its grid alive until it is done (several
/// hundred, some 10 KB each), and the searches nested in it keep theirs;
/// a pool that holds them all spares the hardest puzzles a sixth of their
/// time. It stays inside the worker's grading allowance (12 MiB,
/// docs/operations.md): what it keeps is what a search held at once.
const POOL_BYTES: usize = 4 << 20;

/// The buffers a thread keeps, and their bytes.
#[derive(Default)]
struct Pool {
    buffers: Vec<Buffers>,
    bytes: usize,
}

thread_local! {
    static POOL: std::cell::RefCell<Pool> = std::cell::RefCell::default();
}

impl Propagation {
    fn new() -> Propagation {
        Propagation {
            buffers: POOL
                .with_borrow_mut(Pool::take)
                .unwrap_or_else(Buffers::with_room),
            contradiction: None,
        }
    }

    /// The "on" nodes, in the order reached.
    pub fn ons(&self) -> &[NodeId] {
        &self.buffers.ons
    }

    /// The "off" nodes, in the order reached.
    pub fn offs(&self) -> &[NodeId] {
        &self.buffers.offs
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.buffers.nodes[id as usize]
    }

    pub fn parents(&self, id: NodeId) -> &[NodeId] {
        let node = &self.buffers.nodes[id as usize];
        let start = node.first_parent as usize;
        &self.buffers.parents[start..start + node.parent_count as usize]
    }

    /// The node of `state`, if the search reached it.
    pub fn find(&self, state: State) -> Option<NodeId> {
        match self.buffers.index[usize::from(state)] {
            0 => None,
            id => Some(NodeId::from(id) - 1),
        }
    }

    /// Whether the search reached `state`.
    pub fn reached(&self, state: State) -> bool {
        self.buffers.index[usize::from(state)] != 0
    }

    /// A new node, not yet listed as reached.
    fn add(&mut self, state: State, cause: Cause, parents: &[NodeId], nested: u32) -> NodeId {
        let first_parent = self.buffers.parents.len() as u32;
        match parents {
            // Nearly every node has one parent: a push is cheaper.
            &[parent] => self.buffers.parents.push(parent),
            _ => self.buffers.parents.extend_from_slice(parents),
        }
        let depth = parents
            .first()
            .map_or(0, |&parent| self.buffers.nodes[parent as usize].depth + 1);
        self.buffers.nodes.push(Node {
            state,
            cause,
            depth,
            parent_count: parents.len() as u16,
            first_parent,
            nested,
        });
        (self.buffers.nodes.len() - 1) as NodeId
    }

    /// Follows a link to `next` (`cause`, resting on `parents`): lists it
    /// if it is new; false if its opposite was reached, when it closes
    /// the contradiction that ends the search.
    fn follow_link(&mut self, next: State, cause: Cause, parents: &[NodeId]) -> bool {
        if let Some(other) = self.find(opposite(next)) {
            let closing = self.add(next, cause, parents, NO_NESTED);
            self.contradiction = Some(match is_on(next) {
                true => (closing, other),
                false => (other, closing),
            });
            return false;
        }
        if !self.reached(next) {
            let id = self.add(next, cause, parents, NO_NESTED);
            self.list(id);
        }
        true
    }

    /// Lists `id` as reached.
    fn list(&mut self, id: NodeId) {
        let state = self.buffers.nodes[id as usize].state;
        self.buffers.index[usize::from(state)] = (id + 1) as u16;
        match is_on(state) {
            true => self.buffers.ons.push(id),
            false => self.buffers.offs.push(id),
        }
    }
}

impl Drop for Propagation {
    /// Hands the buffers back to the thread's pool, emptied.
    fn drop(&mut self) {
        let mut buffers = std::mem::take(&mut self.buffers);
        buffers.clear();
        // A thread being torn down may have dropped its pool already.
        let _ = POOL.try_with(|pool| {
            if let Ok(mut pool) = pool.try_borrow_mut() {
                pool.keep(buffers);
            }
        });
    }
}

impl Pool {
    /// Buffers to reuse, if it has some.
    fn take(&mut self) -> Option<Buffers> {
        let buffers = self.buffers.pop()?;
        self.bytes -= buffers.bytes();
        Some(buffers)
    }

    /// Keeps `buffers` if they fit in [`POOL_BYTES`]; else they are freed.
    fn keep(&mut self, buffers: Buffers) {
        let bytes = buffers.bytes();
        if self.bytes + bytes <= POOL_BYTES {
            self.bytes += bytes;
            self.buffers.push(buffers);
        }
    }
}

/// A successor found by one implication step: its state and cause.
struct Successor {
    state: State,
    cause: Cause,
}

/// The links a static search follows on one grid: each node's
/// successors, listed once, in the order [`follow`] would work them out. A static search
/// never changes its grid, and a producer follows hundreds of searches
/// on the same one: finding a node's successors from the table instead
/// of the grid's units makes each search about twice as fast.
pub(super) struct Links {
    /// Where each state's successors start in `successors`; the next
    /// state's start is where they end.
    starts: Vec<u32>,
    successors: Vec<State>,
    /// Each successor's cause, in step with `successors`.
    causes: Vec<Cause>,
    /// The grid's candidates, on and off.
    nodes: Vec<State>,
    /// Whether they include the cell links: only then are they the links
    /// whose reach [`of_every_link`] keeps.
    cell_links: bool,
}

impl Links {
    /// The links of `grid` under `mode`, which must not be dynamic or
    /// nested.
    pub fn new(grid: &Grid, mode: Mode) -> Links {
        debug_assert!(!mode.dynamic && mode.level == 0, "a static search");
        let mut links = Links {
            starts: Vec::with_capacity(STATES + 1),
            successors: Vec::with_capacity(4 * STATES),
            causes: Vec::with_capacity(4 * STATES),
            nodes: Vec::with_capacity(STATES),
            cell_links: mode.cell_links,
        };
        let mut found = Vec::new();
        for node in 0..STATES as State {
            links.starts.push(links.successors.len() as u32);
            if !grid.has(cell_of(node), digit_of(node)) {
                continue;
            }
            links.nodes.push(node);
            match is_on(node) {
                true => {
                    turned_off(grid, node, mode, |next, cause| {
                        links.successors.push(next);
                        links.causes.push(cause);
                        true
                    });
                }
                false => {
                    turned_on(grid, node, mode, &mut found);
                    for next in found.drain(..) {
                        links.successors.push(next.state);
                        links.causes.push(next.cause);
                    }
                }
            }
        }
        links.starts.push(links.successors.len() as u32);
        links
    }

    /// Which nodes lead to which by these links, the links of `grid`
    /// (made once per grid: see [`of_every_link`]). A static search
    /// reaches exactly the nodes its start leads to, up to a
    /// contradiction.
    pub fn reach(&self, grid: &Grid) -> Rc<Reach> {
        assert!(self.cell_links, "the kept reach is that of every link");
        of_every_link(grid, || self.own_reach())
    }

    /// Which nodes lead to which by these links, worked out afresh.
    pub fn own_reach(&self) -> Reach {
        Reach::new(&self.nodes, |node| self.of(node).0)
    }

    /// The successors of `node`, and their causes.
    fn of(&self, node: State) -> (&[State], &[Cause]) {
        let node = usize::from(node);
        let span = self.starts[node] as usize..self.starts[node + 1] as usize;
        (&self.successors[span.clone()], &self.causes[span])
    }
}

/// Follows everything `start` implies by `links` alone: [`propagate`] on
/// the grid the links were made from, in a static mode.
pub(super) fn propagate_fixed(links: &Links, start: State) -> Propagation {
    let mut found = Propagation::new();
    let root = found.add(start, Cause::Assumed, &[], NO_NESTED);
    found.list(root);
    let (mut next_on, mut next_off) = (0, 0);
    loop {
        let from = if next_on < found.ons().len() {
            next_on += 1;
            found.ons()[next_on - 1]
        } else if next_off < found.offs().len() {
            next_off += 1;
            found.offs()[next_off - 1]
        } else {
            return found;
        };
        let (successors, causes) = links.of(found.node(from).state);
        for (&next, &cause) in successors.iter().zip(causes) {
            if !found.follow_link(next, cause, &[from]) {
                return found;
            }
        }
    }
}

/// Follows everything `start` implies on `grid` under `mode`. The chains
/// nested in it (level 1 and up) poll `should_stop`; once it says stop,
/// what they found is partial, and so is the propagation.
pub(super) fn propagate(
    grid: &Grid,
    start: State,
    mode: Mode,
    advanced: &mut dyn NestedRules,
    should_stop: &dyn Fn() -> bool,
) -> Propagation {
    let mut found = Propagation::new();
    let mut scratch = std::mem::take(&mut found.buffers.scratch);
    let context = (advanced, should_stop);
    follow(&mut found, grid, start, mode, context, &mut scratch);
    found.buffers.scratch = scratch;
    found
}

/// The search of [`propagate`], into `found`, with `scratch` for its
/// working lists.
fn follow(
    found: &mut Propagation,
    grid: &Grid,
    start: State,
    mode: Mode,
    (advanced, should_stop): (&mut dyn NestedRules, &dyn Fn() -> bool),
    scratch: &mut Scratch,
) {
    let root = found.add(start, Cause::Assumed, &[], NO_NESTED);
    found.list(root);
    let mut work = grid.clone();
    let (mut next_on, mut next_off) = (0, 0);
    let Scratch {
        successors,
        parents,
    } = scratch;
    loop {
        if next_on < found.ons().len() {
            let from = found.ons()[next_on];
            next_on += 1;
            let on = found.node(from).state;
            if !turned_off(&work, on, mode, |off, cause| {
                found.follow_link(off, cause, &[from])
            }) {
                return;
            }
            continue;
        }
        if next_off < found.offs().len() {
            let from = found.offs()[next_off];
            next_off += 1;
            let off = found.node(from).state;
            turned_on(&work, off, mode, successors);
            for Successor { state, cause } in successors.drain(..) {
                if found.reached(state) && !found.reached(opposite(state)) {
                    continue; // nothing new: spare it its hidden parents
                }
                parents.clear();
                parents.push(from);
                if mode.dynamic {
                    let hidden = lost_by(&work, grid, off, cause);
                    parents.extend(hidden.filter_map(|s| found.find(s)));
                }
                if !found.follow_link(state, cause, parents) {
                    return;
                }
            }
            if mode.dynamic {
                work.eliminate(cell_of(off), digit_of(off));
            }
            continue;
        }
        if mode.level == 0 || !add_advanced(found, (&work, grid), mode.level, advanced, should_stop)
        {
            return;
        }
    }
}

/// Adds the "offs" the nested rules find on the working grid; false if
/// they found nothing new.
fn add_advanced(
    found: &mut Propagation,
    (work, source): (&Grid, &Grid),
    level: u8,
    advanced: &mut dyn NestedRules,
    should_stop: &dyn Fn() -> bool,
) -> bool {
    let mut added = false;
    let implied = advanced.implications(work, source, level, should_stop);
    let mut parents = Vec::new();
    for implication in implied {
        if found.reached(implication.state) {
            continue;
        }
        parents.clear();
        parents.extend(implication.parents.iter().filter_map(|&s| found.find(s)));
        let id = found.add(
            implication.state,
            Cause::Advanced(implication.rule),
            &parents,
            implication.nested,
        );
        found.list(id);
        added = true;
    }
    added
}

/// What an "on" turns off: its cell's other candidates (with cell links),
/// then its digit's other places in its box, row and column, each once,
/// each handed to `each` (an "off" has no hidden parents) until it says
/// stop; false if it did.
fn turned_off(
    work: &Grid,
    on: State,
    mode: Mode,
    mut each: impl FnMut(State, Cause) -> bool,
) -> bool {
    let (cell, digit) = (cell_of(on), digit_of(on));
    if mode.cell_links {
        for other in digits(work.marks(cell) & !bit(digit)) {
            if !each(state(cell, other, false), Cause::Cell) {
                return false;
            }
        }
    }
    let mut listed = Cells::single(cell);
    for unit in units_of(cell) {
        for peer in UNITS[unit].and(work.cells_with(digit)).minus(listed).iter() {
            if !each(state(peer, digit, false), Cause::Unit(unit as u8)) {
                return false;
            }
        }
        listed = listed.or(UNITS[unit]);
    }
    true
}

/// What an "off" turns on: the other candidate of a cell left with two
/// (with cell links), then the other place of the digit in its box, row
/// and column where one other is left, each node once.
fn turned_on(work: &Grid, off: State, mode: Mode, out: &mut Vec<Successor>) {
    let (cell, digit) = (cell_of(off), digit_of(off));
    let marks = work.marks(cell);
    if mode.cell_links && marks.count_ones() == 2 {
        let other = digits(marks & !bit(digit)).next().expect("two candidates");
        out.push(Successor {
            state: state(cell, other, true),
            cause: Cause::Cell,
        });
    }
    for unit in units_of(cell) {
        let places = UNITS[unit].and(work.cells_with(digit));
        let others = places.minus(Cells::single(cell));
        if others.len() != 1 {
            continue;
        }
        let other = others.first().expect("one place");
        let node = state(other, digit, true);
        if out.iter().any(|s| s.state == node) {
            continue;
        }
        out.push(Successor {
            state: node,
            cause: Cause::Unit(unit as u8),
        });
    }
}

/// The hidden parents of what `off` turns on by `cause` in a dynamic
/// search, on the working grid before `off` is crossed out: the
/// candidates the source had in that cell, or the places it had for the
/// digit in that unit, that the working grid has lost.
fn lost_by(work: &Grid, source: &Grid, off: State, cause: Cause) -> impl Iterator<Item = State> {
    let (cell, digit) = (cell_of(off), digit_of(off));
    let (lost_digits, lost_places) = match cause {
        Cause::Cell => (source.marks(cell) & !work.marks(cell), Cells::EMPTY),
        Cause::Unit(unit) => {
            let unit = &UNITS[usize::from(unit)];
            let lost = unit
                .and(source.cells_with(digit))
                .minus(work.cells_with(digit));
            (0, lost)
        }
        Cause::Assumed | Cause::Advanced(_) => unreachable!("an off turns nodes on by links"),
    };
    let in_cell = digits(lost_digits).map(move |d| state(cell, d, false));
    in_cell.chain(lost_places.iter().map(move |c| state(c, digit, false)))
}

#[cfg(test)]
mod tests {
    use super::super::advanced::Advanced;
    use super::*;
    use crate::parse_board;

    #[test]
    fn the_pool_keeps_buffers_up_to_its_bytes() {
        let buffers = || Buffers {
            nodes: Vec::with_capacity(1024),
            index: vec![0; STATES],
            ..Buffers::default()
        };
        let each = buffers().bytes();
        let mut pool = Pool::default();
        for _ in 0..2 * POOL_BYTES / each {
            pool.keep(buffers());
        }
        assert_eq!(pool.buffers.len(), POOL_BYTES / each);
        assert_eq!(pool.bytes, pool.buffers.len() * each);
        assert!(pool.take().is_some());
        assert_eq!(pool.bytes, pool.buffers.len() * each);
    }

    #[test]
    fn reused_buffers_start_empty() {
        // Propagations from every candidate, each dropped before the
        // next is made from its buffers: each must reach exactly the
        // states of its own nodes (it fails when a dropped propagation's
        // index is not cleared).
        let board = parse_board(
            "...3....4.....4...7.39..62...8.657..9.........16......42...7.3.........8.9....5.7",
        )
        .expect("a valid board");
        let grid = Grid::new(&board);
        let mode = Mode {
            cell_links: true,
            dynamic: true,
            level: 0,
        };
        let mut advanced = Advanced::default();
        let mut checked = 0;
        for cell in grid.blanks().iter() {
            for digit in digits(grid.marks(cell)) {
                for on in [true, false] {
                    let start = state(cell, digit, on);
                    let found = propagate(&grid, start, mode, &mut advanced, &|| false);
                    for s in 0..STATES as State {
                        let listed = found
                            .ons()
                            .iter()
                            .chain(found.offs())
                            .any(|&id| found.node(id).state == s);
                        assert_eq!(
                            found.reached(s),
                            listed,
                            "state {s} from {cell} {digit} {on}"
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
