//! What tells SolveStream and SolveBatchStream apart for a stream task:
//! how a chunk's unanswered puzzles become request messages, how a
//! response is filed, and how the call is opened.
//!
//! Either way a stream task sends a chunk's puzzles in input order and
//! gets one response per message in the same order; with batches a
//! message carries up to `--batch` puzzles of one chunk, and a call that
//! breaks resends exactly the batches that got no response.

use std::future::Future;

use tonic::transport::Channel;
use tonic::{Status, Streaming};

use super::chunks::InFlight;
use crate::grouped_channel::GroupStream;
use crate::pb::sudoku_service_client::SudokuServiceClient;
use crate::pb::{SolveBatchRequest, SolveBatchResponse, SolveStreamRequest, SolveStreamResponse};

/// A client of one server.
pub(super) type Client = SudokuServiceClient<Channel>;

/// Puzzles one SolveStream may have sent and not yet seen answered (a
/// chunk is taken while below this, so it is exceeded by up to one
/// chunk). The server reads only its `--stream-window` of them at a time;
/// the rest wait in HTTP/2 flow-control buffers, which keeps the pipe
/// full. Kept small so that the first streams to open do not take all of
/// a short file. A batch stream may have more (see [`Wire::unanswered`]).
pub(super) const UNANSWERED_PER_STREAM: usize = 1024;

/// One streaming RPC, as a stream task uses it.
pub(super) trait Wire: Send + Sync + 'static {
    /// A request message.
    type Request: Send + 'static;
    /// A response message.
    type Response: Send + 'static;

    /// Requests for the puzzles of `chunk` that lack an answer, in order,
    /// each with how many puzzles it carries.
    fn requests(&self, chunk: &InFlight) -> Vec<(Self::Request, usize)>;

    /// Files `response` as the answer to the oldest request awaiting one,
    /// which carried `puzzles` puzzles of `chunk`; `Err` says how the
    /// server broke the protocol.
    fn accept(
        chunk: &mut InFlight,
        response: &Self::Response,
        puzzles: usize,
    ) -> Result<(), String>;

    /// The most puzzles a stream may have sent and not yet seen answered.
    fn unanswered(&self) -> usize;

    /// The id a response names, for the message about one nobody asked for.
    fn id(response: &Self::Response) -> &str;

    /// Opens the call on `client`, sending `requests`.
    fn open(
        client: &mut Client,
        requests: GroupStream<Self::Request>,
    ) -> impl Future<Output = Result<Streaming<Self::Response>, Status>> + Send;
}

/// SolveStream: one puzzle per message, its line number as its id.
pub(super) struct SinglePuzzles;

impl Wire for SinglePuzzles {
    type Request = SolveStreamRequest;
    type Response = SolveStreamResponse;

    fn requests(&self, chunk: &InFlight) -> Vec<(SolveStreamRequest, usize)> {
        chunk
            .unanswered_requests()
            .map(|request| (request, 1))
            .collect()
    }

    fn accept(
        chunk: &mut InFlight,
        response: &SolveStreamResponse,
        _puzzles: usize,
    ) -> Result<(), String> {
        chunk.accept(response)
    }

    fn unanswered(&self) -> usize {
        UNANSWERED_PER_STREAM
    }

    fn id(response: &SolveStreamResponse) -> &str {
        &response.id
    }

    async fn open(
        client: &mut Client,
        requests: GroupStream<SolveStreamRequest>,
    ) -> Result<Streaming<SolveStreamResponse>, Status> {
        Ok(client.solve_stream(requests).await?.into_inner())
    }
}

/// SolveBatchStream: up to `size` puzzles of one chunk per message, the
/// first one's line number as the batch's id.
pub(super) struct Batches {
    /// The most puzzles per batch.
    pub size: usize,
}

impl Wire for Batches {
    type Request = SolveBatchRequest;
    type Response = SolveBatchResponse;

    fn requests(&self, chunk: &InFlight) -> Vec<(SolveBatchRequest, usize)> {
        chunk.unanswered_batches(self.size)
    }

    fn accept(
        chunk: &mut InFlight,
        response: &SolveBatchResponse,
        puzzles: usize,
    ) -> Result<(), String> {
        chunk.accept_batch(response, puzzles)
    }

    /// Four batches, as many as the server reads ahead by default, so
    /// that it never waits for the next one.
    fn unanswered(&self) -> usize {
        UNANSWERED_PER_STREAM.max(4 * self.size)
    }

    fn id(response: &SolveBatchResponse) -> &str {
        &response.id
    }

    async fn open(
        client: &mut Client,
        requests: GroupStream<SolveBatchRequest>,
    ) -> Result<Streaming<SolveBatchResponse>, Status> {
        Ok(client.solve_batch_stream(requests).await?.into_inner())
    }
}
