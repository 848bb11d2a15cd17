//! Hint and Explain on a server, each answer checked before it is
//! believed.
//!
//! A logical step is cheap to check once the solution is known, and the
//! solution costs this client microseconds: it solves the puzzle itself
//! first, then refuses a step that places a digit the solution does not
//! have there or crosses out one it needs, a "mistake" that is not one, a
//! path that does not end in the solution, an outcome other than the one
//! it found, and anything malformed (cells off the grid, unknown
//! techniques, ratings off the scale). Explanations are shown with their
//! control characters escaped.

use tonic::transport::Channel;

use super::check::{self, ProtocolError, checked_grade, checked_rating, known_technique};
use super::{ClientError, ConnectOptions};
use crate::domain::logic::{self, Branch, INFERENCE_RULES, Link, LinkKind, Mark};
use crate::domain::{
    Board, HintReport, HintSummary, Outcome, PathReport, StepSummary, Unit, parse_board,
    solve_board,
};
use crate::pb;

/// The largest Explain response this client accepts: what the server
/// allows one (`MAX_EXPLAIN_RESPONSE_BYTES`, 1 MiB).
pub const MAX_EXPLAIN_RESPONSE_BYTES: usize = 1 << 20;

/// The longest explanation shown, in characters: a nested forcing chain
/// spells out every link of its branches, a few thousand characters.
const MAX_EXPLANATION_CHARS: usize = 32_768;

/// Asks the server for a hint from the position `request` describes, and
/// checks it.
pub async fn hint(
    channel: Channel,
    options: &ConnectOptions,
    request: pb::HintRequest,
) -> Result<HintReport, ClientError> {
    let call = async {
        let sent = options.request(request.clone());
        Ok(options.sudoku_client(channel).hint(sent).await?)
    };
    let response = options.within(call).await?;
    Ok(checked_hint(&request, response.get_ref())?)
}

/// Asks the server for the logical path from the position `request`
/// describes, and checks it.
pub async fn explain(
    channel: Channel,
    options: &ConnectOptions,
    request: pb::ExplainRequest,
) -> Result<PathReport, ClientError> {
    let call = async {
        Ok(options
            .sudoku_client(channel)
            .max_decoding_message_size(MAX_EXPLAIN_RESPONSE_BYTES)
            .explain(options.request(request.clone()))
            .await?)
    };
    let response = options.within(call).await?;
    Ok(checked_path(&request, response.get_ref())?)
}

/// The puzzle's givens, and its solution when this client finds it
/// unique; the server's `outcome` must agree with what this client finds.
fn local_solution(puzzle: &str, outcome: i32) -> Result<(Board, Option<Board>), ProtocolError> {
    let board = parse_board(puzzle).map_err(|error| {
        ProtocolError::new(format!(
            "an answer to a puzzle this client reads as invalid ({error})"
        ))
    })?;
    let report = solve_board(&board, None, || false).map_err(|error| {
        ProtocolError::new(format!("an answer to a puzzle it cannot solve ({error})"))
    })?;
    let sent = check::outcome_of(outcome)?;
    if sent != report.outcome {
        return Err(ProtocolError::new(format!(
            "outcome {sent:?} for a puzzle this client finds {:?}",
            report.outcome
        )));
    }
    let solution = report
        .solution
        .filter(|_| report.outcome == Outcome::Solved);
    Ok((board, solution))
}

/// A Hint answer checked against the position asked about and the
/// solution.
fn checked_hint(
    request: &pb::HintRequest,
    response: &pb::HintResponse,
) -> Result<HintReport, ProtocolError> {
    let outcome = check::outcome_of(response.outcome)?;
    let given = [
        response.step.is_some(),
        response.mistake.is_some(),
        response.position_solved,
        !response.stalled_reason.is_empty(),
    ];
    let (_, Some(solution)) = local_solution(&request.puzzle, response.outcome)? else {
        if given.contains(&true) {
            return Err(ProtocolError::new(
                "a hint for a puzzle without exactly one solution",
            ));
        }
        return Ok(HintReport {
            outcome,
            hint: None,
        });
    };
    if given.iter().filter(|&&set| set).count() != 1 {
        return Err(ProtocolError::new(
            "a hint that is not exactly one of a step, a mistake, solved, or stalled",
        ));
    }
    let hint = if let Some(step) = &response.step {
        HintSummary::Step(checked_step(step, &solution)?)
    } else if let Some(mistake) = &response.mistake {
        HintSummary::Mistake(checked_mistake(
            &request.progress,
            &request.marks,
            mistake,
            &solution,
        )?)
    } else if response.position_solved {
        let position = if request.progress.is_empty() {
            &request.puzzle
        } else {
            &request.progress
        };
        if parse_board(position).ok() != Some(solution) {
            return Err(ProtocolError::new("\"solved\" for a position that is not"));
        }
        HintSummary::Solved
    } else {
        HintSummary::Stalled(check::shown(&response.stalled_reason))
    };
    Ok(HintReport {
        outcome,
        hint: Some(hint),
    })
}

/// An Explain answer checked against the solution: every step sound, and
/// the placements with the givens make the solution unless the path
/// stalled.
fn checked_path(
    request: &pb::ExplainRequest,
    response: &pb::ExplainResponse,
) -> Result<PathReport, ProtocolError> {
    let outcome = check::outcome_of(response.outcome)?;
    let (givens, Some(solution)) = local_solution(&request.puzzle, response.outcome)? else {
        if !response.steps.is_empty() || response.grade.is_some() || response.mistake.is_some() {
            return Err(ProtocolError::new(
                "a path for a puzzle without exactly one solution",
            ));
        }
        return Ok(PathReport::none(outcome));
    };
    if let Some(mistake) = &response.mistake {
        if !response.steps.is_empty() || response.grade.is_some() {
            return Err(ProtocolError::new("a path for a position with a mistake"));
        }
        let mark = checked_mistake(&request.progress, &request.marks, mistake, &solution)?;
        return Ok(PathReport {
            mistake: Some(mark),
            ..PathReport::none(outcome)
        });
    }
    let start = match request.progress.as_str() {
        "" => givens,
        progress => parse_board(progress)
            .map_err(|error| ProtocolError::new(format!("the progress sent: {error}")))?,
    };
    let marks = (!request.marks.is_empty()).then_some(request.marks.as_str());
    let position = logic::position(&givens, Some(&start), marks).map_err(|error| {
        ProtocolError::new(format!("a path from a position refused here: {error}"))
    })?;
    if let Some(mistake) = logic::first_mistake(&position, &solution) {
        return Err(ProtocolError::new(format!(
            "a path from a position with a mistake at {} ({})",
            mistake.cell(),
            mistake.digit
        )));
    }
    let grade = response
        .grade
        .as_ref()
        .ok_or_else(|| ProtocolError::new("a path without its grade"))
        .and_then(checked_grade)?;
    let steps = response
        .steps
        .iter()
        .enumerate()
        .map(|(number, step)| {
            checked_step(step, &solution)
                .map_err(|error| ProtocolError::new(format!("step {}: {error}", number + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut cells = *start.cells();
    for placed in steps.iter().flat_map(|step| &step.placements) {
        cells[usize::from(placed.cell)] = placed.digit;
    }
    if grade.stalled.is_none() && &cells != solution.cells() {
        return Err(ProtocolError::new("a path that does not solve the puzzle"));
    }
    Ok(PathReport {
        outcome,
        steps,
        grade: Some(grade),
        mistake: None,
    })
}

/// A step whose parts are well formed and sound: a known technique rated
/// at least its base rating, cells on the grid, placements of the
/// solution's digits, eliminations of others, and at least one of them.
fn checked_step(step: &pb::Step, solution: &Board) -> Result<StepSummary, ProtocolError> {
    let technique = known_technique(&step.technique)?;
    let rating = checked_rating(step.rating)?;
    if rating < technique.base_rating() {
        return Err(ProtocolError::new(format!(
            "a {} rated {rating}, below its base rating",
            technique.name()
        )));
    }
    let marks = |candidates: &[pb::Candidate], digits: std::ops::RangeInclusive<u32>| {
        candidates
            .iter()
            .map(|candidate| checked_candidate(candidate, digits.clone()))
            .collect::<Result<Vec<_>, _>>()
    };
    let pattern = marks(&step.cells, 0..=9)?;
    let placements = marks(&step.placements, 1..=9)?;
    let eliminations = marks(&step.eliminations, 1..=9)?;
    let digit_at = |mark: &Mark| solution.cells()[usize::from(mark.cell)];
    if let Some(wrong) = placements.iter().find(|&mark| digit_at(mark) != mark.digit) {
        return Err(ProtocolError::new(format!(
            "a {} that places {} at {}, where the solution has {}",
            technique.name(),
            wrong.digit,
            wrong.cell(),
            digit_at(wrong)
        )));
    }
    if let Some(wrong) = eliminations
        .iter()
        .find(|&mark| digit_at(mark) == mark.digit)
    {
        return Err(ProtocolError::new(format!(
            "a {} that crosses out the solution's {} at {}",
            technique.name(),
            wrong.digit,
            wrong.cell()
        )));
    }
    if placements.is_empty() && eliminations.is_empty() {
        return Err(ProtocolError::new(format!(
            "a {} that neither places nor crosses out anything",
            technique.name()
        )));
    }
    Ok(StepSummary {
        technique,
        rating,
        pattern,
        placements,
        eliminations,
        explanation: check::shown_up_to(&step.explanation, MAX_EXPLANATION_CHARS),
        units: step
            .units
            .iter()
            .map(checked_unit)
            .collect::<Result<_, _>>()?,
        witnesses: marks(&step.witnesses, 1..=9)?,
        links: step
            .links
            .iter()
            .map(|link| match checked_link(link)? {
                link if link.kind == LinkKind::Inference => Err(ProtocolError::new(
                    "an inference link outside a forcing chain's branch",
                )),
                link => Ok(link),
            })
            .collect::<Result<_, _>>()?,
        branches: step
            .branches
            .iter()
            .map(checked_branch)
            .collect::<Result<_, _>>()?,
    })
}

/// The name of a technique a nested chain's inference may rest on.
fn known_inner_technique(name: &str) -> Result<&'static str, ProtocolError> {
    INFERENCE_RULES
        .iter()
        .find(|&&known| known == name)
        .copied()
        .ok_or_else(|| {
            ProtocolError::new(format!("an unknown inner technique {}", check::shown(name)))
        })
}

/// A row, column or box numbered 1-9.
fn checked_unit(unit: &pb::Unit) -> Result<Unit, ProtocolError> {
    let number = u8::try_from(unit.number)
        .ok()
        .filter(|n| (1..=9).contains(n))
        .ok_or_else(|| ProtocolError::new(format!("a unit numbered {}", unit.number)))?;
    match pb::UnitKind::try_from(unit.kind) {
        Ok(pb::UnitKind::Row) => Ok(Unit::Row(number)),
        Ok(pb::UnitKind::Column) => Ok(Unit::Column(number)),
        Ok(pb::UnitKind::Box) => Ok(Unit::Box(number)),
        _ => Err(ProtocolError::new(format!("a unit of kind {}", unit.kind))),
    }
}

/// A candidate that must be there, with a digit 1-9.
fn required(candidate: Option<&pb::Candidate>, what: &str) -> Result<Mark, ProtocolError> {
    let candidate = candidate.ok_or_else(|| ProtocolError::new(format!("a {what} missing")))?;
    checked_candidate(candidate, 1..=9)
}

/// A link between candidates on the grid, of a known kind, whose groups
/// hold their end's digit and cell.
fn checked_link(link: &pb::Link) -> Result<Link, ProtocolError> {
    let source = required(link.source.as_ref(), "link's source")?;
    let target = required(link.target.as_ref(), "link's target")?;
    let kind = match pb::LinkKind::try_from(link.kind) {
        Ok(pb::LinkKind::Strong) => LinkKind::Strong,
        Ok(pb::LinkKind::Weak) => LinkKind::Weak,
        Ok(pb::LinkKind::Inference) => LinkKind::Inference,
        _ => return Err(ProtocolError::new(format!("a link of kind {}", link.kind))),
    };
    let group = |end: Mark, cells: &[pb::Candidate]| -> Result<Vec<Mark>, ProtocolError> {
        let marks = cells
            .iter()
            .map(|c| checked_candidate(c, 1..=9))
            .collect::<Result<Vec<_>, _>>()?;
        let fits = marks.is_empty()
            || (marks.iter().all(|m| m.digit == end.digit) && marks.first() == Some(&end));
        match fits {
            true => Ok(marks),
            false => Err(ProtocolError::new(format!(
                "a group of cells for {} at {} that does not hold it",
                end.digit,
                end.cell()
            ))),
        }
    };
    let read = Link::between(source, target, kind, link.source_on, link.target_on);
    if !read.reads_as_its_kind() {
        return Err(ProtocolError::new(format!(
            "a {kind:?} link read from {} to {}",
            if link.source_on { "on" } else { "off" },
            if link.target_on { "on" } else { "off" }
        )));
    }
    let source_group = group(source, &link.source_group)?;
    let target_group = group(target, &link.target_group)?;
    Ok(read.with_groups(&source_group, &target_group))
}

/// A forcing chain's branch: its assumption, links and result.
fn checked_branch(branch: &pb::Branch) -> Result<Branch, ProtocolError> {
    let techniques: Vec<&'static str> = branch
        .techniques
        .iter()
        .map(|name| known_inner_technique(name))
        .collect::<Result<_, _>>()?;
    let assumption = required(branch.assumption.as_ref(), "branch's assumption")?;
    let links: Vec<Link> = branch
        .links
        .iter()
        .map(checked_link)
        .collect::<Result<_, _>>()?;
    let result = required(branch.result.as_ref(), "branch's result")?;
    let checked = Branch {
        assumption,
        assumed_on: branch.assumed_on,
        links,
        result,
        result_on: branch.result_on,
        contradiction: branch.contradiction,
        techniques,
    };
    match checked.shape_fault() {
        Some(fault) => Err(ProtocolError::new(fault)),
        None => Ok(checked),
    }
}

/// A candidate on the grid (rows and columns 1-9) with a digit in
/// `digits`.
fn checked_candidate(
    candidate: &pb::Candidate,
    digits: std::ops::RangeInclusive<u32>,
) -> Result<Mark, ProtocolError> {
    let on_grid = (1..=9).contains(&candidate.row) && (1..=9).contains(&candidate.column);
    if !on_grid || !digits.contains(&candidate.digit) {
        return Err(ProtocolError::new(format!(
            "a candidate off the grid or with a digit out of range: row {}, column {}, digit {}",
            candidate.row, candidate.column, candidate.digit
        )));
    }
    let cell = (candidate.row - 1) * 9 + candidate.column - 1;
    Ok(Mark::new(cell as usize, candidate.digit as u8))
}

/// A mistake that is one: the player placed that digit there and the
/// solution has another, or crossed out the solution's digit there.
fn checked_mistake(
    progress: &str,
    marks: &str,
    mistake: &pb::Candidate,
    solution: &Board,
) -> Result<Mark, ProtocolError> {
    let mark = checked_candidate(mistake, 1..=9)?;
    let cell = usize::from(mark.cell);
    let placed = parse_board(progress).is_ok_and(|progress| {
        progress.cells()[cell] == mark.digit && solution.cells()[cell] != mark.digit
    });
    let crossed_out = matches!(
        marks.as_bytes().get(cell * 9 + usize::from(mark.digit) - 1),
        Some(b'.' | b'0')
    ) && solution.cells()[cell] == mark.digit;
    if !(placed || crossed_out) {
        return Err(ProtocolError::new(format!(
            "a mistake at {} ({}) that is not one",
            mark.cell(),
            mark.digit
        )));
    }
    Ok(mark)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::domain::{PositionText, TimeLimits, explain_puzzle, hint_puzzle};
    use crate::service::logic_messages::{pb_grade, pb_step};

    /// A minimal puzzle whose hardest step is an XY-Wing.
    const HARD: &str =
        "..4.12.......79.8.....4....7..6..8.43.....2...62....15.4......6.53.....2..64..3..";

    /// The Explain answer this server gives for `puzzle`.
    fn explained(puzzle: &str) -> pb::ExplainResponse {
        let path = explain_puzzle(
            puzzle,
            PositionText::default(),
            Instant::now(),
            TimeLimits::NONE,
            &|| false,
        )
        .unwrap();
        pb::ExplainResponse {
            steps: path.steps.iter().map(pb_step).collect(),
            grade: path.grade.as_ref().map(pb_grade),
            outcome: pb::Outcome::Solved as i32,
            mistake: None,
        }
    }

    /// An Explain request for `puzzle` from its givens.
    fn asked(puzzle: &str) -> pb::ExplainRequest {
        pb::ExplainRequest {
            puzzle: puzzle.to_string(),
            ..Default::default()
        }
    }

    fn refusal(result: Result<PathReport, ProtocolError>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn a_true_path_is_accepted_as_the_local_one() {
        let local = PathReport::from(
            explain_puzzle(
                HARD,
                PositionText::default(),
                Instant::now(),
                TimeLimits::NONE,
                &|| false,
            )
            .unwrap(),
        );
        assert_eq!(checked_path(&asked(HARD), &explained(HARD)).unwrap(), local);
    }

    #[test]
    fn a_path_with_an_unsound_or_missing_step_is_refused() {
        let mut wrong_digit = explained(HARD);
        wrong_digit.steps[0].placements[0].digit %= 9;
        wrong_digit.steps[0].placements[0].digit += 1;
        assert!(
            refusal(checked_path(&asked(HARD), &wrong_digit))
                .starts_with("step 1: a Hidden Single")
        );

        let mut crosses_out = explained(HARD);
        let harder = crosses_out
            .steps
            .iter_mut()
            .find(|step| !step.eliminations.is_empty())
            .unwrap();
        let victim = harder.eliminations[0];
        harder.placements.clear();
        harder.eliminations[0].digit = solution_digit(victim);
        assert!(
            refusal(checked_path(&asked(HARD), &crosses_out))
                .contains("crosses out the solution's")
        );

        let mut short = explained(HARD);
        short.steps.pop();
        assert_eq!(
            refusal(checked_path(&asked(HARD), &short)),
            "a path that does not solve the puzzle"
        );

        let mut off_grid = explained(HARD);
        off_grid.steps[2].cells[0].row = 10;
        assert!(refusal(checked_path(&asked(HARD), &off_grid)).contains("off the grid"));

        let mut unknown = explained(HARD);
        unknown.steps[0].technique = "Magic".into();
        assert!(
            refusal(checked_path(&asked(HARD), &unknown)).contains("unknown technique \"Magic\"")
        );

        let mut underrated = explained(HARD);
        underrated.steps[0].rating = 0.5;
        assert!(refusal(checked_path(&asked(HARD), &underrated)).contains("below its base rating"));
    }

    fn solution_digit(candidate: pb::Candidate) -> u32 {
        let solution = solve_board(&parse_board(HARD).unwrap(), None, || false)
            .unwrap()
            .solution
            .unwrap();
        let cell = (candidate.row - 1) * 9 + candidate.column - 1;
        u32::from(solution.cells()[cell as usize])
    }

    #[test]
    fn an_outcome_other_than_the_clients_own_is_refused() {
        let mut wrong = explained(HARD);
        wrong.outcome = pb::Outcome::MultipleSolutions as i32;
        assert!(refusal(checked_path(&asked(HARD), &wrong)).contains("finds Solved"));
        let two = HARD.replacen('4', ".", 1);
        let mut path_for_two = explained(HARD);
        path_for_two.outcome = pb::Outcome::MultipleSolutions as i32;
        assert!(refusal(checked_path(&asked(&two), &path_for_two)).contains("without exactly one"));
    }

    /// A puzzle whose path needs forcing chains of several kinds.
    const CHAINS: &str =
        ".......4...2..4..1.7..5..9...3..7....4..6....6..1..8...2....1..85.9...6.....8...3";

    #[test]
    fn reasoning_read_against_its_kind_or_out_of_order_is_refused() {
        let path = explained(CHAINS);
        assert!(checked_path(&asked(CHAINS), &path).is_ok());
        let at = |kind: fn(&pb::Step) -> bool| path.steps.iter().position(kind).unwrap();
        let with_links = at(|s| !s.links.is_empty());
        let with_branches = at(|s| s.branches.iter().any(|b| b.links.len() > 1));

        let mut backwards = path.clone();
        let link = &mut backwards.steps[with_links].links[0];
        link.source_on = !link.source_on;
        assert!(refusal(checked_path(&asked(CHAINS), &backwards)).contains("link read from"));

        let mut inference = path.clone();
        inference.steps[with_links].links[0].kind = pb::LinkKind::Inference as i32;
        assert!(
            refusal(checked_path(&asked(CHAINS), &inference)).contains("outside a forcing chain")
        );

        let mut shuffled = path.clone();
        let branch = shuffled.steps[with_branches]
            .branches
            .iter_mut()
            .find(|b| b.links.len() > 1)
            .unwrap();
        branch.links.reverse();
        assert!(refusal(checked_path(&asked(CHAINS), &shuffled)).contains("before the branch"));
    }

    #[test]
    fn a_path_from_a_position_with_a_mistake_is_refused_and_a_0_mark_is_one() {
        let solution = solve_board(&parse_board(HARD).unwrap(), None, || false)
            .unwrap()
            .solution
            .unwrap();
        // The player crossed out r1c1's solution digit with a '0'.
        let mut marks = "123456789".repeat(81).into_bytes();
        marks[usize::from(solution.cells()[0]) - 1] = b'0';
        let request = pb::ExplainRequest {
            puzzle: HARD.into(),
            marks: String::from_utf8(marks).unwrap(),
            ..Default::default()
        };
        // A server that sends a path anyway is refused...
        assert!(refusal(checked_path(&request, &explained(HARD))).contains("with a mistake"));
        // ... and one that names the mistake is believed.
        let named = pb::ExplainResponse {
            outcome: pb::Outcome::Solved as i32,
            mistake: Some(pb::Candidate {
                row: 1,
                column: 1,
                digit: u32::from(solution.cells()[0]),
            }),
            ..Default::default()
        };
        let report = checked_path(&request, &named).unwrap();
        assert_eq!(report.mistake, Some(Mark::new(0, solution.cells()[0])));
    }

    #[test]
    fn hints_are_one_thing_and_mistakes_must_be_real() {
        let request = |progress: &str| pb::HintRequest {
            puzzle: HARD.into(),
            progress: progress.into(),
            marks: String::new(),
        };
        let hint = |request: &pb::HintRequest| {
            let answer = hint_puzzle(
                &request.puzzle,
                &request.progress,
                &request.marks,
                Instant::now(),
                TimeLimits::NONE,
                &|| false,
            )
            .unwrap();
            let Some(crate::domain::logic::Hint::Step(step)) = answer.hint else {
                panic!("a step");
            };
            pb::HintResponse {
                step: Some(pb_step(&step)),
                outcome: pb::Outcome::Solved as i32,
                ..Default::default()
            }
        };
        let plain = request("");
        let step = hint(&plain);
        assert!(matches!(
            checked_hint(&plain, &step).unwrap().hint,
            Some(HintSummary::Step(_))
        ));
        let mut two_things = step.clone();
        two_things.position_solved = true;
        assert!(
            checked_hint(&plain, &two_things)
                .unwrap_err()
                .to_string()
                .contains("exactly one")
        );

        let made_up = pb::HintResponse {
            mistake: Some(pb::Candidate {
                row: 1,
                column: 1,
                digit: 9,
            }),
            outcome: pb::Outcome::Solved as i32,
            ..Default::default()
        };
        let refused = checked_hint(&plain, &made_up).unwrap_err();
        assert!(refused.to_string().contains("not one"), "{refused}");
        let wrong_nine = request(&HARD.replacen('.', "9", 1));
        assert_eq!(
            checked_hint(&wrong_nine, &made_up).unwrap().hint,
            Some(HintSummary::Mistake(Mark::new(0, 9)))
        );
        let solved_lie = pb::HintResponse {
            position_solved: true,
            outcome: pb::Outcome::Solved as i32,
            ..Default::default()
        };
        assert!(checked_hint(&plain, &solved_lie).is_err());
    }
}
