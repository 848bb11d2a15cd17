//! The driver of a server-streaming call: one request, then responses as
//! jobs on the pool make them (Generate's puzzles), with the same ends as
//! the request streams' [`Driver`](super::Driver).
//!
//! A [`Source`] says what its jobs are, what a finished job yields, when
//! the call has all it owes, and how long it may go without a response.
//! The driver keeps [`Source::jobs_in_flight`] jobs on the pool, takes
//! their outputs in the order they were queued or as they end (as the
//! source asks), and sends the responses through the same response
//! channel as the request streams: a client that stops reading stops the
//! driver once [`RESPONSE_BUFFER`](super::RESPONSE_BUFFER) responses wait,
//! and a client that goes away closes it, which ends the driver and drops
//! its jobs, cancelling them.
//!
//! The call ends, after the responses already sent, when the source has
//! sent all it owes ([`Ending::Finished`]), when its deadline passes,
//! when the server drains, when nothing comes within the source's patience
//! ([`Ending::Idle`]), or when a job fails ([`Ending::Failed`]); the
//! source names each end for the client.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use super::driver::{until, until_draining};
use super::protocol::Ending;
use super::responses::{ResponseSender, StreamSlot};
use crate::pool::{CancelCheck, JobError, JobHandle, WorkerPool};

/// A job of a source, as the pool runs it.
pub type SourceJob<T> = Box<dyn FnOnce(&CancelCheck) -> T + Send + 'static>;

/// What a server-streaming call's driver needs to know of it.
pub trait Source: Send + 'static {
    /// What one job hands back.
    type Output: Send + 'static;
    /// A response message.
    type Response: Send + 'static;
    /// The error the call may end with.
    type Error: Send + 'static;

    /// The call's next job. A job the pool has no room for is kept and
    /// queued later, so jobs are queued in the order they were made.
    fn next_job(&mut self) -> SourceJob<Self::Output>;
    /// How many jobs may be on the pool at once.
    fn jobs_in_flight(&self) -> usize;
    /// Whether outputs are taken in the order their jobs were queued (for
    /// a result that must not depend on timing), or as the jobs end.
    fn in_order(&self) -> bool;
    /// The responses a finished job yields (none, if it found nothing),
    /// at most as many as the call still owes; or the error that ends the
    /// call.
    fn take(
        &mut self,
        output: Result<Self::Output, JobError>,
    ) -> Result<Vec<Self::Response>, Self::Error>;
    /// The oldest response [`Source::take`] gave has been handed to the
    /// response channel.
    fn sent(&mut self);
    /// Whether the call has sent everything it owes.
    fn is_done(&self) -> bool;
    /// How long the call may go without a response before it ends as
    /// [`Ending::Idle`].
    fn patience(&self) -> Duration;
    /// The error the call ends with, if it ends with one, once it is known
    /// how it ended. Called once.
    fn end(&mut self, ending: Ending<Self::Error>) -> Option<Self::Error>;
}

/// What a server-streaming call's driver works with.
pub struct SourceDriver<S> {
    /// The call's jobs and responses.
    pub source: S,
    /// Where the work is done.
    pub pool: WorkerPool,
    /// Turns true when the server starts draining.
    pub draining: watch::Receiver<bool>,
    /// When the call's deadline passes, if it has one.
    pub deadline: Option<Instant>,
}

impl<S: Source> SourceDriver<S> {
    /// Runs the call to its end, starting with its `first` job already
    /// queued, and holds `slot` until then.
    pub async fn run(
        mut self,
        first: JobHandle<S::Output>,
        responses: ResponseSender<S::Response, S::Error>,
        slot: Arc<StreamSlot>,
    ) {
        let ending = self.drive(first, &responses).await;
        if let Some(error) = self.source.end(ending) {
            responses.end(error);
        }
        drop(slot);
    }

    /// Queues jobs and sends what they yield until the call has all it
    /// owes, or ends early.
    async fn drive(
        &mut self,
        first: JobHandle<S::Output>,
        responses: &ResponseSender<S::Response, S::Error>,
    ) -> Ending<S::Error> {
        let mut jobs = Jobs {
            queued: VecDeque::from([first]),
            spare: None,
        };
        let mut idle_at = Instant::now() + self.source.patience();
        while !self.source.is_done() {
            if let Err(ending) = self.fill(&mut jobs, responses).await {
                return ending;
            }
            let output = tokio::select! {
                biased;
                ending = interrupted(responses, self.deadline, &mut self.draining) => return ending,
                () = tokio::time::sleep_until(idle_at) => {
                    return Ending::Idle(self.source.patience());
                }
                output = next_ended(&mut jobs.queued, self.source.in_order()) => output,
            };
            let made = match self.source.take(output) {
                Ok(made) => made,
                Err(error) => return Ending::Failed(error),
            };
            for response in made {
                if let Err(ending) = self.send(response, responses).await {
                    return ending;
                }
                self.source.sent();
                idle_at = Instant::now() + self.source.patience();
            }
        }
        Ending::Finished
    }

    /// Queues jobs until [`Source::jobs_in_flight`] are, or the pool's
    /// queue is full; with none queued, waits for room.
    async fn fill(
        &mut self,
        jobs: &mut Jobs<S::Output>,
        responses: &ResponseSender<S::Response, S::Error>,
    ) -> Result<(), Ending<S::Error>> {
        while jobs.queued.len() < self.source.jobs_in_flight() {
            let job = jobs.spare.take().unwrap_or_else(|| self.source.next_job());
            match self.pool.try_submit_or_return(job) {
                Ok(handle) => jobs.queued.push_back(handle),
                Err(job) if jobs.queued.is_empty() => {
                    let handle = tokio::select! {
                        biased;
                        ending = interrupted(responses, self.deadline, &mut self.draining) => {
                            return Err(ending);
                        }
                        handle = self.pool.submit(job) => handle,
                    };
                    jobs.queued.push_back(handle);
                }
                Err(job) => {
                    jobs.spare = Some(job);
                    break;
                }
            }
        }
        Ok(())
    }

    /// Sends one response, waiting for room in the response channel.
    async fn send(
        &mut self,
        response: S::Response,
        responses: &ResponseSender<S::Response, S::Error>,
    ) -> Result<(), Ending<S::Error>> {
        tokio::select! {
            biased;
            ending = interrupted(responses, self.deadline, &mut self.draining) => Err(ending),
            permit = responses.groups.reserve() => match permit {
                Ok(permit) => {
                    permit.send((vec![Ok(response)], None));
                    Ok(())
                }
                Err(_) => Err(Ending::ClientGone),
            },
        }
    }
}

/// Completes with the reason a call must end early, whatever it waits for:
/// its client went away, its deadline passed, or the server drains (in
/// that order when several hold).
async fn interrupted<R, E>(
    responses: &ResponseSender<R, E>,
    deadline: Option<Instant>,
    draining: &mut watch::Receiver<bool>,
) -> Ending<E> {
    tokio::select! {
        biased;
        () = responses.groups.closed() => Ending::ClientGone,
        () = until(deadline) => Ending::DeadlineExceeded,
        () = until_draining(draining) => Ending::Draining,
    }
}

/// A call's jobs on the pool, oldest first, and the next one, made but not
/// yet queued for want of room.
struct Jobs<T> {
    queued: VecDeque<JobHandle<T>>,
    spare: Option<SourceJob<T>>,
}

/// The result of the next job to take, removed from `jobs`: the first
/// queued when `in_order`, else whichever ends first (the earlier queued
/// when both have). `jobs` must not be empty.
async fn next_ended<T>(jobs: &mut VecDeque<JobHandle<T>>, in_order: bool) -> Result<T, JobError> {
    std::future::poll_fn(|cx| {
        let candidates = if in_order { 1 } else { jobs.len() };
        let ended = jobs
            .iter_mut()
            .take(candidates)
            .enumerate()
            .find_map(|(at, job)| match Pin::new(job).poll(cx) {
                Poll::Ready(result) => Some((at, result)),
                Poll::Pending => None,
            });
        match ended {
            Some((at, result)) => {
                jobs.remove(at);
                Poll::Ready(result)
            }
            None => Poll::Pending,
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc as std_mpsc;

    use tokio_stream::StreamExt;

    use super::*;
    use crate::streaming::response_channel;

    /// Long enough for a job's result to land, short for a test.
    const SETTLE: Duration = Duration::from_millis(100);

    /// A source whose job `n` yields what `yields(n)` says (a panic for
    /// `None`), owing `count` responses; it records how it ended.
    struct Numbers {
        yields: fn(u32) -> Option<Vec<u32>>,
        made: u32,
        count: usize,
        sent: usize,
        taken: VecDeque<u32>,
        in_order: bool,
        patience: Duration,
        ended: Arc<Mutex<Vec<String>>>,
        cancelled: Arc<AtomicUsize>,
    }

    impl Numbers {
        fn new(count: usize, yields: fn(u32) -> Option<Vec<u32>>) -> Numbers {
            Numbers {
                yields,
                made: 0,
                count,
                sent: 0,
                taken: VecDeque::new(),
                in_order: true,
                patience: Duration::from_secs(10),
                ended: Arc::default(),
                cancelled: Arc::default(),
            }
        }
    }

    impl Source for Numbers {
        type Output = Vec<u32>;
        type Response = u32;
        type Error = String;

        fn next_job(&mut self) -> SourceJob<Vec<u32>> {
            let (n, yields, cancelled) = (self.made, self.yields, self.cancelled.clone());
            self.made += 1;
            Box::new(move |cancel: &CancelCheck| match yields(n) {
                Some(found) => found,
                None => {
                    // Runs until cancelled, or panics after a while.
                    let started = std::time::Instant::now();
                    while started.elapsed() < Duration::from_secs(5) {
                        if cancel.is_cancelled() {
                            cancelled.fetch_add(1, Ordering::SeqCst);
                            return Vec::new();
                        }
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    panic!("job {n} was never cancelled")
                }
            })
        }

        fn jobs_in_flight(&self) -> usize {
            3
        }

        fn in_order(&self) -> bool {
            self.in_order
        }

        fn take(&mut self, output: Result<Vec<u32>, JobError>) -> Result<Vec<u32>, String> {
            let found = output.map_err(|error| format!("job failed: {error:?}"))?;
            let owed = self.count - self.sent - self.taken.len();
            let found: Vec<u32> = found.into_iter().take(owed).collect();
            self.taken.extend(&found);
            Ok(found)
        }

        fn sent(&mut self) {
            self.sent += 1;
            self.taken.pop_front();
        }

        fn is_done(&self) -> bool {
            self.sent == self.count
        }

        fn patience(&self) -> Duration {
            self.patience
        }

        fn end(&mut self, ending: Ending<String>) -> Option<String> {
            let name = format!("{ending:?}");
            self.ended.lock().unwrap().push(name.clone());
            (!matches!(ending, Ending::Finished | Ending::ClientGone)).then_some(name)
        }
    }

    /// Starts `source` on `pool` (its first job queued as a service
    /// does), with `deadline` and `draining`: the driver's task, and what
    /// the transport reads.
    fn start(
        mut source: Numbers,
        pool: WorkerPool,
        deadline: Option<Instant>,
        draining: watch::Receiver<bool>,
    ) -> (
        tokio::task::JoinHandle<()>,
        crate::streaming::ResponseStream<u32, String>,
    ) {
        let first = pool
            .try_submit(source.next_job())
            .expect("room for the first");
        let slot = StreamSlot::new(());
        let (responses, transport) = response_channel(slot.clone());
        let driver = SourceDriver {
            source,
            pool,
            draining,
            deadline,
        };
        (tokio::spawn(driver.run(first, responses, slot)), transport)
    }

    /// Runs `source` as [`start`] does, to its end; returns every item the
    /// transport reads and how the source says it ended.
    async fn run(
        source: Numbers,
        pool: WorkerPool,
        deadline: Option<Instant>,
        draining: watch::Receiver<bool>,
    ) -> (Vec<Result<u32, String>>, Vec<String>) {
        let ended = source.ended.clone();
        let (running, transport) = start(source, pool, deadline, draining);
        let items = tokio::time::timeout(Duration::from_secs(20), transport.collect::<Vec<_>>())
            .await
            .expect("the call ends");
        running.await.expect("the driver ends");
        let ended = ended.lock().unwrap().clone();
        (items, ended)
    }

    /// Waits until no job of `pool` is queued or running, and returns how
    /// many were skipped (dropped before they started).
    async fn settled(pool: &WorkerPool) -> u64 {
        let deadline = Instant::now() + Duration::from_secs(10);
        while pool.stats().in_flight > 0 {
            assert!(Instant::now() < deadline, "{:?}", pool.stats());
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        pool.stats().skipped
    }

    fn never_draining() -> watch::Receiver<bool> {
        let (_, draining) = watch::channel(false);
        draining
    }

    fn oks(values: &[u32]) -> Vec<Result<u32, String>> {
        values.iter().map(|&value| Ok(value)).collect()
    }

    #[tokio::test]
    async fn a_call_sends_what_it_owes_in_job_order_and_finishes() {
        // Job n finds n twice; five are owed, so job 2's second is dropped.
        let source = Numbers::new(5, |n| Some(vec![n, n]));
        let (items, ended) = run(source, WorkerPool::new(2, 8), None, never_draining()).await;
        assert_eq!(items, oks(&[0, 0, 1, 1, 2]));
        assert_eq!(ended, ["Finished"]);
    }

    #[tokio::test]
    async fn a_job_the_pool_has_no_room_for_is_queued_next_not_lost() {
        // One worker and one place: most jobs wait as the spare.
        let source = Numbers::new(6, |n| Some(vec![n]));
        let (items, _) = run(source, WorkerPool::new(1, 1), None, never_draining()).await;
        assert_eq!(items, oks(&[0, 1, 2, 3, 4, 5]));
    }

    #[tokio::test]
    async fn a_call_that_finds_nothing_within_its_patience_ends_idle() {
        let mut source = Numbers::new(2, |n| Some(if n == 0 { vec![7] } else { Vec::new() }));
        source.patience = Duration::from_millis(600);
        let (items, ended) = run(source, WorkerPool::new(2, 8), None, never_draining()).await;
        assert_eq!(items[..1], oks(&[7]));
        assert_eq!(items[1..], [Err("Idle(600ms)".to_string())]);
        assert_eq!(ended, ["Idle(600ms)"]);
    }

    #[tokio::test]
    async fn patience_is_counted_from_the_last_response_not_the_start() {
        // A response every 40 ms or so on one worker, for 480 ms in all,
        // against a patience of 300 ms.
        let mut source = Numbers::new(12, |n| {
            std::thread::sleep(Duration::from_millis(40));
            Some(vec![n])
        });
        source.patience = Duration::from_millis(300);
        let (items, ended) = run(source, WorkerPool::new(1, 8), None, never_draining()).await;
        assert_eq!(items, oks(&(0..12).collect::<Vec<_>>()));
        assert_eq!(ended, ["Finished"]);
    }

    /// Jobs that run until cancelled: the three queued each stopped
    /// running, or never started.
    async fn assert_all_stopped(pool: &WorkerPool, cancelled: &AtomicUsize) {
        let skipped = settled(pool).await;
        let stopped = cancelled.load(Ordering::SeqCst) as u64;
        assert_eq!(stopped + skipped, 3, "{stopped} stopped, {skipped} skipped");
    }

    #[tokio::test]
    async fn the_deadline_and_draining_end_a_call_and_cancel_its_jobs() {
        let source = Numbers::new(2, |_| None);
        let cancelled = source.cancelled.clone();
        let pool = WorkerPool::new(2, 8);
        let deadline = Some(Instant::now() + Duration::from_millis(50));
        let (items, ended) = run(source, pool.clone(), deadline, never_draining()).await;
        assert_eq!(items, [Err("DeadlineExceeded".to_string())]);
        assert_eq!(ended, ["DeadlineExceeded"]);
        assert_all_stopped(&pool, &cancelled).await;

        let (drain, draining) = watch::channel(false);
        let source = Numbers::new(2, |_| None);
        let cancelled = source.cancelled.clone();
        let pool = WorkerPool::new(2, 8);
        let call = tokio::spawn(run(source, pool.clone(), None, draining));
        tokio::time::sleep(SETTLE).await;
        drain.send(true).unwrap();
        let (items, ended) = call.await.unwrap();
        assert_eq!(items, [Err("Draining".to_string())]);
        assert_eq!(ended, ["Draining"]);
        assert_all_stopped(&pool, &cancelled).await;
    }

    #[tokio::test]
    async fn a_client_that_goes_away_ends_the_call_and_cancels_its_jobs() {
        let source = Numbers::new(3, |n| if n == 0 { Some(vec![1]) } else { None });
        let ended = source.ended.clone();
        let cancelled = source.cancelled.clone();
        let pool = WorkerPool::new(2, 8);
        let (running, mut transport) = start(source, pool.clone(), None, never_draining());
        assert_eq!(transport.next().await, Some(Ok(1)));
        drop(transport);
        tokio::time::timeout(Duration::from_secs(10), running)
            .await
            .expect("the driver ends")
            .unwrap();
        assert_eq!(*ended.lock().unwrap(), ["ClientGone"]);
        // Jobs 1 to 3 were queued after job 0 answered.
        assert_all_stopped(&pool, &cancelled).await;
    }

    #[tokio::test]
    async fn a_job_that_fails_ends_the_call_after_what_was_sent() {
        let source = Numbers::new(3, |n| {
            if n == 1 {
                panic!("job 1")
            } else {
                Some(vec![n])
            }
        });
        let (items, ended) = run(source, WorkerPool::new(1, 8), None, never_draining()).await;
        assert_eq!(items[..1], oks(&[0]));
        assert!(
            matches!(&items[1], Err(error) if error.starts_with("Failed(")),
            "{items:?}"
        );
        assert_eq!(items.len(), 2);
        assert_eq!(ended.len(), 1);
    }

    /// Two jobs on two workers: the first held until `release` is sent,
    /// the second ending at once (`ended` says when). Each hands back as
    /// many items as its place in the queue.
    fn held_then_quick(
        pool: &WorkerPool,
    ) -> (
        VecDeque<JobHandle<Vec<u8>>>,
        std_mpsc::Sender<()>,
        std_mpsc::Receiver<()>,
    ) {
        let (release, held) = std_mpsc::channel::<()>();
        let (ended, quick_ended) = std_mpsc::channel::<()>();
        let first = pool
            .try_submit(move |_: &CancelCheck| {
                held.recv().ok();
                vec![1]
            })
            .expect("room for two");
        let second = pool
            .try_submit(move |_: &CancelCheck| {
                ended.send(()).ok();
                vec![2, 2]
            })
            .expect("room for two");
        (VecDeque::from([first, second]), release, quick_ended)
    }

    #[tokio::test]
    async fn out_of_order_the_job_that_ends_first_is_taken_first() {
        let pool = WorkerPool::new(2, 4);
        let (mut jobs, release, _) = held_then_quick(&pool);
        let first_taken =
            tokio::time::timeout(Duration::from_secs(10), next_ended(&mut jobs, false))
                .await
                .expect("the quick job is taken while the other is held");
        assert_eq!(first_taken.expect("ran").len(), 2);
        assert_eq!(jobs.len(), 1, "the held job is still queued");
        release.send(()).expect("the held job waits");
        let last = next_ended(&mut jobs, false).await.expect("ran");
        assert_eq!(last.len(), 1);
        assert!(jobs.is_empty());
    }

    #[tokio::test]
    async fn in_order_the_first_job_queued_is_waited_for() {
        let pool = WorkerPool::new(2, 4);
        let (mut jobs, release, quick_ended) = held_then_quick(&pool);
        quick_ended.recv().expect("the quick job runs");
        tokio::time::sleep(SETTLE).await;
        let early = tokio::time::timeout(SETTLE, next_ended(&mut jobs, true)).await;
        assert!(early.is_err(), "nothing is taken before the first job ends");
        assert_eq!(jobs.len(), 2);
        release.send(()).expect("the held job waits");
        assert_eq!(next_ended(&mut jobs, true).await.expect("ran").len(), 1);
        assert_eq!(next_ended(&mut jobs, true).await.expect("ran").len(), 2);
    }
}
