//! `sudoku bench`'s load generator against an in-process server: every call
//! and every streamed puzzle is counted, and the echo baseline runs too.

use crate::common::{TestServer, read_puzzles};
use sudoku_grpc::cli::bench::loadgen::{BenchOptions, run};
use sudoku_grpc::cli::bench::{failed_calls, table};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_counts_every_call_and_every_streamed_puzzle() {
    let server = TestServer::default().await;
    let options = BenchOptions {
        servers: vec![server.url()],
        puzzles: read_puzzles("unique.txt").into_iter().take(50).collect(),
        concurrency: 8,
        requests: 300,
        streams: 3,
        stream_puzzles: 1_000,
        batch: 64,
        echo: true,
        connect: Default::default(),
    };
    let report = run(&options).await.unwrap();

    let unary = report.unary.as_ref().unwrap();
    assert_eq!(unary.ok, 300);
    assert!(unary.errors.is_empty(), "{:?}", unary.errors);
    assert!(unary.latency.max() >= unary.latency.value_at_quantile(0.5));
    assert_eq!(report.stream.unwrap().answered, 1_000);
    assert_eq!(report.echo.unwrap().answered, 1_000);
    assert_eq!(report.batch_stream.unwrap().answered, 1_000);
    assert_eq!(report.batch_echo.unwrap().answered, 1_000);

    assert_eq!(failed_calls(&report), None);
    let table = table(&report, &options);
    for row in [
        "unary Solve, concurrency 8",
        "SolveStream, 3 streams",
        "bare echo (same messages), 3 streams",
        "SolveStream / echo: ",
        "SolveBatchStream, batch 64, 3 streams",
        "batch echo (same messages), 3 streams",
        "SolveBatchStream / batch echo: ",
    ] {
        assert!(table.contains(row), "{row:?} missing from\n{table}");
    }
}

#[tokio::test]
async fn unary_failures_are_counted_by_code() {
    let server = TestServer::default().await;
    let options = BenchOptions {
        servers: vec![server.url()],
        puzzles: vec!["not a puzzle".to_string()],
        concurrency: 2,
        requests: 10,
        streams: 1,
        stream_puzzles: 0,
        batch: 64,
        echo: false,
        connect: Default::default(),
    };
    let report = run(&options).await.unwrap();
    let unary = report.unary.as_ref().unwrap();
    assert_eq!(unary.ok, 0);
    assert_eq!(unary.errors, vec![(tonic::Code::InvalidArgument, 10)]);
    assert!(report.stream.is_none() && report.echo.is_none());
    assert!(report.batch_stream.is_none() && report.batch_echo.is_none());
    assert_eq!(
        failed_calls(&report).as_deref(),
        Some("10 of 10 unary calls failed: InvalidArgument 10")
    );
}
