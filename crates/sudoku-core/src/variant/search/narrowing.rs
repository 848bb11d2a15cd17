//! What a propagator sees and may do: read its cells' masks, narrow them
//! (each change queued for the engine), or report a contradiction. The
//! queue of changed cells and of propagators to run lives here too, so
//! that the propagators need nothing of the engine that runs them.

/// The digits of a mask (bit `d` for digit `d`), smallest first.
pub(crate) fn digits_of(mask: u32) -> impl Iterator<Item = u32> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let digit = rest.trailing_zeros();
            rest &= rest - 1;
            digit
        })
    })
}

/// True when `mask` holds one digit at most (a cell's mask is never
/// empty). Cheaper than `is_power_of_two`, which counts the bits: slowly,
/// since the build targets x86-64 without the popcnt instruction.
#[inline]
pub(crate) fn is_single(mask: u32) -> bool {
    mask & mask.wrapping_sub(1) == 0
}

/// A cell left with no digit, or a rule that can no longer hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Contradiction;

/// The masks a propagator narrows, with the queue its changes go to.
pub(crate) struct Narrowing<'a> {
    pub(super) masks: &'a mut [u32],
    pub(super) queue: &'a mut Queue,
    pub(super) all_digits: u32,
    /// The digits struck from the running propagator's cells since it
    /// last ran: see [`Narrowing::dirty`].
    pub(super) dirty: u32,
    /// The running propagator, when a second run on its own changes would
    /// find nothing (see [`Narrowing::disown`]); [`NO_AUTHOR`] otherwise.
    pub(super) author: u32,
}

/// No propagator, or several, changed a queued cell.
pub(crate) const NO_AUTHOR: u32 = u32::MAX - 1;

/// A cell not in the queue.
pub(crate) const NOT_QUEUED: u32 = u32::MAX;

/// In a propagator's slot: it waits in the queue.
const QUEUED: u32 = 1 << 31;
/// In a propagator's slot: it runs late.
const LATE: u32 = 1 << 30;
/// In a propagator's slot: the digits struck (a grid has 25 at most).
const DIRTY: u32 = LATE - 1;

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

    /// The digits struck from the running propagator's cells since it
    /// last ran (every digit, at the start of a search): the only ones
    /// whose places among its cells can have changed since then. Exact
    /// only for a propagator that every change of its cells wakes, as a
    /// house is: one woken by some cells only once they are fixed (a
    /// cage, by the rest of its house) hears of those cells' digits then.
    pub fn dirty(&self) -> u32 {
        self.dirty
    }

    /// Says that this run's changes may leave the running propagator more
    /// to do, so that they wake it again as any other change would. One
    /// that [settles itself] is not woken by cells it alone changed: a
    /// second run on those changes would narrow nothing. A cage keeps to
    /// that when it follows each set's singles, and not otherwise (a
    /// needed digit it places can leave another one place), so it
    /// disowns those runs.
    ///
    /// [settles itself]: super::propagators::Propagator::settles_itself
    pub fn disown(&mut self) {
        self.author = NO_AUTHOR;
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
            self.queue.push_cell_by(cell, old & !new, self.author);
        }
        Ok(())
    }
}

/// Cells and propagators waiting their turn, each at most once.
#[derive(Debug, Clone)]
pub(crate) struct Queue {
    pub(super) cells: Vec<u16>,
    /// The digits struck from each cell since it was last taken from the
    /// queue, for the propagators it wakes.
    pub(super) struck: Vec<u32>,
    /// For each queued cell, the one propagator that changed it, not to
    /// be woken by it ([`NO_AUTHOR`] when none or several did);
    /// [`NOT_QUEUED`] for a cell not in the queue. One array for both, so
    /// that queueing a cell reads no more than it did before authors.
    pub(super) author: Vec<u32>,
    /// For each propagator: the digits struck from its cells since it
    /// last ran, and the [`QUEUED`] and [`LATE`] flags.
    slots: Box<[u32]>,
    /// For tests: every push marks every digit struck, as if nothing were
    /// tracked.
    #[cfg(test)]
    pub(super) all_struck: bool,
    /// The propagators waiting: the first `waiting` of `propagators`,
    /// and the first `waiting_late` of `late_propagators`, which run only
    /// when no other waits. Each has a slot more than there are
    /// propagators, so that waking may write before it counts.
    propagators: Box<[u32]>,
    waiting: usize,
    late_propagators: Box<[u32]>,
    waiting_late: usize,
    /// True while a placement propagates in rounds: a cell newly left
    /// with one digit is held back, its digit not yet struck from its
    /// peers, until the next round releases it.
    pub(super) holding: bool,
    /// The singles held back this round.
    pub(super) held: Vec<u16>,
    /// A spare buffer for a placement's rounds of singles, kept here so
    /// that a placement allocates nothing; empty between placements.
    pub(super) round: Vec<u16>,
    /// Cells seen as singles in the current placement, held or released:
    /// never held again, their digit struck from their peers when next
    /// taken from the queue.
    pub(super) released: Vec<bool>,
    /// The cells marked in `released`, to clear them when it ends.
    released_cells: Vec<u16>,
}

impl Queue {
    /// An empty queue for `cells` cells and a propagator for each of
    /// `late`, true for one that runs late.
    pub fn new(cells: usize, late: Vec<bool>) -> Queue {
        Queue {
            cells: Vec::new(),
            struck: vec![0; cells],
            author: vec![NOT_QUEUED; cells],
            slots: late
                .iter()
                .map(|&late| if late { LATE } else { 0 })
                .collect(),
            #[cfg(test)]
            all_struck: false,
            propagators: vec![0; late.len() + 1].into(),
            waiting: 0,
            late_propagators: vec![0; late.len() + 1].into(),
            waiting_late: 0,
            holding: false,
            held: Vec::new(),
            round: Vec::new(),
            released: vec![false; cells],
            released_cells: Vec::new(),
        }
    }

    /// Queues `cell`, from which the digits of `struck` were just struck
    /// (every digit when the caller does not say which).
    #[inline]
    pub fn push_cell(&mut self, cell: u16, struck: u32) {
        self.push_cell_by(cell, struck, NO_AUTHOR);
    }

    /// Queues `cell`, from which propagator `author` just struck `struck`.
    #[inline]
    pub(super) fn push_cell_by(&mut self, cell: u16, struck: u32, author: u32) {
        #[cfg(test)]
        let struck = if self.all_struck { u32::MAX } else { struck };
        self.struck[usize::from(cell)] |= struck;
        let queued_by = &mut self.author[usize::from(cell)];
        if *queued_by == NOT_QUEUED {
            *queued_by = author;
            self.cells.push(cell);
        } else if *queued_by != author {
            *queued_by = NO_AUTHOR;
        }
    }

    /// Queues every cell, as at the start of a search.
    pub fn push_all_cells(&mut self) {
        for cell in 0..self.author.len() {
            self.push_cell(cell as u16, u32::MAX);
        }
    }

    /// Queues a propagator woken by a cell from which `struck` was struck.
    ///
    /// Whether it waits already varies too much to branch on (waking was
    /// 15 % of a guess on a MATHEMAGIC killer with a branch, and the search
    /// 9 % slower): it is written to the top of both stacks, and counted
    /// in the one it belongs to only if it did not wait.
    #[inline]
    pub(super) fn wake(&mut self, index: u32, struck: u32) {
        let slot = &mut self.slots[index as usize];
        let was = *slot;
        *slot = was | struck & DIRTY | QUEUED;
        let new = (!was >> QUEUED.trailing_zeros()) as usize;
        let late = (was >> LATE.trailing_zeros()) as usize & 1;
        self.propagators[self.waiting] = index;
        self.late_propagators[self.waiting_late] = index;
        self.waiting += new & !late & 1;
        self.waiting_late += new & late;
    }

    /// Wakes each of `indices` but `author` (the one propagator that alone
    /// changed the cell, if any), as a cell from which `struck` was struck.
    #[inline]
    pub(super) fn wake_all_but(&mut self, indices: &[u32], struck: u32, author: u32) {
        for &index in indices {
            if index != author {
                self.wake(index, struck);
            }
        }
    }

    /// The next propagator to run: the last queued, a late one only when
    /// no other waits.
    pub(super) fn pop_propagator(&mut self) -> Option<u32> {
        let index = if self.waiting > 0 {
            self.waiting -= 1;
            self.propagators[self.waiting]
        } else if self.waiting_late > 0 {
            self.waiting_late -= 1;
            self.late_propagators[self.waiting_late]
        } else {
            return None;
        };
        self.slots[index as usize] &= !QUEUED;
        Some(index)
    }

    /// The digits struck from propagator `index`'s cells since it last
    /// ran, forgotten as it runs now.
    pub(super) fn take_dirty(&mut self, index: u32) -> u32 {
        let slot = &mut self.slots[index as usize];
        let dirty = *slot & DIRTY;
        *slot &= !DIRTY;
        dirty
    }

    /// True when no propagator waits or has digits struck.
    #[cfg(test)]
    pub(super) fn no_propagator_waits(&self) -> bool {
        let idle = |&slot: &u32| slot & !LATE == 0;
        self.waiting == 0 && self.waiting_late == 0 && self.slots.iter().all(idle)
    }

    /// Marks `cell` seen as a single in the current placement.
    pub(super) fn release(&mut self, cell: u16) {
        let released = &mut self.released[usize::from(cell)];
        if !*released {
            *released = true;
            self.released_cells.push(cell);
        }
    }

    /// Ends a placement in rounds: nothing held or released any more.
    pub(super) fn end_placement(&mut self) {
        for cell in self.released_cells.drain(..) {
            self.released[usize::from(cell)] = false;
        }
        self.held.clear();
        self.holding = false;
    }

    pub(super) fn clear(&mut self) {
        for cell in self.cells.drain(..) {
            self.struck[usize::from(cell)] = 0;
            self.author[usize::from(cell)] = NOT_QUEUED;
        }
        let late = &self.late_propagators[..self.waiting_late];
        for &index in self.propagators[..self.waiting].iter().chain(late) {
            self.slots[index as usize] &= LATE;
        }
        (self.waiting, self.waiting_late) = (0, 0);
    }
}

/// What propagator tests share: masks narrowed in isolation.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Contradiction, Narrowing, Queue};

    /// The mask of the digits in `list`.
    pub fn digits(list: &[u32]) -> u32 {
        list.iter().fold(0, |mask, &d| mask | 1 << d)
    }

    /// Calls `visit` with every way of giving each cell of `masks` one of
    /// its digits, all distinct (a digit a mask, cell by cell).
    pub fn each_distinct_filling(masks: &[u32], visit: &mut impl FnMut(&[u32])) {
        fn fill(masks: &[u32], chosen: &mut Vec<u32>, visit: &mut impl FnMut(&[u32])) {
            let Some(&mask) = masks.get(chosen.len()) else {
                return visit(chosen);
            };
            let taken = chosen.iter().fold(0, |taken, &digit| taken | digit);
            for digit in super::digits_of(mask & !taken).map(|d| 1 << d) {
                chosen.push(digit);
                fill(masks, chosen, visit);
                chosen.pop();
            }
        }
        fill(masks, &mut Vec::with_capacity(masks.len()), visit);
    }

    /// `masks` narrowed by `propagate` (a propagator run once, on a grid
    /// whose digits are `all_digits`), or `None` on a contradiction.
    pub fn narrowed(
        mut masks: Vec<u32>,
        all_digits: u32,
        propagate: impl FnOnce(&mut Narrowing<'_>) -> Result<(), Contradiction>,
    ) -> Option<Vec<u32>> {
        let mut queue = Queue::new(masks.len(), Vec::new());
        let mut grid = Narrowing {
            masks: &mut masks,
            queue: &mut queue,
            all_digits,
            dirty: u32::MAX,
            author: super::NO_AUTHOR,
        };
        propagate(&mut grid).ok()?;
        Some(masks)
    }
}

#[cfg(test)]
mod tests {
    use super::{LATE, NO_AUTHOR, NOT_QUEUED, QUEUED, Queue, is_single};

    #[test]
    fn a_late_propagator_runs_only_when_no_other_waits() {
        // Propagators 1 and 3 run late.
        let mut queue = Queue::new(4, vec![false, true, false, true]);
        for index in [1, 0, 3, 1, 2, 0] {
            queue.wake(index, 0);
        }
        let order: Vec<u32> = std::iter::from_fn(|| queue.pop_propagator()).collect();
        assert_eq!(order, [2, 0, 3, 1]);
        // Each may be queued again once taken, and a cleared queue forgets
        // the late ones too, but not which run late.
        queue.wake(3, 0);
        queue.wake(0, 0);
        queue.clear();
        assert_eq!(queue.pop_propagator(), None);
        queue.wake(0, 0);
        queue.wake(3, 0);
        let order: Vec<u32> = std::iter::from_fn(|| queue.pop_propagator()).collect();
        assert_eq!(order, [0, 3]);
    }

    #[test]
    fn a_propagator_hears_of_every_digit_struck_since_it_last_ran() {
        let mut queue = Queue::new(4, vec![false, true, false, true]);
        queue.wake(2, 0b10);
        queue.wake(2, 0b1000);
        // Every digit, as a cell queued with all struck says.
        queue.wake(0, u32::MAX);
        assert_eq!(queue.take_dirty(2), 0b1010);
        assert_eq!(queue.take_dirty(2), 0);
        let every_digit = ((1 << 25) - 1) << 1;
        let heard = queue.take_dirty(0);
        assert_eq!(heard & every_digit, every_digit);
        assert_eq!(heard & (QUEUED | LATE), 0, "{heard:#x}");
        // Taking its digits leaves each queued, once; being told of every
        // digit did not make 0 late.
        queue.wake(3, 0);
        let order: Vec<u32> = std::iter::from_fn(|| queue.pop_propagator()).collect();
        assert_eq!(order, [0, 2, 3]);
        queue.wake(0, 0);
        queue.wake(1, 0);
        let order: Vec<u32> = std::iter::from_fn(|| queue.pop_propagator()).collect();
        assert_eq!(order, [0, 1]);
        // A cleared queue forgets the digits too.
        queue.wake(1, 0b100);
        queue.clear();
        assert_eq!(queue.take_dirty(1), 0);
    }

    #[test]
    fn a_queued_cell_keeps_its_author_only_while_one_propagator_changes_it() {
        let mut queue = Queue::new(3, vec![false; 6]);
        queue.push_cell_by(0, 0b10, 4);
        queue.push_cell_by(0, 0b100, 4);
        queue.push_cell_by(1, 0b10, 4);
        queue.push_cell_by(1, 0b100, 5);
        queue.push_cell_by(2, 0b10, 4);
        queue.push_cell(2, 0b1000);
        assert_eq!(queue.author, [4, NO_AUTHOR, NO_AUTHOR]);
        assert_eq!(queue.struck, [0b110, 0b110, 0b1010]);
        // Cleared and queued again, a cell takes its new author.
        queue.clear();
        assert_eq!(queue.author, [NOT_QUEUED; 3]);
        queue.push_cell_by(1, 0b10, 5);
        assert_eq!(queue.author[1], 5);
    }

    #[test]
    fn a_single_is_a_mask_of_one_digit_or_none() {
        for mask in (0..1u32 << 12).chain([1 << 25, 1 << 31, u32::MAX, 3 << 30]) {
            assert_eq!(is_single(mask), mask.count_ones() <= 1, "{mask:#b}");
        }
    }
}
