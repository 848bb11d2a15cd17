//! The service's state, shared by every handler: the worker pool, the
//! limits and byte budgets, the metrics, and the signal that the server is
//! draining; and what handlers of several RPCs do with it (solve one
//! puzzle, admit and start a stream).

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tonic::{Request, Status, Streaming};

use super::admission::check_puzzle;
use super::convert::{Solved, solve_job};
use super::deadline::deadline_of;
use super::error::{OVERLOADED, ServiceError};
use super::limits::{Limits, MAX_ITEM_CHARGE};
use super::metrics::Metrics;
use super::rpc::Rpc;
use crate::pb::SolveRequest;
use crate::pool::WorkerPool;
use crate::streaming::{
    ByteBudget, Driver, Protocol, ResponseStream, StreamSlot, response_channel,
};
use crate::wording::counted;

/// The service: the worker pool, its limits and byte budget, its metrics,
/// and the signal that the server is draining.
#[derive(Clone)]
pub struct SudokuService {
    pub(super) pool: WorkerPool,
    pub(super) limits: Limits,
    pub(super) budget: ByteBudget,
    pub(super) batch_budget: ByteBudget,
    pub(super) open_streams: Arc<Semaphore>,
    pub(super) metrics: Arc<Metrics>,
    pub(super) draining: watch::Receiver<bool>,
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
            budget: ByteBudget::new(limits.max_inflight_bytes.max(MAX_ITEM_CHARGE)),
            batch_budget: ByteBudget::new(limits.batch_budget_bytes()),
            open_streams: Arc::new(Semaphore::new(limits.max_open_streams)),
            metrics,
            draining,
        }
    }

    /// The server's budget of the bytes SolveStreams hold in flight,
    /// shared by every one (`--max-inflight-bytes`).
    pub fn budget(&self) -> &ByteBudget {
        &self.budget
    }

    /// The budget of the bytes batch calls hold in flight (see
    /// [`Limits::batch_budget_bytes`]), apart from the SolveStreams', so
    /// that batch clients that stop reading can never make SolveStreams
    /// wait.
    pub fn batch_budget(&self) -> &ByteBudget {
        &self.batch_budget
    }

    /// Solves one puzzle on the pool: checked against its cap, shed if the
    /// queue is full. Dropping this future (the deadline passed, or the
    /// client went away) drops the job handle, which cancels the job.
    pub(super) async fn solve_one(&self, request: SolveRequest) -> Result<Solved, ServiceError> {
        check_puzzle(&request.puzzle)?;
        let limits = self.limits.time_limits();
        let answer = self
            .pool
            .try_submit(move |cancel| solve_job(&request.puzzle, request.grade, limits, cancel))?;
        Ok(answer.await??)
    }

    /// Why a new stream is refused now, if it is: the server is draining,
    /// or `--max-open-streams` are open. Otherwise the slot it holds.
    pub(super) fn admit_stream(&self, rpc: Rpc) -> Result<OwnedSemaphorePermit, Status> {
        if *self.draining.borrow() {
            return Err(Status::unavailable(
                "the server is shutting down; open the stream on another server",
            ));
        }
        self.open_streams.clone().try_acquire_owned().map_err(|_| {
            self.metrics.stream_refused(rpc);
            Status::resource_exhausted(format!(
                "{OVERLOADED}{} already open (--max-open-streams); retry with backoff",
                counted(
                    self.limits.max_open_streams as u64,
                    "stream is",
                    "streams are"
                )
            ))
        })
    }

    /// Starts the driver of a stream of `protocol`, charged to `budget`
    /// and holding `slot`, and returns the responses for the transport.
    pub(super) fn open_stream<P>(
        &self,
        protocol: P,
        budget: &ByteBudget,
        request: Request<Streaming<P::Request>>,
        slot: impl Send + Sync + 'static,
    ) -> ResponseStream<P::Response, Status>
    where
        P: Protocol<Error = Status>,
    {
        let arrival = tokio::time::Instant::now();
        let slot = StreamSlot::new((slot, self.metrics.stream_opened()));
        let (responses, transport) = response_channel(slot.clone());
        let driver = Driver {
            protocol: Arc::new(protocol),
            pool: self.pool.clone(),
            budget: budget.clone(),
            draining: self.draining.clone(),
            deadline: deadline_of(request.metadata().as_ref(), arrival),
        };
        tokio::spawn(driver.run(request.into_inner(), responses, slot));
        transport
    }
}
