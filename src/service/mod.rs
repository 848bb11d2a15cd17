//! The gRPC service `sudoku.v1.SudokuService`.
//!
//! A thin adapter: handlers take a request apart, hand the puzzle to the
//! worker pool (the domain does the parsing and solving there), and build
//! the response. Errors are [`ServiceError`]s, turned into gRPC statuses in
//! one place ([`error`]).

mod convert;
mod error;
mod stream;

use tonic::{Request, Response, Status, Streaming};

pub use convert::{answer_request, answer_stream_request};
pub use error::{ServiceError, rpc_status};

use crate::pb::sudoku_service_server::SudokuServiceServer;
use crate::pb::{SolveRequest, SolveResponse, SolveStreamRequest};
use crate::pool::WorkerPool;
use convert::solve_job;

/// The service: a handle to the worker pool and the per-stream window.
#[derive(Clone)]
pub struct SudokuService {
    pool: WorkerPool,
    stream_window: usize,
}

impl SudokuService {
    /// A service that solves on `pool`, keeping at most `stream_window`
    /// puzzles of each stream in flight.
    pub fn new(pool: WorkerPool, stream_window: usize) -> SudokuService {
        SudokuService {
            pool,
            stream_window,
        }
    }

    /// The service wrapped for tonic, with the message size limit set for
    /// both directions.
    pub fn into_server(self, max_message_bytes: usize) -> SudokuServiceServer<SudokuService> {
        SudokuServiceServer::new(self)
            .max_decoding_message_size(max_message_bytes)
            .max_encoding_message_size(max_message_bytes)
    }

    /// Solves one puzzle on the pool, or sheds it if the queue is full.
    /// Dropping this future (the deadline passed, or the client went away)
    /// drops the job handle, which cancels the job.
    async fn solve_one(&self, puzzle: String) -> Result<SolveResponse, ServiceError> {
        let answer = self
            .pool
            .try_submit(move |cancel| solve_job(&puzzle, cancel))?;
        Ok(answer.await??.into())
    }
}

#[tonic::async_trait]
impl crate::pb::sudoku_service_server::SudokuService for SudokuService {
    async fn solve(
        &self,
        request: Request<SolveRequest>,
    ) -> Result<Response<SolveResponse>, Status> {
        match self.solve_one(request.into_inner().puzzle).await {
            Ok(response) => Ok(Response::new(response)),
            Err(error) => {
                let status = Status::from(error);
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
        let (responses, transport) = crate::batched::channel(stream::RESPONSE_BUFFER);
        tokio::spawn(stream::drive(
            self.pool.clone(),
            self.stream_window,
            request.into_inner(),
            responses,
        ));
        Ok(Response::new(transport))
    }
}

/// One log line per failed call, louder for the failures that are ours.
fn log_failed_call(rpc: &str, status: &Status) {
    use tonic::Code;
    let (code, detail) = (status.code(), status.message());
    match code {
        Code::Internal => tracing::error!(rpc, ?code, detail, "call failed"),
        Code::ResourceExhausted => tracing::warn!(rpc, ?code, detail, "call failed"),
        _ => tracing::info!(rpc, ?code, detail, "call failed"),
    }
}
