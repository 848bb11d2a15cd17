//! The client's side of h2's limit on unread small DATA frames.
//!
//! h2 closes a connection (GOAWAY ENHANCE_YOUR_CALM) once the frames under
//! 256 bytes it holds unread are charged more than half the connection's
//! receive window (256 bytes less each frame's payload). A client that
//! stops reading its streams for a while (its output is blocked) while a
//! server answers each request in a frame of its own holds such frames on
//! every stream, up to the stream's receive window. With hyper's default
//! windows (5 MiB per connection, 2 MiB per stream) one stream could hold
//! more than the whole allowance; the client's windows keep two stalled
//! streams on one connection under it (see `sudoku_grpc::client`).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use sudoku_grpc::client::{ConnectOptions, connect};
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::pb::sudoku_service_server::{SudokuService, SudokuServiceServer};
use sudoku_grpc::pb::{
    ExplainRequest, ExplainResponse, GenerateRequest, GenerateResponse, HintRequest, HintResponse,
    Outcome, SolveBatchRequest, SolveBatchResponse, SolveRequest, SolveResponse,
    SolveStreamRequest, SolveStreamResponse,
};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_stream::Stream;
use tokio_stream::wrappers::{ReceiverStream, TcpListenerStream};
use tonic::{Request, Response, Status, Streaming};

use crate::common::{CLASSIC_SOLUTION, eventually};

/// Answers per stream: on two streams, more small frames than h2's
/// allowance under hyper's default windows, which also let a stream hold
/// them all unread.
const ANSWERS: usize = 12_000;

/// A server whose SolveStream answers at once with [`ANSWERS`] responses,
/// each written as a frame of its own, counting the answers it has sent.
struct Chatty {
    sent: Arc<AtomicUsize>,
}

type Answers<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

/// The answers of one stream: each ready only after the transport has
/// written the one before, so that each goes out in a frame of its own.
struct OneFrameEach {
    left: usize,
    held_back: bool,
    sent: Arc<AtomicUsize>,
}

impl Stream for OneFrameEach {
    type Item = Result<SolveStreamResponse, Status>;

    fn poll_next(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.left == 0 {
            return Poll::Ready(None);
        }
        // Pending once between answers: tonic writes what it has encoded
        // whenever the stream is not ready.
        self.held_back = !self.held_back;
        if self.held_back {
            context.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.left -= 1;
        let id = self.sent.fetch_add(1, Ordering::SeqCst);
        Poll::Ready(Some(Ok(SolveStreamResponse {
            id: id.to_string(),
            outcome: Outcome::Solved as i32,
            solution: CLASSIC_SOLUTION.to_string(),
            error: None,
            stats: None,
            grade: None,
        })))
    }
}

fn unused<T>() -> Result<Response<T>, Status> {
    Err(Status::unimplemented("not in this test"))
}

#[tonic::async_trait]
impl SudokuService for Chatty {
    async fn solve(&self, _: Request<SolveRequest>) -> Result<Response<SolveResponse>, Status> {
        unused()
    }

    type SolveStreamStream = Answers<SolveStreamResponse>;

    async fn solve_stream(
        &self,
        _: Request<Streaming<SolveStreamRequest>>,
    ) -> Result<Response<Self::SolveStreamStream>, Status> {
        Ok(Response::new(Box::pin(OneFrameEach {
            left: ANSWERS,
            held_back: false,
            sent: self.sent.clone(),
        })))
    }

    async fn solve_batch(
        &self,
        _: Request<SolveBatchRequest>,
    ) -> Result<Response<SolveBatchResponse>, Status> {
        unused()
    }

    type SolveBatchStreamStream = Answers<SolveBatchResponse>;

    async fn solve_batch_stream(
        &self,
        _: Request<Streaming<SolveBatchRequest>>,
    ) -> Result<Response<Self::SolveBatchStreamStream>, Status> {
        unused()
    }

    async fn hint(&self, _: Request<HintRequest>) -> Result<Response<HintResponse>, Status> {
        unused()
    }

    async fn explain(
        &self,
        _: Request<ExplainRequest>,
    ) -> Result<Response<ExplainResponse>, Status> {
        unused()
    }

    type GenerateStream = Answers<GenerateResponse>;

    async fn generate(
        &self,
        _: Request<GenerateRequest>,
    ) -> Result<Response<Self::GenerateStream>, Status> {
        unused()
    }

    async fn solve_variant(
        &self,
        _: Request<sudoku_grpc::pb::SolveVariantRequest>,
    ) -> Result<Response<sudoku_grpc::pb::SolveVariantResponse>, Status> {
        unused()
    }

    type SolveVariantStreamStream = Answers<sudoku_grpc::pb::SolveVariantResponse>;

    async fn solve_variant_stream(
        &self,
        _: Request<Streaming<sudoku_grpc::pb::SolveVariantRequest>>,
    ) -> Result<Response<Self::SolveVariantStreamStream>, Status> {
        unused()
    }

    async fn variant_candidates(
        &self,
        _: Request<sudoku_grpc::pb::VariantCandidatesRequest>,
    ) -> Result<Response<sudoku_grpc::pb::VariantCandidatesResponse>, Status> {
        unused()
    }
}

/// Two streams on one of the client's connections, not read until the
/// server can send no more: the connection survives, and every answer
/// arrives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stalled_streams_of_small_frames_keep_the_clients_connection() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let sent = Arc::new(AtomicUsize::new(0));
    let chatty = Chatty { sent: sent.clone() };
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(SudokuServiceServer::new(chatty))
            .serve_with_incoming(TcpListenerStream::new(listener)),
    );
    let channel = connect(&format!("http://{address}"), &ConnectOptions::default())
        .await
        .unwrap();
    let mut streams = Vec::new();
    for _ in 0..2 {
        // The request side stays open and sends nothing.
        let (requests, outgoing) = mpsc::channel::<SolveStreamRequest>(1);
        let answers = SudokuServiceClient::new(channel.clone())
            .solve_stream(ReceiverStream::new(outgoing))
            .await
            .unwrap()
            .into_inner();
        streams.push((requests, answers));
    }
    // The server sends until the client's windows are full (or, with
    // windows too large, until the client's h2 closes the connection):
    // wait until it has stopped.
    let last = AtomicUsize::new(0);
    eventually("the server to stop sending", || {
        let now = sent.load(Ordering::SeqCst);
        let before = last.swap(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(100));
        now > 0 && now == before
    })
    .await;
    for (_requests, mut answers) in streams {
        let mut received = 0;
        while let Some(answer) = answers.message().await.expect("the connection is kept") {
            assert_eq!(answer.outcome(), Outcome::Solved);
            received += 1;
        }
        assert_eq!(received, ANSWERS);
    }
}
