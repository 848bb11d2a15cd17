//! The gRPC service `sudoku.v1.SudokuService`.
//!
//! A thin adapter: handlers check a request against the limits ([`limits`]:
//! item caps, the byte budget, stream windows), hand the puzzle to the
//! worker pool (the domain does the parsing and solving there, within the
//! per-puzzle time budget), and build the response. Errors are
//! [`ServiceError`]s, turned into gRPC statuses in one place ([`error`]).

mod batch;
mod convert;
pub mod deadline;
mod error;
mod generate;
pub(crate) mod grading;
mod jobs;
pub mod limits;
mod metrics;
mod protocol;
mod stream;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Semaphore, watch};
use tonic::codec::CompressionEncoding;
use tonic::{Code, Request, Response, Status, Streaming};

pub use convert::{answer_request, answer_stream_request, pb_outcome};
pub use error::{
    ERROR_DOMAIN, GAVE_UP_REASON, GENERATE_GAVE_UP_REASON, ServiceError, is_client_reset,
    rpc_status,
};
pub use generate::{GenerateStream, parse_request as parse_generate_request};
pub use limits::{ByteBudget, Limits};
pub use metrics::{ConnectionGauge, Metrics, Rpc, code_name};

use crate::domain::Outcome;
use crate::log_limit::LogLimit;
use crate::pb::sudoku_service_server::SudokuServiceServer;
use crate::pb::{
    SolveBatchRequest, SolveBatchResponse, SolveRequest, SolveResponse, SolveStreamRequest,
};
use crate::pool::WorkerPool;
use convert::{Solved, solve_job};
use protocol::{Batches, SingleItems};

/// At most one log line a second about calls shed for overload; the
/// metrics count every one.
static SHED_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// At most one log line a second about calls that failed for their
/// client's reasons (invalid requests, deadlines, resets).
static CLIENT_FAILURE_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// The service: the worker pool, its limits and byte budget, its metrics,
/// and the signal that the server is draining.
#[derive(Clone)]
pub struct SudokuService {
    pool: WorkerPool,
    limits: Limits,
    budget: ByteBudget,
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
            budget: ByteBudget::new(limits.max_inflight_bytes),
            open_streams: Arc::new(Semaphore::new(limits.max_open_streams)),
            metrics,
            draining,
        }
    }

    /// The server's budget of the bytes streams hold in flight, shared by
    /// every stream.
    pub fn budget(&self) -> &ByteBudget {
        &self.budget
    }

    /// The service wrapped for tonic, gzip and zstd accepted from clients
    /// and used for responses when the client accepts them, with the
    /// message size limits of each RPC (see [`SudokuServer`]).
    pub fn into_server(self) -> SudokuServer {
        let single = (self.limits.max_message_bytes, self.limits.max_message_bytes);
        let batch = (
            self.limits.max_batch_request_bytes(),
            self.limits.max_batch_response_bytes(),
        );
        let explain = (self.limits.max_message_bytes, MAX_EXPLAIN_RESPONSE_BYTES);
        SudokuServer {
            batch: self.clone().sized(batch),
            explain: self.clone().sized(explain),
            single: self.sized(single),
        }
    }

    /// The generated server with these request and response size limits.
    fn sized(self, (request, response): (usize, usize)) -> SudokuServiceServer<SudokuService> {
        SudokuServiceServer::new(self)
            .max_decoding_message_size(request)
            .max_encoding_message_size(response)
            .accept_compressed(CompressionEncoding::Gzip)
            .accept_compressed(CompressionEncoding::Zstd)
            .send_compressed(CompressionEncoding::Gzip)
            .send_compressed(CompressionEncoding::Zstd)
    }

    /// Solves one puzzle on the pool: checked against its cap, shed if the
    /// queue is full. Dropping this future (the deadline passed, or the
    /// client went away) drops the job handle, which cancels the job.
    async fn solve_one(&self, request: SolveRequest) -> Result<Solved, ServiceError> {
        limits::check_puzzle(&request.puzzle)?;
        let max_time = self.limits.max_solve_time;
        let answer = self.pool.try_submit(move |cancel| {
            solve_job(&request.puzzle, request.grade, max_time, cancel)
        })?;
        Ok(answer.await??)
    }

    /// Why a new stream is refused now, if it is: the server is draining,
    /// or `--max-open-streams` are open. Otherwise the slot it holds.
    fn admit_stream(&self, rpc: Rpc) -> Result<tokio::sync::OwnedSemaphorePermit, Status> {
        if *self.draining.borrow() {
            return Err(Status::unavailable(
                "the server is shutting down; open the stream on another server",
            ));
        }
        self.open_streams.clone().try_acquire_owned().map_err(|_| {
            self.metrics.stream_refused(rpc);
            Status::resource_exhausted(format!(
                "server overloaded: {} streams are already open (--max-open-streams); \
                 retry with backoff",
                self.limits.max_open_streams
            ))
        })
    }
}

#[tonic::async_trait]
impl crate::pb::sudoku_service_server::SudokuService for SudokuService {
    async fn solve(
        &self,
        request: Request<SolveRequest>,
    ) -> Result<Response<SolveResponse>, Status> {
        if let Some(arrived) = request.extensions().get::<RequestArrived>() {
            arrived.signal();
        }
        // A call dropped while it waits here (the client went away, or the
        // deadline passed) is counted by the server's call layer, which sees
        // every call from before its handler runs.
        let answer = self.solve_one(request.into_inner()).await;
        self.metrics.tally(Rpc::Solve).record(&answer);
        self.finish_unary(Rpc::Solve, answer.map(SolveResponse::from))
    }

    type SolveStreamStream = stream::ResponseStream<crate::pb::SolveStreamResponse>;

    async fn solve_stream(
        &self,
        request: Request<Streaming<SolveStreamRequest>>,
    ) -> Result<Response<Self::SolveStreamStream>, Status> {
        let slot = self.admit_stream(Rpc::SolveStream).inspect_err(|status| {
            self.metrics.call_finished(Rpc::SolveStream, status.code());
            let shed = status.code() == Code::ResourceExhausted;
            log_failed_call("SolveStream", status, shed);
        })?;
        let protocol = SingleItems::new(self.limits);
        Ok(Response::new(self.open_stream(protocol, request, slot)))
    }

    async fn solve_batch(
        &self,
        request: Request<SolveBatchRequest>,
    ) -> Result<Response<SolveBatchResponse>, Status> {
        if let Some(arrived) = request.extensions().get::<RequestArrived>() {
            arrived.signal();
        }
        let answer = batch::solve_batch(self, request.into_inner()).await;
        self.finish_unary(Rpc::SolveBatch, answer)
    }

    type SolveBatchStreamStream = stream::ResponseStream<SolveBatchResponse>;

    async fn solve_batch_stream(
        &self,
        request: Request<Streaming<SolveBatchRequest>>,
    ) -> Result<Response<Self::SolveBatchStreamStream>, Status> {
        if *self.draining.borrow() {
            let status = Status::unavailable(
                "the server is shutting down; open the stream on another server",
            );
            self.metrics
                .call_finished(Rpc::SolveBatchStream, status.code());
            return Err(status);
        }
        // The batch call slot the call layer took, shared with the driver so
        // that it is held for as long as either still works on the stream.
        let slot = request.extensions().get::<CallSlot>().cloned();
        let protocol = Batches::new(self.limits);
        Ok(Response::new(self.open_stream(protocol, request, slot)))
    }

    async fn hint(
        &self,
        request: Request<crate::pb::HintRequest>,
    ) -> Result<Response<crate::pb::HintResponse>, Status> {
        if let Some(arrived) = request.extensions().get::<RequestArrived>() {
            arrived.signal();
        }
        let answer = self.hint_one(request.into_inner()).await;
        self.finish_counted(Rpc::Hint, answer)
    }

    async fn explain(
        &self,
        request: Request<crate::pb::ExplainRequest>,
    ) -> Result<Response<crate::pb::ExplainResponse>, Status> {
        if let Some(arrived) = request.extensions().get::<RequestArrived>() {
            arrived.signal();
        }
        let answer = self.explain_one(request.into_inner()).await;
        self.finish_counted(Rpc::Explain, answer)
    }

    type GenerateStream = GenerateStream;

    async fn generate(
        &self,
        request: Request<crate::pb::GenerateRequest>,
    ) -> Result<Response<GenerateStream>, Status> {
        if let Some(arrived) = request.extensions().get::<RequestArrived>() {
            arrived.signal();
        }
        let arrival = tokio::time::Instant::now();
        let deadline = deadline::deadline_of(request.metadata().as_ref(), arrival);
        let stream = self.start_generate(request.get_ref(), deadline)?;
        Ok(Response::new(stream))
    }
}

impl SudokuService {
    /// [`SudokuService::finish_unary`] for a call about one puzzle (Hint,
    /// Explain), whose outcome is counted too.
    fn finish_counted<T>(
        &self,
        rpc: Rpc,
        answer: Result<(Outcome, T), ServiceError>,
    ) -> Result<Response<T>, Status> {
        let outcome = answer.as_ref().map(|(outcome, _)| *outcome);
        self.metrics.tally(rpc).record_outcome(outcome);
        self.finish_unary(rpc, answer.map(|(_, response)| response))
    }

    /// A unary call's response or status, with the call counted and, if it
    /// failed, logged.
    fn finish_unary<T>(
        &self,
        rpc: Rpc,
        answer: Result<T, ServiceError>,
    ) -> Result<Response<T>, Status> {
        match answer {
            Ok(response) => {
                self.metrics.call_finished(rpc, Code::Ok);
                Ok(Response::new(response))
            }
            Err(error) => {
                let shed = error.is_shed();
                let status = Status::from(error);
                self.metrics.call_finished(rpc, status.code());
                log_failed_call(rpc.label(), &status, shed);
                Err(status)
            }
        }
    }

    /// Starts the driver of a stream of `protocol`, holding `slot`, and
    /// returns the responses for the transport.
    fn open_stream<P: protocol::Protocol>(
        &self,
        protocol: P,
        request: Request<Streaming<P::Request>>,
        slot: impl Send + Sync + 'static,
    ) -> stream::ResponseStream<P::Response> {
        let arrival = tokio::time::Instant::now();
        let slot = stream::StreamSlot::new(slot, &self.metrics);
        let (responses, transport) = stream::response_channel(slot.clone());
        let driver = stream::Driver {
            protocol,
            pool: self.pool.clone(),
            limits: self.limits,
            budget: self.budget.clone(),
            metrics: self.metrics.clone(),
            draining: self.draining.clone(),
            deadline: deadline::deadline_of(request.metadata().as_ref(), arrival),
        };
        let requests = request.into_inner();
        tokio::spawn(driver.run(requests, responses, slot));
        transport
    }
}

/// A call's slot under its cap, put in its extensions by the server's call
/// layer, which holds it until the response is done; a stream's driver
/// holds it too (see [`stream::StreamSlot`]).
#[derive(Debug, Clone)]
pub struct CallSlot(pub Arc<tokio::sync::OwnedSemaphorePermit>);

/// The service as tonic serves it: the generated server three times, with
/// the message size limits of the one-puzzle RPCs (`--max-message-bytes`),
/// of the batch RPCs (a full batch of the largest items), and of Explain
/// (a one-puzzle request, a whole path as the response), since tonic sets
/// one limit per server, not per method.
#[derive(Clone)]
pub struct SudokuServer {
    single: SudokuServiceServer<SudokuService>,
    batch: SudokuServiceServer<SudokuService>,
    explain: SudokuServiceServer<SudokuService>,
}

/// The largest Explain response: a whole logical path (at most 81
/// placements and 648 eliminations, so some hundreds of steps) with an
/// explanation per step stays well under this.
pub const MAX_EXPLAIN_RESPONSE_BYTES: usize = 1 << 20;

impl tonic::server::NamedService for SudokuServer {
    const NAME: &'static str =
        <SudokuServiceServer<SudokuService> as tonic::server::NamedService>::NAME;
}

impl<B> tower::Service<http::Request<B>> for SudokuServer
where
    SudokuServiceServer<SudokuService>: tower::Service<http::Request<B>>,
{
    type Response =
        <SudokuServiceServer<SudokuService> as tower::Service<http::Request<B>>>::Response;
    type Error = <SudokuServiceServer<SudokuService> as tower::Service<http::Request<B>>>::Error;
    type Future = <SudokuServiceServer<SudokuService> as tower::Service<http::Request<B>>>::Future;

    fn poll_ready(
        &mut self,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        // The generated server is always ready; the three copies are the same.
        self.single.poll_ready(context)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        match Rpc::from_path(request.uri().path()) {
            Some(Rpc::Explain) => self.explain.call(request),
            Some(rpc) if rpc.is_batch() => self.batch.call(request),
            _ => self.single.call(request),
        }
    }
}

/// Put in a unary call's extensions by the server's call layer, which gives
/// up on a call whose request message does not come in time; the handler
/// signals it as soon as it runs, that is once the message has arrived.
#[derive(Debug, Clone, Default)]
pub struct RequestArrived(Arc<tokio::sync::Notify>);

impl RequestArrived {
    /// Marks the request as arrived.
    pub fn signal(&self) {
        // `notify_one` keeps the signal for a waiter that is not yet waiting.
        self.0.notify_one();
    }

    /// Completes once the request has arrived.
    pub async fn wait(&self) {
        self.0.notified().await;
    }
}

/// A log line per failed call, louder for the failures that are ours.
/// Calls `shed` for overload come in floods: at most one line a second
/// says so, with how many were left out (the metrics count them all).
pub(crate) fn log_failed_call(rpc: &str, status: &Status, shed: bool) {
    let (code, detail) = (status.code(), status.message());
    if shed {
        if let Some(suppressed) = SHED_LOG.check() {
            tracing::warn!(rpc, ?code, detail, suppressed, "call shed");
        }
        return;
    }
    match code {
        Code::Internal => tracing::error!(rpc, ?code, detail, "call failed"),
        Code::ResourceExhausted => tracing::warn!(rpc, ?code, detail, "call failed"),
        // What a client got wrong, or did (went away, ran out of time): at
        // most a line a second, like sheds, since any client can make many.
        _ => {
            if let Some(suppressed) = CLIENT_FAILURE_LOG.check() {
                tracing::info!(rpc, ?code, detail, suppressed, "call failed");
            }
        }
    }
}
