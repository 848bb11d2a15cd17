//! One stream task: takes chunks from the shared work queue and gets them
//! answered over SolveStream calls, reopening a call that breaks on the
//! next server in turn.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, mpsc};
use tonic::Streaming;
use tonic::transport::Channel;

use super::super::LineFormat;
use super::chunks::{ChunkJob, InFlight};
use crate::grouped_channel::{self, GroupSender};
use crate::pb::sudoku_service_client::SudokuServiceClient;
use crate::pb::{SolveStreamRequest, SolveStreamResponse};

/// Puzzles one stream may have sent and not yet seen answered (a chunk is
/// taken while below this, so it is exceeded by up to one chunk). The
/// server reads only its `--stream-window` of them at a time; the rest wait
/// in HTTP/2 flow-control buffers, which keeps the pipe full. Kept small so
/// that the first streams to open do not take all of a short file.
const UNANSWERED_PER_STREAM: usize = 1024;

/// Requests handed to the transport in one group, and groups queued (see
/// [`crate::grouped_channel`]).
const REQUEST_GROUP: usize = 64;
const REQUEST_GROUPS: usize = 8;

/// The first wait after a failed call; it doubles per failure up to
/// [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(3);

/// How long opening a call may take before it counts as a failure (a server
/// that accepts connections but does not answer).
const OPEN_TIMEOUT: Duration = Duration::from_secs(10);

/// A SolveStream client of one server.
pub(super) type Client = SudokuServiceClient<Channel>;

/// Why a stream task stopped before its work was done.
pub(super) enum StreamFailure {
    /// `attempts` calls in a row failed without an answer in between.
    GaveUp { attempts: u32, last: String },
    /// A server broke the protocol; what it sent.
    Protocol(String),
}

/// Why one call ended before its work was done.
enum CallEnd {
    /// The call broke (`progressed`: after at least one answer).
    Broke { progressed: bool, reason: String },
    /// The server broke the protocol.
    Protocol(String),
}

/// A stream task's state, which outlives each of its calls.
pub(super) struct StreamTask {
    servers: Arc<[Client]>,
    work: Arc<Mutex<mpsc::Receiver<ChunkJob>>>,
    format: Arc<dyn LineFormat>,
    /// Chunks taken and not yet handed to the writer, in input order.
    in_flight: VecDeque<InFlight>,
    /// False once the work queue has been drained.
    queue_open: bool,
}

/// One call's state: requests not yet handed to the transport, and how
/// many sent requests still await an answer.
struct Call {
    unsent: VecDeque<SolveStreamRequest>,
    unanswered: usize,
    progressed: bool,
}

impl StreamTask {
    pub fn new(
        servers: Arc<[Client]>,
        work: Arc<Mutex<mpsc::Receiver<ChunkJob>>>,
        format: Arc<dyn LineFormat>,
    ) -> StreamTask {
        StreamTask {
            servers,
            work,
            format,
            in_flight: VecDeque::new(),
            queue_open: true,
        }
    }

    /// Runs until the queue is drained and every chunk taken is answered.
    /// Stream `stream` starts on server `stream` (modulo their number) and
    /// moves to the next after each failed call; it gives up after
    /// `retries` failed calls in a row.
    pub async fn run(mut self, stream: usize, retries: u32) -> Result<(), StreamFailure> {
        let mut failures = 0;
        let mut server = stream % self.servers.len();
        loop {
            let client = self.servers[server].clone();
            let (progressed, reason) = match self.call(client).await {
                Ok(()) => return Ok(()),
                Err(CallEnd::Protocol(what)) => return Err(StreamFailure::Protocol(what)),
                Err(CallEnd::Broke { progressed, reason }) => (progressed, reason),
            };
            failures = if progressed { 1 } else { failures + 1 };
            if failures > retries {
                return Err(StreamFailure::GaveUp {
                    attempts: failures,
                    last: reason,
                });
            }
            server = (server + 1) % self.servers.len();
            let backoff = FIRST_BACKOFF
                .saturating_mul(1 << (failures - 1).min(16))
                .min(MAX_BACKOFF);
            tracing::debug!(?backoff, reason, "stream failed; retrying");
            tokio::time::sleep(backoff).await;
        }
    }

    /// One SolveStream call: first sends again what the chunks in flight
    /// still lack, then takes new chunks while there is room, until
    /// everything taken is answered and the queue is drained.
    async fn call(&mut self, mut client: Client) -> Result<(), CallEnd> {
        self.finish_complete();
        if self.in_flight.is_empty() && !self.queue_open {
            return Ok(());
        }
        let unsent: VecDeque<_> = self
            .in_flight
            .iter()
            .flat_map(InFlight::unanswered_requests)
            .collect();
        let (sender, requests) = grouped_channel::channel(REQUEST_GROUPS);
        let mut call = Call {
            unanswered: unsent.len(),
            unsent,
            progressed: false,
        };
        // `None` once everything is sent, which ends the request side.
        let mut sender = Some(sender);
        let mut responses = open(&mut client, requests).await?;
        loop {
            if !self.queue_open && call.unsent.is_empty() {
                // Everything is sent: closing the request side lets the
                // server end the call once it has answered.
                sender = None;
            }
            let room = self.queue_open
                && call.unsent.is_empty()
                && call.unanswered < UNANSWERED_PER_STREAM;
            tokio::select! {
                biased;
                message = responses.message() => {
                    if self.take_response(&mut call, message)? {
                        return Ok(());
                    }
                }
                permit = reserve(&sender), if !call.unsent.is_empty() => match permit {
                    Some(permit) => {
                        let group = call.unsent.len().min(REQUEST_GROUP);
                        permit.send((call.unsent.drain(..group).collect(), ()));
                    }
                    None => return Err(call.broke("the request stream closed")),
                },
                job = next_job(&self.work), if room => match job {
                    Some(job) => self.take_chunk(&mut call, job),
                    None => self.queue_open = false,
                },
            }
        }
    }

    /// Files what the response side gave; true when the call is done.
    fn take_response(
        &mut self,
        call: &mut Call,
        message: Result<Option<SolveStreamResponse>, tonic::Status>,
    ) -> Result<bool, CallEnd> {
        match message {
            Ok(Some(response)) => {
                let chunk = self
                    .in_flight
                    .iter_mut()
                    .find(|chunk| !chunk.is_complete())
                    .ok_or_else(|| {
                        CallEnd::Protocol(format!(
                            "an answer with id {} that was not asked for",
                            crate::client::check::quoted(&response.id)
                        ))
                    })?;
                chunk.accept(&response).map_err(CallEnd::Protocol)?;
                call.progressed = true;
                call.unanswered -= 1;
                self.finish_complete();
                Ok(false)
            }
            Ok(None) if self.in_flight.is_empty() && !self.queue_open => Ok(true),
            Ok(None) => Err(call.broke("the server ended the stream early")),
            Err(status) => Err(call.broke(&describe(&status))),
        }
    }

    /// Takes a chunk from the queue and lines up its requests.
    fn take_chunk(&mut self, call: &mut Call, job: ChunkJob) {
        let chunk = InFlight::new(job);
        let before = call.unsent.len();
        call.unsent.extend(chunk.unanswered_requests());
        call.unanswered += call.unsent.len() - before;
        self.in_flight.push_back(chunk);
        self.finish_complete();
    }

    /// Hands every complete chunk at the front to the writer.
    fn finish_complete(&mut self) {
        while self.in_flight.front().is_some_and(InFlight::is_complete) {
            let chunk = self.in_flight.pop_front().expect("checked");
            chunk.finish(&self.format);
        }
    }
}

impl Call {
    fn broke(&self, reason: &str) -> CallEnd {
        CallEnd::Broke {
            progressed: self.progressed,
            reason: reason.to_string(),
        }
    }
}

/// Opens the call, giving up after [`OPEN_TIMEOUT`].
async fn open(
    client: &mut Client,
    requests: grouped_channel::GroupStream<SolveStreamRequest>,
) -> Result<Streaming<SolveStreamResponse>, CallEnd> {
    let broke = |reason: String| CallEnd::Broke {
        progressed: false,
        reason,
    };
    match tokio::time::timeout(OPEN_TIMEOUT, client.solve_stream(requests)).await {
        Ok(Ok(response)) => Ok(response.into_inner()),
        Ok(Err(status)) => Err(broke(describe(&status))),
        Err(_) => Err(broke("no server answered in time".to_string())),
    }
}

/// The next chunk of the shared queue; `None` once it is drained.
async fn next_job(work: &Mutex<mpsc::Receiver<ChunkJob>>) -> Option<ChunkJob> {
    work.lock().await.recv().await
}

/// Reserves room in the request channel, if it is still open.
async fn reserve(
    sender: &Option<GroupSender<SolveStreamRequest>>,
) -> Option<mpsc::Permit<'_, (Vec<SolveStreamRequest>, ())>> {
    match sender {
        Some(sender) => sender.reserve().await.ok(),
        None => std::future::pending().await,
    }
}

/// A status in a few words, for logs and the final error.
fn describe(status: &tonic::Status) -> String {
    format!(
        "{:?}: {}",
        status.code(),
        crate::client::check::shown(status.message())
    )
}
