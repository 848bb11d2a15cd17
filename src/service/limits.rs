//! What one item may carry, what it is charged, and the limits the
//! service applies to its calls.
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
//! * the stream's own [`StreamWindow`](crate::streaming::StreamWindow) (`--stream-window` puzzles and
//!   `--stream-window-bytes`, reservation included), so that one stream
//!   cannot take the whole budget. Room comes back when the transport takes
//!   an answer, not when the answer is made, so the window also covers
//!   answers waiting for a slow client; the default of 256 puzzles keeps as
//!   many in the pool as a window of 128 did when it counted only those
//!   (measured: kaggle x200 through one server in 559 ms with 256, 589 ms
//!   with 128, 554 ms before the byte accounting, noise about 20-35 ms);
//! * the server's [`ByteBudget`](crate::streaming::ByteBudget) (`--max-inflight-bytes`), shared by every
//!   stream: a stream waits, and stops reading, until its next item fits.
//!   With the defaults the windows of all the streams allowed open fit the
//!   budget (128 x 256 KiB = 32 MiB); a smaller budget overcommits them,
//!   and then a client that stops reading keeps its window, and makes
//!   others wait, until it goes away. Batch calls are charged to a budget
//!   of their own ([`Limits::batch_budget_bytes`]): their windows hold
//!   whole batches, and were they charged to the shared budget, a few
//!   batch clients that stop reading could make every SolveStream wait.
//!
//! Unary calls other than SolveBatch are not charged: each holds one
//! request, and their number and size are capped by `--max-calls` and
//! `--max-message-bytes` (and the pool's queue), so streams cannot crowd
//! them out. A unary SolveBatch is charged to the batch budget once it is
//! read, or shed if the budget has no room.
//!
//! Items over the per-item caps ([`MAX_ID_BYTES`], and
//! [`MAX_PUZZLE_BYTES`](crate::domain::MAX_PUZZLE_BYTES) for puzzle text)
//! are refused on their own, with a message naming the limit, and their
//! text is dropped at once: a refused item is charged only the allowance.

use std::time::Duration;

use crate::domain::{MAX_PUZZLE_BYTES, TimeLimits};

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
/// this (1,797 bytes with the 62 techniques of today); `convert`'s tests
/// check it. The grade a worker keeps until it is encoded is a fixed-size
/// value well within the answer's own allowance.
pub const GRADE_OVERHEAD_BYTES: usize = 2048;

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
    /// The longest the logical solver may grade, hint or explain one
    /// puzzle (after its solve) before the grade is marked stalled.
    pub max_grade_time: Duration,
    /// Most puzzles in one SolveBatch or SolveBatchStream request.
    pub max_batch: usize,
    /// Batches of one SolveBatchStream in flight at once.
    pub batch_window: usize,
    /// SolveBatch and SolveBatchStream calls open at once
    /// (`--max-batch-calls`).
    pub max_batch_calls: usize,
    /// How long a batch stream may stay open without sending its first
    /// request: batch call slots are few, so headers alone must not hold
    /// one (the server's `--first-call-timeout`).
    pub first_message_timeout: Duration,
    /// Most puzzles one Generate call may ask for.
    pub max_generate_count: usize,
    /// How long a Generate call searches for its next puzzle before it
    /// gives up on a target too few attempts meet.
    pub max_generate_wait: Duration,
    /// The same wait for a target that climbs (a rating floor of 9.2 or
    /// more: see `crate::domain::generate::climb`), whose puzzles take
    /// seconds to minutes each.
    pub max_climb_wait: Duration,
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
        max_grade_time: Duration::from_secs(10),
        max_batch: 1024,
        batch_window: 4,
        max_batch_calls: 5,
        first_message_timeout: Duration::from_secs(10),
        max_generate_count: 10_000,
        max_generate_wait: Duration::from_secs(10),
        max_climb_wait: Duration::from_secs(120),
    };

    /// How long a Generate call for `request` searches for its next
    /// puzzle, and the flag that sets it: `--max-climb-wait` when its
    /// target climbs, else `--max-generate-wait`.
    pub fn generate_wait(
        &self,
        request: &crate::domain::generate::Request,
    ) -> (Duration, &'static str) {
        if request.wants_climb() {
            (self.max_climb_wait, "--max-climb-wait")
        } else {
            (self.max_generate_wait, "--max-generate-wait")
        }
    }

    /// The most a batch request can be charged (see
    /// [`admit_batch`](super::admission::admit_batch)): a
    /// full batch of the largest puzzles, graded.
    pub fn max_batch_charge(&self) -> usize {
        MAX_ID_BYTES
            + ITEM_OVERHEAD_BYTES
            + self.max_batch * (MAX_PUZZLE_BYTES + ITEM_OVERHEAD_BYTES + GRADE_OVERHEAD_BYTES)
    }

    /// The largest batch request message: a full batch of the largest
    /// items, each with its field's tag and length, the largest id, and
    /// `grade` set (a tag and a one-byte value). A larger message cannot
    /// be a batch the server would take.
    pub fn max_batch_request_bytes(&self) -> usize {
        const GRADE_FIELD_BYTES: usize = 2;
        let field = |bytes: usize| 1 + prost::length_delimiter_len(bytes) + bytes;
        field(MAX_ID_BYTES) + self.max_batch * field(MAX_PUZZLE_BYTES) + GRADE_FIELD_BYTES
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

impl Limits {
    /// The time limits of one puzzle's solve and its grade, hint or
    /// explanation.
    pub fn time_limits(&self) -> TimeLimits {
        TimeLimits {
            solve: Some(self.max_solve_time),
            grade: Some(self.max_grade_time),
        }
    }

    /// The budget of every batch call together (SolveBatch and
    /// SolveBatchStream), apart from the SolveStreams' `max_inflight_bytes`
    /// so that batch clients that stop reading cannot make SolveStreams
    /// wait: per batch call, what a full batch of the largest items is
    /// charged ([`Limits::max_batch_charge`]), so that every batch call can
    /// hold the reservation a stream makes before it reads a batch
    /// (`crate::server::memory` counts it so). A stream that holds more
    /// than one batch may make others wait for room, or shed a SolveBatch.
    pub fn batch_budget_bytes(&self) -> usize {
        self.max_batch_calls.max(1) * self.max_batch_charge()
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
