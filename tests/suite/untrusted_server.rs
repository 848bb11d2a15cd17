//! The command line against a server it cannot trust: a fake SudokuService
//! that answers badly. Whatever it sends, the command line does not panic,
//! prints nothing it has not checked, keeps its output one valid line per
//! puzzle, and exits 3 with a message saying what the server sent.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::process::{run_sudoku, temp_file, text};
use crate::common::{CLASSIC, CLASSIC_SOLUTION};
use sudoku_grpc::pb::sudoku_service_server::{SudokuService, SudokuServiceServer};
use sudoku_grpc::pb::{
    Outcome, SolveBatchRequest, SolveBatchResponse, SolveRequest, SolveResponse, SolveResult,
    SolveStreamRequest, SolveStreamResponse,
};
use tokio::net::TcpListener;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::{Request, Response, Status, Streaming};

/// How the fake server answers a puzzle: by a rule chosen from its text
/// (digits, so that the command line takes any of them for a puzzle).
fn answer(puzzle: &str) -> (i32, String, Option<&'static str>) {
    let solved = Outcome::Solved as i32;
    match puzzle {
        SHORT => (solved, "12x".to_string(), None),
        UNKNOWN => (42, String::new(), None),
        WRONG => (solved, CLASSIC_SOLUTION.replacen('5', "6", 1), None),
        SNEAKY => (
            Outcome::Invalid as i32,
            String::new(),
            Some("bad \"quote\"\n{\"line\":99}\u{1b}[2J"),
        ),
        INJECTION => (
            solved,
            format!("{}\",\"x\":\"", &CLASSIC_SOLUTION[..70]),
            None,
        ),
        _ => (solved, CLASSIC_SOLUTION.to_string(), None),
    }
}

/// A Generate response for `puzzle` with an easy grade.
fn generated(puzzle: &str) -> sudoku_grpc::pb::GenerateResponse {
    sudoku_grpc::pb::GenerateResponse {
        puzzle: puzzle.to_string(),
        solution: CLASSIC_SOLUTION.to_string(),
        grade: Some(sudoku_grpc::pb::Grade {
            rating: 1.2,
            level: sudoku_grpc::pb::Level::Easy as i32,
            hardest_technique: "Hidden Single in a Box".to_string(),
            techniques: vec![sudoku_grpc::pb::TechniqueCount {
                technique: "Hidden Single in a Box".to_string(),
                count: 51,
            }],
            stalled: false,
            stalled_reason: String::new(),
            pearl: 1.2,
            diamond: 1.2,
        }),
        clues: 30,
        seed: 1,
    }
}

/// Puzzles the fake server answers badly, each in its own way.
const SHORT: &str = "1";
const UNKNOWN: &str = "2";
const WRONG: &str = "3";
const SNEAKY: &str = "4";
const INJECTION: &str = "5";
/// Batches holding these are answered with a result short, under another
/// id, or refused as a whole.
const DROPS_ONE: &str = "6";
const WRONG_ID: &str = "7";
const REFUSED: &str = "8";

/// A server that answers every puzzle by [`answer`], whatever it is.
#[derive(Default)]
struct BadServer {
    /// Send a stream's response headers only with its first answer, after
    /// the first request came in (as grpcio's servers do), not at once.
    holds_headers: bool,
    /// Read every request of a stream, counting its puzzles here, and never
    /// answer the call at all (a server that hangs after accepting it).
    mute: Option<Arc<AtomicUsize>>,
}

impl BadServer {
    /// The first request of a stream when the server waits for it before
    /// answering the call at all (see `holds_headers`).
    async fn first_request<T>(&self, requests: &mut Streaming<T>) -> Option<Result<T, Status>> {
        match self.holds_headers {
            true => requests.next().await,
            false => None,
        }
    }

    /// Reads `requests` to their end, counting their puzzles, and then
    /// waits for good, when this server is mute.
    async fn hang_if_mute<T>(&self, requests: &mut Streaming<T>, puzzles: fn(&T) -> usize) {
        let Some(received) = &self.mute else { return };
        while let Some(Ok(request)) = requests.next().await {
            received.fetch_add(puzzles(&request), Ordering::SeqCst);
        }
        std::future::pending::<()>().await;
    }
}

#[tonic::async_trait]
impl SudokuService for BadServer {
    async fn solve(
        &self,
        request: Request<SolveRequest>,
    ) -> Result<Response<SolveResponse>, Status> {
        let (outcome, solution, _) = answer(&request.into_inner().puzzle);
        Ok(Response::new(SolveResponse {
            outcome,
            solution,
            stats: None,
            grade: None,
        }))
    }

    type SolveStreamStream = std::pin::Pin<
        Box<dyn tokio_stream::Stream<Item = Result<SolveStreamResponse, Status>> + Send>,
    >;

    async fn solve_stream(
        &self,
        request: Request<Streaming<SolveStreamRequest>>,
    ) -> Result<Response<Self::SolveStreamStream>, Status> {
        let mut requests = request.into_inner();
        self.hang_if_mute(&mut requests, |_| 1).await;
        let first = self.first_request(&mut requests).await;
        let answers = tokio_stream::iter(first).chain(requests).map(|request| {
            let request = request?;
            let (outcome, solution, error) = answer(&request.puzzle);
            Ok(SolveStreamResponse {
                id: request.id,
                outcome,
                solution,
                error: error.map(|message| tonic_types::Status {
                    code: 3,
                    message: message.to_string(),
                    details: Vec::new(),
                }),
                stats: None,
                grade: None,
            })
        });
        Ok(Response::new(Box::pin(answers)))
    }

    async fn solve_batch(
        &self,
        request: Request<SolveBatchRequest>,
    ) -> Result<Response<SolveBatchResponse>, Status> {
        Ok(Response::new(answer_batch(request.into_inner())))
    }

    type SolveBatchStreamStream = std::pin::Pin<
        Box<dyn tokio_stream::Stream<Item = Result<SolveBatchResponse, Status>> + Send>,
    >;

    async fn solve_batch_stream(
        &self,
        request: Request<Streaming<SolveBatchRequest>>,
    ) -> Result<Response<Self::SolveBatchStreamStream>, Status> {
        let mut requests = request.into_inner();
        self.hang_if_mute(&mut requests, SolveBatchRequest::puzzle_count)
            .await;
        let first = self.first_request(&mut requests).await;
        let answers = tokio_stream::iter(first)
            .chain(requests)
            .map(|batch| Ok(answer_batch(batch?)));
        Ok(Response::new(Box::pin(answers)))
    }

    async fn hint(
        &self,
        _: Request<sudoku_grpc::pb::HintRequest>,
    ) -> Result<Response<sudoku_grpc::pb::HintResponse>, Status> {
        Err(Status::unimplemented("not this server"))
    }

    async fn explain(
        &self,
        _: Request<sudoku_grpc::pb::ExplainRequest>,
    ) -> Result<Response<sudoku_grpc::pb::ExplainResponse>, Status> {
        Err(Status::unimplemented("not this server"))
    }

    type GenerateStream = std::pin::Pin<
        Box<
            dyn tokio_stream::Stream<Item = Result<sudoku_grpc::pb::GenerateResponse, Status>>
                + Send,
        >,
    >;

    async fn generate(
        &self,
        request: Request<sudoku_grpc::pb::GenerateRequest>,
    ) -> Result<Response<Self::GenerateStream>, Status> {
        let good = generated(CLASSIC);
        let responses = match request.into_inner().seed {
            1 => vec![generated(crate::common::TWO_SOLUTIONS)],
            2 => vec![sudoku_grpc::pb::GenerateResponse { clues: 80, ..good }],
            3 => vec![good.clone(), good],
            4 => vec![sudoku_grpc::pb::GenerateResponse {
                solution: CLASSIC_SOLUTION.replacen('5', "6", 1),
                ..good
            }],
            5 => vec![good],
            _ => vec![sudoku_grpc::pb::GenerateResponse {
                grade: None,
                ..good
            }],
        };
        Ok(Response::new(Box::pin(tokio_stream::iter(
            responses.into_iter().map(Ok),
        ))))
    }

    async fn solve_variant(
        &self,
        _: Request<sudoku_grpc::pb::SolveVariantRequest>,
    ) -> Result<Response<sudoku_grpc::pb::SolveVariantResponse>, Status> {
        Err(Status::unimplemented("not this server"))
    }

    type SolveVariantStreamStream = std::pin::Pin<
        Box<
            dyn tokio_stream::Stream<Item = Result<sudoku_grpc::pb::SolveVariantResponse, Status>>
                + Send,
        >,
    >;

    /// Answers the first puzzle with a grid of ones, then nothing more,
    /// keeping the stream open.
    async fn solve_variant_stream(
        &self,
        request: Request<tonic::Streaming<sudoku_grpc::pb::SolveVariantRequest>>,
    ) -> Result<Response<Self::SolveVariantStreamStream>, Status> {
        let mut requests = request.into_inner();
        let first = requests.next().await.unwrap()?;
        let wrong = sudoku_grpc::pb::SolveVariantResponse {
            id: first.id,
            outcome: Outcome::Solved as i32,
            solutions: vec!["1".repeat(16)],
            ..Default::default()
        };
        let answers = tokio_stream::iter([Ok(wrong)]).chain(tokio_stream::pending());
        Ok(Response::new(Box::pin(answers)))
    }

    async fn variant_candidates(
        &self,
        _: Request<sudoku_grpc::pb::VariantCandidatesRequest>,
    ) -> Result<Response<sudoku_grpc::pb::VariantCandidatesResponse>, Status> {
        Err(Status::unimplemented("not this server"))
    }
}

/// A batch answered puzzle by puzzle by [`answer`], or spoiled as a whole
/// by one of the batch rules.
fn answer_batch(batch: SolveBatchRequest) -> SolveBatchResponse {
    let has = |rule: &str| batch.puzzles().iter().any(|puzzle| puzzle.as_str() == rule);
    if has(REFUSED) {
        let error = tonic_types::Status {
            code: 3,
            message: "too many puzzles".to_string(),
            details: Vec::new(),
        };
        return SolveBatchResponse::refused(batch.id, error);
    }
    let id = if has(WRONG_ID) {
        "99999".to_string()
    } else {
        batch.id.clone()
    };
    let mut results: Vec<SolveResult> = batch
        .puzzles()
        .iter()
        .map(|puzzle| {
            let (outcome, solution, error) = answer(puzzle.as_str());
            SolveResult {
                outcome,
                solution: solution.into(),
                error: error.map(|message| tonic_types::Status {
                    code: 3,
                    message: message.to_string(),
                    details: Vec::new(),
                }),
                stats: None,
                grade: None,
            }
        })
        .collect();
    if has(DROPS_ONE) {
        results.pop();
    }
    SolveBatchResponse::new(id, results)
}

async fn start_bad_server() -> SocketAddr {
    start(BadServer::default()).await
}

async fn start(server: BadServer) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(SudokuServiceServer::new(server))
            .serve_with_incoming(TcpListenerStream::new(listener)),
    );
    address
}

/// Runs the command line against the bad server, off the runtime.
async fn sudoku(address: SocketAddr, args: &[&str]) -> std::process::Output {
    let mut args: Vec<String> = args.iter().map(|arg| arg.to_string()).collect();
    args.extend(["--server".to_string(), address.to_string()]);
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run_sudoku(&args, "")
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn a_bad_unary_answer_is_a_protocol_error_naming_what_was_sent() {
    let address = start_bad_server().await;
    for (puzzle, what) in [
        (SHORT, "a solution that is not 81 digits 1-9: \"12x\""),
        (UNKNOWN, "an unknown outcome 42"),
        (WRONG, "a solution that breaks the rules: 634678912"),
    ] {
        for grid in [&[][..], &["--grid", "--format", "json"]] {
            let mut args = vec!["solve", puzzle];
            args.extend_from_slice(grid);
            let output = sudoku(address, &args).await;
            assert_eq!(output.status.code(), Some(3), "{puzzle}");
            assert!(output.stdout.is_empty(), "{}", text(&output.stdout));
            let stderr = text(&output.stderr);
            assert!(
                stderr.starts_with(&format!("sudoku: protocol error: the server sent {what}")),
                "{puzzle}: {stderr}"
            );
        }
    }
    // A right answer goes through, its grid inside the JSON object.
    let good = sudoku(address, &["solve", CLASSIC, "--grid", "--format", "json"]).await;
    assert_eq!(good.status.code(), Some(0), "{}", text(&good.stderr));
    let stdout = text(&good.stdout);
    let value: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(value["solution"], CLASSIC_SOLUTION);
    assert!(
        value["grid"]
            .as_str()
            .unwrap()
            .starts_with("5 3 4 | 6 7 8 | 9 1 2\n")
    );
}

#[tokio::test]
async fn a_server_that_sends_its_headers_with_its_first_answer_gets_requests_first() {
    let address = start(BadServer {
        holds_headers: true,
        ..BadServer::default()
    })
    .await;
    let file = temp_file("holds-headers.txt", &format!("{CLASSIC}\n{CLASSIC}\n"));
    for rpc in ["batch", "stream"] {
        let output = sudoku(
            address,
            &[
                "solve",
                file.to_str().unwrap(),
                "--rpc",
                rpc,
                "--retries",
                "0",
            ],
        )
        .await;
        assert_eq!(output.status.code(), Some(0), "{rpc}: {output:?}");
        assert_eq!(
            text(&output.stdout),
            format!("solved {CLASSIC_SOLUTION}\n").repeat(2)
        );
    }
}

/// Lines in one 64 KiB chunk of input, at most: the client reads a file
/// in such chunks, and a stream takes a whole chunk at a time.
const LINES_PER_CHUNK: usize = 64 * 1024 / (CLASSIC.len() + 1) + 1;

#[tokio::test]
async fn a_server_that_never_opens_its_calls_holds_one_chunk_per_stream_while_another_answers_the_rest()
 {
    let lines = 25 * LINES_PER_CHUNK;
    let file = temp_file("mute-server.txt", &format!("{CLASSIC}\n").repeat(lines));
    // Both wires at once: each run waits out the mute server's calls.
    let path = file.to_str().unwrap();
    let runs = tokio::join!(
        beside_a_mute_server("batch", path),
        beside_a_mute_server("stream", path)
    );
    for (rpc, output, held) in [runs.0, runs.1] {
        assert_eq!(
            output.status.code(),
            Some(0),
            "{rpc}: {}",
            text(&output.stderr)
        );
        assert_eq!(
            text(&output.stdout),
            format!("solved {CLASSIC_SOLUTION}\n").repeat(lines),
            "{rpc}"
        );
        // Two streams per server by default; each took one chunk at most
        // before its call opened, and none after (it never opened).
        assert!(
            held <= 2 * LINES_PER_CHUNK,
            "{rpc}: the mute server received {held} puzzles"
        );
    }
}

/// Solves `file` with `--rpc rpc` on a mute server and a good one, and
/// counts the puzzles the mute one received.
async fn beside_a_mute_server(
    rpc: &'static str,
    file: &str,
) -> (&'static str, std::process::Output, usize) {
    let received = Arc::new(AtomicUsize::new(0));
    let mute = start(BadServer {
        mute: Some(received.clone()),
        ..BadServer::default()
    })
    .await;
    let good = start_bad_server().await;
    let (path, servers) = (file.to_string(), format!("{mute},{good}"));
    let output = tokio::task::spawn_blocking(move || {
        run_sudoku(&["solve", &path, "--rpc", rpc, "--server", &servers], "")
    })
    .await
    .unwrap();
    (rpc, output, received.load(Ordering::SeqCst))
}

#[tokio::test]
async fn bad_stream_answers_end_the_run_with_exit_3_after_a_checked_prefix() {
    let address = start_bad_server().await;
    let unreadable = format!("a solution (\"{CLASSIC_SOLUTION}\") to a puzzle that is not valid: ");
    for (line, what) in [
        (SHORT, "a solution that is not 81 digits 1-9: \"12x\""),
        (UNKNOWN, "an unknown outcome 42"),
        (WRONG, "a solution that breaks the rules"),
        (INJECTION, "a solution that is not 81 digits 1-9"),
        // A line this client cannot read, "solved" by the server.
        ("x", unreadable.as_str()),
    ] {
        for (format, rpc) in [("text", "batch"), ("json", "batch"), ("text", "stream")] {
            // Two thousand good puzzles (several chunks of the file) before
            // the bad one.
            let contents = format!("{}{line}\n{CLASSIC}\n", format!("{CLASSIC}\n").repeat(2000));
            let file = temp_file("bad.txt", &contents);
            let output = sudoku(
                address,
                &[
                    "solve",
                    "-q",
                    "--format",
                    format,
                    file.to_str().unwrap(),
                    "--rpc",
                    rpc,
                ],
            )
            .await;
            let stderr = text(&output.stderr);
            assert_eq!(output.status.code(), Some(3), "{line}: {stderr}");
            assert!(
                stderr.starts_with(&format!(
                    "sudoku: protocol error: the answer to line 2001: {what}"
                )),
                "{line}: {stderr}"
            );
            let answered: usize = stderr
                .split(" puzzles were answered")
                .next()
                .and_then(|before| before.rsplit(' ').next()?.parse().ok())
                .unwrap_or_else(|| panic!("no count in {stderr}"));
            // What was written is the answered prefix, every line checked.
            let stdout = text(&output.stdout);
            assert_eq!(stdout.lines().count(), answered, "{line} {format} {rpc}");
            assert!((1..2000).contains(&answered), "{answered}");
            for written in stdout.lines() {
                match format {
                    "text" => assert_eq!(written, format!("solved {CLASSIC_SOLUTION}")),
                    _ => {
                        let value: serde_json::Value = serde_json::from_str(written).unwrap();
                        assert_eq!(value["solution"], CLASSIC_SOLUTION);
                    }
                }
            }
        }
    }
}

#[tokio::test]
async fn a_batch_answered_with_the_wrong_count_or_id_or_refused_ends_the_run() {
    let address = start_bad_server().await;
    for (rule, what) in [
        (
            DROPS_ONE,
            "2 results for the batch of 3 puzzles from line 1",
        ),
        (
            WRONG_ID,
            "an answer with id \"99999\" where the batch from line 1 was due",
        ),
        (
            REFUSED,
            "the server refused the batch of 3 puzzles from line 1: too many puzzles \
             (a smaller --batch may pass)",
        ),
    ] {
        let file = temp_file("bad-batch.txt", &format!("{CLASSIC}\n{rule}\n{CLASSIC}\n"));
        let output = sudoku(address, &["solve", "-q", file.to_str().unwrap()]).await;
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(3), "{rule}: {stderr}");
        assert_eq!(
            stderr,
            format!(
                "sudoku: protocol error: {what}; 0 puzzles were answered, in input order, \
                 before it\n"
            )
        );
        assert!(output.stdout.is_empty());
    }
}

#[tokio::test]
async fn error_messages_from_a_server_are_escaped_in_text_and_json() {
    let address = start_bad_server().await;
    let file = temp_file("sneaky.txt", &format!("{SNEAKY}\n{CLASSIC}\n"));
    let json = sudoku(
        address,
        &["solve", "-q", "--format", "json", file.to_str().unwrap()],
    )
    .await;
    assert_eq!(
        json.status.code(),
        Some(2),
        "an invalid line: {}",
        text(&json.stderr)
    );
    let lines: Vec<serde_json::Value> = text(&json.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("every line is JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["error"], "bad \"quote\"\n{\"line\":99}\u{1b}[2J");
    assert_eq!(lines[1]["line"], 2);

    let plain = sudoku(address, &["solve", file.to_str().unwrap()]).await;
    let stdout = text(&plain.stdout);
    assert_eq!(
        stdout.lines().next().unwrap(),
        "invalid bad \"quote\"\\n{\"line\":99}\\u{1b}[2J"
    );
    assert_eq!(stdout.lines().count(), 2);
    let stderr = text(&plain.stderr);
    assert!(
        stderr.starts_with("sudoku: line 1: bad \"quote\"\\n{\"line\":99}\\u{1b}[2J\n"),
        "{stderr}"
    );
}

#[tokio::test]
async fn a_benchmark_counts_stream_answers_it_cannot_trust_as_failures() {
    let address = start_bad_server().await;
    let file = temp_file("bench-unknown.txt", &format!("{UNKNOWN}\n{CLASSIC}\n"));
    let output = sudoku(
        address,
        &[
            "bench",
            file.to_str().unwrap(),
            "--requests",
            "0",
            "--stream-puzzles",
            "10",
            "--streams",
            "1",
            "--no-echo",
        ],
    )
    .await;
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stderr),
        "sudoku: 5 of 10 stream answers were failures (failed, gave up, or an unknown \
         outcome); 5 of 10 batch stream answers were failures (failed, gave up, or an \
         unknown outcome)\n"
    );
}

#[tokio::test]
async fn generated_puzzles_that_fail_their_checks_end_the_run_after_those_that_pass() {
    let address = start_bad_server().await;
    for (seed, what, printed) in [
        (
            "1",
            "a generated puzzle that this client finds MultipleSolutions",
            0,
        ),
        ("2", "a generated puzzle said to have 80 clues, with 30", 0),
        ("3", "more than the 1 puzzle asked for", 1),
        (
            "4",
            "a generated puzzle with a solution that is not its one solution",
            0,
        ),
        ("6", "a generated puzzle without a grade", 0),
    ] {
        let output = sudoku(address, &["generate", "--seed", seed]).await;
        assert_eq!(output.status.code(), Some(3), "{seed}");
        assert_eq!(text(&output.stdout).lines().count(), printed, "{seed}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains(&format!("sudoku: protocol error: the server sent {what}")),
            "{seed}: {stderr}"
        );
    }
    // A server older than skip_grade grades anyway: the grade is checked,
    // then dropped.
    let output = sudoku(
        address,
        &[
            "generate",
            "--seed",
            "5",
            "--skip-grade",
            "--format",
            "json",
        ],
    )
    .await;
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let line: serde_json::Value = serde_json::from_str(text(&output.stdout).trim()).unwrap();
    assert_eq!(line["puzzle"], CLASSIC);
    assert!(line["rating"].is_null(), "{line}");
}

/// A server that accepts connections and never says a word.
async fn start_silent_server() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((connection, _)) = listener.accept().await {
            held.push(connection);
        }
    });
    address
}

#[tokio::test]
async fn a_server_that_never_answers_fails_each_single_call_once_its_timeout_passes() {
    let address = start_silent_server().await;
    let commands: [&[&str]; 6] = [
        &["solve", CLASSIC],
        &["grade", CLASSIC],
        &["hint", CLASSIC],
        &["explain", CLASSIC],
        &["generate", "--count", "1", "--quiet"],
        &["health"],
    ];
    for command in commands {
        let args = [command, &["--timeout", "300ms"]].concat();
        let run = tokio::time::timeout(Duration::from_secs(60), sudoku(address, &args));
        let output = run.await.unwrap_or_else(|_| panic!("{command:?} hung"));
        assert_eq!(output.status.code(), Some(3), "{command:?}");
        assert!(
            text(&output.stderr).contains("no answer from the server within 300ms"),
            "{command:?}: {}",
            text(&output.stderr)
        );
        assert_eq!(text(&output.stdout), "", "{command:?}");
    }
    // Over TLS the handshake waits too, within the same limit.
    let tls = format!("https://{address}");
    let run = tokio::task::spawn_blocking(move || {
        run_sudoku(&["health", "--server", &tls, "--timeout", "300ms"], "")
    });
    let output = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("health over TLS hung")
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    assert!(
        text(&output.stderr).contains("no answer from the server within 300ms"),
        "{}",
        text(&output.stderr)
    );
}

/// A variant file far longer than the client's window, through a server
/// whose first answer breaks the puzzle's rules: the run ends with exit
/// code 3 and what was wrong, instead of waiting on puzzles it will never
/// send.
#[tokio::test]
async fn a_variant_answer_that_breaks_the_rules_ends_the_run_at_once() {
    let address = start_bad_server().await;
    let four = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
    let path = temp_file("variants.jsonl", &format!("{four}\n").repeat(2000));
    let args = ["solve", path.to_str().unwrap()];
    let run = sudoku(address, &args);
    let output = tokio::time::timeout(std::time::Duration::from_secs(60), run)
        .await
        .expect("the run ends");
    assert_eq!(output.status.code(), Some(3));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("a solution that breaks the puzzle's rules: 1111111111111111"),
        "{stderr}"
    );
}
