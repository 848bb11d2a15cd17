//! sudoku-grpc: a gRPC service that solves 9×9 Sudoku puzzles, one at a time
//! or in streamed batches, and certifies every answer; that grades puzzles,
//! gives hints and explains them as a person would solve them; and that
//! generates new ones.
//!
//! The crate is layered so that each part knows only the one below it:
//!
//! * [`domain`]: the Sudoku itself, the crate `sudoku-core`
//!   (`crates/sudoku-core`), which depends on no gRPC, async or HTTP crate,
//!   and is named `domain` here. Boards, puzzle text and its errors, and
//!   the one [`domain::Outcome`] every layer names a puzzle's fate with; the
//!   certifying solver ([`domain::solver`]), which searches for a second
//!   solution so that every answer says one, several or none; the logical
//!   solver ([`domain::logic`]), which solves as a person does, with a
//!   ladder of techniques, and from it grades a puzzle on Sudoku
//!   Explainer's scale, gives the next step as a hint and explains the
//!   whole path; solving with grading, hints and explanations within one
//!   per-puzzle budget; and the generator ([`domain::generate`]) of
//!   puzzles with one solution, with the symmetry, minimality and grade
//!   asked for, reproducible from a seed. Knows nothing of gRPC or
//!   threads.
//! * [`pool`]: the bounded pool of worker threads that runs solver jobs off
//!   the async runtime, with load shedding and cancellation.
//! * [`streaming`]: the stream core: one streaming call's driver, with its
//!   windows, byte budget, ordering, deadline and early ends, knowing
//!   nothing of gRPC or protobuf, and tested on a paused clock.
//! * [`service`]: the `sudoku.v1.SudokuService` handlers: protobuf in,
//!   domain calls on the pool, protobuf out; domain errors become gRPC
//!   statuses in one place.
//! * [`server`]: the bootstrap: settings, listener, health, reflection and
//!   graceful shutdown.
//! * [`client`]: connecting to a server (or to every address of a DNS
//!   name), calling it, and checking every answer it sends before
//!   believing it.
//! * [`file`]: puzzle files: reading them in chunks, solving them in this
//!   process on the worker pool, or streaming them through servers. A
//!   library: it returns domain answers and lets its caller format them.
//! * [`cli`]: the `sudoku` command line, one module per command, with
//!   everything it prints. Nothing below it imports from it.
//! * [`flag_values`]: durations and sizes as flags take them, and the
//!   parsers that check each flag's range as it is read.
//! * [`grouped_channel`]: a channel that moves items in groups and reads as
//!   a stream, used on both sides of SolveStream.
//! * [`log_limit`]: log lines a flood cannot multiply, for the service and
//!   the server.
//! * [`pb`]: the code generated from `proto/sudoku.proto`; the three
//!   batch messages, whose codecs are written by hand to bound what a
//!   message can make its reader hold, tested against prost's own code for
//!   them; and batch results encoded ahead of their response.
//!
//! * [`wording`]: counts in the words of messages ("1 puzzle").
//!
//! The binaries in `src/bin/` only parse flags and call into these modules.

pub mod cli;
pub mod client;
pub use sudoku_core as domain;
pub mod file;
pub mod flag_values;
pub mod grouped_channel;
pub mod log_limit;
pub mod pool;
pub mod server;
pub mod service;
pub mod streaming;
pub mod wording;

/// Code generated from `proto/sudoku.proto` (package `sudoku.v1`).
pub mod pb {
    tonic::include_proto!("sudoku.v1");

    mod batch;
    #[cfg(test)]
    mod codec_tests;
    mod codes;
    mod encoded;
    #[cfg(test)]
    pub(crate) mod twin;
    pub use batch::{MAX_KEPT, SharedText, SolveBatchRequest, SolveBatchResponse, SolveResult};
    pub use codes::code_name;
    pub use encoded::{EncodedResults, EncodedRun, ResultsEncoder};

    /// The encoded descriptor set of `sudoku.v1` and its imports, for
    /// server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/sudoku_descriptor.bin"));
}
