//! Connections: at most `--max-connections` open, the rest closed as they
//! are accepted (a client sees UNAVAILABLE); a connection that opens no
//! call within `--first-call-timeout` is closed; one that has called stays.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::common::flood::HELLO;
use crate::common::raw::solve_with_body;
use crate::common::{CLASSIC, TestServer, sample};
use sudoku_grpc::pb::SolveRequest;
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::server::Settings;
use sudoku_grpc::service::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tonic::Code;
use tonic::transport::Channel;

/// Long enough that the connection that calls does so in time on a slow
/// machine running a debug build.
const FIRST_CALL_TIMEOUT: Duration = Duration::from_secs(1);

fn settings(max_connections: u32) -> Settings {
    Settings {
        max_connections,
        metrics_listen: Some(SocketAddr::from(([127, 0, 0, 1], 0))),
        limits: Limits {
            first_call_timeout: FIRST_CALL_TIMEOUT,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    }
}

async fn solve(channel: &Channel) -> Result<String, tonic::Status> {
    let request = SolveRequest {
        puzzle: CLASSIC.to_string(),
        grade: false,
    };
    let mut client = SudokuServiceClient::new(channel.clone());
    Ok(client.solve(request).await?.into_inner().solution)
}

/// Reads until the server closes the connection: true if it does within
/// `limit`.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    let mut buffer = [0u8; 1024];
    let read_all = async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(limit, read_all).await.is_ok()
}

#[tokio::test]
async fn a_connection_that_opens_no_call_is_closed_and_one_that_calls_stays() {
    let server = TestServer::start(settings(8), 1, 8).await;
    let mut idle = TcpStream::connect(server.address).await.unwrap();
    idle.write_all(HELLO).await.unwrap();
    let busy = server.channel().await;
    solve(&busy).await.unwrap();

    assert!(
        closed_within(&mut idle, FIRST_CALL_TIMEOUT * 5).await,
        "the idle connection was closed"
    );
    // Well past the timeout, the connection that called is still open: its
    // next call needs no new connection.
    tokio::time::sleep(FIRST_CALL_TIMEOUT * 2).await;
    solve(&busy).await.unwrap();
    let metrics = server.scrape().await;
    assert_eq!(
        sample(&metrics, "sudoku_connections_idle_closed_total"),
        1.0
    );
    assert_eq!(
        sample(&metrics, "sudoku_connections_open"),
        1.0,
        "{metrics}"
    );
}

#[tokio::test]
async fn connections_over_the_cap_are_closed_at_once_and_clients_see_unavailable() {
    let server = TestServer::start(settings(2), 1, 8).await;
    let first = server.channel().await;
    let second = server.channel().await;
    solve(&first).await.unwrap();
    solve(&second).await.unwrap();

    let third = Channel::from_shared(server.url()).unwrap().connect_lazy();
    let refused = solve(&third).await.unwrap_err();
    assert_eq!(refused.code(), Code::Unavailable, "{refused:?}");
    assert!(
        format!("{refused:?}").contains("sudoku-server: --max-connections are open"),
        "the GOAWAY says why: {refused:?}"
    );
    let metrics = server.scrape().await;
    assert!(
        sample(&metrics, "sudoku_connections_refused_total") >= 1.0,
        "{metrics}"
    );
    assert_eq!(
        sample(&metrics, "sudoku_connections_open"),
        2.0,
        "{metrics}"
    );

    // Once a connection closes, its slot is free again.
    drop(first);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let retry = Channel::from_shared(server.url()).unwrap().connect_lazy();
        match solve(&retry).await {
            Ok(solution) => break assert_eq!(solution.len(), 81),
            Err(status) => {
                assert!(std::time::Instant::now() < deadline, "{status:?}");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
    solve(&second).await.unwrap();
}

/// A unary Solve call that sends its headers and never its message.
async fn call_without_message(channel: Channel) -> Result<(), tonic::Status> {
    let never = tonic::Request::new(tokio_stream::pending::<SolveRequest>());
    solve_with_body(channel, never).await
}

#[tokio::test]
async fn a_unary_call_whose_message_never_comes_gives_back_its_slot_at_the_timeout() {
    let settings = Settings {
        max_calls: 1,
        ..settings(8)
    };
    let server = TestServer::start(settings, 1, 8).await;
    let channel = server.channel().await;
    // Once it reaches the server, the call holds the one call slot while it
    // waits for its message. The probe that shows it competes for the slot:
    // the waiting call gets a head start, and if the probe wins anyway (the
    // waiting call is refused, or it timed out meanwhile) it starts again.
    let start_waiting = || async {
        let started = Instant::now();
        let waiting = tokio::spawn(call_without_message(channel.clone()));
        tokio::time::sleep(Duration::from_millis(20)).await;
        (started, waiting)
    };
    let (mut started, mut waiting) = start_waiting().await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match solve(&channel).await {
            Err(refused) if refused.code() == Code::ResourceExhausted => break,
            other => assert!(Instant::now() < deadline, "never held: {other:?}"),
        }
        if waiting.is_finished() {
            (started, waiting) = start_waiting().await;
        }
    }
    let status = tokio::time::timeout(FIRST_CALL_TIMEOUT * 5, waiting)
        .await
        .expect("the call is ended by the server")
        .unwrap()
        .unwrap_err();
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert_eq!(
        status.message(),
        "the request message did not arrive within 1s of the call's headers \
         (--first-call-timeout)"
    );
    assert!(started.elapsed() >= FIRST_CALL_TIMEOUT);
    solve(&channel).await.expect("the slot is free again");
    let metrics = server.scrape().await;
    let late = r#"sudoku_calls_total{code="DEADLINE_EXCEEDED",rpc="Solve"}"#;
    assert_eq!(sample(&metrics, late), 1.0, "{metrics}");
}
