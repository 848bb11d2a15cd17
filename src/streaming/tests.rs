//! The driver's rules, checked on a paused clock with a protocol made up
//! for the test: each request carries some items and a charge, and a
//! worker answers an item only once the test opens its request's gate, so
//! a test decides when each job finishes and in which order.
//!
//! Jobs run on a real [`WorkerPool`]; the tests wait for what they can
//! observe (requests admitted, items worked, responses read), polling
//! without parking the runtime, so that the paused clock moves only when a
//! test moves it (`settle`, `tokio::time::advance`), never while a worker
//! is busy.

use std::collections::HashSet;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_stream::Stream as _;
use tokio_stream::wrappers::UnboundedReceiverStream;

use super::*;
use crate::pool::{CancelCheck, JobError, WorkerPool};

/// What a request's charge is in these tests, unless one says otherwise.
const CHARGE: usize = 100;

/// A request: its id, how many items it carries, and what it is charged.
#[derive(Debug, Clone, Copy)]
struct Request {
    id: u32,
    items: u32,
    charge: usize,
}

impl Request {
    fn one(id: u32) -> Request {
        Request {
            id,
            items: 1,
            charge: CHARGE,
        }
    }
}

/// A response: the request's id and, per item, the id it was worked for
/// (`None` for an item a stopped job never got to).
type Response = (u32, Vec<Option<u32>>);

/// The gates workers wait at, one per request id.
#[derive(Default)]
struct Gates {
    open: Mutex<HashSet<u32>>,
    changed: Condvar,
}

impl Gates {
    fn open(&self, id: u32) {
        self.open.lock().unwrap().insert(id);
        self.changed.notify_all();
    }

    /// Waits until `id`'s gate opens (true) or the job is cancelled
    /// (false).
    fn pass(&self, id: u32, cancel: &CancelCheck) -> bool {
        let mut open = self.open.lock().unwrap();
        loop {
            if open.contains(&id) {
                return true;
            }
            if cancel.is_cancelled() {
                return false;
            }
            open = self
                .changed
                .wait_timeout(open, Duration::from_millis(1))
                .unwrap()
                .0;
        }
    }
}

/// What the protocol saw.
#[derive(Default)]
struct Record {
    admitted: AtomicUsize,
    worked: AtomicUsize,
    stopped: AtomicUsize,
    endings: Mutex<Vec<String>>,
    /// Per group of responses: its requests, and the jobs that answered
    /// them.
    groups: Mutex<Vec<(usize, usize)>>,
}

struct TestProtocol {
    window: (usize, usize),
    largest: (usize, usize),
    first_message: Option<Duration>,
    gates: Arc<Gates>,
    record: Arc<Record>,
}

impl Protocol for TestProtocol {
    type Request = Request;
    type Response = Response;
    type Kept = (u32, usize);
    type Item = u32;
    type Answer = Option<u32>;
    type Encoded = usize;
    type Error = String;

    fn window(&self) -> (usize, usize) {
        self.window
    }

    fn first_message_timeout(&self) -> Option<Duration> {
        self.first_message
    }

    fn largest(&self) -> (usize, usize) {
        self.largest
    }

    fn admit(&self, request: Request, items: &mut Vec<u32>) -> ((u32, usize), usize) {
        self.record.admitted.fetch_add(1, Ordering::SeqCst);
        let count = request.items as usize;
        items.extend(std::iter::repeat_n(request.id, count));
        ((request.id, count), request.charge)
    }

    fn items(kept: &(u32, usize)) -> usize {
        kept.1
    }

    fn work(&self, items: Vec<u32>, cancel: &CancelCheck) -> (Vec<Option<u32>>, usize) {
        let mut stopped = false;
        let answers: Vec<Option<u32>> = items
            .iter()
            .map(|&id| {
                stopped = stopped || !self.gates.pass(id, cancel);
                if stopped {
                    self.record.stopped.fetch_add(1, Ordering::SeqCst);
                    return None;
                }
                self.record.worked.fetch_add(1, Ordering::SeqCst);
                Some(id)
            })
            .collect();
        let count = answers.len();
        (answers, count)
    }

    fn failed(&self, _: JobError, count: usize) -> (Vec<Option<u32>>, usize) {
        (vec![None; count], count)
    }

    fn is_answered(answer: &Option<u32>) -> bool {
        answer.is_some()
    }

    fn respond(
        &self,
        kept: Vec<(u32, usize)>,
        answers: Vec<Option<u32>>,
        encoded: Vec<usize>,
    ) -> Vec<Response> {
        assert!(
            encoded.iter().sum::<usize>() >= kept.iter().map(|kept| kept.1).sum::<usize>(),
            "every job's encoding reaches the responses"
        );
        let group = (kept.len(), encoded.len());
        self.record.groups.lock().unwrap().push(group);
        let mut answers = answers.into_iter();
        kept.into_iter()
            .map(|(id, count)| (id, answers.by_ref().take(count).collect()))
            .collect()
    }

    fn end(&self, ending: Ending<String>) -> Option<String> {
        let name = format!("{ending:?}");
        self.record.endings.lock().unwrap().push(name.clone());
        match ending {
            Ending::Finished | Ending::ClientGone => None,
            _ => Some(name),
        }
    }
}

/// Sets a flag when the stream's slot is given back.
struct SlotProbe(Arc<AtomicBool>);

impl Drop for SlotProbe {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// How a test's stream is set up.
struct Setup {
    window: (usize, usize),
    largest: (usize, usize),
    budget: ByteBudget,
    deadline: Option<Duration>,
    first_message: Option<Duration>,
}

impl Setup {
    /// A window of `items` items and plenty of bytes, requests of one
    /// item, and a budget that never binds.
    fn items(items: usize) -> Setup {
        Setup {
            window: (items, 1 << 20),
            largest: (1, CHARGE),
            budget: ByteBudget::new(1 << 30),
            deadline: None,
            first_message: None,
        }
    }
}

/// A running stream and the test's handles on it.
struct Stream {
    requests: Option<mpsc::UnboundedSender<Result<Request, String>>>,
    responses: Option<ResponseStream<Response, String>>,
    gates: Arc<Gates>,
    record: Arc<Record>,
    budget: ByteBudget,
    released: Arc<AtomicBool>,
    draining: watch::Sender<bool>,
    driver: JoinHandle<()>,
}

fn start(setup: Setup, pool: &WorkerPool) -> Stream {
    let gates = Arc::new(Gates::default());
    let record = Arc::new(Record::default());
    let protocol = TestProtocol {
        window: setup.window,
        largest: setup.largest,
        first_message: setup.first_message,
        gates: gates.clone(),
        record: record.clone(),
    };
    let released = Arc::new(AtomicBool::new(false));
    let slot = StreamSlot::new(SlotProbe(released.clone()));
    let (sender, responses) = response_channel(slot.clone());
    let (requests, incoming) = mpsc::unbounded_channel();
    let (draining, draining_seen) = watch::channel(false);
    let driver = Driver {
        protocol: Arc::new(protocol),
        pool: pool.clone(),
        budget: setup.budget.clone(),
        draining: draining_seen,
        deadline: setup.deadline.map(|after| Instant::now() + after),
    };
    let incoming = UnboundedReceiverStream::new(incoming);
    let driver = tokio::spawn(driver.run(incoming, sender, slot));
    Stream {
        requests: Some(requests),
        responses: Some(responses),
        gates,
        record,
        budget: setup.budget,
        released,
        draining,
        driver,
    }
}

impl Stream {
    fn send(&self, request: Request) {
        self.requests
            .as_ref()
            .expect("still sending")
            .send(Ok(request))
            .expect("the driver reads requests");
    }

    fn send_failure(&self, error: &str) {
        let requests = self.requests.as_ref().expect("still sending");
        requests.send(Err(error.to_string())).unwrap();
    }

    /// Ends the request side.
    fn finish_sending(&mut self) {
        self.requests = None;
    }

    fn admitted(&self) -> usize {
        self.record.admitted.load(Ordering::SeqCst)
    }

    fn worked(&self) -> usize {
        self.record.worked.load(Ordering::SeqCst)
    }

    fn endings(&self) -> Vec<String> {
        self.record.endings.lock().unwrap().clone()
    }

    /// The next response or final error, `None` at the end, or `Pending`
    /// if there is none yet; never waits.
    fn poll_next(&mut self) -> Poll<Option<Result<Response, String>>> {
        let responses = self.responses.as_mut().expect("still reading");
        let mut context = Context::from_waker(Waker::noop());
        Pin::new(responses).poll_next(&mut context)
    }

    /// The next response or final error, or `None` at the end; panics if
    /// none comes within about two seconds of real time. It does not move
    /// the clock.
    async fn next(&mut self) -> Option<Result<Response, String>> {
        for _ in 0..4000 {
            if let Poll::Ready(next) = self.poll_next() {
                return next;
            }
            give_way().await;
        }
        panic!("no response came");
    }

    /// Reads everything to the end.
    async fn read_to_end(&mut self) -> Vec<Result<Response, String>> {
        let mut read = Vec::new();
        while let Some(item) = self.next().await {
            read.push(item);
        }
        read
    }

    /// Checks that no response comes while the driver and the pool's
    /// threads have many turns.
    async fn assert_nothing_comes(&mut self) {
        for _ in 0..100 {
            assert_eq!(self.poll_next(), Poll::Pending, "nothing comes yet");
            give_way().await;
        }
    }
}

/// Gives the driver and the pool's threads a turn, without moving the
/// clock.
async fn give_way() {
    tokio::task::yield_now().await;
    std::thread::sleep(Duration::from_micros(500));
}

/// Waits until `condition` holds, giving the driver and the pool's threads
/// their turns, without moving the clock; panics after about two seconds
/// of real time.
async fn eventually(what: &str, mut condition: impl FnMut() -> bool) {
    for _ in 0..4000 {
        if condition() {
            return;
        }
        give_way().await;
    }
    panic!("timed out waiting for {what}");
}

/// Lets the driver run until it has nothing to do, then moves the clock on
/// by `by` (as a test that waits would see it).
async fn settle(by: Duration) {
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
    tokio::time::sleep(by).await;
}

fn answered(id: u32, items: usize) -> Result<Response, String> {
    Ok((id, vec![Some(id); items]))
}

#[tokio::test(start_paused = true)]
async fn reading_stops_while_the_window_is_full_of_items() {
    let pool = WorkerPool::new(2, 64);
    let mut stream = start(Setup::items(4), &pool);
    for id in 0..10 {
        stream.send(Request::one(id));
    }
    eventually("a window of requests", || stream.admitted() == 4).await;
    settle(Duration::from_secs(60)).await;
    assert_eq!(stream.admitted(), 4, "no more than the window is read");

    for id in 0..10 {
        stream.gates.open(id);
    }
    stream.finish_sending();
    let read = stream.read_to_end().await;
    assert_eq!(read, (0..10).map(|id| answered(id, 1)).collect::<Vec<_>>());
    assert_eq!(stream.endings(), ["Finished"]);
}

#[tokio::test(start_paused = true)]
async fn reading_stops_while_the_window_is_full_of_bytes() {
    let pool = WorkerPool::new(2, 64);
    let mut setup = Setup::items(100);
    setup.window = (100, 3 * CHARGE);
    let mut stream = start(setup, &pool);
    for id in 0..6 {
        stream.send(Request::one(id));
    }
    eventually("three requests' bytes", || stream.admitted() == 3).await;
    settle(Duration::from_secs(60)).await;
    assert_eq!(stream.admitted(), 3, "no more than the window's bytes");
    assert_eq!(stream.budget.in_use(), 3 * CHARGE);

    for id in 0..6 {
        stream.gates.open(id);
    }
    stream.finish_sending();
    assert_eq!(stream.read_to_end().await.len(), 6);
    assert_eq!(stream.budget.in_use(), 0, "every charge is given back");
}

#[tokio::test(start_paused = true)]
async fn a_client_that_stops_reading_stops_the_stream_until_it_goes_away() {
    let pool = WorkerPool::new(2, 64);
    let mut stream = start(Setup::items(4), &pool);
    for id in 0..20 {
        stream.gates.open(id);
        stream.send(Request::one(id));
    }
    eventually("a window of answers", || stream.worked() == 4).await;
    settle(Duration::from_secs(60)).await;
    // The answers are done but not taken: they keep their room.
    assert_eq!((stream.admitted(), stream.worked()), (4, 4));
    assert_eq!(stream.budget.in_use(), 4 * CHARGE);

    // Taking the answers gives their room back, and the stream reads on.
    for id in 0..4 {
        assert_eq!(stream.next().await, Some(answered(id, 1)));
    }
    eventually("the next window", || stream.worked() == 8).await;
    settle(Duration::from_secs(60)).await;
    assert_eq!(stream.admitted(), 8);

    stream.responses = None;
    eventually("the driver to end", || stream.driver.is_finished()).await;
    assert_eq!(stream.endings(), ["ClientGone"]);
    assert_eq!(stream.budget.in_use(), 0);
    assert!(
        stream.released.load(Ordering::SeqCst),
        "the slot is given back"
    );
}

#[tokio::test(start_paused = true)]
async fn the_deadline_sends_what_was_answered_and_stops_the_rest() {
    let pool = WorkerPool::new(2, 64);
    let mut setup = Setup::items(16);
    setup.deadline = Some(Duration::from_secs(5));
    let mut stream = start(setup, &pool);
    stream.gates.open(0);
    stream.send(Request::one(0));
    eventually("the first answer", || stream.worked() == 1).await;
    stream.send(Request::one(1));
    stream.send(Request::one(2));
    eventually("the other requests", || stream.admitted() == 3).await;

    let started = Instant::now();
    tokio::time::advance(Duration::from_secs(4)).await;
    assert_eq!(stream.next().await, Some(answered(0, 1)));
    stream.assert_nothing_comes().await;
    tokio::time::advance(Duration::from_secs(1)).await;
    let mut read = vec![answered(0, 1)];
    read.extend(stream.read_to_end().await);
    assert_eq!(read, [answered(0, 1), Err("DeadlineExceeded".to_string())]);
    assert_eq!(started.elapsed(), Duration::from_secs(5));
    assert_eq!(stream.endings(), ["DeadlineExceeded"]);
    eventually("the stopped jobs to end", || {
        stream.record.stopped.load(Ordering::SeqCst) == 2
    })
    .await;
    assert_eq!(
        stream.worked(),
        1,
        "nothing was worked on after the deadline"
    );
}

#[tokio::test(start_paused = true)]
async fn a_client_that_goes_away_cancels_the_work_and_frees_everything() {
    let pool = WorkerPool::new(2, 64);
    let mut stream = start(Setup::items(8), &pool);
    for id in 0..8 {
        stream.send(Request::one(id));
    }
    eventually("the requests", || stream.admitted() == 8).await;
    assert!(stream.budget.in_use() > 0);

    stream.responses = None;
    eventually("the driver to end", || stream.driver.is_finished()).await;
    eventually("every job to see it was cancelled", || {
        stream.record.stopped.load(Ordering::SeqCst) == 8
    })
    .await;
    assert_eq!(stream.worked(), 0);
    assert_eq!(stream.endings(), ["ClientGone"]);
    assert_eq!(stream.budget.in_use(), 0);
    assert!(stream.released.load(Ordering::SeqCst));
}

#[tokio::test(start_paused = true)]
async fn a_stream_waits_for_room_in_the_shared_budget() {
    let pool = WorkerPool::new(2, 64);
    let budget = ByteBudget::new(2 * CHARGE);
    let with_budget = || {
        let mut setup = Setup::items(8);
        setup.budget = budget.clone();
        setup
    };
    let mut first = start(with_budget(), &pool);
    first.send(Request::one(0));
    first.send(Request::one(1));
    eventually("the first stream's requests", || first.admitted() == 2).await;
    assert_eq!(budget.in_use(), 2 * CHARGE);

    let mut second = start(with_budget(), &pool);
    second.gates.open(10);
    second.send(Request::one(10));
    settle(Duration::from_secs(60)).await;
    assert_eq!(second.admitted(), 0, "the budget is full");

    // The first stream's answers, once taken, give the budget back.
    first.gates.open(0);
    first.gates.open(1);
    assert_eq!(first.next().await, Some(answered(0, 1)));
    assert_eq!(first.next().await, Some(answered(1, 1)));
    eventually("the second stream's request", || second.admitted() == 1).await;
    assert_eq!(second.next().await, Some(answered(10, 1)));
}

#[tokio::test(start_paused = true)]
async fn answers_leave_in_request_order_whatever_order_jobs_finish_in() {
    let pool = WorkerPool::new(3, 64);
    let mut stream = start(Setup::items(16), &pool);
    // One request at a time, so that each is a job of its own.
    for id in 0..3 {
        stream.send(Request::one(id));
        eventually("the request", || stream.admitted() == id as usize + 1).await;
    }
    stream.gates.open(2);
    stream.gates.open(1);
    eventually("the later jobs", || stream.worked() == 2).await;
    // Nothing leaves before the oldest.
    stream.assert_nothing_comes().await;

    stream.gates.open(0);
    stream.finish_sending();
    let read = stream.read_to_end().await;
    assert_eq!(read, [answered(0, 1), answered(1, 1), answered(2, 1)]);
}

#[tokio::test(start_paused = true)]
async fn requests_that_arrived_together_share_a_job_up_to_its_size() {
    let pool = WorkerPool::new(1, 64);
    let mut stream = start(Setup::items(1000), &pool);
    let total = JOB_ITEMS as u32 + 10;
    for id in 0..total {
        stream.gates.open(id);
        stream.send(Request::one(id));
    }
    stream.finish_sending();
    let read = stream.read_to_end().await;
    assert_eq!(
        read,
        (0..total).map(|id| answered(id, 1)).collect::<Vec<_>>()
    );
    let groups = stream.record.groups.lock().unwrap().clone();
    assert_eq!(
        groups,
        [(JOB_ITEMS, 1), (10, 1)],
        "one job per batch taken in"
    );
    // A multi-item request is answered whole.
    let mut stream = start(Setup::items(1000), &pool);
    stream.gates.open(7);
    stream.send(Request {
        id: 7,
        items: 3,
        charge: CHARGE,
    });
    stream.finish_sending();
    assert_eq!(stream.read_to_end().await, [answered(7, 3)]);
}

#[tokio::test(start_paused = true)]
async fn draining_answers_what_was_read_and_ends_the_stream() {
    let pool = WorkerPool::new(2, 64);
    let mut stream = start(Setup::items(8), &pool);
    stream.send(Request::one(0));
    eventually("the request", || stream.admitted() == 1).await;
    stream.draining.send(true).unwrap();
    settle(Duration::ZERO).await;
    stream.send(Request::one(1));
    stream.gates.open(0);
    stream.gates.open(1);
    let read = stream.read_to_end().await;
    assert_eq!(read, [answered(0, 1), Err("Draining".to_string())]);
    assert_eq!(stream.admitted(), 1, "nothing is read once draining");
}

#[tokio::test(start_paused = true)]
async fn a_failed_request_side_ends_the_stream_after_the_answers_owed() {
    let pool = WorkerPool::new(2, 64);
    let mut stream = start(Setup::items(8), &pool);
    stream.gates.open(0);
    stream.send(Request::one(0));
    stream.send_failure("too large");
    let read = stream.read_to_end().await;
    assert_eq!(
        read,
        [
            answered(0, 1),
            Err("RequestFailed(\"too large\")".to_string())
        ]
    );
}

/// A stream whose first request came while it waited for room in the
/// shared budget is not ended as if its client had sent nothing.
#[tokio::test(start_paused = true)]
async fn waiting_for_the_budget_does_not_count_against_the_first_request() {
    let pool = WorkerPool::new(2, 64);
    let budget = ByteBudget::new(CHARGE);
    let mut first = start(
        Setup {
            budget: budget.clone(),
            ..Setup::items(8)
        },
        &pool,
    );
    first.send(Request::one(0));
    eventually("the first stream's request", || first.admitted() == 1).await;
    let mut second = start(
        Setup {
            budget: budget.clone(),
            first_message: Some(Duration::from_secs(10)),
            ..Setup::items(8)
        },
        &pool,
    );
    second.gates.open(10);
    second.send(Request::one(10));
    settle(Duration::from_secs(60)).await;
    second.assert_nothing_comes().await;
    assert_eq!(second.admitted(), 0, "the budget is full");

    // The first stream ends: its answer taken, it holds no more budget.
    first.gates.open(0);
    first.finish_sending();
    assert_eq!(first.read_to_end().await, [answered(0, 1)]);
    second.finish_sending();
    assert_eq!(second.read_to_end().await, [answered(10, 1)]);
    assert_eq!(second.endings(), ["Finished"]);
}

#[tokio::test(start_paused = true)]
async fn a_stream_with_no_first_request_ends_when_its_time_is_up() {
    let pool = WorkerPool::new(1, 8);
    let mut setup = Setup::items(8);
    setup.first_message = Some(Duration::from_secs(10));
    let mut stream = start(setup, &pool);
    // The clock starts when the driver does.
    settle(Duration::ZERO).await;
    tokio::time::advance(Duration::from_secs(9)).await;
    stream.assert_nothing_comes().await;
    tokio::time::advance(Duration::from_secs(1)).await;
    let read = stream.read_to_end().await;
    assert_eq!(read, [Err("NoFirstMessage(10s)".to_string())]);
}
