//! Domain answers to protobuf messages.

use std::time::{Duration, Instant};

use super::error::{ServiceError, rpc_status};
use super::logic_messages::{pb_grade, pb_outcome};
use crate::domain::logic::Grade;
use crate::domain::{Outcome, SolvePuzzleError, SolveReport, solve_and_grade};
use crate::pb;
use crate::pool::CancelCheck;
use prost::bytes::Bytes;
use prost::encoding::{WireType, encode_key, encode_varint, encoded_len_varint, key_len, message};
use tonic::Status;

/// A solved puzzle, its grade when one was asked for, and the time the
/// worker spent on it. The grade is boxed: batches and streams hold
/// thousands of answers, most of them without one.
#[derive(Debug, Clone)]
pub struct Solved {
    report: SolveReport,
    grade: Option<Box<Grade>>,
    elapsed: Duration,
}

/// The job a worker runs for one puzzle: parse, check, solve within
/// `max_time`, grade it too when `grade` is set (within the same
/// `max_time`), and time it.
pub fn solve_job(
    puzzle: &str,
    grade: bool,
    max_time: Duration,
    cancel: &CancelCheck,
) -> Result<Solved, SolvePuzzleError> {
    solve_timed(puzzle, grade, Instant::now(), max_time, cancel).0
}

/// [`solve_job`] for a puzzle whose clock started at `started`
/// (when the worker finished the one before it), with the time it ended:
/// a job of many puzzles reads the clock once per puzzle.
pub fn solve_timed(
    puzzle: &str,
    grade: bool,
    started: Instant,
    max_time: Duration,
    cancel: &CancelCheck,
) -> (Result<Solved, SolvePuzzleError>, Instant) {
    let graded = solve_and_grade(puzzle, grade, started, Some(max_time), &|| {
        cancel.is_cancelled()
    });
    let ended = Instant::now();
    let solved = graded.map(|graded| Solved {
        report: graded.report,
        grade: graded.grade.map(Box::new),
        elapsed: ended - started,
    });
    (solved, ended)
}

impl Solved {
    /// What the solver found.
    pub fn outcome(&self) -> Outcome {
        self.report.outcome
    }

    /// How long the worker took to parse, solve and (when asked) grade
    /// the puzzle.
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
            grade: solved.grade.as_deref().map(pb_grade),
        }
    }
}

/// The stream response for one request: its answer, or the error that
/// replaced it (see [`answer_fields`]).
pub fn stream_response(
    id: String,
    answer: Result<Solved, ServiceError>,
) -> pb::SolveStreamResponse {
    let AnswerFields {
        outcome,
        solution,
        error,
        stats,
        grade,
    } = answer_fields(answer);
    pb::SolveStreamResponse {
        id,
        outcome,
        solution,
        error,
        stats,
        grade,
    }
}

/// The results of some puzzles of a batch, encoded on the worker that
/// solved them, each framed as field 2 of a SolveBatchResponse, with where
/// each ends: a response is then written by copying bytes, and the solver
/// threads, not the transport's, pay for the encoding.
#[derive(Debug, Default)]
pub struct EncodedResults {
    bytes: Bytes,
    ends: Vec<usize>,
}

impl EncodedResults {
    /// The answers' results, encoded as prost would encode
    /// [`solve_result`]'s, but with no allocation per solved puzzle.
    pub fn of(answers: &[Result<Solved, ServiceError>]) -> EncodedResults {
        let mut bytes = Vec::with_capacity(answers.len() * 100);
        let mut ends = Vec::with_capacity(answers.len());
        for answer in answers {
            match answer {
                Ok(solved) => encode_solved(solved, &mut bytes),
                Err(error) => message::encode(2, &solve_result(Err(error.clone())), &mut bytes),
            }
            ends.push(bytes.len());
        }
        EncodedResults {
            bytes: Bytes::from(bytes),
            ends,
        }
    }

    /// How many results it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when it holds none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes of results `from..to`, shared, not copied.
    pub fn slice(&self, from: usize, to: usize) -> Bytes {
        let start = if from == 0 { 0 } else { self.ends[from - 1] };
        let end = if to == 0 { 0 } else { self.ends[to - 1] };
        self.bytes.slice(start..end)
    }
}

/// A solved puzzle's result, framed as field 2: the outcome, the 81 digits
/// written straight from the board, the stats, and the grade if any.
fn encode_solved(solved: &Solved, out: &mut Vec<u8>) {
    let outcome = solved.outcome_code();
    let stats = solved.stats();
    let grade = solved.grade.as_deref().map(pb_grade);
    let grade_len = grade
        .as_ref()
        .map_or(0, |grade| message::encoded_len(5, grade));
    let outcome_len = if outcome == 0 {
        0
    } else {
        key_len(1) + encoded_len_varint(outcome as u64)
    };
    let solution_len = solved
        .report
        .solution
        .map_or(0, |_| key_len(2) + encoded_len_varint(81) + 81);
    let length = outcome_len + solution_len + message::encoded_len(4, &stats) + grade_len;
    encode_key(2, WireType::LengthDelimited, out);
    encode_varint(length as u64, out);
    if outcome != 0 {
        encode_key(1, WireType::Varint, out);
        encode_varint(outcome as u64, out);
    }
    if let Some(board) = solved.report.solution {
        let mut digits = [0u8; 81];
        board.write_line(&mut digits);
        encode_key(2, WireType::LengthDelimited, out);
        encode_varint(81, out);
        out.extend_from_slice(&digits);
    }
    message::encode(4, &stats, out);
    if let Some(grade) = &grade {
        message::encode(5, grade, out);
    }
}

/// The result for one puzzle of a batch (see [`answer_fields`]).
pub fn solve_result(answer: Result<Solved, ServiceError>) -> pb::SolveResult {
    let AnswerFields {
        outcome,
        solution,
        error,
        stats,
        grade,
    } = answer_fields(answer);
    pb::SolveResult {
        outcome,
        solution: solution.into(),
        error,
        stats,
        grade,
    }
}

/// The fields a stream response and a batch result share.
struct AnswerFields {
    outcome: i32,
    solution: String,
    error: Option<tonic_types::pb::Status>,
    stats: Option<pb::SolveStats>,
    grade: Option<pb::Grade>,
}

/// One puzzle's answer, or the error that replaced it, with the outcome
/// the error stands for (see [`ServiceError::outcome`]). The error's
/// google.rpc.Status is the one a unary call would have failed with.
fn answer_fields(answer: Result<Solved, ServiceError>) -> AnswerFields {
    match answer {
        Ok(solved) => AnswerFields {
            outcome: solved.outcome_code(),
            solution: solved.solution(),
            error: None,
            stats: Some(solved.stats()),
            grade: solved.grade.as_deref().map(pb_grade),
        },
        Err(error) => AnswerFields {
            outcome: pb_outcome(error.outcome()) as i32,
            solution: String::new(),
            error: Some(rpc_status(&Status::from(error))),
            stats: None,
            grade: None,
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
        solve_job(
            text,
            false,
            Duration::from_secs(10),
            &CancelCheck(&|| false),
        )
        .unwrap()
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

    /// The largest grade (every technique, each used as often as can be,
    /// the longest name as the hardest, the longest reason for stalling)
    /// fits the allowance a graded item is charged for it, framed as a
    /// field of its answer.
    #[test]
    fn the_largest_grade_fits_its_allowance() {
        use crate::domain::logic::{Stall, Technique};
        use crate::service::limits::GRADE_OVERHEAD_BYTES;
        let longest = |texts: Vec<String>| texts.into_iter().max_by_key(String::len).unwrap();
        let names = || Technique::ALL.iter().map(|t| t.name().to_string());
        let reasons = vec![
            Stall::NoTechnique {
                placed: usize::MAX,
                blanks: usize::MAX,
            }
            .to_string(),
            Stall::OutOfTime {
                elapsed: Duration::MAX,
            }
            .to_string(),
        ];
        let grade = pb::Grade {
            rating: 10.0,
            level: pb::Level::Diabolical as i32,
            hardest_technique: longest(names().collect()),
            techniques: names()
                .map(|technique| pb::TechniqueCount {
                    technique,
                    count: u32::MAX,
                })
                .collect(),
            stalled: true,
            stalled_reason: longest(reasons),
        };
        let size = message::encoded_len(6, &grade);
        assert!(size <= GRADE_OVERHEAD_BYTES, "{size} bytes");
    }

    /// Results encoded by hand are the bytes prost writes for the same
    /// results, and slices of them cut at result boundaries.
    #[test]
    fn encoded_results_are_what_prost_would_encode() {
        let graded = solve_job(
            CLASSIC,
            true,
            Duration::from_secs(10),
            &CancelCheck(&|| false),
        );
        assert!(graded.as_ref().unwrap().grade.is_some());
        let answers = vec![
            Ok(solved(CLASSIC)),
            graded.map_err(ServiceError::from),
            Ok(solved(&".".repeat(81))),
            Ok(solved(&format!("12345678.........9{}", ".".repeat(63)))),
            Err(ServiceError::InvalidPuzzle(PuzzleError::WrongCellCount {
                found: 3,
            })),
            Err(ServiceError::Internal(JobError::Panicked("bug".into()))),
        ];
        let encoded = EncodedResults::of(&answers);
        let mut expected = Vec::new();
        for answer in &answers {
            prost::encoding::message::encode(2, &solve_result(answer.clone()), &mut expected);
        }
        assert_eq!(encoded.len(), answers.len());
        assert_eq!(encoded.slice(0, answers.len()), expected);
        let first = prost::encoding::message::encoded_len(2, &solve_result(answers[0].clone()));
        assert_eq!(encoded.slice(0, 1), expected[..first]);
        assert_eq!(encoded.slice(1, answers.len()), expected[first..]);
        assert!(encoded.slice(2, 2).is_empty());
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
