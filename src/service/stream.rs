//! Drives one SolveStream call: reads requests, hands puzzles to the pool,
//! and writes answers back in request order.
//!
//! What a stream holds is bounded in puzzles and in bytes. Before it reads
//! a request it reserves the most the request can be charged from the
//! server's [`ByteBudget`], and it reads only while its [`StreamWindow`]
//! has room for that much; when either is full the driver stops reading,
//! so HTTP/2 flow control pushes back on the client instead of the server
//! buffering. Room is given back only when the transport has taken a
//! group's answers, so a client that stops reading answers stops the server
//! too. Answers leave strictly in request order: the driver only ever waits
//! for the oldest pending job.
//!
//! Requests that have already arrived when one is read go to the pool with
//! it, up to [`MAX_BATCH`] puzzles in one job: handing a job to a worker
//! costs about as much as solving an easy puzzle, so a busy stream of easy
//! puzzles would otherwise spend most of its time in hand-offs. A stream
//! that trickles gets one job per puzzle, with no waiting to fill a batch.
//!
//! Everything the driver waits for (room in the budget, in the pool, in the
//! response channel, the oldest job's answers, the next request) is one
//! branch of one `select!`, so the call's deadline, its client going away
//! and the server draining are seen whatever it is waiting for.
//!
//! The stream ends early, after the answers it owes, when the request side
//! fails (an oversized or undecodable message, a reset), when the server
//! starts draining (UNAVAILABLE), or when the call's `grpc-timeout` passes
//! (DEADLINE_EXCEEDED: the answers already computed are sent, the rest of
//! the work is stopped). Its final status goes through [`ResponseSender::end`],
//! which never waits for the client. If the client goes away, the driver
//! ends and drops its pending jobs, which cancels them (see
//! [`crate::pool`]).

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, watch};
use tokio::time::Instant;
use tokio_stream::Stream;
use tonic::{Code, Status, Streaming};

use super::convert::{Solved, solve_job, stream_response};
use super::error::ServiceError;
use super::limits::{
    Admission, ByteBudget, Charge, Limits, MAX_ITEM_CHARGE, StreamWindow, admit_item,
};
use super::metrics::{Metrics, Rpc, StreamGuard};
use crate::grouped_channel::{self, GroupSender, GroupStream};
use crate::pb::{SolveStreamRequest, SolveStreamResponse};
use crate::pool::{CancelCheck, JobError, JobHandle, WorkerPool};

/// Groups of responses (one per job) buffered between the driver and the
/// transport. Small on purpose: backpressure should reach the request side
/// quickly.
pub const RESPONSE_BUFFER: usize = 4;

/// The most puzzles of one stream solved as one pool job.
pub const MAX_BATCH: usize = 64;

/// How long a stream that ended early keeps reading what its client still
/// sends, at most.
const LINGER: Duration = Duration::from_secs(5);

/// How long a job stopped at the deadline may take to hand back what it
/// finished: it stops within microseconds once running, so this bounds
/// only a job still queued behind other work, which is then dropped.
const STOP_GRACE: Duration = Duration::from_millis(20);

/// One response, or the status that ends the stream.
pub type ResponseItem = Result<SolveStreamResponse, Status>;

/// A job's responses, with the admission that keeps them counted until the
/// transport has taken them all.
type Group = (Vec<ResponseItem>, Option<Admission>);

/// The driver's end of the responses.
pub struct ResponseSender {
    groups: GroupSender<ResponseItem, Option<Admission>>,
    end: Arc<Mutex<Option<Status>>>,
}

/// What the transport reads, one response at a time: the groups the driver
/// sent, then the status the stream ended with, if it failed. It shares the
/// stream's [`StreamSlot`] with the driver, so the slot is held until the
/// transport is done with the stream, answers still buffered included.
pub struct ResponseStream {
    groups: GroupStream<ResponseItem, Option<Admission>>,
    end: Arc<Mutex<Option<Status>>>,
    _slot: Arc<StreamSlot>,
}

/// A stream's slot under `--max-open-streams`, and its count in
/// `sudoku_streams_open`: shared by the driver and the transport, and
/// given back once both are done with the stream. The driver may outlive
/// the responses (it reads what a client still sends for a while after the
/// stream ended, see [`end_with`]), and the transport the driver (answers
/// waiting for a slow client); either way the stream still counts.
pub struct StreamSlot {
    _permit: OwnedSemaphorePermit,
    _open: StreamGuard,
}

impl StreamSlot {
    /// Holds `permit` and counts the stream open in `metrics`.
    pub fn new(permit: OwnedSemaphorePermit, metrics: &Arc<Metrics>) -> Arc<StreamSlot> {
        Arc::new(StreamSlot {
            _permit: permit,
            _open: metrics.stream_opened(),
        })
    }
}

/// A stream's response channel, holding `slot` until the transport drops it.
pub fn response_channel(slot: Arc<StreamSlot>) -> (ResponseSender, ResponseStream) {
    let (groups, stream) = grouped_channel::channel(RESPONSE_BUFFER);
    let end = Arc::new(Mutex::new(None));
    let sender = ResponseSender {
        groups,
        end: end.clone(),
    };
    let stream = ResponseStream {
        groups: stream,
        end,
        _slot: slot,
    };
    (sender, stream)
}

impl ResponseSender {
    /// Ends the stream with `status`, after every group already sent,
    /// without waiting for the client to take them.
    fn end(self, status: Status) {
        *self
            .end
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(status);
    }
}

impl Stream for ResponseStream {
    type Item = ResponseItem;

    fn poll_next(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<ResponseItem>> {
        match Pin::new(&mut self.groups).poll_next(context) {
            Poll::Ready(None) => {
                let mut end = self
                    .end
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                Poll::Ready(end.take().map(Err))
            }
            other => other,
        }
    }
}

/// What a stream's driver needs from the service.
pub struct Driver {
    /// Where puzzles are solved.
    pub pool: WorkerPool,
    /// The stream window and the solve budget.
    pub limits: Limits,
    /// The bytes all streams hold in flight.
    pub budget: ByteBudget,
    /// Where answers and the call's end are counted.
    pub metrics: Arc<Metrics>,
    /// Turns true when the server starts draining.
    pub draining: watch::Receiver<bool>,
    /// When the call's `grpc-timeout` passes, if it has one.
    pub deadline: Option<Instant>,
}

/// Requests read together: their ids, their puzzles (or why each was
/// refused), and what they are charged.
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

type Boxed<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// The state of one call as the driver goes.
struct Call {
    window: Arc<StreamWindow>,
    pending: VecDeque<Pending>,
    /// Waiting for budget for the next request, kept from turn to turn so
    /// that the stream keeps its place in the budget's queue.
    reserving: Option<Boxed<Charge>>,
    /// Budget for the next request, ready.
    reserved: Option<Charge>,
    /// A batch waiting for room in the pool.
    submitting: Option<Boxed<Pending>>,
    /// The oldest job's answers, waiting for room in the response channel.
    ready: Option<Group>,
    /// False once the driver has stopped reading.
    reading: bool,
    /// The status the stream will end with, once its answers are out.
    failure: Option<Status>,
}

impl Call {
    /// A call that has read nothing yet, with this window.
    fn new(window: Arc<StreamWindow>) -> Call {
        Call {
            window,
            pending: VecDeque::new(),
            reserving: None,
            reserved: None,
            submitting: None,
            ready: None,
            reading: true,
            failure: None,
        }
    }

    fn is_done(&self) -> bool {
        !self.reading
            && self.pending.is_empty()
            && self.submitting.is_none()
            && self.ready.is_none()
    }

    /// Stops reading and drops any budget reserved for the next request.
    /// Once its answers are out the stream ends with the first failure
    /// recorded, or with `status` (OK when `None`).
    fn stop_reading(&mut self, status: Option<Status>) {
        self.reading = false;
        self.reserving = None;
        self.reserved = None;
        if self.failure.is_none() {
            self.failure = status;
        }
    }

    /// Whether the driver may read the next request, once it has budget.
    fn may_read(&self) -> bool {
        self.reading && self.submitting.is_none() && self.window.has_room()
    }
}

impl Driver {
    /// Runs the stream until the client has sent everything and all of it
    /// is answered, or the stream ends early (see the module docs), holding
    /// its `slot` until then.
    pub async fn run(
        mut self,
        requests: Streaming<SolveStreamRequest>,
        responses: ResponseSender,
        slot: Arc<StreamSlot>,
    ) {
        let code = self.drive(requests, responses).await;
        self.metrics.call_finished(Rpc::SolveStream, code);
        drop(slot);
    }

    /// [`Driver::run`]'s loop; returns the code the call ended with.
    async fn drive(
        &mut self,
        mut requests: Streaming<SolveStreamRequest>,
        responses: ResponseSender,
    ) -> Code {
        let window = StreamWindow::new(self.limits.stream_window, self.limits.stream_window_bytes);
        let mut call = Call::new(window);
        let mut expired = false;
        while !call.is_done() {
            self.reserve_for_next_read(&mut call);
            tokio::select! {
                biased;
                () = responses.groups.closed() => return Code::Cancelled,
                () = until(self.deadline) => {
                    expired = true;
                    break;
                }
                permit = responses.groups.reserve(), if call.ready.is_some() => match permit {
                    Ok(permit) => permit.send(call.ready.take().expect("only polled when ready")),
                    Err(_) => return Code::Cancelled,
                },
                answers = oldest_answers(&mut call.pending), if call.ready.is_none() && !call.pending.is_empty() => {
                    let pending = call.pending.pop_front().expect("the answers came from it");
                    call.ready = Some(self.answer_group(pending, answers));
                }
                pending = poll_some(&mut call.submitting), if call.submitting.is_some() => {
                    call.submitting = None;
                    call.pending.push_back(pending);
                }
                () = until_draining(&mut self.draining), if call.reading => {
                    call.stop_reading(Some(Status::unavailable(
                        "the server is shutting down; every puzzle before this point \
                         was answered, send the rest to another server",
                    )));
                }
                charge = poll_some(&mut call.reserving), if call.reserving.is_some() => {
                    call.reserving = None;
                    call.reserved = Some(charge);
                }
                () = call.window.freed(), if call.reading && !call.window.has_room() => {}
                request = requests.message(), if call.may_read() && call.reserved.is_some() => match request {
                    Ok(Some(first)) => self.take_batch(&mut call, first, &mut requests),
                    Ok(None) => call.stop_reading(None),
                    Err(status) => call.stop_reading(Some(status)),
                },
            }
        }
        if expired {
            return self.expire(&mut call, responses).await;
        }
        match call.failure {
            None => Code::Ok,
            Some(status) => end_with(inbound_status(status), requests, responses).await,
        }
    }

    /// Reserves budget for the next request, if the stream may read one and
    /// has none reserved: at once when it fits, else as a future that waits
    /// (boxed only then, since most reservations fit at once).
    fn reserve_for_next_read(&self, call: &mut Call) {
        if !call.may_read() || call.reserved.is_some() || call.reserving.is_some() {
            return;
        }
        match self.budget.try_reserve_item() {
            Some(charge) => call.reserved = Some(charge),
            None => call.reserving = Some(Box::pin(self.budget.clone().reserve_item())),
        }
    }

    /// Reads what has already arrived after `first` into one batch, while
    /// the window and the budget have room for one more item at its
    /// largest, shrinks the batch's reservation to what its items are
    /// charged, and sends it on its way to the pool.
    fn take_batch(
        &self,
        call: &mut Call,
        first: SolveStreamRequest,
        requests: &mut Streaming<SolveStreamRequest>,
    ) {
        let mut charge = call
            .reserved
            .take()
            .expect("only read with budget reserved");
        let mut batch = Batch {
            ids: Vec::new(),
            items: Vec::new(),
            charge: 0,
        };
        batch.push(first);
        while batch.ids.len() < MAX_BATCH
            && call
                .window
                .fits(batch.ids.len() + 1, batch.charge + MAX_ITEM_CHARGE)
        {
            // What is reserved must cover one more item at its largest; a
            // reservation usually covers several items as they are charged.
            let needed = batch.charge + MAX_ITEM_CHARGE;
            if charge.bytes() < needed {
                let Some(more) = self.budget.try_reserve(needed - charge.bytes()) else {
                    break;
                };
                charge.merge(more);
            }
            match arrived(requests) {
                Some(Ok(request)) => batch.push(request),
                Some(Err(end)) => {
                    call.stop_reading(end);
                    break;
                }
                None => break,
            }
        }
        charge.shrink_to(batch.charge);
        let admission = Admission::new(&call.window, batch.ids.len(), charge);
        self.submit(call, batch, admission);
    }

    /// Hands a batch to the pool: at once if the pool has room, else as a
    /// future that waits for room, kept in `call.submitting`.
    fn submit(&self, call: &mut Call, batch: Batch, admission: Admission) {
        let Batch { ids, items, .. } = batch;
        let job = solve_batch(items, self.limits.max_solve_time);
        match self.pool.try_submit_or_return(job) {
            Ok(answers) => call.pending.push_back(Pending {
                ids,
                answers,
                admission,
            }),
            Err(job) => {
                let pool = self.pool.clone();
                call.submitting = Some(Box::pin(async move {
                    let answers = pool.submit(job).await;
                    Pending {
                        ids,
                        answers,
                        admission,
                    }
                }));
            }
        }
    }

    /// A job's responses, counted in the metrics, with the admission that
    /// holds their room until the transport has taken them.
    fn answer_group(&self, pending: Pending, answers: Vec<Result<Solved, ServiceError>>) -> Group {
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

    /// The deadline passed: stops every job, sends the answers already
    /// computed (those the client has room for), and ends the stream with
    /// DEADLINE_EXCEEDED. Each stopped job gets [`STOP_GRACE`] to hand back
    /// the puzzles it had finished; everything after the first puzzle left
    /// unanswered is dropped.
    async fn expire(&self, call: &mut Call, responses: ResponseSender) -> Code {
        call.submitting = None;
        call.stop_reading(None);
        for pending in &call.pending {
            pending.answers.stop();
        }
        let mut groups: Vec<Group> = call.ready.take().into_iter().collect();
        while let Some(mut oldest) = call.pending.pop_front() {
            let result = match tokio::time::timeout(STOP_GRACE, &mut oldest.answers).await {
                Ok(result) => result,
                Err(_) => break,
            };
            let mut answers = job_answers(result, oldest.ids.len());
            let computed = answers
                .iter()
                .take_while(|answer| !matches!(answer, Err(ServiceError::Cancelled)))
                .count();
            let complete = computed == answers.len();
            answers.truncate(computed);
            oldest.ids.truncate(computed);
            groups.push(self.answer_group(oldest, answers));
            if !complete {
                break;
            }
        }
        call.pending.clear();
        for group in groups {
            if responses.groups.try_send(group).is_err() {
                break;
            }
        }
        let status = Status::from(ServiceError::DeadlineExceeded);
        log_stream_end(&status);
        responses.end(status);
        Code::DeadlineExceeded
    }
}

impl Batch {
    /// Adds a request, checked against the item caps.
    fn push(&mut self, request: SolveStreamRequest) {
        let (id, item, charge) = admit_item(request.id, request.puzzle);
        self.ids.push(id);
        self.items.push(item);
        self.charge += charge;
    }
}

/// The pool job that solves a batch's puzzles, each within `max_time`;
/// once the job is stopped or cancelled, the puzzles left are not started.
fn solve_batch(
    items: Vec<Result<String, ServiceError>>,
    max_time: Duration,
) -> impl FnOnce(&CancelCheck) -> Vec<Result<Solved, ServiceError>> + Send + 'static {
    move |cancel| {
        items
            .iter()
            .map(|item| match item {
                Err(refused) => Err(refused.clone()),
                Ok(_) if cancel.is_cancelled() => Err(ServiceError::Cancelled),
                Ok(puzzle) => solve_job(puzzle, max_time, cancel).map_err(Into::into),
            })
            .collect()
    }
}

/// Ends the stream with `status` after its answers and, until its client
/// ends its side, reads and drops what the client still sends, for at most
/// [`LINGER`]. Returns the code the call ended with.
///
/// A stream that ends while its client is still sending leaves that data
/// unread; if the server then closes the connection (as it does when
/// draining), TCP resets it instead of closing it, and the reset can
/// destroy the status on its way to the client, which then sees UNKNOWN
/// ("broken pipe") instead of the status that tells it what to resend.
async fn end_with(
    status: Status,
    mut requests: Streaming<SolveStreamRequest>,
    responses: ResponseSender,
) -> Code {
    let code = status.code();
    log_stream_end(&status);
    responses.end(status);
    let discard = async { while let Ok(Some(_)) = requests.message().await {} };
    let _ = tokio::time::timeout(LINGER, discard).await;
    code
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
    super::log_failed_call("SolveStream", status, false);
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

/// Polls the future in `slot`, which is only polled while it holds one.
async fn poll_some<T>(slot: &mut Option<Boxed<T>>) -> T {
    slot.as_mut().expect("only polled when set").await
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
    result: Result<Vec<Result<Solved, ServiceError>>, JobError>,
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
