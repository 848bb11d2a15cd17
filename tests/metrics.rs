//! The Prometheus endpoint: after a known mix of calls, the counters,
//! the solve-time histogram and the pool gauges say exactly what happened.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{CLASSIC, TestServer, occupy_worker};
use sudoku_grpc::pb::{Outcome, SolveStreamRequest};
use sudoku_grpc::server::Settings;
use tonic::Code;

fn with_metrics() -> Settings {
    Settings {
        metrics_listen: Some(SocketAddr::from(([127, 0, 0, 1], 0))),
        ..Settings::default()
    }
}

/// The value of the sample named exactly `name` (labels included), or 0
/// when the series does not exist yet.
fn sample(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

/// Scrapes until `ready` holds for the text (the stream's end is counted
/// just after its client sees it), failing after five seconds.
async fn scrape_until(server: &TestServer, ready: impl Fn(&str) -> bool) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let text = server.scrape().await;
        if ready(&text) || std::time::Instant::now() > deadline {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn counts_calls_puzzles_and_solve_times_by_rpc_and_outcome() {
    let server = TestServer::start(with_metrics(), 2, 16).await;
    for _ in 0..3 {
        server.solve(CLASSIC).await.unwrap();
    }
    let multiple = server.solve(&".".repeat(81)).await.unwrap();
    assert_eq!(multiple.outcome(), Outcome::MultipleSolutions);
    let invalid = server.solve("12x").await.unwrap_err();
    assert_eq!(invalid.code(), Code::InvalidArgument);

    let (requests, mut answers) = server.open_stream().await;
    for (i, puzzle) in [CLASSIC, CLASSIC, "nonsense", CLASSIC, CLASSIC]
        .into_iter()
        .enumerate()
    {
        let id = i.to_string();
        let puzzle = puzzle.to_string();
        requests
            .send(SolveStreamRequest { id, puzzle })
            .await
            .unwrap();
    }
    drop(requests);
    let mut answered = 0;
    while answers.message().await.unwrap().is_some() {
        answered += 1;
    }
    assert_eq!(answered, 5);

    let text = scrape_until(&server, |text| {
        sample(text, r#"sudoku_calls_total{code="OK",rpc="SolveStream"}"#) == 1.0
    })
    .await;
    let expected = [
        (r#"sudoku_calls_total{code="OK",rpc="Solve"}"#, 4.0),
        (
            r#"sudoku_calls_total{code="INVALID_ARGUMENT",rpc="Solve"}"#,
            1.0,
        ),
        (r#"sudoku_calls_total{code="OK",rpc="SolveStream"}"#, 1.0),
        (r#"sudoku_puzzles_total{outcome="solved",rpc="Solve"}"#, 3.0),
        (
            r#"sudoku_puzzles_total{outcome="multiple_solutions",rpc="Solve"}"#,
            1.0,
        ),
        (
            r#"sudoku_puzzles_total{outcome="invalid",rpc="Solve"}"#,
            1.0,
        ),
        (
            r#"sudoku_puzzles_total{outcome="solved",rpc="SolveStream"}"#,
            4.0,
        ),
        (
            r#"sudoku_puzzles_total{outcome="invalid",rpc="SolveStream"}"#,
            1.0,
        ),
        (
            r#"sudoku_puzzles_total{outcome="no_solution",rpc="SolveStream"}"#,
            0.0,
        ),
        // Every puzzle the solver answered (not the invalid ones) is timed.
        ("sudoku_solve_duration_seconds_count", 8.0),
        (r#"sudoku_solve_duration_seconds_bucket{le="+Inf"}"#, 8.0),
        ("sudoku_streams_open", 0.0),
        ("sudoku_pool_workers", 2.0),
        ("sudoku_pool_queue_capacity", 16.0),
        ("sudoku_pool_queued_jobs", 0.0),
        ("sudoku_pool_running_jobs", 0.0),
    ];
    for (name, value) in expected {
        assert_eq!(sample(&text, name), value, "{name} in\n{text}");
    }
    assert!(sample(&text, "sudoku_solve_duration_seconds_sum") > 0.0);
}

#[tokio::test]
async fn shed_calls_open_streams_and_busy_workers_show_while_they_happen() {
    // One worker, no queue: while it is occupied, a unary call is shed.
    let server = TestServer::start(with_metrics(), 1, 0).await;
    let (release, blocker) = occupy_worker(&server.pool);
    let shed = server.solve(CLASSIC).await.unwrap_err();
    assert_eq!(shed.code(), Code::ResourceExhausted);
    let (requests, _answers) = server.open_stream().await;

    let text = scrape_until(&server, |text| sample(text, "sudoku_streams_open") == 1.0).await;
    for (name, value) in [
        (r#"sudoku_shed_total{rpc="Solve"}"#, 1.0),
        (
            r#"sudoku_calls_total{code="RESOURCE_EXHAUSTED",rpc="Solve"}"#,
            1.0,
        ),
        (r#"sudoku_puzzles_total{outcome="shed",rpc="Solve"}"#, 1.0),
        ("sudoku_streams_open", 1.0),
        ("sudoku_pool_running_jobs", 1.0),
    ] {
        assert_eq!(sample(&text, name), value, "{name} in\n{text}");
    }
    drop(release);
    blocker.await.unwrap();
    drop(requests);
}

#[tokio::test]
async fn streams_over_the_cap_are_refused_and_counted() {
    let settings = Settings {
        max_open_streams: 1,
        ..with_metrics()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let (first, mut first_answers) = server.open_stream().await;
    first
        .send(SolveStreamRequest {
            id: "a".into(),
            puzzle: CLASSIC.into(),
        })
        .await
        .unwrap();
    first_answers.message().await.unwrap().unwrap();

    let refused = server
        .client()
        .await
        .solve_stream(tokio_stream::empty())
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert!(refused.message().contains("1 streams are already open"));

    let text = server.scrape().await;
    assert_eq!(sample(&text, "sudoku_streams_refused_total"), 1.0, "{text}");
    assert_eq!(
        sample(&text, r#"sudoku_shed_total{rpc="SolveStream"}"#),
        1.0
    );
    assert_eq!(
        sample(
            &text,
            r#"sudoku_calls_total{code="RESOURCE_EXHAUSTED",rpc="SolveStream"}"#
        ),
        1.0
    );

    // Once the first stream ends, a new one is taken.
    drop(first);
    while first_answers.message().await.unwrap().is_some() {}
    let mut reopened = None;
    for _ in 0..100 {
        match server
            .client()
            .await
            .solve_stream(tokio_stream::empty())
            .await
        {
            Ok(stream) => {
                reopened = Some(stream);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    assert!(
        reopened.is_some(),
        "a stream opens again after the first ended"
    );
}
