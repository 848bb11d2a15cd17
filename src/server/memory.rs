//! The most memory clients can make the server hold, derived from its
//! settings and printed in the startup log line.
//!
//! Every way a client can make the server keep something is capped by a
//! flag, and each cap comes with a cost per unit, measured on this build
//! (docs/operations.md, "Memory"):
//!
//! ```text
//! worst case = base (+ 16 metrics connections × HTTP/1.1 connection)
//!            + max_connections  × max(connection + 1.5 × connection_window_bytes,
//!                                     HTTP/1.1 connection)
//!            + calls in flight  × (call, headers included, + max_message_bytes)
//!            + max_open_streams × stream
//!            + max_batch_calls  × (call + stream + largest batch request
//!                                               + largest batch response,
//!                                   or an Explain or variant call if that
//!                                   holds more)
//!            + max_batch_calls  × max(largest batch charge,
//!                                     largest variant item charge)
//!            + max_inflight_bytes
//!            + workers          × grading and climbing working memory
//! ```
//!
//! where calls in flight are `--max-calls` plus the small allowance for
//! health checks and reflection (or fewer, if the connections cannot carry
//! that many), a call may hold a message it is reading, a connection a full
//! receive window of data nobody has read yet (and h2's bookkeeping of its
//! small frames, which h2 caps at half the window) or, if that is more, an
//! HTTP/1.1 connection its capped buffers, a stream the answers waiting
//! for its client's window, and SolveStreams' puzzles in flight are charged
//! to the byte budget. A batch call may hold a batch request message as it
//! reads it, and its response encoded; batches once read, with their
//! answers, are charged to a budget of their own (the second batch term,
//! [`Limits::batch_budget_bytes`](crate::service::Limits::batch_budget_bytes)),
//! which both batch RPCs and SolveVariantStream share. A worker grading, hinting or explaining the
//! hardest puzzles keeps its nested chains' searches and their bounded
//! cache. The per-unit costs below are measured
//! figures with a margin; the hostile-client test checks the total against
//! the server's real peak memory.

use std::fmt;

use super::Settings;
use super::calls::SIDE_CALLS;
use super::metrics_endpoint::METRICS_CONNECTIONS;
use crate::service::MAX_EXPLAIN_RESPONSE_BYTES;
use crate::service::limits::{
    MAX_VARIANT_HELD_BYTES, MAX_VARIANT_MESSAGE_BYTES, MAX_VARIANT_RESPONSE_BYTES,
};

/// The process at rest: code, the async runtime, the worker threads'
/// stacks as touched, the allocator's arenas.
pub const BASE_BYTES: usize = 16 << 20;

/// One plaintext HTTP/2 connection: hyper's and h2's state and their read
/// and write buffers (16.9 KiB measured for an idle one), besides its
/// receive window.
pub const CONNECTION_BYTES: usize = 24 << 10;

/// One HTTP/1.1 connection (a browser's): hyper's state, its read buffer
/// and write buffer, each capped at
/// [`HTTP1_BUFFER_BYTES`](super::http1::HTTP1_BUFFER_BYTES), and the read
/// buffer a call's headers keep (20.1 KiB measured with a gRPC-Web call
/// waiting for its message, 7.5 KiB of headers, and the call). It has no
/// receive window: it holds one request at a time, and that request's
/// message is a call's (the calls term).
pub const HTTP1_CONNECTION_BYTES: usize = 64 << 10;

/// What TLS adds to a connection: rustls's state and record buffers (8.2
/// KiB measured for an idle one; its buffers grow to a record or two while
/// data flows).
pub const TLS_CONNECTION_BYTES: usize = 32 << 10;

/// One call (an HTTP/2 stream): h2's stream state, tonic's decoder with its
/// first 8 KiB buffer, the service's future, and its headers, up to
/// [`MAX_HEADER_LIST_BYTES`](super::MAX_HEADER_LIST_BYTES), which are kept
/// in more than one form (measured for a unary call waiting for its
/// request: 9.6 KiB with gRPC's own headers, 26.2 KiB with 7.5 KiB more),
/// besides the message it may be reading.
pub const CALL_BYTES: usize = 32 << 10;

/// One SolveStream beyond its call: the driver, tonic's encoder buffer and
/// up to two chunks of encoded answers waiting for the client's window.
pub const STREAM_BYTES: usize = 80 << 10;

/// What one worker may hold to grade the hardest puzzles: the searches of
/// a nested forcing chain and the cache of the chains nested in them,
/// which it keeps between puzzles (capped at 1,024 working grids of each
/// kind, 256 for level 4's dynamic chains and those nested in them). 6.8
/// MiB measured at its peak over the 40 puzzles of `hardest-se40.txt`,
/// rated 11.0 to 11.4; the puzzles that need level 4 (`hardest-top.txt`)
/// peak 3.4 MB higher.
pub const GRADING_WORKER_BYTES: usize = 12 << 20;

/// What one worker may hold besides, climbing to a Generate target rated
/// 9.2 or more: its table and queue of puzzles, a neighbourhood and the
/// solutions it lists, bounded by the domain (1.95 MiB), rounded up.
pub const CLIMB_WORKER_BYTES: usize = 2 << 20;

const _: () = assert!(crate::domain::generate::climb::MEMORY_BYTES <= CLIMB_WORKER_BYTES);

/// The worst case of memory the settings allow, by term, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryBound {
    /// The process at rest, and the metrics endpoint's connections (at
    /// most [`METRICS_CONNECTIONS`], each as an HTTP/1.1 connection).
    pub base: usize,
    /// Open connections, with their unread receive windows (HTTP/2) or
    /// their buffers (HTTP/1.1).
    pub connections: usize,
    /// Calls in flight, with a message each being read.
    pub calls: usize,
    /// Open SolveStreams' transport buffers.
    pub streams: usize,
    /// Batch calls in flight, with a request being read and a response.
    pub batch_calls: usize,
    /// Batches read and their answers: the batch budget.
    pub batches: usize,
    /// Puzzles in flight: the byte budget.
    pub requests: usize,
    /// The workers' grading working memory.
    pub grading: usize,
}

impl MemoryBound {
    /// The bound for `settings`.
    pub fn of(settings: &Settings) -> MemoryBound {
        let tls = if settings.tls_cert.is_some() {
            TLS_CONNECTION_BYTES
        } else {
            0
        };
        let connections = settings.max_connections as usize;
        let window = settings.connection_window_bytes as usize;
        let per_connection =
            (CONNECTION_BYTES + window + window / 2).max(HTTP1_CONNECTION_BYTES) + tls;
        let calls = (settings.max_calls as usize + SIDE_CALLS)
            .min(connections.saturating_mul(settings.max_concurrent_streams as usize));
        let metrics_endpoint = match settings.metrics_listen {
            Some(_) => METRICS_CONNECTIONS * HTTP1_CONNECTION_BYTES,
            None => 0,
        };
        MemoryBound {
            base: BASE_BYTES + metrics_endpoint,
            connections: connections * per_connection,
            calls: calls * (CALL_BYTES + settings.limits.max_message_bytes),
            streams: settings.limits.max_open_streams * STREAM_BYTES,
            batch_calls: settings.limits.max_batch_calls * batch_call_bytes(settings),
            batches: settings.limits.batch_budget_bytes(),
            requests: settings.limits.max_inflight_bytes,
            grading: settings.worker_count() * (GRADING_WORKER_BYTES + CLIMB_WORKER_BYTES),
        }
    }

    /// The whole bound.
    pub fn total(&self) -> usize {
        self.base
            + self.connections
            + self.calls
            + self.streams
            + self.batch_calls
            + self.batches
            + self.requests
            + self.grading
    }
}

/// What one call of those `--max-batch-calls` caps may hold at most
/// besides what it is charged to the batch budget (see the module docs):
/// a batch call its request as read and its answers' encoding (the largest
/// response, every puzzle graded); an Explain call its
/// request, its steps and their encoding, each within the response's
/// limit; a variant call its request as read and decoded (the typed
/// message's lists, up to [`MAX_VARIANT_HELD_BYTES`]) and its response.
/// Each may also hold its response's base64 copy, 4/3 of it, when a
/// gRPC-Web client asks for text.
fn batch_call_bytes(settings: &Settings) -> usize {
    let limits = settings.limits;
    let response = limits.max_batch_response_bytes();
    let batch = CALL_BYTES
        + STREAM_BYTES
        + limits.max_batch_request_bytes()
        + response
        + text_copy(response);
    let explain = CALL_BYTES
        + limits.max_message_bytes
        + 2 * MAX_EXPLAIN_RESPONSE_BYTES
        + text_copy(MAX_EXPLAIN_RESPONSE_BYTES);
    let variant = CALL_BYTES
        + STREAM_BYTES
        + MAX_VARIANT_MESSAGE_BYTES
        + MAX_VARIANT_HELD_BYTES
        + MAX_VARIANT_RESPONSE_BYTES
        + text_copy(MAX_VARIANT_RESPONSE_BYTES);
    batch.max(explain).max(variant)
}

/// gRPC-Web text's base64 copy of a response of `bytes`.
fn text_copy(bytes: usize) -> usize {
    bytes.div_ceil(3) * 4
}

impl fmt::Display for MemoryBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mib = |bytes: usize| bytes as f64 / f64::from(1 << 20);
        write!(
            f,
            "{:.0} MiB (base {:.0} + connections {:.1} + calls {:.1} + streams {:.1} \
             + batch calls {:.1} + batches in flight {:.1} + puzzles in flight {:.1} \
             + grading {:.1})",
            mib(self.total()),
            mib(self.base),
            mib(self.connections),
            mib(self.calls),
            mib(self.streams),
            mib(self.batch_calls),
            mib(self.batches),
            mib(self.requests),
            mib(self.grading)
        )
    }
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;

    use super::*;
    use crate::service::Limits;
    use crate::service::limits::{GRADE_OVERHEAD_BYTES, MAX_VARIANT_ITEM_CHARGE};

    #[test]
    fn the_defaults_fit_a_256_mib_pod_with_room_to_spare() {
        // The pod of deploy/kubernetes: two CPUs, so two workers.
        let pod = Settings {
            workers: NonZeroUsize::new(2),
            ..Settings::default()
        };
        let bound = MemoryBound::of(&pod);
        assert!(bound.total() < 251 << 20, "{bound}");
        let tls = Settings {
            tls_cert: Some("c.pem".into()),
            ..pod
        };
        assert!(MemoryBound::of(&tls).total() < 255 << 20, "{bound}");
    }

    #[test]
    fn each_cap_moves_its_term() {
        let settings = Settings {
            max_connections: 10,
            connection_window_bytes: 65536,
            max_calls: 100,
            max_concurrent_streams: 100,
            limits: Limits {
                max_message_bytes: 4096,
                max_open_streams: 5,
                max_inflight_bytes: 1 << 20,
                max_batch: 100,
                max_batch_calls: 3,
                ..Limits::DEFAULT
            },
            ..Settings::default()
        };
        let bound = MemoryBound::of(&settings);
        assert_eq!(bound.connections, 10 * (CONNECTION_BYTES + 65536 + 32768));
        assert_eq!(bound.calls, (100 + SIDE_CALLS) * (CALL_BYTES + 4096));
        assert_eq!(bound.streams, 5 * STREAM_BYTES);
        assert_eq!(bound.requests, 1 << 20);
        let batch_request = 259 + 2 + 100 * 2051;
        let answers = 101 * 512;
        let batch_response = 256 + 101 * (512 + GRADE_OVERHEAD_BYTES);
        let text = |bytes: usize| bytes.div_ceil(3) * 4;
        let batch =
            CALL_BYTES + STREAM_BYTES + batch_request + batch_response + text(batch_response);
        let batch_charge = 256 + 512 + 100 * (2048 + 512 + GRADE_OVERHEAD_BYTES);
        assert!(batch_charge > batch_request + answers);
        // A batch this small is charged less than a variant stream
        // reserves for its largest item.
        assert!(batch_charge < MAX_VARIANT_ITEM_CHARGE);
        assert_eq!(bound.batches, 3 * MAX_VARIANT_ITEM_CHARGE);
        // A batch this small holds less than an explanation or a variant
        // call may.
        let explain = CALL_BYTES + 4096 + 2 * (1 << 20) + text(1 << 20);
        let variant = CALL_BYTES
            + STREAM_BYTES
            + (64 << 10)
            + MAX_VARIANT_HELD_BYTES
            + (64 << 10)
            + text(64 << 10);
        assert!(batch < explain.min(variant));
        assert_eq!(bound.batch_calls, 3 * explain.max(variant));
        let larger = Settings {
            limits: Limits {
                max_batch: 1024,
                ..settings.limits
            },
            ..settings.clone()
        };
        let batch_request = 259 + 2 + 1024 * 2051;
        let batch_response = 256 + 1025 * (512 + GRADE_OVERHEAD_BYTES);
        let batch =
            CALL_BYTES + STREAM_BYTES + batch_request + batch_response + text(batch_response);
        assert_eq!(MemoryBound::of(&larger).batch_calls, 3 * batch);
        assert_eq!(
            MemoryBound::of(&larger).batches,
            3 * (256 + 512 + 1024 * (2048 + 512 + GRADE_OVERHEAD_BYTES))
        );
        let tls = Settings {
            tls_cert: Some("c.pem".into()),
            ..settings.clone()
        };
        let with_tls = MemoryBound::of(&tls).connections;
        assert_eq!(with_tls, bound.connections + 10 * TLS_CONNECTION_BYTES);
        let small_windows = Settings {
            connection_window_bytes: 16 << 10,
            ..settings.clone()
        };
        assert_eq!(
            MemoryBound::of(&small_windows).connections,
            10 * HTTP1_CONNECTION_BYTES,
            "HTTP/1.1 connections hold more than HTTP/2 ones with small windows"
        );
        let few_connections = Settings {
            max_connections: 1,
            max_concurrent_streams: 3,
            ..settings
        };
        assert_eq!(
            MemoryBound::of(&few_connections).calls,
            3 * (CALL_BYTES + 4096)
        );
    }
}
