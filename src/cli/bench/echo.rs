//! The bare echo: a SudokuService that solves nothing, as the transport's
//! ceiling. It answers each stream request with its id and puzzle, and each
//! unary request with its puzzle, and each batch with one result per
//! puzzle (with stats, as a real result has), so its messages are the size
//! of real answers.

use std::net::SocketAddr;

use tokio::sync::mpsc;
use tokio_stream::wrappers::{ReceiverStream, TcpListenerStream};
use tonic::transport::Server;
use tonic::{Request, Response, Status, Streaming};

use super::BenchError;
use crate::pb::sudoku_service_server::{SudokuService, SudokuServiceServer};
use crate::pb::{
    Outcome, SolveBatchRequest, SolveBatchResponse, SolveRequest, SolveResponse, SolveResult,
    SolveStats, SolveStreamRequest, SolveStreamResponse,
};

/// Responses queued per echo stream.
const RESPONSE_BUFFER: usize = 1024;

struct EchoService;

#[tonic::async_trait]
impl SudokuService for EchoService {
    async fn solve(
        &self,
        request: Request<SolveRequest>,
    ) -> Result<Response<SolveResponse>, Status> {
        Ok(Response::new(SolveResponse {
            outcome: Outcome::Solved.into(),
            solution: request.into_inner().puzzle,
            stats: None,
            grade: None,
        }))
    }

    async fn hint(
        &self,
        _: Request<crate::pb::HintRequest>,
    ) -> Result<Response<crate::pb::HintResponse>, Status> {
        Err(Status::unimplemented("the echo server only echoes solves"))
    }

    async fn explain(
        &self,
        _: Request<crate::pb::ExplainRequest>,
    ) -> Result<Response<crate::pb::ExplainResponse>, Status> {
        Err(Status::unimplemented("the echo server only echoes solves"))
    }

    type GenerateStream = ReceiverStream<Result<crate::pb::GenerateResponse, Status>>;

    async fn generate(
        &self,
        _: Request<crate::pb::GenerateRequest>,
    ) -> Result<Response<Self::GenerateStream>, Status> {
        Err(Status::unimplemented("the echo server only echoes solves"))
    }

    type SolveStreamStream = ReceiverStream<Result<SolveStreamResponse, Status>>;

    async fn solve_stream(
        &self,
        request: Request<Streaming<SolveStreamRequest>>,
    ) -> Result<Response<Self::SolveStreamStream>, Status> {
        let mut requests = request.into_inner();
        let (sender, receiver) = mpsc::channel(RESPONSE_BUFFER);
        tokio::spawn(async move {
            while let Ok(Some(SolveStreamRequest { id, puzzle, .. })) = requests.message().await {
                let response = SolveStreamResponse {
                    id,
                    outcome: Outcome::Solved.into(),
                    solution: puzzle,
                    error: None,
                    stats: None,
                    grade: None,
                };
                if sender.send(Ok(response)).await.is_err() {
                    break;
                }
            }
        });
        Ok(Response::new(ReceiverStream::new(receiver)))
    }

    async fn solve_batch(
        &self,
        request: Request<SolveBatchRequest>,
    ) -> Result<Response<SolveBatchResponse>, Status> {
        Ok(Response::new(echo_batch(request.into_inner())))
    }

    type SolveBatchStreamStream = ReceiverStream<Result<SolveBatchResponse, Status>>;

    async fn solve_batch_stream(
        &self,
        request: Request<Streaming<SolveBatchRequest>>,
    ) -> Result<Response<Self::SolveBatchStreamStream>, Status> {
        let mut requests = request.into_inner();
        let (sender, receiver) = mpsc::channel(BATCH_RESPONSE_BUFFER);
        tokio::spawn(async move {
            while let Ok(Some(batch)) = requests.message().await {
                if sender.send(Ok(echo_batch(batch))).await.is_err() {
                    break;
                }
            }
        });
        Ok(Response::new(ReceiverStream::new(receiver)))
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
            .add_service(SudokuServiceServer::new(EchoService))
            .serve_with_incoming(TcpListenerStream::new(listener))
            .await;
    });
    Ok((address, server))
}
