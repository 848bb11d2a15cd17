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
use crate::flag_values::{
    bytes_within, check_flags, count_within, format_duration, parse_budget, parse_timer,
};

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

/// The largest request message of the variant RPCs (SolveVariant,
/// SolveVariantStream, VariantCandidates): f-puzzles JSON for a 16×16 with
/// many rules is well under it, and larger JSON fits as its compressed
/// link form (decoded on a worker, up to the reader's 256 KiB).
pub const MAX_VARIANT_MESSAGE_BYTES: usize = 64 << 10;

/// The largest response message of the variant RPCs: true candidates of a
/// 25×25 grid (625 cells of up to 25 digits, twice) encode to under 35 KiB.
pub const MAX_VARIANT_RESPONSE_BYTES: usize = 64 << 10;

/// The most a decoded variant request's puzzle can hold
/// ([`held_bytes`](super::variant::held_bytes)): each constraint of the
/// typed message takes at least 2 bytes on the wire and its in-memory size
/// in its list, which may hold twice its length; the lists inside take 4
/// bytes a cell (twice, too) for at least one on the wire. The slack
/// covers the least capacity of short lists.
pub const MAX_VARIANT_HELD_BYTES: usize =
    MAX_VARIANT_MESSAGE_BYTES * size_of::<crate::pb::VariantConstraint>() + 1024;

/// What an admitted variant item is charged besides its puzzle and id: its
/// answer (two 25×25 solutions and stats, or an error message with its
/// details; `variant`'s tests check the largest).
pub const VARIANT_ANSWER_BYTES: usize = 4096;

/// The most a variant stream item can be charged.
pub const MAX_VARIANT_ITEM_CHARGE: usize =
    MAX_ID_BYTES + MAX_VARIANT_HELD_BYTES + VARIANT_ANSWER_BYTES;

/// Limits the service applies to its calls: the server's flags that bound
/// its work and what it holds, each declared once, here. The doc of each
/// field is its flag's help; the server flattens this group into its
/// settings, reads its defaults from [`Limits::DEFAULT`], and logs it
/// whole at startup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct Limits {
    /// Puzzles of one stream in flight at once; past this the server stops
    /// reading that stream until answers go out.
    #[arg(long, env = "SUDOKU_STREAM_WINDOW",
          value_parser = count_within(u64::MAX),
          default_value_t = Limits::DEFAULT.stream_window)]
    pub stream_window: usize,

    /// Bytes the puzzles of one stream in flight may hold at once (each is
    /// charged its id, its text and 512 bytes for its answer); past this the
    /// server stops reading that stream.
    #[arg(long, env = "SUDOKU_STREAM_WINDOW_BYTES",
          value_parser = bytes_within(MAX_ITEM_CHARGE, MAX_STREAM_WINDOW_BYTES,
                                      "what the largest item allowed is charged"),
          default_value_t = Limits::DEFAULT.stream_window_bytes)]
    pub stream_window_bytes: usize,

    /// Bytes all SolveStreams together may hold in puzzles in flight,
    /// charged as for a stream's window; a stream whose next item does not
    /// fit stops reading until it does. Unary calls are not charged, and
    /// batch calls have a budget of their own (room for the largest batch
    /// and its answers per --max-batch-calls).
    #[arg(long, env = "SUDOKU_MAX_INFLIGHT_BYTES",
          value_parser = bytes_within(2 * MAX_ITEM_CHARGE, u32::MAX as usize,
                                      "a window of one item and one more item"),
          default_value_t = Limits::DEFAULT.max_inflight_bytes)]
    pub max_inflight_bytes: usize,

    /// Largest request or response message in bytes. An item holds at most
    /// a 256-byte id and 2 KiB of puzzle text; larger items are refused one
    /// by one, and a message over this limit ends its call. (Batch RPCs
    /// size their messages by --max-batch, and an Explain response may
    /// take up to 1 MiB.)
    #[arg(long, env = "SUDOKU_MAX_MESSAGE_BYTES",
          value_parser = bytes_within(MIN_MESSAGE_BYTES, MAX_MESSAGE_BYTES,
                                      "a request with the largest id and puzzle allowed"),
          default_value_t = Limits::DEFAULT.max_message_bytes)]
    pub max_message_bytes: usize,

    /// The longest the solver may spend on one puzzle; a puzzle that needs
    /// more gets OUTCOME_GAVE_UP (RESOURCE_EXHAUSTED in a unary call).
    /// Real puzzles take microseconds to milliseconds.
    #[arg(long, env = "SUDOKU_MAX_SOLVE_TIME", value_parser = parse_budget,
          default_value = format_duration(Limits::DEFAULT.max_solve_time))]
    pub max_solve_time: Duration,

    /// The longest the logical solver may spend grading one puzzle (in a
    /// Solve or batch that asks for its grade, or each attempt of a
    /// Generate), or on a Hint or Explain, after the puzzle is solved; a
    /// grade that needs more is marked stalled, with the reason (and a
    /// Generate attempt dropped). Separate from --max-solve-time because
    /// rating the hardest puzzles takes far longer than solving them.
    #[arg(long, env = "SUDOKU_MAX_GRADE_TIME", value_parser = parse_budget,
          default_value = format_duration(Limits::DEFAULT.max_grade_time))]
    pub max_grade_time: Duration,

    /// Most puzzles one Generate call may ask for; a larger count is
    /// refused with INVALID_ARGUMENT.
    #[arg(long, env = "SUDOKU_MAX_GENERATE_COUNT", value_parser = count_within(1_000_000),
          default_value_t = Limits::DEFAULT.max_generate_count)]
    pub max_generate_count: usize,

    /// How long a Generate call may search for its next puzzle: a target
    /// that is rarely or never met (min rating 11, say) ends the call with
    /// what it found and RESOURCE_EXHAUSTED once this passes without one.
    #[arg(long, env = "SUDOKU_MAX_GENERATE_WAIT", value_parser = parse_budget,
          default_value = format_duration(Limits::DEFAULT.max_generate_wait))]
    pub max_generate_wait: Duration,

    /// `--max-generate-wait` for a target rated 9.2 or more (min_rating,
    /// or the level's floor), which random puzzles almost never meet: the
    /// server climbs to it from a random puzzle instead, in seconds to
    /// minutes per puzzle (a median of about 6.5 s for 10.0 on two
    /// workers). A client bounds its own wait with its deadline.
    #[arg(long, env = "SUDOKU_MAX_CLIMB_WAIT", value_parser = parse_budget,
          default_value = format_duration(Limits::DEFAULT.max_climb_wait))]
    pub max_climb_wait: Duration,

    /// Most SolveStream and Generate calls open at once on this server;
    /// more are refused with RESOURCE_EXHAUSTED.
    #[arg(long, env = "SUDOKU_MAX_OPEN_STREAMS", value_parser = count_within(1 << 20),
          default_value_t = Limits::DEFAULT.max_open_streams)]
    pub max_open_streams: usize,

    /// Most puzzles in one SolveBatch or SolveBatchStream request; a larger
    /// batch is refused as a whole (INVALID_ARGUMENT). The batch RPCs
    /// accept request messages up to a full batch of the largest items
    /// (this many puzzles of 2 KiB and a 256-byte id), and no larger.
    #[arg(long, env = "SUDOKU_MAX_BATCH", value_parser = count_within(MAX_BATCH_LIMIT as u64),
          default_value_t = Limits::DEFAULT.max_batch)]
    pub max_batch: usize,

    /// Batches of one SolveBatchStream in flight at once (fewer when they
    /// hold the largest items: the stream's window also holds at most two
    /// full batches of those); past this the server stops reading it.
    #[arg(long, env = "SUDOKU_BATCH_WINDOW", value_parser = count_within(64),
          default_value_t = Limits::DEFAULT.batch_window)]
    pub batch_window: usize,

    /// Most SolveBatch, SolveBatchStream, Explain and variant calls in
    /// flight at once, besides --max-calls; more are refused at once with
    /// RESOURCE_EXHAUSTED. Each may hold a request message of up to a full
    /// batch (or an explanation of up to 1 MiB, or a variant puzzle).
    #[arg(long, env = "SUDOKU_MAX_BATCH_CALLS", value_parser = count_within(1 << 16),
          default_value_t = Limits::DEFAULT.max_batch_calls)]
    pub max_batch_calls: usize,

    /// A connection that has opened no call this long after it was accepted
    /// (its TLS handshake included) is closed, and a unary call whose
    /// request message has not arrived this long after its headers is
    /// answered DEADLINE_EXCEEDED.
    #[arg(long, env = "SUDOKU_FIRST_CALL_TIMEOUT", value_parser = parse_timer,
          default_value = format_duration(Limits::DEFAULT.first_call_timeout))]
    pub first_call_timeout: Duration,
}

/// The smallest `--max-message-bytes`: a request carrying the largest id
/// and puzzle text allowed, with room for protobuf's framing.
pub const MIN_MESSAGE_BYTES: usize = MAX_ID_BYTES + MAX_PUZZLE_BYTES + 64;

/// The largest `--max-message-bytes` accepted: far beyond any answer, which
/// is a few hundred bytes.
pub const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// The largest `--stream-window-bytes`: with one more item a window must
/// fit in `--max-inflight-bytes`, which the budget counts in a `u32`.
pub const MAX_STREAM_WINDOW_BYTES: usize = u32::MAX as usize - MAX_ITEM_CHARGE;

/// The largest `--max-batch`: what a batch message decodes is bounded by
/// it (see [`crate::pb::MAX_KEPT`]).
pub const MAX_BATCH_LIMIT: usize = crate::pb::MAX_KEPT - 1;

/// Limits that cannot work together, found at startup.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LimitsError(pub String);

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
        first_call_timeout: Duration::from_secs(10),
        max_generate_count: 10_000,
        max_generate_wait: Duration::from_secs(10),
        max_climb_wait: Duration::from_secs(120),
    };

    /// Refuses limits out of their flags' ranges (for limits made in code:
    /// parsed ones were checked as they were read), and limits that cannot
    /// work together, with a message naming the flags.
    pub fn validate(&self) -> Result<(), LimitsError> {
        check_flags(self).map_err(LimitsError)?;
        let smallest_budget = self.stream_window_bytes + MAX_ITEM_CHARGE;
        if self.max_inflight_bytes < smallest_budget {
            return Err(LimitsError(format!(
                "--max-inflight-bytes {} must be at least {smallest_budget}: one full \
                 --stream-window-bytes ({}) and one more item",
                self.max_inflight_bytes, self.stream_window_bytes
            )));
        }
        Ok(())
    }

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
    /// charged ([`Limits::max_batch_charge`]) or a variant stream's largest
    /// item if more, so that every batch call can
    /// hold the reservation a stream makes before it reads a batch
    /// (`crate::server::memory` counts it so). A stream that holds more
    /// than one batch may make others wait for room, or shed a SolveBatch.
    pub fn batch_budget_bytes(&self) -> usize {
        self.max_batch_calls.max(1) * self.max_batch_charge().max(MAX_VARIANT_ITEM_CHARGE)
    }

    /// A SolveVariantStream's window: `--stream-window` puzzles, and bytes
    /// for two of the largest items (real ones are charged a few KiB).
    pub fn variant_stream_window(&self) -> (usize, usize) {
        (self.stream_window, 2 * MAX_VARIANT_ITEM_CHARGE)
    }
}

/// The limits as log fields: `stream_window=256 max_solve_time=1s …`.
impl std::fmt::Display for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::flag_values::as_log_fields(&format!("{self:?}")))
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use clap::{Args, Command};

    use super::*;

    /// The startup log shows every limit flag with its value, with nothing
    /// to list by hand: a field added to [`Limits`] is logged as it is.
    #[test]
    fn the_log_line_names_every_limit_with_its_value() {
        let logged = Limits::DEFAULT.to_string();
        let flags = Limits::augment_args(Command::new("limits"));
        let ids: Vec<_> = flags
            .get_arguments()
            .map(|arg| arg.get_id().as_str())
            .collect();
        assert_eq!(ids.len(), 14, "{ids:?}");
        for id in ids {
            assert!(logged.contains(&format!("{id}=")), "{id} missing: {logged}");
        }
        assert!(
            logged.starts_with("stream_window=256 stream_window_bytes=262144 "),
            "{logged}"
        );
        assert!(logged.contains(" max_solve_time=1s "), "{logged}");
        assert!(logged.ends_with(" first_call_timeout=10s"), "{logged}");
    }

    /// Each flag's default is the field's value in [`Limits::DEFAULT`].
    #[test]
    fn the_flags_defaults_are_the_default_limits() {
        #[derive(clap::Parser)]
        struct Flags {
            #[command(flatten)]
            limits: Limits,
        }
        let parsed = <Flags as clap::Parser>::try_parse_from(["limits"]).unwrap();
        assert_eq!(parsed.limits, Limits::DEFAULT);
        assert_eq!(parsed.limits.validate(), Ok(()));
    }
}
