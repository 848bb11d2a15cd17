//! The limits on what one call may make the server do, over a real
//! connection: per-item caps, the byte budget, the call cap, the solve
//! budget per puzzle, and stream deadlines.

use std::time::{Duration, Instant};

use crate::common::{
    CLASSIC, CLASSIC_SOLUTION, SLOW, TestServer, eventually, item, occupy_worker, sample,
};
use sudoku_grpc::domain::MAX_PUZZLE_BYTES;
use sudoku_grpc::pb::{Outcome, SolveBatchRequest, SolveRequest};
use sudoku_grpc::server::Settings;
use sudoku_grpc::service::Limits;
use sudoku_grpc::service::limits::MAX_ITEM_CHARGE;
use sudoku_grpc::service::{ERROR_DOMAIN, GAVE_UP_REASON};
use tonic::Code;
use tonic_types::{RpcStatusExt, StatusExt};

#[tokio::test]
async fn items_over_their_caps_are_refused_one_by_one_and_the_stream_goes_on() {
    let server = TestServer::default().await;
    let long_id = "i".repeat(257);
    let long_puzzle = format!("{CLASSIC}{}", " ".repeat(2048 - 80));
    let (answers, end) = server
        .stream(vec![
            item("1", CLASSIC),
            item(&long_id, CLASSIC),
            item("3", &long_puzzle),
            item("i".repeat(256), CLASSIC),
        ])
        .await;
    assert!(end.is_none(), "{end:?}");
    let ids: Vec<&str> = answers.iter().map(|answer| answer.id.as_str()).collect();
    assert_eq!(
        ids,
        ["1", "", "3", &"i".repeat(256)],
        "an id over the cap is not echoed"
    );
    let outcomes: Vec<Outcome> = answers.iter().map(|answer| answer.outcome()).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Solved,
            Outcome::Invalid,
            Outcome::Invalid,
            Outcome::Solved
        ]
    );
    let id_error = answers[1].error.as_ref().unwrap();
    assert_eq!(id_error.code, Code::InvalidArgument as i32);
    assert_eq!(
        id_error.message,
        "id is 257 bytes long, over the limit of 256 bytes; it is not echoed"
    );
    let violation = &id_error.get_details_bad_request().unwrap().field_violations[0];
    assert_eq!(violation.field, "id");
    let puzzle_error = answers[2].error.as_ref().unwrap();
    assert_eq!(
        puzzle_error.message,
        "puzzle text is 2049 bytes long, over the limit of 2048 bytes"
    );
    assert_eq!(answers[3].solution, CLASSIC_SOLUTION);
}

/// Windows of two items at their largest, and a budget of one window and
/// one item more: the smallest budget the settings allow for them.
fn small_budget() -> Settings {
    Settings {
        metrics_listen: Some(([127, 0, 0, 1], 0).into()),
        limits: Limits {
            stream_window_bytes: 2 * MAX_ITEM_CHARGE,
            max_inflight_bytes: 3 * MAX_ITEM_CHARGE,
            max_batch: 1,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    }
}

/// The bytes charged to the budget now, from the metrics.
async fn charged(server: &TestServer) -> usize {
    sample(&server.scrape().await, "sudoku_inflight_bytes") as usize
}

#[tokio::test]
async fn unary_calls_are_not_charged_to_the_stream_budget() {
    let server = TestServer::start(small_budget(), 1, 64).await;
    let (release, blocker) = occupy_worker(&server.pool);
    let mut client = server.client().await;
    let call = tokio::spawn(async move {
        let request = SolveRequest {
            puzzle: CLASSIC.to_string(),
            grade: false,
        };
        client
            .solve(request)
            .await
            .map(|response| response.into_inner())
    });
    eventually("the call is queued", || server.pool.stats().in_flight == 2).await;
    assert_eq!(
        charged(&server).await,
        0,
        "a waiting unary call is not charged"
    );
    drop(release);
    blocker.await.unwrap();
    assert_eq!(call.await.unwrap().unwrap().solution, CLASSIC_SOLUTION);
}

#[tokio::test]
async fn a_stream_waits_for_the_byte_budget_instead_of_failing() {
    let settings = small_budget();
    let budget = settings.limits.max_inflight_bytes;
    let server = TestServer::start(settings, 1, 64).await;
    let (release, blocker) = occupy_worker(&server.pool);
    // A stream reads while its window has room for an item at its largest
    // (2,816 bytes) besides what it holds, so each of these takes in five
    // puzzles of 595 bytes: three streams want 8,925 bytes, more than the
    // budget of 8,448. While the worker is busy nothing is given back, so
    // the budget fills up (the waiting stream holds what is left of it
    // towards its next reservation) and a stream waits.
    let mut streams = Vec::new();
    for name in ["a", "b", "c"] {
        let requests: Vec<_> = (0..20)
            .map(|i| item(format!("{name}{i}"), CLASSIC))
            .collect();
        let mut client = server.client().await;
        let call = client.solve_stream(tokio_stream::iter(requests)).await;
        streams.push(call.unwrap().into_inner());
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while charged(&server).await != budget {
        assert!(Instant::now() < deadline, "the budget never filled up");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drop(release);
    blocker.await.unwrap();
    for (name, mut answers) in ["a", "b", "c"].into_iter().zip(streams) {
        for i in 0..20 {
            let answer = answers.message().await.unwrap().expect("an answer");
            assert_eq!(answer.id, format!("{name}{i}"));
            assert_eq!(answer.outcome(), Outcome::Solved);
        }
        assert!(answers.message().await.unwrap().is_none());
    }
    assert_eq!(charged(&server).await, 0, "everything is given back");
}

#[tokio::test]
async fn calls_over_the_cap_are_refused_at_once_and_health_still_answers() {
    let settings = Settings {
        max_calls: 2,
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 16).await;
    let mut held = Vec::new();
    for _ in 0..2 {
        let (requests, answers) = server.open_stream().await;
        held.push((requests, answers));
    }
    let refused = server.solve(CLASSIC).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(
        refused.message(),
        "server overloaded: 2 calls are in flight (--max-calls); retry with backoff"
    );
    let health =
        sudoku_grpc::client::check_health(server.channel().await, &Default::default(), "").await;
    assert!(matches!(health, Ok(true)), "{health:?}");
    // A stream holds its slot until it ends.
    let (requests, mut answers) = held.pop().unwrap();
    drop(requests);
    assert!(answers.message().await.unwrap().is_none());
    eventually_solves(&server).await;
}

/// Solves the classic puzzle once the server admits the call.
async fn eventually_solves(server: &TestServer) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match server.solve(CLASSIC).await {
            Ok(answer) => return assert_eq!(answer.solution, CLASSIC_SOLUTION),
            Err(status) if Instant::now() < deadline => {
                assert_eq!(status.code(), Code::ResourceExhausted);
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            Err(status) => panic!("never admitted: {status:?}"),
        }
    }
}

fn budget_of(max_solve_time: Duration) -> Settings {
    Settings {
        metrics_listen: Some(([127, 0, 0, 1], 0).into()),
        limits: Limits {
            max_solve_time,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    }
}

#[tokio::test]
async fn a_puzzle_over_the_solve_budget_is_given_up_and_the_worker_freed_at_once() {
    let server = TestServer::start(budget_of(Duration::from_millis(20)), 1, 4).await;
    let started = Instant::now();
    let status = server.solve(SLOW).await.unwrap_err();
    let took = started.elapsed();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    let message = status.message();
    assert!(message.starts_with("gave up after 0.0"), "{message}");
    assert!(
        message.ends_with("guesses: the limit is 0.020s per puzzle"),
        "{message}"
    );
    let info = status.get_details_error_info().expect("an ErrorInfo");
    assert_eq!(
        (info.reason.as_str(), info.domain.as_str()),
        (GAVE_UP_REASON, ERROR_DOMAIN)
    );
    let guesses: u64 = info.metadata["guesses"].parse().unwrap();
    assert!(guesses > 1000, "{guesses} guesses");
    assert!(took < Duration::from_millis(500), "answered after {took:?}");
    assert_eq!(server.pool.stats().running, 0, "the worker is free");
    assert_eq!(
        server.solve(CLASSIC).await.unwrap().solution,
        CLASSIC_SOLUTION
    );

    // In a stream the puzzle gets OUTCOME_GAVE_UP, and the stream goes on.
    let (answers, end) = server
        .stream(vec![
            item("1", CLASSIC),
            item("2", SLOW),
            item("3", CLASSIC),
        ])
        .await;
    assert!(end.is_none(), "{end:?}");
    let outcomes: Vec<Outcome> = answers.iter().map(|answer| answer.outcome()).collect();
    assert_eq!(
        outcomes,
        [Outcome::Solved, Outcome::GaveUp, Outcome::Solved]
    );
    let error = answers[1].error.as_ref().unwrap();
    assert_eq!(error.code, Code::ResourceExhausted as i32);
    assert!(
        error.message.starts_with("gave up after"),
        "{}",
        error.message
    );
    assert!(answers[1].solution.is_empty() && answers[1].stats.is_none());

    let metrics = server.scrape().await;
    for rpc in ["Solve", "SolveStream"] {
        let series = format!("sudoku_puzzles_total{{outcome=\"gave_up\",rpc=\"{rpc}\"}} 1");
        assert!(metrics.contains(&series), "{series} in {metrics}");
    }
}

#[tokio::test]
async fn the_default_solve_budget_leaves_the_slow_board_its_answer() {
    let server = TestServer::default().await;
    let answer = server.solve(SLOW).await.unwrap();
    assert_eq!(answer.outcome(), Outcome::NoSolution);
}

#[tokio::test]
async fn a_stream_deadline_ends_it_after_the_answers_already_computed() {
    let server = TestServer::start(Settings::default(), 1, 16).await;
    let mut requests = vec![item("0", CLASSIC), item("1", CLASSIC)];
    requests.extend((2..40).map(|i| item(i.to_string(), SLOW)));
    let mut call = tonic::Request::new(tokio_stream::iter(requests));
    // The header by hand: tonic's client would enforce its own timeout and
    // hide what the server does.
    call.metadata_mut()
        .insert("grpc-timeout", "300m".parse().unwrap());
    let started = Instant::now();
    let mut responses = server
        .client()
        .await
        .solve_stream(call)
        .await
        .unwrap()
        .into_inner();
    let mut answered = Vec::new();
    let status = loop {
        match responses.message().await {
            Ok(Some(answer)) => answered.push(answer.id),
            Ok(None) => panic!("the stream ended without its deadline: {answered:?}"),
            Err(status) => break status,
        }
    };
    let took = started.elapsed();
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(
        (Duration::from_millis(290)..Duration::from_secs(2)).contains(&took),
        "ended after {took:?}"
    );
    // A gap-free prefix: the quick ones, and the slow ones done in time.
    assert!(answered.len() >= 2, "{answered:?}");
    let expected: Vec<String> = (0..answered.len()).map(|i| i.to_string()).collect();
    assert_eq!(answered, expected);
    assert!(answered.len() < 40, "some work was dropped");
    // The running job is stopped and the queued ones dropped.
    eventually("the pool is idle", || server.pool.stats().in_flight == 0).await;
}

/// Eight SolveBatchStream clients that send a batch of the largest items
/// and then neither send more nor read: each idle stream holds room for
/// its next batch, which is more than the whole SolveStream budget here.
/// Batches have a budget of their own, so a SolveStream is still read and
/// answered; a unary SolveBatch, which shares the batches' budget, is shed
/// while they hold all of it.
#[tokio::test]
async fn idle_batch_streams_cannot_make_a_solve_stream_wait() {
    let settings = Settings {
        limits: Limits {
            max_batch: 4,
            max_batch_calls: 9,
            ..small_budget().limits
        },
        ..small_budget()
    };
    assert!(settings.limits.max_batch_charge() > settings.limits.max_inflight_bytes);
    let server = TestServer::start(settings, 2, 64).await;
    let largest = "1".repeat(MAX_PUZZLE_BYTES);
    let mut idle = Vec::new();
    for name in 0..8 {
        let (requests, outgoing) = tokio::sync::mpsc::channel(1);
        let batch = SolveBatchRequest::new(name.to_string(), vec![largest.clone(); 4]).graded(true);
        requests.send(batch).await.unwrap();
        let responses = server
            .client()
            .await
            .solve_batch_stream(tokio_stream::wrappers::ReceiverStream::new(outgoing))
            .await
            .unwrap()
            .into_inner();
        idle.push((requests, responses));
    }
    // Every batch taken in and answered: the streams now wait, idle, with
    // room reserved for their next batch.
    server
        .scrape_until(|text| {
            sample(
                text,
                "sudoku_puzzles_total{outcome=\"invalid\",rpc=\"SolveBatchStream\"}",
            ) >= 32.0
        })
        .await;
    let requests: Vec<_> = (0..10).map(|i| item(i, CLASSIC)).collect();
    let answered = tokio::time::timeout(Duration::from_secs(30), server.stream(requests)).await;
    let (answers, end) = answered.expect("the SolveStream is answered, not kept waiting");
    assert!(end.is_none(), "{end:?}");
    assert_eq!(answers.len(), 10);
    assert!(
        answers
            .iter()
            .all(|answer| answer.outcome() == Outcome::Solved)
    );
    assert_eq!(charged(&server).await, 0);
    let batches = sample(&server.scrape().await, "sudoku_batch_inflight_bytes");
    assert!(
        batches > 0.0,
        "the idle batch streams hold their reservations"
    );
}

/// `sudoku solve PUZZLE` against a server whose solver gives up prints the
/// `gave-up` line a file run prints, with the same exit code; it printed
/// nothing on stdout and failed as if the call had.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_prints_gave_up_for_one_puzzle_as_for_a_file() {
    use crate::common::process::{run_sudoku, temp_file, text};
    let server = TestServer::start(budget_of(Duration::from_millis(20)), 1, 4).await;
    let url = server.url();
    let (one, file) = tokio::task::spawn_blocking(move || {
        let one = run_sudoku(&["solve", SLOW, "--server", &url], "");
        let slow = temp_file("slow.txt", &format!("{SLOW}\n"));
        let path = slow.to_str().unwrap().to_string();
        let file = run_sudoku(&["solve", &path, "--server", &url, "--quiet"], "");
        (one, file)
    })
    .await
    .unwrap();
    let line = text(&one.stdout);
    assert!(line.starts_with("gave-up gave up after 0.0"), "{line:?}");
    assert!(text(&file.stdout).starts_with("gave-up "), "{:?}", file);
    assert_eq!(one.status.code(), file.status.code());
}

/// An over-long puzzle argument is invalid, with the 2,048-byte limit
/// named and exit code 2, at any length: past the 16 KiB message limit
/// the call used to fail as too large a message instead (exit 3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_over_long_puzzle_argument_is_invalid_at_any_length() {
    use crate::common::process::{run_sudoku, text};
    let server = TestServer::default().await;
    let url = server.url();
    let lengths = [3_000, 20_000];
    let outputs = tokio::task::spawn_blocking(move || {
        lengths.map(|length| run_sudoku(&["solve", &"1".repeat(length), "--server", &url], ""))
    })
    .await
    .unwrap();
    for (output, length) in outputs.iter().zip(lengths) {
        let line = text(&output.stdout);
        assert_eq!(output.status.code(), Some(2), "{length}: {line}");
        let limit = format!("puzzle text is {length} bytes long, over the limit of 2048 bytes");
        assert!(
            line.starts_with("invalid ") && line.contains(&limit),
            "{line}"
        );
    }
}
