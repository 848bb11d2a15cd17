//! The bare echo: a server that solves nothing, as the transport's
//! ceiling for the load generator's streams. It answers each SolveStream
//! request with its id and puzzle, and each batch of a SolveBatchStream
//! with one result per puzzle (with stats, as a real result has), so its
//! messages are the size of real answers.
//!
//! It serves those two paths with tonic's own codec and call handling,
//! and answers any other path UNIMPLEMENTED, rather than implementing the
//! whole generated service trait: a new RPC needs nothing here.

use std::convert::Infallible;
use std::future::{Future, Ready, ready};
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::mpsc;
use tokio_stream::wrappers::{ReceiverStream, TcpListenerStream};
use tonic::body::Body;
use tonic::server::{Grpc, NamedService, StreamingService};
use tonic::transport::Server;
use tonic::{Request, Response, Status, Streaming};
use tonic_prost::ProstCodec;

use super::BenchError;
use crate::pb::{
    Outcome, SolveBatchRequest, SolveBatchResponse, SolveResult, SolveStats, SolveStreamRequest,
    SolveStreamResponse,
};

/// Responses queued per echo stream.
const RESPONSE_BUFFER: usize = 1024;

/// The echo server's routes.
#[derive(Clone, Copy)]
struct Echo;

impl NamedService for Echo {
    const NAME: &'static str = "sudoku.v1.SudokuService";
}

impl tower::Service<http::Request<Body>> for Echo {
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<http::Response<Body>, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        Box::pin(async move {
            let method = request
                .uri()
                .path()
                .trim_start_matches("/sudoku.v1.SudokuService/");
            let response = match method {
                "SolveStream" => {
                    let each = EachOf(echo_stream_item, RESPONSE_BUFFER);
                    grpc().streaming(each, request).await
                }
                "SolveBatchStream" => {
                    let each = EachOf(echo_batch, BATCH_RESPONSE_BUFFER);
                    grpc().streaming(each, request).await
                }
                _ => Status::unimplemented(
                    "the echo server only echoes SolveStream and SolveBatchStream",
                )
                .into_http(),
            };
            Ok(response)
        })
    }
}

/// tonic's call handling with prost's codec.
fn grpc<Res, Req>() -> Grpc<ProstCodec<Res, Req>>
where
    Res: prost::Message + Send + 'static,
    Req: prost::Message + Default + Send + 'static,
{
    Grpc::new(ProstCodec::default())
}

/// A bidirectional RPC that answers each request with `.0` of it, with
/// `.1` responses queued at most.
#[derive(Clone, Copy)]
struct EachOf<F>(F, usize);

impl<Req, Res, F> StreamingService<Req> for EachOf<F>
where
    Req: Send + 'static,
    Res: Send + 'static,
    F: Fn(Req) -> Res + Copy + Send + 'static,
{
    type Response = Res;
    type ResponseStream = ReceiverStream<Result<Res, Status>>;
    type Future = Ready<Result<Response<Self::ResponseStream>, Status>>;

    fn call(&mut self, request: Request<Streaming<Req>>) -> Self::Future {
        let (echo, buffer) = (self.0, self.1);
        let mut requests = request.into_inner();
        let (sender, receiver) = mpsc::channel(buffer);
        tokio::spawn(async move {
            while let Ok(Some(request)) = requests.message().await {
                if sender.send(Ok(echo(request))).await.is_err() {
                    break;
                }
            }
        });
        ready(Ok(Response::new(ReceiverStream::new(receiver))))
    }
}

/// A SolveStream request's echo: its id, and its puzzle as the solution.
fn echo_stream_item(request: SolveStreamRequest) -> SolveStreamResponse {
    SolveStreamResponse {
        id: request.id,
        outcome: Outcome::Solved.into(),
        solution: request.puzzle,
        error: None,
        stats: None,
        grade: None,
    }
}

/// Batch responses queued per echo stream.
const BATCH_RESPONSE_BUFFER: usize = 16;

/// A batch's echo: each puzzle back as its solution, with stats.
fn echo_batch(batch: SolveBatchRequest) -> SolveBatchResponse {
    let results = batch
        .puzzles()
        .iter()
        .map(|puzzle| SolveResult {
            outcome: Outcome::Solved.into(),
            solution: puzzle.clone(),
            error: None,
            grade: None,
            stats: Some(SolveStats {
                guesses: 0,
                solve_time: Some(prost_types::Duration {
                    seconds: 0,
                    nanos: 1_500,
                }),
            }),
        })
        .collect();
    SolveBatchResponse::new(batch.id, results)
}

/// Starts the echo server on an ephemeral port of 127.0.0.1; it stops when
/// the returned task is aborted.
pub async fn start_echo_server() -> Result<(SocketAddr, tokio::task::JoinHandle<()>), BenchError> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|error| BenchError::Echo(error.to_string()))?;
    let address = listener
        .local_addr()
        .map_err(|error| BenchError::Echo(error.to_string()))?;
    let server = tokio::spawn(async move {
        let _ = Server::builder()
            .add_service(Echo)
            .serve_with_incoming(TcpListenerStream::new(listener))
            .await;
    });
    Ok((address, server))
}
