//! What a client accepts from a server: answers it has checked.
//!
//! Nothing from the network is taken on trust. An answer becomes an
//! [`Answer`] only if its outcome is one this client knows, it carries a
//! solution exactly when its outcome has one, that solution is 81 digits
//! that obey the rules and keep the puzzle's givens, and it carries an
//! error exactly when its outcome calls for one. Anything else is a
//! [`ProtocolError`] that says what the server sent. A wrong solution from
//! a broken or hostile server is caught here; that a "solved" puzzle has no
//! second solution cannot be checked this cheaply, and is taken from the
//! server.

use crate::domain::{Answer, Board, Outcome, parse_board_bytes};
use crate::pb;

/// An answer this client cannot trust: what the server sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ProtocolError(String);

/// How much of a string from the network an error message quotes.
const QUOTED_CHARS: usize = 100;

/// A string from the network made safe to show: control characters
/// escaped, cut to its first [`QUOTED_CHARS`] characters.
pub fn shown(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(QUOTED_CHARS)
        .flat_map(|character| {
            let escaped: Vec<char> = if character.is_control() {
                character.escape_default().collect()
            } else {
                vec![character]
            };
            escaped
        })
        .collect();
    if text.chars().nth(QUOTED_CHARS).is_some() {
        shown.push_str("...");
    }
    shown
}

/// A string from the network in quotes, made safe by [`shown`].
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", shown(text))
}

/// The answer a SolveStream response gives to `puzzle`, the text that was
/// sent.
pub fn stream_answer(
    puzzle: &[u8],
    response: &pb::SolveStreamResponse,
) -> Result<Answer, ProtocolError> {
    answer_with_error(
        puzzle,
        response.outcome,
        &response.solution,
        response.error.as_ref(),
        response.stats.as_ref(),
    )
}

/// The answer one result of a batch gives to `puzzle`, checked as a
/// stream answer is.
pub fn batch_result(puzzle: &[u8], result: &pb::SolveResult) -> Result<Answer, ProtocolError> {
    answer_with_error(
        puzzle,
        result.outcome,
        result.solution.as_str(),
        result.error.as_ref(),
        result.stats.as_ref(),
    )
}

/// The answer of a stream response or batch result, whose fields are
/// alike.
fn answer_with_error(
    puzzle: &[u8],
    outcome: i32,
    solution: &str,
    error: Option<&tonic_types::pb::Status>,
    stats: Option<&pb::SolveStats>,
) -> Result<Answer, ProtocolError> {
    let outcome = outcome_of(outcome)?;
    let error = error.map(|status| status.message.as_str());
    let guesses = stats.map(|stats| stats.guesses);
    checked(puzzle, outcome, solution, error, guesses)
}

/// The answer a unary Solve response gives to `puzzle`. A unary call
/// answers only with a verdict; every other outcome is a failed call.
pub fn unary_answer(puzzle: &str, response: &pb::SolveResponse) -> Result<Answer, ProtocolError> {
    let outcome = outcome_of(response.outcome)?;
    if outcome.has_error() {
        return Err(ProtocolError(format!(
            "outcome {} in a unary answer, which fails the call instead",
            outcome_name(response.outcome)
        )));
    }
    let guesses = response.stats.as_ref().map(|stats| stats.guesses);
    checked(
        puzzle.as_bytes(),
        outcome,
        &response.solution,
        None,
        guesses,
    )
}

/// The outcome a response names, if it is one this client knows.
fn outcome_of(value: i32) -> Result<Outcome, ProtocolError> {
    match pb::Outcome::try_from(value) {
        Ok(pb::Outcome::Solved) => Ok(Outcome::Solved),
        Ok(pb::Outcome::MultipleSolutions) => Ok(Outcome::MultipleSolutions),
        Ok(pb::Outcome::NoSolution) => Ok(Outcome::NoSolution),
        Ok(pb::Outcome::Invalid) => Ok(Outcome::Invalid),
        Ok(pb::Outcome::GaveUp) => Ok(Outcome::GaveUp),
        Ok(pb::Outcome::Failed) => Ok(Outcome::Failed),
        Ok(pb::Outcome::Unspecified) => Err(ProtocolError(
            "outcome OUTCOME_UNSPECIFIED, which a server never sends".to_string(),
        )),
        Err(_) => Err(ProtocolError(format!("an unknown outcome {value}"))),
    }
}

/// The outcome's name in the proto, for messages.
fn outcome_name(value: i32) -> &'static str {
    pb::Outcome::try_from(value).map_or("?", |outcome| outcome.as_str_name())
}

/// The solution's board, for the common case of an 81-character puzzle
/// line and a right solution: 81 digits 1-9 that keep the puzzle's givens
/// (one branch-free pass, which compiles to vector code) and fill every
/// unit. `None` sends anything else, right or wrong, to the general
/// checks, which say what is wrong.
fn compact_solution(puzzle: &[u8], solution: &[u8]) -> Option<Board> {
    let (puzzle, solution) = (
        <&[u8; 81]>::try_from(puzzle).ok()?,
        <&[u8; 81]>::try_from(solution).ok()?,
    );
    let mut cells = [0u8; 81];
    let mut wrong = false;
    for ((cell, &digit), &given) in cells.iter_mut().zip(solution).zip(puzzle) {
        let value = digit.wrapping_sub(b'0');
        let blank = (given == b'.') | (given == b'0');
        wrong |= (value.wrapping_sub(1) > 8) | !(blank | (given == digit));
        *cell = value;
    }
    let board = Board::from_cells(cells).filter(|_| !wrong)?;
    board.is_solved().then_some(board)
}

/// Builds the answer once its parts agree with each other and the puzzle.
fn checked(
    puzzle: &[u8],
    outcome: Outcome,
    solution: &str,
    error: Option<&str>,
    guesses: Option<u64>,
) -> Result<Answer, ProtocolError> {
    let solution = match (outcome.has_solution(), solution.is_empty()) {
        (true, _) => Some(checked_solution(puzzle, solution)?),
        (false, true) => None,
        (false, false) => {
            return Err(ProtocolError(format!(
                "a solution ({}) with an outcome that has none",
                quoted(solution)
            )));
        }
    };
    let error = match (outcome.has_error(), error) {
        (true, Some(message)) => Some(message.to_string()),
        (false, None) => None,
        (true, None) => {
            return Err(ProtocolError(
                "no error with an outcome that needs one".to_string(),
            ));
        }
        (false, Some(message)) => {
            return Err(ProtocolError(format!(
                "an error ({}) with a verdict",
                quoted(message)
            )));
        }
    };
    Ok(Answer {
        outcome,
        solution,
        error,
        guesses,
    })
}

/// The board a solution names, if it is 81 digits that obey the rules and
/// keep the givens of `puzzle` (when this client can read the puzzle).
fn checked_solution(puzzle: &[u8], solution: &str) -> Result<Board, ProtocolError> {
    if let Some(board) = compact_solution(puzzle, solution.as_bytes()) {
        return Ok(board);
    }
    // 81 bytes that parse are 81 digits or dots; `is_solved` refuses the
    // dots and zeros.
    let board = (solution.len() == 81)
        .then(|| parse_board_bytes(solution.as_bytes()).ok())
        .flatten()
        .filter(|board| !board.cells().contains(&0))
        .ok_or_else(|| {
            ProtocolError(format!(
                "a solution that is not 81 digits 1-9: {}",
                quoted(solution)
            ))
        })?;
    if !board.is_solved() {
        return Err(ProtocolError(format!(
            "a solution that breaks the rules: {solution}"
        )));
    }
    if let Ok(givens) = parse_board_bytes(puzzle)
        && !board.keeps_givens_of(&givens)
    {
        return Err(ProtocolError(format!(
            "a solution that changes the puzzle's givens: {solution}"
        )));
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSIC: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn response(outcome: pb::Outcome, solution: &str) -> pb::SolveStreamResponse {
        pb::SolveStreamResponse {
            id: "1".into(),
            outcome: outcome as i32,
            solution: solution.into(),
            error: None,
            stats: None,
        }
    }

    fn refusal(outcome: i32, message: &str) -> pb::SolveStreamResponse {
        pb::SolveStreamResponse {
            outcome,
            error: Some(tonic_types::Status {
                code: 3,
                message: message.into(),
                details: Vec::new(),
            }),
            ..response(pb::Outcome::Unspecified, "")
        }
    }

    fn error(response: &pb::SolveStreamResponse) -> String {
        stream_answer(CLASSIC.as_bytes(), response)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_right_answer_is_accepted() {
        let answer =
            stream_answer(CLASSIC.as_bytes(), &response(pb::Outcome::Solved, SOLUTION)).unwrap();
        assert_eq!(answer.outcome, Outcome::Solved);
        assert_eq!(answer.solution.unwrap().to_line(), SOLUTION);
        let invalid = stream_answer(b"12x", &refusal(4, "bad")).unwrap();
        assert_eq!(
            (invalid.outcome, invalid.error.as_deref()),
            (Outcome::Invalid, Some("bad"))
        );
    }

    #[test]
    fn unknown_outcomes_are_refused() {
        assert_eq!(
            error(&response(pb::Outcome::Unspecified, "")),
            "outcome OUTCOME_UNSPECIFIED, which a server never sends"
        );
        let mut unknown = response(pb::Outcome::Solved, SOLUTION);
        unknown.outcome = 99;
        assert_eq!(error(&unknown), "an unknown outcome 99");
    }

    #[test]
    fn a_solution_must_be_81_digits_that_solve_the_puzzle() {
        let short = response(pb::Outcome::Solved, &SOLUTION[..80]);
        assert!(error(&short).starts_with("a solution that is not 81 digits 1-9"));
        let quoted = response(pb::Outcome::Solved, "\"}\u{1b}[31m");
        assert_eq!(
            error(&quoted),
            "a solution that is not 81 digits 1-9: \"\"}\\u{1b}[31m\""
        );
        let broken = SOLUTION.replacen('5', "6", 1);
        assert!(
            error(&response(pb::Outcome::Solved, &broken)).starts_with("a solution that breaks")
        );
        // A valid grid, but not this puzzle's.
        let other = ones_and_twos_swapped();
        assert!(
            error(&response(pb::Outcome::MultipleSolutions, &other))
                .starts_with("a solution that changes the puzzle's givens")
        );
    }

    /// The solution with its digits 1 and 2 swapped: a valid grid, but not
    /// the puzzle's.
    fn ones_and_twos_swapped() -> String {
        SOLUTION
            .chars()
            .map(|c| match c {
                '1' => '2',
                '2' => '1',
                c => c,
            })
            .collect()
    }

    /// The one-pass check takes exactly the right solutions of compact
    /// puzzles, the ones the general checks take too.
    #[test]
    fn the_compact_check_agrees_with_the_general_one() {
        let general = |puzzle: &str, solution: &str| {
            let board = parse_board_bytes(solution.as_bytes()).ok()?;
            let givens = parse_board_bytes(puzzle.as_bytes()).ok()?;
            let right = !board.cells().contains(&0) && board.is_solved();
            (right && board.keeps_givens_of(&givens)).then_some(board)
        };
        let swapped = ones_and_twos_swapped();
        let (zeros, blank) = (CLASSIC.replace('.', "0"), ".".repeat(81));
        let cases = [
            (CLASSIC, SOLUTION.to_string()),
            (zeros.as_str(), SOLUTION.to_string()),
            (blank.as_str(), swapped.clone()),
            (CLASSIC, swapped),
            (CLASSIC, SOLUTION.replacen('5', "6", 1)),
            (CLASSIC, SOLUTION.replacen('5', "0", 1)),
            (CLASSIC, SOLUTION.replacen('5', ":", 1)),
            (CLASSIC, SOLUTION[..80].to_string()),
        ];
        for (puzzle, solution) in &cases {
            let fast = compact_solution(puzzle.as_bytes(), solution.as_bytes());
            assert_eq!(fast, general(puzzle, solution), "{puzzle} {solution}");
        }
        assert!(compact_solution(CLASSIC.as_bytes(), SOLUTION.as_bytes()).is_some());
        assert_eq!(
            compact_solution(&CLASSIC.as_bytes()[..80], SOLUTION.as_bytes()),
            None
        );
    }

    #[test]
    fn solutions_and_errors_come_only_with_their_outcomes() {
        assert!(error(&response(pb::Outcome::NoSolution, SOLUTION)).starts_with("a solution ("));
        assert_eq!(
            error(&response(pb::Outcome::GaveUp, "")),
            "no error with an outcome that needs one"
        );
        let mut both = response(pb::Outcome::Solved, SOLUTION);
        both.error = refusal(4, "x").error;
        assert_eq!(error(&both), "an error (\"x\") with a verdict");
    }

    #[test]
    fn a_unary_answer_is_a_verdict() {
        let unary = pb::SolveResponse {
            outcome: pb::Outcome::Invalid as i32,
            solution: String::new(),
            stats: None,
            grade: None,
        };
        assert_eq!(
            unary_answer(CLASSIC, &unary).unwrap_err().to_string(),
            "outcome OUTCOME_INVALID in a unary answer, which fails the call instead"
        );
    }

    #[test]
    fn shown_strings_are_short_and_escaped() {
        assert_eq!(shown("a\nb"), "a\\nb");
        assert_eq!(shown(&"x".repeat(150)), format!("{}...", "x".repeat(100)));
    }
}
