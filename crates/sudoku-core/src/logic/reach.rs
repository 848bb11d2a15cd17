//! Which implication nodes reach which, under one set of links.
//!
//! The cycle and forcing-chain searches run a breadth-first search from
//! every candidate, and on most grids nearly all of them find nothing. A
//! search can only find a cycle through nodes that lead back to its start,
//! and a forcing chain through nodes that lead to its target; knowing
//! which nodes those are lets it skip the rest, and skip a search outright
//! when its target is out of reach. Nodes that cannot reach the target
//! only lead to others that cannot either, so leaving them out changes
//! neither what a search finds nor the order it finds it in.
//!
//! The links are split into strongly connected components (Tarjan's
//! algorithm, without recursion), which come out sinks first: each
//! component's reach is then itself and the union of the reaches of the
//! components its links enter, all of them already known. A reach is a
//! bit set over components, so one question costs one bit test.
//!
//! The nodes of a cycle all reach one another, so they share a component;
//! on most grids nearly every component is a single node, and a cycle
//! search asks only whether its nodes share its start's component, and
//! skips a start whose component is smaller than the shortest cycle.

use std::cell::RefCell;
use std::rc::Rc;

use super::grid::Grid;
use super::implications::{STATES, State};

thread_local! {
    /// The last grid whose reach under every link was asked for, and it.
    static LAST: RefCell<Option<(Grid, Rc<Reach>)>> = const { RefCell::new(None) };
}

/// The reach of `grid`'s cell and unit links together: `build` makes it,
/// unless it was made for this very grid last. The cycles' XY sweep and
/// the static forcing chains follow the same links, and their rungs ask
/// in turn on the same grid, as do the chains nested on a working grid.
pub(super) fn of_every_link(grid: &Grid, build: impl FnOnce() -> Reach) -> Rc<Reach> {
    let kept = LAST.with_borrow(|last| {
        last.as_ref()
            .filter(|(seen, _)| seen == grid)
            .map(|(_, reach)| reach.clone())
    });
    if let Some(reach) = kept {
        return reach;
    }
    // Built outside the borrow, so that a builder may itself ask.
    let reach = Rc::new(build());
    LAST.set(Some((grid.clone(), reach.clone())));
    reach
}

/// Which nodes reach which.
pub(super) struct Reach {
    /// Each node's component (`NONE` for a node outside the graph).
    component: Vec<u32>,
    /// Words of one component's bit set.
    stride: usize,
    /// For each component, the components it reaches, itself included.
    reached: Vec<u64>,
    /// For each component, the first word of its set that may hold a
    /// bit: a component reaches only itself and components found before
    /// it, so its set ends at its own word.
    first_word: Vec<u32>,
    /// For each component, how many nodes it holds.
    members: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Reach {
    /// The reach of `nodes`, each leading to `successors(node)`, all of
    /// which are among `nodes`.
    pub(super) fn new<'a>(nodes: &[State], successors: impl Fn(State) -> &'a [State]) -> Reach {
        let stride = nodes.len().div_ceil(64).max(1);
        let mut tarjan = Tarjan {
            reach: Reach {
                component: vec![NONE; STATES],
                stride,
                reached: Vec::with_capacity(nodes.len() * stride),
                first_word: Vec::with_capacity(nodes.len()),
                members: Vec::with_capacity(nodes.len()),
            },
            number: vec![NONE; STATES],
            low: vec![0; STATES],
            stack: Vec::new(),
            walk: Vec::new(),
            numbered: 0,
        };
        for &node in nodes {
            if tarjan.number[usize::from(node)] == NONE {
                tarjan.visit(node, &successors);
            }
        }
        tarjan.reach
    }

    /// Whether some path of links leads from `from` to `to` (a node
    /// reaches itself).
    pub(super) fn reaches(&self, from: State, to: State) -> bool {
        let (a, b) = (
            self.component[usize::from(from)],
            self.component[usize::from(to)],
        );
        if a == NONE || b == NONE {
            return false;
        }
        let word = self.reached[a as usize * self.stride + b as usize / 64];
        word >> (b % 64) & 1 != 0
    }

    /// Whether `a` and `b` reach each other (share a component).
    pub(super) fn together(&self, a: State, b: State) -> bool {
        let component = self.component[usize::from(a)];
        component != NONE && component == self.component[usize::from(b)]
    }

    /// How many nodes reach `node` and are reached from it, itself
    /// included (its component's size; 0 for a node outside the graph):
    /// every node of a loop through `node` is among them.
    pub(super) fn looped_with(&self, node: State) -> usize {
        match self.component[usize::from(node)] {
            NONE => 0,
            component => self.members[component as usize] as usize,
        }
    }

    /// Whether some node is reached from every one of `from` (which must
    /// not be empty): the words their components' sets have in common.
    pub(super) fn reached_from_all(&self, from: &[State]) -> bool {
        assert!((1..=9).contains(&from.len()), "one to nine nodes");
        let mut components = [0u32; 9];
        let (mut low, mut high) = (0, usize::MAX);
        for (slot, &node) in components.iter_mut().zip(from) {
            let component = self.component[usize::from(node)];
            if component == NONE {
                return false;
            }
            *slot = component;
            low = low.max(self.first_word[component as usize] as usize);
            high = high.min(component as usize / 64);
        }
        let components = &components[..from.len()];
        (low..=high).any(|word| {
            let row = |c: &u32| self.reached[*c as usize * self.stride + word];
            components
                .iter()
                .map(row)
                .fold(u64::MAX, |all, bits| all & bits)
                != 0
        })
    }
}

/// Tarjan's search for strongly connected components.
struct Tarjan {
    reach: Reach,
    /// Each node's visiting number (`NONE` until visited).
    number: Vec<u32>,
    /// The lowest number each node's subtree links back to.
    low: Vec<u32>,
    /// Nodes visited and not yet placed in a component.
    stack: Vec<State>,
    /// The walk's own stack: a node and how many of its links are done
    /// (kept between walks, empty, for its room).
    walk: Vec<(State, usize)>,
    numbered: u32,
}

impl Tarjan {
    fn visit<'a>(&mut self, root: State, successors: &impl Fn(State) -> &'a [State]) {
        let mut walk = std::mem::take(&mut self.walk);
        walk.push((root, 0));
        self.enter(root);
        while let Some(&mut (node, ref mut done)) = walk.last_mut() {
            let next = successors(node).get(*done).copied();
            *done += 1;
            match next {
                Some(next) if self.number[usize::from(next)] == NONE => {
                    self.enter(next);
                    walk.push((next, 0));
                }
                Some(next) => {
                    if self.reach.component[usize::from(next)] == NONE {
                        let low = self.low[usize::from(node)].min(self.number[usize::from(next)]);
                        self.low[usize::from(node)] = low;
                    }
                }
                None => {
                    walk.pop();
                    if let Some(&(parent, _)) = walk.last() {
                        let low = self.low[usize::from(parent)].min(self.low[usize::from(node)]);
                        self.low[usize::from(parent)] = low;
                    }
                    if self.low[usize::from(node)] == self.number[usize::from(node)] {
                        self.close(node, successors);
                    }
                }
            }
        }
        self.walk = walk;
    }

    fn enter(&mut self, node: State) {
        self.number[usize::from(node)] = self.numbered;
        self.low[usize::from(node)] = self.numbered;
        self.numbered += 1;
        self.stack.push(node);
    }

    /// Makes the nodes above `root` on the stack a component, reaching
    /// itself and whatever its links enter.
    fn close<'a>(&mut self, root: State, successors: &impl Fn(State) -> &'a [State]) {
        let reach = &mut self.reach;
        let id = (reach.reached.len() / reach.stride) as u32;
        let start = reach.reached.len();
        reach.reached.resize(start + reach.stride, 0);
        let split = self
            .stack
            .iter()
            .rposition(|&n| n == root)
            .expect("the root is on the stack");
        for &member in &self.stack[split..] {
            reach.component[usize::from(member)] = id;
        }
        reach.reached[start + id as usize / 64] |= 1 << (id % 64);
        let mut first_word = id / 64;
        for &member in &self.stack[split..] {
            for &next in successors(member) {
                let other = reach.component[usize::from(next)] as usize;
                let known = reach.reached[start + other / 64] >> (other % 64) & 1 != 0;
                if !known {
                    let from = reach.first_word[other];
                    first_word = first_word.min(from);
                    for word in from as usize..=other / 64 {
                        let bits = reach.reached[other * reach.stride + word];
                        reach.reached[start + word] |= bits;
                    }
                }
            }
        }
        reach.first_word.push(first_word);
        reach.members.push((self.stack.len() - split) as u32);
        self.stack.truncate(split);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reach of a small graph given as (node, successors) pairs.
    fn reach_of(edges: &[(State, &'static [State])]) -> Reach {
        let nodes: Vec<State> = edges.iter().map(|&(n, _)| n).collect();
        let successors = |node: State| -> &'static [State] {
            edges
                .iter()
                .find(|&&(n, _)| n == node)
                .map_or(&[], |&(_, s)| s)
        };
        Reach::new(&nodes, successors)
    }

    #[test]
    fn a_chain_reaches_forward_only() {
        let reach = reach_of(&[(1, &[2]), (2, &[3]), (3, &[])]);
        assert!(reach.reaches(1, 3));
        assert!(reach.reaches(2, 3));
        assert!(!reach.reaches(3, 1));
        assert!(!reach.reaches(3, 2));
        assert!(reach.reaches(3, 3));
    }

    #[test]
    fn a_loop_reaches_all_of_itself_and_what_it_leads_to() {
        let reach = reach_of(&[
            (1, &[2]),
            (2, &[3, 4]),
            (3, &[1]),
            (4, &[5]),
            (5, &[]),
            (6, &[1]),
        ]);
        for a in [1, 2, 3] {
            for b in [1, 2, 3, 4, 5] {
                assert!(reach.reaches(a, b), "{a} -> {b}");
            }
            assert!(!reach.reaches(a, 6));
            assert!(!reach.reaches(4, a));
        }
        assert!(reach.reaches(6, 5));
        assert!(!reach.reaches(5, 4));
    }

    #[test]
    fn nodes_that_reach_each_other_are_counted_together() {
        // Two loops, of three nodes and of two, joined one way, and a
        // node that leads into the first.
        let reach = reach_of(&[
            (1, &[2]),
            (2, &[3]),
            (3, &[1, 4]),
            (4, &[5]),
            (5, &[4]),
            (6, &[1]),
        ]);
        for node in [1, 2, 3] {
            assert_eq!(reach.looped_with(node), 3, "{node}");
            assert!(reach.together(node, 1) && !reach.together(node, 4));
        }
        assert_eq!((reach.looped_with(4), reach.looped_with(5)), (2, 2));
        assert!(reach.together(5, 4));
        assert_eq!(reach.looped_with(6), 1);
        assert!(reach.together(6, 6) && !reach.together(6, 1));
        assert_eq!(reach.looped_with(9), 0, "a node outside the graph");
        assert!(!reach.together(9, 9));
    }

    #[test]
    fn nodes_outside_the_graph_reach_nothing() {
        let reach = reach_of(&[(1, &[2]), (2, &[])]);
        assert!(!reach.reaches(7, 1));
        assert!(!reach.reaches(1, 7));
    }

    #[test]
    fn reaches_agree_with_a_plain_search_on_a_larger_graph() {
        // A pseudo-random graph of 200 nodes: each node's reach checked
        // against a depth-first search.
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let count = 200;
        let successors: Vec<Vec<State>> = (0..count)
            .map(|_| (0..next() % 3).map(|_| (next() % count) as State).collect())
            .collect();
        let nodes: Vec<State> = (0..count as State).collect();
        let reach = Reach::new(&nodes, |n| successors[usize::from(n)].as_slice());
        for from in 0..count {
            let mut seen = vec![false; count];
            let mut stack = vec![from];
            seen[from] = true;
            while let Some(n) = stack.pop() {
                for &s in &successors[n] {
                    if !seen[usize::from(s)] {
                        seen[usize::from(s)] = true;
                        stack.push(usize::from(s));
                    }
                }
            }
            for (to, &reached) in seen.iter().enumerate() {
                assert_eq!(
                    reach.reaches(from as State, to as State),
                    reached,
                    "{from} -> {to}"
                );
            }
        }
        // Sets of starts whose components' sets span several words.
        let (mut shared, mut apart) = (0, 0);
        for _ in 0..3000 {
            let starts: Vec<State> = (0..1 + next() % 3)
                .map(|_| (next() % count) as State)
                .collect();
            let expected =
                (0..count as State).any(|to| starts.iter().all(|&s| reach.reaches(s, to)));
            assert_eq!(reach.reached_from_all(&starts), expected, "{starts:?}");
            if expected { shared += 1 } else { apart += 1 }
        }
        assert!(shared > 100 && apart > 100, "{shared} {apart}");
    }

    #[test]
    fn nodes_reach_one_in_common_where_some_node_is_reached_from_each() {
        // Chains of components, a loop among them: sets of up to three
        // starts, each checked against every node's reach.
        let successors: [&[State]; 12] = [
            &[1],
            &[2, 5],
            &[3],
            &[1],
            &[3],
            &[],
            &[7],
            &[8],
            &[],
            &[0, 8],
            &[10, 11],
            &[],
        ];
        let nodes: Vec<State> = (0..12).collect();
        let reach = Reach::new(&nodes, |n| successors[usize::from(n)]);
        let (mut shared, mut apart) = (0, 0);
        for a in 0..12 {
            for b in 0..12 {
                for c in 0..12 {
                    let starts = [a, b, c];
                    let expected = (0..12).any(|to| starts.iter().all(|&s| reach.reaches(s, to)));
                    assert_eq!(reach.reached_from_all(&starts), expected, "{starts:?}");
                    assert_eq!(
                        reach.reached_from_all(&starts[..2]),
                        (0..12).any(|to| reach.reaches(a, to) && reach.reaches(b, to)),
                        "{a} {b}"
                    );
                    if expected { shared += 1 } else { apart += 1 }
                }
            }
        }
        assert!(shared > 100 && apart > 100, "{shared} {apart}");
        assert!(
            !reach.reached_from_all(&[0, 20]),
            "a node outside the graph"
        );
    }
}
