//! What a client accepts from a server: answers it has checked.
//!
//! Nothing from the network is taken on trust. An answer becomes an
//! [`Answer`] only if its outcome is one this client knows, it carries a
//! solution exactly when its outcome has one, that solution is 81 digits
//! that obey the rules and keep the puzzle's givens, and it carries an
//! error exactly when its outcome calls for one, and a grade exactly when
//! one was asked for and the puzzle was solved, a grade whose parts agree
//! (see [`checked_grade`]). Anything else is a
//! [`ProtocolError`] that says what the server sent. A wrong solution from
//! a broken or hostile server is caught here; that a "solved" puzzle has no
//! second solution cannot be checked this cheaply, and is taken from the
//! server.

use crate::domain::logic::{Level, Rating, Technique};
use crate::domain::{Answer, Board, GradeSummary, Outcome, parse_board_bytes};
use crate::pb;

/// An answer this client cannot trust: what the server sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ProtocolError(pub(super) String);

impl ProtocolError {
    /// An error saying what the server sent.
    pub fn new(what: impl Into<String>) -> ProtocolError {
        ProtocolError(what.into())
    }
}

/// How much of a string from the network an error message quotes.
const QUOTED_CHARS: usize = 100;

/// How much of a status message from a server an error message quotes:
/// this server's say what is wrong and where in a few hundred characters.
const STATUS_CHARS: usize = 500;

/// A status from a server, made safe to show: its code's gRPC name
/// (`INVALID_ARGUMENT`) and its message, cut to [`STATUS_CHARS`]
/// characters with control characters escaped.
pub fn shown_status(status: &tonic::Status) -> String {
    format!(
        "{}: {}",
        crate::pb::code_name(status.code()),
        shown_up_to(status.message(), STATUS_CHARS)
    )
}

/// What went wrong at the bottom of `error`'s chain of sources: "Connection
/// refused (os error 111)" rather than the transport's "transport error"
/// on top of it. An error with no source is itself.
pub fn deepest_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut deepest = error;
    while let Some(source) = deepest.source() {
        deepest = source;
    }
    deepest.to_string()
}

/// A status made here (a call that could not reach its server) with the
/// cause it carries: "UNAVAILABLE: tcp connect error (Connection refused
/// (os error 111))", or what to do where the cause is a TLS mismatch
/// ([`connection_failure`]). A server's status has no cause and shows as
/// [`shown_status`] shows it.
pub fn shown_status_with_cause(status: &tonic::Status) -> String {
    let shown = shown_status(status);
    let Some(cause) = std::error::Error::source(status).map(deepest_cause) else {
        return shown;
    };
    match connection_failure(&cause) {
        Some(failure) => failure,
        None if shown.contains(&cause) => shown,
        None => format!("{shown} ({})", self::shown(&cause)),
    }
}

/// A failed call as the client's error says it: "the server answered
/// NOT_FOUND: ..." for a server's status, and for one made here what
/// failed: "the call failed: UNAVAILABLE: tcp connect error (...)", or
/// what to do ([`connection_failure`]).
pub fn shown_call_failure(status: &tonic::Status) -> String {
    let Some(cause) = std::error::Error::source(status).map(deepest_cause) else {
        return format!("the server answered {}", shown_status(status));
    };
    match connection_failure(&cause) {
        Some(failure) => failure,
        None => format!("the call failed: {}", shown_status_with_cause(status)),
    }
}

/// What a status made here from the transport's error `cause` means, where
/// it points at TLS: "the server refused the TLS handshake: it requires a
/// client certificate (--tls-cert and --tls-key)" rather than "UNKNOWN:
/// transport error". A TLS alert is the sure sign; a plaintext client
/// talking to a TLS port sees bytes that are not HTTP/2, or a connection
/// the server closed, as does a client without the certificate a server
/// asks for (TLS 1.3 refuses it after the handshake): each is told what a
/// TLS server needs.
fn connection_failure(cause: &str) -> Option<String> {
    let shown_cause = shown(cause);
    let cause = cause.to_lowercase();
    if cause.contains("fatal alert: certificaterequired") {
        Some(
            "the server refused the TLS handshake: it requires a client certificate \
             (--tls-cert and --tls-key)"
                .to_string(),
        )
    } else if cause.contains("fatal alert") {
        Some(format!(
            "the server refused the TLS handshake ({shown_cause})"
        ))
    } else if cause.contains("frame with invalid size") {
        // A TLS record read as an HTTP/2 frame.
        Some(format!(
            "the connection failed: the server's reply is not HTTP/2 ({shown_cause}); a TLS \
             server needs a client that speaks TLS (--tls-ca FILE or an https:// address)"
        ))
    } else if ["broken pipe", "reset by peer", "connection closed"]
        .iter()
        .any(|closed| cause.contains(closed))
    {
        Some(format!(
            "the connection failed: the server closed it ({shown_cause}); a TLS server closes \
             connections that do not speak TLS (--tls-ca FILE or an https:// address) or \
             that bring no client certificate it trusts (--tls-cert and --tls-key)"
        ))
    } else {
        None
    }
}

/// A status message alone, as [`shown_status`] shows it.
pub fn shown_status_message(status: &tonic::Status) -> String {
    shown_up_to(status.message(), STATUS_CHARS)
}

/// A string from the network made safe to show: control characters
/// escaped, cut to its first [`QUOTED_CHARS`] characters.
pub fn shown(text: &str) -> String {
    shown_up_to(text, QUOTED_CHARS)
}

/// [`shown`], cut to its first `chars` characters.
pub fn shown_up_to(text: &str, chars: usize) -> String {
    let mut shown: String = text
        .chars()
        .take(chars)
        .flat_map(|character| {
            let escaped: Vec<char> = if character.is_control() {
                character.escape_default().collect()
            } else {
                vec![character]
            };
            escaped
        })
        .collect();
    if text.chars().nth(chars).is_some() {
        shown.push_str("...");
    }
    shown
}

/// A string from the network in quotes, made safe by [`shown`].
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", shown(text))
}

/// The answer a SolveStream response gives to `puzzle`, the text that was
/// sent, with a grade if `graded` (the request asked for one).
pub fn stream_answer(
    puzzle: &[u8],
    response: &pb::SolveStreamResponse,
    graded: bool,
) -> Result<Answer, ProtocolError> {
    let answer = answer_with_error(
        puzzle,
        response.outcome,
        &response.solution,
        response.error.as_ref(),
        response.stats.as_ref(),
    )?;
    with_grade(answer, response.grade.as_ref(), graded)
}

/// The answer one result of a batch gives to `puzzle`, checked as a
/// stream answer is.
pub fn batch_result(
    puzzle: &[u8],
    result: &pb::SolveResult,
    graded: bool,
) -> Result<Answer, ProtocolError> {
    let answer = answer_with_error(
        puzzle,
        result.outcome,
        result.solution.as_str(),
        result.error.as_ref(),
        result.stats.as_ref(),
    )?;
    with_grade(answer, result.grade.as_ref(), graded)
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

/// The answer a unary Solve response gives to `puzzle` (with a grade if
/// `graded`). A unary call answers only with a verdict; every other
/// outcome is a failed call.
pub fn unary_answer(
    puzzle: &str,
    response: &pb::SolveResponse,
    graded: bool,
) -> Result<Answer, ProtocolError> {
    let outcome = outcome_of(response.outcome)?;
    if outcome.has_error() {
        return Err(ProtocolError(format!(
            "outcome {} in a unary answer, which fails the call instead",
            outcome_name(response.outcome)
        )));
    }
    let guesses = response.stats.as_ref().map(|stats| stats.guesses);
    let answer = checked(
        puzzle.as_bytes(),
        outcome,
        &response.solution,
        None,
        guesses,
    )?;
    with_grade(answer, response.grade.as_ref(), graded)
}

/// The answer with its grade: there must be one exactly when it was asked
/// for (`graded`) and the puzzle was solved, which for a server means it
/// has exactly one solution.
fn with_grade(
    mut answer: Answer,
    grade: Option<&pb::Grade>,
    graded: bool,
) -> Result<Answer, ProtocolError> {
    let due = graded && answer.outcome == Outcome::Solved;
    match (due, grade) {
        (true, Some(grade)) => answer.grade = Some(Box::new(checked_grade(grade)?)),
        (false, None) => {}
        (true, None) => {
            return Err(ProtocolError(
                "no grade for a solved puzzle, though one was asked for (a server too old \
                 to grade?)"
                    .to_string(),
            ));
        }
        (false, Some(_)) if graded => {
            return Err(ProtocolError(
                "a grade for a puzzle that was not solved".to_string(),
            ));
        }
        (false, Some(_)) => {
            return Err(ProtocolError("a grade nobody asked for".to_string()));
        }
    }
    Ok(answer)
}

/// The highest rating a grade may have: well above Sudoku Explainer's
/// scale (which ends near 12) and this server's fallback for a stalled
/// path (10.0 and up).
const MAX_RATING: f64 = 100.0;

/// A grade whose parts agree: ratings in tenths on the scale, the first
/// step's (ED) at most the first placement's (EP), which is at most the
/// grade's (ER), the level that rating falls in, known techniques each counted once and at least
/// once, none rated above the grade, the hardest among them, and a reason
/// exactly when it stalled.
pub fn checked_grade(grade: &pb::Grade) -> Result<GradeSummary, ProtocolError> {
    let fail = |what: String| Err(ProtocolError(format!("a grade with {what}")));
    let rating = checked_rating(grade.rating)?;
    let pearl = checked_rating(grade.pearl)?;
    let diamond = checked_rating(grade.diamond)?;
    if !(diamond <= pearl && pearl <= rating) {
        return fail(format!(
            "ratings {rating}/{pearl}/{diamond}, not ER >= EP >= ED"
        ));
    }
    if level_of(grade.level) != Some(rating.level()) {
        return fail(format!("level {} for a rating of {rating}", grade.level));
    }
    let hardest = match grade.hardest_technique.as_str() {
        "" => None,
        name => Some(known_technique(name)?),
    };
    let mut techniques = Vec::with_capacity(grade.techniques.len());
    for counted in &grade.techniques {
        let technique = known_technique(&counted.technique)?;
        if counted.count == 0 || techniques.iter().any(|&(seen, _)| seen == technique) {
            return fail(format!(
                "{} counted {} or twice",
                technique.name(),
                counted.count
            ));
        }
        if technique.base_rating() > rating {
            return fail(format!("{} above its rating of {rating}", technique.name()));
        }
        techniques.push((technique, counted.count));
    }
    techniques.sort_by_key(|&(technique, _)| technique as usize);
    if let Some(hardest) = hardest
        && !techniques.iter().any(|&(used, _)| used == hardest)
    {
        return fail(format!(
            "{} as its hardest, which it did not use",
            hardest.name()
        ));
    }
    if grade.stalled == grade.stalled_reason.is_empty() {
        return fail("a stall and its reason at odds".to_string());
    }
    Ok(GradeSummary {
        rating,
        pearl,
        diamond,
        hardest,
        techniques,
        stalled: grade.stalled.then(|| shown(&grade.stalled_reason)),
    })
}

/// A rating on Sudoku Explainer's scale: in tenths, from 0 to
/// [`MAX_RATING`].
pub fn checked_rating(value: f64) -> Result<Rating, ProtocolError> {
    let tenths = (value * 10.0).round();
    if !(0.0..=MAX_RATING).contains(&value) || (value * 10.0 - tenths).abs() > 1e-6 {
        return Err(ProtocolError(format!(
            "a rating of {value}, not in tenths from 0 to {MAX_RATING}"
        )));
    }
    Ok(Rating(tenths as u16))
}

/// The technique a grade or step names, if this client knows it.
pub fn known_technique(name: &str) -> Result<Technique, ProtocolError> {
    Technique::from_name(name)
        .ok_or_else(|| ProtocolError(format!("an unknown technique {}", quoted(name))))
}

/// The level a grade names, if it is one this client knows.
fn level_of(value: i32) -> Option<Level> {
    match pb::Level::try_from(value).ok()? {
        pb::Level::Unspecified => None,
        pb::Level::Easy => Some(Level::Easy),
        pb::Level::Medium => Some(Level::Medium),
        pb::Level::Hard => Some(Level::Hard),
        pb::Level::Diabolical => Some(Level::Diabolical),
        pb::Level::Extreme => Some(Level::Extreme),
    }
}

/// The outcome a response names, if it is one this client knows.
pub fn outcome_of(value: i32) -> Result<Outcome, ProtocolError> {
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
        grade: None,
    })
}

/// The board a solution names, if it is 81 digits that obey the rules and
/// keep the givens of `puzzle`, a puzzle this client reads as valid (a
/// solution to one it finds invalid is a server's error, whatever it is).
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
    let givens = parse_board_bytes(puzzle).map_err(|error| {
        ProtocolError(format!(
            "a solution ({}) to a puzzle that is not valid: {}",
            quoted(solution),
            shown(&error.to_string())
        ))
    })?;
    if !board.keeps_givens_of(&givens) {
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
            grade: None,
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
        stream_answer(CLASSIC.as_bytes(), response, false)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_right_answer_is_accepted() {
        let answer = stream_answer(
            CLASSIC.as_bytes(),
            &response(pb::Outcome::Solved, SOLUTION),
            false,
        )
        .unwrap();
        assert_eq!(answer.outcome, Outcome::Solved);
        assert_eq!(answer.solution.unwrap().to_line(), SOLUTION);
        let invalid = stream_answer(b"12x", &refusal(4, "bad"), false).unwrap();
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
        // A solution to a puzzle this client cannot read, 81 bytes long or
        // not (one with conflicting givens has no solution that keeps them).
        for puzzle in ["x", &CLASSIC.replacen('.', "x", 1)] {
            let refused = stream_answer(
                puzzle.as_bytes(),
                &response(pb::Outcome::Solved, SOLUTION),
                false,
            )
            .unwrap_err()
            .to_string();
            assert!(
                refused.starts_with(&format!(
                    "a solution (\"{SOLUTION}\") to a puzzle that is not valid: "
                )),
                "{puzzle}: {refused}"
            );
        }
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
            unary_answer(CLASSIC, &unary, false)
                .unwrap_err()
                .to_string(),
            "outcome OUTCOME_INVALID in a unary answer, which fails the call instead"
        );
    }

    #[test]
    fn statuses_show_their_code_s_grpc_name_and_most_of_their_message() {
        let long = "x".repeat(600);
        let status = tonic::Status::invalid_argument(format!("bad\n{long}"));
        let shown = shown_status(&status);
        assert!(shown.starts_with("INVALID_ARGUMENT: bad\\nxxx"), "{shown}");
        assert_eq!(shown.chars().count(), "INVALID_ARGUMENT: ".len() + 501 + 3);
        assert_eq!(crate::pb::code_name(tonic::Code::Ok), "OK");
        assert_eq!(
            crate::pb::code_name(tonic::Code::DeadlineExceeded),
            "DEADLINE_EXCEEDED"
        );
        assert_eq!(
            crate::pb::code_name(tonic::Code::Unauthenticated),
            "UNAUTHENTICATED"
        );
    }

    /// An error of a layer above another, as a transport's errors are.
    #[derive(Debug, thiserror::Error)]
    #[error("transport error")]
    struct Layer(#[source] std::io::Error);

    #[test]
    fn a_status_made_here_shows_its_deepest_cause_and_a_server_s_does_not_change() {
        let refused = || std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        assert_eq!(deepest_cause(&Layer(refused())), "refused");
        assert_eq!(deepest_cause(&refused()), "refused");
        let mut local = tonic::Status::unavailable("tcp connect error");
        local.set_source(std::sync::Arc::new(Layer(refused())));
        assert_eq!(
            shown_status_with_cause(&local),
            "UNAVAILABLE: tcp connect error (refused)"
        );
        let mut repeated = tonic::Status::unavailable("refused");
        repeated.set_source(std::sync::Arc::new(refused()));
        assert_eq!(shown_status_with_cause(&repeated), "UNAVAILABLE: refused");
        let from_server = tonic::Status::invalid_argument("bad");
        assert_eq!(
            shown_status_with_cause(&from_server),
            shown_status(&from_server)
        );
        assert_eq!(
            shown_call_failure(&from_server),
            "the server answered INVALID_ARGUMENT: bad"
        );
        assert_eq!(
            shown_call_failure(&local),
            "the call failed: UNAVAILABLE: tcp connect error (refused)"
        );
    }

    /// A status as tonic makes it from the transport's error `cause`.
    fn failed_here(code: tonic::Code, message: &str, cause: &str) -> tonic::Status {
        let mut status = tonic::Status::new(code, message);
        status.set_source(std::sync::Arc::new(Layer(std::io::Error::other(
            cause.to_string(),
        ))));
        status
    }

    #[test]
    fn a_call_that_failed_on_tls_says_what_to_do() {
        use tonic::Code::{Internal, Unknown};
        let alert = failed_here(
            Unknown,
            "transport error",
            "received fatal alert: CertificateRequired",
        );
        let wanted = "the server refused the TLS handshake: it requires a client certificate \
                      (--tls-cert and --tls-key)";
        assert_eq!(shown_call_failure(&alert), wanted);
        assert_eq!(shown_status_with_cause(&alert), wanted);
        let other = failed_here(
            Unknown,
            "transport error",
            "received fatal alert: HandshakeFailure",
        );
        assert_eq!(
            shown_call_failure(&other),
            "the server refused the TLS handshake (received fatal alert: HandshakeFailure)"
        );
        let garbled = failed_here(
            Internal,
            "h2 protocol error: http2 error",
            "connection error detected: frame with invalid size",
        );
        assert_eq!(
            shown_call_failure(&garbled),
            "the connection failed: the server's reply is not HTTP/2 (connection error \
             detected: frame with invalid size); a TLS server needs a client that speaks TLS \
             (--tls-ca FILE or an https:// address)"
        );
        let closed = failed_here(
            Unknown,
            "transport error",
            "stream closed because of a broken pipe",
        );
        assert_eq!(
            shown_call_failure(&closed),
            "the connection failed: the server closed it (stream closed because of a broken \
             pipe); a TLS server closes connections that do not speak TLS (--tls-ca FILE or an \
             https:// address) or that bring no client certificate it trusts (--tls-cert and \
             --tls-key)"
        );
        let cancelled = failed_here(
            tonic::Code::Cancelled,
            "operation was canceled",
            "connection closed",
        );
        assert!(
            shown_call_failure(&cancelled).contains("the server closed it (connection closed)")
        );
        // Only a status made here: a server's own message is its own.
        let from_server = tonic::Status::internal("h2 protocol error: made up");
        assert_eq!(
            shown_call_failure(&from_server),
            "the server answered INTERNAL: h2 protocol error: made up"
        );
    }

    #[test]
    fn shown_strings_are_short_and_escaped() {
        assert_eq!(shown("a\nb"), "a\\nb");
        assert_eq!(shown(&"x".repeat(150)), format!("{}...", "x".repeat(100)));
    }

    /// The grade this server gives `puzzle`, as it sends it.
    fn graded(puzzle: &str) -> (pb::Grade, crate::domain::logic::Grade) {
        let report = crate::domain::solve_and_grade(
            puzzle,
            true,
            std::time::Instant::now(),
            crate::domain::TimeLimits::NONE,
            &|| false,
        )
        .unwrap();
        let grade = report.grade.unwrap();
        (crate::service::logic_messages::pb_grade(&grade), grade)
    }

    #[test]
    fn a_true_grade_is_accepted_as_it_was_made() {
        let (sent, grade) = graded(CLASSIC);
        assert_eq!(checked_grade(&sent).unwrap(), GradeSummary::from(&grade));
        let mut response = response(pb::Outcome::Solved, SOLUTION);
        response.grade = Some(sent);
        let answer = stream_answer(CLASSIC.as_bytes(), &response, true).unwrap();
        assert_eq!(answer.grade.as_deref(), Some(&GradeSummary::from(&grade)));
    }

    #[test]
    fn a_grade_comes_exactly_when_asked_for_and_the_puzzle_is_solved() {
        let (sent, _) = graded(CLASSIC);
        let mut with_grade = response(pb::Outcome::Solved, SOLUTION);
        with_grade.grade = Some(sent.clone());
        let refused = stream_answer(CLASSIC.as_bytes(), &with_grade, false).unwrap_err();
        assert_eq!(refused.to_string(), "a grade nobody asked for");
        let without = response(pb::Outcome::Solved, SOLUTION);
        let refused = stream_answer(CLASSIC.as_bytes(), &without, true).unwrap_err();
        assert!(
            refused
                .to_string()
                .starts_with("no grade for a solved puzzle")
        );
        let mut gave_up = refusal(pb::Outcome::GaveUp as i32, "out of time");
        assert!(stream_answer(CLASSIC.as_bytes(), &gave_up, true).is_ok());
        gave_up.grade = Some(sent);
        let refused = stream_answer(CLASSIC.as_bytes(), &gave_up, true).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "a grade for a puzzle that was not solved"
        );
    }

    #[test]
    fn a_grade_whose_parts_disagree_is_refused() {
        let (sent, _) = graded(
            "..4.12.......79.8.....4....7..6..8.43.....2...62....15.4......6.53.....2..64..3..",
        );
        let refused = |change: &dyn Fn(&mut pb::Grade)| {
            let mut grade = sent.clone();
            change(&mut grade);
            checked_grade(&grade).unwrap_err().to_string()
        };
        assert!(refused(&|g| g.rating = 4.25).contains("not in tenths"));
        assert!(refused(&|g| g.rating = f64::NAN).contains("not in tenths"));
        assert!(refused(&|g| g.pearl = -1.0).contains("not in tenths"));
        assert!(refused(&|g| g.diamond = 0.05).contains("not in tenths"));
        assert!(refused(&|g| g.pearl = 4.3).contains("4.2/4.3/1.2, not ER >= EP >= ED"));
        assert!(refused(&|g| g.diamond = 1.5).contains("4.2/1.2/1.5, not ER >= EP >= ED"));
        assert!(refused(&|g| g.level = pb::Level::Easy as i32).contains("level 1"));
        assert!(refused(&|g| g.techniques[0].technique = "Guessing".into()).contains("unknown"));
        assert!(refused(&|g| g.techniques[0].count = 0).contains("counted 0"));
        assert!(refused(&|g| g.techniques.push(g.techniques[0].clone())).contains("twice"));
        assert!(refused(&|g| g.hardest_technique = "Swordfish".into()).contains("did not use"));
        assert!(refused(&|g| g.stalled = true).contains("at odds"));
        let above = |g: &mut pb::Grade| {
            g.techniques.push(pb::TechniqueCount {
                technique: "Jellyfish".into(),
                count: 1,
            })
        };
        assert!(refused(&above).contains("Jellyfish above its rating of 4.2"));
    }
}
