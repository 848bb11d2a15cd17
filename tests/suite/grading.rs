//! Grades, hints and explanations over a real connection: Solve,
//! SolveStream, SolveBatch and SolveBatchStream with `grade`, Hint and
//! Explain, their refusals, and the time budget.

use std::time::Duration;

use crate::common::{
    CLASSIC, CLASSIC_SOLUTION, NEEDS_FORCING_CHAINS, TWO_SOLUTIONS, TestServer, XY_WING as HARD,
};
use sudoku_grpc::pb::{
    Candidate, ExplainRequest, Grade, HintRequest, Level, Outcome, SolveBatchRequest, SolveRequest,
    SolveResponse, SolveStreamRequest, Step,
};
use sudoku_grpc::server::Settings;
use sudoku_grpc::service::Limits;
use tonic::Code;
use tonic_types::StatusExt;

fn graded(puzzle: &str) -> SolveRequest {
    SolveRequest {
        puzzle: puzzle.to_string(),
        grade: true,
    }
}

fn hint_request(puzzle: &str, progress: &str, marks: &str) -> HintRequest {
    HintRequest {
        puzzle: puzzle.to_string(),
        progress: progress.to_string(),
        marks: marks.to_string(),
    }
}

/// Applies a step's placements and eliminations to a board and marks.
fn apply(step: &Step, board: &mut [u8; 81], marks: &mut [u8; 729]) {
    let index = |c: &Candidate| ((c.row - 1) * 9 + c.column - 1) as usize;
    for candidate in &step.placements {
        board[index(candidate)] = b'0' + candidate.digit as u8;
    }
    for candidate in &step.eliminations {
        marks[index(candidate) * 9 + candidate.digit as usize - 1] = b'.';
    }
}

#[tokio::test]
async fn a_graded_solve_carries_a_grade_that_agrees_with_itself() {
    let server = TestServer::default().await;
    let mut client = server.client().await;
    let response = client.solve(graded(CLASSIC)).await.unwrap().into_inner();
    assert_eq!(response.solution, CLASSIC_SOLUTION);
    let grade = response.grade.expect("a grade was asked for");
    assert!((1.0..=1.5).contains(&grade.rating), "{grade:?}");
    assert_eq!(grade.level(), Level::Easy);
    assert!(
        grade
            .techniques
            .iter()
            .any(|t| t.technique == grade.hardest_technique)
    );
    let placed: u32 = grade.techniques.iter().map(|t| t.count).sum();
    assert_eq!(
        placed as usize,
        CLASSIC.bytes().filter(|&b| b == b'.').count()
    );
    assert!(!grade.stalled);
    let ungraded = server.solve(CLASSIC).await.unwrap();
    assert_eq!(ungraded.grade, None, "no grade unless asked for");
}

/// A stream item asking for a grade, or not.
fn stream_item(id: &str, puzzle: &str, grade: bool) -> SolveStreamRequest {
    SolveStreamRequest {
        id: id.to_string(),
        puzzle: puzzle.to_string(),
        grade,
    }
}

/// Puzzles of every kind a graded batch meets: easy, harder, two
/// solutions, invalid, and a chain puzzle.
fn mixed_puzzles() -> Vec<String> {
    [CLASSIC, HARD, TWO_SOLUTIONS, "12", NEEDS_FORCING_CHAINS]
        .map(String::from)
        .into()
}

/// The grade unary Solve gives a puzzle, for comparison.
async fn unary_grade(server: &TestServer, puzzle: &str) -> Option<Grade> {
    let mut client = server.client().await;
    client.solve(graded(puzzle)).await.ok()?.into_inner().grade
}

#[tokio::test]
async fn stream_items_are_graded_when_they_ask_and_as_solve_grades_them() {
    let server = TestServer::default().await;
    let puzzles = mixed_puzzles();
    let requests = puzzles
        .iter()
        .enumerate()
        .flat_map(|(i, puzzle)| {
            [
                stream_item(&format!("{i}-graded"), puzzle, true),
                stream_item(&format!("{i}-plain"), puzzle, false),
            ]
        })
        .collect();
    let (responses, failed) = server.stream(requests).await;
    assert!(failed.is_none(), "{failed:?}");
    assert_eq!(responses.len(), 2 * puzzles.len());
    for (pair, puzzle) in responses.chunks(2).zip(&puzzles) {
        let (graded, plain) = (&pair[0], &pair[1]);
        assert!(graded.id.ends_with("graded") && plain.id.ends_with("plain"));
        assert_eq!(graded.outcome, plain.outcome, "{puzzle}");
        assert_eq!(graded.solution, plain.solution, "{puzzle}");
        assert_eq!(plain.grade, None, "no grade unless asked for");
        assert_eq!(graded.grade, unary_grade(&server, puzzle).await, "{puzzle}");
    }
    let grades: Vec<bool> = responses.iter().map(|r| r.grade.is_some()).collect();
    assert_eq!(
        grades,
        [
            true, false, true, false, false, false, false, false, true, false
        ]
    );
    let chains = responses[8].grade.as_ref().unwrap();
    assert!(chains.rating >= 7.0 && !chains.stalled, "{chains:?}");
}

#[tokio::test]
async fn graded_batches_carry_a_grade_per_unique_puzzle_over_both_batch_calls() {
    let server = TestServer::default().await;
    let puzzles = mixed_puzzles();
    let request = SolveBatchRequest::new("graded", puzzles.clone()).graded(true);
    let plain = SolveBatchRequest::new("plain", puzzles.clone());
    let (responses, failed) = server
        .batch_stream(vec![request.clone(), plain.clone()])
        .await;
    assert!(failed.is_none(), "{failed:?}");
    let mut client = server.client().await;
    let unary = client.solve_batch(request).await.unwrap().into_inner();
    let unary_plain = client.solve_batch(plain).await.unwrap().into_inner();
    for response in [&responses[1], &unary_plain] {
        assert!(response.results.iter().all(|r| r.grade.is_none()));
    }
    for response in [&responses[0], &unary] {
        assert_eq!(response.results.len(), puzzles.len());
        for (result, puzzle) in response.results.iter().zip(&puzzles) {
            assert_eq!(result.grade, unary_grade(&server, puzzle).await, "{puzzle}");
        }
        let graded = response.results.iter().filter(|r| r.grade.is_some());
        assert_eq!(graded.count(), 3);
    }
    assert_eq!(
        responses[0].results[0].grade.as_ref().unwrap().level(),
        Level::Easy
    );
    assert_eq!(
        responses[0].results[1].grade.as_ref().unwrap().level(),
        Level::Hard
    );
}

#[tokio::test]
async fn a_puzzle_with_two_solutions_says_so_and_gets_no_grade() {
    let server = TestServer::default().await;
    let mut client = server.client().await;
    let response = client
        .solve(graded(TWO_SOLUTIONS))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(response.outcome(), Outcome::MultipleSolutions);
    assert_eq!(response.grade, None);
    let explained = client
        .explain(ExplainRequest {
            puzzle: TWO_SOLUTIONS.to_string(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(explained.outcome(), Outcome::MultipleSolutions);
    assert!(explained.steps.is_empty() && explained.grade.is_none());
}

/// The answer to a graded Solve of a puzzle that needs forcing chains,
/// from a one-worker server with `settings`.
async fn solve_graded_under(settings: Settings) -> SolveResponse {
    let server = TestServer::start(settings, 1, 4).await;
    let mut client = server.client().await;
    client
        .solve(graded(NEEDS_FORCING_CHAINS))
        .await
        .unwrap()
        .into_inner()
}

#[tokio::test]
async fn a_grade_out_of_budget_is_stalled_but_the_solve_result_stays() {
    let response = solve_graded_under(Settings {
        limits: Limits {
            max_grade_time: Duration::from_millis(5),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    })
    .await;
    assert_eq!(response.outcome(), Outcome::Solved);
    assert_eq!(response.solution.len(), 81);
    let grade = response.grade.expect("a stalled grade is still a grade");
    assert!(grade.stalled, "{grade:?}");
    assert!(grade.stalled_reason.contains("time budget"), "{grade:?}");
    // The rating reached so far: a lower bound of the whole grade's.
    let board = sudoku_grpc::domain::parse_board(NEEDS_FORCING_CHAINS).unwrap();
    let whole = sudoku_grpc::domain::logic::grade(&board);
    assert!(whole.stalled.is_none());
    assert!(grade.rating <= whole.rating.value(), "{grade:?} {whole:?}");
}

/// Grading has a budget of its own (`--max-grade-time`): a solve budget
/// far shorter than the grade takes does not cut the grade short.
#[tokio::test]
async fn the_solve_budget_does_not_cut_a_grade_short() {
    let response = solve_graded_under(Settings {
        limits: Limits {
            max_solve_time: Duration::from_millis(5),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    })
    .await;
    assert_eq!(response.outcome(), Outcome::Solved);
    let grade = response.grade.expect("a grade");
    assert!(!grade.stalled, "{grade:?}");
}

#[tokio::test]
async fn explaining_gives_a_path_that_solves_the_puzzle_and_its_grade() {
    let server = TestServer::default().await;
    let mut client = server.client().await;
    let explained = client
        .explain(ExplainRequest {
            puzzle: CLASSIC.to_string(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(explained.outcome(), Outcome::Solved);
    let mut board: [u8; 81] = CLASSIC.as_bytes().try_into().unwrap();
    let mut marks = [b'1'; 729];
    for step in &explained.steps {
        assert!(!step.explanation.is_empty());
        apply(step, &mut board, &mut marks);
    }
    assert_eq!(std::str::from_utf8(&board).unwrap(), CLASSIC_SOLUTION);
    let solved = client.solve(graded(CLASSIC)).await.unwrap().into_inner();
    assert_eq!(explained.grade, solved.grade);
}

#[tokio::test]
async fn following_hints_with_marks_walks_to_the_solution() {
    let server = TestServer::default().await;
    let mut client = server.client().await;
    let mut board: [u8; 81] = CLASSIC.as_bytes().try_into().unwrap();
    let mut marks = [0u8; 729];
    for (i, mark) in marks.iter_mut().enumerate() {
        *mark = b'1' + (i % 9) as u8;
    }
    for _ in 0..81 {
        let progress = std::str::from_utf8(&board).unwrap().to_string();
        let marks_text = std::str::from_utf8(&marks).unwrap().to_string();
        let hint = client
            .hint(hint_request(CLASSIC, &progress, &marks_text))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(hint.outcome(), Outcome::Solved);
        assert_eq!(hint.mistake, None);
        if hint.position_solved {
            assert_eq!(progress, CLASSIC_SOLUTION);
            return;
        }
        apply(&hint.step.expect("a step"), &mut board, &mut marks);
    }
    panic!("81 hints did not solve the puzzle");
}

#[tokio::test]
async fn a_wrong_placement_is_named_as_a_mistake() {
    let server = TestServer::default().await;
    let mut progress = CLASSIC.as_bytes().to_vec();
    progress[2] = b'1'; // r1c3 is 4 in the solution
    let progress = String::from_utf8(progress).unwrap();
    let hint = server
        .client()
        .await
        .hint(hint_request(CLASSIC, &progress, ""))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(hint.step, None);
    let mistake = hint.mistake.expect("a mistake");
    assert_eq!((mistake.row, mistake.column, mistake.digit), (1, 3, 1));
}

#[tokio::test]
async fn bad_progress_and_marks_are_refused_naming_the_field() {
    let server = TestServer::default().await;
    let mut client = server.client().await;
    let changed_given = CLASSIC.replacen('5', "4", 1);
    let cases = [
        (hint_request(CLASSIC, &changed_given, ""), "progress"),
        (hint_request(CLASSIC, "12x", ""), "progress"),
        (hint_request(CLASSIC, "", &"1".repeat(700)), "marks"),
        (hint_request("53..7", "", ""), "puzzle"),
    ];
    for (request, field) in cases {
        let status = client.hint(request).await.expect_err("refused");
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        let violations = status
            .get_details_bad_request()
            .expect("BadRequest")
            .field_violations;
        assert_eq!(violations[0].field, field, "{status:?}");
    }
}

#[tokio::test]
async fn an_explanation_larger_than_the_message_limit_still_arrives() {
    let settings = Settings {
        limits: Limits {
            max_message_bytes: 4096,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let explained = server
        .client()
        .await
        .explain(ExplainRequest {
            puzzle: CLASSIC.to_string(),
            ..Default::default()
        })
        .await
        .expect("Explain has its own response limit")
        .into_inner();
    assert!(prost::Message::encoded_len(&explained) > 4096);
    assert_eq!(explained.outcome(), Outcome::Solved);
}

#[tokio::test]
async fn steps_carry_their_reasoning_and_explain_starts_from_a_position() {
    let server = TestServer::default().await;
    let mut client = server.client().await;
    let explain = |progress: &str| ExplainRequest {
        puzzle: NEEDS_FORCING_CHAINS.to_string(),
        progress: progress.to_string(),
        ..Default::default()
    };
    let path = client.explain(explain("")).await.unwrap().into_inner();
    let on_grid = |c: &Candidate| (1..=9).contains(&c.row) && (1..=9).contains(&c.column);
    let mut kinds = (0, 0, 0);
    for step in &path.steps {
        if step.technique.starts_with("Hidden Single") {
            assert_eq!(step.units.len(), 1, "{step:?}");
            kinds.0 += 1;
        }
        for link in &step.links {
            assert!(
                on_grid(link.source.as_ref().unwrap()) && on_grid(link.target.as_ref().unwrap())
            );
            kinds.1 += 1;
        }
        for branch in &step.branches {
            assert!(
                branch.assumption.is_some() && branch.result.is_some(),
                "{branch:?}"
            );
            assert!(!branch.links.is_empty(), "{step:?}");
            kinds.2 += 1;
        }
    }
    assert!(kinds.0 > 0 && kinds.1 > 0 && kinds.2 > 0, "{kinds:?}");

    // From a position holding the path's first placements, the path
    // starts there: none of them is placed again.
    let first: Vec<&Candidate> = path
        .steps
        .iter()
        .flat_map(|s| &s.placements)
        .take(3)
        .collect();
    let mut progress = NEEDS_FORCING_CHAINS.as_bytes().to_vec();
    for c in &first {
        progress[((c.row - 1) * 9 + c.column - 1) as usize] = b'0' + c.digit as u8;
    }
    let progress = String::from_utf8(progress).unwrap();
    let rest = client
        .explain(explain(&progress))
        .await
        .unwrap()
        .into_inner();
    let placed_again = rest
        .steps
        .iter()
        .flat_map(|s| &s.placements)
        .filter(|c| first.iter().any(|f| (f.row, f.column) == (c.row, c.column)))
        .count();
    assert_eq!(placed_again, 0);
    assert!(rest.grade.is_some() && rest.mistake.is_none());

    // A wrong placement gets the mistake and no path.
    let wrong_digit = first[0].digit % 9 + 1;
    let mut wrong = progress.into_bytes();
    wrong[((first[0].row - 1) * 9 + first[0].column - 1) as usize] = b'0' + wrong_digit as u8;
    let wrong = String::from_utf8(wrong).unwrap();
    let refused = client.explain(explain(&wrong)).await.unwrap().into_inner();
    assert!(refused.steps.is_empty() && refused.grade.is_none());
    let mistake = refused.mistake.expect("a mistake");
    assert_eq!(
        (mistake.row, mistake.column),
        (first[0].row, first[0].column)
    );
}

#[tokio::test]
async fn an_invalid_puzzle_names_its_cells_in_a_cell_errors_detail() {
    use prost::Message;
    let server = TestServer::default().await;
    let conflicting = format!("7{}7{}", ".".repeat(9), ".".repeat(70));
    let status = server
        .client()
        .await
        .hint(hint_request(&conflicting, "", ""))
        .await
        .expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument);
    let rpc = tonic_types::Status::decode(status.details()).expect("a google.rpc.Status");
    let detail = rpc
        .details
        .iter()
        .find(|any| any.type_url == "type.googleapis.com/sudoku.v1.CellErrors")
        .expect("a CellErrors detail");
    let cells = sudoku_grpc::pb::CellErrors::decode(detail.value.as_slice()).unwrap();
    assert_eq!(cells.field, "puzzle");
    let named: Vec<_> = cells
        .cells
        .iter()
        .map(|c| (c.row, c.column, c.digit))
        .collect();
    // r1c1 and r2c2 (cell 10) share box 1.
    assert_eq!(named, [(1, 1, 7), (2, 2, 7)]);
}
