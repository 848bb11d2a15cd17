//! Overload and fairness: a flood of unary calls on a tiny pool is shed
//! with RESOURCE_EXHAUSTED (never queued without bound, never another
//! error) while health keeps answering SERVING; a greedy stream cannot
//! starve a small one; a client that vanishes mid-batch leaves the server
//! idle.

use std::time::{Duration, Instant};

use crate::common::process::{ServerProcess, accounted_in, lines_with, temp_file};
use crate::common::{TestServer, eventually, occupy_worker, unique_puzzles};
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::pb::{Outcome, SolveStreamRequest};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;

/// The 200 puzzles of the test data that take the solver longest.
fn hard_puzzles() -> Vec<String> {
    unique_puzzles().into_iter().rev().take(200).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_unary_flood_on_one_worker_is_shed_while_health_says_serving() {
    let server = TestServer::start(Default::default(), 1, 1).await;
    let channel = server.channel().await;
    // A long solve holds the one worker while the flood arrives.
    let (release, long_solve) = occupy_worker(&server.pool);
    let puzzles = hard_puzzles();
    let mut calls = JoinSet::new();
    for puzzle in puzzles.iter().cycle().take(200).cloned() {
        let mut client =
            sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient::new(channel.clone());
        calls.spawn(async move {
            client
                .solve(sudoku_grpc::pb::SolveRequest {
                    puzzle,
                    grade: false,
                })
                .await
                .map(|response| response.into_inner().outcome())
        });
    }
    // Health answers while the worker is busy and the flood is on.
    eventually("the flood has filled the queue", || {
        server.pool.stats().in_flight == 2
    })
    .await;
    for _ in 0..5 {
        let serving = sudoku_grpc::client::check_health(channel.clone(), &Default::default(), "")
            .await
            .unwrap();
        assert!(serving, "health answers SERVING during the flood");
    }
    drop(release);
    long_solve.await.unwrap();
    let (mut solved, mut shed) = (0, 0);
    while let Some(result) = calls.join_next().await {
        match result.unwrap() {
            Ok(outcome) => {
                assert_eq!(outcome, Outcome::Solved);
                solved += 1;
            }
            Err(status) => {
                assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
                shed += 1;
            }
        }
    }
    assert_eq!(solved + shed, 200);
    assert!(solved > 0 && shed > 0, "{solved} solved, {shed} shed");
    assert_eq!(server.pool.stats().in_flight, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_greedy_stream_does_not_starve_a_small_one() {
    const GREEDY: usize = 200_000;
    let server = TestServer::start(Default::default(), 2, 64).await;
    let puzzles = unique_puzzles();

    let (greedy, mut greedy_answers) = server.open_stream().await;
    let feed = puzzles.clone();
    tokio::spawn(async move {
        for i in 0..GREEDY {
            let request = SolveStreamRequest {
                id: i.to_string(),
                puzzle: feed[i % feed.len()].clone(),
                grade: false,
            };
            if greedy.send(request).await.is_err() {
                break;
            }
        }
    });
    let greedy_reader = tokio::spawn(async move {
        let mut count = 0;
        while let Ok(Some(_)) = greedy_answers.message().await {
            count += 1;
        }
        count
    });
    eventually("the greedy stream is being answered", || {
        server.pool.stats().completed > 100
    })
    .await;

    // A small stream of ten puzzles, while the greedy one runs.
    let started = Instant::now();
    let (small, mut small_answers) = server.open_stream().await;
    for (i, puzzle) in puzzles.iter().take(10).enumerate() {
        let request = SolveStreamRequest {
            id: i.to_string(),
            puzzle: puzzle.clone(),
            grade: false,
        };
        small.send(request).await.unwrap();
    }
    drop(small);
    let mut answered = 0;
    while let Some(answer) = small_answers.message().await.unwrap() {
        assert_eq!(answer.id, answered.to_string());
        answered += 1;
    }
    let small_took = started.elapsed();
    assert_eq!(answered, 10);
    assert!(
        !greedy_reader.is_finished(),
        "the small stream finished only after the greedy one ({small_took:?})"
    );
    eprintln!("ten puzzles beside a greedy stream: {small_took:?}");
    greedy_reader.abort();
}

/// A client that vanishes mid-batch of hard puzzles, over either RPC: the
/// server stops solving its puzzles, and its CPU time stops growing within
/// half a second.
#[test]
fn a_vanished_client_leaves_the_server_idle_within_half_a_second() {
    let hard = hard_puzzles().join("\n") + "\n";
    let path = temp_file("vanishing.txt", &hard.repeat(500));
    for rpc in ["batch", "stream"] {
        let server = ServerProcess::start(&["--workers", "2"]);
        let mut client = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku"))
            .args(["solve", "-q", "--rpc", rpc, "--server", &server.address])
            .arg(&path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait until the server is busy with the batch: 0.3 s of CPU time.
        let start = server.cpu_ticks();
        let deadline = Instant::now() + Duration::from_secs(30);
        while server.cpu_ticks() < start + 30 {
            assert!(
                Instant::now() < deadline,
                "--rpc {rpc}: the server never got busy"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            client.try_wait().unwrap().is_none(),
            "--rpc {rpc}: the client was still streaming when it vanished"
        );
        client.kill().unwrap();
        client.wait().unwrap();

        std::thread::sleep(Duration::from_millis(500));
        let after_half_a_second = server.cpu_ticks();
        std::thread::sleep(Duration::from_secs(1));
        let used = server.cpu_ticks() - after_half_a_second;
        // Clock ticks are 10 ms: an idle server uses none or one in a
        // second, where a busy one on two workers would use 200.
        assert!(
            used <= 3,
            "--rpc {rpc}: {used} ticks of CPU in the second after"
        );
    }
}

/// `--max-concurrent-streams` caps the calls one connection may have open:
/// past it, a new call on that connection waits until one ends.
#[tokio::test]
async fn one_connection_gets_no_more_calls_than_its_cap() {
    let settings = sudoku_grpc::server::Settings {
        max_concurrent_streams: 1,
        ..Default::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let channel = server.channel().await;
    let mut client = sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient::new(channel);
    let (held, outgoing) = tokio::sync::mpsc::channel::<SolveStreamRequest>(1);
    let open = client
        .solve_stream(tokio_stream::wrappers::ReceiverStream::new(outgoing))
        .await
        .unwrap();

    let request = || sudoku_grpc::pb::SolveRequest {
        puzzle: crate::common::CLASSIC.to_string(),
        grade: false,
    };
    let waited = tokio::time::timeout(Duration::from_millis(300), client.solve(request())).await;
    assert!(
        waited.is_err(),
        "a second call on the connection had to wait"
    );

    drop(held);
    let mut answers = open.into_inner();
    assert!(answers.message().await.unwrap().is_none());
    let answer = tokio::time::timeout(Duration::from_secs(10), client.solve(request()))
        .await
        .expect("the call goes through once the stream has ended")
        .unwrap();
    assert_eq!(answer.into_inner().outcome(), Outcome::Solved);
}

#[tokio::test]
async fn a_flood_of_shed_calls_is_logged_a_line_a_second_with_the_count() {
    let server = ServerProcess::start_async(&["--workers", "1", "--queue-depth", "0"]).await;
    let channel = tonic::transport::Channel::from_shared(format!("http://{}", server.address))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient::new(channel);
    // The one worker is held by a stream of slow boards (each up to the 1 s
    // solve budget); dropping the stream at the end stops it.
    let slow = (0..64).map(|i| SolveStreamRequest {
        id: i.to_string(),
        puzzle: crate::common::SLOW.to_string(),
        grade: false,
    });
    let _held = client.solve_stream(tokio_stream::iter(slow)).await.unwrap();
    let solve = |mut client: sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient<_>| async move {
        let request = sudoku_grpc::pb::SolveRequest {
            puzzle: crate::common::CLASSIC.to_string(),
            grade: false,
        };
        client.solve(request).await.map(|_| ())
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while solve(client.clone()).await.is_ok() {
        assert!(Instant::now() < deadline, "the worker never got busy");
    }
    let started = Instant::now();
    let mut shed = 1;
    for _ in 0..50 {
        let status = solve(client.clone()).await.unwrap_err();
        assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
        shed += 1;
    }
    // A second on, the next shed call is logged with the count of the rest.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert!(
        solve(client.clone()).await.is_err(),
        "the worker is still busy"
    );
    shed += 1;
    let seconds = started.elapsed().as_secs() as usize;
    // Every shed call is logged or counted in a later line; wait for the
    // last line to come through the server's stderr.
    let accounted = |log: &str| accounted_in(log, "call shed");
    let deadline = Instant::now() + Duration::from_secs(5);
    while accounted(&server.log()) < shed && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let log = server.log();
    let lines = lines_with(&log, "call shed");
    assert!(
        lines <= 2 + seconds,
        "{lines} lines for {shed} shed calls: {log}"
    );
    let accounted = accounted(&log);
    assert_eq!(
        accounted, shed,
        "every shed call is logged or counted: {log}"
    );
}

/// A stream whose client sends one small message per HTTP/2 DATA frame
/// (a producer slower than the network, as most are) while the server has
/// stopped reading it (its window is full and its worker busy): the frames
/// wait in the connection's receive window, and the connection survives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_stream_of_small_frames_keeps_its_connection() {
    stalled_streams_of_small_frames_keep_their_connection(1).await;
}

/// Two such streams on one connection: h2 charges the unread small frames
/// of both against one connection-wide allowance, which two stalled
/// streams with call windows a quarter of the connection's overran
/// (GOAWAY ENHANCE_YOUR_CALM, and every call on the connection failed);
/// an eighth keeps both under it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stalled_streams_of_small_frames_keep_their_connection() {
    stalled_streams_of_small_frames_keep_their_connection(2).await;
}

async fn stalled_streams_of_small_frames_keep_their_connection(streams: usize) {
    const SENT: usize = 1000;
    let server = TestServer::start(Default::default(), 1, 64).await;
    let (release, long_solve) = occupy_worker(&server.pool);
    let channel = server.channel().await;
    let mut running = Vec::new();
    for _ in 0..streams {
        let (requests, outgoing) = mpsc::channel(64);
        let answers = SudokuServiceClient::new(channel.clone())
            .solve_stream(ReceiverStream::new(outgoing))
            .await
            .unwrap()
            .into_inner();
        // The client's side, watched without keeping the stream open.
        let watched = requests.downgrade();
        let sender = tokio::spawn(async move {
            for i in 0..SENT {
                let request = crate::common::item(i, crate::common::CLASSIC);
                if requests.send(request).await.is_err() {
                    return i;
                }
                // One message per DATA frame: the encoder has nothing else
                // ready when it writes this one.
                tokio::time::sleep(Duration::from_micros(500)).await;
            }
            SENT
        });
        running.push((watched, sender, answers));
    }
    // The server stops reading, the frames fill each call's receive window,
    // and the clients can send no more: their channels fill up. (A side
    // ending, all sent or its connection closed, ends the wait too.)
    eventually("the clients can send no more", || {
        running.iter().all(|(watched, _, _)| {
            watched
                .upgrade()
                .is_none_or(|requests| requests.capacity() == 0)
        })
    })
    .await;
    for (_, sender, _) in &running {
        assert!(
            !sender.is_finished(),
            "a client's side ended instead of stalling (its connection closed?)"
        );
    }
    drop(release);
    long_solve.await.unwrap();
    for (_, sender, mut answers) in running {
        let mut answered = 0;
        while let Some(answer) = answers.message().await.unwrap() {
            assert_eq!(answer.id, answered.to_string());
            answered += 1;
        }
        assert_eq!(sender.await.unwrap(), SENT);
        assert_eq!(answered, SENT);
    }
}
