//! The chains a nested rule finds on a working grid, in the form the
//! search that nests them needs: what each removes, which of its links
//! rest on candidates the working grid lost (its rule parents), and how
//! many nodes it counts for.
//!
//! Level 2 nests Sukaku Explainer's cycles and forcing chains
//! ([`super::super::cycles`]); level 3 also its static cell and region
//! chains ([`super::search::STATIC`]); level 4 its dynamic chains
//! ([`super::search::dynamic`]) instead, nested to a limit of their own.
//! Each list is sorted as that producer sorts its hints, and a hint that
//! removes exactly what an earlier one removes is dropped.

use std::rc::Rc;

use super::super::bits::{UNITS, bit, units_of};
use super::super::cycles::{Find, all_cycles_and_chains};
use super::super::grid::Grid;
use super::super::implications::{State, cell_of, digit_of, is_on};
use super::nested::{NestedChains, NestedRules};
use super::propagation::{Cause, NodeId, Propagation};
use super::search::{Conclusion, Kind, Producer, Sink, complexity, conclusions, walk};

/// The link that made an "on" of a nested chain: a cell with one
/// candidate left, or a unit with one place left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RuleCause {
    Cell,
    Unit(u8),
}

/// A chain found on a working grid.
pub(super) struct InnerHint {
    /// What it removes, cell by cell, in the order it lists them.
    pub removals: Vec<(u8, u16)>,
    /// Its "ons" with the link that made each: what its rule parents are
    /// worked out from.
    pub recipe: Vec<(State, RuleCause)>,
    /// Its entry in [`NestedRules::nested`].
    pub nested: u32,
}

/// A hash of a chain's targets and nodes, equal for equal chains.
struct Identity(u64);

impl Identity {
    fn new(tag: u64) -> Identity {
        Identity(0xcbf2_9ce4_8422_2325 ^ tag)
    }

    fn add(&mut self, value: u64) {
        self.0 = (self.0 ^ value).wrapping_mul(0x0100_0000_01b3);
    }
}

fn register(nested: &mut NestedChains, identity: Identity, complexity: u32) -> u32 {
    nested.register(identity.0, complexity)
}

/// What a hint concluding `node` on `grid` removes.
fn removals_of(grid: &Grid, node: State) -> Vec<(u8, u16)> {
    let (cell, digit) = (cell_of(node), digit_of(node));
    let marks = match is_on(node) {
        true => grid.marks(cell) & !bit(digit),
        false => bit(digit),
    };
    vec![(cell as u8, marks)]
}

/// Keeps the first of the hints with equal removals.
fn first_of_each(removals: &[(u8, u16)], kept: &mut Vec<Vec<(u8, u16)>>) -> bool {
    let mut sorted = removals.to_vec();
    sorted.sort();
    if kept.contains(&sorted) {
        return false;
    }
    kept.push(sorted);
    true
}

/// Sukaku Explainer's cycles and forcing chains on `work`.
pub(super) fn cycles_and_chains(work: &Grid, nested: &mut NestedChains) -> Vec<InnerHint> {
    let mut kept = Vec::new();
    let mut hints = Vec::new();
    for find in all_cycles_and_chains(work) {
        let removals = find_removals(work, &find);
        if removals.is_empty() || !first_of_each(&removals, &mut kept) {
            continue;
        }
        let mut identity = Identity::new(u64::from(find.is_cycle));
        for &node in &find.path {
            identity.add(u64::from(node));
        }
        let recipe = path_recipe(work, &find.path, find.is_cycle);
        hints.push(InnerHint {
            removals,
            recipe,
            nested: register(nested, identity, find.complexity as u32),
        });
    }
    hints
}

fn find_removals(work: &Grid, find: &Find) -> Vec<(u8, u16)> {
    if let Some(placed) = find.step.placements.first() {
        let node = super::super::implications::state(usize::from(placed.cell), placed.digit, true);
        return removals_of(work, node);
    }
    let mut removals: Vec<(u8, u16)> = Vec::new();
    for mark in &find.step.eliminations {
        match removals.iter_mut().find(|(cell, _)| *cell == mark.cell) {
            Some((_, marks)) => *marks |= bit(mark.digit),
            None => removals.push((mark.cell, bit(mark.digit))),
        }
    }
    removals
}

/// The "ons" of a cycle or chain (from its end back to its start) and
/// their links. A cycle also holds the other way round, where its "offs"
/// are "ons" with the same links.
fn path_recipe(work: &Grid, path: &[State], is_cycle: bool) -> Vec<(State, RuleCause)> {
    let mut recipe = Vec::new();
    for pair in path.windows(2) {
        let (node, parent) = (pair[0], pair[1]);
        if !is_on(node) && !is_cycle {
            continue;
        }
        recipe.push((node | 1, link_cause(work, parent, node)));
    }
    recipe
}

/// The link from `parent` to `node` as Sukaku Explainer names it: the
/// cell's, else the first of box, row and column that holds both (and,
/// to an "on", where the digit has just those two places).
fn link_cause(work: &Grid, parent: State, node: State) -> RuleCause {
    let (from, to) = (cell_of(parent), cell_of(node));
    if from == to {
        return RuleCause::Cell;
    }
    let digit = digit_of(node);
    let unit = units_of(from)
        .into_iter()
        .find(|&unit| {
            UNITS[unit].has(to)
                && (!is_on(node) || UNITS[unit].and(work.cells_with(digit)).len() == 2)
        })
        .unwrap_or(units_of(from)[0]);
    RuleCause::Unit(unit as u8)
}

/// The chains `producer` (static cell and region chains, or dynamic
/// chains) finds on `work`, with `own` as the state of its own nested
/// searches; `None` if `should_stop` said stop first.
pub(super) fn propagated_chains(
    work: &Grid,
    producer: Producer,
    own: &mut dyn NestedRules,
    nested: &mut NestedChains,
    should_stop: &dyn Fn() -> bool,
) -> Option<Vec<InnerHint>> {
    let mut every = Every(Vec::new());
    if !conclusions(work, producer, own, should_stop, &mut every) {
        return None;
    }
    let mut found = every.0;
    found.sort_by_key(|&(complexity, kind, _)| (complexity, kind));
    let mut kept = Vec::new();
    let mut hints = Vec::new();
    // Chains of different producers with the same nodes are different
    // nested chains.
    let tag = match producer.mode.dynamic {
        true => 3 + u64::from(producer.mode.level),
        false => 2,
    };
    for (complexity, _, conclusion) in found {
        let removals = removals_of(work, conclusion.node);
        if !first_of_each(&removals, &mut kept) {
            continue;
        }
        let mut identity = Identity::new(tag);
        let mut recipe = Vec::new();
        for (branch, target) in &conclusion.targets {
            identity.add(u64::MAX);
            branch_recipe(branch, *target, &conclusion, &mut identity, &mut recipe);
        }
        hints.push(InnerHint {
            removals,
            recipe,
            nested: register(nested, identity, complexity),
        });
    }
    Some(hints)
}

/// Every conclusion, with the nodes it rests on.
struct Every(Vec<(u32, Kind, Conclusion)>);

impl Sink for Every {
    fn wants(&self, _: u32, _: Kind) -> bool {
        true
    }

    fn take(&mut self, conclusion: Conclusion, nested: &NestedChains) {
        let complexity = complexity(&conclusion.targets, nested);
        self.0.push((complexity, conclusion.kind, conclusion));
    }
}

/// The "ons" one branch of a cell or region chain rests on, with their
/// links; its assumption counts as a cell link (a cell chain) or a link
/// in the chain's unit.
fn branch_recipe(
    branch: &Rc<Propagation>,
    target: NodeId,
    conclusion: &Conclusion,
    identity: &mut Identity,
    recipe: &mut Vec<(State, RuleCause)>,
) {
    walk(branch, target, |node| {
        identity.add(u64::from(node.state));
        if !is_on(node.state) {
            return;
        }
        let cause = match node.cause {
            Cause::Cell => Some(RuleCause::Cell),
            Cause::Unit(unit) => Some(RuleCause::Unit(unit)),
            Cause::Assumed => match (conclusion.kind, conclusion.unit) {
                (Kind::Cell, _) => Some(RuleCause::Cell),
                (Kind::Region, Some(unit)) => Some(RuleCause::Unit(unit as u8)),
                _ => None,
            },
            Cause::Advanced(_) => None,
        };
        recipe.extend(cause.map(|cause| (node.state, cause)));
    });
}
