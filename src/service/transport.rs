//! The service as tonic serves it: the generated server, once per message
//! size limit, behind one router.

use tonic::codec::CompressionEncoding;

use super::limits::{MAX_VARIANT_MESSAGE_BYTES, MAX_VARIANT_RESPONSE_BYTES};
use super::rpc::Rpc;
use super::state::SudokuService;
use crate::pb::sudoku_service_server::SudokuServiceServer;

impl SudokuService {
    /// The service wrapped for tonic, gzip and zstd accepted from clients
    /// and used for responses when the client accepts them, with the
    /// message size limits of each RPC (see [`SudokuServer`]).
    pub fn into_server(self) -> SudokuServer {
        let single = (self.limits.max_message_bytes, self.limits.max_message_bytes);
        let batch = (
            self.limits.max_batch_request_bytes(),
            self.limits.max_batch_response_bytes(),
        );
        let explain = (self.limits.max_message_bytes, MAX_EXPLAIN_RESPONSE_BYTES);
        let variant = (MAX_VARIANT_MESSAGE_BYTES, MAX_VARIANT_RESPONSE_BYTES);
        SudokuServer {
            variant: self.clone().sized(variant),
            batch: self.clone().sized(batch),
            explain: self.clone().sized(explain),
            single: self.sized(single),
        }
    }

    /// The generated server with these request and response size limits.
    fn sized(self, (request, response): (usize, usize)) -> SudokuServiceServer<SudokuService> {
        SudokuServiceServer::new(self)
            .max_decoding_message_size(request)
            .max_encoding_message_size(response)
            .accept_compressed(CompressionEncoding::Gzip)
            .accept_compressed(CompressionEncoding::Zstd)
            .send_compressed(CompressionEncoding::Gzip)
            .send_compressed(CompressionEncoding::Zstd)
    }
}

/// The service as tonic serves it: the generated server four times, with
/// the message size limits of the one-puzzle RPCs (`--max-message-bytes`),
/// of the batch RPCs (a full batch of the largest items), of Explain
/// (a one-puzzle request, a whole path as the response), and of the
/// variant RPCs (64 KiB each way), since tonic sets one limit per server,
/// not per method.
#[derive(Clone)]
pub struct SudokuServer {
    single: SudokuServiceServer<SudokuService>,
    batch: SudokuServiceServer<SudokuService>,
    explain: SudokuServiceServer<SudokuService>,
    variant: SudokuServiceServer<SudokuService>,
}

/// The largest Explain response: a whole logical path (at most 81
/// placements and 648 eliminations, so some hundreds of steps) with an
/// explanation per step stays well under this.
pub const MAX_EXPLAIN_RESPONSE_BYTES: usize = 1 << 20;

impl tonic::server::NamedService for SudokuServer {
    const NAME: &'static str =
        <SudokuServiceServer<SudokuService> as tonic::server::NamedService>::NAME;
}

impl<B> tower::Service<http::Request<B>> for SudokuServer
where
    SudokuServiceServer<SudokuService>: tower::Service<http::Request<B>>,
{
    type Response =
        <SudokuServiceServer<SudokuService> as tower::Service<http::Request<B>>>::Response;
    type Error = <SudokuServiceServer<SudokuService> as tower::Service<http::Request<B>>>::Error;
    type Future = <SudokuServiceServer<SudokuService> as tower::Service<http::Request<B>>>::Future;

    fn poll_ready(
        &mut self,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        // The generated server is always ready; the four copies are the same.
        self.single.poll_ready(context)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        match Rpc::from_path(request.uri().path()) {
            Some(Rpc::Explain) => self.explain.call(request),
            Some(rpc) if rpc.is_batch() => self.batch.call(request),
            Some(rpc) if rpc.is_variant() => self.variant.call(request),
            _ => self.single.call(request),
        }
    }
}
