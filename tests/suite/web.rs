//! The browser's way in, on the gRPC port over HTTP/1.1: the page's files
//! from memory with their validators, gRPC-Web calls (binary and text,
//! unary and server-streaming), CORS for the allowed origins only, and the
//! same bounds as HTTP/2: connections, the first-call clock, calls, and
//! header sizes.

use std::io::Read;
use std::net::SocketAddr;
use std::time::Duration;

use crate::common::web::{self, GrpcWebBody, Http1Response};
use crate::common::{CLASSIC, CLASSIC_SOLUTION, TestServer, sample, with_metrics};
use prost::Message;
use sudoku_grpc::pb::{self, GenerateRequest, GenerateResponse, SolveRequest, SolveResponse};
use sudoku_grpc::server::Settings;
use sudoku_grpc::service::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A page of two files in a directory of its own, served with
/// `--web-dir`.
fn page_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("index.html"),
        "<!doctype html><title>t</title><script src=app.js></script>",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("app.js"),
        "console.log('sudoku');\n".repeat(100),
    )
    .unwrap();
    dir
}

async fn server_with(settings: Settings) -> TestServer {
    TestServer::start(settings, 1, 16).await
}

async fn get(address: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Http1Response {
    web::request(address, "GET", path, headers, b"").await
}

fn solve_request(puzzle: &str) -> SolveRequest {
    SolveRequest {
        puzzle: puzzle.to_string(),
        grade: false,
    }
}

#[tokio::test]
async fn the_page_is_served_from_memory_with_validators_and_a_strict_policy() {
    let dir = page_dir();
    let settings = Settings {
        web_dir: Some(dir.path().to_path_buf()),
        ..Settings::default()
    };
    let server = server_with(settings).await;
    let page = get(server.address, "/", &[]).await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    let policy = page.header("content-security-policy").unwrap();
    assert!(policy.starts_with("default-src 'self'"), "{policy}");
    assert!(page.body.starts_with(b"<!doctype html>"));
    // Read once: a change on disk is not served until a restart.
    std::fs::write(dir.path().join("index.html"), "changed").unwrap();
    assert_eq!(
        get(server.address, "/index.html", &[]).await.body,
        page.body
    );

    let etag = page.header("etag").unwrap().to_string();
    let current = get(server.address, "/", &[("if-none-match", &etag)]).await;
    assert_eq!(current.status, 304);
    assert!(current.body.is_empty());
    let stale = get(server.address, "/", &[("if-none-match", "\"0\"")]).await;
    assert_eq!(stale.status, 200);

    let plain = get(server.address, "/app.js", &[]).await;
    let gzipped = get(
        server.address,
        "/app.js",
        &[("accept-encoding", "gzip, br")],
    )
    .await;
    assert_eq!(
        plain.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(gzipped.header("content-encoding"), Some("gzip"));
    assert!(gzipped.body.len() < plain.body.len() / 4);
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&gzipped.body[..])
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(unzipped, plain.body);
    assert_ne!(gzipped.header("etag"), plain.header("etag"));

    let head = web::request(server.address, "HEAD", "/app.js", &[], b"").await;
    assert_eq!(head.status, 200);
    assert_eq!(head.header("etag"), plain.header("etag"));
    assert!(head.body.is_empty());
    assert_eq!(get(server.address, "/nothing.js", &[]).await.status, 404);
}

#[tokio::test]
async fn the_built_in_page_is_web_dist_and_web_false_turns_it_off_but_not_grpc_web() {
    let server = server_with(Settings::default()).await;
    let built = std::fs::read("web/dist/index.html").expect("web/dist holds the built page");
    let page = get(server.address, "/", &[]).await;
    assert_eq!(page.status, 200);
    assert_eq!(page.body, built);

    let off = server_with(Settings {
        web: false,
        ..Settings::default()
    })
    .await;
    let page = get(off.address, "/", &[]).await;
    assert_eq!(page.status, 404);
    assert!(String::from_utf8_lossy(&page.body).contains("--web false"));
    let (_, body) = web::call(off.address, "Solve", &solve_request(CLASSIC), false, &[]).await;
    assert_eq!(body.status(), Some("0"));
}

#[tokio::test]
async fn grpc_web_solves_in_binary_and_text_and_refuses_a_bad_puzzle_with_its_message() {
    let server = server_with(Settings::default()).await;
    for text in [false, true] {
        let (response, body) =
            web::call(server.address, "Solve", &solve_request(CLASSIC), text, &[]).await;
        assert_eq!(response.status, 200);
        let expected = if text {
            "application/grpc-web-text"
        } else {
            "application/grpc-web+proto"
        };
        assert!(
            response
                .header("content-type")
                .unwrap()
                .starts_with(expected)
        );
        assert_eq!(body.status(), Some("0"), "{body:?}");
        assert_eq!(body.messages.len(), 1);
        let solved = SolveResponse::decode(&body.messages[0][..]).unwrap();
        assert_eq!(solved.solution, CLASSIC_SOLUTION);
        assert_eq!(solved.outcome(), pb::Outcome::Solved);
    }
    let bad = format!("x{}", &CLASSIC[1..]);
    let (response, body) =
        web::call(server.address, "Solve", &solve_request(&bad), false, &[]).await;
    // A refusal is trailers-only: the status is in the headers.
    let (status, message) = web::status_of(&response, &body);
    assert_eq!(status.as_deref(), Some("3"), "{response:?}");
    assert!(message.contains("'x' at column 1"), "{message}");
    assert!(
        response.header("grpc-status-details-bin").is_some(),
        "the BadRequest detail"
    );
}

#[tokio::test]
async fn a_grpc_web_message_over_the_limit_is_refused_as_over_http2() {
    let server = server_with(Settings::default()).await;
    // 20 KiB of layout around the puzzle: past --max-message-bytes (16 KiB).
    let padded = format!("{CLASSIC}{}", " ".repeat(20 << 10));
    let (response, body) =
        web::call(server.address, "Solve", &solve_request(&padded), false, &[]).await;
    let (status, message) = web::status_of(&response, &body);
    assert_eq!(status.as_deref(), Some("8"), "{response:?}");
    assert!(message.contains("--max-message-bytes"), "{message}");
}

#[tokio::test]
async fn grpc_web_streams_generated_puzzles_as_a_server_stream() {
    let server = server_with(Settings::default()).await;
    let request = GenerateRequest {
        count: 3,
        seed: 2026,
        ..GenerateRequest::default()
    };
    let (response, body) = web::call(server.address, "Generate", &request, false, &[]).await;
    assert_eq!(response.status, 200);
    assert_eq!(body.status(), Some("0"), "{body:?}");
    let puzzles: Vec<GenerateResponse> = body
        .messages
        .iter()
        .map(|message| GenerateResponse::decode(&message[..]).unwrap())
        .collect();
    assert_eq!(puzzles.len(), 3);
    for puzzle in &puzzles {
        assert_eq!(puzzle.puzzle.len(), 81);
        assert_eq!(puzzle.solution.len(), 81);
        assert!(puzzle.grade.is_some());
    }
    // The same seed over HTTP/2 gives the same puzzles.
    let mut client = server.client().await;
    let mut stream = client.generate(request).await.unwrap().into_inner();
    let first = stream.message().await.unwrap().unwrap();
    assert_eq!(first.puzzle, puzzles[0].puzzle);
}

const PAGE_ORIGIN: &str = "https://app.example.com";

fn preflight_headers(origin: &str) -> Vec<(&str, &str)> {
    vec![
        ("origin", origin),
        ("access-control-request-method", "POST"),
        (
            "access-control-request-headers",
            "content-type,x-grpc-web,x-user-agent",
        ),
    ]
}

async fn send_preflight(address: SocketAddr, origin: &str) -> Http1Response {
    let path = "/sudoku.v1.SudokuService/Solve";
    web::request(address, "OPTIONS", path, &preflight_headers(origin), b"").await
}

async fn solve_from(address: SocketAddr, origin: &str) -> (Http1Response, GrpcWebBody) {
    let origin = [("origin", origin)];
    web::call(address, "Solve", &solve_request(CLASSIC), false, &origin).await
}

#[tokio::test]
async fn cors_answers_the_allowed_origins_and_gives_no_other_origin_a_cors_header() {
    let settings = Settings {
        cors_allow_origin: vec![PAGE_ORIGIN.to_string(), "http://localhost:8080".to_string()],
        ..Settings::default()
    };
    let server = server_with(settings).await;
    let preflight = send_preflight(server.address, PAGE_ORIGIN).await;
    assert!(preflight.status < 300, "{preflight:?}");
    assert_eq!(
        preflight.header("access-control-allow-origin"),
        Some(PAGE_ORIGIN)
    );
    assert_eq!(
        preflight.header("access-control-allow-methods"),
        Some("POST")
    );
    let allowed_headers = preflight.header("access-control-allow-headers").unwrap();
    assert!(allowed_headers.contains("x-grpc-web"), "{allowed_headers}");

    let (call, body) = solve_from(server.address, PAGE_ORIGIN).await;
    assert_eq!(body.status(), Some("0"));
    assert_eq!(
        call.header("access-control-allow-origin"),
        Some(PAGE_ORIGIN)
    );
    let exposed = call.header("access-control-expose-headers").unwrap();
    for header in ["grpc-status", "grpc-message", "grpc-status-details-bin"] {
        assert!(exposed.contains(header), "{exposed}");
    }

    let other = "https://elsewhere.example.com";
    let refused = send_preflight(server.address, other).await;
    assert!(refused.cors_headers().is_empty(), "{refused:?}");
    let (call, _) = solve_from(server.address, other).await;
    assert!(call.cors_headers().is_empty(), "{call:?}");

    let default = server_with(Settings::default()).await;
    let preflight = send_preflight(default.address, PAGE_ORIGIN).await;
    assert!(preflight.cors_headers().is_empty(), "{preflight:?}");
}

/// Long enough for a debug build on a loaded machine, short enough for a
/// quick test.
const FIRST_CALL_TIMEOUT: Duration = Duration::from_secs(2);

/// Reads until the server closes: everything it sent, or `None` if it has
/// not closed within `limit`.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut received = Vec::new();
    let read = async {
        let mut buffer = [0u8; 4096];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(read) => received.extend_from_slice(&buffer[..read]),
            }
        }
    };
    tokio::time::timeout(limit, read)
        .await
        .ok()
        .map(|()| received)
}

#[tokio::test]
async fn http1_connections_count_against_the_cap_and_the_first_call_clock() {
    let settings = Settings {
        max_connections: 2,
        limits: Limits {
            first_call_timeout: FIRST_CALL_TIMEOUT,
            ..with_metrics().limits
        },
        ..with_metrics()
    };
    let server = server_with(settings).await;
    // One that says nothing, one that starts a request and never ends its
    // headers: both are closed by the clock.
    let mut silent = TcpStream::connect(server.address).await.unwrap();
    let mut slow = TcpStream::connect(server.address).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nhost: x\r\n")
        .await
        .unwrap();
    // Each holds a slot from the moment the server accepts it.
    let open = |text: &str| sample(text, "sudoku_connections_open");
    let text = server.scrape_until(|text| open(text) == 2.0).await;
    assert_eq!(open(&text), 2.0, "both connections were accepted: {text}");
    let refused = get(server.address, "/", &[]).await;
    assert_eq!(refused.status, 503, "{refused:?}");
    assert!(String::from_utf8_lossy(&refused.body).contains("--max-connections"));
    let limit = FIRST_CALL_TIMEOUT * 5;
    assert!(
        read_until_closed(&mut silent, limit).await.is_some(),
        "the silent connection stayed open"
    );
    assert!(
        read_until_closed(&mut slow, limit).await.is_some(),
        "the slow connection stayed open"
    );
    assert_eq!(get(server.address, "/", &[]).await.status, 200);

    // A connection that made a request and then sits idle is closed by
    // the same clock.
    let mut idle = TcpStream::connect(server.address).await.unwrap();
    idle.write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let answered = read_until_closed(&mut idle, limit).await;
    let answered = answered.expect("the idle connection was closed");
    assert!(answered.starts_with(b"HTTP/1.1 200"));
}

#[tokio::test]
async fn an_http1_header_section_past_the_buffer_is_refused_and_the_connection_closed() {
    let server = server_with(Settings::default()).await;
    let padding = "p".repeat(sudoku_grpc::server::http1::HTTP1_BUFFER_BYTES);
    let refused = get(server.address, "/", &[("x-padding", &padding)]).await;
    assert_eq!(refused.status, 431, "{:?}", refused.status);
    let fits = "p".repeat(7 * 1024);
    assert_eq!(
        get(server.address, "/", &[("x-padding", &fits)])
            .await
            .status,
        200
    );
}

#[tokio::test]
async fn grpc_web_calls_count_against_max_calls() {
    let settings = Settings {
        max_calls: 1,
        limits: Limits {
            first_call_timeout: Duration::from_secs(30),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    };
    let server = server_with(settings).await;
    // A gRPC-Web Solve whose message never comes holds the one slot.
    let mut pending = TcpStream::connect(server.address).await.unwrap();
    let head = web::call_head("Solve", "content-length: 100\r\n", 0);
    pending.write_all(head.as_bytes()).await.unwrap();
    pending.write_all(&[0, 0, 0, 0, 95]).await.unwrap();
    let mut refused = None;
    for _ in 0..100 {
        let (response, body) =
            web::call(server.address, "Solve", &solve_request(CLASSIC), false, &[]).await;
        let (status, message) = web::status_of(&response, &body);
        if status.as_deref() == Some("8") {
            refused = Some(message);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let message =
        refused.expect("a second call refused RESOURCE_EXHAUSTED while the first holds the slot");
    assert!(message.contains("max-calls"), "{message}");
    drop(pending);
    let mut answered = false;
    for _ in 0..100 {
        let (_, body) =
            web::call(server.address, "Solve", &solve_request(CLASSIC), false, &[]).await;
        if body.status() == Some("0") {
            answered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(answered, "the slot came back when the client went away");
}

#[tokio::test]
async fn a_draining_server_closes_idle_http1_connections_at_once() {
    // The first-call clock is far off: only the drain can close it.
    let server = server_with(Settings {
        limits: Limits {
            first_call_timeout: Duration::from_secs(120),
            ..Limits::DEFAULT
        },
        ..Settings::default()
    })
    .await;
    let mut keep_alive = TcpStream::connect(server.address).await.unwrap();
    let frame = web::frame(&solve_request(CLASSIC));
    let head = web::call_head("Solve", &format!("content-length: {}\r\n", frame.len()), 0);
    keep_alive.write_all(head.as_bytes()).await.unwrap();
    keep_alive.write_all(&frame).await.unwrap();
    let mut first = [0u8; 12];
    keep_alive.read_exact(&mut first).await.unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    let stopped = tokio::time::timeout(Duration::from_secs(5), server.shut_down()).await;
    assert!(
        matches!(stopped, Ok(Ok(()))),
        "the server did not stop: {stopped:?}"
    );
    let closed = read_until_closed(&mut keep_alive, Duration::from_secs(2)).await;
    assert!(closed.is_some(), "the idle connection outlived the drain");
}

/// A server allowing one connection, with the test's first-call clock.
async fn one_connection_server() -> TestServer {
    server_with(Settings {
        max_connections: 1,
        limits: Limits {
            first_call_timeout: FIRST_CALL_TIMEOUT,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    })
    .await
}

#[tokio::test]
async fn a_client_that_starts_the_http2_preface_and_stalls_or_closes_gives_its_slot_back() {
    let server = one_connection_server().await;
    // "P" could begin HTTP/2's preface or a POST: the server waits for
    // more, but no longer than the first-call clock.
    let mut stalled = TcpStream::connect(server.address).await.unwrap();
    stalled.write_all(b"P").await.unwrap();
    let closed = read_until_closed(&mut stalled, FIRST_CALL_TIMEOUT * 5).await;
    assert!(
        closed.is_some(),
        "a stalled partial preface kept its connection"
    );
    assert_eq!(get(server.address, "/", &[]).await.status, 200);

    // One that sends "PR" and closes gives the slot back at once.
    let mut closing = TcpStream::connect(server.address).await.unwrap();
    closing.write_all(b"PR").await.unwrap();
    drop(closing);
    let mut served = false;
    for _ in 0..50 {
        let page = get(server.address, "/", &[]).await;
        if page.status == 200 {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        served,
        "the closed connection's slot did not come back before its clock"
    );
}

#[tokio::test]
async fn a_slow_reader_gets_the_whole_page_file_past_the_first_call_clock() {
    let dir = page_dir();
    let big: Vec<u8> = (0..4u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    std::fs::write(dir.path().join("big.bin"), &big).unwrap();
    let server = server_with(Settings {
        web_dir: Some(dir.path().to_path_buf()),
        limits: Limits {
            first_call_timeout: FIRST_CALL_TIMEOUT,
            ..Limits::DEFAULT
        },
        ..Settings::default()
    })
    .await;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(server.address).await.unwrap();
    stream
        .write_all(b"GET /big.bin HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
        .await
        .unwrap();
    // The server has sent what the socket buffers take, and waits.
    tokio::time::sleep(FIRST_CALL_TIMEOUT + Duration::from_millis(500)).await;
    let received = read_until_closed(&mut stream, Duration::from_secs(30))
        .await
        .unwrap();
    let response = web::parse_response(&received);
    assert_eq!(response.status, 200);
    assert_eq!(response.body.len(), big.len(), "the download was cut short");
}

#[tokio::test]
async fn an_http1_request_that_is_not_grpc_web_is_told_what_the_port_speaks() {
    let server = server_with(Settings::default()).await;
    let frame = web::frame(&solve_request(CLASSIC));
    let headers = [("content-type", "application/grpc")];
    let path = "/sudoku.v1.SudokuService/Solve";
    let refused = web::request(server.address, "POST", path, &headers, &frame).await;
    assert_eq!(refused.status, 415);
    let text = String::from_utf8_lossy(&refused.body);
    assert!(
        text.contains("gRPC over HTTP/2") && text.contains("application/grpc-web"),
        "{text}"
    );
}

#[tokio::test]
async fn the_page_and_grpc_web_are_served_over_http2_too() {
    use http_body_util::BodyExt;
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;
    let server = server_with(Settings::default()).await;
    let client = Client::builder(TokioExecutor::new())
        .http2_only(true)
        .build_http::<http_body_util::Full<tonic::codegen::Bytes>>();
    let page = client
        .get(format!("http://{}/", server.address).parse().unwrap())
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(page.version(), http::Version::HTTP_2);
    let built = std::fs::read("web/dist/index.html").unwrap();
    assert_eq!(page.into_body().collect().await.unwrap().to_bytes(), built);

    let request = http::Request::post(format!(
        "http://{}/sudoku.v1.SudokuService/Solve",
        server.address
    ))
    .header("content-type", "application/grpc-web+proto")
    .body(http_body_util::Full::new(tonic::codegen::Bytes::from(
        web::frame(&solve_request(CLASSIC)),
    )))
    .unwrap();
    let response = client.request(request).await.unwrap();
    assert_eq!(response.version(), http::Version::HTTP_2);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let body = GrpcWebBody::parse(&body);
    assert_eq!(body.status(), Some("0"), "{body:?}");
    let solved = SolveResponse::decode(&body.messages[0][..]).unwrap();
    assert_eq!(solved.solution, CLASSIC_SOLUTION);
}

/// A POST that is neither gRPC nor gRPC-Web with protobuf gets a 415
/// saying what the port speaks, over HTTP/2 too: a `text/plain` POST,
/// which a browser sends cross-site without a preflight, used to run as
/// a gRPC call there. gRPC-Web with JSON got an empty 400.
#[tokio::test]
async fn a_post_of_another_content_type_is_refused_over_both_versions() {
    use http_body_util::BodyExt;
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;
    let server = server_with(Settings::default()).await;
    let frame = web::frame(&solve_request(CLASSIC));
    let path = "/sudoku.v1.SudokuService/Solve";
    let h2 = Client::builder(TokioExecutor::new())
        .http2_only(true)
        .build_http::<http_body_util::Full<tonic::codegen::Bytes>>();
    for content_type in [
        "text/plain",
        "application/grpc+json",
        "application/grpc-web+json",
    ] {
        let request = http::Request::post(format!("http://{}{path}", server.address))
            .header("content-type", content_type)
            .body(http_body_util::Full::new(tonic::codegen::Bytes::from(
                frame.clone(),
            )))
            .unwrap();
        let response = h2.request(request).await.unwrap();
        assert_eq!(response.status(), 415, "{content_type} over HTTP/2");
        let text = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&text);
        assert!(text.contains("this port speaks gRPC"), "{text}");
    }
    for content_type in ["text/plain", "application/grpc-web+json"] {
        let headers = [("content-type", content_type)];
        let refused = web::request(server.address, "POST", path, &headers, &frame).await;
        assert_eq!(refused.status, 415, "{content_type} over HTTP/1.1");
    }
}

#[test]
fn grpc_web_frames_split_into_messages_and_trailers() {
    let mut body = web::frame(&solve_request(CLASSIC));
    body.extend_from_slice(&[0x80, 0, 0, 0, 30]);
    body.extend_from_slice(b"grpc-status:0\r\ngrpc-message:\r\n");
    let parsed = GrpcWebBody::parse(&body);
    assert_eq!(parsed.messages.len(), 1);
    assert_eq!(parsed.status(), Some("0"));
}
