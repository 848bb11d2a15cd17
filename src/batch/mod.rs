//! Solving puzzle files.
//!
//! A puzzle file holds one puzzle per line, in any of the accepted text
//! forms that fit on a line; lines whose first non-blank character is `#`,
//! and blank lines, are skipped. Every other line gets exactly one output
//! line, in input order (see [`crate::report`] for the format).
//!
//! [`read`] cuts the input into chunks of whole lines; [`local`] solves
//! chunks in this process on the worker pool; [`remote`] streams them
//! through servers; [`write`] writes either's answers in input order.

pub mod local;
pub mod read;
pub mod remote;
pub mod write;

pub use local::{LocalRun, solve_local};
pub use read::{Chunk, ChunkReader, MAX_LINE_BYTES, PuzzleLine};
pub use remote::{Progress, RemoteError, RemoteOptions, RemoteRun, solve_remote};
