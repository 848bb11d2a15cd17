//! Drives one SolveStream call: reads requests, hands puzzles to the pool,
//! and writes answers back in request order.
//!
//! What a stream holds is bounded in puzzles and in bytes. It reads only
//! while its window ([`StreamWindow`]) has room, and every group of
//! requests it reads is charged to the server's [`ByteBudget`] before it
//! goes to the pool; when either is full the driver stops reading, so
//! HTTP/2 flow control pushes back on the client instead of the server
//! buffering. Room is given back only when the transport has taken a
//! group's answers, so a client that stops reading answers stops the
//! server too. Answers leave strictly in request order: the driver only
//! ever waits for the oldest pending job.
//!
//! Requests that have already arrived when one is read go to the pool with
//! it, up to [`MAX_BATCH`] puzzles in one job: handing a job to a worker
//! costs about as much as solving an easy puzzle, so a busy stream of easy
//! puzzles would otherwise spend most of its time in hand-offs. A stream
//! that trickles gets one job per puzzle, with no waiting to fill a batch.
//!
//! The stream ends early, after the answers it owes, when the request side
//! fails (an oversized or undecodable message, a reset), when the server
//! starts draining (UNAVAILABLE), or when the call's `grpc-timeout` passes
//! (DEADLINE_EXCEEDED: the answers already computed are sent, the rest of
//! the work is dropped). If the client goes away, the driver ends and drops
//! its pending jobs, which cancels them (see [`crate::pool`]).

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;
use tokio_stream::Stream;
use tonic::{Code, Status, Streaming};

use super::convert::{Solved, solve_job, stream_response};
use super::error::ServiceError;
use super::limits::{
    Admission, ByteBudget, ITEM_OVERHEAD_BYTES, Limits, StreamWindow, check_item, item_charge,
};
use super::metrics::{Metrics, Rpc};
use crate::grouped_channel::{GroupSender, GroupStream};
use crate::pb::{SolveStreamRequest, SolveStreamResponse};
use crate::pool::{JobHandle, WorkerPool};

/// Groups of responses (one per job) buffered between the driver and the
/// transport. Small on purpose: backpressure should reach the request side
/// quickly.
pub const RESPONSE_BUFFER: usize = 4;

/// One response, or the status that ends the stream.
pub type ResponseItem = Result<SolveStreamResponse, Status>;

/// Where the driver puts responses, a job's worth at a time, with the
/// admission that keeps them counted until the transport takes them.
pub type ResponseSender = GroupSender<ResponseItem, Option<Admission>>;

/// What the transport reads from, one response at a time.
pub type ResponseStream = GroupStream<ResponseItem, Option<Admission>>;

/// The most puzzles of one stream solved as one pool job.
pub const MAX_BATCH: usize = 64;

/// How long the driver tries to hand over its final status, and then reads
/// what its client still sends, before it gives up on a client that reads
/// nothing.
const LINGER: Duration = Duration::from_secs(5);

/// How long a job stopped at the deadline may take to hand back what it
/// finished: it stops within microseconds once running, so this bounds
/// only a job still queued behind other work, which is then dropped.
const STOP_GRACE: Duration = Duration::from_millis(20);

/// What a stream's driver needs from the service.
pub struct Driver {
    /// Where puzzles are solved.
    pub pool: WorkerPool,
    /// The stream window, item caps and solve budget.
    pub limits: Limits,
    /// The server's request bytes in flight.
    pub budget: ByteBudget,
    /// Where answers and the call's end are counted.
    pub metrics: Arc<Metrics>,
    /// Turns true when the server starts draining.
    pub draining: watch::Receiver<bool>,
    /// When the call's `grpc-timeout` passes, if it has one.
    pub deadline: Option<Instant>,
}

/// Requests read together and checked against the item caps: their ids,
/// their puzzles (or why each was refused), and what they are charged.
struct Batch {
    ids: Vec<String>,
    items: Vec<Result<String, ServiceError>>,
    charge: usize,
}

/// Requests taken in together and not yet answered: their ids, in order,
/// the job solving their puzzles, and their room in the window and budget.
struct Pending {
    ids: Vec<String>,
    answers: JobHandle<Vec<Result<Solved, ServiceError>>>,
    admission: Admission,
}

/// The state of one call as the driver goes.
struct Call {
    window: Arc<StreamWindow>,
    pending: VecDeque<Pending>,
    /// Read but not yet charged to the budget, which is full.
    waiting: Option<Batch>,
    /// False once the driver has stopped reading.
    reading: bool,
    /// The status the stream will end with, once its answers are out.
    failure: Option<Status>,
}

impl Call {
    fn is_done(&self) -> bool {
        !self.reading && self.pending.is_empty() && self.waiting.is_none()
    }

    /// Stops reading; the stream will end with `status` after its answers.
    /// Requests read but not yet admitted are dropped: they come after
    /// every request that will be answered, so the answers stay a gap-free
    /// prefix.
    fn stop_reading(&mut self, status: Option<Status>) {
        self.reading = false;
        self.waiting = None;
        if self.failure.is_none() {
            self.failure = status;
        }
    }
}

impl Driver {
    /// Runs the stream until the client has sent everything and all of it
    /// is answered, or the stream ends early (see the module docs).
    pub async fn run(mut self, requests: Streaming<SolveStreamRequest>, responses: ResponseSender) {
        let metrics = self.metrics.clone();
        let _open = metrics.stream_opened();
        let code = self.drive(requests, responses).await;
        metrics.call_finished(Rpc::SolveStream, code);
    }

    /// [`Driver::run`]'s loop; returns the code the call ended with.
    async fn drive(
        &mut self,
        mut requests: Streaming<SolveStreamRequest>,
        responses: ResponseSender,
    ) -> Code {
        let mut call = Call {
            window: StreamWindow::new(self.limits.stream_window, self.limits.stream_window_bytes),
            pending: VecDeque::new(),
            waiting: None,
            reading: true,
            failure: None,
        };
        let deadline = self.deadline;
        while !call.is_done() {
            let room = call.reading && call.waiting.is_none() && call.window.has_room();
            let waiting_charge = call.waiting.as_ref().map_or(0, |batch| batch.charge);
            tokio::select! {
                biased;
                () = responses.closed() => return Code::Cancelled,
                () = until(deadline) => return self.expire(&mut call, &responses).await,
                answers = oldest_answers(&mut call.pending), if !call.pending.is_empty() => {
                    let pending = call.pending.pop_front().expect("the answers came from it");
                    if responses.send(self.answer_group(pending, answers)).await.is_err() {
                        return Code::Cancelled;
                    }
                }
                () = until_draining(&mut self.draining), if call.reading => {
                    call.stop_reading(Some(Status::unavailable(
                        "the server is shutting down; every puzzle before this point \
                         was answered, send the rest to another server",
                    )));
                }
                charge = self.budget.charge(waiting_charge), if call.waiting.is_some() => {
                    let batch = call.waiting.take().expect("only polled while waiting");
                    let admission = Admission::new(&call.window, batch.ids.len(), batch.charge, charge);
                    self.submit(&mut call, batch, admission).await;
                }
                () = call.window.freed(), if call.reading && call.waiting.is_none() && !room => {}
                request = requests.message(), if room => match request {
                    Ok(Some(first)) => self.take_batch(&mut call, first, &mut requests).await,
                    Ok(None) => call.stop_reading(None),
                    Err(status) => call.stop_reading(Some(status)),
                },
            }
        }
        match call.failure {
            None => Code::Ok,
            Some(status) => end_with(inbound_status(status), requests, &responses).await,
        }
    }

    /// Reads what has already arrived after `first` into one batch, while
    /// the window has room (the last request taken may overrun it), and
    /// charges it to the budget; if the budget is full, the batch waits.
    async fn take_batch(
        &self,
        call: &mut Call,
        first: SolveStreamRequest,
        requests: &mut Streaming<SolveStreamRequest>,
    ) {
        let mut batch = Batch {
            ids: Vec::new(),
            items: Vec::new(),
            charge: 0,
        };
        batch.push(first);
        while batch.ids.len() < MAX_BATCH && call.window.fits(batch.ids.len() + 1, batch.charge + 1)
        {
            match arrived(requests) {
                Some(Ok(request)) => batch.push(request),
                Some(Err(end)) => {
                    call.stop_reading(end);
                    break;
                }
                None => break,
            }
        }
        match self.budget.try_charge(batch.charge) {
            Ok(charge) => {
                let admission = Admission::new(&call.window, batch.ids.len(), batch.charge, charge);
                self.submit(call, batch, admission).await;
            }
            Err(_) => call.waiting = Some(batch),
        }
    }

    /// Hands an admitted batch to the pool (waiting for room there).
    async fn submit(&self, call: &mut Call, batch: Batch, admission: Admission) {
        let max_time = self.limits.max_solve_time;
        let items = batch.items;
        let answers = self
            .pool
            .submit(move |cancel| {
                items
                    .iter()
                    .map(|item| match item {
                        Ok(puzzle) => solve_job(puzzle, max_time, cancel).map_err(Into::into),
                        Err(refused) => Err(refused.clone()),
                    })
                    .collect()
            })
            .await;
        call.pending.push_back(Pending {
            ids: batch.ids,
            answers,
            admission,
        });
    }

    /// A job's responses, counted in the metrics, with the admission that
    /// holds their room until the transport has taken them.
    fn answer_group(
        &self,
        pending: Pending,
        answers: Vec<Result<Solved, ServiceError>>,
    ) -> (Vec<ResponseItem>, Option<Admission>) {
        let mut tally = self.metrics.tally(Rpc::SolveStream);
        let group = pending
            .ids
            .into_iter()
            .zip(answers)
            .map(|(id, answer)| {
                tally.record(&answer);
                Ok(stream_response(id, answer))
            })
            .collect();
        (group, Some(pending.admission))
    }

    /// The deadline passed: sends the answers already computed, drops the
    /// rest of the work, and ends the stream with DEADLINE_EXCEEDED. The
    /// oldest unfinished job is stopped rather than dropped, and given
    /// [`STOP_GRACE`] to hand back the puzzles it had finished; everything
    /// after the first puzzle left unanswered is dropped, which cancels it.
    async fn expire(&self, call: &mut Call, responses: &ResponseSender) -> Code {
        while let Some(mut oldest) = call.pending.pop_front() {
            let result = match oldest.answers.try_take() {
                Some(result) => result,
                None => {
                    oldest.answers.stop();
                    match tokio::time::timeout(STOP_GRACE, &mut oldest.answers).await {
                        Ok(result) => result,
                        Err(_) => break,
                    }
                }
            };
            let mut answers = job_answers(result, oldest.ids.len());
            let computed = answers
                .iter()
                .take_while(|answer| !matches!(answer, Err(ServiceError::Cancelled)))
                .count();
            let complete = computed == answers.len();
            answers.truncate(computed);
            oldest.ids.truncate(computed);
            let group = self.answer_group(oldest, answers);
            if !send_within_linger(responses, group).await {
                return Code::Cancelled;
            }
            if !complete {
                break;
            }
        }
        call.pending.clear();
        call.waiting = None;
        let status = Status::from(ServiceError::DeadlineExceeded);
        log_stream_end(&status);
        send_within_linger(responses, (vec![Err(status)], None)).await;
        Code::DeadlineExceeded
    }
}

impl Batch {
    /// Adds a request, refusing it on its own if it is over a cap: a
    /// refused item's text is dropped at once and it is charged only the
    /// allowance (and its id, if that is echoed).
    fn push(&mut self, request: SolveStreamRequest) {
        let SolveStreamRequest { id, puzzle } = request;
        let (id, item, charge) = match check_item(&id, &puzzle) {
            Ok(()) => {
                let charge = item_charge(id.len(), puzzle.len());
                (id, Ok(puzzle), charge)
            }
            Err(error @ ServiceError::IdTooLong { .. }) => {
                (String::new(), Err(error), ITEM_OVERHEAD_BYTES)
            }
            Err(error) => {
                let charge = item_charge(id.len(), 0);
                (id, Err(error), charge)
            }
        };
        self.ids.push(id);
        self.items.push(item);
        self.charge += charge;
    }
}

/// Sends the final status and, if the client takes it, reads and drops
/// what the client still sends until it ends its side, for at most
/// [`LINGER`] each. Returns the code the call ended with.
///
/// A stream that ends while its client is still sending leaves that data
/// unread; if the server then closes the connection (as it does when
/// draining), TCP resets it instead of closing it, and the reset can
/// destroy the status on its way to the client, which then sees UNKNOWN
/// ("broken pipe") instead of the status that tells it what to resend.
async fn end_with(
    status: Status,
    mut requests: Streaming<SolveStreamRequest>,
    responses: &ResponseSender,
) -> Code {
    let code = status.code();
    log_stream_end(&status);
    if send_within_linger(responses, (vec![Err(status)], None)).await {
        let discard = async { while let Ok(Some(_)) = requests.message().await {} };
        let _ = tokio::time::timeout(LINGER, discard).await;
    }
    code
}

/// Hands a group to the transport unless the client has not taken anything
/// for [`LINGER`]; false if it did not go.
async fn send_within_linger(
    responses: &ResponseSender,
    group: (Vec<ResponseItem>, Option<Admission>),
) -> bool {
    matches!(
        tokio::time::timeout(LINGER, responses.send(group)).await,
        Ok(Ok(()))
    )
}

/// The status a stream that failed on its request side ends with: this
/// service's code for what tonic refused (an oversized or undecodable
/// message), CANCELLED for a client that reset the stream, or the status
/// as it came.
fn inbound_status(status: Status) -> Status {
    if let Some(error) = ServiceError::from_inbound_status(&status) {
        return Status::from(error);
    }
    if super::error::is_client_reset(&status) {
        return Status::cancelled("the client reset the stream");
    }
    status
}

fn log_stream_end(status: &Status) {
    tracing::info!(
        rpc = "SolveStream",
        code = ?status.code(),
        detail = status.message(),
        "call failed"
    );
}

/// Completes at `deadline`, or never without one.
async fn until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// Completes once the server starts draining (never, if the server is gone
/// without draining).
async fn until_draining(draining: &mut watch::Receiver<bool>) {
    if draining.wait_for(|draining| *draining).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Waits for the answers of the oldest pending job.
async fn oldest_answers(pending: &mut VecDeque<Pending>) -> Vec<Result<Solved, ServiceError>> {
    let oldest = pending
        .front_mut()
        .expect("only polled when something is pending");
    let result = (&mut oldest.answers).await;
    job_answers(result, oldest.ids.len())
}

/// A job's answers, one per request: a job that failed as a whole fails
/// each of its `count` requests alike.
fn job_answers(
    result: Result<Vec<Result<Solved, ServiceError>>, crate::pool::JobError>,
    count: usize,
) -> Vec<Result<Solved, ServiceError>> {
    match result {
        Ok(answers) => answers,
        Err(error) => vec![Err(ServiceError::from(error)); count],
    }
}

/// A request that has already arrived, taken without waiting: `None` when
/// none is ready, `Err(None)` at the end of the requests, `Err(Some(status))`
/// when the request side failed.
fn arrived(
    requests: &mut Streaming<SolveStreamRequest>,
) -> Option<Result<SolveStreamRequest, Option<Status>>> {
    // Polling with a waker that does nothing is fine: the next `message()`
    // call polls again with the driver's own waker.
    let mut context = Context::from_waker(Waker::noop());
    match Pin::new(requests).poll_next(&mut context) {
        Poll::Pending => None,
        Poll::Ready(Some(Ok(request))) => Some(Ok(request)),
        Poll::Ready(Some(Err(status))) => Some(Err(Some(status))),
        Poll::Ready(None) => Some(Err(None)),
    }
}
