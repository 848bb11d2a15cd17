//! The gRPC handlers: each takes its request off the wire, calls the
//! domain on the pool (directly, or through the stream core), and turns
//! the answer or the error into the response or the status. The call
//! layer counts and logs each call's end, once, from that status
//! (`crate::server`'s `call_end`).

use tonic::{Request, Response, Status, Streaming};

use super::batch::solve_batch;
use super::deadline::deadline_of;
use super::error::ServiceError;
use super::extensions::{CallSlot, RequestArrived};
use super::generate::GenerateStream;
use super::protocol::{Batches, SingleItems};
use super::rpc::Rpc;
use super::state::SudokuService;
use super::variant_calls::VariantItems;
use crate::domain::Outcome;
use crate::pb::{
    self, SolveBatchRequest, SolveBatchResponse, SolveRequest, SolveResponse, SolveStreamRequest,
    SolveStreamResponse,
};
use crate::streaming::ResponseStream;

#[tonic::async_trait]
impl pb::sudoku_service_server::SudokuService for SudokuService {
    async fn solve(
        &self,
        request: Request<SolveRequest>,
    ) -> Result<Response<SolveResponse>, Status> {
        RequestArrived::signal_in(&request);
        // A call dropped while it waits here (the client went away, or the
        // deadline passed) is counted by the server's call layer, which sees
        // every call from before its handler runs.
        let answer = self.solve_one(request.into_inner()).await;
        self.metrics.tally(Rpc::Solve).record(&answer);
        finish_unary(answer.map(SolveResponse::from))
    }

    type SolveStreamStream = ResponseStream<SolveStreamResponse, Status>;

    async fn solve_stream(
        &self,
        request: Request<Streaming<SolveStreamRequest>>,
    ) -> Result<Response<Self::SolveStreamStream>, Status> {
        RequestArrived::signal_in(&request);
        let slot = self.admit_stream(Rpc::SolveStream)?;
        let protocol = SingleItems::new(self.limits, self.metrics.clone());
        Ok(Response::new(self.open_stream(
            protocol,
            &self.budget,
            request,
            slot,
        )))
    }

    async fn solve_batch(
        &self,
        request: Request<SolveBatchRequest>,
    ) -> Result<Response<SolveBatchResponse>, Status> {
        RequestArrived::signal_in(&request);
        let answer = solve_batch(self, request.into_inner()).await;
        finish_unary(answer)
    }

    type SolveBatchStreamStream = ResponseStream<SolveBatchResponse, Status>;

    async fn solve_batch_stream(
        &self,
        request: Request<Streaming<SolveBatchRequest>>,
    ) -> Result<Response<Self::SolveBatchStreamStream>, Status> {
        RequestArrived::signal_in(&request);
        let slot = self.admit_large_stream(&request)?;
        let protocol = Batches::new(self.limits, self.metrics.clone());
        let budget = &self.batch_budget;
        Ok(Response::new(
            self.open_stream(protocol, budget, request, slot),
        ))
    }

    async fn hint(
        &self,
        request: Request<pb::HintRequest>,
    ) -> Result<Response<pb::HintResponse>, Status> {
        RequestArrived::signal_in(&request);
        let answer = self.hint_one(request.into_inner()).await;
        self.finish_counted(Rpc::Hint, answer)
    }

    async fn explain(
        &self,
        request: Request<pb::ExplainRequest>,
    ) -> Result<Response<pb::ExplainResponse>, Status> {
        RequestArrived::signal_in(&request);
        let answer = self.explain_one(request.into_inner()).await;
        self.finish_counted(Rpc::Explain, answer)
    }

    type GenerateStream = GenerateStream;

    async fn generate(
        &self,
        request: Request<pb::GenerateRequest>,
    ) -> Result<Response<GenerateStream>, Status> {
        RequestArrived::signal_in(&request);
        let arrival = tokio::time::Instant::now();
        let deadline = deadline_of(request.metadata().as_ref(), arrival);
        let stream = self.start_generate(request.get_ref(), deadline)?;
        Ok(Response::new(stream))
    }

    async fn solve_variant(
        &self,
        request: Request<pb::SolveVariantRequest>,
    ) -> Result<Response<pb::SolveVariantResponse>, Status> {
        RequestArrived::signal_in(&request);
        let answer = self.solve_variant_one(request.into_inner()).await;
        finish_unary(answer)
    }

    type SolveVariantStreamStream = ResponseStream<pb::SolveVariantResponse, Status>;

    async fn solve_variant_stream(
        &self,
        request: Request<Streaming<pb::SolveVariantRequest>>,
    ) -> Result<Response<Self::SolveVariantStreamStream>, Status> {
        RequestArrived::signal_in(&request);
        let slot = self.admit_large_stream(&request)?;
        let protocol = VariantItems::new(self.limits, self.metrics.clone());
        let budget = &self.batch_budget;
        Ok(Response::new(
            self.open_stream(protocol, budget, request, slot),
        ))
    }

    async fn variant_candidates(
        &self,
        request: Request<pb::VariantCandidatesRequest>,
    ) -> Result<Response<pb::VariantCandidatesResponse>, Status> {
        RequestArrived::signal_in(&request);
        let answer = self.variant_candidates_one(request.into_inner()).await;
        finish_unary(answer)
    }
}

impl SudokuService {
    /// The slot of a stream of the RPCs that share the batch calls' slots,
    /// which the call layer took, shared with the driver so that it is
    /// held for as long as either still works on the stream; or
    /// UNAVAILABLE once the server is draining.
    fn admit_large_stream<T>(&self, request: &Request<T>) -> Result<Option<CallSlot>, Status> {
        if *self.draining.borrow() {
            return Err(Status::unavailable(
                "the server is shutting down; open the stream on another server",
            ));
        }
        Ok(request.extensions().get::<CallSlot>().cloned())
    }

    /// [`finish_unary`] for a call about one puzzle (Hint,
    /// Explain), whose outcome is counted too.
    fn finish_counted<T>(
        &self,
        rpc: Rpc,
        answer: Result<(Outcome, T), ServiceError>,
    ) -> Result<Response<T>, Status> {
        let outcome = answer.as_ref().map(|(outcome, _)| *outcome);
        self.metrics.tally(rpc).record_outcome(outcome);
        finish_unary(answer.map(|(_, response)| response))
    }
}

/// A unary call's response or status. The call layer counts and logs the
/// call's end from the status (`crate::server::calls`).
fn finish_unary<T>(answer: Result<T, ServiceError>) -> Result<Response<T>, Status> {
    answer.map(Response::new).map_err(Status::from)
}
