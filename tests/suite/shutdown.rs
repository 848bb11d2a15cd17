//! Graceful shutdown: health turns NOT_SERVING first, no new calls are
//! taken, an open stream answers the puzzles it took in and ends with
//! UNAVAILABLE, so what its client got is a gap-free prefix of what it
//! sent; a call that cannot finish is closed at the drain timeout.

use std::time::{Duration, Instant};

use crate::common::{CLASSIC, TestServer, eventually};
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::pb::{Outcome, SolveStreamRequest};
use sudoku_grpc::server::Settings;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};
use tonic_reflection::pb::v1;

fn item(i: usize) -> SolveStreamRequest {
    SolveStreamRequest {
        id: i.to_string(),
        puzzle: CLASSIC.to_string(),
        grade: false,
    }
}

/// A health Watch of the whole server, past its first status, SERVING.
async fn serving_watch(server: &TestServer) -> tonic::Streaming<HealthCheckResponse> {
    let mut watch = HealthClient::new(server.channel().await)
        .watch(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        watch.message().await.unwrap().unwrap().status(),
        ServingStatus::Serving
    );
    watch
}

#[tokio::test]
async fn draining_ends_an_open_stream_after_a_gap_free_prefix_of_answers() {
    const SENT: usize = 50_000;
    let settings = Settings {
        drain_timeout: Duration::from_secs(10),
        ..Settings::default()
    };
    let server = TestServer::start(settings, 2, 64).await;
    let address = server.url();
    let mut watch = serving_watch(&server).await;

    // A client streaming far more than the server can answer before the
    // signal comes.
    let (requests, mut answers) = server.open_stream().await;
    let feeder = tokio::spawn(async move {
        for i in 0..SENT {
            if requests.send(item(i)).await.is_err() {
                break;
            }
        }
    });
    let mut answered = 0;
    while answered < 100 {
        let answer = answers.message().await.unwrap().unwrap();
        assert_eq!(answer.id, answered.to_string());
        answered += 1;
    }

    let stopped = tokio::spawn(server.shut_down());
    assert_eq!(
        watch.message().await.unwrap().unwrap().status(),
        ServingStatus::NotServing,
        "health turns NOT_SERVING first"
    );

    // Every answer that still comes is the next one in order, then the
    // stream ends with UNAVAILABLE: the client resends exactly the rest.
    let end = loop {
        match answers.message().await {
            Ok(Some(answer)) => {
                assert_eq!(answer.id, answered.to_string(), "answers stay in order");
                assert_eq!(answer.outcome(), Outcome::Solved);
                answered += 1;
            }
            Ok(None) => break Ok(()),
            Err(status) => break Err(status),
        }
    };
    let status = end.expect_err("the stream ends with a status");
    assert_eq!(
        status.code(),
        Code::Unavailable,
        "after {answered} answers: {status:?}"
    );
    assert!(answered < SENT, "the drain cut the stream short");
    drop(watch);
    feeder.abort();
    tokio::time::timeout(Duration::from_secs(5), stopped)
        .await
        .expect("the server stops once the stream has ended")
        .unwrap()
        .unwrap();

    // And it takes no new calls.
    let reconnect = tonic::transport::Endpoint::from_shared(address)
        .unwrap()
        .connect()
        .await;
    assert!(reconnect.is_err(), "the listener is closed");
}

#[tokio::test]
async fn a_stream_whose_client_stops_reading_is_closed_at_the_drain_timeout() {
    let settings = Settings {
        drain_timeout: Duration::from_millis(300),
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    // The client sends plenty and never reads an answer, and its small
    // HTTP/2 receive window fills, so the server's answers back up and the
    // stream cannot end on its own.
    let channel = tonic::transport::Endpoint::from_shared(server.url())
        .unwrap()
        .initial_stream_window_size(16 * 1024)
        .initial_connection_window_size(16 * 1024)
        .connect()
        .await
        .unwrap();
    let (requests, outgoing) = mpsc::channel::<SolveStreamRequest>(64);
    let _answers = SudokuServiceClient::new(channel)
        .solve_stream(ReceiverStream::new(outgoing))
        .await
        .unwrap();
    let feeder = tokio::spawn(async move {
        for i in 0..20_000 {
            if requests.send(item(i)).await.is_err() {
                break;
            }
        }
    });
    // Once the stream is under way its answers back up, since nobody reads
    // them, and it can end only when the drain timeout closes it.
    eventually("the stream is under way", || {
        server.pool.stats().completed > 0
    })
    .await;
    let started = Instant::now();
    server.shut_down().await.unwrap();
    let waited = started.elapsed();
    feeder.abort();
    assert!(
        waited >= Duration::from_millis(300),
        "stopped after {waited:?}, before the drain timeout"
    );
    assert!(
        waited < Duration::from_secs(5),
        "stopped only after {waited:?}"
    );
}

#[tokio::test]
async fn an_open_health_watch_sees_not_serving_then_ends_and_does_not_hold_the_shutdown() {
    let settings = Settings {
        drain_timeout: Duration::from_secs(60),
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let mut watch = serving_watch(&server).await;
    let stopped = tokio::spawn(server.shut_down());
    assert_eq!(
        watch.message().await.unwrap().unwrap().status(),
        ServingStatus::NotServing
    );
    let end = tokio::time::timeout(Duration::from_secs(5), watch.message())
        .await
        .expect("the watch ends once the server drains")
        .expect_err("with a status");
    assert_eq!(end.code(), Code::Unavailable, "{end:?}");
    assert_eq!(
        end.message(),
        "the server is shutting down: watch another server"
    );
    // The watch's client is still connected: the server stops anyway, long
    // before its drain timeout.
    tokio::time::timeout(Duration::from_secs(5), stopped)
        .await
        .expect("the server stops without waiting out the drain timeout")
        .unwrap()
        .unwrap();
    drop(watch);
}

#[tokio::test]
async fn an_open_reflection_stream_ends_when_the_server_drains_and_does_not_hold_the_shutdown() {
    use v1::server_reflection_request::MessageRequest;
    let settings = Settings {
        drain_timeout: Duration::from_secs(60),
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let (requests, receiver) = mpsc::channel(1);
    let mut client =
        v1::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let list = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    requests.send(list).await.unwrap();
    let mut responses = client
        .server_reflection_info(ReceiverStream::new(receiver))
        .await
        .unwrap()
        .into_inner();
    // Answered, and kept open, as a tool that is still working keeps it.
    assert!(responses.message().await.unwrap().is_some());
    let stopped = tokio::spawn(server.shut_down());
    let end = tokio::time::timeout(Duration::from_secs(5), responses.message())
        .await
        .expect("the stream ends once the server drains")
        .expect_err("with a status");
    assert_eq!(end.code(), Code::Unavailable, "{end:?}");
    assert_eq!(
        end.message(),
        "the server is shutting down: ask another server"
    );
    tokio::time::timeout(Duration::from_secs(5), stopped)
        .await
        .expect("the server stops without waiting out the drain timeout")
        .unwrap()
        .unwrap();
    drop(requests);
}
