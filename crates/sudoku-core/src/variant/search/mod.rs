//! The search over a compiled model: propagate, then branch on a cell (or
//! a digit with two places in a house) chosen by [`choice`], trying one
//! digit in one branch and striking it in the other.
//!
//! Branching two ways (the digit, or not the digit) lets the second branch
//! propagate what the first one proved, instead of trying each digit from
//! the same state. The search counts solutions up to a limit (two, to
//! certify uniqueness), and the true candidates are found by asking it for
//! one solution at a time with one cell's digit forced.

mod cage;
mod choice;
mod engine;
mod house;
mod linear;
mod narrowing;
mod pair;
pub(crate) mod propagators;

use choice::{Choice, Chooser};
use engine::{Blame, propagate, propagate_placement, queue_for};
use narrowing::Queue;
pub(crate) use narrowing::digits_of;

use super::model::Model;
use crate::Stopped;

/// How often, in branching decisions, the stop check is polled.
const POLL_EVERY: u64 = 64;

/// Branches this wide that narrow nothing demote their cell.
const MIN_DEMOTED_BRANCH: u32 = 5;

/// Runs searches on one model, counting branching decisions across them.
pub(crate) struct Searcher<'m, S> {
    model: &'m Model,
    queue: Queue,
    chooser: Chooser,
    should_stop: S,
    guesses: u64,
}

impl<'m, S: Fn() -> bool> Searcher<'m, S> {
    pub fn new(model: &'m Model, should_stop: S) -> Searcher<'m, S> {
        Searcher {
            model,
            queue: queue_for(model),
            chooser: Chooser::new(model),
            should_stop,
            guesses: 0,
        }
    }

    /// Branches on the cell with fewest candidates from now on, instead of
    /// learning from conflicts. Finding some solution in an open grid (a
    /// witness for a true candidate) goes faster so; proving there is no
    /// other goes faster learning.
    pub fn branch_on_fewest(&mut self) {
        self.chooser.set_learning(false);
    }

    /// True once the caller's stop check says stop.
    pub fn stop_requested(&self) -> bool {
        (self.should_stop)()
    }

    /// Branching decisions made so far.
    pub fn guesses(&self) -> u64 {
        self.guesses
    }

    /// The model's start, propagated; `None` when that alone contradicts.
    pub fn root(&mut self) -> Option<Vec<u32>> {
        // A cell no digit can fill (odd and even at once, a given of the
        // wrong parity): nothing to propagate.
        if self.model.start.contains(&0) {
            return None;
        }
        let mut masks = self.model.start.clone();
        self.queue.push_all_cells();
        propagate(self.model, &mut masks, &mut self.queue).ok()?;
        Some(masks)
    }

    /// Up to `limit` solutions below `masks` (already propagated), as
    /// digits a cell, in the order the search meets them.
    pub fn solutions(&mut self, masks: Vec<u32>, limit: usize) -> Result<Vec<Vec<u8>>, Stopped> {
        let mut found = Vec::new();
        if limit > 0 {
            self.explore(masks, limit, &mut found)?;
        }
        Ok(found)
    }

    /// `masks` with `cell` narrowed to `allowed` and propagated; `None`
    /// on a contradiction.
    pub fn narrowed(&mut self, mut masks: Vec<u32>, cell: usize, allowed: u32) -> Option<Vec<u32>> {
        let old = masks[cell];
        masks[cell] &= allowed;
        if masks[cell] == 0 {
            return None;
        }
        self.queue.push_cell(cell as u16, old & !allowed);
        propagate(self.model, &mut masks, &mut self.queue).ok()?;
        Some(masks)
    }

    /// `masks` with `digit` (a mask, one of the cell's candidates) placed
    /// in `cell` and propagated in rounds; on a contradiction, where to
    /// lay the blame.
    fn placed(&mut self, mut masks: Vec<u32>, cell: usize, digit: u32) -> Result<Vec<u32>, Blame> {
        debug_assert!(digit.is_power_of_two() && masks[cell] & digit != 0);
        masks[cell] = digit;
        propagate_placement(self.model, &mut masks, &mut self.queue, cell as u16)?;
        Ok(masks)
    }

    fn explore(
        &mut self,
        mut masks: Vec<u32>,
        limit: usize,
        found: &mut Vec<Vec<u8>>,
    ) -> Result<(), Stopped> {
        loop {
            let Some(Choice { cell, digit, other }) = self.chooser.choose(&masks) else {
                let digits: Vec<u8> = masks.iter().map(|m| m.trailing_zeros() as u8).collect();
                // Propagation placed every cell; the model's own check
                // guards against a propagator that let a broken rule by.
                let accepted = self.model.accepts(&digits);
                debug_assert!(accepted, "a solution breaks a rule");
                if accepted {
                    found.push(digits);
                }
                return Ok(());
            };
            self.tick()?;
            match self.placed(masks.clone(), cell, digit) {
                Ok(child) => {
                    self.demote_if_idle(&masks, &child, cell);
                    self.explore(child, limit, found)?;
                    if found.len() >= limit {
                        return Ok(());
                    }
                }
                Err(blame) => self.chooser.conflict(blame.cell, blame.digit),
            }
            match self.narrowed(masks, cell, !digit) {
                Some(rest) => masks = rest,
                None => {
                    self.chooser.conflict(other, digit);
                    return Ok(());
                }
            }
        }
    }

    /// Demotes `cell` when placing a digit among five or more there
    /// narrowed no other cell.
    fn demote_if_idle(&mut self, before: &[u32], after: &[u32], cell: usize) {
        let count = before[cell].count_ones();
        if count >= MIN_DEMOTED_BRANCH {
            let total = |masks: &[u32]| masks.iter().map(|m| m.count_ones()).sum::<u32>();
            if total(after) == total(before) - (count - 1) {
                self.chooser.demote(cell);
            }
        }
    }

    fn tick(&mut self) -> Result<(), Stopped> {
        self.guesses += 1;
        if self.guesses % POLL_EVERY == 1 && (self.should_stop)() {
            return Err(Stopped {
                guesses: self.guesses,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::compile::compile;
    use crate::variant::tests::random::random_puzzle;

    #[test]
    fn telling_houses_only_the_digits_struck_leaves_every_search_as_it_was() {
        // Each puzzle searched twice, to 30 solutions: as the engine
        // runs, and with every digit taken as struck at every change. The
        // same solutions after the same number of guesses: every branch
        // and strike reached the same fixed point.
        let mut guesses = 0;
        for seed in 0..200u64 {
            let puzzle = random_puzzle(seed, if seed % 2 == 0 { 6 } else { 4 }, seed % 3 == 0, 5);
            let model = compile(&puzzle);
            let search = |all_struck: bool| {
                let mut searcher = Searcher::new(&model, || false);
                searcher.queue.all_struck = all_struck;
                let found = match searcher.root() {
                    Some(root) => searcher.solutions(root, 30).unwrap(),
                    None => Vec::new(),
                };
                (found, searcher.guesses())
            };
            let tracked = search(false);
            assert_eq!(tracked, search(true), "seed {seed}");
            guesses += tracked.1;
        }
        assert!(guesses > 3_000, "{guesses} guesses");
    }
}
