//! The gRPC service `sudoku.v1.SudokuService`.
//!
//! A thin adapter between protobuf and the domain: handlers ([`handlers`])
//! check a request against the caps ([`admission`], [`limits`]), hand the
//! puzzle to the worker pool (the domain parses and solves there, within
//! the per-puzzle time budget), or a stream to the stream core
//! ([`crate::streaming`], through [`protocol`]), and build the response.
//! Errors are [`ServiceError`]s, turned into gRPC statuses in one place
//! ([`error`]).
//!
//! The files form layers, each importing only those below it, none of its
//! own importers: `limits` and `deadline`; `error`, `call_log`,
//! `logic_messages`, `rpc`; `convert`, `variant`; `jobs`, `admission`,
//! `metrics`, `local`; `stream`; `protocol`; `state`; `batch`, `grading`,
//! `generate`, `extensions`, `variant_calls`; `handlers` and `transport` (`tests/suite/layers.rs` checks that
//! no file of either crate imports one that imports it).

mod admission;
mod batch;
mod call_log;
mod convert;
pub mod deadline;
mod error;
mod extensions;
mod generate;
mod grading;
mod handlers;
mod jobs;
pub mod limits;
mod local;
pub(crate) mod logic_messages;
mod metrics;
mod protocol;
mod rpc;
mod state;
mod stream;
mod transport;
mod variant;
mod variant_calls;

pub use call_log::log_failed_call;
pub use error::{
    ERROR_DOMAIN, GAVE_UP_REASON, GENERATE_GAVE_UP_REASON, OVERLOADED, ServiceError,
    is_client_reset, is_shed, rpc_status,
};
pub use extensions::{CallSlot, RequestArrived};
pub use generate::{GenerateStream, parse_request as parse_generate_request};
pub use limits::Limits;
pub use local::{answer_request, answer_stream_request};
pub use logic_messages::pb_outcome;
pub use metrics::{ConnectionGauge, Metrics};
pub use rpc::Rpc;
pub use state::SudokuService;
pub use transport::{MAX_EXPLAIN_RESPONSE_BYTES, SudokuServer};

pub use crate::streaming::ByteBudget;
