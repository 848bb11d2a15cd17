//! What one item may carry, and the budgets in bytes and puzzles that
//! everything a stream takes in is counted against.
//!
//! Memory is bounded by bytes, not only by counts. Every puzzle a stream
//! hands to the solver is *charged*: its text, its id, and a fixed
//! allowance ([`ITEM_OVERHEAD_BYTES`]) for everything else it will hold
//! (its job's share, its answer with an error message). Before a stream
//! reads a request it reserves the most an item can be charged
//! ([`MAX_ITEM_CHARGE`]), so that nothing it has decoded is ever held
//! outside the count; once the item is read, the reservation shrinks to its
//! charge. The charge is held until the answer has been handed to the
//! transport, against two limits:
//!
//! * the stream's own [`StreamWindow`] (`--stream-window` puzzles and
//!   `--stream-window-bytes`, reservation included), so that one stream
//!   cannot take the whole budget. Room comes back when the transport takes
//!   an answer, not when the answer is made, so the window also covers
//!   answers waiting for a slow client; the default of 256 puzzles keeps as
//!   many in the pool as a window of 128 did when it counted only those
//!   (measured: kaggle x200 through one server in 559 ms with 256, 589 ms
//!   with 128, 554 ms before the byte accounting, noise about 20-35 ms);
//! * the server's [`ByteBudget`] (`--max-inflight-bytes`), shared by every
//!   stream: a stream waits, and stops reading, until its next item fits.
//!   With the defaults the windows of all the streams allowed open fit the
//!   budget (128 x 256 KiB = 32 MiB); a smaller budget overcommits them,
//!   and then a client that stops reading keeps its window, and makes
//!   others wait, until it goes away. Batch streams overcommit it even at
//!   the defaults: their windows hold whole batches (see
//!   [`Limits::batch_stream_window`]), up to `--max-batch-calls` of them.
//!
//! Unary calls are not charged: each holds one request, and their number
//! and size are capped by `--max-calls` and `--max-message-bytes` (and the
//! pool's queue), so streams cannot crowd them out.
//!
//! Items over the per-item caps ([`MAX_ID_BYTES`], and
//! [`MAX_PUZZLE_BYTES`](crate::domain::MAX_PUZZLE_BYTES) for puzzle text)
//! are refused on their own, with a message naming the limit, and their
//! text is dropped at once: a refused item is charged only the allowance.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use super::error::ServiceError;
use super::jobs::QueuedPuzzle;
use super::protocol::Item;
use crate::domain::{MAX_PUZZLE_BYTES, PuzzleError};
use crate::pb::SharedText;

/// The longest `id` a stream item may carry, in bytes. An id is the
/// client's name for an item, echoed back; 256 bytes holds any key a client
/// reasonably uses. A longer id is refused (OUTCOME_INVALID) and not echoed.
pub const MAX_ID_BYTES: usize = 256;

/// What an admitted item is charged besides its text and id: its answer
/// (the largest, an error message with its details, encodes to under 400
/// bytes; `convert`'s tests check every kind) and its share of the job and
/// the bookkeeping around both.
pub const ITEM_OVERHEAD_BYTES: usize = 512;

/// What an admitted item that asks for its grade is charged besides
/// [`ITEM_OVERHEAD_BYTES`]: the largest grade (every technique named,
/// with its count, and the longest reason for stalling) encodes to under
/// this (1,186 bytes with the 46 techniques of today); `convert`'s tests
/// check it. The grade a worker keeps until it is encoded is a fixed-size
/// value well within the answer's own allowance.
pub const GRADE_OVERHEAD_BYTES: usize = 1536;

/// The most an item can be charged: the largest id and puzzle text allowed,
/// and the allowances for its answer and its grade.
pub const MAX_ITEM_CHARGE: usize =
    MAX_ID_BYTES + MAX_PUZZLE_BYTES + ITEM_OVERHEAD_BYTES + GRADE_OVERHEAD_BYTES;

/// Limits the service applies to its calls.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Puzzles of one stream in flight at once.
    pub stream_window: usize,
    /// Bytes one stream's puzzles in flight may be charged at once.
    pub stream_window_bytes: usize,
    /// SolveStream calls open at once; more are refused.
    pub max_open_streams: usize,
    /// Largest request or response message, in bytes (batch responses and
    /// Explain responses have their own limits).
    pub max_message_bytes: usize,
    /// Bytes all streams together may be charged at once.
    pub max_inflight_bytes: usize,
    /// The longest one puzzle may be solved before the solver gives up.
    pub max_solve_time: Duration,
    /// Most puzzles in one SolveBatch or SolveBatchStream request.
    pub max_batch: usize,
    /// Batches of one SolveBatchStream in flight at once.
    pub batch_window: usize,
    /// How long a batch stream may stay open without sending its first
    /// request: batch call slots are few, so headers alone must not hold
    /// one (the server's `--first-call-timeout`).
    pub first_message_timeout: Duration,
    /// Most puzzles one Generate call may ask for.
    pub max_generate_count: usize,
    /// How long a Generate call searches for its next puzzle before it
    /// gives up on a target too few attempts meet.
    pub max_generate_wait: Duration,
}

impl Limits {
    /// The defaults of the server's flags: sized so that the worst case
    /// the flags allow stays well inside a 256 MiB pod (see
    /// `crate::server::memory` for the formula).
    pub const DEFAULT: Limits = Limits {
        stream_window: 256,
        stream_window_bytes: 256 * 1024,
        max_open_streams: 128,
        max_message_bytes: 16 * 1024,
        max_inflight_bytes: 32 * 1024 * 1024,
        max_solve_time: Duration::from_secs(1),
        max_batch: 1024,
        batch_window: 4,
        first_message_timeout: Duration::from_secs(10),
        max_generate_count: 10_000,
        max_generate_wait: Duration::from_secs(10),
    };

    /// The most a batch request can be charged (see [`admit_batch`]): a
    /// full batch of the largest puzzles, graded.
    pub fn max_batch_charge(&self) -> usize {
        MAX_ID_BYTES
            + ITEM_OVERHEAD_BYTES
            + self.max_batch * (MAX_PUZZLE_BYTES + ITEM_OVERHEAD_BYTES + GRADE_OVERHEAD_BYTES)
    }

    /// The largest batch request message: a full batch of the largest
    /// items, each with its field's tag and length, and the largest id.
    /// A larger message cannot be a batch the server would take.
    pub fn max_batch_request_bytes(&self) -> usize {
        let field = |bytes: usize| 1 + prost::length_delimiter_len(bytes) + bytes;
        field(MAX_ID_BYTES) + self.max_batch * field(MAX_PUZZLE_BYTES)
    }

    /// The largest batch response message: the largest id, and each
    /// result within the allowances an item is charged for its answer and
    /// its grade (every puzzle graded).
    pub fn max_batch_response_bytes(&self) -> usize {
        MAX_ID_BYTES + (self.max_batch + 1) * (ITEM_OVERHEAD_BYTES + GRADE_OVERHEAD_BYTES)
    }

    /// A SolveBatchStream's window: `batch_window` full batches of
    /// puzzles, and bytes for two batches of the largest items, so that a
    /// stream of real puzzles (charged about 600 bytes each) keeps all its
    /// batches in flight while one of the largest items holds two.
    pub fn batch_stream_window(&self) -> (usize, usize) {
        (
            self.batch_window * self.max_batch,
            2 * self.max_batch_charge(),
        )
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// What an item with this id and puzzle text is charged.
pub fn item_charge(id_bytes: usize, puzzle_bytes: usize) -> usize {
    id_bytes + puzzle_bytes + ITEM_OVERHEAD_BYTES
}

/// What an admitted puzzle's grade is charged: its allowance when one
/// was asked for.
fn grade_charge(grade: bool) -> usize {
    if grade { GRADE_OVERHEAD_BYTES } else { 0 }
}

/// A stream request checked against the item caps: the id to echo, the
/// puzzle to solve (and whether to grade it) or why it was refused, and
/// what it is charged (at most [`MAX_ITEM_CHARGE`]). A refused item's text
/// is dropped here, and an id over its cap is not echoed.
pub fn admit_item(id: String, puzzle: String, grade: bool) -> (String, Item, usize) {
    match check_item(&id, &puzzle) {
        Ok(()) => {
            let charge = item_charge(id.len(), puzzle.len()) + grade_charge(grade);
            let puzzle = QueuedPuzzle {
                text: puzzle.into(),
                grade,
            };
            (id, Ok(puzzle), charge)
        }
        Err(error @ ServiceError::IdTooLong { .. }) => {
            (String::new(), Err(error), ITEM_OVERHEAD_BYTES)
        }
        Err(error) => {
            let charge = item_charge(id.len(), 0);
            (id, Err(error), charge)
        }
    }
}

/// A batch's puzzles, each to solve or refused on its own, or why the
/// whole batch is refused.
pub type AdmittedBatch = Result<Vec<Item>, ServiceError>;

/// A batch request checked against the caps: the id to echo, and either
/// the batch's puzzles (each refused on its own if over its cap), with
/// what the batch is charged, or why the whole batch is refused. A batch
/// is charged its id and, per puzzle, its text and the allowances (the
/// grade's when `grade` asks for one); refused puzzles and batches only
/// the answer's allowance, and their text is dropped here.
pub fn admit_batch(
    id: String,
    puzzles: Vec<SharedText>,
    count: usize,
    max_batch: usize,
    grade: bool,
) -> (String, AdmittedBatch, usize) {
    if id.len() > MAX_ID_BYTES {
        let refused = ServiceError::IdTooLong { length: id.len() };
        return (String::new(), Err(refused), ITEM_OVERHEAD_BYTES);
    }
    let id_charge = id.len() + ITEM_OVERHEAD_BYTES;
    if count > max_batch {
        let refused = ServiceError::BatchTooLarge {
            count,
            limit: max_batch,
        };
        return (id, Err(refused), id_charge);
    }
    let mut charge = id_charge;
    let checked: Vec<Result<SharedText, ServiceError>> = puzzles
        .into_iter()
        .map(|puzzle| {
            let checked = check_puzzle_length(puzzle.len())
                .map(|()| puzzle)
                .map_err(ServiceError::from);
            charge += match &checked {
                Ok(text) => item_charge(0, text.len()) + grade_charge(grade),
                Err(_) => item_charge(0, 0),
            };
            checked
        })
        .collect();
    let items = with_own_buffer(checked)
        .into_iter()
        .map(|checked| checked.map(|text| QueuedPuzzle { text, grade }))
        .collect();
    (id, Ok(items), charge)
}

/// The admitted texts of a batch copied into one buffer of the batch's
/// own, so that what the batch holds is what it is charged: a decoded
/// text shares the buffer its message was read into, which could be far
/// larger (text that was refused, fields that were skipped).
fn with_own_buffer(
    items: Vec<Result<SharedText, ServiceError>>,
) -> Vec<Result<SharedText, ServiceError>> {
    let mut copies =
        SharedText::copied_together(items.iter().filter_map(|item| item.as_ref().ok())).into_iter();
    items
        .into_iter()
        .map(|item| item.map(|_| copies.next().expect("one copy per admitted text")))
        .collect()
}

/// Checks an item against the per-item caps.
pub fn check_item(id: &str, puzzle: &str) -> Result<(), ServiceError> {
    if id.len() > MAX_ID_BYTES {
        return Err(ServiceError::IdTooLong { length: id.len() });
    }
    check_puzzle(puzzle)
}

/// Checks puzzle text against its cap.
pub fn check_puzzle(puzzle: &str) -> Result<(), ServiceError> {
    Ok(check_puzzle_length(puzzle.len())?)
}

/// Checks the length of puzzle text (or of a board of progress) against
/// the cap of puzzle text.
pub fn check_puzzle_length(length: usize) -> Result<(), PuzzleError> {
    if length > MAX_PUZZLE_BYTES {
        return Err(PuzzleError::TooLong { length });
    }
    Ok(())
}

/// The server's budget of the bytes streams hold in flight.
#[derive(Debug, Clone)]
pub struct ByteBudget {
    bytes: Arc<Semaphore>,
    total: usize,
}

/// Bytes charged to the [`ByteBudget`], given back when dropped.
#[derive(Debug)]
pub struct Charge(OwnedSemaphorePermit);

impl ByteBudget {
    /// A budget of `total` bytes, from one item at its largest to
    /// `u32::MAX` (a smaller budget could never admit an item).
    pub fn new(total: usize) -> ByteBudget {
        let total = total.clamp(MAX_ITEM_CHARGE, u32::MAX as usize);
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

    const ONE_ITEM: (usize, usize) = (1, MAX_ITEM_CHARGE);

    #[test]
    fn items_over_their_caps_are_refused_with_their_length() {
        assert!(check_item(&"i".repeat(MAX_ID_BYTES), &"1".repeat(MAX_PUZZLE_BYTES)).is_ok());
        let id = check_item(&"i".repeat(MAX_ID_BYTES + 1), "").unwrap_err();
        assert_eq!(
            id.to_string(),
            "id is 257 bytes long, over the limit of 256 bytes; it is not echoed"
        );
        let puzzle = check_item("", &"1".repeat(MAX_PUZZLE_BYTES + 1)).unwrap_err();
        assert_eq!(
            puzzle.to_string(),
            "puzzle text is 2049 bytes long, over the limit of 2048 bytes"
        );
    }

    #[test]
    fn an_admitted_item_is_charged_at_most_the_largest_charge() {
        let cases = [
            ("i".repeat(MAX_ID_BYTES), "1".repeat(MAX_PUZZLE_BYTES)),
            ("i".repeat(MAX_ID_BYTES), "1".repeat(MAX_PUZZLE_BYTES + 1)),
            ("i".repeat(MAX_ID_BYTES + 1), "1".repeat(20_000)),
            (String::new(), String::new()),
        ];
        for ((id, puzzle), grade) in cases
            .into_iter()
            .flat_map(|case| [(case.clone(), false), (case, true)])
        {
            let (echoed, item, charge) = admit_item(id.clone(), puzzle.clone(), grade);
            assert!(charge <= MAX_ITEM_CHARGE, "{charge}");
            match item {
                Ok(queued) => {
                    let graded = if grade { GRADE_OVERHEAD_BYTES } else { 0 };
                    assert_eq!(charge, item_charge(id.len(), puzzle.len()) + graded);
                    assert_eq!(
                        (echoed, queued.text, queued.grade),
                        (id, puzzle.into(), grade)
                    );
                }
                Err(_) => assert!(echoed.len() <= MAX_ID_BYTES),
            }
        }
        assert_eq!(admit_item("i".repeat(300), String::new(), false).0, "");
    }

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
        assert_eq!(budget.total(), MAX_ITEM_CHARGE);
        assert!(budget.try_reserve(MAX_ITEM_CHARGE).is_some());
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

    #[test]
    fn batches_are_charged_per_puzzle_and_refused_whole_over_the_limits() {
        let puzzles: Vec<SharedText> = [
            "1".repeat(81),
            "1".repeat(MAX_PUZZLE_BYTES + 1),
            String::new(),
        ]
        .map(SharedText::from)
        .into();
        let (id, items, charge) = admit_batch("b".into(), puzzles.clone(), 3, 3, false);
        let items = items.unwrap();
        assert_eq!(id, "b");
        assert_eq!(
            charge,
            1 + ITEM_OVERHEAD_BYTES + 81 + 3 * ITEM_OVERHEAD_BYTES
        );
        assert!(items[0].is_ok() && items[1].is_err() && items[2].is_ok());
        assert!(!items[0].as_ref().unwrap().grade);

        // Graded, each admitted puzzle is also charged its grade.
        let (_, items, graded_charge) = admit_batch("b".into(), puzzles.clone(), 3, 3, true);
        assert_eq!(graded_charge, charge + 2 * GRADE_OVERHEAD_BYTES);
        assert!(items.unwrap()[2].as_ref().unwrap().grade);

        let (id, refused, charge) = admit_batch("b".into(), puzzles.clone(), 3, 2, true);
        assert_eq!((id.as_str(), charge), ("b", 1 + ITEM_OVERHEAD_BYTES));
        assert_eq!(
            refused.unwrap_err().to_string(),
            "the batch has 3 puzzles, over the limit of 2 (--max-batch); split it"
        );
        let (id, refused, _) = admit_batch("i".repeat(MAX_ID_BYTES + 1), puzzles, 3, 3, false);
        assert_eq!(id, "");
        assert!(matches!(refused, Err(ServiceError::IdTooLong { .. })));
    }

    /// A full batch of the largest items fits the batch message limit, and
    /// it is charged the most a batch can be.
    #[test]
    fn a_full_batch_of_the_largest_items_fits_its_limits() {
        use prost::Message;
        let limits = Limits::DEFAULT;
        let largest = crate::pb::SolveBatchRequest::new(
            "i".repeat(MAX_ID_BYTES),
            vec!["1".repeat(MAX_PUZZLE_BYTES); limits.max_batch],
        );
        assert_eq!(largest.encoded_len(), limits.max_batch_request_bytes());
        let (_, _, charge) = admit_batch(
            largest.id.clone(),
            largest.puzzles().to_vec(),
            limits.max_batch,
            limits.max_batch,
            true,
        );
        assert_eq!(charge, limits.max_batch_charge());
        let (puzzles, bytes) = limits.batch_stream_window();
        assert!(puzzles >= limits.max_batch && bytes >= limits.max_batch_charge());
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
