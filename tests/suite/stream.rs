//! SolveStream over a real connection: order, ids, bad items, volume,
//! empty streams, vanishing clients and backpressure.

use std::time::{Duration, Instant};

use crate::common::{
    CLASSIC, CLASSIC_SOLUTION, TestServer, eventually, item, occupy_worker, sample, unique_puzzles,
};
use sudoku_grpc::domain::parse_board;
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::pb::{Outcome, SolveStreamRequest, SolveStreamResponse};
use sudoku_grpc::server::Settings;
use sudoku_grpc::service::Limits;
use tonic::Code;
use tonic_types::RpcStatusExt;

/// Sends all `requests` and collects every response; the stream must end
/// cleanly.
async fn solve_all(
    server: &TestServer,
    requests: Vec<SolveStreamRequest>,
) -> Vec<SolveStreamResponse> {
    let (answers, end) = server.stream(requests).await;
    assert!(end.is_none(), "the stream failed: {end:?}");
    answers
}

#[tokio::test]
async fn good_and_bad_items_come_back_in_order_with_their_ids() {
    let server = TestServer::default().await;
    let conflicting = format!("55{}", ".".repeat(79));
    let unsolvable = format!("12345678.........9{}", ".".repeat(63));
    let requests = vec![
        item("first", CLASSIC),
        item("bad-char", &CLASSIC.replacen('.', "?", 1)),
        item("too-short", &CLASSIC[..40]),
        item("conflict", &conflicting),
        item("empty-board", &".".repeat(81)),
        item("unsolvable", &unsolvable),
        item("", CLASSIC),
    ];
    let answers = solve_all(&server, requests).await;
    let ids: Vec<&str> = answers.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "first",
            "bad-char",
            "too-short",
            "conflict",
            "empty-board",
            "unsolvable",
            ""
        ]
    );
    let outcomes: Vec<Outcome> = answers.iter().map(|a| a.outcome()).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Solved,
            Outcome::Invalid,
            Outcome::Invalid,
            Outcome::Invalid,
            Outcome::MultipleSolutions,
            Outcome::NoSolution,
            Outcome::Solved,
        ]
    );
    assert_eq!(answers[0].solution, CLASSIC_SOLUTION);
    assert!(answers[0].error.is_none() && answers[0].stats.is_some());

    let expected_messages = [
        (1, "invalid character '?' at column 3"),
        (
            2,
            "expected 81 cells (digits 1-9, or '.' or '0' for blanks), found 40",
        ),
        (
            3,
            "conflicting givens: digit 5 appears at both r1c1 and r1c2, in the same row 1",
        ),
    ];
    for (index, prefix) in expected_messages {
        let error = answers[index]
            .error
            .as_ref()
            .expect("an error for an invalid item");
        assert_eq!(error.code, Code::InvalidArgument as i32);
        assert!(error.message.starts_with(prefix), "{}", error.message);
        let violation = &error
            .get_details_bad_request()
            .expect("BadRequest")
            .field_violations[0];
        assert_eq!(
            (violation.field.as_str(), violation.description.as_str()),
            ("puzzle", error.message.as_str())
        );
        assert!(answers[index].stats.is_none() && answers[index].solution.is_empty());
    }
}

#[tokio::test]
async fn a_stream_error_message_matches_the_unary_one() {
    let server = TestServer::default().await;
    let bad = CLASSIC.replacen('5', "x", 1);
    let unary = server.solve(&bad).await.unwrap_err();
    let streamed = solve_all(&server, vec![item(1, &bad)]).await;
    assert_eq!(streamed[0].error.as_ref().unwrap().message, unary.message());
}

#[tokio::test]
async fn ten_thousand_puzzles_are_all_answered_in_order() {
    let server = TestServer::default().await;
    let puzzles = unique_puzzles();
    let requests: Vec<_> = (0..10_000)
        .map(|i| item(i, &puzzles[i % puzzles.len()]))
        .collect();
    let answers = solve_all(&server, requests).await;
    assert_eq!(answers.len(), 10_000);
    for (index, answer) in answers.iter().enumerate() {
        assert_eq!(answer.id, index.to_string());
        assert_eq!(answer.outcome(), Outcome::Solved, "puzzle {index}");
        let puzzle = parse_board(&puzzles[index % puzzles.len()]).unwrap();
        let solution = parse_board(&answer.solution).unwrap();
        assert!(
            solution.is_solved() && solution.keeps_givens_of(&puzzle),
            "puzzle {index}"
        );
    }
    eventually("the pool is idle", || server.pool.stats().in_flight == 0).await;
}

#[tokio::test]
async fn an_empty_stream_ends_cleanly_with_no_answers() {
    let server = TestServer::default().await;
    assert!(solve_all(&server, Vec::new()).await.is_empty());
}

#[tokio::test]
async fn a_client_that_drops_mid_stream_leaves_the_server_healthy_and_idle() {
    let server = TestServer::start(Settings::default(), 2, 64).await;
    let hardest = unique_puzzles()
        .into_iter()
        .rev()
        .take(200)
        .collect::<Vec<_>>();
    let (requests, mut responses) = server.open_stream().await;
    let feeder = tokio::spawn(async move {
        for i in 0.. {
            if requests
                .send(item(i, &hardest[i % hardest.len()]))
                .await
                .is_err()
            {
                break;
            }
        }
    });
    for _ in 0..50 {
        responses.message().await.unwrap().expect("an answer");
    }
    assert!(
        server.pool.stats().in_flight > 0,
        "work should be in flight mid-stream"
    );
    drop(responses);
    feeder.abort();
    eventually("the server's pool is idle", || {
        server.pool.stats().in_flight == 0
    })
    .await;
    let health = sudoku_grpc::client::check_health(server.channel().await, &Default::default(), "")
        .await
        .unwrap();
    assert!(health, "the server is still SERVING");
    let response = server.solve(CLASSIC).await.unwrap();
    assert_eq!(response.outcome(), Outcome::Solved);
}

#[tokio::test]
async fn a_client_that_stops_reading_makes_the_server_stop_taking_work() {
    let window = 8;
    let settings = Settings {
        metrics_listen: Some(([127, 0, 0, 1], 0).into()),
        limits: Limits {
            stream_window: window,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 2, 64).await;
    let puzzles = unique_puzzles();
    let total = 20_000;
    let requests: Vec<_> = (0..total)
        .map(|i| item(i, &puzzles[i % puzzles.len()]))
        .collect();
    // A 64 KiB receive window (hyper's client default is 2 MiB per stream,
    // which would hold every answer of this test).
    let channel = tonic::transport::Endpoint::from_shared(server.url())
        .unwrap()
        .initial_stream_window_size(64 * 1024)
        .initial_connection_window_size(64 * 1024)
        .connect()
        .await
        .unwrap();
    let mut responses = SudokuServiceClient::new(channel)
        .solve_stream(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();

    // Not reading: the server answers what the transport can hold, then its
    // window fills with answers nobody takes, and it stops reading. Each
    // puzzle in the window is charged its id (1 to 5 bytes here), its 81
    // bytes and 512 for its answer. While the window fills, a reservation
    // for the next read comes and goes; wait until nothing moves.
    let (smallest, largest) = ((window * 594) as f64, (window * 598) as f64);
    let deadline = Instant::now() + Duration::from_secs(10);
    let solved = r#"sudoku_puzzles_total{outcome="solved",rpc="SolveStream"}"#;
    let progress = |metrics: &str| {
        (
            sample(metrics, "sudoku_inflight_bytes"),
            sample(metrics, solved),
        )
    };
    let mut last = (0.0, 0.0);
    let metrics = loop {
        let metrics = server.scrape().await;
        let now = progress(&metrics);
        if now == last && now.0 >= smallest {
            break metrics;
        }
        assert!(
            Instant::now() < deadline,
            "the window never filled: {metrics}"
        );
        last = now;
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let held = sample(&metrics, "sudoku_inflight_bytes");
    assert!(
        held <= largest,
        "{held} bytes held, over a window of {window} puzzles"
    );
    // What was answered is the window and what the transport holds: a 64
    // KiB client window and the server's send buffers of ~115-byte answers.
    let answered = sample(&metrics, solved);
    assert!(
        answered < 2_000.0,
        "the server solved {answered} puzzles nobody read"
    );

    // Reading again drains everything, in order.
    let mut received = 0;
    while let Some(answer) = responses.message().await.unwrap() {
        assert_eq!(answer.id, received.to_string());
        received += 1;
    }
    assert_eq!(received, total);
}

#[tokio::test]
async fn a_stream_waits_for_room_in_the_pool_instead_of_failing() {
    // One worker and no queue: while the worker is busy, the stream's jobs
    // wait for room instead of being shed.
    let server = TestServer::start(Settings::default(), 1, 0).await;
    let (release, blocker) = occupy_worker(&server.pool);
    let (requests, mut answers) = server.open_stream().await;
    for i in 0..10 {
        requests.send(item(i, CLASSIC)).await.unwrap();
    }
    let early = tokio::time::timeout(Duration::from_millis(200), answers.message()).await;
    assert!(
        early.is_err(),
        "an answer came while the worker was busy: {early:?}"
    );
    drop(release);
    blocker.await.unwrap();
    drop(requests);
    let mut received = 0;
    while let Some(answer) = answers.message().await.unwrap() {
        assert_eq!(answer.id, received.to_string());
        assert_eq!(answer.outcome(), Outcome::Solved);
        received += 1;
    }
    assert_eq!(received, 10);
}
