//! The Generate RPC: every puzzle certified unique, with the symmetry,
//! minimality and grade asked for; the same seed gives the same puzzles
//! on any worker count (and the same as `sudoku generate --local`), and
//! without a seed each puzzle's own seed reproduces it; bad
//! requests name their field; an unmeetable target, a deadline, a client
//! that stops reading or goes away, and a full pool are each handled.

use std::time::{Duration, Instant};

use crate::common::{TestServer, eventually, occupy_worker, sample, with_metrics};
use sudoku_grpc::domain::generate::{Symmetry, is_minimal};
use sudoku_grpc::domain::logic::Rating;
use sudoku_grpc::domain::{Outcome, parse_board, solve_board};
use sudoku_grpc::pb::{self, GenerateRequest, GenerateResponse};
use sudoku_grpc::server::Settings;
use sudoku_grpc::service::Limits;
use sudoku_grpc::service::{ERROR_DOMAIN, GENERATE_GAVE_UP_REASON, parse_generate_request};
use tonic::{Code, Status, Streaming};
use tonic_types::StatusExt;

async fn open(server: &TestServer, request: GenerateRequest) -> Streaming<GenerateResponse> {
    server
        .client()
        .await
        .generate(request)
        .await
        .unwrap()
        .into_inner()
}

/// Every puzzle of a call, and the status it ended with if it failed.
async fn generate(
    server: &TestServer,
    request: GenerateRequest,
) -> (Vec<GenerateResponse>, Option<Status>) {
    let mut stream = open(server, request).await;
    let mut puzzles = Vec::new();
    loop {
        match stream.message().await {
            Ok(Some(puzzle)) => puzzles.push(puzzle),
            Ok(None) => return (puzzles, None),
            Err(status) => return (puzzles, Some(status)),
        }
    }
}

/// Checks what the issue guarantees of one response.
fn check(response: &GenerateResponse, symmetry: Symmetry, minimal: bool) {
    let puzzle = parse_board(&response.puzzle).unwrap();
    let report = solve_board(&puzzle, None, || false).unwrap();
    assert_eq!(report.outcome, Outcome::Solved, "{}", response.puzzle);
    assert_eq!(report.solution.unwrap().to_line(), response.solution);
    assert!(symmetry.holds_for(puzzle.cells()), "{}", response.puzzle);
    assert_eq!(response.clues as usize, puzzle.given_count());
    if minimal {
        assert!(is_minimal(&puzzle, symmetry), "{}", response.puzzle);
    }
}

#[tokio::test]
async fn puzzles_are_unique_symmetric_minimal_and_at_the_level_asked() {
    let server = TestServer::default().await;
    let request = GenerateRequest {
        count: 6,
        level: pb::Level::Hard as i32,
        symmetry: pb::Symmetry::Rotate180 as i32,
        minimal: true,
        seed: 7,
        ..Default::default()
    };
    let (puzzles, status) = generate(&server, request).await;
    assert!(status.is_none(), "{status:?}");
    assert_eq!(puzzles.len(), 6);
    for response in &puzzles {
        check(response, Symmetry::Rotate180, true);
        let grade = response.grade.as_ref().unwrap();
        assert_eq!(grade.level(), pb::Level::Hard);
        assert!((2.5..5.0).contains(&grade.rating), "{grade:?}");
        assert!(!grade.stalled);
    }
}

/// The top level (rated 9.0 and up: forcing chains nested in forcing
/// chains), which diabolical no longer includes.
#[tokio::test]
async fn the_extreme_level_gives_puzzles_rated_nine_and_up() {
    let server = TestServer::default().await;
    let request = GenerateRequest {
        count: 2,
        level: pb::Level::Extreme as i32,
        seed: 5,
        ..Default::default()
    };
    let (puzzles, status) = generate(&server, request).await;
    assert!(status.is_none(), "{status:?}");
    assert_eq!(puzzles.len(), 2);
    for response in &puzzles {
        check(response, Symmetry::None, false);
        let grade = response.grade.as_ref().unwrap();
        assert_eq!(grade.level(), pb::Level::Extreme);
        assert!(grade.rating >= 9.0, "{grade:?}");
        assert!(!grade.stalled);
    }
}

#[tokio::test]
async fn ratings_stay_within_the_bounds_and_count_zero_means_one() {
    let server = TestServer::default().await;
    let request = GenerateRequest {
        min_rating: 2.0,
        max_rating: 3.4,
        seed: 11,
        ..Default::default()
    };
    let (puzzles, status) = generate(&server, request).await;
    assert!(status.is_none(), "{status:?}");
    assert_eq!(puzzles.len(), 1);
    let rating = puzzles[0].grade.as_ref().unwrap().rating;
    assert!((2.0..=3.4).contains(&rating), "{rating}");
    check(&puzzles[0], Symmetry::None, false);
}

#[test]
fn rating_bounds_between_tenths_admit_only_the_tenths_inside_them() {
    let bounds = |min_rating, max_rating| {
        let request = GenerateRequest {
            min_rating,
            max_rating,
            ..Default::default()
        };
        let order = parse_generate_request(&request, 1).unwrap().request;
        (order.min_rating, order.max_rating)
    };
    // Rounding would let a 1.5 through a ceiling of 1.45, and a 1.4
    // through a floor of 1.41.
    assert_eq!(bounds(0.0, 1.45), (None, Some(Rating(14))));
    assert_eq!(bounds(1.41, 0.0), (Some(Rating(15)), None));
    assert_eq!(bounds(1.45, 1.55), (Some(Rating(15)), Some(Rating(15))));
}

#[tokio::test]
async fn skipping_the_grade_sends_the_same_puzzles_without_one() {
    let server = TestServer::start(with_metrics(), 2, 8).await;
    let graded = GenerateRequest {
        count: 5,
        symmetry: pb::Symmetry::Rotate180 as i32,
        minimal: true,
        seed: 31,
        ..Default::default()
    };
    let (with_grades, _) = generate(&server, graded).await;
    let skipping = GenerateRequest {
        skip_grade: true,
        ..graded
    };
    let (without, status) = generate(&server, skipping).await;
    assert!(status.is_none(), "{status:?}");
    assert_eq!(without.len(), 5);
    for (plain, rated) in without.iter().zip(&with_grades) {
        check(plain, Symmetry::Rotate180, true);
        assert_eq!(plain.grade, None);
        assert!(rated.grade.is_some());
        assert_eq!(
            GenerateResponse {
                grade: None,
                ..rated.clone()
            },
            *plain
        );
    }
    let ungraded = "sudoku_generated_total{level=\"ungraded\"}";
    let text = server
        .scrape_until(|text| sample(text, ungraded) == 5.0)
        .await;
    assert_eq!(sample(&text, ungraded), 5.0);
}

#[tokio::test]
async fn a_seed_gives_the_same_puzzles_on_any_worker_count_and_each_seed_its_own() {
    let request = GenerateRequest {
        count: 8,
        level: pb::Level::Medium as i32,
        symmetry: pb::Symmetry::Diagonal as i32,
        seed: 2026,
        ..Default::default()
    };
    let one = TestServer::start(Settings::default(), 1, 8).await;
    let two = TestServer::start(Settings::default(), 2, 8).await;
    let (from_one, _) = generate(&one, request).await;
    let (from_two, _) = generate(&two, request).await;
    assert_eq!(from_one.len(), 8);
    assert_eq!(from_one, from_two);
    each_seed_reproduces_its_puzzle(&one, request, &from_one, Symmetry::Diagonal).await;
    let other = GenerateRequest {
        seed: 2027,
        ..request
    };
    let (from_other, _) = generate(&one, other).await;
    assert_ne!(from_other, from_one);
}

#[tokio::test]
async fn without_a_seed_puzzles_come_as_found_each_with_a_seed_that_reproduces_it() {
    let request = GenerateRequest {
        count: 12,
        level: pb::Level::Diabolical as i32,
        ..Default::default()
    };
    let server = TestServer::start(Settings::default(), 2, 8).await;
    let (puzzles, status) = generate(&server, request).await;
    assert!(status.is_none(), "{status:?}");
    assert_eq!(puzzles.len(), 12);
    let seeds: std::collections::HashSet<u64> = puzzles.iter().map(|made| made.seed).collect();
    assert_eq!(seeds.len(), 12, "each puzzle from its own attempt");
    each_seed_reproduces_its_puzzle(&server, request, &puzzles, Symmetry::None).await;
}

/// Checks each of `puzzles` (sent for `request`) and that its `seed`
/// gives it again as the one puzzle of the same request.
async fn each_seed_reproduces_its_puzzle(
    server: &TestServer,
    request: GenerateRequest,
    puzzles: &[GenerateResponse],
    symmetry: Symmetry,
) {
    for response in puzzles {
        check(response, symmetry, false);
        let alone = GenerateRequest {
            count: 1,
            seed: response.seed,
            ..request
        };
        let (again, _) = generate(server, alone).await;
        assert_eq!(&again[0], response);
    }
}

#[tokio::test]
async fn the_command_line_makes_the_same_puzzles_in_its_own_process() {
    let server = TestServer::default().await;
    let request = GenerateRequest {
        count: 5,
        level: pb::Level::Hard as i32,
        symmetry: pb::Symmetry::Mirror as i32,
        seed: 99,
        ..Default::default()
    };
    let (puzzles, _) = generate(&server, request).await;
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(["generate", "--local", "--count", "5", "--level", "hard"])
        .args(["--symmetry", "mirror", "--seed", "99", "--quiet"])
        .output()
        .unwrap();
    let lines: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let served: Vec<String> = puzzles.into_iter().map(|p| p.puzzle).collect();
    assert_eq!(lines, served);
}

/// Asserts that `request` fails with INVALID_ARGUMENT naming `field`.
async fn assert_refused(server: &TestServer, request: GenerateRequest, field: &str) -> String {
    let status = server
        .client()
        .await
        .generate(request)
        .await
        .map(|_| ())
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let violations = status
        .get_details_bad_request()
        .expect("a BadRequest")
        .field_violations;
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].field, field, "{status:?}");
    status.message().to_string()
}

#[tokio::test]
async fn invalid_requests_name_their_field() {
    let settings = Settings {
        limits: Limits {
            max_generate_count: 100,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let request = GenerateRequest::default;
    let message = assert_refused(
        &server,
        GenerateRequest {
            min_rating: 7.5,
            max_rating: 6.0,
            ..request()
        },
        "min_rating",
    )
    .await;
    assert_eq!(message, "min_rating 7.5 is above max_rating 6.0");
    let message = assert_refused(
        &server,
        GenerateRequest {
            min_rating: 1.45,
            max_rating: 1.45,
            ..request()
        },
        "min_rating",
    )
    .await;
    assert!(
        message.starts_with("no rating lies within 1.45..1.45: ratings come in tenths"),
        "{message}"
    );
    let message = assert_refused(
        &server,
        GenerateRequest {
            max_rating: 0.99,
            ..request()
        },
        "max_rating",
    )
    .await;
    assert_eq!(
        message,
        "max_rating 0.99 is below 1.0, the rating of the easiest puzzle"
    );
    let message = assert_refused(
        &server,
        GenerateRequest {
            count: 101,
            ..request()
        },
        "count",
    )
    .await;
    assert!(message.contains("--max-generate-count"), "{message}");
    for (field, request) in [
        (
            "level",
            GenerateRequest {
                level: 9,
                ..request()
            },
        ),
        (
            "symmetry",
            GenerateRequest {
                symmetry: -1,
                ..request()
            },
        ),
        (
            "max_rating",
            GenerateRequest {
                max_rating: f64::NAN,
                ..request()
            },
        ),
        (
            "min_rating",
            GenerateRequest {
                min_rating: 25.0,
                ..request()
            },
        ),
        (
            "level",
            GenerateRequest {
                level: pb::Level::Easy as i32,
                min_rating: 5.0,
                ..request()
            },
        ),
        (
            "skip_grade",
            GenerateRequest {
                skip_grade: true,
                level: pb::Level::Hard as i32,
                ..request()
            },
        ),
        (
            "skip_grade",
            GenerateRequest {
                skip_grade: true,
                max_rating: 3.0,
                ..request()
            },
        ),
    ] {
        assert_refused(&server, request, field).await;
    }
    assert_eq!(server.pool.stats().completed, 0, "nothing ran");
}

/// Each attempt is graded within `--max-grade-time`: with no time for
/// any step past the easy singles, no puzzle of a level that needs one
/// can be graded, so none is made; with the default, the same request
/// makes its puzzle.
#[tokio::test]
async fn each_attempt_is_graded_within_the_grading_time() {
    let request = GenerateRequest {
        count: 1,
        level: pb::Level::Hard as i32,
        seed: 5,
        ..Default::default()
    };
    let no_time = Settings {
        limits: Limits {
            max_grade_time: Duration::from_nanos(1),
            max_generate_wait: Duration::from_millis(300),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(no_time, 2, 8).await;
    let (puzzles, status) = generate(&server, request).await;
    assert!(puzzles.is_empty(), "{puzzles:?}");
    let status = status.expect("a failed status");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");

    let server = TestServer::start(Settings::default(), 2, 8).await;
    let (puzzles, status) = generate(&server, request).await;
    assert!(status.is_none(), "{status:?}");
    assert_eq!(puzzles.len(), 1);
    let grade = puzzles[0].grade.as_ref().expect("a grade");
    assert_eq!(grade.level(), pb::Level::Hard);
}

/// Runs `request`, which must find no puzzle and give up: its status,
/// and how long the call took.
async fn gave_up(server: &TestServer, request: GenerateRequest) -> (Status, Duration) {
    let started = Instant::now();
    let (puzzles, status) = generate(server, request).await;
    let took = started.elapsed();
    assert!(puzzles.is_empty(), "{puzzles:?}");
    let status = status.expect("a failed status");
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    (status, took)
}

#[tokio::test]
async fn a_target_never_met_ends_within_the_budget_saying_how_far_it_got() {
    let settings = Settings {
        limits: Limits {
            max_generate_wait: Duration::from_millis(300),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 2, 8).await;
    // Only full houses: far too easy for a minimal puzzle.
    let request = GenerateRequest {
        count: 3,
        max_rating: 1.0,
        ..Default::default()
    };
    let (status, took) = gave_up(&server, request).await;
    assert!(
        status
            .message()
            .starts_with("found 0 of the 3 puzzles asked for (rated ..1.0)"),
        "{}",
        status.message()
    );
    assert!(
        status.message().contains("(--max-generate-wait)"),
        "{}",
        status.message()
    );
    let info = status.get_details_error_info().expect("an ErrorInfo");
    assert_eq!(
        (info.reason.as_str(), info.domain.as_str()),
        (GENERATE_GAVE_UP_REASON, ERROR_DOMAIN)
    );
    assert_eq!(info.metadata["found"], "0");
    assert_eq!(info.metadata["asked"], "3");
    let attempts: u64 = info.metadata["attempts"].parse().unwrap();
    assert!(attempts > 10, "{attempts} attempts");
    assert!(took < Duration::from_secs(3), "ended after {took:?}");
    eventually("the workers are free", || {
        server.pool.stats().in_flight == 0
    })
    .await;
}

/// A target rated 9.2 or more climbs, and waits `--max-climb-wait` for
/// its next puzzle rather than `--max-generate-wait`: a climb to 9.5
/// outlasts a generation wait of 1 ms, and one to 11.0 gives up at the
/// climbing wait, naming it, and frees its workers.
#[tokio::test]
async fn a_target_at_the_top_climbs_under_its_own_wait() {
    let settings = Settings {
        limits: Limits {
            max_generate_wait: Duration::from_millis(1),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 2, 8).await;
    let request = GenerateRequest {
        count: 1,
        min_rating: 9.5,
        seed: 3,
        ..Default::default()
    };
    let (puzzles, status) = generate(&server, request).await;
    assert!(status.is_none(), "{status:?}");
    let grade = puzzles[0].grade.as_ref().expect("a grade");
    assert!(grade.rating >= 9.5, "{grade:?}");
    assert_eq!(puzzles[0].seed, 3);

    let settings = Settings {
        limits: Limits {
            max_climb_wait: Duration::from_millis(300),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = TestServer::start(settings, 2, 8).await;
    let request = GenerateRequest {
        count: 1,
        min_rating: 11.0,
        ..Default::default()
    };
    let (status, took) = gave_up(&server, request).await;
    assert!(
        status
            .message()
            .contains("none in the last 300ms (--max-climb-wait)"),
        "{}",
        status.message()
    );
    assert!(took < Duration::from_secs(3), "ended after {took:?}");
    eventually("the workers are free", || {
        server.pool.stats().in_flight == 0
    })
    .await;
}

#[tokio::test]
async fn a_deadline_ends_the_call_after_the_puzzles_found() {
    let server = TestServer::default().await;
    let mut request = tonic::Request::new(GenerateRequest {
        count: 10_000,
        level: pb::Level::Diabolical as i32,
        seed: 5,
        ..Default::default()
    });
    request.set_timeout(Duration::from_millis(700));
    let started = Instant::now();
    let mut stream = server
        .client()
        .await
        .generate(request)
        .await
        .unwrap()
        .into_inner();
    let mut found = 0;
    let status = loop {
        match stream.message().await {
            Ok(Some(_)) => found += 1,
            Ok(None) => panic!("ten thousand diabolical puzzles in 0.7 s"),
            Err(status) => break status,
        }
    };
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(found > 0, "some puzzles before the deadline");
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    let expected = format!("the deadline passed after {found} of the 10000 puzzles asked for");
    assert!(
        status.message().starts_with(&expected),
        "{}",
        status.message()
    );
    eventually("the workers are free", || {
        server.pool.stats().in_flight == 0
    })
    .await;
}

#[tokio::test]
async fn a_client_that_stops_reading_stops_the_work_and_one_that_leaves_ends_it() {
    let server = TestServer::default().await;
    let request = GenerateRequest {
        count: 10_000,
        seed: 3,
        ..Default::default()
    };
    // A client with small HTTP/2 windows, so that few responses fit.
    let channel = tonic::transport::Channel::from_shared(server.url())
        .unwrap()
        .initial_stream_window_size(64 * 1024)
        .initial_connection_window_size(64 * 1024)
        .connect()
        .await
        .unwrap();
    let mut stream = pb::sudoku_service_client::SudokuServiceClient::new(channel)
        .generate(request)
        .await
        .unwrap()
        .into_inner();
    assert!(stream.message().await.unwrap().is_some());
    // Unread, the responses fill the transport's window and the call's
    // buffer, and the driver stops queueing jobs.
    settle(&server, "nobody reads").await;
    // Ten thousand puzzles take some 630 jobs; a few hundred puzzles fill
    // the windows.
    let completed = server.pool.stats().completed;
    assert!(
        completed < 60,
        "{completed} jobs ran for a client that read one puzzle"
    );
    // Reading resumes the work.
    for _ in 0..3000 {
        assert!(stream.message().await.unwrap().is_some());
    }
    assert!(
        server.pool.stats().completed > completed,
        "reading resumed it"
    );
    drop(stream);
    settle(&server, "the client left").await;
    let completed = server.pool.stats().completed;
    assert!(completed < 400, "{completed} jobs ran: the work went on");
}

/// Waits until no job runs, or is queued or finished, for 300 ms.
async fn settle(server: &TestServer, when: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let completed = server.pool.stats().completed;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let stats = server.pool.stats();
        if stats.completed == completed && stats.in_flight == 0 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the pool never idled once {when}"
        );
    }
}

#[tokio::test]
async fn a_full_pool_sheds_the_call() {
    let server = TestServer::start(Settings::default(), 1, 0).await;
    let (release, long_solve) = occupy_worker(&server.pool);
    let status = server
        .client()
        .await
        .generate(GenerateRequest::default())
        .await
        .map(|_| ())
        .unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(
        status.message().contains("retry with backoff"),
        "{status:?}"
    );
    drop(release);
    long_solve.await.unwrap();
    let (puzzles, status) = generate(&server, GenerateRequest::default()).await;
    assert!(status.is_none(), "{status:?}");
    assert_eq!(puzzles.len(), 1);
}

#[tokio::test]
async fn generated_puzzles_and_attempts_are_counted() {
    let server = TestServer::start(with_metrics(), 2, 8).await;
    let request = GenerateRequest {
        count: 4,
        level: pb::Level::Easy as i32,
        seed: 1,
        ..Default::default()
    };
    let (puzzles, _) = generate(&server, request).await;
    assert_eq!(puzzles.len(), 4);
    let text = server
        .scrape_until(|text| text.contains("rpc=\"Generate\""))
        .await;
    assert_eq!(sample(&text, "sudoku_generated_total{level=\"easy\"}"), 4.0);
    assert_eq!(sample(&text, "sudoku_generated_total{level=\"hard\"}"), 0.0);
    assert!(sample(&text, "sudoku_generate_attempts_total") >= 4.0);
    assert_eq!(
        sample(&text, "sudoku_calls_total{code=\"OK\",rpc=\"Generate\"}"),
        1.0
    );
}

#[tokio::test]
async fn a_draining_server_ends_the_call_after_the_puzzles_it_sent() {
    let server = TestServer::default().await;
    let request = GenerateRequest {
        count: 10_000,
        level: pb::Level::Diabolical as i32,
        seed: 8,
        ..Default::default()
    };
    let mut stream = open(&server, request).await;
    assert!(stream.message().await.unwrap().is_some());
    let stopped = tokio::spawn(server.shut_down());
    let mut found = 1;
    let status = loop {
        match stream.message().await {
            Ok(Some(_)) => found += 1,
            Ok(None) => panic!("ten thousand diabolical puzzles before the drain"),
            Err(status) => break status,
        }
    };
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    let expected = format!("the server is shutting down: sent {found} of the 10000 puzzles");
    assert!(
        status.message().starts_with(&expected),
        "{}",
        status.message()
    );
    tokio::time::timeout(Duration::from_secs(5), stopped)
        .await
        .expect("the server stops once the call has ended")
        .unwrap()
        .unwrap();
}
