//! The search over a compiled model: propagate, then branch on the cell
//! with the fewest candidates, trying its smallest digit in one branch and
//! striking it in the other.
//!
//! Branching two ways (the digit, or not the digit) lets the second branch
//! propagate what the first one proved, instead of trying each digit from
//! the same state. The search counts solutions up to a limit (two, to
//! certify uniqueness), and the true candidates are found by asking it for
//! one solution at a time with one cell's digit forced.

mod cage;
mod engine;
mod house;
mod intersection;
mod linear;
mod narrowing;
mod pair;
pub(crate) mod propagators;

use engine::propagate;
use narrowing::Queue;
pub(crate) use narrowing::digits_of;

use super::model::Model;
use crate::Stopped;

/// How often, in branching decisions, the stop check is polled.
const POLL_EVERY: u64 = 64;

/// Runs searches on one model, counting branching decisions across them.
pub(crate) struct Searcher<'m, S> {
    model: &'m Model,
    queue: Queue,
    should_stop: S,
    guesses: u64,
}

impl<'m, S: Fn() -> bool> Searcher<'m, S> {
    pub fn new(model: &'m Model, should_stop: S) -> Searcher<'m, S> {
        Searcher {
            model,
            queue: Queue::new(model.shape.cell_count(), model.propagators.len()),
            should_stop,
            guesses: 0,
        }
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
        masks[cell] &= allowed;
        if masks[cell] == 0 {
            return None;
        }
        self.queue.push_cell(cell as u16);
        propagate(self.model, &mut masks, &mut self.queue).ok()?;
        Some(masks)
    }

    fn explore(
        &mut self,
        mut masks: Vec<u32>,
        limit: usize,
        found: &mut Vec<Vec<u8>>,
    ) -> Result<(), Stopped> {
        loop {
            let Some(cell) = branch_cell(&masks) else {
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
            let digit = 1 << masks[cell].trailing_zeros();
            if let Some(child) = self.narrowed(masks.clone(), cell, digit) {
                self.explore(child, limit, found)?;
                if found.len() >= limit {
                    return Ok(());
                }
            }
            match self.narrowed(masks, cell, !digit) {
                Some(rest) => masks = rest,
                None => return Ok(()),
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

/// The unplaced cell with the fewest candidates (the first of them), or
/// `None` when every cell holds one digit.
fn branch_cell(masks: &[u32]) -> Option<usize> {
    let mut best = None;
    let mut fewest = u32::MAX;
    for (cell, mask) in masks.iter().enumerate() {
        let count = mask.count_ones();
        if count > 1 && count < fewest {
            fewest = count;
            best = Some(cell);
            if count == 2 {
                break;
            }
        }
    }
    best
}
