//! Streaming a puzzle file through sudoku-grpc servers: what `sudoku solve
//! FILE --server URL` runs, and what any Rust program can call.
//!
//! ```text
//!  reader thread ──chunks──▶ work queue ──▶ stream task 1 ──SolveBatchStream──▶ server(s)
//!        │                             └──▶ stream task N ──SolveBatchStream──▶
//!        └──answers-to-come, in input order──▶ writer (this task) ──▶ output
//! ```
//!
//! The reader cuts the input into chunks of whole lines. Each chunk goes to
//! the work queue, which the stream tasks share, and a one-shot receiver for
//! its answers goes to the writer's queue in input order; both queues are
//! bounded, so only a few chunks are ever held in memory however long the
//! input is. Each stream task ([`stream`]) keeps one SolveStream call open
//! (stream `n` on server `n`, round-robin), sends the puzzles of the chunks
//! it took with their line numbers as ids, checks every answer (see
//! [`crate::client::check`]), and hands a chunk's answers to the writer once
//! all of them are in. The writer prints chunks in input order.
//!
//! The servers are a [`ServerPool`]: fixed addresses, and the addresses of
//! `dns:///NAME:PORT` targets, resolved again after a failed call and every
//! [`RESOLVE_INTERVAL`](crate::client::pool::RESOLVE_INTERVAL). When the
//! addresses change so that a stream's turn points at another server, the
//! stream stops taking chunks, lets its call finish the ones it has, and
//! opens its next call there: servers added behind a name get work without
//! waiting for a call to fail.
//!
//! When a call breaks (a server restarted, a connection dropped), its task
//! waits with exponential backoff, opens a new call on the next server, and
//! sends again exactly the puzzles of its chunks that have no answer yet;
//! answers already received are kept, so nothing is lost and nothing is
//! answered twice. Once `retries` retries have failed in a row without any
//! answer in between, the run gives up and says how many puzzles were
//! answered (a name that resolves to nothing fails each attempt, so it
//! gives up the same way). An answer that breaks the protocol (an unknown
//! outcome, a solution that is not one) ends the run at once: retrying
//! elsewhere could only hide a broken server.

mod chunks;
mod stream;
mod wire;

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Mutex, mpsc, oneshot};
use tokio::task::JoinSet;
use tonic::transport::Endpoint;

use super::read::ChunkReader;
use super::write::{AnswerWriter, ChunkAnswers};
use super::{LineFormat, Progress, Run};
use crate::client::pool::ServerPool;
use crate::client::resolve::{Lookup, SystemLookup};
use crate::client::{ClientError, ConnectOptions, MAX_RESPONSE_BYTES, max_batch_response_bytes};
use crate::wording::counted;
use chunks::ChunkJob;
use stream::{StreamFailure, StreamTask};
use wire::{Batches, Client, SinglePuzzles, Wire};

/// Chunks read ahead of the writer, per stream.
const CHUNKS_AHEAD_PER_STREAM: usize = 4;

/// Which RPC a file is streamed through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemoteRpc {
    /// SolveStream: one puzzle per message.
    Stream,
    /// SolveBatchStream, with at most this many puzzles per batch (and
    /// never more than one chunk of input, about 800 lines).
    Batch(usize),
}

/// The batch size `sudoku solve --server` uses unless told otherwise:
/// larger than a chunk of input, so each chunk is one batch. Throughput is
/// flat from about 256 puzzles a batch up (docs/performance.md).
pub const DEFAULT_BATCH: usize = 1024;

/// The largest `--batch`: what a server with the largest `--max-batch`
/// accepts.
pub const MAX_BATCH: usize = crate::pb::MAX_KEPT - 1;

/// How to stream a file.
#[derive(Debug, Clone)]
pub struct RemoteOptions {
    /// Servers: URLs, `host:port`, or `dns:///NAME:PORT` for every address
    /// of a name (see [`crate::client::target`]); streams are spread over
    /// them.
    pub servers: Vec<String>,
    /// The RPC, and the batch size.
    pub rpc: RemoteRpc,
    /// Calls kept open at once; `None` for two per server, counting each
    /// address a name has when the run starts. Their number stays as the
    /// addresses change.
    pub streams: Option<usize>,
    /// Retries in a row, per stream, of a failed call before giving up
    /// (the run gives up after `retries + 1` failed attempts).
    pub retries: u32,
    /// TLS and compression.
    pub connect: ConnectOptions,
    /// Also grade every puzzle (each answer then carries its grade).
    pub grade: bool,
}

/// Why a streamed run stopped short.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    /// Reading the input or writing the output failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A server address is unusable.
    #[error(transparent)]
    Address(#[from] ClientError),
    /// The servers kept failing.
    #[error(
        "gave up after {} in a row (last: {last}); {} answered, in input order",
        counted(u64::from(*attempts), "failed attempt", "failed attempts"),
        counted(*answered, "puzzle was", "puzzles were")
    )]
    GaveUp {
        /// Attempts made without an answer in between.
        attempts: u32,
        /// What went wrong the last time.
        last: String,
        /// Puzzles answered and written before giving up.
        answered: u64,
    },
    /// A server sent something this client cannot trust.
    #[error(
        "protocol error: {what}; {} answered, in input order, before it",
        counted(*answered, "puzzle was", "puzzles were")
    )]
    Protocol {
        /// What the server sent, and where.
        what: String,
        /// Puzzles answered and written before it.
        answered: u64,
    },
}

/// Streams every puzzle of `input` through the servers and writes one line
/// per puzzle to `output`, formatted by `format`, in input order;
/// `progress` hears of each chunk written. Names are resolved by the
/// system's resolver ([`SystemLookup`]).
pub async fn solve_remote(
    input: impl BufRead + Send + 'static,
    output: impl Write,
    format: Arc<dyn LineFormat>,
    options: RemoteOptions,
    progress: &mut (dyn FnMut(Progress<'_>) + Send),
) -> Result<Run, RemoteError> {
    let servers = server_pool(&options, Arc::new(SystemLookup))?;
    servers.refresh_periodically();
    solve_through(servers, input, output, format, options, progress).await
}

/// [`solve_remote`] through `servers`.
async fn solve_through(
    servers: ServerPool<Client>,
    input: impl BufRead + Send + 'static,
    output: impl Write,
    format: Arc<dyn LineFormat>,
    options: RemoteOptions,
    progress: &mut (dyn FnMut(Progress<'_>) + Send),
) -> Result<Run, RemoteError> {
    let started = Instant::now();
    // Names are resolved now, so that the default counts their addresses;
    // one that does not resolve yet is tried again by the streams.
    servers.ensure_resolved().await;
    let streams = options.streams.unwrap_or(2 * servers.server_count()).max(1);
    let ahead = streams * CHUNKS_AHEAD_PER_STREAM;
    let (work_sender, work_receiver) = mpsc::channel::<ChunkJob>(ahead);
    let (order_sender, order_receiver) = mpsc::channel::<oneshot::Receiver<ChunkAnswers>>(ahead);
    let grade = options.grade;
    let reader = std::thread::spawn(move || read_chunks(input, grade, work_sender, order_sender));

    let work = Arc::new(Mutex::new(work_receiver));
    let mut tasks = JoinSet::new();
    for stream in 0..streams {
        let shared = (servers.clone(), work.clone(), format.clone());
        let retries = options.retries;
        match options.rpc {
            RemoteRpc::Stream => {
                tasks.spawn(stream_task(SinglePuzzles, shared).run(stream, retries));
            }
            RemoteRpc::Batch(size) => {
                let wire = Batches {
                    size: size.clamp(1, MAX_BATCH),
                };
                tasks.spawn(stream_task(wire, shared).run(stream, retries));
            }
        }
    }
    drop(work);

    let mut writer = AnswerWriter::new(output, progress);
    let complete = write_in_order(order_receiver, &mut writer).await?;
    if !complete {
        writer.flush()?;
        return Err(why_streams_stopped(tasks, writer.tally().total()).await);
    }
    reader.join().expect("the reader thread does not panic")?;
    let tally = writer.finish()?;
    Ok(Run {
        tally,
        elapsed: started.elapsed(),
    })
}

/// What every stream task shares: the servers, the work queue and the
/// output format.
type Shared = (
    ServerPool<Client>,
    Arc<Mutex<mpsc::Receiver<ChunkJob>>>,
    Arc<dyn LineFormat>,
);

/// A stream task over `wire`.
fn stream_task<W: Wire>(wire: W, (servers, work, format): Shared) -> StreamTask<W> {
    StreamTask::new(wire, servers, work, format)
}

/// Writes each chunk's answers as they come in, in input order. False when
/// a chunk's answers will never come, because its stream task stopped.
async fn write_in_order(
    mut order: mpsc::Receiver<oneshot::Receiver<ChunkAnswers>>,
    writer: &mut AnswerWriter<'_, impl Write>,
) -> io::Result<bool> {
    while let Some(answers) = order.recv().await {
        let Ok(answers) = answers.await else {
            return Ok(false);
        };
        writer.write(answers)?;
    }
    Ok(true)
}

/// The error a run stops with once a stream task has stopped short: the
/// first task's failure (the others are stopped).
async fn why_streams_stopped(
    mut tasks: JoinSet<Result<(), StreamFailure>>,
    answered: u64,
) -> RemoteError {
    let mut failure = None;
    while let Some(result) = tasks.join_next().await {
        if let Ok(Err(error)) = result {
            failure.get_or_insert(error);
            tasks.abort_all();
        }
    }
    match failure {
        Some(StreamFailure::Protocol(what)) => RemoteError::Protocol { what, answered },
        Some(StreamFailure::GaveUp { attempts, last }) => RemoteError::GaveUp {
            attempts,
            last,
            answered,
        },
        None => RemoteError::GaveUp {
            attempts: 0,
            last: "a stream task ended".to_string(),
            answered,
        },
    }
}

/// The servers of `options`, names resolved by `lookup`, each with a
/// SolveStream client on a lazily connecting channel: a refused connection
/// fails a call at once, so the stream moves on to the next server.
///
/// Streams are spread over the servers round-robin rather than through a
/// balancing channel: a stream is long-lived, and a balancer picks among the
/// servers already connected when the streams open, which at start-up is
/// often just one of them.
fn server_pool(
    options: &RemoteOptions,
    lookup: Arc<dyn Lookup>,
) -> Result<ServerPool<Client>, ClientError> {
    let max_response = match options.rpc {
        RemoteRpc::Stream => MAX_RESPONSE_BYTES,
        RemoteRpc::Batch(size) => max_batch_response_bytes(size, options.grade),
    };
    let connect = options.connect.clone();
    let client = move |endpoint: Endpoint| {
        let channel = endpoint
            .http2_keep_alive_interval(Duration::from_secs(10))
            .keep_alive_timeout(Duration::from_secs(20))
            .connect_lazy();
        connect
            .sudoku_client(channel)
            .max_decoding_message_size(max_response)
    };
    ServerPool::new(&options.servers, options.connect.clone(), lookup, client)
}

/// The reader thread: cuts the input into chunks and queues each twice, for
/// the stream tasks and, as a receiver of its answers, for the writer.
/// Stops early, without error, when the run is being torn down.
fn read_chunks(
    input: impl BufRead,
    grade: bool,
    work: mpsc::Sender<ChunkJob>,
    order: mpsc::Sender<oneshot::Receiver<ChunkAnswers>>,
) -> io::Result<()> {
    let mut reader = ChunkReader::new(input);
    while let Some(chunk) = reader.next_chunk()? {
        let (done, answers) = oneshot::channel();
        let job = ChunkJob { chunk, grade, done };
        if order.blocking_send(answers).is_err() || work.blocking_send(job).is_err() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
