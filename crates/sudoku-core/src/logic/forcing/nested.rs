//! What a forcing chain's search asks of its nested rules, and what they
//! give it: the rule behind each implication, and the nested chains the
//! implications rest on.
//!
//! The rules themselves ([`super::advanced`]) run searches of their own
//! (level 2 and up nest whole chains), so the search and the rules call
//! each other. The search knows them only by the [`NestedRules`] trait
//! defined here, at the bottom, and the rules implement it above the
//! search: the recursion runs through the trait, not through a circle of
//! files importing each other.

use std::collections::HashMap;

use super::super::grid::Grid;
use super::super::implications::State;
use super::super::reasoning::INFERENCE_RULES;

/// The nested rules of a search of level 1 and up.
pub(super) trait NestedRules {
    /// The "offs" the first nested rule that finds anything implies on
    /// `work`, for a search that started on `source`, at `level`.
    fn implications(
        &mut self,
        work: &Grid,
        source: &Grid,
        level: u8,
        should_stop: &dyn Fn() -> bool,
    ) -> Vec<Implication>;

    /// Every nested chain an implication refers to.
    fn nested(&self) -> &NestedChains;
}

/// The nested rule behind an implication, as a player knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rule {
    LockedCandidates,
    HiddenPair,
    NakedPair,
    XWing,
    /// Cycles and forcing chains (level 2).
    ForcingChains,
    /// Static cell and region chains (level 3).
    MultipleForcingChains,
    /// Dynamic chains, themselves nested to a limit (level 4).
    DynamicForcingChains,
}

impl Rule {
    /// The name a branch's explanation gives it.
    pub fn name(self) -> &'static str {
        INFERENCE_RULES[self as usize]
    }
}

/// An "off" a nested rule implies, with the "offs" it rests on.
pub(super) struct Implication {
    pub state: State,
    pub parents: Vec<State>,
    /// The rule that implied it.
    pub rule: Rule,
    /// The nested chain behind it, as an index into [`NestedRules::nested`],
    /// or [`super::propagation::NO_NESTED`].
    pub nested: u32,
}

/// A chain found by a nested rule, as the chains built on it count it.
#[derive(Debug, Clone, Copy)]
pub(super) struct NestedChain {
    /// Equal for chains with the same targets and nodes.
    pub identity: u64,
    /// Its nodes, its own nested chains' included.
    pub complexity: u32,
}

/// Every distinct nested chain a node may refer to, by index.
#[derive(Default)]
pub(super) struct NestedChains {
    list: Vec<NestedChain>,
    by_identity: HashMap<u64, u32>,
}

impl NestedChains {
    /// The index of the chain with this identity, added if new.
    pub fn register(&mut self, identity: u64, complexity: u32) -> u32 {
        let list = &mut self.list;
        *self.by_identity.entry(identity).or_insert_with(|| {
            list.push(NestedChain {
                identity,
                complexity,
            });
            (list.len() - 1) as u32
        })
    }

    /// The chain at `index`.
    pub fn get(&self, index: u32) -> NestedChain {
        self.list[index as usize]
    }

    /// How many chains are kept.
    pub fn len(&self) -> usize {
        self.list.len()
    }
}
