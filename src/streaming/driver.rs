//! The driver of one stream: reads requests, hands their items to the
//! pool, and sends the responses back in request order (see the module
//! docs of [`crate::streaming`] for the rules it keeps). What it may wait
//! for at each turn, and what each event changes, is its [`Flow`]'s to
//! say; the driver polls the futures the flow holds and reports what
//! happened.

use std::collections::VecDeque;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;
use tokio_stream::{Stream, StreamExt};

use super::budget::{Admission, ByteBudget, Charge, StreamWindow};
use super::flow::{Flow, Holds};
use super::protocol::{Ending, Protocol};
use super::responses::{Group, ResponseSender, StreamSlot};
use crate::pool::{CancelCheck, JobError, JobHandle, WorkerPool};

/// The most items handed to the pool as one job, and the most a stream
/// takes in at once from requests that have already arrived.
pub const JOB_ITEMS: usize = 64;

/// How long a stream that ended early keeps reading what its client still
/// sends, at most.
pub const LINGER: Duration = Duration::from_secs(5);

/// How long a job stopped at the deadline may take to hand back what it
/// finished: it stops within microseconds once running, so this bounds
/// only a job still queued behind other work, which is then dropped.
pub const STOP_GRACE: Duration = Duration::from_millis(20);

/// What a stream's driver works with.
pub struct Driver<P> {
    /// How the RPC's messages map to work.
    pub protocol: Arc<P>,
    /// Where the work is done.
    pub pool: WorkerPool,
    /// The bytes this stream shares with others.
    pub budget: ByteBudget,
    /// Turns true when the server starts draining.
    pub draining: watch::Receiver<bool>,
    /// When the call's deadline passes, if it has one.
    pub deadline: Option<Instant>,
}

/// Requests read together: what is kept of each, their items, and what
/// they are charged.
struct Batch<P: Protocol> {
    kept: Vec<P::Kept>,
    items: Vec<P::Item>,
    charge: usize,
}

/// A pool job working on some of a batch's items, and how many it has.
struct Job<P: Protocol> {
    answers: JobHandle<(Vec<P::Answer>, P::Encoded)>,
    items: usize,
}

/// Requests taken in together and not yet answered: what is kept of each,
/// in order, the jobs working on their items (oldest first) with the
/// answers of those already done, and their room in the window and budget.
struct Pending<P: Protocol> {
    kept: Vec<P::Kept>,
    jobs: VecDeque<Job<P>>,
    answers: Vec<P::Answer>,
    encoded: Vec<P::Encoded>,
    admission: Admission,
}

type Boxed<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// What a stream of protocol `P` holds, for its [`Flow`].
struct Parts<P>(PhantomData<P>);

impl<P: Protocol> Holds for Parts<P> {
    type Reserving = Boxed<Charge>;
    type Charge = Charge;
    type Submitting = Boxed<Pending<P>>;
    type Pending = Pending<P>;
    type Group = Group<P::Response, P::Error>;
    type Error = P::Error;
}

/// One call as the driver goes: its window, and its [`Flow`], which holds
/// the rest and keeps the rules.
struct Call<P: Protocol> {
    window: Arc<StreamWindow>,
    /// The most one request can be charged.
    largest_charge: usize,
    flow: Flow<Parts<P>>,
}

/// What the select loop of [`Driver::drive`] ended on.
enum Stopped {
    /// Everything was answered, or the stream stopped reading for a reason
    /// kept in the call.
    Done,
    /// The client dropped the responses.
    ClientGone,
    /// The deadline passed.
    Expired,
}

impl<P: Protocol> Driver<P> {
    /// Runs the stream until the client has sent everything and all of it
    /// is answered, or the stream ends early, holding its `slot` until
    /// then (and, if it failed while the client was still sending, for up
    /// to [`LINGER`] more while it reads and drops what still comes).
    pub async fn run<S>(
        mut self,
        mut requests: S,
        responses: ResponseSender<P::Response, P::Error>,
        slot: Arc<StreamSlot>,
    ) where
        S: Stream<Item = Result<P::Request, P::Error>> + Unpin + Send,
    {
        let (puzzles, bytes) = self.protocol.window();
        let largest = self.protocol.largest();
        let mut call = Call {
            window: StreamWindow::new(puzzles, bytes, largest),
            largest_charge: largest.1,
            flow: Flow::new(),
        };
        match self.drive(&mut call, &mut requests, &responses).await {
            Stopped::ClientGone => {
                self.protocol.end(Ending::ClientGone);
            }
            Stopped::Expired => self.expire(&mut call, responses).await,
            Stopped::Done => {
                if let Some(error) = self.protocol.end(call.flow.ending()) {
                    responses.end(error);
                    linger(requests).await;
                }
            }
        }
        drop(slot);
    }

    /// The driver's loop, until the call is done or the client gone, or
    /// the deadline passed.
    async fn drive<S>(
        &mut self,
        call: &mut Call<P>,
        requests: &mut S,
        responses: &ResponseSender<P::Response, P::Error>,
    ) -> Stopped
    where
        S: Stream<Item = Result<P::Request, P::Error>> + Unpin + Send,
    {
        let first_message = self.protocol.first_message_timeout();
        let first_message_by = first_message.map(|timeout| Instant::now() + timeout);
        while !call.flow.is_done() {
            self.reserve_for_next_read(call);
            let waits = call.flow.waits(call.window.has_room());
            let waiting = call.flow.waiting_mut();
            tokio::select! {
                biased;
                () = responses.groups.closed() => return Stopped::ClientGone,
                () = until(self.deadline) => return Stopped::Expired,
                permit = responses.groups.reserve(), if waits.send => match permit {
                    Ok(permit) => permit.send(call.flow.take_ready()),
                    Err(_) => return Stopped::ClientGone,
                },
                () = oldest_answered(&*self.protocol, waiting.pending), if waits.answers => {
                    call.flow.answered(|oldest| self.answer_group(oldest));
                }
                batch = poll_some(waiting.submitting), if waits.submitted => call.flow.submitted(batch),
                () = until_draining(&mut self.draining), if waits.draining => {
                    call.flow.stop_reading(Ending::Draining);
                }
                charge = poll_some(waiting.reserving), if waits.budget => call.flow.reserved(charge),
                () = call.window.freed(), if waits.window => {}
                request = requests.next(), if waits.request => match request {
                    Some(Ok(first)) => self.take_batch(call, first, requests),
                    None => call.flow.stop_reading(Ending::Finished),
                    Some(Err(error)) => call.flow.stop_reading(Ending::RequestFailed(error)),
                },
                // Last, so that a request that is there is read first.
                () = until(first_message_by), if waits.first_request => {
                    let waited = first_message.expect("only set with a timeout");
                    call.flow.stop_reading(Ending::NoFirstMessage(waited));
                }
            }
        }
        Stopped::Done
    }

    /// Reserves budget for the next request, if the stream may read one and
    /// has none reserved: at once when it fits, else as a future that waits
    /// (boxed only then, since most reservations fit at once).
    fn reserve_for_next_read(&self, call: &mut Call<P>) {
        if !call.flow.needs_budget(call.window.has_room()) {
            return;
        }
        match self.budget.try_reserve(call.largest_charge) {
            Some(charge) => call.flow.reserved(charge),
            None => {
                let wait = self.budget.clone().reserve(call.largest_charge);
                call.flow.reserving(Box::pin(wait));
            }
        }
    }

    /// Reads what has already arrived after `first` into one batch, up to
    /// [`JOB_ITEMS`] items, while the window and the budget have room for
    /// one more request at its largest, shrinks the batch's reservation to
    /// what its requests are charged, and sends it on its way to the pool.
    fn take_batch<S>(&self, call: &mut Call<P>, first: P::Request, requests: &mut S)
    where
        S: Stream<Item = Result<P::Request, P::Error>> + Unpin,
    {
        let mut charge = call.flow.request_read();
        let mut batch = Batch {
            kept: Vec::new(),
            items: Vec::new(),
            charge: 0,
        };
        let (most_items, most_bytes) = self.protocol.largest();
        self.admit(&mut batch, first);
        while batch.items.len() < JOB_ITEMS
            && call
                .window
                .fits(batch.items.len() + most_items, batch.charge + most_bytes)
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
                Some(Some(Ok(request))) => self.admit(&mut batch, request),
                Some(Some(Err(error))) => {
                    call.flow.stop_reading(Ending::RequestFailed(error));
                    break;
                }
                Some(None) => {
                    call.flow.stop_reading(Ending::Finished);
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

    /// Hands a batch's items to the pool in jobs of up to [`JOB_ITEMS`]
    /// (or an even share of the workers, if more): at once while the pool
    /// has room, and the rest as a future that waits for room, kept in
    /// `call.submitting`.
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
        let size = self
            .protocol
            .items_per_job()
            .unwrap_or_else(|| job_size(items.len(), self.pool.workers()));
        for chunk in into_chunks(items, size) {
            let items = chunk.len();
            let job = job_of(self.protocol.clone(), chunk);
            if !waiting.is_empty() {
                waiting.push((job, items));
                continue;
            }
            match self.pool.try_submit_or_return(job) {
                Ok(answers) => pending.jobs.push_back(Job { answers, items }),
                Err(job) => waiting.push((job, items)),
            }
        }
        if waiting.is_empty() {
            call.flow.queued(pending);
            return;
        }
        let pool = self.pool.clone();
        call.flow.submitting(Box::pin(async move {
            for (job, items) in waiting {
                let answers = pool.submit(job).await;
                pending.jobs.push_back(Job { answers, items });
            }
            pending
        }));
    }

    /// The responses to requests whose items are all answered, with the
    /// admission that holds their room until the transport has taken them.
    fn answer_group(&self, pending: Pending<P>) -> Group<P::Response, P::Error> {
        let responses = self
            .protocol
            .respond(pending.kept, pending.answers, pending.encoded);
        (
            responses.into_iter().map(Ok).collect(),
            Some(pending.admission),
        )
    }

    /// The deadline passed: stops every job, sends the answers already
    /// computed (those the client has room for), and ends the stream as
    /// [`Protocol::end`] says for [`Ending::DeadlineExceeded`]. Each
    /// stopped job gets [`STOP_GRACE`] to hand back the items it had
    /// finished; only requests whose items are all answered are answered,
    /// and everything after the first one that is not is dropped.
    async fn expire(&self, call: &mut Call<P>, responses: ResponseSender<P::Response, P::Error>) {
        let (ready, pending) = call.flow.expire();
        for batch in &pending {
            for job in &batch.jobs {
                job.answers.stop();
            }
        }
        let mut groups: Vec<Group<P::Response, P::Error>> = ready.into_iter().collect();
        for mut oldest in pending {
            let complete = finish_stopped(&*self.protocol, &mut oldest).await;
            groups.push(self.answer_group(oldest));
            if !complete {
                break;
            }
        }
        for group in groups {
            if responses.groups.try_send(group).is_err() {
                break;
            }
        }
        if let Some(error) = self.protocol.end(call.flow.ending()) {
            responses.end(error);
        }
    }
}

impl<P: Protocol> Pending<P> {
    /// Files a finished job's answers and their encoding (of `items`
    /// items).
    fn take(
        &mut self,
        protocol: &P,
        result: Result<(Vec<P::Answer>, P::Encoded), JobError>,
        items: usize,
    ) {
        let (answers, encoded) = result.unwrap_or_else(|error| protocol.failed(error, items));
        self.answers.extend(answers);
        self.encoded.push(encoded);
    }
}

/// The pool job that does the work of `items`.
fn job_of<P: Protocol>(
    protocol: Arc<P>,
    items: Vec<P::Item>,
) -> impl FnOnce(&CancelCheck) -> (Vec<P::Answer>, P::Encoded) + Send + 'static {
    move |cancel| protocol.work(items, cancel)
}

/// Collects what the stopped jobs of `pending` finished, each within
/// [`STOP_GRACE`], and keeps only the requests whose items were all
/// answered. True if every request was.
async fn finish_stopped<P: Protocol>(protocol: &P, pending: &mut Pending<P>) -> bool {
    while let Some(mut job) = pending.jobs.pop_front() {
        let Ok(result) = tokio::time::timeout(STOP_GRACE, &mut job.answers).await else {
            break;
        };
        pending.take(protocol, result, job.items);
    }
    let computed = pending
        .answers
        .iter()
        .take_while(|answer| P::is_answered(answer))
        .count();
    let mut covered = 0;
    let whole = pending
        .kept
        .iter()
        .take_while(|kept| {
            covered += P::items(kept);
            covered <= computed
        })
        .count();
    let complete = whole == pending.kept.len();
    pending.kept.truncate(whole);
    complete
}

/// Reads and drops what the client still sends, until it ends its side or
/// for at most [`LINGER`].
///
/// A stream that ends while its client is still sending leaves that data
/// unread; if the server then closes the connection (as it does when
/// draining), TCP resets it instead of closing it, and the reset can
/// destroy the status on its way to the client, which then sees UNKNOWN
/// ("broken pipe") instead of the status that tells it what to resend.
async fn linger<T, E, S>(mut requests: S)
where
    S: Stream<Item = Result<T, E>> + Unpin,
{
    let discard = async { while let Some(Ok(_)) = requests.next().await {} };
    let _ = tokio::time::timeout(LINGER, discard).await;
}

/// `items` cut into chunks of at most `size`, in order (none for no
/// items).
pub fn into_chunks<T>(items: Vec<T>, size: usize) -> Vec<Vec<T>> {
    if items.is_empty() {
        return Vec::new();
    }
    if items.len() <= size {
        return vec![items];
    }
    let mut chunks = Vec::with_capacity(items.len().div_ceil(size));
    let mut items = items.into_iter();
    loop {
        let chunk: Vec<T> = items.by_ref().take(size).collect();
        if chunk.is_empty() {
            return chunks;
        }
        chunks.push(chunk);
    }
}

/// Items per job for a batch of `items` on `workers` threads: the batch
/// split evenly among the workers, so that each hand-off carries as much
/// as it can while every worker has a share, and never fewer than
/// [`JOB_ITEMS`] (unless the batch is smaller).
pub fn job_size(items: usize, workers: usize) -> usize {
    JOB_ITEMS.max(items.div_ceil(workers.max(1)))
}

/// Completes at `deadline`, or never without one.
pub(super) async fn until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// Completes once the server starts draining (never, if the server is gone
/// without draining).
pub(super) async fn until_draining(draining: &mut watch::Receiver<bool>) {
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
async fn oldest_answered<P: Protocol>(protocol: &P, pending: &mut VecDeque<Pending<P>>) {
    let oldest = pending
        .front_mut()
        .expect("only polled when something is pending");
    while let Some(job) = oldest.jobs.front_mut() {
        let result = (&mut job.answers).await;
        let items = job.items;
        oldest.jobs.pop_front();
        oldest.take(protocol, result, items);
    }
}

/// A request that has already arrived, taken without waiting: `None` when
/// none is ready, `Some(None)` at the end of the requests.
fn arrived<S: Stream + Unpin>(requests: &mut S) -> Option<Option<S::Item>> {
    // Polling with a waker that does nothing is fine: the next `next()`
    // call polls again with the driver's own waker.
    let mut context = Context::from_waker(Waker::noop());
    match Pin::new(requests).poll_next(&mut context) {
        Poll::Pending => None,
        Poll::Ready(item) => Some(item),
    }
}
