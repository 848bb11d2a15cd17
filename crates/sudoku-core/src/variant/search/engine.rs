//! Propagation to a fixed point: the queue of changed cells and of
//! propagators to run.
//!
//! A cell whose mask changed is queued once. When it is taken from the
//! queue and holds one digit, that digit is struck from its peers (the
//! cheap, common case, kept out of the propagators); then every propagator
//! that reads the cell is queued once. The loop ends when both queues are
//! empty, or at the first [`Contradiction`].

use super::super::model::Model;

/// A cell left with no digit, or a rule that can no longer hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Contradiction;

/// The masks a propagator narrows, with the queue its changes go to.
pub(crate) struct Narrowing<'a> {
    masks: &'a mut [u32],
    queue: &'a mut Queue,
    all_digits: u32,
}

impl Narrowing<'_> {
    /// A cell's candidates.
    #[inline]
    pub fn mask(&self, cell: u16) -> u32 {
        self.masks[usize::from(cell)]
    }

    /// Every digit of the grid, as a mask.
    pub fn all_digits(&self) -> u32 {
        self.all_digits
    }

    /// Keeps only the digits of `allowed` in `cell`, queueing it if it
    /// changed; fails if none is left.
    #[inline]
    pub fn narrow(&mut self, cell: u16, allowed: u32) -> Result<(), Contradiction> {
        let old = self.masks[usize::from(cell)];
        let new = old & allowed;
        if new == 0 {
            return Err(Contradiction);
        }
        if new != old {
            self.masks[usize::from(cell)] = new;
            self.queue.push_cell(cell);
        }
        Ok(())
    }
}

/// Cells and propagators waiting their turn, each at most once.
#[derive(Debug, Clone)]
pub(crate) struct Queue {
    cells: Vec<u16>,
    cell_queued: Vec<bool>,
    propagators: Vec<u32>,
    propagator_queued: Vec<bool>,
}

impl Queue {
    pub fn new(model: &Model) -> Queue {
        Queue {
            cells: Vec::new(),
            cell_queued: vec![false; model.shape.cell_count()],
            propagators: Vec::new(),
            propagator_queued: vec![false; model.propagators.len()],
        }
    }

    #[inline]
    pub fn push_cell(&mut self, cell: u16) {
        let queued = &mut self.cell_queued[usize::from(cell)];
        if !*queued {
            *queued = true;
            self.cells.push(cell);
        }
    }

    /// Queues every cell, as at the start of a search.
    pub fn push_all_cells(&mut self) {
        for cell in 0..self.cell_queued.len() {
            self.push_cell(cell as u16);
        }
    }

    fn push_propagator(&mut self, index: u32) {
        let queued = &mut self.propagator_queued[index as usize];
        if !*queued {
            *queued = true;
            self.propagators.push(index);
        }
    }

    fn clear(&mut self) {
        for cell in self.cells.drain(..) {
            self.cell_queued[usize::from(cell)] = false;
        }
        for index in self.propagators.drain(..) {
            self.propagator_queued[index as usize] = false;
        }
    }
}

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
