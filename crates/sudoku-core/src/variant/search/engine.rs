//! Propagation to a fixed point over a model's rules.
//!
//! A cell whose mask changed is queued once. When it is taken from the
//! queue and holds one digit, that digit is struck from its peers (the
//! cheap, common case, kept out of the propagators); then every propagator
//! that reads the cell is queued once. The loop ends when both queues are
//! empty, or at the first [`Contradiction`].

use super::narrowing::{Contradiction, Narrowing, Queue};
use crate::variant::model::Model;

/// Runs the model's rules on `masks` until nothing changes. On a
/// contradiction the queue is emptied and `masks` is left part-narrowed,
/// for the caller to drop.
pub(crate) fn propagate(
    model: &Model,
    masks: &mut [u32],
    queue: &mut Queue,
) -> Result<(), Contradiction> {
    let result = run(model, masks, queue);
    if result.is_err() {
        queue.clear();
    }
    result
}

fn run(model: &Model, masks: &mut [u32], queue: &mut Queue) -> Result<(), Contradiction> {
    let all_digits = model.shape.all_digits();
    loop {
        if let Some(cell) = queue.cells.pop() {
            queue.cell_queued[usize::from(cell)] = false;
            let mask = masks[usize::from(cell)];
            if mask.is_power_of_two() {
                for &peer in model.peers[usize::from(cell)].iter() {
                    let peer_mask = masks[usize::from(peer)];
                    if peer_mask & mask != 0 {
                        let left = peer_mask & !mask;
                        if left == 0 {
                            return Err(Contradiction);
                        }
                        masks[usize::from(peer)] = left;
                        queue.push_cell(peer);
                    }
                }
            }
            for &index in model.watchers[usize::from(cell)].iter() {
                queue.push_propagator(index);
            }
            continue;
        }
        let Some(index) = queue.propagators.pop() else {
            return Ok(());
        };
        queue.propagator_queued[index as usize] = false;
        let mut narrowing = Narrowing {
            masks: &mut *masks,
            queue: &mut *queue,
            all_digits,
        };
        model.propagators[index as usize].propagate(&mut narrowing)?;
    }
}
