//! Domain answers to protobuf messages.

use std::time::{Duration, Instant};

use super::error::{ServiceError, rpc_status};
use super::logic_messages::{pb_grade, pb_outcome};
use crate::domain::logic::Grade;
use crate::domain::{Outcome, SolvePuzzleError, SolveReport, TimeLimits, solve_and_grade};
use crate::pb;
use crate::pool::CancelCheck;
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

/// The job a worker runs for one puzzle: parse, check, solve, grade it
/// too when `grade` is set, each within its part of `limits`, and time
/// it.
pub fn solve_job(
    puzzle: &str,
    grade: bool,
    limits: TimeLimits,
    cancel: &CancelCheck,
) -> Result<Solved, SolvePuzzleError> {
    solve_timed(puzzle, grade, Instant::now(), limits, cancel).0
}

/// [`solve_job`] for a puzzle whose clock started at `started`
/// (when the worker finished the one before it), with the time it ended:
/// a job of many puzzles reads the clock once per puzzle.
pub fn solve_timed(
    puzzle: &str,
    grade: bool,
    started: Instant,
    limits: TimeLimits,
    cancel: &CancelCheck,
) -> (Result<Solved, SolvePuzzleError>, Instant) {
    let graded = solve_and_grade(puzzle, grade, started, limits, &|| cancel.is_cancelled());
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

/// The answers' results, encoded for a SolveBatchResponse on the worker
/// that solved them (see [`pb::EncodedResults`]): the bytes prost would
/// write for [`solve_result`]'s, but a solved puzzle's written from its
/// board and stats, without building its SolveResult.
pub fn encode_answers(answers: &[Result<Solved, ServiceError>]) -> pb::EncodedResults {
    let mut encoder = pb::ResultsEncoder::with_capacity(answers.len());
    for answer in answers {
        match answer {
            Ok(solved) => {
                let mut digits = [0u8; 81];
                let solution = match &solved.report.solution {
                    Some(board) => {
                        board.write_line(&mut digits);
                        std::str::from_utf8(&digits).expect("a board's line is ASCII")
                    }
                    None => "",
                };
                let grade = solved.grade.as_deref().map(pb_grade);
                encoder.push_solved(
                    solved.outcome_code(),
                    solution,
                    &solved.stats(),
                    grade.as_ref(),
                );
            }
            Err(error) => encoder.push(&solve_result(Err(error.clone()))),
        }
    }
    encoder.finish()
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
    use crate::domain::{GaveUp, PuzzleError};
    use crate::pb::twin::{Twin, generated};
    use crate::pool::JobError;
    use proptest::prelude::*;
    use prost::Message;
    use prost::encoding::message;

    const CLASSIC: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn solved(text: &str) -> Solved {
        solve_job(
            text,
            false,
            crate::domain::TimeLimits::NONE,
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
        use crate::domain::MAX_PUZZLE_BYTES;
        use crate::service::limits::ITEM_OVERHEAD_BYTES;
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
            pearl: 10.0,
            diamond: 10.0,
        };
        let size = message::encoded_len(6, &grade);
        assert!(size <= GRADE_OVERHEAD_BYTES, "{size} bytes");
    }

    /// The response prost's twin writes for a batch with these answers.
    fn twins_response(id: &str, answers: &[Result<Solved, ServiceError>]) -> Vec<u8> {
        generated::SolveBatchResponse {
            id: id.into(),
            results: answers
                .iter()
                .map(|answer| solve_result(answer.clone()).to_twin())
                .collect(),
            error: None,
        }
        .encode_to_vec()
    }

    /// A response's bytes as the twin decodes them, with each error's
    /// ErrorInfo details decoded too: their metadata is a map, which prost
    /// writes in no fixed order, so equal responses need not be equal
    /// bytes.
    fn canonical(
        bytes: &[u8],
    ) -> (
        generated::SolveBatchResponse,
        Vec<Vec<tonic_types::pb::ErrorInfo>>,
    ) {
        let mut response = generated::SolveBatchResponse::decode(bytes).expect("decodes");
        let infos = response
            .results
            .iter_mut()
            .map(|result| {
                let Some(status) = result.error.as_mut() else {
                    return Vec::new();
                };
                let (infos, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut status.details)
                    .into_iter()
                    .partition(|detail| detail.type_url.ends_with("ErrorInfo"));
                status.details = rest;
                infos
                    .iter()
                    .map(|info| tonic_types::pb::ErrorInfo::decode(info.value.as_slice()).unwrap())
                    .collect()
            })
            .collect();
        (response, infos)
    }

    /// Answers encoded ahead (a solved puzzle's through the fast path, an
    /// error's through its SolveResult) are the bytes prost's twin writes
    /// for a response with those results, sent whole or cut anywhere.
    #[test]
    fn encoded_answers_are_what_prost_would_encode() {
        let graded = solve_job(
            CLASSIC,
            true,
            crate::domain::TimeLimits::NONE,
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
        let encoded = encode_answers(&answers);
        assert_eq!(encoded.len(), answers.len());
        let expected = twins_response("b-7", &answers);
        for cut in 0..=answers.len() {
            let runs = vec![encoded.slice(0, cut), encoded.slice(cut, answers.len())];
            let response = pb::SolveBatchResponse::from_encoded("b-7".into(), runs);
            assert_eq!(response.encode_to_vec(), expected, "cut after {cut}");
            assert_eq!(response.encoded_len(), expected.len());
        }
        assert!(encoded.slice(2, 2).is_empty());
    }

    /// Errors an answer can be that no puzzle text gives.
    fn errors_without_puzzles() -> Vec<ServiceError> {
        vec![
            ServiceError::IdTooLong { length: 300 },
            ServiceError::GaveUp(GaveUp {
                elapsed: Duration::from_millis(1001),
                guesses: 12_345,
                budget: Duration::from_secs(1),
            }),
            ServiceError::Cancelled,
            ServiceError::Internal(JobError::Panicked("bug".into())),
        ]
    }

    /// An answer as a batch's worker makes one: a puzzle solved here
    /// (random givens, consistent or not; any text, mostly invalid; or a
    /// classic), graded or not; or an error that no puzzle text gives.
    fn answer() -> impl Strategy<Value = Result<Solved, ServiceError>> {
        let givens = prop::collection::vec((0..81usize, 1..=9u8), 0..40).prop_map(|placed| {
            let mut cells = [b'.'; 81];
            for (cell, digit) in placed {
                cells[cell] = b'0' + digit;
            }
            String::from_utf8(cells.to_vec()).expect("ASCII")
        });
        let text = prop::collection::vec(any::<char>(), 0..100)
            .prop_map(|letters| letters.into_iter().collect::<String>());
        let puzzle = prop_oneof![givens, text, Just(CLASSIC.to_string())];
        let solved = (puzzle, any::<bool>()).prop_map(|(puzzle, grade)| {
            solve_job(
                &puzzle,
                grade,
                crate::domain::TimeLimits::NONE,
                &CancelCheck(&|| false),
            )
            .map_err(ServiceError::from)
        });
        let error = prop::sample::select(errors_without_puzzles()).prop_map(Err::<Solved, _>);
        prop_oneof![3 => solved, 1 => error]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// For any answers, encoded ahead and cut anywhere: the bytes
        /// prost's twin writes for a response with their results.
        #[test]
        fn any_answers_encode_as_prost_would(
            answers in prop::collection::vec(answer(), 0..12),
            cut in 0..12usize,
        ) {
            let encoded = encode_answers(&answers);
            prop_assert_eq!(encoded.len(), answers.len());
            let cut = cut.min(answers.len());
            let runs = vec![encoded.slice(0, cut), encoded.slice(cut, answers.len())];
            let response = pb::SolveBatchResponse::from_encoded("b".into(), runs);
            let (bytes, expected) = (response.encode_to_vec(), twins_response("b", &answers));
            prop_assert_eq!(bytes.len(), expected.len());
            prop_assert_eq!(canonical(&bytes), canonical(&expected));
        }
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
