//! Unary Solve over a real connection: every outcome, every error kind,
//! deadlines and load shedding.

use std::time::Duration;

use crate::common::{CLASSIC, CLASSIC_SOLUTION, TestServer, eventually, occupy_worker};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::pb::{Outcome, SolveRequest};
use sudoku_grpc::server::Settings;
use tonic::{Code, Request, Status};
use tonic_types::StatusExt;

fn request(puzzle: &str) -> SolveRequest {
    SolveRequest {
        puzzle: puzzle.to_string(),
        grade: false,
    }
}

async fn solve_error(server: &TestServer, puzzle: &str) -> Status {
    server
        .solve(puzzle)
        .await
        .expect_err("the call should fail")
}

/// Asserts an INVALID_ARGUMENT status whose message starts with `prefix` and
/// whose BadRequest detail names the `puzzle` field with the same text.
fn assert_invalid(status: &Status, prefix: &str) {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert!(
        status.message().starts_with(prefix),
        "message: {}",
        status.message()
    );
    let violations = status
        .get_details_bad_request()
        .expect("BadRequest detail")
        .field_violations;
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].field, "puzzle");
    assert_eq!(violations[0].description, status.message());
}

#[tokio::test]
async fn a_unique_puzzle_is_solved_with_stats() {
    let server = TestServer::default().await;
    let response = server.solve(CLASSIC).await.unwrap();
    assert_eq!(response.outcome(), Outcome::Solved);
    assert_eq!(response.solution, CLASSIC_SOLUTION);
    let stats = response.stats.expect("stats");
    assert_eq!(stats.guesses, 0);
    assert!(stats.solve_time.is_some());
}

#[tokio::test]
async fn a_grid_with_box_separators_is_the_same_puzzle() {
    let server = TestServer::default().await;
    let grid = sudoku_grpc::domain::parse_board(CLASSIC).unwrap().to_grid();
    assert!(grid.contains('|') && grid.contains('+') && grid.contains('\n'));
    let response = server.solve(&grid).await.unwrap();
    assert_eq!(response.solution, CLASSIC_SOLUTION);
}

#[tokio::test]
async fn a_hard_puzzle_reports_its_guesses() {
    let server = TestServer::default().await;
    let hard = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let response = server.solve(hard).await.unwrap();
    assert_eq!(response.outcome(), Outcome::Solved);
    assert!(response.stats.unwrap().guesses > 0);
}

#[tokio::test]
async fn an_empty_board_has_multiple_solutions_and_one_is_given() {
    let server = TestServer::default().await;
    let response = server.solve(&".".repeat(81)).await.unwrap();
    assert_eq!(response.outcome(), Outcome::MultipleSolutions);
    let solution = sudoku_grpc::domain::parse_board(&response.solution).unwrap();
    assert!(solution.is_solved());
}

#[tokio::test]
async fn consistent_givens_without_completion_have_no_solution() {
    let server = TestServer::default().await;
    let puzzle = format!("12345678.........9{}", "0".repeat(63));
    let response = server.solve(&puzzle).await.unwrap();
    assert_eq!(response.outcome(), Outcome::NoSolution);
    assert_eq!(response.solution, "");
}

#[tokio::test]
async fn an_invalid_character_is_named_with_its_place() {
    let server = TestServer::default().await;
    let puzzle = CLASSIC.replacen('7', "x", 1);
    let status = solve_error(&server, &puzzle).await;
    assert_invalid(&status, "invalid character 'x' at column 5");
}

#[tokio::test]
async fn too_few_too_many_and_no_cells_say_how_many() {
    let server = TestServer::default().await;
    for (puzzle, found) in [
        (&CLASSIC[..80], 80),
        (&format!("{CLASSIC}5")[..], 82),
        ("", 0),
    ] {
        let status = solve_error(&server, puzzle).await;
        assert_invalid(&status, "expected 81 cells");
        assert!(
            status.message().ends_with(&format!("found {found}")),
            "{}",
            status.message()
        );
    }
}

#[tokio::test]
async fn conflicting_givens_name_both_cells_and_the_digit() {
    let server = TestServer::default().await;
    let mut puzzle = ".".repeat(81);
    puzzle.replace_range(1..2, "5");
    puzzle.replace_range(6..7, "5");
    let status = solve_error(&server, &puzzle).await;
    assert_invalid(
        &status,
        "conflicting givens: digit 5 appears at both r1c2 and r1c7, in the same row 1",
    );
}

#[tokio::test]
async fn an_expired_deadline_is_deadline_exceeded() {
    let server = TestServer::default().await;
    let mut call = Request::new(request(CLASSIC));
    call.set_timeout(Duration::from_micros(1));
    let status = client_without_local_deadline(&server)
        .solve(call)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert_eq!(
        status.message(),
        "the call's deadline passed before it was answered"
    );
}

pub(crate) type BareHttp2 = Client<HttpConnector, tonic::body::Body>;

/// A client over a bare HTTP/2 connection. tonic's own channel enforces
/// `grpc-timeout` on the client side too (answering CANCELLED locally),
/// which would hide what the server answers.
pub(crate) fn client_without_local_deadline(server: &TestServer) -> SudokuServiceClient<BareHttp2> {
    let http2 = Client::builder(TokioExecutor::new())
        .http2_only(true)
        .build_http::<tonic::body::Body>();
    SudokuServiceClient::with_origin(http2, server.url().parse().unwrap())
}

#[tokio::test]
async fn a_deadline_that_passes_in_the_queue_is_deadline_exceeded_and_the_job_dropped() {
    let server = TestServer::start(Settings::default(), 1, 4).await;
    let (release, blocker) = occupy_worker(&server.pool);
    let mut call = Request::new(request(CLASSIC));
    call.set_timeout(Duration::from_millis(100));
    let status = client_without_local_deadline(&server)
        .solve(call)
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    release.send(()).unwrap();
    tokio::task::spawn_blocking(move || blocker.wait())
        .await
        .unwrap()
        .unwrap();
    eventually("the abandoned job is skipped", || {
        server.pool.stats().skipped == 1
    })
    .await;
    assert_eq!(server.pool.stats().in_flight, 0);
}

#[tokio::test]
async fn a_full_queue_sheds_with_resource_exhausted_and_recovers() {
    let server = TestServer::start(Settings::default(), 1, 1).await;
    let (release, blocker) = occupy_worker(&server.pool);
    let (release_queued, queued) = occupy_worker_queued(&server);
    let status = solve_error(&server, CLASSIC).await;
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("retry"), "{}", status.message());
    drop((release, release_queued));
    let (blocked, queued) = tokio::task::spawn_blocking(move || (blocker.wait(), queued.wait()))
        .await
        .unwrap();
    blocked.unwrap();
    queued.unwrap();
    let response = server.solve(CLASSIC).await.unwrap();
    assert_eq!(response.outcome(), Outcome::Solved);
}

/// Fills the one queue slot of a busy one-worker pool with a job that
/// blocks until released.
fn occupy_worker_queued(
    server: &TestServer,
) -> (
    std::sync::mpsc::Sender<()>,
    sudoku_grpc::pool::JobHandle<()>,
) {
    let (release, gate) = std::sync::mpsc::channel::<()>();
    let handle = server
        .pool
        .try_submit(move |_| {
            let _ = gate.recv();
        })
        .expect("one queue slot");
    (release, handle)
}
