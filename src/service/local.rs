//! Answering requests on the calling thread, exactly as the server's
//! workers would (item caps, parse, solve within the default time budget,
//! convert), with no server: for fuzzing and for tests of the conversion
//! layer.

use tonic::Status;

use super::admission::{admit_item, check_puzzle};
use super::convert::{solve_job, stream_response};
use super::error::ServiceError;
use super::limits::Limits;
use crate::pb;
use crate::pool::CancelCheck;

/// Answers one stream request as a stream worker would.
pub fn answer_stream_request(request: pb::SolveStreamRequest) -> pb::SolveStreamResponse {
    let limits = Limits::default().time_limits();
    let (id, item, _) = admit_item(request.id, request.puzzle, request.grade);
    let answer = item.and_then(|puzzle| {
        solve_job(&puzzle.text, puzzle.grade, limits, &CancelCheck(&|| false))
            .map_err(ServiceError::from)
    });
    stream_response(id, answer)
}

/// Answers one unary request on the calling thread, as the Solve handler's
/// worker would: the response, or the status the call fails with.
pub fn answer_request(request: pb::SolveRequest) -> Result<pb::SolveResponse, Status> {
    let limits = Limits::default().time_limits();
    check_puzzle(&request.puzzle)
        .and_then(|()| {
            solve_job(
                &request.puzzle,
                request.grade,
                limits,
                &CancelCheck(&|| false),
            )
            .map_err(Into::into)
        })
        .map(pb::SolveResponse::from)
        .map_err(Status::from)
}
