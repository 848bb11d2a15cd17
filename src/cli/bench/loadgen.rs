//! The load generator behind `sudoku bench`.
//!
//! Drives running servers with puzzles and measures:
//!
//! * **unary**: `Solve` calls from a fixed number of concurrent callers;
//!   calls per second and latency percentiles from an HDR histogram;
//! * **stream**: puzzles per second through N concurrent `SolveStream`
//!   calls;
//! * **batch stream**: the same through `SolveBatchStream`, with a batch of
//!   puzzles per message;
//! * **echo**: the same streams, of both kinds, against a bare echo of the
//!   same messages (an in-process tonic server that answers each request
//!   with its id and puzzle, solving nothing), started by the benchmark
//!   itself, so that the transport's ceiling on this machine is measured
//!   in the same run rather than remembered.
//!
//! Streams are driven the way `sudoku solve FILE` drives them: a sender
//! keeps the request side full and the response side is read as fast as it
//! comes, so the server's flow control sets the pace.
//!
//! A `dns:` target is resolved once, at the start, and each of its
//! addresses is a server under test: a benchmark measures a fixed set of
//! servers, so it does not follow the name as `sudoku solve` does.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use hdrhistogram::Histogram;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::{Channel, Endpoint};

use super::BenchError;
use super::echo::start_echo_server;
use crate::client::resolve::{SystemLookup, endpoints};
use crate::client::{ClientError, ConnectOptions, endpoint, max_batch_response_bytes};
use crate::pb::sudoku_service_client::SudokuServiceClient;
use crate::pb::{Outcome, SolveBatchRequest, SolveRequest, SolveStreamRequest};

/// Requests queued per stream between the sender and the transport.
const STREAM_REQUEST_BUFFER: usize = 1024;

/// What to run.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// The servers under test (URLs, `host:port` or `dns:` targets, whose
    /// every address is resolved at the start); calls are balanced over
    /// them.
    pub servers: Vec<String>,
    /// The puzzles, used round-robin.
    pub puzzles: Vec<String>,
    /// Concurrent unary callers.
    pub concurrency: usize,
    /// Unary calls in all (0 skips the unary test).
    pub requests: usize,
    /// Concurrent SolveStream calls.
    pub streams: usize,
    /// Puzzles sent over all the streams (0 skips the stream tests).
    pub stream_puzzles: usize,
    /// Puzzles per message in the batch stream test (0 skips it).
    pub batch: usize,
    /// Whether to measure the echo baseline.
    pub echo: bool,
    /// TLS and compression for the servers under test (the echo baseline
    /// is always plaintext and uncompressed).
    pub connect: ConnectOptions,
}

/// Figures from a unary test.
#[derive(Debug, Clone)]
pub struct UnaryFigures {
    /// Calls that got an answer.
    pub ok: u64,
    /// Calls that failed, by status code.
    pub errors: Vec<(tonic::Code, u64)>,
    /// Completed calls per second.
    pub rate: f64,
    /// Latency of answered calls, in microseconds.
    pub latency: Histogram<u64>,
}

/// Figures from a stream test.
#[derive(Debug, Clone, Copy)]
pub struct StreamFigures {
    /// Puzzles answered.
    pub answered: u64,
    /// Of those, the answers that are failures: OUTCOME_FAILED,
    /// OUTCOME_GAVE_UP, or an outcome this client does not know.
    pub failed: u64,
    /// Answers per second.
    pub rate: f64,
}

/// Everything a run measured.
#[derive(Debug, Clone)]
pub struct BenchReport {
    /// The unary test, if run.
    pub unary: Option<UnaryFigures>,
    /// The stream test against the servers, if run.
    pub stream: Option<StreamFigures>,
    /// The stream test against the bare echo, if run.
    pub echo: Option<StreamFigures>,
    /// The batch stream test against the servers, if run.
    pub batch_stream: Option<StreamFigures>,
    /// The batch stream test against the bare echo, if run.
    pub batch_echo: Option<StreamFigures>,
}

/// Which streaming RPC a stream test drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamKind {
    /// SolveStream, a puzzle per message.
    Single,
    /// SolveBatchStream, this many puzzles per message.
    Batch(usize),
}

/// Runs the tests `options` asks for.
pub async fn run(options: &BenchOptions) -> Result<BenchReport, BenchError> {
    let servers = endpoints(&options.servers, &options.connect, &SystemLookup)
        .await
        .into_iter()
        .map(|(_, endpoint)| endpoint)
        .collect::<Result<Vec<_>, _>>()?;
    let channel = client_to(servers.clone(), &options.connect)?;
    let per_server = servers
        .into_iter()
        .map(|server| client_to(vec![server], &options.connect))
        .collect::<Result<Vec<_>, _>>()?;
    let puzzles = Arc::new(options.puzzles.clone());
    let unary = if options.requests > 0 {
        Some(unary_test(&channel, &puzzles, options.concurrency, options.requests).await)
    } else {
        None
    };
    let figures = stream_tests(options, &per_server, &puzzles).await?;
    let mut figures = figures.into_iter();
    let (stream, echo) = figures.next().map_or((None, None), |(s, e)| (Some(s), e));
    let (batch_stream, batch_echo) = figures.next().map_or((None, None), |(s, e)| (Some(s), e));
    Ok(BenchReport {
        unary,
        stream,
        echo,
        batch_stream,
        batch_echo,
    })
}

/// The stream tests `options` asks for, SolveStream first, then
/// SolveBatchStream: each against the servers, then against the echo.
async fn stream_tests(
    options: &BenchOptions,
    per_server: &[SudokuServiceClient<Channel>],
    puzzles: &Arc<Vec<String>>,
) -> Result<Vec<(StreamFigures, Option<StreamFigures>)>, BenchError> {
    let echo_server = if options.echo && options.stream_puzzles > 0 {
        let (address, server) = start_echo_server().await?;
        let plain = ConnectOptions::default();
        let channel = client_to(vec![endpoint(&address.to_string(), &plain)?], &plain)?;
        Some((channel, server))
    } else {
        None
    };
    let echo_channel = echo_server.as_ref().map(|(channel, _)| channel);
    let mut kinds = vec![StreamKind::Single];
    if options.batch > 0 {
        kinds.push(StreamKind::Batch(options.batch));
    }
    let mut figures = Vec::new();
    for kind in kinds {
        if options.stream_puzzles == 0 {
            break;
        }
        let test = |channels: Vec<SudokuServiceClient<Channel>>| {
            let puzzles = puzzles.clone();
            let channels: Vec<_> = match kind {
                StreamKind::Single => channels,
                StreamKind::Batch(size) => channels
                    .into_iter()
                    .map(|client| {
                        client.max_decoding_message_size(max_batch_response_bytes(size, false))
                    })
                    .collect(),
            };
            async move {
                stream_test(
                    &channels,
                    &puzzles,
                    options.streams,
                    options.stream_puzzles,
                    kind,
                )
                .await
            }
        };
        let served = test(per_server.to_vec()).await?;
        let echoed = match echo_channel {
            Some(channel) => Some(test(vec![channel.clone()]).await?),
            None => None,
        };
        figures.push((served, echoed));
    }
    if let Some((_, server)) = echo_server {
        server.abort();
    }
    Ok(figures)
}

/// A client of the servers at `endpoints`: one lazy channel, or a channel
/// balancing calls over several.
fn client_to(
    endpoints: Vec<Endpoint>,
    connect: &ConnectOptions,
) -> Result<SudokuServiceClient<Channel>, ClientError> {
    let channel = match endpoints.as_slice() {
        [] => return Err(ClientError::NoServers),
        [single] => single.connect_lazy(),
        _ => Channel::balance_list(endpoints.into_iter()),
    };
    Ok(connect.sudoku_client(channel))
}

/// `requests` unary calls from `concurrency` callers.
async fn unary_test(
    channel: &SudokuServiceClient<Channel>,
    puzzles: &Arc<Vec<String>>,
    concurrency: usize,
    requests: usize,
) -> UnaryFigures {
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut callers = JoinSet::new();
    for _ in 0..concurrency.max(1) {
        let caller = unary_caller(channel.clone(), puzzles.clone(), next.clone(), requests);
        callers.spawn(caller);
    }
    let mut latency = new_histogram();
    let mut errors: Vec<(tonic::Code, u64)> = Vec::new();
    while let Some(result) = callers.join_next().await {
        let (histogram, codes) = result.expect("a caller does not panic");
        latency.add(&histogram).expect("same bounds");
        for code in codes {
            match errors.iter_mut().find(|(known, _)| *known == code) {
                Some((_, count)) => *count += 1,
                None => errors.push((code, 1)),
            }
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    UnaryFigures {
        ok: latency.len(),
        errors,
        rate: latency.len() as f64 / elapsed,
        latency,
    }
}

/// One unary caller: takes the next call number until `requests` are
/// taken; returns the latencies of its answered calls and the codes of its
/// failed ones.
async fn unary_caller(
    mut client: SudokuServiceClient<Channel>,
    puzzles: Arc<Vec<String>>,
    next: Arc<AtomicUsize>,
    requests: usize,
) -> (Histogram<u64>, Vec<tonic::Code>) {
    let mut latency = new_histogram();
    let mut errors = Vec::new();
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= requests {
            return (latency, errors);
        }
        let puzzle = puzzles[index % puzzles.len()].clone();
        let call_started = Instant::now();
        match client
            .solve(SolveRequest {
                puzzle,
                grade: false,
            })
            .await
        {
            Ok(_) => {
                let micros = call_started.elapsed().as_micros() as u64;
                latency.saturating_record(micros.max(1));
            }
            Err(status) => errors.push(status.code()),
        }
    }
}

fn new_histogram() -> Histogram<u64> {
    // 1 µs to 60 s, three significant digits.
    Histogram::new_with_bounds(1, 60_000_000, 3).expect("valid bounds")
}

/// `total` puzzles over `streams` concurrent SolveStream calls, spread
/// round-robin over `channels` (one per server: a balancer would put
/// long-lived streams on whichever server connected first).
async fn stream_test(
    channels: &[SudokuServiceClient<Channel>],
    puzzles: &Arc<Vec<String>>,
    streams: usize,
    total: usize,
    kind: StreamKind,
) -> Result<StreamFigures, BenchError> {
    let streams = streams.max(1);
    let started = Instant::now();
    let mut tasks = JoinSet::new();
    for stream in 0..streams {
        // Stream `s` sends puzzles s, s + streams, s + 2 * streams, ...
        let share = (total + streams - 1 - stream) / streams;
        let channel = channels[stream % channels.len()].clone();
        let puzzles = puzzles.clone();
        let share = Share {
            first: stream,
            step: streams,
            count: share,
        };
        tasks.spawn(async move {
            match kind {
                StreamKind::Single => one_stream(channel, puzzles, share).await,
                StreamKind::Batch(size) => one_batch_stream(channel, puzzles, share, size).await,
            }
        });
    }
    let (mut answered, mut failed) = (0, 0);
    while let Some(result) = tasks.join_next().await {
        let (stream_answered, stream_failed) = result.expect("a stream task does not panic")?;
        answered += stream_answered;
        failed += stream_failed;
    }
    let elapsed = started.elapsed().as_secs_f64();
    Ok(StreamFigures {
        answered,
        failed,
        rate: answered as f64 / elapsed,
    })
}

/// The puzzles one stream sends: `count` of them, numbers `first`,
/// `first + step`, ... of the file's puzzles used round-robin.
#[derive(Debug, Clone, Copy)]
struct Share {
    first: usize,
    step: usize,
    count: usize,
}

impl Share {
    /// The puzzle numbers, in order.
    fn indices(self) -> impl Iterator<Item = usize> {
        (0..self.count).map(move |n| self.first + n * self.step)
    }
}

/// Sends its share of puzzles over one SolveStream call and reads every
/// answer: how many came back, and how many of those were failures.
async fn one_stream(
    mut channel: SudokuServiceClient<Channel>,
    puzzles: Arc<Vec<String>>,
    share: Share,
) -> Result<(u64, u64), BenchError> {
    let (sender, receiver) = mpsc::channel(STREAM_REQUEST_BUFFER);
    let feeder = tokio::spawn(async move {
        for index in share.indices() {
            let request = SolveStreamRequest {
                id: index.to_string(),
                puzzle: puzzles[index % puzzles.len()].clone(),
                grade: false,
            };
            if sender.send(request).await.is_err() {
                break;
            }
        }
    });
    let mut responses = channel
        .solve_stream(ReceiverStream::new(receiver))
        .await
        .map_err(BenchError::Stream)?
        .into_inner();
    let (mut answered, mut failed) = (0, 0);
    while let Some(response) = responses.message().await.map_err(BenchError::Stream)? {
        answered += 1;
        failed += u64::from(is_failure(response.outcome));
    }
    feeder.abort();
    Ok((answered, failed))
}

/// Sends its share of puzzles over one SolveBatchStream call, `size` per
/// message, and reads every answer: how many came back, and how many of
/// those were failures (a batch refused whole fails all its puzzles).
async fn one_batch_stream(
    mut channel: SudokuServiceClient<Channel>,
    puzzles: Arc<Vec<String>>,
    share: Share,
    size: usize,
) -> Result<(u64, u64), BenchError> {
    let size = size.max(1);
    let (sender, receiver) = mpsc::channel((STREAM_REQUEST_BUFFER / size).max(4));
    let feeder = tokio::spawn(async move {
        let mut indices = share.indices().peekable();
        while let Some(&first) = indices.peek() {
            let batch = indices
                .by_ref()
                .take(size)
                .map(|index| puzzles[index % puzzles.len()].clone())
                .collect();
            if sender
                .send(SolveBatchRequest::new(first.to_string(), batch))
                .await
                .is_err()
            {
                break;
            }
        }
    });
    let mut responses = channel
        .solve_batch_stream(ReceiverStream::new(receiver))
        .await
        .map_err(BenchError::Stream)?
        .into_inner();
    let (mut answered, mut failed) = (0, 0);
    while let Some(response) = responses.message().await.map_err(BenchError::Stream)? {
        if response.error.is_some() {
            let refused = size.min(share.count) as u64;
            answered += refused;
            failed += refused;
            continue;
        }
        answered += response.result_count() as u64;
        failed += response
            .results
            .iter()
            .map(|result| u64::from(is_failure(result.outcome)))
            .sum::<u64>();
    }
    feeder.abort();
    Ok((answered, failed))
}

/// True for an answer that is not a verdict on the puzzle: the server
/// failed or gave up on it, or sent an outcome this client does not know.
fn is_failure(outcome: i32) -> bool {
    !matches!(
        Outcome::try_from(outcome),
        Ok(Outcome::Solved | Outcome::MultipleSolutions | Outcome::NoSolution | Outcome::Invalid)
    )
}
