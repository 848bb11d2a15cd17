//! Drives one SolveStream call: reads requests, hands puzzles to the pool,
//! and writes answers back in request order.
//!
//! At most `window` puzzles of a stream are in flight. When the window is
//! full the driver stops reading, so HTTP/2 flow control pushes back on the
//! client instead of the server buffering; when the client stops reading
//! answers, the small response channel fills, the driver stops, and the same
//! happens. Answers leave strictly in request order: the driver only ever
//! waits for the oldest pending puzzle.
//!
//! If the client goes away, the driver ends and drops its pending jobs, which
//! cancels them (see [`crate::pool`]).

use std::collections::VecDeque;

use tokio::sync::mpsc;
use tonic::{Status, Streaming};

use super::convert::{Solved, solve_job, stream_response};
use super::error::ServiceError;
use crate::domain::SolvePuzzleError;
use crate::pb::{SolveStreamRequest, SolveStreamResponse};
use crate::pool::{JobHandle, WorkerPool};

/// Responses buffered between the driver and the transport. Small on
/// purpose: backpressure should reach the request side quickly.
pub const RESPONSE_BUFFER: usize = 16;

/// What the transport reads from.
pub type ResponseSender = mpsc::Sender<Result<SolveStreamResponse, Status>>;

/// A request taken in and not yet answered.
struct Pending {
    id: String,
    answer: JobHandle<Result<Solved, SolvePuzzleError>>,
}

/// Runs the stream until the client has sent everything and all of it is
/// answered, or the client goes away. A transport error on the request side
/// ends the stream with that status, after the answers already owed.
pub async fn drive(
    pool: WorkerPool,
    window: usize,
    mut requests: Streaming<SolveStreamRequest>,
    responses: ResponseSender,
) {
    let window = window.max(1);
    let mut pending: VecDeque<Pending> = VecDeque::with_capacity(window);
    let mut reading = true;
    let mut failure = None;
    while reading || !pending.is_empty() {
        tokio::select! {
            biased;
            () = responses.closed() => return,
            answer = oldest_answer(&mut pending), if !pending.is_empty() => {
                let item = pending.pop_front().expect("an answer came from it");
                let response = stream_response(item.id, answer);
                if responses.send(Ok(response)).await.is_err() {
                    return;
                }
            }
            request = requests.message(), if reading && pending.len() < window => match request {
                Ok(Some(SolveStreamRequest { id, puzzle })) => {
                    let answer = pool.submit(move |cancel| solve_job(&puzzle, cancel)).await;
                    pending.push_back(Pending { id, answer });
                }
                Ok(None) => reading = false,
                Err(status) => {
                    reading = false;
                    failure = Some(status);
                }
            },
        }
    }
    if let Some(status) = failure {
        tracing::info!(
            rpc = "SolveStream",
            code = ?status.code(),
            detail = status.message(),
            "call failed"
        );
        let _ = responses.send(Err(status)).await;
    }
}

/// Waits for the oldest pending puzzle's answer.
async fn oldest_answer(pending: &mut VecDeque<Pending>) -> Result<Solved, ServiceError> {
    let oldest = pending
        .front_mut()
        .expect("only polled when something is pending");
    Ok((&mut oldest.answer).await??)
}
