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
//! The call is a [`Source`] run by the stream core's [`SourceDriver`],
//! with the deadline, draining, cancellation and end-status handling of
//! every stream. Its jobs are runs of attempts on the pool (the domain's
//! [`Seeds`]: one attempt, then twice as many per job up to 16, or one
//! climb a job), at most [`JOBS_IN_FLIGHT`] at once. A request with a
//! seed gets its puzzles in seed order, so the same request and seed give
//! the same puzzles whatever the worker count. One without (seed 0) has
//! nothing to reproduce and gets each job's puzzles as soon as the job
//! ends: a climb that finds a puzzle rated 10 need not wait for the climb
//! before it to run out, which took a second or more off the median of a
//! 10.0 call on two workers (docs/generation.md). A client that stops
//! reading stops the call once the response channel is full, and one that
//! goes away cancels its jobs.
//!
//! The call ends, after the puzzles found so far, when its deadline passes
//! (DEADLINE_EXCEEDED), when the server drains (UNAVAILABLE), or when
//! `--max-generate-wait` passes without a puzzle (RESOURCE_EXHAUSTED with
//! an ErrorInfo saying what was asked and how far it got); this file says
//! those in Generate's words, with its progress.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;
use tonic::Status;

use super::error::{GenerateProgress, ServiceError};
use super::logic_messages::pb_grade;
use super::metrics::Metrics;
use super::rpc::Rpc;
use super::state::SudokuService;
use super::stream::end_stream;
use crate::domain::generate::{
    self, Bound, BoundError, Generated, Request, Seeds, Symmetry, attempt_each,
};
use crate::domain::logic::{Level, Rating};
use crate::pb;
use crate::pool::JobError;
use crate::streaming::{
    Ending, ResponseStream, Source, SourceDriver, SourceJob, StreamSlot, response_channel,
};

/// Jobs of one call on the pool at once: two keep two workers busy on a
/// long request without one call taking a large pool.
pub const JOBS_IN_FLIGHT: usize = 2;

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
/// puzzles, then the status the call ended with if it failed.
pub type GenerateStream = ResponseStream<pb::GenerateResponse, Status>;

impl SudokuService {
    /// Starts a Generate call: checks the request, takes a stream slot,
    /// queues the first job (or sheds the call), and hands the rest to a
    /// [`SourceDriver`] task.
    pub(super) fn start_generate(
        &self,
        request: &pb::GenerateRequest,
        deadline: Option<Instant>,
    ) -> Result<GenerateStream, Status> {
        let order = parse_request(request, self.limits.max_generate_count)?;
        let permit = self.admit_stream(Rpc::Generate)?;
        let mut source = GenerateSource::new(
            order,
            self.limits.generate_wait(&order.request),
            Some(self.limits.max_grade_time),
            self.metrics.clone(),
        );
        let first = self.pool.try_submit(source.next_job()).map_err(|full| {
            self.metrics.call_shed(Rpc::Generate);
            Status::from(ServiceError::from(full))
        })?;
        let slot = StreamSlot::new((permit, self.metrics.stream_opened()));
        let (responses, transport) = response_channel(slot.clone());
        let driver = SourceDriver {
            source,
            pool: self.pool.clone(),
            draining: self.draining.clone(),
            deadline,
        };
        tokio::spawn(driver.run(first, responses, slot));
        Ok(transport)
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

/// One Generate call as a source of responses: its jobs of attempts, and
/// its progress.
struct GenerateSource {
    order: Order,
    seeds: Seeds,
    /// How long to search for the next puzzle, and the flag that set it.
    wait: (Duration, &'static str),
    /// Each attempt's grading time (`--max-grade-time`).
    grade_time: Option<Duration>,
    metrics: Arc<Metrics>,
    /// Puzzles handed to the transport.
    sent: usize,
    /// Attempts counted: those before each puzzle sent (and the one being
    /// sent when the call ended), and those after the last puzzle of a job
    /// whose puzzles were all sent.
    attempts: u64,
    /// The puzzles taken and not yet sent, oldest first.
    unsent: VecDeque<Unsent>,
}

/// A puzzle taken from a job and not yet sent: its level, to count once it
/// is sent, and the attempts it stands for.
struct Unsent {
    level: Option<Level>,
    /// The attempts up to and including it, since the puzzle before.
    attempts: u64,
    /// The attempts after it, if it is its job's last puzzle.
    after: u64,
}

impl GenerateSource {
    /// A call for `order`, waiting up to `wait` for each puzzle (with the
    /// flag that set it) and grading each attempt within `grade_time`.
    fn new(
        order: Order,
        wait: (Duration, &'static str),
        grade_time: Option<Duration>,
        metrics: Arc<Metrics>,
    ) -> GenerateSource {
        GenerateSource {
            order,
            seeds: Seeds::new(&order.request, order.seed),
            wait,
            grade_time,
            metrics,
            sent: 0,
            attempts: 0,
            unsent: VecDeque::new(),
        }
    }
}

impl Source for GenerateSource {
    type Output = Attempts;
    type Response = pb::GenerateResponse;
    type Error = Status;

    fn next_job(&mut self) -> SourceJob<Attempts> {
        Box::new(job(
            self.order.request,
            self.seeds.next_job(),
            self.grade_time,
        ))
    }

    fn jobs_in_flight(&self) -> usize {
        JOBS_IN_FLIGHT
    }

    fn in_order(&self) -> bool {
        self.order.seeded
    }

    fn take(
        &mut self,
        output: Result<Attempts, JobError>,
    ) -> Result<Vec<pb::GenerateResponse>, Status> {
        let attempts = output.map_err(|error| Status::from(ServiceError::Internal(error)))?;
        let mut found = Vec::new();
        let mut since = 0;
        for attempt in attempts {
            if self.sent + self.unsent.len() == self.order.count {
                break;
            }
            since += 1;
            if let Some(generated) = attempt {
                self.unsent.push_back(Unsent {
                    level: generated.grade.as_ref().map(|grade| grade.level()),
                    attempts: std::mem::take(&mut since),
                    after: 0,
                });
                found.push(pb_generated(&generated));
            }
        }
        match self.unsent.back_mut() {
            Some(last) => last.after += since,
            None => self.attempts += since,
        }
        Ok(found)
    }

    fn sent(&mut self) {
        self.sent += 1;
        if let Some(puzzle) = self.unsent.pop_front() {
            self.attempts += puzzle.attempts + puzzle.after;
            self.metrics.generated(puzzle.level);
        }
    }

    fn is_done(&self) -> bool {
        self.sent == self.order.count
    }

    fn patience(&self) -> Duration {
        self.wait.0
    }

    fn end(&mut self, ending: Ending<Status>) -> Option<Status> {
        // The attempts up to the puzzle being sent when the call ended.
        self.attempts += self.unsent.front().map_or(0, |puzzle| puzzle.attempts);
        self.metrics.generate_attempts(self.attempts);
        let progress = GenerateProgress {
            asked: self.order.count,
            found: self.sent,
            attempts: self.attempts,
            target: describe(&self.order.request),
        };
        let error = match ending {
            Ending::DeadlineExceeded => ServiceError::GenerateDeadlineExceeded { progress },
            Ending::Draining => ServiceError::GenerateDraining { progress },
            Ending::Idle(waited) => ServiceError::GenerateGaveUp {
                progress,
                waited,
                flag: self.wait.1,
            },
            other => return end_stream(Rpc::Generate, other),
        };
        Some(Status::from(error))
    }
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
    use super::*;
    use crate::domain::parse_board;

    /// A Generate call for `count` puzzles, as a source, with its metrics.
    fn source(count: u32) -> GenerateSource {
        let request = pb::GenerateRequest {
            count,
            seed: 7,
            skip_grade: true,
            ..Default::default()
        };
        let order = parse_request(&request, 100).unwrap();
        let wait = (Duration::from_secs(1), "--max-generate-wait");
        GenerateSource::new(order, wait, None, Arc::new(Metrics::new()))
    }

    /// A puzzle found by an attempt.
    fn found() -> Option<Generated> {
        let puzzle = parse_board(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        Some(Generated {
            puzzle,
            solution: puzzle,
            grade: None,
            seed: 1,
        })
    }

    /// Attempts are counted up to the puzzle being sent, as each is sent,
    /// and those after a job's last puzzle once it is sent.
    #[test]
    fn attempts_are_counted_as_their_puzzles_are_sent() {
        let mut call = source(3);
        let taken = call.take(Ok(vec![None, found(), None, None])).unwrap();
        assert_eq!((taken.len(), call.attempts), (1, 0));
        call.sent();
        assert_eq!(call.attempts, 4, "two before, two after");
        let empty = call.take(Ok(vec![None, None])).unwrap();
        assert_eq!(
            (empty.len(), call.attempts),
            (0, 6),
            "no puzzle: counted at once"
        );
        let taken = call
            .take(Ok(vec![found(), None, found(), found()]))
            .unwrap();
        assert_eq!(taken.len(), 2, "two owed");
        call.sent();
        assert_eq!(call.attempts, 7);
        call.sent();
        assert!(call.is_done());
        assert_eq!(call.attempts, 9, "nothing after the last puzzle owed");
    }

    /// A call that ends while a puzzle is on its way counts the attempts
    /// up to that puzzle, not those after it.
    #[test]
    fn a_call_cut_short_counts_attempts_up_to_the_puzzle_being_sent() {
        let mut call = source(5);
        call.take(Ok(vec![None, found(), None, found(), None]))
            .unwrap();
        call.sent();
        let status = call.end(Ending::DeadlineExceeded).unwrap();
        assert_eq!(status.code(), tonic::Code::DeadlineExceeded);
        assert_eq!(call.attempts, 4, "two for the first, two for the second");
    }
}
