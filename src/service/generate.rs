//! The Generate call: fresh puzzles streamed as the worker pool finds
//! them.
//!
//! A request is checked whole before anything runs ([`parse_request`]):
//! every field that could make it unmeetable or unbounded is refused with
//! INVALID_ARGUMENT naming the field. The call then takes a slot under
//! `--max-open-streams`, as SolveStream does, since it holds a response
//! stream for as long as it runs, and its first job must find room in the
//! pool's queue or the call is shed.
//!
//! A driver task runs the attempts in jobs on the pool (the domain's
//! [`Seeds`]: one attempt, then twice as many per job up to 16, or one
//! climb a job), at most [`JOBS_IN_FLIGHT`] at once. A request with a
//! seed gets its puzzles in seed order, so the same request and seed give
//! the same puzzles whatever the worker count. One without (seed 0) has
//! nothing to reproduce and gets each job's puzzles as soon as the job
//! ends: a climb that finds a puzzle rated 10 need not wait for the climb
//! before it to run out, which took a second or more off the median of a
//! 10.0 call on two workers (docs/generation.md).
//! It sends through a channel of [`RESPONSE_BUFFER`] responses: a client
//! that stops reading stops the driver (HTTP/2 flow control fills, then
//! the channel), and a client that goes away closes the channel, which
//! ends the driver and drops its jobs, cancelling them.
//!
//! The call ends, after the puzzles found so far, when its deadline passes
//! (DEADLINE_EXCEEDED), when the server drains (UNAVAILABLE), or when
//! `--max-generate-wait` passes without a puzzle (RESOURCE_EXHAUSTED with
//! an ErrorInfo saying what was asked and how far it got).

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_stream::Stream;
use tonic::{Code, Status};

use super::call_log::log_failed_call;
use super::error::{GenerateProgress, ServiceError};
use super::logic_messages::pb_grade;
use super::metrics::Metrics;
use super::rpc::Rpc;
use super::state::SudokuService;
use crate::domain::generate::{
    self, Bound, BoundError, Generated, Request, Seeds, Symmetry, attempt_each,
};
use crate::domain::logic::{Level, Rating};
use crate::pb;
use crate::pool::{JobError, JobHandle, WorkerPool};
use crate::streaming::StreamSlot;

/// Jobs of one call on the pool at once: two keep two workers busy on a
/// long request without one call taking a large pool.
pub const JOBS_IN_FLIGHT: usize = 2;

/// Responses buffered between the driver and the transport.
pub const RESPONSE_BUFFER: usize = 4;

/// What one job hands back: an entry per attempt it finished.
type Attempts = Vec<Option<Generated>>;

/// A checked request: what each puzzle must be, how many, from which seed.
#[derive(Debug, Clone, Copy)]
pub struct Order {
    /// The target each puzzle must meet.
    pub request: Request,
    /// How many puzzles to send.
    pub count: usize,
    /// The seed of the first attempt.
    pub seed: u64,
    /// Whether the request named the seed, and so wants its puzzles in
    /// seed order; a random seed (0) takes them as jobs end.
    pub seeded: bool,
}

/// Checks `request` against `max_count`, naming the field at fault.
pub fn parse_request(
    request: &pb::GenerateRequest,
    max_count: usize,
) -> Result<Order, ServiceError> {
    let invalid = |field: &'static str, reason: String| ServiceError::InvalidGenerateRequest {
        field,
        reason,
    };
    let count = (request.count as usize).max(1);
    if count > max_count {
        return Err(invalid(
            "count",
            format!("count {count} is over the limit of {max_count} (--max-generate-count)"),
        ));
    }
    let level = match pb::Level::try_from(request.level) {
        Ok(pb::Level::Unspecified) => None,
        Ok(level) => Some(domain_level(level)),
        Err(_) => return Err(invalid("level", unknown_value("Level", request.level))),
    };
    let symmetry = pb::Symmetry::try_from(request.symmetry)
        .map(domain_symmetry)
        .map_err(|_| invalid("symmetry", unknown_value("Symmetry", request.symmetry)))?;
    let (min_rating, max_rating) = rating_bounds(request)?;
    let target = Request {
        symmetry,
        minimal: request.minimal,
        level,
        min_rating,
        max_rating,
        skip_grade: request.skip_grade,
    };
    target.check().map_err(|error| {
        let field = match error {
            generate::RequestError::MinAboveMax { .. } => "min_rating",
            generate::RequestError::MaxBelowEasiest { .. } => "max_rating",
            generate::RequestError::LevelOutsideRatings { .. } => "level",
            generate::RequestError::TargetWithoutGrade => "skip_grade",
        };
        invalid(field, error.to_string())
    })?;
    let seed = match request.seed {
        0 => generate::clock_seed(),
        seed => seed,
    };
    Ok(Order {
        request: target,
        count,
        seed,
        seeded: request.seed != 0,
    })
}

fn unknown_value(enum_name: &str, value: i32) -> String {
    format!("{value} is not a value of sudoku.v1.{enum_name}")
}

/// The rating bounds of `request` (0 for none, else a number on the
/// scale, 0 to 20), as the tenths they admit.
fn rating_bounds(
    request: &pb::GenerateRequest,
) -> Result<(Option<Rating>, Option<Rating>), ServiceError> {
    let given = |value: f64| (value != 0.0).then_some(value);
    generate::rating_bounds(given(request.min_rating), given(request.max_rating)).map_err(|error| {
        let (field, reason) = match error {
            BoundError::OffScale {
                bound: Bound::Min, ..
            } => ("min_rating", format!("min_rating {error}")),
            BoundError::OffScale {
                bound: Bound::Max, ..
            }
            | BoundError::MaxBelowEasiest { .. } => ("max_rating", format!("max_rating {error}")),
            _ => ("min_rating", error.to_string()),
        };
        ServiceError::InvalidGenerateRequest { field, reason }
    })
}

fn domain_level(level: pb::Level) -> Level {
    match level {
        pb::Level::Unspecified | pb::Level::Easy => Level::Easy,
        pb::Level::Medium => Level::Medium,
        pb::Level::Hard => Level::Hard,
        pb::Level::Diabolical => Level::Diabolical,
        pb::Level::Extreme => Level::Extreme,
    }
}

fn domain_symmetry(symmetry: pb::Symmetry) -> Symmetry {
    match symmetry {
        pb::Symmetry::Unspecified | pb::Symmetry::None => Symmetry::None,
        pb::Symmetry::Rotate180 => Symmetry::Rotate180,
        pb::Symmetry::Rotate90 => Symmetry::Rotate90,
        pb::Symmetry::Mirror => Symmetry::Mirror,
        pb::Symmetry::Flip => Symmetry::Flip,
        pb::Symmetry::Diagonal => Symmetry::Diagonal,
        pb::Symmetry::Antidiagonal => Symmetry::Antidiagonal,
    }
}

/// The protobuf form of a generated puzzle.
pub fn pb_generated(generated: &Generated) -> pb::GenerateResponse {
    pb::GenerateResponse {
        puzzle: generated.puzzle.to_line(),
        solution: generated.solution.to_line(),
        grade: generated.grade.as_ref().map(pb_grade),
        clues: generated.puzzle.given_count() as u32,
        seed: generated.seed,
    }
}

/// The responses of a Generate call as the transport reads them: the
/// puzzles, then the status the call ended with if it failed. It holds
/// the call's stream slot until the transport is done with it.
pub struct GenerateStream {
    puzzles: mpsc::Receiver<pb::GenerateResponse>,
    end: Arc<Mutex<Option<Status>>>,
    _slot: Arc<StreamSlot>,
}

impl Stream for GenerateStream {
    type Item = Result<pb::GenerateResponse, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match self.puzzles.poll_recv(cx) {
            Poll::Ready(Some(puzzle)) => Poll::Ready(Some(Ok(puzzle))),
            Poll::Ready(None) => {
                let status = self
                    .end
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .take();
                Poll::Ready(status.map(Err))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl SudokuService {
    /// Starts a Generate call: checks the request, takes a stream slot,
    /// queues the first job (or sheds the call), and hands the rest to a
    /// driver task.
    pub(super) fn start_generate(
        &self,
        request: &pb::GenerateRequest,
        deadline: Option<Instant>,
    ) -> Result<GenerateStream, Status> {
        let order = parse_request(request, self.limits.max_generate_count)
            .map_err(|error| self.refuse_generate(error))?;
        let permit = self.admit_stream(Rpc::Generate).inspect_err(|status| {
            self.metrics.call_finished(Rpc::Generate, status.code());
            log_failed_call("Generate", status, true);
        })?;
        let mut seeds = Seeds::new(&order.request, order.seed);
        let grade_time = Some(self.limits.max_grade_time);
        let first = self
            .pool
            .try_submit(job(order.request, seeds.next_job(), grade_time))
            .map_err(|full| self.refuse_generate(full.into()))?;
        let (puzzles, receiver) = mpsc::channel(RESPONSE_BUFFER);
        let end = Arc::new(Mutex::new(None));
        let driver = Driver {
            order,
            seeds,
            pool: self.pool.clone(),
            wait: self.limits.generate_wait(&order.request),
            grade_time,
            deadline,
            draining: self.draining.clone(),
            metrics: self.metrics.clone(),
            puzzles,
            end: end.clone(),
            made: 0,
            attempts: 0,
        };
        tokio::spawn(driver.run(first));
        Ok(GenerateStream {
            puzzles: receiver,
            end,
            _slot: StreamSlot::new((permit, self.metrics.stream_opened())),
        })
    }
}

impl SudokuService {
    /// The status of a Generate call refused before it started, counted
    /// (as a shed if the server was full) and logged.
    fn refuse_generate(&self, error: ServiceError) -> Status {
        let shed = error.is_shed();
        let status = Status::from(error);
        if shed {
            self.metrics.call_shed(Rpc::Generate, status.code());
        } else {
            self.metrics.call_finished(Rpc::Generate, status.code());
        }
        log_failed_call("Generate", &status, shed);
        status
    }
}

/// A job of attempts on `seeds`, each graded within `grade_time`
/// (`--max-grade-time`), which stops early once it is cancelled.
fn job(
    request: Request,
    seeds: Vec<u64>,
    grade_time: Option<Duration>,
) -> impl FnOnce(&crate::pool::CancelCheck) -> Attempts + Send + 'static {
    move |cancel| attempt_each(&request, &seeds, grade_time, &|| cancel.is_cancelled())
}

/// Why a driver stopped before its count.
enum Stop {
    /// The client went away: nothing more to send.
    ClientGone,
    /// The call ends with this error, after the puzzles sent.
    Error(ServiceError),
}

/// One Generate call's work: its jobs, its progress, where it sends.
struct Driver {
    order: Order,
    seeds: Seeds,
    pool: WorkerPool,
    /// How long to search for the next puzzle, and the flag that set it.
    wait: (Duration, &'static str),
    /// Each attempt's grading time (`--max-grade-time`).
    grade_time: Option<Duration>,
    deadline: Option<Instant>,
    draining: watch::Receiver<bool>,
    metrics: Arc<Metrics>,
    puzzles: mpsc::Sender<pb::GenerateResponse>,
    end: Arc<Mutex<Option<Status>>>,
    made: usize,
    attempts: u64,
}

impl Driver {
    /// Runs the call to its end, starting with the `first` job queued.
    async fn run(mut self, first: JobHandle<Attempts>) {
        let outcome = self.generate(first).await;
        let code = match outcome {
            Ok(()) => Code::Ok,
            Err(Stop::ClientGone) => Code::Cancelled,
            Err(Stop::Error(error)) => {
                let status = Status::from(error);
                log_failed_call("Generate", &status, false);
                let code = status.code();
                *self
                    .end
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(status);
                code
            }
        };
        self.metrics.generate_attempts(self.attempts);
        self.metrics.call_finished(Rpc::Generate, code);
        // Dropping the sender ends the responses, with `end` after them.
    }

    /// Runs jobs and sends their puzzles until the count is made.
    async fn generate(&mut self, first: JobHandle<Attempts>) -> Result<(), Stop> {
        let mut jobs = VecDeque::from([first]);
        let mut give_up_at = Instant::now() + self.wait.0;
        while self.made < self.order.count {
            self.fill(&mut jobs).await?;
            let attempts = tokio::select! {
                biased;
                () = self.puzzles.closed() => return Err(Stop::ClientGone),
                () = self.stopping() => return Err(self.stop_reason()),
                () = tokio::time::sleep_until(give_up_at) => {
                    return Err(Stop::Error(self.gave_up()));
                }
                attempts = next_ended(&mut jobs, self.order.seeded) => {
                    attempts.map_err(job_failed)?
                }
            };
            for found in attempts {
                self.attempts += 1;
                let Some(generated) = found else { continue };
                self.send(&generated).await?;
                give_up_at = Instant::now() + self.wait.0;
                if self.made == self.order.count {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Queues jobs until [`JOBS_IN_FLIGHT`] are, or the pool's queue is
    /// full; with none queued, waits for room.
    async fn fill(&mut self, jobs: &mut VecDeque<JobHandle<Attempts>>) -> Result<(), Stop> {
        while jobs.len() < JOBS_IN_FLIGHT {
            // The seeds after this job's, kept only once the job is queued.
            let mut after = self.seeds.clone();
            let task = job(self.order.request, after.next_job(), self.grade_time);
            match self.pool.try_submit_or_return(task) {
                Ok(handle) => {
                    self.seeds = after;
                    jobs.push_back(handle);
                }
                Err(task) if jobs.is_empty() => {
                    let handle = tokio::select! {
                        biased;
                        () = self.puzzles.closed() => return Err(Stop::ClientGone),
                        () = self.stopping() => return Err(self.stop_reason()),
                        handle = self.pool.submit(task) => handle,
                    };
                    self.seeds = after;
                    jobs.push_back(handle);
                }
                Err(_) => break,
            }
        }
        Ok(())
    }

    /// Sends one puzzle, waiting for room in the response channel.
    async fn send(&mut self, generated: &Generated) -> Result<(), Stop> {
        let response = pb_generated(generated);
        tokio::select! {
            biased;
            () = self.stopping() => return Err(self.stop_reason()),
            sent = self.puzzles.send(response) => sent.map_err(|_| Stop::ClientGone)?,
        }
        self.made += 1;
        self.metrics
            .generated(generated.grade.as_ref().map(|grade| grade.level()));
        Ok(())
    }

    /// Completes once the call must stop: its deadline passed, or the
    /// server is draining.
    async fn stopping(&self) {
        let mut draining = self.draining.clone();
        let deadline = async {
            match self.deadline {
                Some(deadline) => tokio::time::sleep_until(deadline).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = deadline => {}
            _ = draining.wait_for(|draining| *draining) => {}
        }
    }

    /// Why [`Driver::stopping`] completed.
    fn stop_reason(&self) -> Stop {
        let progress = self.progress();
        if self
            .deadline
            .is_some_and(|deadline| deadline <= Instant::now())
        {
            Stop::Error(ServiceError::GenerateDeadlineExceeded { progress })
        } else {
            Stop::Error(ServiceError::GenerateDraining { progress })
        }
    }

    fn gave_up(&self) -> ServiceError {
        ServiceError::GenerateGaveUp {
            progress: self.progress(),
            waited: self.wait.0,
            flag: self.wait.1,
        }
    }

    fn progress(&self) -> GenerateProgress {
        GenerateProgress {
            asked: self.order.count,
            found: self.made,
            attempts: self.attempts,
            target: describe(&self.order.request),
        }
    }
}

/// The result of the next job to take, removed from `jobs`: the first
/// queued when `in_order`, else whichever ends first (the earlier queued
/// when both have). `jobs` must not be empty.
async fn next_ended(
    jobs: &mut VecDeque<JobHandle<Attempts>>,
    in_order: bool,
) -> Result<Attempts, JobError> {
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

fn job_failed(error: JobError) -> Stop {
    Stop::Error(ServiceError::Internal(error))
}

/// A request's target in words, e.g. "diabolical, rated 9.0..20.0,
/// rotate-180, minimal".
fn describe(request: &Request) -> String {
    let mut parts = Vec::new();
    if let Some(level) = request.level {
        parts.push(level.to_string());
    }
    if request.min_rating.is_some() || request.max_rating.is_some() {
        let bound = |rating: Option<Rating>| rating.map(|r| r.to_string()).unwrap_or_default();
        parts.push(format!(
            "rated {}..{}",
            bound(request.min_rating),
            bound(request.max_rating)
        ));
    }
    if request.symmetry != Symmetry::None {
        parts.push(format!("{:?} symmetry", request.symmetry));
    }
    if request.minimal {
        parts.push("minimal".to_string());
    }
    if parts.is_empty() {
        parts.push("any puzzle".to_string());
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc as std_mpsc;

    use super::*;
    use crate::pool::CancelCheck;

    /// Long enough for a job's result to land, short for a test.
    const SETTLE: Duration = Duration::from_millis(100);

    /// Two jobs on two workers: the first held until `release` is sent,
    /// the second ending at once (`ended` says when). Each hands back as
    /// many attempts as its place in the queue.
    fn held_then_quick(
        pool: &WorkerPool,
    ) -> (
        VecDeque<JobHandle<Attempts>>,
        std_mpsc::Sender<()>,
        std_mpsc::Receiver<()>,
    ) {
        let (release, held) = std_mpsc::channel::<()>();
        let (ended, quick_ended) = std_mpsc::channel::<()>();
        let first = pool
            .try_submit(move |_: &CancelCheck| {
                held.recv().ok();
                vec![None]
            })
            .expect("room for two");
        let second = pool
            .try_submit(move |_: &CancelCheck| {
                ended.send(()).ok();
                vec![None, None]
            })
            .expect("room for two");
        (VecDeque::from([first, second]), release, quick_ended)
    }

    #[tokio::test]
    async fn without_a_seed_the_job_that_ends_first_is_taken_first() {
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
    async fn with_a_seed_the_first_job_queued_is_waited_for() {
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
