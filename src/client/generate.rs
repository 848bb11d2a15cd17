//! Generate on a server, each puzzle checked before it is believed.
//!
//! A generated puzzle is cheap to check: this client solves it itself
//! (microseconds) and refuses one that is malformed, has no solution or
//! more than one, comes with another solution, lacks the symmetry asked
//! for, is not minimal when that was asked (a solve per orbit of givens),
//! miscounts its clues, or carries a grade that is malformed or outside
//! the level and rating bounds asked for. A grade it asked not to get
//! (a server older than `skip_grade` sends one) is checked the same way,
//! then dropped. It also refuses more puzzles than it asked for. The grade
//! itself is the server's: regrading would cost this client as much as
//! generating.

use tonic::transport::Channel;

use super::check::{ProtocolError, checked_grade};
use super::{ClientError, ConnectOptions};
use crate::domain::generate::{Request, Symmetry, is_minimal};
use crate::domain::logic::{Level, Rating};
use crate::domain::{Board, GradeSummary, Outcome, parse_board, solve_board};
use crate::pb;
use crate::wording::counted;

/// A generated puzzle as this client has checked it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedPuzzle {
    /// The givens.
    pub puzzle: Board,
    /// Its one solution.
    pub solution: Board,
    /// Its grade, as the server rated it; `None` when the request skipped
    /// grading.
    pub grade: Option<GradeSummary>,
    /// The seed that makes it first.
    pub seed: u64,
}

/// Asks the server for `request`'s puzzles, which must meet `target`, and
/// hands each to `each` once checked; returns how many came. A stream
/// that fails after some puzzles gives its status once those are handed
/// on.
pub async fn generate(
    channel: Channel,
    options: &ConnectOptions,
    request: pb::GenerateRequest,
    target: &Request,
    mut each: impl FnMut(CheckedPuzzle) -> std::io::Result<()>,
) -> Result<usize, ClientError> {
    let asked = (request.count as usize).max(1);
    // No deadline for the call as a whole: the timeout bounds the wait
    // for each puzzle, however many are asked for.
    let call = async { Ok(options.sudoku_client(channel).generate(request).await?) };
    let mut stream = options.within(call).await?.into_inner();
    let mut made = 0;
    while let Some(response) = options
        .within(async { Ok(stream.message().await?) })
        .await?
    {
        if made == asked {
            return Err(ProtocolError::new(format!(
                "more than the {} asked for",
                counted(asked as u64, "puzzle", "puzzles")
            ))
            .into());
        }
        let checked = checked_puzzle(&response, target)?;
        each(checked).map_err(|error| ClientError::Output(error.to_string()))?;
        made += 1;
    }
    Ok(made)
}

/// The Generate request for `count` puzzles that meet `target`, from
/// `seed`.
pub fn pb_request(target: &Request, count: u32, seed: u64) -> pb::GenerateRequest {
    let level = match target.level {
        None => pb::Level::Unspecified,
        Some(Level::Easy) => pb::Level::Easy,
        Some(Level::Medium) => pb::Level::Medium,
        Some(Level::Hard) => pb::Level::Hard,
        Some(Level::Diabolical) => pb::Level::Diabolical,
        Some(Level::Extreme) => pb::Level::Extreme,
    };
    let symmetry = match target.symmetry {
        Symmetry::None => pb::Symmetry::None,
        Symmetry::Rotate180 => pb::Symmetry::Rotate180,
        Symmetry::Rotate90 => pb::Symmetry::Rotate90,
        Symmetry::Mirror => pb::Symmetry::Mirror,
        Symmetry::Flip => pb::Symmetry::Flip,
        Symmetry::Diagonal => pb::Symmetry::Diagonal,
        Symmetry::Antidiagonal => pb::Symmetry::Antidiagonal,
    };
    pb::GenerateRequest {
        count,
        level: level as i32,
        min_rating: target.min_rating.map_or(0.0, Rating::value),
        max_rating: target.max_rating.map_or(0.0, Rating::value),
        symmetry: symmetry as i32,
        minimal: target.minimal,
        seed,
        skip_grade: target.skip_grade,
    }
}

/// `response` checked against what `target` asked for.
pub fn checked_puzzle(
    response: &pb::GenerateResponse,
    target: &Request,
) -> Result<CheckedPuzzle, ProtocolError> {
    let fail = |what: String| ProtocolError::new(format!("a generated puzzle {what}"));
    let puzzle = parse_board(&response.puzzle)
        .map_err(|error| fail(format!("this client cannot read ({error})")))?;
    let report =
        solve_board(&puzzle, None, || false).map_err(|error| fail(format!("that {error}")))?;
    let solution = match (report.outcome, report.solution) {
        (Outcome::Solved, Some(solution)) => solution,
        (outcome, _) => return Err(fail(format!("that this client finds {outcome:?}"))),
    };
    if response.solution != solution.to_line() {
        return Err(fail(
            "with a solution that is not its one solution".to_string(),
        ));
    }
    if !target.symmetry.holds_for(puzzle.cells()) {
        return Err(fail(format!("without {:?} symmetry", target.symmetry)));
    }
    if target.minimal && !is_minimal(&puzzle, target.symmetry) {
        return Err(fail("that is not minimal".to_string()));
    }
    if response.clues as usize != puzzle.given_count() {
        return Err(fail(format!(
            "said to have {} clues, with {}",
            response.clues,
            puzzle.given_count()
        )));
    }
    let grade = match (&response.grade, target.skip_grade) {
        (None, true) => None,
        // A server older than `skip_grade` grades anyway: check, then drop.
        (Some(grade), true) => {
            checked_grade(grade)?;
            None
        }
        (None, false) => return Err(fail("without a grade".to_string())),
        (Some(grade), false) => {
            let grade = checked_grade(grade)?;
            if grade.stalled.is_some() || !target.accepts_rating(grade.rating) {
                return Err(fail(format!("rated {}, off the target", grade.rating)));
            }
            Some(grade)
        }
    };
    Ok(CheckedPuzzle {
        puzzle,
        solution,
        grade,
        seed: response.seed,
    })
}
