//! A forcing chain's conclusion as the branches a player reads: each
//! assumption, every implication the result rests on, and where it ends.
//!
//! The search keeps every node's parents to count what a conclusion
//! rests on; the same parents, walked back from each branch's ends, give
//! the links. They are listed in the order the search reached their
//! targets, so every link's source comes before it.

use std::rc::Rc;

use super::super::implications::{State, cell_of, digit_of, is_on};
use super::super::step::{Branch, LinkKind, Mark, implication};
use super::propagation::{Cause, NodeId, Propagation};
use super::search::{Conclusion, Kind};

/// The branches of `conclusion`, one per propagation it rests on, in
/// order.
pub(super) fn branches_of(conclusion: &Conclusion) -> Vec<Branch> {
    let mut groups: Vec<(&Rc<Propagation>, Vec<NodeId>)> = Vec::new();
    for (propagation, target) in &conclusion.targets {
        match groups.iter_mut().find(|(p, _)| Rc::ptr_eq(p, propagation)) {
            Some((_, targets)) => targets.push(*target),
            None => groups.push((propagation, vec![*target])),
        }
    }
    groups
        .into_iter()
        .map(|(propagation, targets)| branch(propagation, &targets, conclusion))
        .collect()
}

fn mark(node: State) -> Mark {
    Mark::new(cell_of(node), digit_of(node))
}

/// One branch: the links into every ancestor of `targets`.
fn branch(propagation: &Propagation, targets: &[NodeId], conclusion: &Conclusion) -> Branch {
    let mut ancestors = Vec::new();
    let room = targets.iter().max().map_or(0, |&t| t as usize + 1);
    let mut seen = vec![false; room];
    let mut queue: Vec<NodeId> = targets.to_vec();
    while let Some(id) = queue.pop() {
        if std::mem::replace(&mut seen[id as usize], true) {
            continue;
        }
        ancestors.push(id);
        queue.extend_from_slice(propagation.parents(id));
    }
    ancestors.sort_unstable();
    let mut links = Vec::new();
    let mut techniques = Vec::new();
    for &id in &ancestors {
        let node = propagation.node(id);
        for &parent in propagation.parents(id) {
            let from = propagation.node(parent).state;
            let mut link =
                implication(mark(from), is_on(from), mark(node.state), is_on(node.state));
            if let Cause::Advanced(rule) = node.cause {
                link.kind = LinkKind::Inference;
                if !techniques.contains(&rule.name()) {
                    techniques.push(rule.name());
                }
            }
            links.push(link);
        }
    }
    let root = propagation.node(0).state;
    let contradiction = conclusion.kind == Kind::Contradiction;
    let end = match contradiction {
        // The node reached last closed the contradiction.
        true => {
            propagation
                .node(*targets.iter().max().expect("a target"))
                .state
        }
        false => conclusion.node,
    };
    Branch {
        assumption: mark(root),
        assumed_on: is_on(root),
        links,
        result: mark(end),
        result_on: is_on(end),
        contradiction,
        techniques,
    }
}
