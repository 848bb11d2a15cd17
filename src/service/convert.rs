//! Domain answers to protobuf messages.

use std::time::{Duration, Instant};

use tonic::Status;

use super::error::{ServiceError, rpc_status};
use super::limits::{Limits, admit_item, check_puzzle};
use crate::domain::{Outcome, SolvePuzzleError, SolveReport, solve_puzzle_since};
use crate::pb;
use crate::pool::CancelCheck;

/// A solved puzzle and the time the worker spent on it.
#[derive(Debug, Clone, Copy)]
pub struct Solved {
    report: SolveReport,
    elapsed: Duration,
}

/// The job a worker runs for one puzzle: parse, check, solve within
/// `max_time`, and time it.
pub fn solve_job(
    puzzle: &str,
    max_time: Duration,
    cancel: &CancelCheck,
) -> Result<Solved, SolvePuzzleError> {
    solve_timed(puzzle, Instant::now(), max_time, cancel).0
}

/// [`solve_job`] for a puzzle whose clock started at `started` (when the
/// worker finished the one before it), with the time it ended: a job of
/// many puzzles reads the clock once per puzzle.
pub fn solve_timed(
    puzzle: &str,
    started: Instant,
    max_time: Duration,
    cancel: &CancelCheck,
) -> (Result<Solved, SolvePuzzleError>, Instant) {
    let report = solve_puzzle_since(puzzle, started, Some(max_time), || cancel.is_cancelled());
    let ended = Instant::now();
    let solved = report.map(|report| Solved {
        report,
        elapsed: ended - started,
    });
    (solved, ended)
}

/// The protobuf value of an outcome: the one place the service converts
/// it.
pub fn pb_outcome(outcome: Outcome) -> pb::Outcome {
    match outcome {
        Outcome::Solved => pb::Outcome::Solved,
        Outcome::MultipleSolutions => pb::Outcome::MultipleSolutions,
        Outcome::NoSolution => pb::Outcome::NoSolution,
        Outcome::Invalid => pb::Outcome::Invalid,
        Outcome::GaveUp => pb::Outcome::GaveUp,
        Outcome::Failed => pb::Outcome::Failed,
    }
}

impl Solved {
    /// What the solver found.
    pub fn outcome(&self) -> Outcome {
        self.report.outcome
    }

    /// How long the worker took to parse and solve the puzzle.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    fn outcome_code(&self) -> i32 {
        pb_outcome(self.report.outcome) as i32
    }

    fn solution(&self) -> String {
        self.report
            .solution
            .map(|board| board.to_line())
            .unwrap_or_default()
    }

    fn stats(&self) -> pb::SolveStats {
        pb::SolveStats {
            guesses: self.report.stats.guesses,
            solve_time: prost_types::Duration::try_from(self.elapsed).ok(),
        }
    }
}

impl From<Solved> for pb::SolveResponse {
    fn from(solved: Solved) -> Self {
        pb::SolveResponse {
            outcome: solved.outcome_code(),
            solution: solved.solution(),
            stats: Some(solved.stats()),
        }
    }
}

/// Answers one stream request on the calling thread, exactly as a stream
/// worker would (item caps, parse, solve within the default time budget,
/// convert): for fuzzing and tests of the conversion layer without a
/// server.
pub fn answer_stream_request(request: pb::SolveStreamRequest) -> pb::SolveStreamResponse {
    let max_time = Limits::default().max_solve_time;
    let (id, item, _) = admit_item(request.id, request.puzzle);
    let answer = item.and_then(|puzzle| {
        solve_job(&puzzle, max_time, &CancelCheck(&|| false)).map_err(ServiceError::from)
    });
    stream_response(id, answer)
}

/// Answers one unary request on the calling thread, as the Solve handler's
/// worker would: the response, or the status the call fails with.
pub fn answer_request(request: pb::SolveRequest) -> Result<pb::SolveResponse, Status> {
    let max_time = Limits::default().max_solve_time;
    check_puzzle(&request.puzzle)
        .and_then(|()| {
            solve_job(&request.puzzle, max_time, &CancelCheck(&|| false)).map_err(Into::into)
        })
        .map(pb::SolveResponse::from)
        .map_err(Status::from)
}

/// The stream response for one request: its answer, or the error that
/// replaced it (see [`solve_result`]).
pub fn stream_response(
    id: String,
    answer: Result<Solved, ServiceError>,
) -> pb::SolveStreamResponse {
    let pb::SolveResult {
        outcome,
        solution,
        error,
        stats,
    } = solve_result(answer);
    pb::SolveStreamResponse {
        id,
        outcome,
        solution,
        error,
        stats,
    }
}

/// The result for one puzzle: its answer, or the error that replaced it,
/// with the outcome the error stands for (see [`ServiceError::outcome`]).
/// The error's google.rpc.Status is the one a unary call would have
/// failed with.
pub fn solve_result(answer: Result<Solved, ServiceError>) -> pb::SolveResult {
    match answer {
        Ok(solved) => pb::SolveResult {
            outcome: solved.outcome_code(),
            solution: solved.solution(),
            error: None,
            stats: Some(solved.stats()),
        },
        Err(error) => pb::SolveResult {
            outcome: pb_outcome(error.outcome()) as i32,
            solution: String::new(),
            error: Some(rpc_status(&Status::from(error))),
            stats: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::PuzzleError;
    use crate::pool::JobError;

    const CLASSIC: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn solved(text: &str) -> Solved {
        solve_job(text, Duration::from_secs(10), &CancelCheck(&|| false)).unwrap()
    }

    #[test]
    fn a_solved_puzzle_becomes_a_response_with_solution_and_stats() {
        let response = pb::SolveResponse::from(solved(CLASSIC));
        assert_eq!(response.outcome(), pb::Outcome::Solved);
        assert_eq!(response.solution.len(), 81);
        assert!(
            response
                .solution
                .bytes()
                .all(|b| (b'1'..=b'9').contains(&b))
        );
        let stats = response.stats.unwrap();
        assert_eq!(stats.guesses, 0);
        assert!(stats.solve_time.is_some());
    }

    #[test]
    fn no_solution_has_an_empty_solution() {
        let text = format!("12345678.........9{}", ".".repeat(63));
        let response = pb::SolveResponse::from(solved(&text));
        assert_eq!(response.outcome(), pb::Outcome::NoSolution);
        assert_eq!(response.solution, "");
    }

    /// Every kind of error answer, with the longest message each can have,
    /// encodes within the allowance an item is charged for its answer.
    #[test]
    fn the_largest_answers_fit_the_items_allowance() {
        use crate::domain::{GaveUp, MAX_PUZZLE_BYTES};
        use crate::service::limits::ITEM_OVERHEAD_BYTES;
        use prost::Message;
        let widest_character = format!("{}\u{FFFF}", "1".repeat(MAX_PUZZLE_BYTES - 3));
        let errors = [
            ServiceError::from(crate::domain::parse_puzzle(&widest_character).unwrap_err()),
            ServiceError::from(PuzzleError::TooLong { length: usize::MAX }),
            ServiceError::from(PuzzleError::WrongCellCount { found: usize::MAX }),
            ServiceError::IdTooLong { length: usize::MAX },
            ServiceError::GaveUp(GaveUp {
                elapsed: Duration::MAX,
                guesses: u64::MAX,
                budget: Duration::MAX,
            }),
            ServiceError::Internal(JobError::Panicked(
                "index out of bounds: the len is 18446744073709551615 but the index is \
                 18446744073709551615"
                    .into(),
            )),
        ];
        // In a batch, each result is also framed as a field of the response.
        let framed = |answer| prost::encoding::message::encoded_len(2, &solve_result(answer));
        for error in errors {
            let answer = stream_response(String::new(), Err(error.clone()));
            let size = answer.encoded_len().max(framed(Err(error.clone())));
            assert!(size <= ITEM_OVERHEAD_BYTES, "{size} bytes for {error}");
        }
        let solved = stream_response(String::new(), Ok(solved(CLASSIC)))
            .encoded_len()
            .max(framed(Ok(solved(CLASSIC))));
        assert!(
            solved <= ITEM_OVERHEAD_BYTES,
            "{solved} bytes for a solution"
        );
    }

    #[test]
    fn stream_items_echo_the_id_and_carry_errors() {
        let ok = stream_response("a".into(), Ok(solved(CLASSIC)));
        assert_eq!((ok.id.as_str(), ok.outcome()), ("a", pb::Outcome::Solved));
        assert!(ok.error.is_none());

        let invalid = ServiceError::InvalidPuzzle(PuzzleError::WrongCellCount { found: 3 });
        let bad = stream_response("b".into(), Err(invalid));
        assert_eq!(
            (bad.id.as_str(), bad.outcome()),
            ("b", pb::Outcome::Invalid)
        );
        let error = bad.error.unwrap();
        assert_eq!(error.code, tonic::Code::InvalidArgument as i32);
        assert!(error.message.contains("found 3"));
        assert!(bad.stats.is_none());

        let broken = ServiceError::Internal(JobError::Panicked("bug".into()));
        let failed = stream_response("c".into(), Err(broken));
        assert_eq!(failed.outcome(), pb::Outcome::Failed);
        assert_eq!(failed.error.unwrap().code, tonic::Code::Internal as i32);
    }
}
