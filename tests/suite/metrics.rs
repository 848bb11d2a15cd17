//! The Prometheus endpoint: after a known mix of calls, the counters,
//! the solve-time histogram and the pool gauges say exactly what happened.

use std::time::Duration;

use crate::common::raw::{solve_raw, solve_with_body};
use crate::common::web;
use crate::common::{CLASSIC, TestServer, occupy_worker, sample, with_metrics};
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::pb::{Outcome, SolveBatchRequest, SolveStreamRequest};
use sudoku_grpc::server::Settings;
use sudoku_grpc::service::Limits;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Code;

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
    let mut client = server.client().await;
    let hint = |puzzle: &str| sudoku_grpc::pb::HintRequest {
        puzzle: puzzle.to_string(),
        ..Default::default()
    };
    client.hint(hint(CLASSIC)).await.unwrap();
    client.hint(hint("12x")).await.unwrap_err();
    let explain = sudoku_grpc::pb::ExplainRequest {
        puzzle: ".".repeat(81),
        ..Default::default()
    };
    client.explain(explain).await.unwrap();

    let (requests, mut answers) = server.open_stream().await;
    for (i, puzzle) in [CLASSIC, CLASSIC, "nonsense", CLASSIC, CLASSIC]
        .into_iter()
        .enumerate()
    {
        let id = i.to_string();
        let puzzle = puzzle.to_string();
        requests
            .send(SolveStreamRequest {
                id,
                puzzle,
                grade: false,
            })
            .await
            .unwrap();
    }
    drop(requests);
    let mut answered = 0;
    while answers.message().await.unwrap().is_some() {
        answered += 1;
    }
    assert_eq!(answered, 5);

    let text = server
        .scrape_until(|text| {
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
        (r#"sudoku_puzzles_total{outcome="solved",rpc="Hint"}"#, 1.0),
        (r#"sudoku_puzzles_total{outcome="invalid",rpc="Hint"}"#, 1.0),
        (
            r#"sudoku_puzzles_total{outcome="multiple_solutions",rpc="Explain"}"#,
            1.0,
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

    let text = server
        .scrape_until(|text| sample(text, "sudoku_streams_open") == 1.0)
        .await;
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
        limits: Limits {
            max_open_streams: 1,
            ..with_metrics().limits
        },
        ..with_metrics()
    };
    let server = TestServer::start(settings, 1, 4).await;
    let (first, mut first_answers) = server.open_stream().await;
    first
        .send(SolveStreamRequest {
            id: "a".into(),
            puzzle: CLASSIC.into(),
            grade: false,
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
    assert!(refused.message().contains("1 stream is already open"));

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

/// Makes three unary calls that tonic refuses before the handler: one too
/// large, one not UTF-8, one that ends without its request.
async fn send_unreadable_calls(channel: tonic::transport::Channel) {
    let mut client =
        sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient::new(channel.clone());
    let too_large = sudoku_grpc::pb::SolveRequest {
        puzzle: ".".repeat(1 << 20),
        grade: false,
    };
    assert_eq!(
        client.solve(too_large).await.unwrap_err().code(),
        Code::ResourceExhausted
    );
    let status = solve_raw(channel.clone(), vec![0xff, 0xfe])
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let no_request = tonic::Request::new(tokio_stream::empty());
    let status = solve_with_body(channel, no_request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert_eq!(
        status.message(),
        "malformed request: the call ended without its request"
    );
}

/// The calls of `rpc` counted with `code` in the metrics `text`.
fn counted(text: &str, rpc: &str, code: &str) -> f64 {
    sample(
        text,
        &format!("sudoku_calls_total{{code=\"{code}\",rpc=\"{rpc}\"}}"),
    )
}

/// Calls that tonic refuses before a handler runs, and calls a client
/// resets, are counted too: with this service's codes, and as CANCELLED
/// rather than UNKNOWN.
#[tokio::test]
async fn calls_refused_before_their_handler_and_reset_calls_are_counted() {
    let server = TestServer::start(with_metrics(), 1, 16).await;
    send_unreadable_calls(server.channel().await).await;

    // A unary call reset by its client while its puzzle is being solved.
    let mut slow_client = server.client().await;
    let reset = tokio::spawn(async move {
        let request = sudoku_grpc::pb::SolveRequest {
            puzzle: crate::common::SLOW.to_string(),
            grade: false,
        };
        let _ = slow_client.solve(request).await;
    });
    crate::common::eventually("the slow puzzle is being solved", || {
        server.pool.stats().running == 1
    })
    .await;
    reset.abort();
    // A stream reset mid-request by its client.
    let (requests, answers) = server.open_stream().await;
    requests
        .send(SolveStreamRequest {
            id: "1".to_string(),
            puzzle: CLASSIC.to_string(),
            grade: false,
        })
        .await
        .unwrap();
    let text = server
        .scrape_until(|text| text.contains("sudoku_streams_open 1"))
        .await;
    assert!(text.contains("sudoku_streams_open 1"), "{text}");
    drop((requests, answers));

    let text = server
        .scrape_until(|text| {
            counted(text, "Solve", "CANCELLED") == 1.0
                && counted(text, "SolveStream", "CANCELLED") == 1.0
        })
        .await;
    assert_eq!(counted(&text, "Solve", "RESOURCE_EXHAUSTED"), 1.0, "{text}");
    assert_eq!(counted(&text, "Solve", "INVALID_ARGUMENT"), 2.0, "{text}");
    assert_eq!(counted(&text, "Solve", "CANCELLED"), 1.0, "{text}");
    assert_eq!(counted(&text, "SolveStream", "CANCELLED"), 1.0, "{text}");
    assert!(!text.contains("UNKNOWN"), "{text}");
}

#[tokio::test]
async fn bytes_on_client_connections_are_counted_each_way() {
    use prost::Message;
    let server = TestServer::start(with_metrics(), 2, 16).await;
    let received = |text: &str| sample(text, "sudoku_connection_received_bytes_total");
    let sent = |text: &str| sample(text, "sudoku_connection_sent_bytes_total");
    let before = server.scrape().await;
    assert_eq!((received(&before), sent(&before)), (0.0, 0.0));
    // Larger than anything else on the connection, so that it dominates.
    let batch = SolveBatchRequest::new("b", vec![CLASSIC.to_string(); 300]);
    let request_bytes = batch.encoded_len() as f64;
    let response = server
        .client()
        .await
        .solve_batch(batch)
        .await
        .unwrap()
        .into_inner();
    let response_bytes = response.encoded_len() as f64;
    let after = server.scrape().await;
    let (up, down) = (received(&after), sent(&after));
    assert!(
        (request_bytes..request_bytes + 2048.0).contains(&up),
        "{up} bytes received for a request of {request_bytes}"
    );
    assert!(
        (response_bytes..response_bytes + 2048.0).contains(&down),
        "{down} bytes sent for a response of {response_bytes}"
    );
}

#[tokio::test]
async fn clients_that_stall_on_the_metrics_port_hold_its_connections_for_seconds_not_for_good() {
    use sudoku_grpc::server::{METRICS_CONNECTIONS, METRICS_HEADER_TIMEOUT};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start(with_metrics(), 1, 4).await;
    let address = server.metrics_address.unwrap();
    // Each sends part of a large header section, then nothing.
    let mut stalled = Vec::new();
    for _ in 0..METRICS_CONNECTIONS {
        let mut connection = tokio::net::TcpStream::connect(address).await.unwrap();
        let partial = format!("GET /metrics HTTP/1.1\r\nX-Filler: {}", "a".repeat(6000));
        connection.write_all(partial.as_bytes()).await.unwrap();
        stalled.push(connection);
    }
    let started = std::time::Instant::now();
    // The endpoint closes each once its headers are late; a scrape then
    // gets its turn.
    let text = tokio::time::timeout(METRICS_HEADER_TIMEOUT * 4, server.scrape())
        .await
        .expect("a scrape is answered once the stalled connections time out");
    assert!(
        text.contains("# TYPE sudoku_connections_open gauge"),
        "{text}"
    );
    // It waited for them: the endpoint serves only so many at once.
    assert!(
        started.elapsed() >= METRICS_HEADER_TIMEOUT / 2,
        "answered after {:?}, beside {METRICS_CONNECTIONS} stalled connections",
        started.elapsed()
    );
    for mut connection in stalled {
        let mut rest = Vec::new();
        let closed = tokio::time::timeout(
            METRICS_HEADER_TIMEOUT * 2,
            connection.read_to_end(&mut rest),
        )
        .await;
        assert!(
            closed.is_ok(),
            "a stalled connection is closed by the endpoint"
        );
    }
}

/// A channel to `to` through a TCP proxy, and the proxy's task, which
/// cuts every connection through it when aborted.
async fn proxy_to(
    to: std::net::SocketAddr,
) -> (tonic::transport::Channel, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let mut links = tokio::task::JoinSet::new();
        loop {
            let (mut inbound, _) = listener.accept().await.unwrap();
            let mut outbound = tokio::net::TcpStream::connect(to).await.unwrap();
            links.spawn(async move {
                let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
            });
        }
    });
    let channel = tonic::transport::Channel::from_shared(url)
        .unwrap()
        .connect()
        .await
        .unwrap();
    (channel, task)
}

/// Every call is counted once, whatever ended it: a unary call tonic
/// refuses with a code this service has none of its own for (INTERNAL, for
/// a frame with a bad compression flag), a stream tonic refuses before its
/// handler (UNIMPLEMENTED, a compression it lacks), a unary call whose
/// connection drops before its request came, and streams whose client
/// cancelled them or whose connection dropped, answered or not
/// (CANCELLED, never OK or UNKNOWN).
#[tokio::test]
async fn every_call_is_counted_once_however_it_ends() {
    let server = TestServer::start(with_metrics(), 1, 16).await;
    let headers = [
        ("content-type", "application/grpc-web+proto"),
        ("x-grpc-web", "1"),
    ];
    let path = "/sudoku.v1.SudokuService/Solve";
    let response = web::request(server.address, "POST", path, &headers, &[2, 0, 0, 0, 0]).await;
    let frames = web::GrpcWebBody::parse(&response.body);
    let (code, message) = web::status_of(&response, &frames);
    assert_eq!(code.as_deref(), Some("13"), "{message}");
    // A stream tonic refuses before its handler: a compression it lacks.
    let compressed = [
        ("content-type", "application/grpc-web+proto"),
        ("x-grpc-web", "1"),
        ("grpc-encoding", "br"),
    ];
    let stream = "/sudoku.v1.SudokuService/SolveStream";
    let body = web::frame(&crate::common::item("1", CLASSIC));
    let response = web::request(server.address, "POST", stream, &compressed, &body).await;
    let frames = web::GrpcWebBody::parse(&response.body);
    let (code, message) = web::status_of(&response, &frames);
    assert_eq!(code.as_deref(), Some("12"), "{message}");
    // A unary call whose connection is cut before its request came.
    let (channel, proxy) = proxy_to(server.address).await;
    let never = tonic::Request::new(tokio_stream::pending());
    let call = tokio::spawn(solve_with_body(channel, never));
    tokio::time::sleep(Duration::from_millis(200)).await;
    proxy.abort();
    let _ = call.await;

    // Cancelled with one answered, and with nothing sent.
    let (requests, mut answers) = server.open_stream().await;
    requests
        .send(crate::common::item("1", CLASSIC))
        .await
        .unwrap();
    answers.message().await.unwrap().unwrap();
    drop((requests, answers));
    let (requests, answers) = server.open_stream().await;
    drop((requests, answers));
    // The connection cut with one answered, and with nothing sent.
    for send_one in [true, false] {
        let (channel, proxy) = proxy_to(server.address).await;
        let (requests, outgoing) = tokio::sync::mpsc::channel(4);
        let mut answers = SudokuServiceClient::new(channel)
            .solve_stream(ReceiverStream::new(outgoing))
            .await
            .unwrap()
            .into_inner();
        if send_one {
            requests
                .send(crate::common::item("1", CLASSIC))
                .await
                .unwrap();
            answers.message().await.unwrap().unwrap();
        }
        proxy.abort();
        drop((requests, answers));
    }

    let text = server
        .scrape_until(|text| {
            counted(text, "SolveStream", "CANCELLED") == 4.0
                && counted(text, "Solve", "CANCELLED") == 1.0
        })
        .await;
    assert_eq!(counted(&text, "SolveStream", "CANCELLED"), 4.0, "{text}");
    assert_eq!(
        counted(&text, "SolveStream", "UNIMPLEMENTED"),
        1.0,
        "{text}"
    );
    assert_eq!(counted(&text, "Solve", "INTERNAL"), 1.0, "{text}");
    assert_eq!(counted(&text, "Solve", "CANCELLED"), 1.0, "{text}");
    let calls: f64 = text
        .lines()
        .filter(|line| line.starts_with("sudoku_calls_total{"))
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert_eq!(calls, 7.0, "{text}");
}
