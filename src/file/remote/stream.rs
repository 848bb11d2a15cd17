//! One stream task: takes chunks from the shared work queue and gets them
//! answered over SolveStream or SolveBatchStream calls ([`Wire`]),
//! reopening a call that breaks on the next server in turn, and moving to
//! another server when the servers change under a call.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, mpsc};
use tonic::Streaming;

use super::super::LineFormat;
use super::chunks::{ChunkJob, InFlight};
use super::wire::{Client, Wire};
use crate::client::pool::{Server, ServerPool};
use crate::grouped_channel::{self, GroupSender};

/// Puzzles handed to the transport in one group (or one request, if it
/// carries more), and groups queued (see [`crate::grouped_channel`]).
const REQUEST_GROUP: usize = 64;
const REQUEST_GROUPS: usize = 8;

/// The first wait after a failed call; it doubles per failure up to
/// [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(3);

/// How long opening a call may take before it counts as a failure (a server
/// that accepts connections but does not answer).
const OPEN_TIMEOUT: Duration = Duration::from_secs(10);

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
pub(super) struct StreamTask<W> {
    wire: W,
    servers: ServerPool<Client>,
    work: Arc<Mutex<mpsc::Receiver<ChunkJob>>>,
    format: Arc<dyn LineFormat>,
    /// Chunks taken and not yet handed to the writer, in input order.
    in_flight: VecDeque<InFlight>,
    /// False once the work queue has been drained.
    queue_open: bool,
}

/// One call's state: requests not yet handed to the transport (each with
/// its puzzle count), the puzzle counts of the requests sent and not yet
/// answered, in order, and how many puzzles those hold.
struct Call<R> {
    unsent: VecDeque<(R, usize)>,
    awaiting: VecDeque<usize>,
    unanswered: usize,
    progressed: bool,
    /// The servers changed and this stream's turn is now another server's:
    /// the call takes no more chunks, and ends once those it has are
    /// answered.
    moving: bool,
}

impl<W: Wire> StreamTask<W> {
    pub fn new(
        wire: W,
        servers: ServerPool<Client>,
        work: Arc<Mutex<mpsc::Receiver<ChunkJob>>>,
        format: Arc<dyn LineFormat>,
    ) -> StreamTask<W> {
        StreamTask {
            wire,
            servers,
            work,
            format,
            in_flight: VecDeque::new(),
            queue_open: true,
        }
    }

    /// Runs until the queue is drained and every chunk taken is answered.
    /// Stream `stream` calls the server of its own turn, `stream` (server
    /// `stream` modulo their number, see [`ServerPool::server`]), and one
    /// turn further after each failed call, once the names have been
    /// resolved again ([`Turns`]); it gives up when `retries` retries have failed
    /// in a row. A call that ends because the servers changed is not a
    /// failure.
    pub async fn run(mut self, stream: usize, retries: u32) -> Result<(), StreamFailure> {
        let mut failures = 0;
        let mut turns = Turns::new(stream, self.servers.generation());
        loop {
            let turn = turns.current(self.servers.generation());
            let (attempt, failed_on) = match self.servers.server(turn).await {
                Ok(mut server) => (self.call(&mut server, stream).await, Some(server)),
                Err(error) => {
                    let reason = error.to_string();
                    (
                        Err(CallEnd::Broke {
                            progressed: false,
                            reason,
                        }),
                        None,
                    )
                }
            };
            let (progressed, reason) = match attempt {
                Ok(()) if self.is_done() => return Ok(()),
                Ok(()) => {
                    // Moved: this stream's own turn is another server now.
                    failures = 0;
                    continue;
                }
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
            let backoff = FIRST_BACKOFF
                .saturating_mul(1 << (failures - 1).min(16))
                .min(MAX_BACKOFF);
            tracing::debug!(?backoff, reason, "stream failed; retrying");
            self.servers.refresh_after_failure().await;
            let turn = turns.current(self.servers.generation());
            if failed_on.is_none_or(|server| self.servers.picks(turn, &server)) {
                turns.move_on();
            }
            tokio::time::sleep(backoff).await;
        }
    }

    /// True once the queue is drained and every chunk taken is answered.
    fn is_done(&self) -> bool {
        self.in_flight.is_empty() && !self.queue_open
    }

    /// One call, on `server`: first sends again what the chunks in flight
    /// still lack, then takes new chunks while there is room, until
    /// everything taken is answered and either the queue is drained or the
    /// servers changed so that `home`, the stream's own turn, is another
    /// server's (then the stream goes home, even from a detour).
    async fn call(&mut self, server: &mut Server<Client>, home: usize) -> Result<(), CallEnd> {
        self.finish_complete();
        if self.is_done() {
            return Ok(());
        }
        let unsent: VecDeque<_> = self
            .in_flight
            .iter()
            .flat_map(|chunk| self.wire.requests(chunk))
            .collect();
        let (sender, requests) = grouped_channel::channel(REQUEST_GROUPS);
        let mut call = Call {
            unanswered: unsent.iter().map(|(_, puzzles)| puzzles).sum(),
            unsent,
            awaiting: VecDeque::new(),
            progressed: false,
            moving: false,
        };
        // `None` once everything is sent, which ends the request side.
        let mut sender = Some(sender);
        let mut client = server.client.clone();
        // Requests flow while the call opens: a server may hold its response
        // headers back until it has a request to answer (grpcio does).
        let opening = open::<W>(&mut client, requests);
        tokio::pin!(opening);
        let mut responses = None;
        let unanswered_limit = self.wire.unanswered();
        loop {
            if !call.moving && self.queue_open && self.servers.moved(home, server) {
                call.moving = true;
            }
            if (call.moving || !self.queue_open) && call.unsent.is_empty() {
                // Everything is sent: closing the request side lets the
                // server end the call once it has answered.
                sender = None;
            }
            // Until the call opens, one chunk at most: enough for a server
            // that answers its headers with its first answer, and no more
            // held by a server that may never answer while others could.
            let room = !call.moving
                && (responses.is_some() || self.in_flight.is_empty())
                && self.queue_open
                && call.unsent.is_empty()
                && call.unanswered < unanswered_limit;
            tokio::select! {
                biased;
                opened = &mut opening, if responses.is_none() => responses = Some(opened?),
                message = next_message(&mut responses) => {
                    if self.take_response(&mut call, message)? {
                        return Ok(());
                    }
                }
                permit = reserve(&sender), if !call.unsent.is_empty() => match permit {
                    Some(permit) => permit.send((call.next_group(), ())),
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
        call: &mut Call<W::Request>,
        message: Result<Option<W::Response>, tonic::Status>,
    ) -> Result<bool, CallEnd> {
        match message {
            Ok(Some(response)) => {
                let not_asked = || {
                    CallEnd::Protocol(format!(
                        "an answer with id {} that was not asked for",
                        crate::client::check::quoted(W::id(&response))
                    ))
                };
                let puzzles = call.awaiting.pop_front().ok_or_else(not_asked)?;
                let chunk = self
                    .in_flight
                    .iter_mut()
                    .find(|chunk| !chunk.is_complete())
                    .ok_or_else(not_asked)?;
                W::accept(chunk, &response, puzzles).map_err(CallEnd::Protocol)?;
                call.progressed = true;
                call.unanswered -= puzzles;
                self.finish_complete();
                Ok(false)
            }
            Ok(None) if self.in_flight.is_empty() && (call.moving || !self.queue_open) => Ok(true),
            Ok(None) => Err(call.broke("the server ended the stream early")),
            Err(status) => Err(call.broke(&crate::client::check::shown_status_with_cause(&status))),
        }
    }

    /// Takes a chunk from the queue and lines up its requests.
    fn take_chunk(&mut self, call: &mut Call<W::Request>, job: ChunkJob) {
        let chunk = InFlight::new(job);
        for (request, puzzles) in self.wire.requests(&chunk) {
            call.unanswered += puzzles;
            call.unsent.push_back((request, puzzles));
        }
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

/// The turn a stream calls ([`ServerPool::server`]): its own, `home`,
/// plus a detour of one turn for each failed call whose server its turn
/// still picks, counted since the list of servers last changed. Every
/// change of the list brings the stream home, so that after failures have
/// sent several streams to one server, the next change (the failed server
/// gone, a new one added) spreads them again.
struct Turns {
    home: usize,
    detour: usize,
    /// The pool's generation the detour was counted in.
    generation: u64,
}

impl Turns {
    fn new(home: usize, generation: u64) -> Turns {
        Turns {
            home,
            detour: 0,
            generation,
        }
    }

    /// The turn to call, the pool being at `generation`: home if the list
    /// changed since the detour was counted.
    fn current(&mut self, generation: u64) -> usize {
        if generation != self.generation {
            self.detour = 0;
            self.generation = generation;
        }
        self.home.wrapping_add(self.detour)
    }

    /// One turn on, past a server that failed.
    fn move_on(&mut self) {
        self.detour = self.detour.wrapping_add(1);
    }
}

impl<R> Call<R> {
    /// The next requests to hand to the transport: at least one, and more
    /// while they hold under [`REQUEST_GROUP`] puzzles together; each is
    /// then awaited.
    fn next_group(&mut self) -> Vec<R> {
        let mut group = Vec::new();
        let mut puzzles = 0;
        while let Some((_, next)) = self.unsent.front() {
            if !group.is_empty() && puzzles + next > REQUEST_GROUP {
                break;
            }
            let (request, count) = self.unsent.pop_front().expect("just seen");
            puzzles += count;
            self.awaiting.push_back(count);
            group.push(request);
        }
        group
    }

    fn broke(&self, reason: &str) -> CallEnd {
        CallEnd::Broke {
            progressed: self.progressed,
            reason: reason.to_string(),
        }
    }
}

/// Opens the call, giving up after [`OPEN_TIMEOUT`].
async fn open<W: Wire>(
    client: &mut Client,
    requests: grouped_channel::GroupStream<W::Request>,
) -> Result<Streaming<W::Response>, CallEnd> {
    let broke = |reason: String| CallEnd::Broke {
        progressed: false,
        reason,
    };
    match tokio::time::timeout(OPEN_TIMEOUT, W::open(client, requests)).await {
        Ok(Ok(responses)) => Ok(responses),
        Ok(Err(status)) => Err(broke(crate::client::check::shown_status_with_cause(
            &status,
        ))),
        Err(_) => Err(broke("no server answered in time".to_string())),
    }
}

/// The next message of the response side, once the call is open.
async fn next_message<R>(responses: &mut Option<Streaming<R>>) -> Result<Option<R>, tonic::Status> {
    match responses {
        Some(responses) => responses.message().await,
        None => std::future::pending().await,
    }
}

/// The next chunk of the shared queue; `None` once it is drained.
async fn next_job(work: &Mutex<mpsc::Receiver<ChunkJob>>) -> Option<ChunkJob> {
    work.lock().await.recv().await
}

/// Reserves room in the request channel, if it is still open.
async fn reserve<R>(sender: &Option<GroupSender<R>>) -> Option<mpsc::Permit<'_, (Vec<R>, ())>> {
    match sender {
        Some(sender) => sender.reserve().await.ok(),
        None => std::future::pending().await,
    }
}
