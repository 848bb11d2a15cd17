//! Drives one SolveStream or SolveBatchStream call: reads requests, hands
//! their puzzles to the pool, and writes answers back in request order.
//! The two RPCs differ only in how a message maps to puzzles and back
//! ([`Protocol`]); everything below holds for both, counted in puzzles.
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
//! Requests that have already arrived when one is read are taken in with
//! it, up to [`JOB_PUZZLES`] puzzles, and their puzzles go to the pool in
//! jobs of up to [`JOB_PUZZLES`]: handing a job to a worker costs about as
//! much as solving an easy puzzle, so a busy stream of easy puzzles would
//! otherwise spend most of its time in hand-offs, while a large batch cut
//! into jobs is solved by every worker at once. A stream that trickles
//! gets one job per puzzle, with no waiting to fill a batch.
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

use tokio::sync::watch;
use tokio::time::Instant;
use tokio_stream::Stream;
use tonic::{Code, Status, Streaming};

use super::error::ServiceError;
use super::jobs::{JOB_PUZZLES, encoded_answers, into_chunks, job_size, solve_and_encode};
use super::limits::{Admission, ByteBudget, Charge, Limits, StreamWindow};
use super::metrics::{Metrics, StreamGuard};
use super::protocol::{Answer, Item, Protocol};
use crate::grouped_channel::{self, GroupSender, GroupStream};
use crate::pool::{JobError, JobHandle, WorkerPool};

/// Groups of responses (one per job) buffered between the driver and the
/// transport. Small on purpose: backpressure should reach the request side
/// quickly.
pub const RESPONSE_BUFFER: usize = 4;

/// How long a stream that ended early keeps reading what its client still
/// sends, at most.
const LINGER: Duration = Duration::from_secs(5);

/// How long a job stopped at the deadline may take to hand back what it
/// finished: it stops within microseconds once running, so this bounds
/// only a job still queued behind other work, which is then dropped.
const STOP_GRACE: Duration = Duration::from_millis(20);

/// One response, or the status that ends the stream.
pub type ResponseItem<R> = Result<R, Status>;

/// Responses to requests taken in together, with the admission that keeps
/// them counted until the transport has taken them all.
type Group<R> = (Vec<ResponseItem<R>>, Option<Admission>);

/// The driver's end of the responses.
pub struct ResponseSender<R> {
    groups: GroupSender<ResponseItem<R>, Option<Admission>>,
    end: Arc<Mutex<Option<Status>>>,
}

/// What the transport reads, one response at a time: the groups the driver
/// sent, then the status the stream ended with, if it failed. It shares the
/// stream's [`StreamSlot`] with the driver, so the slot is held until the
/// transport is done with the stream, answers still buffered included.
pub struct ResponseStream<R> {
    groups: GroupStream<ResponseItem<R>, Option<Admission>>,
    end: Arc<Mutex<Option<Status>>>,
    _slot: Arc<StreamSlot>,
}

/// A stream's slot under its cap (`--max-open-streams`, or
/// `--max-batch-calls` for a batch stream), and its count in
/// `sudoku_streams_open`: shared by the driver and the transport, and
/// given back once both are done with the stream. The driver may outlive
/// the responses (it reads what a client still sends for a while after the
/// stream ended, see [`end_with`]), and the transport the driver (answers
/// waiting for a slow client); either way the stream still counts.
pub struct StreamSlot {
    _permit: Box<dyn Send + Sync>,
    _open: StreamGuard,
}

impl StreamSlot {
    /// Holds `permit` and counts the stream open in `metrics`.
    pub fn new(permit: impl Send + Sync + 'static, metrics: &Arc<Metrics>) -> Arc<StreamSlot> {
        Arc::new(StreamSlot {
            _permit: Box::new(permit),
            _open: metrics.stream_opened(),
        })
    }
}

/// A stream's response channel, holding `slot` until the transport drops it.
pub fn response_channel<R>(slot: Arc<StreamSlot>) -> (ResponseSender<R>, ResponseStream<R>) {
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

impl<R> ResponseSender<R> {
    /// Ends the stream with `status`, after every group already sent,
    /// without waiting for the client to take them.
    fn end(self, status: Status) {
        *self
            .end
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(status);
    }
}

impl<R> Stream for ResponseStream<R> {
    type Item = ResponseItem<R>;

    fn poll_next(
        mut self: Pin<&mut Self>,
        context: &mut Context<'_>,
    ) -> Poll<Option<ResponseItem<R>>> {
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
pub struct Driver<P> {
    /// How the RPC's messages map to puzzles.
    pub protocol: P,
    /// Where puzzles are solved.
    pub pool: WorkerPool,
    /// The solve budget.
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

/// Requests read together: what is kept of each, their puzzles (or why
/// each was refused), and what they are charged.
struct Batch<P: Protocol> {
    kept: Vec<P::Kept>,
    items: Vec<Item>,
    charge: usize,
}

/// A pool job solving some of a batch's puzzles and encoding their
/// answers, and how many puzzles it has.
struct Job<P: Protocol> {
    answers: JobHandle<(Vec<Answer>, P::Encoded)>,
    puzzles: usize,
}

/// Requests taken in together and not yet answered: what is kept of each,
/// in order, the jobs solving their puzzles (oldest first) with the
/// answers of those already done, and their room in the window and budget.
struct Pending<P: Protocol> {
    kept: Vec<P::Kept>,
    jobs: VecDeque<Job<P>>,
    answers: Vec<Answer>,
    encoded: Vec<P::Encoded>,
    admission: Admission,
}

type Boxed<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// The state of one call as the driver goes.
struct Call<P: Protocol> {
    window: Arc<StreamWindow>,
    /// The most one request can be charged.
    largest_charge: usize,
    pending: VecDeque<Pending<P>>,
    /// Waiting for budget for the next request, kept from turn to turn so
    /// that the stream keeps its place in the budget's queue.
    reserving: Option<Boxed<Charge>>,
    /// Budget for the next request, ready.
    reserved: Option<Charge>,
    /// A batch whose jobs wait for room in the pool.
    submitting: Option<Boxed<Pending<P>>>,
    /// The oldest requests' answers, waiting for room in the response
    /// channel.
    ready: Option<Group<P::Response>>,
    /// False once the driver has stopped reading.
    reading: bool,
    /// True once a request has been read.
    read_any: bool,
    /// The status the stream will end with, once its answers are out.
    failure: Option<Status>,
}
impl<P: Protocol> Call<P> {
    /// A call that has read nothing yet, with this window.
    fn new(window: Arc<StreamWindow>, largest_charge: usize) -> Call<P> {
        Call {
            window,
            largest_charge,
            pending: VecDeque::new(),
            reserving: None,
            reserved: None,
            submitting: None,
            ready: None,
            reading: true,
            read_any: false,
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

impl<P: Protocol> Driver<P> {
    /// Runs the stream until the client has sent everything and all of it
    /// is answered, or the stream ends early (see the module docs), holding
    /// its `slot` until then.
    pub async fn run(
        mut self,
        requests: Streaming<P::Request>,
        responses: ResponseSender<P::Response>,
        slot: Arc<StreamSlot>,
    ) {
        let code = self.drive(requests, responses).await;
        self.metrics.call_finished(P::RPC, code);
        drop(slot);
    }

    /// [`Driver::run`]'s loop; returns the code the call ended with.
    async fn drive(
        &mut self,
        mut requests: Streaming<P::Request>,
        responses: ResponseSender<P::Response>,
    ) -> Code {
        let (puzzles, bytes) = self.protocol.window();
        let largest = self.protocol.largest();
        let mut call = Call::new(StreamWindow::new(puzzles, bytes, largest), largest.1);
        let first_message = self.protocol.first_message_timeout();
        let first_message_by = first_message.map(|timeout| Instant::now() + timeout);
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
                () = oldest_answered(&mut call.pending), if call.ready.is_none() && !call.pending.is_empty() => {
                    let pending = call.pending.pop_front().expect("the answers came from it");
                    call.ready = Some(self.answer_group(pending));
                }
                pending = poll_some(&mut call.submitting), if call.submitting.is_some() => {
                    call.submitting = None;
                    call.pending.push_back(pending);
                }
                () = until(first_message_by), if call.reading && !call.read_any => {
                    call.stop_reading(Some(no_first_message(first_message)));
                }
                () = until_draining(&mut self.draining), if call.reading => {
                    call.stop_reading(Some(Status::unavailable(
                        "the server is shutting down; every request before this point \
                         was answered, send the rest to another server",
                    )));
                }
                charge = poll_some(&mut call.reserving), if call.reserving.is_some() => {
                    call.reserving = None;
                    call.reserved = Some(charge);
                }
                () = call.window.freed(), if call.reading && !call.window.has_room() => {}
                request = requests.message(), if call.may_read() && call.reserved.is_some() => match request {
                    Ok(Some(first)) => {
                        call.read_any = true;
                        self.take_batch(&mut call, first, &mut requests);
                    }
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
            Some(status) => {
                let status = inbound_status(status, P::RPC.message_limit());
                end_with(status, P::RPC.label(), requests, responses).await
            }
        }
    }

    /// Reserves budget for the next request, if the stream may read one and
    /// has none reserved: at once when it fits, else as a future that waits
    /// (boxed only then, since most reservations fit at once).
    fn reserve_for_next_read(&self, call: &mut Call<P>) {
        if !call.may_read() || call.reserved.is_some() || call.reserving.is_some() {
            return;
        }
        match self.budget.try_reserve(call.largest_charge) {
            Some(charge) => call.reserved = Some(charge),
            None => {
                let wait = self.budget.clone().reserve(call.largest_charge);
                call.reserving = Some(Box::pin(wait));
            }
        }
    }

    /// Reads what has already arrived after `first` into one batch, up to
    /// [`JOB_PUZZLES`] puzzles, while the window and the budget have room
    /// for one more request at its largest, shrinks the batch's
    /// reservation to what its requests are charged, and sends it on its
    /// way to the pool.
    fn take_batch(
        &self,
        call: &mut Call<P>,
        first: P::Request,
        requests: &mut Streaming<P::Request>,
    ) {
        let mut charge = call
            .reserved
            .take()
            .expect("only read with budget reserved");
        let mut batch = Batch {
            kept: Vec::new(),
            items: Vec::new(),
            charge: 0,
        };
        let (most_puzzles, most_bytes) = self.protocol.largest();
        self.admit(&mut batch, first);
        while batch.items.len() < JOB_PUZZLES
            && call
                .window
                .fits(batch.items.len() + most_puzzles, batch.charge + most_bytes)
        {
            // What is reserved must cover one more request at its largest; a
            // reservation usually covers several requests as they are charged.
            let needed = batch.charge + most_bytes;
            if charge.bytes() < needed {
                let Some(more) = self.budget.try_reserve(needed - charge.bytes()) else {
                    break;
                };
                charge.merge(more);
            }
            match arrived(requests) {
                Some(Ok(request)) => self.admit(&mut batch, request),
                Some(Err(end)) => {
                    call.stop_reading(end);
                    break;
                }
                None => break,
            }
        }
        charge.shrink_to(batch.charge);
        let admission = Admission::new(&call.window, batch.items.len(), charge);
        self.submit(call, batch, admission);
    }

    /// Adds a request to the batch, checked against the caps.
    fn admit(&self, batch: &mut Batch<P>, request: P::Request) {
        let (kept, charge) = self.protocol.admit(request, &mut batch.items);
        batch.kept.push(kept);
        batch.charge += charge;
    }

    /// Hands a batch's puzzles to the pool in jobs of up to
    /// [`JOB_PUZZLES`]: at once while the pool has room, and the rest as
    /// a future that waits for room, kept in `call.submitting`.
    fn submit(&self, call: &mut Call<P>, batch: Batch<P>, admission: Admission) {
        let Batch { kept, items, .. } = batch;
        let mut pending = Pending {
            kept,
            jobs: VecDeque::new(),
            answers: Vec::with_capacity(items.len()),
            encoded: Vec::new(),
            admission,
        };
        let mut waiting = Vec::new();
        let size = job_size(items.len(), self.pool.workers());
        for chunk in into_chunks(items, size) {
            let puzzles = chunk.len();
            let job = solve_and_encode(chunk, self.limits.max_solve_time, P::encode);
            if !waiting.is_empty() {
                waiting.push((job, puzzles));
                continue;
            }
            match self.pool.try_submit_or_return(job) {
                Ok(answers) => pending.jobs.push_back(Job { answers, puzzles }),
                Err(job) => waiting.push((job, puzzles)),
            }
        }
        if waiting.is_empty() {
            call.pending.push_back(pending);
            return;
        }
        let pool = self.pool.clone();
        call.submitting = Some(Box::pin(async move {
            for (job, puzzles) in waiting {
                let answers = pool.submit(job).await;
                pending.jobs.push_back(Job { answers, puzzles });
            }
            pending
        }));
    }

    /// The responses to requests whose puzzles are all answered, counted
    /// in the metrics, with the admission that holds their room until the
    /// transport has taken them.
    fn answer_group(&self, pending: Pending<P>) -> Group<P::Response> {
        let mut tally = self.metrics.tally(P::RPC);
        let mut answers = pending.answers.into_iter();
        let mut encoded = pending.encoded.into_iter().collect();
        let group = pending
            .kept
            .into_iter()
            .map(|kept| Ok(P::respond(kept, &mut answers, &mut encoded, &mut tally)))
            .collect();
        (group, Some(pending.admission))
    }

    /// The deadline passed: stops every job, sends the answers already
    /// computed (those the client has room for), and ends the stream with
    /// DEADLINE_EXCEEDED. Each stopped job gets [`STOP_GRACE`] to hand back
    /// the puzzles it had finished; only requests whose puzzles are all
    /// answered are answered, and everything after the first one that is
    /// not is dropped.
    async fn expire(&self, call: &mut Call<P>, responses: ResponseSender<P::Response>) -> Code {
        call.submitting = None;
        call.stop_reading(None);
        for pending in &call.pending {
            for job in &pending.jobs {
                job.answers.stop();
            }
        }
        let mut groups: Vec<Group<P::Response>> = call.ready.take().into_iter().collect();
        while let Some(mut oldest) = call.pending.pop_front() {
            let complete = finish_stopped(&mut oldest).await;
            groups.push(self.answer_group(oldest));
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
        log_stream_end(P::RPC.label(), &status);
        responses.end(status);
        Code::DeadlineExceeded
    }
}

impl<P: Protocol> Pending<P> {
    /// Files a finished job's answers and their encoding (of `puzzles`
    /// puzzles).
    fn take(&mut self, result: Result<(Vec<Answer>, P::Encoded), JobError>, puzzles: usize) {
        let (answers, encoded) = encoded_answers(result, puzzles, P::encode);
        self.answers.extend(answers);
        self.encoded.push(encoded);
    }
}

/// Collects what the stopped jobs of `pending` finished, each within
/// [`STOP_GRACE`], and keeps only the requests whose puzzles were all
/// answered. True if every request was.
async fn finish_stopped<P: Protocol>(pending: &mut Pending<P>) -> bool {
    while let Some(mut job) = pending.jobs.pop_front() {
        let Ok(result) = tokio::time::timeout(STOP_GRACE, &mut job.answers).await else {
            break;
        };
        pending.take(result, job.puzzles);
    }
    let computed = pending
        .answers
        .iter()
        .take_while(|answer| !matches!(answer, Err(ServiceError::Cancelled)))
        .count();
    let mut covered = 0;
    let whole = pending
        .kept
        .iter()
        .take_while(|kept| {
            covered += P::puzzles(kept);
            covered <= computed
        })
        .count();
    let complete = whole == pending.kept.len();
    pending.kept.truncate(whole);
    complete
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
async fn end_with<Q, R>(
    status: Status,
    rpc: &str,
    mut requests: Streaming<Q>,
    responses: ResponseSender<R>,
) -> Code {
    let code = status.code();
    log_stream_end(rpc, &status);
    responses.end(status);
    let discard = async { while let Ok(Some(_)) = requests.message().await {} };
    let _ = tokio::time::timeout(LINGER, discard).await;
    code
}

/// The status a stream that failed on its request side ends with: this
/// service's code for what tonic refused (an oversized or undecodable
/// message; `limit` names what sets the size limit), CANCELLED for a
/// client that reset the stream, or the status as it came.
fn inbound_status(status: Status, limit: &'static str) -> Status {
    if let Some(error) = ServiceError::from_inbound_status(&status, limit) {
        return Status::from(error);
    }
    if super::error::is_client_reset(&status) {
        return Status::cancelled("the client reset the stream");
    }
    status
}

/// The status of a stream whose first request did not come within
/// `timeout`.
fn no_first_message(timeout: Option<Duration>) -> Status {
    let waited = timeout.map_or_else(String::new, |timeout| format!(" within {timeout:?}"));
    Status::deadline_exceeded(format!(
        "the stream's first request message did not arrive{waited} of its headers \
         (--first-call-timeout)"
    ))
}

fn log_stream_end(rpc: &str, status: &Status) {
    super::log_failed_call(rpc, status, false);
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

/// Waits until every job of the oldest pending batch has answered,
/// collecting their answers into it as each finishes (so that nothing is
/// lost if the wait is dropped in between).
async fn oldest_answered<P: Protocol>(pending: &mut VecDeque<Pending<P>>) {
    let oldest = pending
        .front_mut()
        .expect("only polled when something is pending");
    while let Some(job) = oldest.jobs.front_mut() {
        let result = (&mut job.answers).await;
        let puzzles = job.puzzles;
        oldest.jobs.pop_front();
        oldest.take(result, puzzles);
    }
}

/// A request that has already arrived, taken without waiting: `None` when
/// none is ready, `Err(None)` at the end of the requests, `Err(Some(status))`
/// when the request side failed.
fn arrived<T>(requests: &mut Streaming<T>) -> Option<Result<T, Option<Status>>> {
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
