//! The gRPC service `sudoku.v1.SudokuService`.
//!
//! A thin adapter: handlers take a request apart, hand the puzzle to the
//! worker pool (the domain does the parsing and solving there), and build
//! the response. Errors are [`ServiceError`]s, turned into gRPC statuses in
//! one place ([`error`]).

mod convert;
mod error;
mod metrics;
mod stream;

use std::sync::Arc;

use tokio::sync::{Semaphore, watch};
use tonic::codec::CompressionEncoding;
use tonic::{Code, Request, Response, Status, Streaming};

pub use convert::{answer_request, answer_stream_request};
pub use error::{ServiceError, rpc_status};
pub use metrics::Metrics;
use metrics::Rpc;

use crate::pb::sudoku_service_server::SudokuServiceServer;
use crate::pb::{SolveRequest, SolveResponse, SolveStreamRequest};
use crate::pool::WorkerPool;
use convert::{Solved, solve_job};

/// Limits the service applies to its calls.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Puzzles of one stream in flight at once.
    pub stream_window: usize,
    /// SolveStream calls open at once; more are refused.
    pub max_open_streams: usize,
    /// Largest request or response message, in bytes.
    pub max_message_bytes: usize,
}

/// The service: the worker pool, its limits, its metrics, and the signal
/// that the server is draining.
#[derive(Clone)]
pub struct SudokuService {
    pool: WorkerPool,
    limits: Limits,
    open_streams: Arc<Semaphore>,
    metrics: Arc<Metrics>,
    draining: watch::Receiver<bool>,
}

impl SudokuService {
    /// A service that solves on `pool` within `limits` and records into
    /// `metrics`. Once `draining` turns true, new streams are refused and
    /// open ones stop taking puzzles, answer what they took, and end with
    /// UNAVAILABLE.
    pub fn new(
        pool: WorkerPool,
        limits: Limits,
        metrics: Arc<Metrics>,
        draining: watch::Receiver<bool>,
    ) -> SudokuService {
        SudokuService {
            pool,
            limits,
            open_streams: Arc::new(Semaphore::new(limits.max_open_streams)),
            metrics,
            draining,
        }
    }

    /// The service wrapped for tonic: the message size limit set for both
    /// directions, gzip and zstd accepted from clients and used for
    /// responses when the client accepts them.
    pub fn into_server(self) -> SudokuServiceServer<SudokuService> {
        let max_message_bytes = self.limits.max_message_bytes;
        SudokuServiceServer::new(self)
            .max_decoding_message_size(max_message_bytes)
            .max_encoding_message_size(max_message_bytes)
            .accept_compressed(CompressionEncoding::Gzip)
            .accept_compressed(CompressionEncoding::Zstd)
            .send_compressed(CompressionEncoding::Gzip)
            .send_compressed(CompressionEncoding::Zstd)
    }

    /// Solves one puzzle on the pool, or sheds it if the queue is full.
    /// Dropping this future (the deadline passed, or the client went away)
    /// drops the job handle, which cancels the job.
    async fn solve_one(&self, puzzle: String) -> Result<Solved, ServiceError> {
        let answer = self
            .pool
            .try_submit(move |cancel| solve_job(&puzzle, cancel))?;
        Ok(answer.await??)
    }
}

#[tonic::async_trait]
impl crate::pb::sudoku_service_server::SudokuService for SudokuService {
    async fn solve(
        &self,
        request: Request<SolveRequest>,
    ) -> Result<Response<SolveResponse>, Status> {
        let mut call = CallRecord::new(&self.metrics, Rpc::Solve);
        let answer = self.solve_one(request.into_inner().puzzle).await;
        self.metrics.tally(Rpc::Solve).record(&answer);
        match answer {
            Ok(solved) => {
                call.code = Code::Ok;
                Ok(Response::new(solved.into()))
            }
            Err(error) => {
                let status = Status::from(error);
                call.code = status.code();
                log_failed_call("Solve", &status);
                Err(status)
            }
        }
    }

    type SolveStreamStream = stream::ResponseStream;

    async fn solve_stream(
        &self,
        request: Request<Streaming<SolveStreamRequest>>,
    ) -> Result<Response<Self::SolveStreamStream>, Status> {
        let refuse = |status: Status| {
            self.metrics.call_finished(Rpc::SolveStream, status.code());
            log_failed_call("SolveStream", &status);
            Err(status)
        };
        if *self.draining.borrow() {
            return refuse(Status::unavailable(
                "the server is shutting down; open the stream on another server",
            ));
        }
        let Ok(slot) = self.open_streams.clone().try_acquire_owned() else {
            self.metrics.stream_refused();
            return refuse(Status::resource_exhausted(format!(
                "server overloaded: {} streams are already open; retry with backoff",
                self.limits.max_open_streams
            )));
        };
        let (responses, transport) = crate::grouped_channel::channel(stream::RESPONSE_BUFFER);
        let driver = stream::Driver {
            pool: self.pool.clone(),
            window: self.limits.stream_window,
            metrics: self.metrics.clone(),
            draining: self.draining.clone(),
        };
        let requests = request.into_inner();
        tokio::spawn(async move {
            let _slot = slot;
            driver.run(requests, responses).await;
        });
        Ok(Response::new(transport))
    }
}

/// Counts a unary call in the metrics when dropped: with the code it ended
/// with, or CANCELLED when it was dropped before it had one (the client
/// went away or the deadline passed).
struct CallRecord<'a> {
    metrics: &'a Metrics,
    rpc: Rpc,
    code: Code,
}

impl<'a> CallRecord<'a> {
    fn new(metrics: &'a Metrics, rpc: Rpc) -> Self {
        CallRecord {
            metrics,
            rpc,
            code: Code::Cancelled,
        }
    }
}

impl Drop for CallRecord<'_> {
    fn drop(&mut self) {
        self.metrics.call_finished(self.rpc, self.code);
    }
}

/// One log line per failed call, louder for the failures that are ours.
fn log_failed_call(rpc: &str, status: &Status) {
    let (code, detail) = (status.code(), status.message());
    match code {
        Code::Internal => tracing::error!(rpc, ?code, detail, "call failed"),
        Code::ResourceExhausted => tracing::warn!(rpc, ?code, detail, "call failed"),
        _ => tracing::info!(rpc, ?code, detail, "call failed"),
    }
}
