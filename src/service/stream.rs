//! Drives one SolveStream call: reads requests, hands puzzles to the pool,
//! and writes answers back in request order.
//!
//! At most `window` puzzles of a stream are in flight. When the window is
//! full the driver stops reading, so HTTP/2 flow control pushes back on the
//! client instead of the server buffering; when the client stops reading
//! answers, the small response channel fills, the driver stops, and the same
//! happens. Answers leave strictly in request order: the driver only ever
//! waits for the oldest pending job.
//!
//! Requests that have already arrived when one is read go to the pool with
//! it, up to [`MAX_BATCH`] puzzles in one job: handing a job to a worker
//! costs about as much as solving an easy puzzle, so a busy stream of easy
//! puzzles would otherwise spend most of its time in hand-offs. A stream
//! that trickles gets one job per puzzle, with no waiting to fill a batch.
//!
//! If the client goes away, the driver ends and drops its pending jobs, which
//! cancels them (see [`crate::pool`]).

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::sync::watch;
use tokio_stream::Stream;
use tonic::{Code, Status, Streaming};

use super::convert::{Solved, solve_job, stream_response};
use super::error::ServiceError;
use super::metrics::{Metrics, Rpc};
use crate::domain::SolvePuzzleError;
use crate::grouped_channel::{GroupSender, GroupStream};
use crate::pb::{SolveStreamRequest, SolveStreamResponse};
use crate::pool::{JobHandle, WorkerPool};

/// Batches of responses (one per job) buffered between the driver and the
/// transport. Small on purpose: backpressure should reach the request side
/// quickly.
pub const RESPONSE_BUFFER: usize = 4;

/// One response, or the status that ends the stream.
pub type ResponseItem = Result<SolveStreamResponse, Status>;

/// Where the driver puts responses, a job's worth at a time.
pub type ResponseSender = GroupSender<ResponseItem>;

/// What the transport reads from, one response at a time.
pub type ResponseStream = GroupStream<ResponseItem>;

/// The most puzzles of one stream solved as one pool job.
pub const MAX_BATCH: usize = 64;

/// Requests taken in together and not yet answered: their ids, in order,
/// and the job solving their puzzles.
struct Pending {
    ids: Vec<String>,
    answers: JobHandle<Vec<Result<Solved, SolvePuzzleError>>>,
}

/// What a stream's driver needs from the service.
pub struct Driver {
    /// Where puzzles are solved.
    pub pool: WorkerPool,
    /// Most puzzles of the stream in flight at once.
    pub window: usize,
    /// Where answers and the call's end are counted.
    pub metrics: Arc<Metrics>,
    /// Turns true when the server starts draining.
    pub draining: watch::Receiver<bool>,
}

impl Driver {
    /// Runs the stream until the client has sent everything and all of it
    /// is answered, or the client goes away. A transport error on the
    /// request side ends the stream with that status, after the answers
    /// already owed. When the server starts draining, the driver stops
    /// reading, answers what it has taken in, and ends the stream with
    /// UNAVAILABLE: the answers form a prefix of the requests, so the client
    /// knows exactly which puzzles to send elsewhere.
    pub async fn run(mut self, requests: Streaming<SolveStreamRequest>, responses: ResponseSender) {
        let metrics = self.metrics.clone();
        let _open = metrics.stream_opened();
        let code = self.drive(requests, responses).await;
        metrics.call_finished(Rpc::SolveStream, code);
    }

    /// [`Driver::run`]'s loop; returns the code the call ended with.
    async fn drive(
        &mut self,
        mut requests: Streaming<SolveStreamRequest>,
        responses: ResponseSender,
    ) -> Code {
        let window = self.window.max(1);
        let mut pending: VecDeque<Pending> = VecDeque::new();
        let mut in_flight = 0;
        let mut reading = true;
        let mut failure = None;
        while reading || !pending.is_empty() {
            tokio::select! {
                biased;
                () = responses.closed() => return Code::Cancelled,
                answers = oldest_answers(&mut pending), if !pending.is_empty() => {
                    let item = pending.pop_front().expect("the answers came from it");
                    in_flight -= item.ids.len();
                    let mut tally = self.metrics.tally(Rpc::SolveStream);
                    let batch = item
                        .ids
                        .into_iter()
                        .zip(answers)
                        .map(|(id, answer)| {
                            tally.record(&answer);
                            Ok(stream_response(id, answer))
                        })
                        .collect();
                    drop(tally);
                    if responses.send((batch, ())).await.is_err() {
                        return Code::Cancelled;
                    }
                }
                () = until_draining(&mut self.draining), if reading => {
                    reading = false;
                    failure = Some(Status::unavailable(
                        "the server is shutting down; every puzzle before this point \
                         was answered, send the rest to another server",
                    ));
                }
                request = requests.message(), if reading && in_flight < window => match request {
                    Ok(Some(first)) => {
                        let mut batch = vec![first];
                        // Take what has already arrived, without waiting for more.
                        while batch.len() < MAX_BATCH && in_flight + batch.len() < window {
                            match arrived(&mut requests) {
                                Some(Ok(request)) => batch.push(request),
                                Some(Err(end)) => {
                                    reading = false;
                                    failure = end;
                                    break;
                                }
                                None => break,
                            }
                        }
                        in_flight += batch.len();
                        let (ids, puzzles): (Vec<_>, Vec<_>) = batch
                            .into_iter()
                            .map(|request| (request.id, request.puzzle))
                            .unzip();
                        let answers = self
                            .pool
                            .submit(move |cancel| {
                                puzzles.iter().map(|puzzle| solve_job(puzzle, cancel)).collect()
                            })
                            .await;
                        pending.push_back(Pending { ids, answers });
                    }
                    Ok(None) => reading = false,
                    Err(status) => {
                        reading = false;
                        failure = Some(status);
                    }
                },
            }
        }
        let Some(status) = failure else {
            return Code::Ok;
        };
        let status = match ServiceError::from_inbound_status(&status) {
            Some(error) => Status::from(error),
            None => status,
        };
        let code = status.code();
        tracing::info!(
            rpc = "SolveStream",
            ?code,
            detail = status.message(),
            "call failed"
        );
        if responses.send((vec![Err(status)], ())).await.is_ok() {
            discard_until_client_stops(&mut requests).await;
        }
        code
    }
}

/// How long a stream that ended early keeps reading what its client still
/// sends, at most.
const LINGER: Duration = Duration::from_secs(5);

/// Reads and drops requests until the client ends its side (it does once
/// it sees the status that ended the stream), for at most [`LINGER`].
///
/// A stream that ends while its client is still sending leaves that data
/// unread; if the server then closes the connection (as it does when
/// draining), TCP resets it instead of closing it, and the reset can
/// destroy the status on its way to the client, which then sees UNKNOWN
/// ("broken pipe") instead of the status that tells it what to resend.
async fn discard_until_client_stops(requests: &mut Streaming<SolveStreamRequest>) {
    let discard = async { while let Ok(Some(_)) = requests.message().await {} };
    let _ = tokio::time::timeout(LINGER, discard).await;
}

/// Completes once the server starts draining (never, if the server is gone
/// without draining).
async fn until_draining(draining: &mut watch::Receiver<bool>) {
    if draining.wait_for(|draining| *draining).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Waits for the answers of the oldest pending job, one per request (a
/// job that failed as a whole fails each of its requests alike).
async fn oldest_answers(pending: &mut VecDeque<Pending>) -> Vec<Result<Solved, ServiceError>> {
    let oldest = pending
        .front_mut()
        .expect("only polled when something is pending");
    match (&mut oldest.answers).await {
        Ok(answers) => answers
            .into_iter()
            .map(|answer| answer.map_err(ServiceError::from))
            .collect(),
        Err(error) => {
            let error = ServiceError::from(error);
            oldest.ids.iter().map(|_| Err(error.clone())).collect()
        }
    }
}

/// A request that has already arrived, taken without waiting: `None` when
/// none is ready, `Err(None)` at the end of the requests, `Err(Some(status))`
/// when the request side failed.
fn arrived(
    requests: &mut Streaming<SolveStreamRequest>,
) -> Option<Result<SolveStreamRequest, Option<Status>>> {
    // Polling with a waker that does nothing is fine: the next `message()`
    // call polls again with the driver's own waker.
    let mut context = Context::from_waker(Waker::noop());
    match Pin::new(requests).poll_next(&mut context) {
        Poll::Pending => None,
        Poll::Ready(Some(Ok(request))) => Some(Ok(request)),
        Poll::Ready(Some(Err(status))) => Some(Err(Some(status))),
        Poll::Ready(None) => Some(Err(None)),
    }
}
