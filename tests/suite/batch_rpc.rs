//! SolveBatch and SolveBatchStream over a real connection: one result per
//! puzzle in the batch's order, batches refused as a whole (over
//! --max-batch, an id over 256 bytes), the batch message size limit, the
//! cap on batch calls (which Explain shares), answers that match unary
//! Solve, per-puzzle metrics and the deadline of a batch stream.

use std::time::{Duration, Instant};

use crate::common::{
    CLASSIC, CLASSIC_SOLUTION, SLOW, TestServer, drain, eventually, occupy_worker, read_puzzles,
    sample,
};
use sudoku_grpc::domain::parse_board;
use sudoku_grpc::pb::{Outcome, SolveBatchRequest, SolveBatchResponse, SolveRequest, SolveResult};
use sudoku_grpc::server::Settings;
use sudoku_grpc::service::Limits;
use sudoku_grpc::service::answer_request;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Code, Status};
use tonic_types::{BadRequest, RpcStatusExt, StatusExt};

/// A batch request of these puzzles.
fn batch(id: impl Into<String>, puzzles: &[&str]) -> SolveBatchRequest {
    let puzzles = puzzles.iter().map(|puzzle| puzzle.to_string()).collect();
    SolveBatchRequest::new(id, puzzles)
}

/// Default settings but for `--max-batch`.
fn max_batch(max_batch: usize) -> Settings {
    Settings {
        limits: Limits {
            max_batch,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    }
}

/// The outcomes of a batch's results, in order.
fn outcomes(results: &[SolveResult]) -> Vec<Outcome> {
    results.iter().map(SolveResult::outcome).collect()
}

/// One unary SolveBatch call.
async fn solve_batch(
    server: &TestServer,
    request: SolveBatchRequest,
) -> Result<SolveBatchResponse, Status> {
    Ok(server
        .client()
        .await
        .solve_batch(request)
        .await?
        .into_inner())
}

/// Checks that `details` hold one BadRequest field violation, on `field`,
/// saying `message`.
fn assert_violation(details: Option<BadRequest>, field: &str, message: &str) {
    let violations = details.expect("a BadRequest").field_violations;
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].field, field);
    assert_eq!(violations[0].description, message);
}

/// Checks that a stream response's `error` refuses its batch as a whole:
/// INVALID_ARGUMENT, `message`, and a field violation on `field`.
fn assert_refused(error: &tonic_types::Status, field: &str, message: &str) {
    assert_eq!(error.code, Code::InvalidArgument as i32, "{error:?}");
    assert_eq!(error.message, message);
    assert_violation(error.get_details_bad_request(), field, message);
}

/// CLASSIC with a second 5 in its first row (r1c3).
fn conflicting() -> String {
    CLASSIC.replacen("53.", "535", 1)
}

#[tokio::test]
async fn a_unary_batch_gets_one_result_per_puzzle_in_order() {
    let server = TestServer::default().await;
    let empty = ".".repeat(81);
    let conflicting = conflicting();
    let too_long = format!("{CLASSIC}{}", " ".repeat(2049 - CLASSIC.len()));
    let request = batch("batch-1", &[CLASSIC, "12", &empty, &conflicting, &too_long]);
    let response = solve_batch(&server, request).await.unwrap();
    assert_eq!(response.id, "batch-1");
    assert!(response.error.is_none(), "{:?}", response.error);
    assert_eq!(response.result_count(), 5);
    let results = &response.results;
    assert_eq!(
        outcomes(results),
        [
            Outcome::Solved,
            Outcome::Invalid,
            Outcome::MultipleSolutions,
            Outcome::Invalid,
            Outcome::Invalid,
        ]
    );
    assert_eq!(results[0].solution, CLASSIC_SOLUTION);
    assert!(parse_board(&results[2].solution).unwrap().is_solved());
    for verdict in [&results[0], &results[2]] {
        assert!(
            verdict.error.is_none() && verdict.stats.is_some(),
            "{verdict:?}"
        );
    }
    let expected_messages = [
        (
            1,
            "expected 81 cells (digits 1-9, or '.' or '0' for blanks), found 2",
        ),
        (
            3,
            "conflicting givens: digit 5 appears at both r1c1 and r1c3, in the same row 1",
        ),
        (
            4,
            "puzzle text is 2049 bytes long, over the limit of 2048 bytes",
        ),
    ];
    for (index, prefix) in expected_messages {
        let result = &results[index];
        let error = result
            .error
            .as_ref()
            .expect("an error for an invalid puzzle");
        assert_eq!(error.code, Code::InvalidArgument as i32);
        assert!(error.message.starts_with(prefix), "{}", error.message);
        let violation = &error
            .get_details_bad_request()
            .expect("BadRequest")
            .field_violations[0];
        assert_eq!(violation.field, "puzzle");
        assert!(
            result.stats.is_none() && result.solution.is_empty(),
            "{result:?}"
        );
    }
}

#[tokio::test]
async fn a_unary_batch_over_max_batch_or_with_a_long_id_fails_the_call_as_a_whole() {
    let server = TestServer::start(max_batch(3), 2, 64).await;
    let refused = solve_batch(&server, batch("four", &[CLASSIC; 4]))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    let message = "the batch has 4 puzzles, over the limit of 3 (--max-batch); split it";
    assert_eq!(refused.message(), message);
    assert_violation(refused.get_details_bad_request(), "puzzles", message);

    let full = solve_batch(&server, batch("three", &[CLASSIC; 3]))
        .await
        .unwrap();
    assert_eq!(full.id, "three");
    assert_eq!(outcomes(&full.results), [Outcome::Solved; 3]);
    assert!(
        full.results
            .iter()
            .all(|result| result.solution == CLASSIC_SOLUTION)
    );

    let refused = solve_batch(&server, batch("i".repeat(257), &[CLASSIC]))
        .await
        .unwrap_err();
    let message = "id is 257 bytes long, over the limit of 256 bytes; it is not echoed";
    assert_eq!(refused.message(), message);
    assert_violation(refused.get_details_bad_request(), "id", message);

    let empty = solve_batch(&server, batch("empty", &[])).await.unwrap();
    assert_eq!((empty.id.as_str(), empty.result_count()), ("empty", 0));
    assert!(empty.error.is_none(), "{:?}", empty.error);
}

#[tokio::test]
async fn a_message_larger_than_a_full_batch_of_the_largest_items_is_resource_exhausted() {
    let server = TestServer::start(max_batch(2), 2, 64).await;
    let largest = "1".repeat(2048);
    // The largest message the server reads: two puzzles of 2048 bytes, a
    // 256-byte id and `grade` set, 259 + 2 x 2051 + 2 = 4363 bytes. Its
    // puzzles are read, and refused one by one.
    let full = solve_batch(
        &server,
        batch("i".repeat(256), &[&largest, &largest]).graded(true),
    )
    .await
    .unwrap();
    assert_eq!(full.id, "i".repeat(256));
    assert_eq!(outcomes(&full.results), [Outcome::Invalid; 2]);
    // One more puzzle is past what the message may be: it is not read, and
    // the size check comes before the count check.
    let status = solve_batch(&server, batch("", &[&largest, &largest, &largest]))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert_eq!(
        status.message(),
        "request message too large: found 6153 bytes, the limit is 4363 bytes \
         (a full batch: --max-batch puzzles of 2048 bytes)"
    );
    // The server still answers batches.
    let after = solve_batch(&server, batch("after", &[CLASSIC]))
        .await
        .unwrap();
    assert_eq!(after.results[0].solution, CLASSIC_SOLUTION);
}

#[tokio::test]
async fn a_batch_stream_answers_every_batch_in_order_and_goes_on_after_refused_ones() {
    let server = TestServer::start(max_batch(40), 2, 64).await;
    let empty = ".".repeat(81);
    let conflicting = conflicting();
    let kinds: [(&str, Outcome); 4] = [
        (CLASSIC, Outcome::Solved),
        ("12", Outcome::Invalid),
        (empty.as_str(), Outcome::MultipleSolutions),
        (conflicting.as_str(), Outcome::Invalid),
    ];
    let kind = |request: usize, index: usize| kinds[(request + index) % kinds.len()];
    // Empty batches, full ones (40) and sizes in between.
    let sizes: [usize; 20] = [
        0, 1, 13, 40, 2, 26, 39, 7, 0, 33, 5, 18, 40, 3, 16, 29, 11, 24, 37, 9,
    ];
    let mut requests = Vec::new();
    for (i, &size) in sizes.iter().enumerate() {
        if i == 10 {
            let too_many = vec![CLASSIC.to_string(); 41];
            requests.push(SolveBatchRequest::new("too-many", too_many));
            requests.push(batch("i".repeat(257), &[CLASSIC]));
        }
        let puzzles = (0..size).map(|j| kind(i, j).0.to_string()).collect();
        requests.push(SolveBatchRequest::new(format!("b{i}"), puzzles));
    }
    let (answers, end) = server.batch_stream(requests).await;
    assert!(end.is_none(), "the stream failed: {end:?}");
    let ids: Vec<&str> = answers.iter().map(|answer| answer.id.as_str()).collect();
    let mut expected_ids: Vec<String> = (0..sizes.len()).map(|i| format!("b{i}")).collect();
    // The batch with the long id is refused, and its id not echoed.
    expected_ids.insert(10, String::new());
    expected_ids.insert(10, "too-many".to_string());
    assert_eq!(ids, expected_ids);

    let too_many = &answers[10];
    assert_refused(
        too_many.error.as_ref().expect("the batch is refused"),
        "puzzles",
        "the batch has 41 puzzles, over the limit of 40 (--max-batch); split it",
    );
    assert_eq!(too_many.result_count(), 0);
    let long_id = &answers[11];
    assert_refused(
        long_id.error.as_ref().expect("the batch is refused"),
        "id",
        "id is 257 bytes long, over the limit of 256 bytes; it is not echoed",
    );
    assert_eq!(long_id.result_count(), 0);

    let answered = answers.iter().filter(|answer| answer.id.starts_with('b'));
    for (i, answer) in answered.enumerate() {
        assert!(answer.error.is_none(), "b{i}: {:?}", answer.error);
        assert_eq!(answer.result_count(), sizes[i], "b{i}");
        let expected: Vec<Outcome> = (0..sizes[i]).map(|j| kind(i, j).1).collect();
        assert_eq!(outcomes(&answer.results), expected, "b{i}");
        for result in &answer.results {
            if result.outcome() == Outcome::Solved {
                assert_eq!(result.solution, CLASSIC_SOLUTION, "b{i}");
            }
        }
    }
}

/// The shipped test data (every kind of outcome, interleaved) through a
/// batch stream, against what a unary Solve answers for each puzzle.
#[tokio::test]
async fn batch_stream_answers_match_unary_solve_on_the_shipped_puzzles() {
    let server = TestServer::default().await;
    let names = [
        "unique.txt",
        "multiple.txt",
        "unsolvable.txt",
        "conflicting.txt",
    ];
    let files: Vec<Vec<String>> = names.into_iter().map(read_puzzles).collect();
    let mut puzzles = Vec::new();
    for i in 0..300 {
        for file in &files {
            if let Some(puzzle) = file.get(i) {
                puzzles.push(puzzle.clone());
            }
        }
    }
    let requests: Vec<SolveBatchRequest> = puzzles
        .chunks(100)
        .enumerate()
        .map(|(i, chunk)| SolveBatchRequest::new(format!("c{i}"), chunk.to_vec()))
        .collect();
    let batches = requests.len();
    let (answers, end) = server.batch_stream(requests).await;
    assert!(end.is_none(), "the stream failed: {end:?}");
    assert_eq!(answers.len(), batches);
    let mut results: Vec<&SolveResult> = Vec::new();
    for (i, answer) in answers.iter().enumerate() {
        assert_eq!(answer.id, format!("c{i}"));
        assert!(answer.error.is_none(), "c{i}: {:?}", answer.error);
        results.extend(answer.results.iter());
    }
    assert_eq!(results.len(), puzzles.len());
    let mut seen = Vec::new();
    for (puzzle, result) in puzzles.iter().zip(results) {
        let unary = answer_request(SolveRequest {
            puzzle: puzzle.clone(),
            grade: false,
        });
        match unary {
            Ok(expected) => {
                assert_eq!(result.outcome, expected.outcome, "{puzzle}");
                assert_eq!(result.solution, expected.solution, "{puzzle}");
                assert!(result.error.is_none() && result.stats.is_some(), "{puzzle}");
            }
            Err(status) => {
                assert_eq!(result.outcome(), Outcome::Invalid, "{puzzle}");
                let error = result.error.as_ref().expect("an error");
                assert_eq!(error.code, status.code() as i32, "{puzzle}");
                assert_eq!(error.message, status.message(), "{puzzle}");
            }
        }
        if !seen.contains(&result.outcome()) {
            seen.push(result.outcome());
        }
    }
    assert_eq!(seen.len(), 4, "every kind of outcome is checked: {seen:?}");
}

#[tokio::test]
async fn batch_calls_over_their_cap_are_refused_while_solve_is_still_served() {
    let settings = Settings {
        limits: Limits {
            max_batch_calls: 1,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 2, 64).await;
    // A batch stream held open: its request side stays open.
    let (requests, outgoing) = mpsc::channel::<SolveBatchRequest>(4);
    let mut answers = server
        .client()
        .await
        .solve_batch_stream(ReceiverStream::new(outgoing))
        .await
        .unwrap()
        .into_inner();
    requests.send(batch("held", &[CLASSIC])).await.unwrap();
    let answer = answers.message().await.unwrap().expect("an answer");
    assert_eq!(answer.id, "held");

    let refused = solve_batch(&server, batch("unary", &[CLASSIC]))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(
        refused.message(),
        "server overloaded: 1 batch, Explain or variant call is in flight (--max-batch-calls); retry \
         with backoff"
    );
    let second = server
        .client()
        .await
        .solve_batch_stream(tokio_stream::empty::<SolveBatchRequest>())
        .await
        .unwrap_err();
    assert_eq!(second.code(), Code::ResourceExhausted, "{second:?}");
    assert!(second.message().contains("--max-batch-calls"), "{second:?}");
    // Explain, whose response may reach 1 MiB, shares the batch slots.
    let explain = server
        .client()
        .await
        .explain(sudoku_grpc::pb::ExplainRequest {
            puzzle: CLASSIC.to_string(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(explain.code(), Code::ResourceExhausted, "{explain:?}");
    // Solve has slots of its own.
    assert_eq!(
        server.solve(CLASSIC).await.unwrap().solution,
        CLASSIC_SOLUTION
    );

    // The stream holds its slot until it ends; then a batch is taken again.
    drop((requests, answers));
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        match solve_batch(&server, batch("again", &[CLASSIC])).await {
            Ok(response) => {
                assert_eq!(outcomes(&response.results), [Outcome::Solved]);
                break;
            }
            Err(status) if Instant::now() < deadline => {
                assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            Err(status) => panic!("the batch slot never came back: {status:?}"),
        }
    }
}

#[tokio::test]
async fn batches_are_counted_per_puzzle_and_each_call_once() {
    let settings = Settings {
        metrics_listen: Some(([127, 0, 0, 1], 0).into()),
        limits: Limits {
            max_batch: 3,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 2, 64).await;
    let empty = ".".repeat(81);
    solve_batch(&server, batch("a", &[CLASSIC, "12", CLASSIC]))
        .await
        .unwrap();
    let refused = solve_batch(&server, batch("b", &[CLASSIC; 4]))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    let requests = vec![
        batch("s1", &[CLASSIC, &empty]),
        batch("s2", &[CLASSIC; 4]),
        batch("s3", &["12"]),
    ];
    let (answers, end) = server.batch_stream(requests).await;
    assert!(end.is_none() && answers.len() == 3, "{answers:?} {end:?}");

    let calls =
        |rpc: &str, code: &str| format!("sudoku_calls_total{{code=\"{code}\",rpc=\"{rpc}\"}}");
    let puzzles = |rpc: &str, outcome: &str| {
        format!("sudoku_puzzles_total{{outcome=\"{outcome}\",rpc=\"{rpc}\"}}")
    };
    // The stream's end is counted just after its client sees it.
    let stream_ok = calls("SolveBatchStream", "OK");
    let text = server
        .scrape_until(|text| {
            sample(text, &stream_ok) == 1.0 && sample(text, "sudoku_streams_open") == 0.0
        })
        .await;
    let expected = [
        ("sudoku_streams_open".to_string(), 0.0),
        (calls("SolveBatch", "OK"), 1.0),
        (calls("SolveBatch", "INVALID_ARGUMENT"), 1.0),
        (puzzles("SolveBatch", "solved"), 2.0),
        // The invalid puzzle, and the refused batch counted as one.
        (puzzles("SolveBatch", "invalid"), 2.0),
        (stream_ok, 1.0),
        (puzzles("SolveBatchStream", "solved"), 1.0),
        (puzzles("SolveBatchStream", "multiple_solutions"), 1.0),
        (puzzles("SolveBatchStream", "invalid"), 2.0),
        (puzzles("Solve", "solved"), 0.0),
        // Every puzzle the solver answered is timed, the invalid ones not.
        ("sudoku_solve_duration_seconds_count".to_string(), 4.0),
    ];
    for (name, value) in expected {
        assert_eq!(sample(&text, &name), value, "{name} in\n{text}");
    }
}

#[tokio::test]
async fn a_batch_stream_deadline_ends_it_after_the_batches_already_answered() {
    let server = TestServer::start(Settings::default(), 2, 64).await;
    let (requests, outgoing) = mpsc::channel::<SolveBatchRequest>(4);
    let mut call = tonic::Request::new(ReceiverStream::new(outgoing));
    // The header by hand, as in `limits`: what is tested is the server's
    // deadline, not the client's.
    call.metadata_mut()
        .insert("grpc-timeout", "300m".parse().unwrap());
    let started = Instant::now();
    let mut responses = server
        .client()
        .await
        .solve_batch_stream(call)
        .await
        .unwrap()
        .into_inner();
    for id in ["d0", "d1"] {
        requests.send(batch(id, &[CLASSIC; 3])).await.unwrap();
    }
    // The request side stays open: only the deadline ends the stream.
    let (answered, end) = drain(&mut responses).await;
    let took = started.elapsed();
    let status = end.expect("the stream ends with its deadline");
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(
        (Duration::from_millis(290)..Duration::from_secs(2)).contains(&took),
        "ended after {took:?}"
    );
    let ids: Vec<&str> = answered.iter().map(|answer| answer.id.as_str()).collect();
    assert_eq!(ids, ["d0", "d1"]);
    for answer in &answered {
        assert_eq!(
            outcomes(&answer.results),
            [Outcome::Solved; 3],
            "{}",
            answer.id
        );
    }
    drop(requests);
    eventually("the pool is idle", || server.pool.stats().in_flight == 0).await;
}

/// A batch cut short by the deadline gets no response at all: the client
/// is owed whole batches only, so that what it resends is exactly the
/// batches that got none.
#[tokio::test]
async fn a_batch_cut_short_by_the_deadline_is_not_answered_in_part() {
    let server = TestServer::start(Settings::default(), 1, 16).await;
    let quick = SolveBatchRequest::new("quick", vec![CLASSIC.to_string(); 2]);
    let mut slow_puzzles = vec![CLASSIC.to_string()];
    slow_puzzles.extend(std::iter::repeat_n(SLOW.to_string(), 200));
    let slow = SolveBatchRequest::new("slow", slow_puzzles);
    let mut call = tonic::Request::new(tokio_stream::iter(vec![quick, slow]));
    call.metadata_mut()
        .insert("grpc-timeout", "300m".parse().unwrap());
    let mut responses = server
        .client()
        .await
        .solve_batch_stream(call)
        .await
        .unwrap()
        .into_inner();
    let (answered, end) = drain(&mut responses).await;
    let end = end.expect("the deadline ends the stream");
    assert_eq!(end.code(), Code::DeadlineExceeded, "{end:?}");
    assert!(
        end.message()
            .starts_with("the call's deadline passed: the answers sent before this stand"),
        "{end:?}"
    );
    let ids: Vec<&str> = answered.iter().map(|batch| batch.id.as_str()).collect();
    assert_eq!(ids, ["quick"], "only the whole batch is answered");
    assert_eq!(answered[0].results.len(), 2);
    eventually("the pool is idle", || server.pool.stats().in_flight == 0).await;
}

/// A batch stream that sends no request gives its call slot back after
/// --first-call-timeout: batch slots are few, and headers alone must not
/// hold one.
#[tokio::test]
async fn a_batch_stream_without_a_request_is_ended_and_frees_its_slot() {
    let settings = Settings {
        limits: Limits {
            max_batch_calls: 1,
            first_call_timeout: Duration::from_millis(300),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 16).await;
    let (_keep_open, outgoing) = mpsc::channel::<SolveBatchRequest>(1);
    let started = Instant::now();
    let mut silent = server
        .client()
        .await
        .solve_batch_stream(ReceiverStream::new(outgoing))
        .await
        .unwrap()
        .into_inner();
    let (answers, end) = tokio::time::timeout(Duration::from_secs(10), drain(&mut silent))
        .await
        .expect("the server ends a batch stream that sends nothing");
    assert!(answers.is_empty());
    let end = end.expect("the stream is ended");
    assert_eq!(end.code(), Code::DeadlineExceeded, "{end:?}");
    assert!(
        end.message()
            .contains("first request message did not arrive within 300ms"),
        "{end:?}"
    );
    assert!(started.elapsed() >= Duration::from_millis(290));
    // The slot is free again (the driver lingers a moment after the end).
    let batch = SolveBatchRequest::new("after", vec![CLASSIC.to_string()]);
    let mut answered = None;
    for _ in 0..100 {
        match server.client().await.solve_batch(batch.clone()).await {
            Ok(response) => {
                answered = Some(response.into_inner());
                break;
            }
            Err(status) => assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(answered.expect("the slot came back").results.len(), 1);
}

/// A unary batch sheds like Solve: when the pool cannot take all of its
/// jobs it fails at once with RESOURCE_EXHAUSTED, and none of them runs.
#[tokio::test]
async fn a_unary_batch_is_shed_at_once_when_the_pool_is_full() {
    let server = TestServer::start(Settings::default(), 1, 0).await;
    let (release, held) = occupy_worker(&server.pool);
    let batch = SolveBatchRequest::new("full", vec![CLASSIC.to_string(); 10]);
    let started = Instant::now();
    let status = server
        .client()
        .await
        .solve_batch(batch.clone())
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(
        status.message().starts_with("server overloaded"),
        "{status:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(1), "shed at once");
    assert_eq!(
        server.pool.stats().in_flight,
        1,
        "no job of the batch was queued"
    );
    drop(release);
    held.await.unwrap();
    let answered = server.client().await.solve_batch(batch).await.unwrap();
    assert_eq!(answered.into_inner().results.len(), 10);
}

/// A unary batch whose deadline passes answers DEADLINE_EXCEEDED, and its
/// jobs are dropped.
#[tokio::test]
async fn a_unary_batch_honours_its_deadline_and_drops_its_work() {
    let server = TestServer::start(Settings::default(), 1, 16).await;
    let mut request =
        tonic::Request::new(SolveBatchRequest::new("slow", vec![SLOW.to_string(); 200]));
    request.set_timeout(Duration::from_millis(300));
    let started = Instant::now();
    // A client that leaves the deadline to the server (see `solve`).
    let status = crate::solve::client_without_local_deadline(&server)
        .solve_batch(request)
        .await
        .unwrap_err();
    let took = started.elapsed();
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(
        (Duration::from_millis(290)..Duration::from_secs(2)).contains(&took),
        "ended after {took:?}"
    );
    eventually("the batch's jobs are dropped", || {
        server.pool.stats().in_flight == 0
    })
    .await;
}
