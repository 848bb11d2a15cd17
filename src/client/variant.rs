//! Variant puzzles through a server: one per call, a list of them through
//! SolveVariantStream, and true candidates. Each puzzle is read here too,
//! so that every solution a server sends is checked against the puzzle's
//! rules before it is believed, and every answer against the request it
//! claims to answer.

use std::sync::Arc;

use tokio::sync::{Semaphore, mpsc};
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;

use super::check::{ProtocolError, outcome_of};
use super::{ClientError, ConnectOptions};
use crate::domain::Outcome;
use crate::domain::variant::{
    TrueCandidates, VariantPuzzle, VariantReport, char_digit, fpuzzles, keeps_rules,
};
use crate::pb::{self, variant_source::Source};

/// A variant puzzle's answer: the report, or the outcome without a
/// verdict (invalid, given up, failed) and why.
pub type VariantVerdict = Result<VariantReport, (Outcome, String)>;

/// The request source for f-puzzles text.
fn source(text: &str) -> Option<pb::VariantSource> {
    Some(pb::VariantSource {
        source: Some(Source::Fpuzzles(text.to_string())),
    })
}

/// Certifies one puzzle, given as f-puzzles text, on the server behind
/// `channel`. A puzzle the server refuses is an answer, not an error.
pub async fn solve_variant(
    channel: Channel,
    options: &ConnectOptions,
    text: &str,
) -> Result<VariantVerdict, ClientError> {
    let request = options.request(pb::SolveVariantRequest {
        id: String::new(),
        puzzle: source(text),
    });
    let call = async {
        Ok(options
            .sudoku_client(channel)
            .solve_variant(request)
            .await?)
    };
    match options.within(call).await {
        Ok(response) => Ok(check_answer(
            fpuzzles::read(text).ok().as_ref(),
            response.get_ref(),
        )?),
        Err(ClientError::Rpc(status)) => refused(status),
        Err(error) => Err(error),
    }
}

/// The most f-puzzles text a stream request carries: a server reads
/// variant messages of up to 64 KiB, and a longer one would end the
/// stream. Longer text is answered here as invalid, in its place.
pub const MAX_SENT_TEXT_BYTES: usize = (64 << 10) - 512;

/// A puzzle sent (with what this side read of it), or one answered here
/// for its length.
enum Due {
    Sent(Option<VariantPuzzle>),
    TooLong(usize),
}

/// Aborts a task when dropped, whichever way its owner returns.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Certifies each of `texts` (f-puzzles text, numbered by the caller)
/// through one SolveVariantStream, calling `answer` with each number and
/// answer in order. At most `window` puzzles are due at once. The stream
/// has no deadline: `options`' timeout is for one call, and a file may
/// take far longer.
pub async fn solve_variant_stream(
    channel: Channel,
    options: &ConnectOptions,
    mut texts: mpsc::Receiver<(u64, String)>,
    window: usize,
    answer: &mut dyn FnMut(u64, VariantVerdict),
) -> Result<(), ClientError> {
    let permits = Arc::new(Semaphore::new(window.max(1)));
    let (requests, outgoing) = mpsc::channel(window.max(1));
    let (due_sender, mut due) = mpsc::unbounded_channel();
    let _feeder = AbortOnDrop(tokio::spawn(async move {
        while let Some((number, text)) = texts.recv().await {
            let Ok(permit) = permits.clone().acquire_owned().await else {
                return;
            };
            if text.len() > MAX_SENT_TEXT_BYTES {
                let _ = due_sender.send((number, Due::TooLong(text.len()), permit));
                continue;
            }
            let request = pb::SolveVariantRequest {
                id: number.to_string(),
                puzzle: source(&text),
            };
            let read = Due::Sent(fpuzzles::read(&text).ok());
            let _ = due_sender.send((number, read, permit));
            if requests.send(request).await.is_err() {
                return;
            }
        }
    }));
    let mut client = options.sudoku_client(channel);
    let call = client.solve_variant_stream(tonic::Request::new(ReceiverStream::new(outgoing)));
    let mut responses = call.await?.into_inner();
    while let Some((number, puzzle, _permit)) = due.recv().await {
        let puzzle = match puzzle {
            Due::Sent(puzzle) => puzzle,
            Due::TooLong(bytes) => {
                let why = format!(
                    "the puzzle is {bytes} bytes of f-puzzles text, over the \
                     {MAX_SENT_TEXT_BYTES} a server takes; send its compressed link"
                );
                answer(number, Err((Outcome::Invalid, why)));
                continue;
            }
        };
        let response = responses.message().await?.ok_or_else(|| {
            ProtocolError(format!("the stream ended before answering puzzle {number}"))
        })?;
        if response.id != number.to_string() {
            return Err(ProtocolError(format!(
                "an answer for id {:?} where puzzle {number}'s was due",
                response.id
            ))
            .into());
        }
        answer(number, check_answer(puzzle.as_ref(), &response)?);
    }
    if responses.message().await?.is_some() {
        return Err(ProtocolError("an answer to no puzzle sent".to_string()).into());
    }
    Ok(())
}

/// The true candidates of one puzzle, finding at most `max_solutions`
/// solutions (0: no cap), and the outcome they say.
pub async fn variant_candidates(
    channel: Channel,
    options: &ConnectOptions,
    text: &str,
    max_solutions: u32,
) -> Result<Result<(Outcome, TrueCandidates), (Outcome, String)>, ClientError> {
    let request = options.request(pb::VariantCandidatesRequest {
        puzzle: source(text),
        max_solutions,
    });
    let call = async {
        Ok(options
            .sudoku_client(channel)
            .variant_candidates(request)
            .await?)
    };
    match options.within(call).await {
        Ok(response) => Ok(Ok(check_candidates(
            fpuzzles::read(text).ok().as_ref(),
            response.get_ref(),
        )?)),
        Err(ClientError::Rpc(status)) => refused(status),
        Err(error) => Err(error),
    }
}

/// A refusal as an answer: INVALID_ARGUMENT is an invalid puzzle, a
/// solver that gave up is a puzzle given up; anything else is an error.
fn refused<T>(status: tonic::Status) -> Result<Result<T, (Outcome, String)>, ClientError> {
    match status.code() {
        tonic::Code::InvalidArgument => Ok(Err((Outcome::Invalid, status.message().to_string()))),
        tonic::Code::ResourceExhausted if super::solver_gave_up(&status) => {
            Ok(Err((Outcome::GaveUp, status.message().to_string())))
        }
        _ => Err(ClientError::Rpc(status)),
    }
}

/// Checks an answer against the puzzle it claims to answer (`None`: a
/// puzzle this side could not read, which only an invalid outcome may
/// answer).
fn check_answer(
    puzzle: Option<&VariantPuzzle>,
    response: &pb::SolveVariantResponse,
) -> Result<VariantVerdict, ProtocolError> {
    let outcome = outcome_of(response.outcome)?;
    let without_verdict = matches!(
        outcome,
        Outcome::Invalid | Outcome::GaveUp | Outcome::Failed
    );
    if without_verdict {
        let message = response.error.as_ref().map(|error| error.message.clone());
        return Ok(Err((outcome, message.unwrap_or_default())));
    }
    let Some(puzzle) = puzzle else {
        return Err(ProtocolError(format!(
            "a verdict ({outcome:?}) for a puzzle that is not valid f-puzzles"
        )));
    };
    let solutions: Vec<Vec<u8>> = response
        .solutions
        .iter()
        .map(|line| line.chars().map(|c| char_digit(c).unwrap_or(0)).collect())
        .collect();
    let expected = match outcome {
        Outcome::Solved => 1,
        Outcome::MultipleSolutions => 2,
        _ => 0,
    };
    if solutions.len() != expected {
        return Err(ProtocolError(format!(
            "{} solutions with outcome {outcome:?}",
            solutions.len()
        )));
    }
    if let Some(wrong) = solutions.iter().find(|digits| !keeps_rules(puzzle, digits)) {
        let line: String = wrong
            .iter()
            .map(|&d| crate::domain::variant::digit_char(d))
            .collect();
        return Err(ProtocolError(format!(
            "a solution that breaks the puzzle's rules: {line}"
        )));
    }
    if expected == 2 && solutions[0] == solutions[1] {
        return Err(ProtocolError(
            "the same solution twice for several".to_string(),
        ));
    }
    Ok(Ok(VariantReport {
        outcome,
        solutions,
        guesses: response.stats.as_ref().map_or(0, |stats| stats.guesses),
    }))
}

/// Checks true candidates against the puzzle: one entry per cell, each a
/// set of the grid's digits that keeps every given.
fn check_candidates(
    puzzle: Option<&VariantPuzzle>,
    response: &pb::VariantCandidatesResponse,
) -> Result<(Outcome, TrueCandidates), ProtocolError> {
    let outcome = outcome_of(response.outcome)?;
    let puzzle = puzzle
        .ok_or_else(|| ProtocolError("candidates for a puzzle that is not valid".to_string()))?;
    let cells = puzzle.shape().cell_count();
    let size = puzzle.shape().size() as u8;
    let masks = |lists: &[String]| -> Result<Vec<u32>, ProtocolError> {
        lists
            .iter()
            .map(|digits| {
                digits
                    .chars()
                    .try_fold(0u32, |mask, c| match char_digit(c) {
                        Some(digit) if digit <= size => Ok(mask | 1 << digit),
                        _ => Err(ProtocolError(format!("{c:?} is not a digit of the grid"))),
                    })
            })
            .collect()
    };
    let possible = masks(&response.candidates)?;
    let mut undecided = masks(&response.undecided)?;
    if undecided.is_empty() {
        undecided = vec![0; cells];
    }
    if possible.len() != cells || undecided.len() != cells {
        return Err(ProtocolError(format!(
            "candidates for {} cells of a {cells}-cell grid",
            possible.len()
        )));
    }
    let given_broken = puzzle
        .givens()
        .iter()
        .zip(&possible)
        .any(|(&given, &mask)| given != 0 && mask & !(1 << given) != 0);
    if given_broken {
        return Err(ProtocolError(
            "a candidate other than a cell's given".to_string(),
        ));
    }
    let consistent = match outcome {
        Outcome::Solved => possible.iter().all(|mask| mask.count_ones() == 1),
        Outcome::NoSolution => possible.iter().all(|&mask| mask == 0),
        Outcome::MultipleSolutions => {
            response.cap_reached || possible.iter().any(|mask| mask.count_ones() > 1)
        }
        _ => false,
    };
    if !consistent {
        return Err(ProtocolError(format!(
            "candidates that do not fit the outcome {outcome:?}"
        )));
    }
    Ok((
        outcome,
        TrueCandidates {
            possible,
            undecided,
            solutions_found: response.solutions_found as usize,
            cap_reached: response.cap_reached,
            guesses: response.stats.as_ref().map_or(0, |stats| stats.guesses),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FOUR: &str = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"antiknight":true}"#;

    fn response(outcome: pb::Outcome, solutions: &[&str]) -> pb::SolveVariantResponse {
        pb::SolveVariantResponse {
            outcome: outcome as i32,
            solutions: solutions.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn only_solutions_that_keep_the_puzzle_s_rules_are_believed() {
        let puzzle = fpuzzles::read(FOUR).unwrap();
        let (first, second) = ("1234432134122143", "1243342143122134");
        let several = response(pb::Outcome::MultipleSolutions, &[first, second]);
        let verdict = check_answer(Some(&puzzle), &several).unwrap().unwrap();
        assert_eq!(verdict.solutions.len(), 2);
        let wrong = [
            // A knight's move apart: R1C1 and R2C3 both 1.
            response(pb::Outcome::Solved, &["1234341221434321"]),
            // The given moved.
            response(pb::Outcome::Solved, &["2134432134122143"]),
            response(pb::Outcome::MultipleSolutions, &[first, first]),
            response(pb::Outcome::MultipleSolutions, &[first]),
            response(pb::Outcome::Solved, &["12344321"]),
            response(pb::Outcome::NoSolution, &[first]),
            response(pb::Outcome::Unspecified, &[]),
        ];
        for answer in wrong {
            assert!(check_answer(Some(&puzzle), &answer).is_err(), "{answer:?}");
        }
        let verdict_for_nothing = response(pb::Outcome::Solved, &[first]);
        assert!(check_answer(None, &verdict_for_nothing).is_err());
        let refused = response(pb::Outcome::Invalid, &[]);
        assert_eq!(
            check_answer(None, &refused).unwrap().unwrap_err().0,
            Outcome::Invalid
        );
    }
}
