//! Solving puzzle files, in this process or through servers.
//!
//! A puzzle file holds one puzzle per line, in any of the accepted text
//! forms that fit on a line; lines whose first non-blank character is `#`,
//! and blank lines, are skipped ([`is_puzzle_line`], the one rule every
//! reader of puzzle files here uses). Every other line gets exactly one
//! output line, in input order.
//!
//! This is a library, not the command line: a Rust program that streams a
//! file through servers uses it as `sudoku solve` does. The caller says
//! how an answer becomes bytes ([`LineFormat`]) and what to do with the
//! run's progress ([`Progress`]); the runners format on the threads that
//! produced the answers, so that output costs no extra hand-off.
//!
//! [`read`] cuts the input into chunks of whole lines; [`local`] solves
//! chunks in this process on the worker pool; [`remote`] streams them
//! through servers; [`write`] writes either's answers in input order.

pub mod local;
pub mod read;
pub mod remote;
pub mod write;

use std::time::Duration;

use crate::domain::{Answer, Tally};

pub use local::solve_local;
pub use read::{Chunk, ChunkReader, PuzzleLine, is_puzzle_line, read_puzzle_lines};
pub use remote::{DEFAULT_BATCH, RemoteError, RemoteOptions, RemoteRpc, solve_remote};

/// How an answer becomes an output line.
///
/// Called on worker threads and stream tasks, once per puzzle, in no
/// particular order across chunks; the lines end up in input order.
pub trait LineFormat: Send + Sync {
    /// Appends the output line, newline included, for the puzzle on input
    /// line `line` (1-based).
    fn write_line(&self, out: &mut Vec<u8>, line: u64, answer: &Answer);
}

/// What a run reports each time it has written a chunk of answers.
#[derive(Debug)]
pub struct Progress<'a> {
    /// The chunk's puzzles that got an error instead of a verdict (invalid,
    /// abandoned or failed), by input line number, with the message.
    pub errors: &'a [(u64, String)],
    /// Puzzles answered so far, this chunk included.
    pub answered: u64,
    /// Input bytes the chunk covered, comments and line breaks included.
    pub input_bytes: u64,
}

/// What a whole run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Puzzles per outcome.
    pub tally: Tally,
    /// Wall time from the first read to the last write.
    pub elapsed: Duration,
}

/// A plain format for tests of the runners: the line number, the outcome,
/// and the solution or the error.
#[cfg(test)]
pub(crate) struct PlainFormat;

#[cfg(test)]
impl LineFormat for PlainFormat {
    fn write_line(&self, out: &mut Vec<u8>, line: u64, answer: &Answer) {
        let detail = match (&answer.solution, &answer.error) {
            (Some(solution), _) => solution.to_line(),
            (None, Some(error)) => error.clone(),
            (None, None) => String::new(),
        };
        out.extend(format!("{line} {:?} {detail}\n", answer.outcome).into_bytes());
    }
}
