//! Grades, hints and explanations over a real connection: Solve with
//! `grade`, Hint and Explain, their refusals, and the time budget.

use std::time::Duration;

use crate::common::{CLASSIC, CLASSIC_SOLUTION, TestServer};
use sudoku_grpc::pb::{Candidate, ExplainRequest, HintRequest, Level, Outcome, SolveRequest, Step};
use sudoku_grpc::server::Settings;
use tonic::Code;
use tonic_types::StatusExt;

/// Two solutions: the classic with two givens removed.
const TWO_SOLUTIONS: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8...9";

/// A puzzle whose grading needs forcing chains: about 50 ms of grading,
/// against well under a millisecond of solving.
const NEEDS_FORCING_CHAINS: &str =
    ".......4...2..4..1.7..5..9...3..7....4..6....6..1..8...2....1..85.9...6.....8...3";

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
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(explained.outcome(), Outcome::MultipleSolutions);
    assert!(explained.steps.is_empty() && explained.grade.is_none());
}

#[tokio::test]
async fn a_grade_out_of_budget_is_stalled_but_the_solve_result_stays() {
    let settings = Settings {
        max_solve_time: Duration::from_millis(5),
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let mut client = server.client().await;
    let response = client
        .solve(graded(NEEDS_FORCING_CHAINS))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(response.outcome(), Outcome::Solved);
    assert_eq!(response.solution.len(), 81);
    let grade = response.grade.expect("a stalled grade is still a grade");
    assert!(grade.stalled, "{grade:?}");
    assert!(grade.stalled_reason.contains("time budget"), "{grade:?}");
    assert!(grade.rating >= 10.0);
}

#[tokio::test]
async fn explaining_gives_a_path_that_solves_the_puzzle_and_its_grade() {
    let server = TestServer::default().await;
    let mut client = server.client().await;
    let explained = client
        .explain(ExplainRequest {
            puzzle: CLASSIC.to_string(),
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
        max_message_bytes: 4096,
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let explained = server
        .client()
        .await
        .explain(ExplainRequest {
            puzzle: CLASSIC.to_string(),
        })
        .await
        .expect("Explain has its own response limit")
        .into_inner();
    assert!(prost::Message::encoded_len(&explained) > 4096);
    assert_eq!(explained.outcome(), Outcome::Solved);
}
