//! The two bounds on what a stream holds: its own [`StreamWindow`], in
//! requests' units and bytes, and a [`ByteBudget`] that several streams
//! share. An [`Admission`] holds room in both for a group of requests until
//! their answers have been taken by the transport.
//!
//! The window's counts are atomics because only the driver takes room while
//! the transport, on another task, gives it back; a [`Notify`] wakes the
//! driver when it does. The budget is a semaphore of bytes, so a stream that
//! waits for room keeps its place in line.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

/// A budget of bytes that streams hold in flight, shared by every stream
/// charged to it.
#[derive(Debug, Clone)]
pub struct ByteBudget {
    bytes: Arc<Semaphore>,
    total: usize,
}

/// Bytes charged to the [`ByteBudget`], given back when dropped.
#[derive(Debug)]
pub struct Charge(OwnedSemaphorePermit);

impl ByteBudget {
    /// A budget of `total` bytes, at least one and at most `u32::MAX`.
    /// A reservation larger than the whole budget takes all of it, so even
    /// a budget smaller than one request admits one at a time.
    pub fn new(total: usize) -> ByteBudget {
        let total = total.clamp(1, u32::MAX as usize);
        ByteBudget {
            bytes: Arc::new(Semaphore::new(total)),
            total,
        }
    }

    /// The budget's size in bytes.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Bytes charged now.
    pub fn in_use(&self) -> usize {
        self.total - self.bytes.available_permits()
    }

    /// Reserves `bytes` (at most the whole budget), waiting until they
    /// fit.
    pub async fn reserve(self, bytes: usize) -> Charge {
        let bytes = self.capped(bytes);
        let permit = self
            .bytes
            .acquire_many_owned(bytes)
            .await
            .expect("the budget's semaphore is never closed");
        Charge(permit)
    }

    /// Reserves `bytes` (at most the whole budget), if they fit now.
    pub fn try_reserve(&self, bytes: usize) -> Option<Charge> {
        self.bytes
            .clone()
            .try_acquire_many_owned(self.capped(bytes))
            .ok()
            .map(Charge)
    }

    /// `bytes`, or the whole budget if that is less: more could never be
    /// reserved.
    fn capped(&self, bytes: usize) -> u32 {
        bytes.min(self.total) as u32
    }
}

impl Charge {
    /// Adds another charge to this one.
    pub fn merge(&mut self, other: Charge) {
        self.0.merge(other.0);
    }

    /// Gives back everything beyond `bytes`.
    pub fn shrink_to(&mut self, bytes: usize) {
        let surplus = self.0.num_permits().saturating_sub(bytes);
        drop(self.0.split(surplus));
    }

    /// The bytes charged.
    pub fn bytes(&self) -> usize {
        self.0.num_permits()
    }
}

/// One stream's puzzles and bytes in flight, against its window.
///
/// Only the stream's driver takes room; the transport gives it back (when
/// it has taken an answer group and drops its [`Admission`]), so the
/// counts are atomics and a [`Notify`] wakes the driver.
#[derive(Debug)]
pub struct StreamWindow {
    puzzles: AtomicUsize,
    bytes: AtomicUsize,
    freed: Notify,
    max_puzzles: usize,
    max_bytes: usize,
    largest: (usize, usize),
}

impl StreamWindow {
    /// An empty window of `max_puzzles` puzzles and `max_bytes` bytes, for
    /// requests of at most `largest` puzzles and bytes; the window holds
    /// at least one such request, or the stream would never read.
    pub fn new(max_puzzles: usize, max_bytes: usize, largest: (usize, usize)) -> Arc<StreamWindow> {
        Arc::new(StreamWindow {
            puzzles: AtomicUsize::new(0),
            bytes: AtomicUsize::new(0),
            freed: Notify::new(),
            max_puzzles: max_puzzles.max(largest.0),
            max_bytes: max_bytes.max(largest.1),
            largest,
        })
    }

    /// True while the stream may take in one more request, however large.
    pub fn has_room(&self) -> bool {
        self.fits(self.largest.0, self.largest.1)
    }

    /// True if `puzzles` more puzzles charged `bytes` fit besides what is
    /// in flight.
    pub fn fits(&self, puzzles: usize, bytes: usize) -> bool {
        self.puzzles.load(Ordering::Acquire) + puzzles <= self.max_puzzles
            && self.bytes.load(Ordering::Acquire) + bytes <= self.max_bytes
    }

    /// Completes once some room has been given back since the last call
    /// (at once if some was given back in between).
    pub async fn freed(&self) {
        self.freed.notified().await;
    }

    /// Puzzles in flight now.
    pub fn puzzles(&self) -> usize {
        self.puzzles.load(Ordering::Acquire)
    }

    /// Bytes in flight now.
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Acquire)
    }
}

/// A group of items admitted to a stream's window and the server's budget,
/// given back to both when dropped.
#[derive(Debug)]
pub struct Admission {
    _charge: Charge,
    window: Arc<StreamWindow>,
    puzzles: usize,
    bytes: usize,
}

impl Admission {
    /// Takes room for `puzzles` puzzles in `window`, with `charge`'s
    /// bytes. The caller checks that they fit first.
    pub fn new(window: &Arc<StreamWindow>, puzzles: usize, charge: Charge) -> Self {
        let bytes = charge.bytes();
        window.puzzles.fetch_add(puzzles, Ordering::AcqRel);
        window.bytes.fetch_add(bytes, Ordering::AcqRel);
        Admission {
            _charge: charge,
            window: window.clone(),
            puzzles,
            bytes,
        }
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        self.window
            .puzzles
            .fetch_sub(self.puzzles, Ordering::AcqRel);
        self.window.bytes.fetch_sub(self.bytes, Ordering::AcqRel);
        // `notify_one` keeps a wake-up for a driver not yet waiting.
        self.window.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The most one request is charged in these tests.
    const MAX_ITEM_CHARGE: usize = 4352;
    const ONE_ITEM: (usize, usize) = (1, MAX_ITEM_CHARGE);

    #[tokio::test]
    async fn reservations_wait_for_room_and_shrink_to_what_is_charged() {
        let budget = ByteBudget::new(2 * MAX_ITEM_CHARGE);
        let mut first = budget.clone().reserve(MAX_ITEM_CHARGE).await;
        let second = budget
            .try_reserve(MAX_ITEM_CHARGE)
            .expect("room for a second");
        assert!(
            budget.try_reserve(MAX_ITEM_CHARGE).is_none(),
            "the budget is full"
        );
        first.merge(second);
        assert_eq!(first.bytes(), 2 * MAX_ITEM_CHARGE);
        first.shrink_to(700);
        assert_eq!(budget.in_use(), 700);
        assert!(
            budget.try_reserve(MAX_ITEM_CHARGE).is_some(),
            "what was given back is free"
        );
        drop(first);
        assert_eq!(budget.in_use(), 0);
    }

    #[test]
    fn windows_and_budgets_too_small_for_one_item_still_admit_one() {
        assert!(StreamWindow::new(0, 1, ONE_ITEM).has_room());
        let budget = ByteBudget::new(0);
        assert_eq!(budget.total(), 1);
        let all = budget
            .try_reserve(MAX_ITEM_CHARGE)
            .expect("takes the whole budget");
        assert_eq!(all.bytes(), 1);
    }

    #[test]
    fn a_reservation_tops_up_by_what_is_missing() {
        let budget = ByteBudget::new(2 * MAX_ITEM_CHARGE);
        let mut charge = budget.try_reserve(MAX_ITEM_CHARGE).unwrap();
        charge.merge(budget.try_reserve(600).unwrap());
        assert_eq!(budget.in_use(), MAX_ITEM_CHARGE + 600);
        // A top-up takes only what fits: here one more item no longer does,
        // less does, and more than the whole budget asks for all of it.
        assert!(budget.try_reserve(MAX_ITEM_CHARGE).is_none());
        assert!(budget.try_reserve(10 * MAX_ITEM_CHARGE).is_none());
        assert_eq!(
            budget.try_reserve(2000).map(|more| more.bytes()),
            Some(2000)
        );
    }

    #[tokio::test]
    async fn a_window_fills_and_an_admission_gives_its_room_back() {
        let budget = ByteBudget::new(1 << 20);
        let window = StreamWindow::new(2, 2 * MAX_ITEM_CHARGE + 100, ONE_ITEM);
        assert!(window.has_room() && window.fits(2, 2 * MAX_ITEM_CHARGE) && !window.fits(3, 1));
        let mut charge = budget.clone().reserve(MAX_ITEM_CHARGE).await;
        charge.shrink_to(4000.min(MAX_ITEM_CHARGE));
        let first = Admission::new(&window, 1, charge);
        assert!(window.has_room());
        let second = Admission::new(&window, 1, budget.clone().reserve(MAX_ITEM_CHARGE).await);
        assert!(!window.has_room(), "two puzzles fill a window of two");
        assert_eq!(window.puzzles(), 2);
        drop(first);
        window.freed().await;
        assert!(window.has_room());
        assert_eq!(budget.in_use(), MAX_ITEM_CHARGE);
        drop(second);
        assert_eq!(
            (window.puzzles(), window.bytes(), budget.in_use()),
            (0, 0, 0)
        );
    }
}
