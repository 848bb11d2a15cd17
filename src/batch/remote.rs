//! Streaming a puzzle file through sudoku-grpc servers: `sudoku solve FILE
//! --server URL`.
//!
//! ```text
//!  reader thread ──chunks──▶ work queue ──▶ stream task 1 ──SolveStream──▶ server(s)
//!        │                             └──▶ stream task N ──SolveStream──▶
//!        └──answers-to-come, in input order──▶ writer (this task) ──▶ stdout
//! ```
//!
//! The reader cuts the input into chunks of whole lines. Each chunk goes to
//! the work queue, which the stream tasks share, and a one-shot receiver for
//! its answers goes to the writer's queue in input order; both queues are
//! bounded, so only a few chunks are ever held in memory however long the
//! input is. Each stream task keeps one SolveStream call open (stream `n` on
//! server `n`, round-robin), sends the puzzles of the
//! chunks it took with their line numbers as ids, and hands a chunk's
//! answers to the writer once all of them are in. The writer prints chunks
//! in input order.
//!
//! When a call breaks (a server restarted, a connection dropped), its task
//! waits with exponential backoff, opens a new call on the next server, and
//! sends again exactly
//! the puzzles of its chunks that have no answer yet; answers already
//! received are kept, so nothing is lost and nothing is answered twice.
//! After `retries` failed attempts in a row without any answer in between,
//! the run gives up and says how many puzzles were answered.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::sync::{Mutex, mpsc, oneshot};
use tokio::task::JoinSet;
use tonic::transport::Channel;

use super::read::{Chunk, ChunkReader, PuzzleLine, too_long_message};
use super::write::{AnswerWriter, ChunkAnswers};
use crate::batched::{self, BatchSender};
use crate::client::{ClientError, ConnectOptions, endpoint};
use crate::pb::sudoku_service_client::SudokuServiceClient;
use crate::pb::{SolveStreamRequest, SolveStreamResponse};
use crate::report::{Answer, Format, Tally, Verdict};

/// Chunks read ahead of the writer, per stream.
const CHUNKS_AHEAD_PER_STREAM: usize = 4;

/// Puzzles one stream may have sent and not yet seen answered (a chunk is
/// taken while below this, so it is exceeded by up to one chunk). The
/// server reads only its `--stream-window` of them at a time; the rest wait
/// in HTTP/2 flow-control buffers, which keeps the pipe full. Kept small so
/// that the first streams to open do not take all of a short file.
const UNANSWERED_PER_STREAM: usize = 1024;

/// Requests handed to the transport in one batch, and batches queued (see
/// [`crate::batched`]).
const REQUEST_BATCH: usize = 64;
const REQUEST_BATCHES: usize = 8;

/// The first wait after a failed call; it doubles per failure up to
/// [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(3);

/// How long opening a call may take before it counts as a failure (a server
/// that accepts connections but does not answer).
const OPEN_TIMEOUT: Duration = Duration::from_secs(10);

/// How to stream a file.
#[derive(Debug, Clone)]
pub struct RemoteOptions {
    /// Server addresses (URLs or `host:port`); streams are spread over them.
    pub servers: Vec<String>,
    /// SolveStream calls kept open at once.
    pub streams: usize,
    /// Output format.
    pub format: Format,
    /// Failed attempts in a row, per stream, before giving up.
    pub retries: u32,
    /// What to show on stderr while running.
    pub progress: Progress,
    /// TLS and compression.
    pub connect: ConnectOptions,
}

/// The progress display on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Nothing (stderr is not a terminal, or `--quiet`).
    Hidden,
    /// A bar with an ETA, for an input of this many bytes.
    Bar {
        /// The input's size in bytes.
        total_bytes: u64,
    },
    /// A count and a rate, for an input of unknown size (stdin).
    Counter,
}

/// What a streamed run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteRun {
    /// Puzzles per verdict.
    pub tally: Tally,
    /// Wall time from start to the last answer written.
    pub elapsed: Duration,
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
        "gave up after {attempts} failed attempts in a row (last: {last}); \
         {answered} puzzles were answered, in input order"
    )]
    GaveUp {
        /// Attempts made without an answer in between.
        attempts: u32,
        /// What went wrong the last time.
        last: String,
        /// Puzzles answered and written before giving up.
        answered: u64,
    },
}

/// A chunk on its way to a server. Its puzzles' line numbers are their
/// request ids; overlong lines are answered here, never sent.
struct ChunkJob {
    chunk: Chunk,
    done: oneshot::Sender<ChunkAnswers>,
}

/// Why one attempt (one SolveStream call) ended before its work was done.
struct AttemptFailure {
    /// At least one answer arrived during the attempt.
    progressed: bool,
    /// What went wrong.
    reason: String,
}

/// Streams every puzzle of `input` through the servers, writes one line
/// per puzzle to `output` in input order, and names the first invalid lines
/// on `errors`.
pub async fn solve_remote(
    input: impl BufRead + Send + 'static,
    output: impl Write,
    errors: impl Write,
    options: RemoteOptions,
) -> Result<RemoteRun, RemoteError> {
    let started = Instant::now();
    let channels = server_clients(&options.servers, &options.connect)?;
    let streams = options.streams.max(1);
    let ahead = streams * CHUNKS_AHEAD_PER_STREAM;
    let (work_sender, work_receiver) = mpsc::channel::<ChunkJob>(ahead);
    let (order_sender, mut order_receiver) =
        mpsc::channel::<oneshot::Receiver<ChunkAnswers>>(ahead);
    let reader = std::thread::spawn(move || read_chunks(input, work_sender, order_sender));

    let work = Arc::new(Mutex::new(work_receiver));
    let mut tasks = JoinSet::new();
    for stream in 0..streams {
        tasks.spawn(run_stream(
            channels.clone(),
            stream,
            work.clone(),
            options.retries,
            options.format,
        ));
    }
    drop(work);

    let progress = progress_bar(options.progress);
    progress.set_message("0 puzzles");
    let errors = AboveProgress {
        bar: progress.clone(),
        inner: errors,
    };
    let mut writer = AnswerWriter::new(output, errors);
    let mut stopped_early = false;
    while let Some(answers) = order_receiver.recv().await {
        let Ok(answers) = answers.await else {
            // The stream task holding this chunk gave up.
            stopped_early = true;
            break;
        };
        let input_bytes = answers.input_bytes;
        writer.write(answers)?;
        progress.inc(input_bytes);
        let answered = writer.tally().total();
        let seconds = started.elapsed().as_secs_f64().max(1e-3);
        progress.set_message(format!(
            "{answered} puzzles, {:.0}/s",
            answered as f64 / seconds
        ));
    }
    progress.finish_and_clear();

    if stopped_early {
        writer.flush()?;
        drop(order_receiver);
        let mut failure = None;
        while let Some(result) = tasks.join_next().await {
            if let Ok(Err(error)) = result {
                failure.get_or_insert(error);
                tasks.abort_all();
            }
        }
        let (attempts, last) = failure.unwrap_or((0, "a stream task ended".to_string()));
        return Err(RemoteError::GaveUp {
            attempts,
            last,
            answered: writer.tally().total(),
        });
    }
    reader.join().expect("the reader thread does not panic")?;
    let tally = writer.finish()?;
    Ok(RemoteRun {
        tally,
        elapsed: started.elapsed(),
    })
}

/// One client on a lazily connecting channel per server: a refused connection fails a
/// call at once, so the stream moves on to the next server.
///
/// Streams are spread over the servers round-robin rather than through a
/// balancing channel: a stream is long-lived, and a balancer picks among the
/// servers already connected when the streams open, which at start-up is
/// often just one of them.
fn server_clients(
    servers: &[String],
    connect: &ConnectOptions,
) -> Result<Arc<[SudokuServiceClient<Channel>]>, ClientError> {
    servers
        .iter()
        .map(|server| {
            endpoint(server, connect).map(|endpoint| {
                let channel = endpoint
                    .http2_keep_alive_interval(Duration::from_secs(10))
                    .keep_alive_timeout(Duration::from_secs(20))
                    .connect_lazy();
                connect
                    .sudoku_client(channel)
                    .max_decoding_message_size(usize::MAX)
                    .max_encoding_message_size(usize::MAX)
            })
        })
        .collect()
}

/// The reader thread: cuts the input into chunks and queues each twice, for
/// the stream tasks and, as a receiver of its answers, for the writer.
/// Stops early, without error, when the run is being torn down.
fn read_chunks(
    input: impl BufRead,
    work: mpsc::Sender<ChunkJob>,
    order: mpsc::Sender<oneshot::Receiver<ChunkAnswers>>,
) -> io::Result<()> {
    let mut reader = ChunkReader::new(input);
    while let Some(chunk) = reader.next_chunk()? {
        let (done, answers) = oneshot::channel();
        let job = ChunkJob { chunk, done };
        if order.blocking_send(answers).is_err() || work.blocking_send(job).is_err() {
            break;
        }
    }
    Ok(())
}

/// A chunk taken by a stream task, with the answers received so far.
struct InFlight {
    job: ChunkJob,
    answers: Vec<Answer>,
}

impl InFlight {
    fn new(job: ChunkJob) -> InFlight {
        let mut chunk = InFlight {
            answers: Vec::with_capacity(job.chunk.len()),
            job,
        };
        chunk.answer_local_lines();
        chunk
    }

    fn is_complete(&self) -> bool {
        self.answers.len() == self.job.chunk.len()
    }

    /// Answers the overlong lines due next, which never go to a server.
    fn answer_local_lines(&mut self) {
        while let Some((_, PuzzleLine::TooLong)) = self.job.chunk.get(self.answers.len()) {
            self.answers.push(Answer::invalid(&too_long_message()));
        }
    }

    /// The line number of the next puzzle a server must answer.
    fn next_remote_line(&self) -> Option<u64> {
        self.job.chunk.get(self.answers.len()).map(|(line, _)| line)
    }

    /// Requests for the puzzles that still lack an answer.
    fn unanswered_requests(&self) -> impl Iterator<Item = SolveStreamRequest> + '_ {
        (self.answers.len()..self.job.chunk.len()).filter_map(|index| {
            match self.job.chunk.get(index).expect("in range") {
                (line, PuzzleLine::Text(bytes)) => Some(SolveStreamRequest {
                    id: itoa::Buffer::new().format(line).to_string(),
                    puzzle: String::from_utf8_lossy(bytes).into_owned(),
                }),
                (_, PuzzleLine::TooLong) => None,
            }
        })
    }

    /// Formats the answers and hands them to the writer.
    fn finish(self, format: Format) {
        let mut answers = ChunkAnswers {
            output: Vec::with_capacity(self.answers.len() * 96),
            input_bytes: self.job.chunk.input_bytes() as u64,
            ..ChunkAnswers::default()
        };
        for ((line, _), answer) in self.job.chunk.puzzles().zip(&self.answers) {
            answers.tally.add(answer.verdict);
            answer.write(&mut answers.output, format, line);
            if let (Verdict::Invalid | Verdict::Failed, Some(error)) =
                (answer.verdict, &answer.error)
            {
                answers.invalid.push((line, error.clone()));
            }
        }
        // The writer is gone only when the run is being torn down.
        let _ = self.job.done.send(answers);
    }
}

/// One stream task: takes chunks from the shared queue and gets them
/// answered over SolveStream calls, reopening a call that breaks, on the
/// next server in turn. Stream `n` starts on server `n` (modulo their
/// number). Ends when the queue is drained and every chunk it took is
/// answered, or with `(attempts, last failure)` after `retries` failed
/// attempts in a row.
async fn run_stream(
    channels: Arc<[SudokuServiceClient<Channel>]>,
    stream: usize,
    work: Arc<Mutex<mpsc::Receiver<ChunkJob>>>,
    retries: u32,
    format: Format,
) -> Result<(), (u32, String)> {
    let mut in_flight = VecDeque::new();
    let mut queue_open = true;
    let mut failures = 0;
    let mut server = stream % channels.len();
    loop {
        let channel = &channels[server];
        match attempt(channel, &work, &mut in_flight, &mut queue_open, format).await {
            Ok(()) => return Ok(()),
            Err(failure) => {
                if failure.progressed {
                    failures = 0;
                }
                failures += 1;
                if failures > retries {
                    return Err((failures, failure.reason));
                }
                server = (server + 1) % channels.len();
                let backoff = FIRST_BACKOFF
                    .saturating_mul(1 << (failures - 1).min(16))
                    .min(MAX_BACKOFF);
                tracing::debug!(?backoff, reason = failure.reason, "stream failed; retrying");
                tokio::time::sleep(backoff).await;
            }
        }
    }
}

/// One SolveStream call: first sends again what the chunks in flight still
/// lack, then takes new chunks while there is room, until everything taken
/// is answered and the queue is drained.
async fn attempt(
    channel: &SudokuServiceClient<Channel>,
    work: &Mutex<mpsc::Receiver<ChunkJob>>,
    in_flight: &mut VecDeque<InFlight>,
    queue_open: &mut bool,
    format: Format,
) -> Result<(), AttemptFailure> {
    finish_complete(in_flight, format);
    if in_flight.is_empty() && !*queue_open {
        return Ok(());
    }
    let failure = |progressed: bool, reason: String| AttemptFailure { progressed, reason };

    let mut unsent: VecDeque<SolveStreamRequest> = in_flight
        .iter()
        .flat_map(InFlight::unanswered_requests)
        .collect();
    let mut unanswered = unsent.len();
    let (request_sender, requests) = batched::channel(REQUEST_BATCHES);
    let mut request_sender = Some(request_sender);
    let mut client = channel.clone();
    let call = client.solve_stream(requests);
    let mut responses = match tokio::time::timeout(OPEN_TIMEOUT, call).await {
        Ok(Ok(response)) => response.into_inner(),
        Ok(Err(status)) => return Err(failure(false, describe(&status))),
        Err(_) => return Err(failure(false, "no server answered in time".to_string())),
    };
    let mut progressed = false;
    loop {
        if !*queue_open && unsent.is_empty() {
            // Everything is sent: closing the request side lets the server
            // end the call once it has answered.
            request_sender = None;
        }
        let room = *queue_open && unsent.is_empty() && unanswered < UNANSWERED_PER_STREAM;
        tokio::select! {
            biased;
            message = responses.message() => match message {
                Ok(Some(response)) => {
                    accept(in_flight, response).map_err(|reason| failure(progressed, reason))?;
                    progressed = true;
                    unanswered -= 1;
                    finish_complete(in_flight, format);
                }
                Ok(None) if in_flight.is_empty() && !*queue_open => return Ok(()),
                Ok(None) => {
                    return Err(failure(progressed, "the server ended the stream early".into()));
                }
                Err(status) => return Err(failure(progressed, describe(&status))),
            },
            permit = reserve(&request_sender), if !unsent.is_empty() => match permit {
                Some(permit) => {
                    let batch = unsent.len().min(REQUEST_BATCH);
                    permit.send(unsent.drain(..batch).collect());
                }
                None => return Err(failure(progressed, "the request stream closed".into())),
            },
            job = async { work.lock().await.recv().await }, if room => match job {
                Some(job) => {
                    let chunk = InFlight::new(job);
                    let before = unsent.len();
                    unsent.extend(chunk.unanswered_requests());
                    unanswered += unsent.len() - before;
                    in_flight.push_back(chunk);
                    finish_complete(in_flight, format);
                }
                None => *queue_open = false,
            },
        }
    }
}

/// Reserves room in the request channel, if it is still open.
async fn reserve(
    sender: &Option<BatchSender<SolveStreamRequest>>,
) -> Option<mpsc::Permit<'_, Vec<SolveStreamRequest>>> {
    match sender {
        Some(sender) => sender.reserve().await.ok(),
        None => std::future::pending().await,
    }
}

/// Files a response as the answer to the oldest unanswered puzzle, which it
/// must name.
fn accept(in_flight: &mut VecDeque<InFlight>, response: SolveStreamResponse) -> Result<(), String> {
    let chunk = in_flight
        .iter_mut()
        .find(|chunk| !chunk.is_complete())
        .ok_or_else(|| format!("an answer with id {:?} that was not asked for", response.id))?;
    let expected = chunk.next_remote_line().expect("the chunk is not complete");
    if response.id != itoa::Buffer::new().format(expected) {
        return Err(format!(
            "an answer with id {:?} where {expected} was due",
            response.id
        ));
    }
    chunk.answers.push(Answer::from(response));
    chunk.answer_local_lines();
    Ok(())
}

/// Hands every complete chunk at the front to the writer.
fn finish_complete(in_flight: &mut VecDeque<InFlight>, format: Format) {
    while in_flight.front().is_some_and(InFlight::is_complete) {
        in_flight.pop_front().expect("checked").finish(format);
    }
}

/// A status in a few words, for logs and the final error.
fn describe(status: &tonic::Status) -> String {
    format!("{:?}: {}", status.code(), status.message())
}

/// The error output, written with the progress bar out of the way.
struct AboveProgress<E> {
    bar: ProgressBar,
    inner: E,
}

impl<E: Write> Write for AboveProgress<E> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let inner = &mut self.inner;
        self.bar.suspend(|| inner.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The progress display for a run.
fn progress_bar(progress: Progress) -> ProgressBar {
    let bar = match progress {
        Progress::Hidden => return ProgressBar::hidden(),
        Progress::Bar { total_bytes } => {
            let bar = ProgressBar::with_draw_target(
                Some(total_bytes),
                ProgressDrawTarget::stderr_with_hz(4),
            );
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {percent:>3}% {msg}, ETA {eta}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar
        }
        Progress::Counter => {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("a valid template"),
            );
            bar
        }
    };
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
