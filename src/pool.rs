//! A fixed pool of worker threads with a bounded queue, for CPU-bound jobs.
//!
//! Solving is CPU work: run on the async runtime, one hard puzzle would stall
//! every connection served by that runtime thread. So each puzzle (or batch
//! of puzzles) becomes a job for this pool, and the async side awaits a
//! [`JobHandle`].
//!
//! Why not an existing pool: `tokio::task::spawn_blocking` queues without
//! bound and grows to hundreds of threads; rayon's queue is unbounded and
//! cannot shed load. What the service needs is small: a fixed number of
//! threads, a queue of known depth, and three ways in:
//!
//! * [`WorkerPool::try_submit`] fails at once when the queue is full, so a
//!   unary call can answer RESOURCE_EXHAUSTED instead of waiting (load
//!   shedding);
//! * [`WorkerPool::submit`] waits asynchronously for room, so a stream pushes
//!   back on its client instead of buffering;
//! * [`JobHandle::wait`] lets synchronous callers (the command line's local
//!   mode) use the same pool.
//!
//! Admission is a semaphore of `workers + queue_depth` slots; a job holds its
//! slot until it finishes. The queue itself is a crossbeam MPMC channel,
//! which the slots keep bounded.
//!
//! A job whose [`JobHandle`] is dropped is cancelled: if it has not started it
//! is skipped, and a running job sees [`CancelCheck::is_cancelled`] turn
//! true. A job that panics reports [`JobError::Panicked`]; its worker thread
//! catches the panic and carries on, so the pool keeps its size.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};

use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError, oneshot};

use crate::wording::counted;

type Job = Box<dyn FnOnce() + Send>;

/// A handle to the pool; clones share the same workers and queue. The
/// workers exit once every handle is dropped and the queue is drained.
#[derive(Clone)]
pub struct WorkerPool {
    shared: Arc<Shared>,
}

struct Shared {
    jobs: crossbeam_channel::Sender<Job>,
    slots: Arc<Semaphore>,
    workers: usize,
    queue_depth: usize,
    counters: Arc<Counters>,
}

#[derive(Default)]
struct Counters {
    running: AtomicUsize,
    completed: AtomicU64,
    skipped: AtomicU64,
    panicked: AtomicU64,
}

/// A snapshot of what the pool is doing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Worker threads.
    pub workers: usize,
    /// Most jobs that may wait while all workers are busy.
    pub queue_depth: usize,
    /// Jobs admitted and not yet finished (waiting or running).
    pub in_flight: usize,
    /// Jobs running now.
    pub running: usize,
    /// Jobs that ran to the end (including those that panicked).
    pub completed: u64,
    /// Jobs dropped before they started because their handle was dropped.
    pub skipped: u64,
    /// Jobs that panicked.
    pub panicked: u64,
}

/// The queue is full: the caller should shed the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} busy and {} already queued",
    if *workers == 1 { "the 1 worker is".to_string() } else { format!("all {workers} workers are") },
    counted(*queue_depth as u64, "job is", "jobs are")
)]
pub struct QueueFull {
    /// Worker threads of the pool.
    pub workers: usize,
    /// Depth of its queue.
    pub queue_depth: usize,
}

/// Why a job produced no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    /// The job panicked; the message is the panic's.
    #[error("job panicked: {0}")]
    Panicked(String),
    /// The pool shut down before the job ran.
    #[error("the worker pool shut down before the job ran")]
    Abandoned,
}

/// Lets a running job ask whether its result is still wanted.
pub struct CancelCheck<'a>(pub(crate) &'a (dyn Fn() -> bool + 'a));

impl CancelCheck<'_> {
    /// True once the job's [`JobHandle`] has been dropped.
    pub fn is_cancelled(&self) -> bool {
        (self.0)()
    }
}

/// The pending result of a job: a future, or [`JobHandle::wait`] to block.
/// Dropping it cancels the job; [`JobHandle::stop`] asks it to stop but
/// keeps what it returns.
#[must_use = "dropping a JobHandle cancels its job"]
pub struct JobHandle<T> {
    result: oneshot::Receiver<Result<T, JobError>>,
    stop: Arc<AtomicBool>,
}

impl<T> JobHandle<T> {
    /// Makes [`CancelCheck::is_cancelled`] true for the job, as dropping
    /// the handle would, while its result can still be awaited: a job that
    /// works through a list can hand back what it finished.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Blocks the current thread until the job finishes. Must not be called
    /// from async code.
    pub fn wait(self) -> Result<T, JobError> {
        self.result
            .blocking_recv()
            .unwrap_or(Err(JobError::Abandoned))
    }
}

impl<T> Future for JobHandle<T> {
    type Output = Result<T, JobError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.result)
            .poll(cx)
            .map(|received| received.unwrap_or(Err(JobError::Abandoned)))
    }
}

impl WorkerPool {
    /// Starts `workers` threads (at least one) with room for `queue_depth`
    /// jobs to wait while all of them are busy.
    pub fn new(workers: usize, queue_depth: usize) -> WorkerPool {
        let workers = workers.max(1);
        let (jobs, queue) = crossbeam_channel::unbounded::<Job>();
        for index in 0..workers {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("solver-{index}"))
                .spawn(move || {
                    for job in queue {
                        job();
                    }
                })
                .expect("spawning a worker thread");
        }
        WorkerPool {
            shared: Arc::new(Shared {
                jobs,
                slots: Arc::new(Semaphore::new(workers + queue_depth)),
                workers,
                queue_depth,
                counters: Arc::default(),
            }),
        }
    }

    /// Queues `task` if there is room, else fails at once with [`QueueFull`].
    pub fn try_submit<T, F>(&self, task: F) -> Result<JobHandle<T>, QueueFull>
    where
        T: Send + 'static,
        F: FnOnce(&CancelCheck) -> T + Send + 'static,
    {
        self.try_submit_or_return(task).map_err(|_| QueueFull {
            workers: self.shared.workers,
            queue_depth: self.shared.queue_depth,
        })
    }

    /// Queues `task` if there is room now; a full queue hands it back, so
    /// that the caller can wait with [`WorkerPool::submit`] instead.
    pub fn try_submit_or_return<T, F>(&self, task: F) -> Result<JobHandle<T>, F>
    where
        T: Send + 'static,
        F: FnOnce(&CancelCheck) -> T + Send + 'static,
    {
        match self.shared.slots.clone().try_acquire_owned() {
            Ok(slot) => Ok(self.enqueue(slot, task)),
            Err(TryAcquireError::NoPermits | TryAcquireError::Closed) => Err(task),
        }
    }

    /// Queues all of `tasks` if there is room for every one, else none of
    /// them, failing at once with [`QueueFull`]: for a request whose parts
    /// are all solved or all shed.
    pub fn try_submit_all<T, F>(&self, tasks: Vec<F>) -> Result<Vec<JobHandle<T>>, QueueFull>
    where
        T: Send + 'static,
        F: FnOnce(&CancelCheck) -> T + Send + 'static,
    {
        let full = || QueueFull {
            workers: self.shared.workers,
            queue_depth: self.shared.queue_depth,
        };
        let count = u32::try_from(tasks.len()).map_err(|_| full())?;
        let mut slots = self
            .shared
            .slots
            .clone()
            .try_acquire_many_owned(count)
            .map_err(|_| full())?;
        Ok(tasks
            .into_iter()
            .map(|task| {
                let slot = slots.split(1).expect("one slot was taken per task");
                self.enqueue(slot, task)
            })
            .collect())
    }

    /// The number of worker threads.
    pub fn workers(&self) -> usize {
        self.shared.workers
    }

    /// Queues `task`, waiting (asynchronously) until there is room.
    pub async fn submit<T, F>(&self, task: F) -> JobHandle<T>
    where
        T: Send + 'static,
        F: FnOnce(&CancelCheck) -> T + Send + 'static,
    {
        let slot = self
            .shared
            .slots
            .clone()
            .acquire_owned()
            .await
            .expect("the pool never closes its semaphore");
        self.enqueue(slot, task)
    }

    /// What the pool is doing now.
    pub fn stats(&self) -> PoolStats {
        let shared = &self.shared;
        let capacity = shared.workers + shared.queue_depth;
        PoolStats {
            workers: shared.workers,
            queue_depth: shared.queue_depth,
            in_flight: capacity - shared.slots.available_permits(),
            running: shared.counters.running.load(Ordering::Relaxed),
            completed: shared.counters.completed.load(Ordering::Relaxed),
            skipped: shared.counters.skipped.load(Ordering::Relaxed),
            panicked: shared.counters.panicked.load(Ordering::Relaxed),
        }
    }

    fn enqueue<T, F>(&self, slot: OwnedSemaphorePermit, task: F) -> JobHandle<T>
    where
        T: Send + 'static,
        F: FnOnce(&CancelCheck) -> T + Send + 'static,
    {
        let (sender, result) = oneshot::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let counters = self.shared.counters.clone();
        let job: Job = Box::new(move || {
            if sender.is_closed() {
                counters.skipped.fetch_add(1, Ordering::Relaxed);
                return;
            }
            counters.running.fetch_add(1, Ordering::Relaxed);
            let is_cancelled = || sender.is_closed() || stopped.load(Ordering::Relaxed);
            let outcome = catch_unwind(AssertUnwindSafe(|| task(&CancelCheck(&is_cancelled))));
            counters.running.fetch_sub(1, Ordering::Relaxed);
            counters.completed.fetch_add(1, Ordering::Relaxed);
            let outcome = outcome.map_err(|payload| {
                counters.panicked.fetch_add(1, Ordering::Relaxed);
                JobError::Panicked(panic_message(payload.as_ref()))
            });
            // Free the slot before handing over the result, so that whoever
            // receives it and submits more work finds the slot free.
            drop(slot);
            // The receiver may be gone by now; nothing is owed to anyone then.
            let _ = sender.send(outcome);
        });
        self.shared
            .jobs
            .send(job)
            .expect("workers live as long as the pool");
        JobHandle { result, stop }
    }
}

/// The number of cores this process may use (at least 1): the default size
/// of a pool.
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// The text of a panic payload, when it has one.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    /// Blocks one worker until the returned sender is dropped or sent to.
    fn occupy(pool: &WorkerPool) -> (mpsc::Sender<()>, JobHandle<()>) {
        let (release, gate) = mpsc::channel::<()>();
        let (started_tx, started) = mpsc::channel();
        let handle = pool
            .try_submit(move |_| {
                started_tx.send(()).unwrap();
                let _ = gate.recv();
            })
            .unwrap();
        started.recv().unwrap();
        (release, handle)
    }

    fn wait_until(what: &str, condition: impl Fn() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !condition() {
            assert!(Instant::now() < deadline, "timed out waiting until {what}");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn runs_jobs_and_returns_their_results() {
        let pool = WorkerPool::new(2, 4);
        let handles: Vec<_> = (0..6)
            .map(|i| pool.try_submit(move |_| i * i).unwrap())
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.wait().unwrap()).collect();
        assert_eq!(results, [0, 1, 4, 9, 16, 25]);
    }

    #[test]
    fn sheds_when_workers_and_queue_are_full() {
        let pool = WorkerPool::new(1, 1);
        let (release, running) = occupy(&pool);
        let queued = pool.try_submit(|_| 7).unwrap();
        let refused = pool.try_submit(|_| 8).err().expect("the queue is full");
        assert_eq!(
            refused,
            QueueFull {
                workers: 1,
                queue_depth: 1
            }
        );
        assert_eq!(pool.stats().in_flight, 2);
        release.send(()).unwrap();
        running.wait().unwrap();
        assert_eq!(queued.wait(), Ok(7));
        assert_eq!(pool.try_submit(|_| 9).unwrap().wait(), Ok(9));
    }

    #[test]
    fn a_dropped_handle_skips_a_queued_job() {
        let pool = WorkerPool::new(1, 4);
        let (release, running) = occupy(&pool);
        let queued = pool.try_submit(|_| panic!("must not run")).unwrap();
        drop(queued);
        release.send(()).unwrap();
        running.wait().unwrap();
        wait_until("the queued job is skipped", || pool.stats().skipped == 1);
        assert_eq!(pool.stats().panicked, 0);
    }

    #[test]
    fn a_dropped_handle_cancels_a_running_job() {
        let pool = WorkerPool::new(1, 0);
        let (started_tx, started) = mpsc::channel();
        let handle = pool
            .try_submit(move |cancel| {
                started_tx.send(()).unwrap();
                while !cancel.is_cancelled() {
                    std::thread::yield_now();
                }
            })
            .unwrap();
        started.recv().unwrap();
        drop(handle);
        wait_until("the cancelled job stops", || pool.stats().in_flight == 0);
        assert_eq!(pool.stats().completed, 1);
    }

    #[test]
    fn a_stopped_job_returns_what_it_finished() {
        let pool = WorkerPool::new(1, 0);
        let (started_tx, started) = mpsc::channel();
        let handle = pool
            .try_submit(move |cancel| {
                started_tx.send(()).unwrap();
                let mut spins = 0u64;
                while !cancel.is_cancelled() {
                    spins += 1;
                    std::thread::yield_now();
                }
                format!("stopped after {spins} spins")
            })
            .unwrap();
        started.recv().unwrap();
        handle.stop();
        let result = handle.wait();
        assert!(
            matches!(&result, Ok(text) if text.starts_with("stopped after")),
            "the job saw the stop and its own result came back: {result:?}"
        );
    }

    #[test]
    fn a_panic_is_reported_and_the_worker_survives() {
        let pool = WorkerPool::new(1, 0);
        let failed = pool
            .try_submit(|_| -> u32 { panic!("boom") })
            .unwrap()
            .wait();
        assert_eq!(failed, Err(JobError::Panicked("boom".into())));
        assert_eq!(pool.try_submit(|_| 5).unwrap().wait(), Ok(5));
        let stats = pool.stats();
        assert_eq!((stats.workers, stats.panicked, stats.completed), (1, 1, 2));
    }

    #[tokio::test]
    async fn submit_waits_for_room_instead_of_failing() {
        let pool = WorkerPool::new(1, 0);
        let (release, running) = occupy(&pool);
        // While the only slot is taken, submitting does not complete: it
        // has not handed over a job (a submit that did not wait would be
        // ready at once, with its job queued past the pool's bound).
        let mut submitting = Box::pin(pool.submit(|_| 3));
        let mut context = Context::from_waker(std::task::Waker::noop());
        assert!(submitting.as_mut().poll(&mut context).is_pending());
        assert_eq!(
            pool.stats().in_flight,
            1,
            "only the running job is admitted"
        );
        release.send(()).unwrap();
        tokio::task::spawn_blocking(move || running.wait())
            .await
            .unwrap()
            .unwrap();
        let job = submitting.await;
        assert_eq!(job.await, Ok(3));
    }
}
