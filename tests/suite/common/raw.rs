//! Calls no well-behaved client makes: a puzzle that is not UTF-8, and a
//! unary Solve whose request body the test controls (none at all, or one
//! that never comes).

use sudoku_grpc::pb::{SolveRequest, SolveResponse};
use tokio_stream::Stream;
use tonic::transport::Channel;

const SOLVE: &str = "/sudoku.v1.SudokuService/Solve";

/// A SolveRequest whose `puzzle` is raw bytes, so that a test can send
/// bytes that are not UTF-8.
#[derive(Clone, PartialEq, prost::Message)]
struct RawSolveRequest {
    #[prost(bytes = "vec", tag = "1")]
    puzzle: Vec<u8>,
}

/// A unary Solve call whose `puzzle` is `puzzle`, whatever its bytes.
pub async fn solve_raw(channel: Channel, puzzle: Vec<u8>) -> Result<SolveResponse, tonic::Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.unwrap();
    let path = http::uri::PathAndQuery::from_static(SOLVE);
    let codec = tonic_prost::ProstCodec::<RawSolveRequest, SolveResponse>::default();
    grpc.unary(tonic::Request::new(RawSolveRequest { puzzle }), path, codec)
        .await
        .map(tonic::Response::into_inner)
}

/// A unary Solve call whose body is `request`'s stream of messages: empty,
/// say, or one that never yields. A channel that is not ready is
/// UNAVAILABLE.
pub async fn solve_with_body(
    channel: Channel,
    request: tonic::Request<impl Stream<Item = SolveRequest> + Send + 'static>,
) -> Result<(), tonic::Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready()
        .await
        .map_err(|error| tonic::Status::unavailable(error.to_string()))?;
    let path = http::uri::PathAndQuery::from_static(SOLVE);
    let codec = tonic_prost::ProstCodec::<SolveRequest, SolveResponse>::default();
    grpc.client_streaming(request, path, codec)
        .await
        .map(|_| ())
}
