//! A hostile client against a real `sudoku-server` process: many
//! connections and streams at once, each sending the largest items allowed
//! and reading no answers, connections that say hello and nothing more,
//! and calls whose request never comes; some of the streams and calls come
//! as gRPC-Web over HTTP/1.1, from clients that never read. The server's peak memory must stay
//! under the bound it prints at startup, and once the flood stops it must
//! be serving.
//!
//! `cargo test` runs it at a size CI can afford. Two ignored
//! tests run it for the record, best against a release build
//! (`scripts/flood.sh` does that): `at_the_default_settings`, the
//! documented figure, and `what_each_unit_costs`, which measures the
//! per-unit costs the bound is built from.

use std::time::{Duration, Instant};

use crate::common::CLASSIC;
use crate::common::flood::Flood;
use crate::common::process::ServerProcess;
use crate::common::tls::{Authority, TlsFiles};
use sudoku_grpc::pb::SolveRequest;
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::server::OTHER_CALLS;
use tonic::transport::Channel;

/// The bound a server printed in its startup line, in bytes.
fn memory_bound(server: &ServerProcess) -> u64 {
    let log = server.log();
    log.split("memory_bound_bytes=")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no memory_bound_bytes in {log}"))
}

/// Waits until the server's resident memory has not grown for a second
/// (it has read and buffered all it will), at most `limit`.
fn settle(server: &ServerProcess, limit: Duration) {
    let deadline = Instant::now() + limit;
    let mut last = server.memory_kib("VmRSS");
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_secs(1));
        let now = server.memory_kib("VmRSS");
        if now <= last {
            return;
        }
        last = now;
    }
}

async fn serving(address: &str) -> bool {
    let Ok(channel) = Channel::from_shared(format!("http://{address}"))
        .unwrap()
        .connect()
        .await
    else {
        return false;
    };
    let health = sudoku_grpc::client::check_health(channel.clone(), &Default::default(), "").await;
    let request = SolveRequest {
        puzzle: CLASSIC.to_string(),
        grade: false,
    };
    let solved = SudokuServiceClient::new(channel).solve(request).await;
    matches!(health, Ok(true)) && solved.is_ok()
}

/// What a flood is made of: how many of each kind of client.
struct FloodSize {
    idle_connections: usize,
    stream_connections: usize,
    streams_per_connection: usize,
    batch_connections: usize,
    batch_streams_per_connection: usize,
    /// The server's `--max-batch`: the puzzles of each full batch sent.
    batch: usize,
    call_connections: usize,
    calls_per_connection: usize,
    /// gRPC-Web SolveStreams, one per HTTP/1.1 connection.
    web_streams: usize,
    /// gRPC-Web Solve calls whose message never ends, one per connection.
    web_calls: usize,
    /// Reflection streams whose first request never comes, on one
    /// connection.
    reflection_calls: usize,
}

/// What a flood found: the bound the server printed and its peak resident
/// memory during the flood (bytes), and what it refused and kept open.
struct FloodReport {
    bound: u64,
    peak: u64,
    streams_open: usize,
    calls_waiting: usize,
    connections_refused: usize,
    streams_refused: usize,
    batch_streams_open: usize,
    batch_streams_refused: usize,
    calls_refused: usize,
    web_calls_refused: usize,
    reflection_held: usize,
    reflection_refused: usize,
}

/// Starts a server with `flags`, floods it with `size`, reports, and
/// checks it serves once the flood is gone.
async fn flood(flags: &[&str], size: FloodSize) -> FloodReport {
    let server = ServerProcess::start_async(flags).await;
    let bound = memory_bound(&server);
    let address = server.address.clone();
    let mut flood = Flood::default();
    flood.greedy_web_streams(&address, size.web_streams).await;
    flood
        .greedy_streams(
            &address,
            size.stream_connections,
            size.streams_per_connection,
        )
        .await;
    flood
        .greedy_batch_streams(
            &address,
            size.batch_connections,
            size.batch_streams_per_connection,
            size.batch,
        )
        .await;
    flood.pending_web_calls(&address, size.web_calls).await;
    flood
        .pending_calls(&address, size.call_connections, size.calls_per_connection)
        .await;
    flood
        .pending_reflection_calls(&address, size.reflection_calls)
        .await;
    flood
        .idle_connections(&address, size.idle_connections)
        .await;
    let server = tokio::task::spawn_blocking(move || {
        settle(&server, Duration::from_secs(20));
        server
    })
    .await
    .unwrap();
    let (streams_open, calls_waiting) = flood.open();
    let (reflection_held, reflection_refused) = flood.reflection_calls();
    let report = FloodReport {
        bound,
        peak: server.memory_kib("VmHWM") * 1024,
        streams_open,
        calls_waiting,
        connections_refused: flood.connections_refused + flood.closed_idle_connections().await,
        streams_refused: flood.streams_refused,
        batch_streams_open: flood.batch_streams_open(),
        batch_streams_refused: flood.batch_streams_refused,
        calls_refused: flood.calls_refused(),
        web_calls_refused: flood.web_calls_refused,
        reflection_held,
        reflection_refused,
    };
    eprintln!(
        "flood: {streams_open} streams, {} batch streams open and {calls_waiting} calls \
         waiting, {reflection_held} reflection streams held; refused {} connections, {} \
         streams, {} batch streams, {} calls, {} gRPC-Web calls, {reflection_refused} \
         reflection streams; server peak {:.1} MiB, bound {:.1} MiB",
        report.batch_streams_open,
        report.connections_refused,
        report.streams_refused,
        report.batch_streams_refused,
        report.calls_refused,
        report.web_calls_refused,
        report.peak as f64 / f64::from(1 << 20),
        report.bound as f64 / f64::from(1 << 20)
    );
    drop(flood);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !serving(&address).await {
        assert!(Instant::now() < deadline, "not serving after the flood");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_flood_stays_under_the_memory_bound_and_health_answers_after() {
    // Caps small enough for a debug build in CI, and a flood that goes
    // past every one of them; the streams' windows (24 x 64 KiB) overcommit
    // the budget, so it binds too.
    let flags = [
        "--workers",
        "1",
        "--max-connections",
        "64",
        "--max-calls",
        "96",
        "--max-open-streams",
        "24",
        "--max-inflight-bytes",
        "1MiB",
        "--stream-window-bytes",
        "64KiB",
        "--max-batch",
        "64",
        "--max-batch-calls",
        "4",
        "--first-call-timeout",
        "120s",
    ];
    let size = FloodSize {
        idle_connections: 60,
        stream_connections: 8,
        streams_per_connection: 4,
        batch_connections: 2,
        batch_streams_per_connection: 3,
        batch: 64,
        call_connections: 12,
        calls_per_connection: 8,
        web_streams: 2,
        web_calls: 8,
        reflection_calls: 56,
    };
    let report = flood(&flags, size).await;
    assert!(
        report.peak < report.bound,
        "peak {} bytes over the bound {}",
        report.peak,
        report.bound
    );
    // Every cap was reached: 24 streams (2 of them gRPC-Web), 4 batch
    // streams, 96 calls in all (8 of them gRPC-Web, and the streams'),
    // 64 connections.
    assert_eq!(report.web_calls_refused, 0);
    assert_eq!(report.streams_open, 24 - 2);
    assert_eq!(report.streams_refused, 8 + 2);
    assert_eq!(report.batch_streams_open, 4);
    assert_eq!(report.batch_streams_refused, 2);
    assert_eq!(report.calls_waiting, 96 - 24 - 8);
    assert_eq!(report.calls_refused, 96 - (96 - 24 - 8));
    // Headers alone hold the 48 slots of watches and reflection, no more.
    assert_eq!(report.reflection_held, OTHER_CALLS);
    assert_eq!(report.reflection_refused, 56 - OTHER_CALLS);
    assert_eq!(report.connections_refused, 2 + 8 + 2 + 8 + 12 + 1 + 60 - 64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "minutes long; scripts/flood.sh runs it against a release build"]
async fn at_the_default_settings() {
    let size = FloodSize {
        idle_connections: 600,
        stream_connections: 64,
        streams_per_connection: 8,
        batch_connections: 3,
        batch_streams_per_connection: 4,
        batch: 1024,
        call_connections: 40,
        calls_per_connection: 64,
        web_streams: 16,
        web_calls: 64,
        reflection_calls: 64,
    };
    let report = flood(&["--first-call-timeout", "120s"], size).await;
    assert!(
        report.peak < report.bound,
        "peak {} bytes over the bound {}",
        report.peak,
        report.bound
    );
}

/// Resident memory after each step, less before it, per unit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check: scripts/flood.sh runs it"]
async fn what_each_unit_costs() {
    let flags = [
        "--max-connections",
        "100000",
        "--max-calls",
        "100000",
        "--max-open-streams",
        "100000",
        "--max-inflight-bytes",
        "4000MiB",
        "--first-call-timeout",
        "600s",
    ];
    let server = ServerProcess::start_async(&flags).await;
    let address = server.address.clone();
    let mut flood = Flood::default();
    let rss = || server.memory_kib("VmRSS") as f64;
    let settle_then = |before: f64, units: usize, what: &str| {
        settle(&server, Duration::from_secs(30));
        let after = server.memory_kib("VmRSS") as f64;
        eprintln!(
            "{what}: {:.1} KiB each ({units} of them, {:.1} MiB in all)",
            (after - before) / units as f64,
            (after - before) / 1024.0
        );
        after
    };
    let start = rss();
    eprintln!("at rest: {:.1} MiB", start / 1024.0);
    flood.idle_connections(&address, 2000).await;
    let idle = settle_then(start, 2000, "an idle connection");
    flood.pending_calls(&address, 500, 1).await;
    let with_call = settle_then(idle, 500, "a connection with one waiting call");
    flood.pending_calls(&address, 10, 100).await;
    let calls = settle_then(with_call, 1000, "a waiting call");
    flood.greedy_streams(&address, 100, 1).await;
    let streams = settle_then(calls, 100, "a greedy stream with its connection and window");
    flood.pending_web_calls(&address, 500).await;
    let web_calls = settle_then(
        streams,
        500,
        "an HTTP/1.1 connection with one waiting gRPC-Web call",
    );
    flood.greedy_web_streams(&address, 100).await;
    settle_then(
        web_calls,
        100,
        "an HTTP/1.1 connection with a greedy gRPC-Web stream",
    );
    drop(flood);

    let ca = Authority::new("flood CA");
    let files = TlsFiles::new(&ca, None);
    let mut tls_flags: Vec<String> = flags.iter().map(|flag| flag.to_string()).collect();
    tls_flags.extend(files.flags());
    let server = ServerProcess::start_async(&tls_flags).await;
    let before = server.memory_kib("VmRSS") as f64;
    let mut flood = Flood::default();
    flood
        .idle_tls_connections(&server.address, &ca.pem, 1000)
        .await;
    settle(&server, Duration::from_secs(30));
    let after = server.memory_kib("VmRSS") as f64;
    eprintln!(
        "an idle TLS connection: {:.1} KiB each (1000 of them)",
        (after - before) / 1000.0
    );
}

/// Puzzles from the top of Sukaku Explainer's scale (11.0 to 11.4, from
/// `hardest-se40.txt`): grading each takes its nested forcing chains'
/// whole working memory.
const HARDEST: [&str; 4] = [
    "98.7..6....5.6..4......3...8....67...4..9..5....2....17.........6...93.....61...2",
    "98.76.5..7....4.9...3...7..5.......9....2..5......54.12....9.4..7.8.......6.3....",
    "98.7.....7.6.......5....4..4..5..9......6..3......2..1.7.4..8......3..6......1..2",
    "98.7..6..7..6..5...4.....8.3..5..9....2.3.........7..31...7..9...91....6.....51..",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_explain_calls_on_the_hardest_puzzles_stays_under_the_bound() {
    // Two workers grade the hardest puzzles (each until the grading budget
    // ends it), four Explain calls wait for them, the rest are shed. The
    // other caps are small, so that the bound is mostly the Explain calls'
    // and the workers' grading memory.
    let flags = [
        "--workers",
        "2",
        "--max-batch-calls",
        "6",
        "--max-grade-time",
        "3s",
        "--max-connections",
        "8",
        "--max-calls",
        "16",
        "--max-open-streams",
        "4",
        "--max-inflight-bytes",
        "1MiB",
        "--max-batch",
        "64",
    ];
    let server = ServerProcess::start_async(&flags).await;
    let bound = memory_bound(&server);
    let address = format!("http://{}", server.address);
    let channel = Channel::from_shared(address)
        .unwrap()
        .connect()
        .await
        .unwrap();
    let calls: Vec<_> = (0..24)
        .map(|i| {
            let mut client = SudokuServiceClient::new(channel.clone());
            let puzzle = HARDEST[i % HARDEST.len()].to_string();
            tokio::spawn(async move {
                client
                    .explain(sudoku_grpc::pb::ExplainRequest {
                        puzzle,
                        ..Default::default()
                    })
                    .await
            })
        })
        .collect();
    // Health answers at once while every worker is busy.
    for _ in 0..10 {
        let started = Instant::now();
        let health =
            sudoku_grpc::client::check_health(channel.clone(), &Default::default(), "").await;
        assert!(matches!(health, Ok(true)), "{health:?}");
        assert!(started.elapsed() < Duration::from_secs(1));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (mut explained, mut shed) = (0, 0);
    for call in calls {
        match call.await.unwrap() {
            Ok(answer) => {
                let answer = answer.into_inner();
                assert!(!answer.steps.is_empty(), "{answer:?}");
                explained += 1;
            }
            Err(status) => {
                assert_eq!(status.code(), tonic::Code::ResourceExhausted, "{status:?}");
                shed += 1;
            }
        }
    }
    let peak = server.memory_kib("VmHWM") * 1024;
    eprintln!(
        "explain flood: {explained} explained, {shed} shed; peak {:.1} MiB, bound {:.1} MiB",
        peak as f64 / f64::from(1 << 20),
        bound as f64 / f64::from(1 << 20)
    );
    assert!(explained >= 6, "{explained} explained");
    assert!(peak < bound, "peak {peak} bytes over the bound {bound}");
}

/// The largest typed variant request the server reads: a 4×4 grid with as
/// many anti-knight rules (4 bytes each on the wire) as fit under the
/// 64 KiB limit, each of which decodes to a list entry of its own.
fn largest_variant(index: u64) -> sudoku_grpc::pb::SolveVariantRequest {
    use sudoku_grpc::pb::{self, variant_constraint::Kind, variant_source::Source};
    let knight = pb::VariantConstraint {
        kind: Some(Kind::AntiKnight(pb::AntiKnight {})),
    };
    pb::SolveVariantRequest {
        id: format!("{index:0>256}"),
        puzzle: Some(pb::VariantSource {
            source: Some(Source::Typed(pb::VariantPuzzle {
                size: 4,
                constraints: vec![knight; 16_000],
                ..Default::default()
            })),
        }),
    }
}

/// A 25×25 puzzle (half its cells given) whose certification takes
/// seconds: it keeps the one worker busy while the flood queues up.
const SLOW_25: &str = "ME.3..CG.4.168....LD...I.6.9.1I..O.....BM...3..L.7.......EF....PD...C.1.9.6...BHDLP....K.....9AF..3.7.L..A98...FM...JONIHG...........8..E.M.I........BB.1...O..DHJ...A.8.9..253.M.5..14..F.A.9D.POLJK......N..2.E3O..7..4G1.86F...6...NHKJ...B.C3ME2..7.L...D75..1...9EFMJ.L.K...4GJ....M3.9..5.2.G........8..B.N.D..PIL.O.8.C.6..3ME.1....I.LJBNGH4EF..M5..7PEF..94.H.GAC8...2.D..OI...N4G.P7532K.O.J..B..A9MEF..6.BJKLDO.IH.....M..57.2.LK...M.A.73..P..I4.BC.8.F.ME...N...B1C....7.DLKJ..57P38.C.1MAF..O.DK..N....A.F6.G..N8...1.3..27DJ..LD..7.E...P.5.2..K.H4..1..IG...P3M..7...CB..1.A.F953..M1.B4.E....LD.....G..C.....JD7LG.N....6.F.3.25";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_variant_calls_stays_under_the_bound() {
    // One worker busy with a slow 25×25 for 5 s, three variant streams
    // that send the largest typed requests endlessly and read nothing
    // (their puzzles queue up for the worker, held until it reads them),
    // and unary variant calls past --max-batch-calls. The other caps are
    // small, so that the bound is mostly the variant calls' and their
    // budget's.
    let flags = [
        "--workers",
        "1",
        "--max-solve-time",
        "5s",
        "--max-batch-calls",
        "4",
        "--max-connections",
        "8",
        "--max-calls",
        "16",
        "--max-open-streams",
        "4",
        "--max-inflight-bytes",
        "1MiB",
        "--max-batch",
        "64",
        "--first-call-timeout",
        "120s",
    ];
    let server = ServerProcess::start_async(&flags).await;
    let bound = memory_bound(&server);
    let channel = Channel::from_shared(format!("http://{}", server.address))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let slow = {
        use sudoku_grpc::pb::{self, variant_source::Source};
        let mut client = SudokuServiceClient::new(channel.clone());
        let request = pb::SolveVariantRequest {
            id: String::new(),
            puzzle: Some(pb::VariantSource {
                source: Some(Source::Typed(pb::VariantPuzzle {
                    size: 25,
                    givens: SLOW_25.to_string(),
                    ..Default::default()
                })),
            }),
        };
        tokio::spawn(async move { client.solve_variant(request).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut streams = Vec::new();
    for _ in 0..3 {
        let requests = tokio_stream::iter((0u64..).map(largest_variant));
        let mut client = SudokuServiceClient::new(channel.clone());
        let call = client.solve_variant_stream(requests);
        let response = tokio::time::timeout(Duration::from_secs(5), call).await;
        streams.push(response.unwrap().unwrap().into_inner());
    }
    // Every slot is taken: one more variant call is shed.
    let mut client = SudokuServiceClient::new(channel.clone());
    let shed = client.solve_variant(largest_variant(0)).await.unwrap_err();
    assert_eq!(shed.code(), tonic::Code::ResourceExhausted, "{shed:?}");
    let server = tokio::task::spawn_blocking(move || {
        settle(&server, Duration::from_secs(20));
        server
    })
    .await
    .unwrap();
    let peak = server.memory_kib("VmHWM") * 1024;
    eprintln!(
        "variant flood: peak {:.1} MiB, bound {:.1} MiB",
        peak as f64 / f64::from(1 << 20),
        bound as f64 / f64::from(1 << 20)
    );
    assert!(peak < bound, "peak {peak} bytes over the bound {bound}");
    drop(streams);
    let _ = slow.await;
}
