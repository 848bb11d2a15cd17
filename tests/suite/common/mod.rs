//! Shared test harness: an in-process server on 127.0.0.1 port 0.
#![allow(dead_code)] // each test file uses a different part

pub mod flood;
pub mod process;
pub mod raw;
pub mod tls;
pub mod web;

use std::net::SocketAddr;
use std::sync::mpsc as sync_channel;
use std::time::{Duration, Instant};

use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::pb::{
    SolveBatchRequest, SolveBatchResponse, SolveRequest, SolveResponse, SolveStreamRequest,
    SolveStreamResponse,
};
use sudoku_grpc::pool::{JobHandle, WorkerPool};
use sudoku_grpc::server::{self, Settings};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Status, Streaming};

pub const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
pub const CLASSIC_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// A board with no solution that the solver needs about 340,000 guesses to
/// refute (100 ms on the 2-core machine this was written on; the slowest
/// puzzle of the benchmark sets takes 0.3 ms), found by
/// `cargo run --release --example find_slow_boards -- 280 12345`: its flaw
/// shows in no single unit, so the solver's unit check misses it too.
pub const SLOW: &str =
    "....9....4.2....6.............8........6...4...54...28........2...2..784.........";

/// The classic with two givens removed: two solutions.
pub const TWO_SOLUTIONS: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8...9";

/// A minimal puzzle whose hardest step is an XY-Wing (4.2): hard.
pub const XY_WING: &str =
    "..4.12.......79.8.....4....7..6..8.43.....2...62....15.4......6.53.....2..64..3..";

/// A puzzle whose grading needs forcing chains: extreme (9.3), about 50 ms
/// of grading against well under a millisecond of solving.
pub const NEEDS_FORCING_CHAINS: &str =
    ".......4...2..4..1.7..5..9...3..7....4..6....6..1..8...2....1..85.9...6.....8...3";

/// A stream request: `id` and `puzzle`.
pub fn item(id: impl ToString, puzzle: &str) -> SolveStreamRequest {
    SolveStreamRequest {
        id: id.to_string(),
        puzzle: puzzle.to_string(),
        grade: false,
    }
}

/// A server running in this process, stopped when dropped.
pub struct TestServer {
    pub address: SocketAddr,
    /// Where the Prometheus endpoint listens, when the settings ask for one.
    pub metrics_address: Option<SocketAddr>,
    pub pool: WorkerPool,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), server::ServerError>>>,
}

impl TestServer {
    /// Starts a server with the given settings and `workers` / `queue_depth`
    /// pool on an ephemeral port; with `metrics_listen` set (to any
    /// address), the metrics endpoint gets an ephemeral port too.
    pub async fn start(settings: Settings, workers: usize, queue_depth: usize) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let metrics = match settings.metrics_listen {
            Some(_) => Some(TcpListener::bind("127.0.0.1:0").await.unwrap()),
            None => None,
        };
        let metrics_address = metrics
            .as_ref()
            .map(|listener| listener.local_addr().unwrap());
        let listeners = server::Listeners {
            grpc: listener,
            metrics,
        };
        let pool = WorkerPool::new(workers, queue_depth);
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn({
            let pool = pool.clone();
            async move {
                let shutdown = async {
                    let _ = stopped.await;
                };
                server::serve(listeners, &settings, pool, shutdown).await
            }
        });
        TestServer {
            address,
            metrics_address,
            pool,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// A server with default settings and two workers.
    pub async fn default() -> TestServer {
        TestServer::start(Settings::default(), 2, 64).await
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    pub async fn channel(&self) -> Channel {
        Channel::from_shared(self.url())
            .unwrap()
            .connect()
            .await
            .unwrap()
    }

    pub async fn client(&self) -> SudokuServiceClient<Channel> {
        SudokuServiceClient::new(self.channel().await)
    }

    /// One unary Solve call.
    pub async fn solve(&self, puzzle: &str) -> Result<SolveResponse, Status> {
        let request = SolveRequest {
            puzzle: puzzle.to_string(),
            grade: false,
        };
        Ok(self.client().await.solve(request).await?.into_inner())
    }

    /// Opens a SolveStream fed through the returned sender.
    pub async fn open_stream(
        &self,
    ) -> (
        mpsc::Sender<SolveStreamRequest>,
        Streaming<SolveStreamResponse>,
    ) {
        let (requests, outgoing) = mpsc::channel(64);
        let responses = self
            .client()
            .await
            .solve_stream(ReceiverStream::new(outgoing))
            .await
            .unwrap()
            .into_inner();
        (requests, responses)
    }

    /// Sends `requests` on one stream and collects every answer, and the
    /// status the stream ended with after them if it failed.
    pub async fn stream(
        &self,
        requests: Vec<SolveStreamRequest>,
    ) -> (Vec<SolveStreamResponse>, Option<Status>) {
        let mut responses = self
            .client()
            .await
            .solve_stream(tokio_stream::iter(requests))
            .await
            .unwrap()
            .into_inner();
        drain(&mut responses).await
    }

    /// Sends `requests` on one SolveBatchStream and collects every
    /// response, and the status the stream ended with after them if it
    /// failed.
    pub async fn batch_stream(
        &self,
        requests: Vec<SolveBatchRequest>,
    ) -> (Vec<SolveBatchResponse>, Option<Status>) {
        let mut responses = self
            .client()
            .await
            .solve_batch_stream(tokio_stream::iter(requests))
            .await
            .unwrap()
            .into_inner();
        drain(&mut responses).await
    }

    /// The metrics endpoint's text, fetched with a plain HTTP/1.0 GET.
    pub async fn scrape(&self) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let address = self
            .metrics_address
            .expect("the server has a metrics endpoint");
        let mut connection = tokio::net::TcpStream::connect(address).await.unwrap();
        connection
            .write_all(b"GET /metrics HTTP/1.0\r\nHost: test\r\n\r\n")
            .await
            .unwrap();
        let mut response = String::new();
        connection.read_to_string(&mut response).await.unwrap();
        let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
        assert!(
            head.starts_with("HTTP/1.0 200") || head.starts_with("HTTP/1.1 200"),
            "{head}"
        );
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: text/plain; version=0.0.4"),
            "{head}"
        );
        body.to_string()
    }

    /// Scrapes until `ready` holds for the text (a call's end is counted
    /// just after its client sees it), or five seconds have passed: the
    /// last text either way, for the caller's assertions.
    pub async fn scrape_until(&self, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let text = self.scrape().await;
            if ready(&text) || Instant::now() > deadline {
                return text;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Sends the shutdown signal and waits for `serve` to return.
    pub async fn shut_down(mut self) -> Result<(), server::ServerError> {
        let _ = self.stop.take().unwrap().send(());
        self.task.take().unwrap().await.unwrap()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// A server on a runtime of its own, serving a listener the test holds, so
/// that it can crash (its runtime is dropped, which drops every connection
/// at once, as a killed process would) and start again on the same socket:
/// the port is never freed, so no other test can take it in between, and
/// clients that connect meanwhile wait in the socket's backlog.
pub struct CrashableServer {
    runtime: Option<tokio::runtime::Runtime>,
    pub pool: WorkerPool,
}

impl CrashableServer {
    /// Serves `listener` (a clone of it) with `workers` solver threads.
    pub fn start(listener: &std::net::TcpListener, workers: usize) -> CrashableServer {
        let listener = listener.try_clone().unwrap();
        listener.set_nonblocking(true).unwrap();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let pool = WorkerPool::new(workers, 64);
        let serving = pool.clone();
        runtime.spawn(async move {
            let listener = TcpListener::from_std(listener).unwrap();
            let never = std::future::pending::<()>();
            server::serve(listener, &Settings::default(), serving, never).await
        });
        CrashableServer {
            runtime: Some(runtime),
            pool,
        }
    }

    /// Drops the server and every connection it has, at once.
    pub fn crash(mut self) {
        self.runtime.take().unwrap().shutdown_background();
    }
}

impl Drop for CrashableServer {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Occupies one worker of `pool` until the returned sender is dropped.
pub fn occupy_worker(pool: &WorkerPool) -> (sync_channel::Sender<()>, JobHandle<()>) {
    let (release, gate) = sync_channel::channel::<()>();
    let (started_tx, started) = sync_channel::channel();
    let handle = pool
        .try_submit(move |_| {
            started_tx.send(()).unwrap();
            let _ = gate.recv();
        })
        .expect("room for the blocking job");
    started.recv().unwrap();
    (release, handle)
}

/// The value of the sample named exactly `name` (labels included) in a
/// metrics text, or 0 when the series does not exist yet.
pub fn sample(metrics: &str, name: &str) -> f64 {
    metrics
        .lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

/// Default settings with a metrics endpoint on an ephemeral loopback port.
pub fn with_metrics() -> Settings {
    Settings {
        metrics_listen: Some(SocketAddr::from(([127, 0, 0, 1], 0))),
        ..Settings::default()
    }
}

/// Polls `condition` until it holds, failing after ten seconds.
pub async fn eventually(what: &str, condition: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Puzzles with exactly one solution, from the shipped test data.
pub fn unique_puzzles() -> Vec<String> {
    read_puzzles("unique.txt")
}

/// One puzzle per line from `tests/data/NAME`, skipping comments and
/// blank lines by the library's own rule.
pub fn read_puzzles(name: &str) -> Vec<String> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::File::open(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    sudoku_grpc::file::read_puzzle_lines(std::io::BufReader::new(file))
        .unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// Every message left on a response stream, and the status it ended with
/// if it failed.
pub async fn drain<T>(responses: &mut tonic::Streaming<T>) -> (Vec<T>, Option<Status>) {
    let mut answers = Vec::new();
    loop {
        match responses.message().await {
            Ok(Some(answer)) => answers.push(answer),
            Ok(None) => return (answers, None),
            Err(status) => return (answers, Some(status)),
        }
    }
}
