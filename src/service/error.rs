//! The service's errors and their one mapping to gRPC statuses.

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use std::time::Duration;

use super::limits::MAX_ID_BYTES;
use super::logic_messages::pb_candidate;
use crate::domain::Cell;
use crate::domain::logic::{Mark, PositionError};
use crate::domain::variant::VariantError;
use crate::domain::{GaveUp, HintError, Outcome, PuzzleError, SolvePuzzleError};
use crate::pb;
use crate::pool::{JobError, QueueFull};
use crate::wording::counted;

/// Everything that can keep a call from getting an answer.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ServiceError {
    /// The puzzle text is malformed, too long, or its givens conflict.
    #[error(transparent)]
    InvalidPuzzle(#[from] PuzzleError),
    /// A variant puzzle is malformed, or a variant request's field.
    #[error("{error}")]
    InvalidVariant {
        /// The request field at fault, as a BadRequest names it
        /// (`puzzle.typed.constraints[3]`, `puzzle.fpuzzles`).
        field: String,
        /// What is wrong, and where in the puzzle.
        error: VariantError,
    },
    /// A stream item's id is longer than [`MAX_ID_BYTES`].
    #[error(
        "id is {length} bytes long, over the limit of {} bytes; it is not echoed",
        MAX_ID_BYTES
    )]
    IdTooLong {
        /// Its length in bytes.
        length: usize,
    },
    /// A hint's progress text is malformed.
    #[error("progress: {0}")]
    InvalidProgress(PuzzleError),
    /// A hint's progress or marks do not fit its puzzle.
    #[error(transparent)]
    InvalidPosition(#[from] PositionError),
    /// A batch carries more puzzles than `--max-batch`.
    #[error("the batch has {count} puzzles, over the limit of {limit} (--max-batch); split it")]
    BatchTooLarge {
        /// Puzzles in the batch.
        count: usize,
        /// The server's `--max-batch`.
        limit: usize,
    },
    /// The worker pool's queue is full.
    #[error("server overloaded: {0}; retry with backoff")]
    Overloaded(#[from] QueueFull),
    /// The batches in flight hold the whole batch budget.
    #[error(
        "server overloaded: the batches in flight are charged all {budget} bytes of the \
         budget for batches; retry with backoff"
    )]
    BatchesOverloaded {
        /// The budget's size in bytes.
        budget: usize,
    },
    /// The solver ran out of its time budget for the puzzle.
    #[error(transparent)]
    GaveUp(#[from] GaveUp),
    /// The call's deadline passed before it was answered (a stream's
    /// deadline after it began ends it with its own message).
    #[error("the call's deadline passed before it was answered")]
    DeadlineExceeded,
    /// The caller went away while the puzzle was being solved.
    #[error("the solve was cancelled")]
    Cancelled,
    /// A worker failed on the job: a bug.
    #[error("internal error while solving: {0}")]
    Internal(#[from] JobError),
    /// A request message was larger than its RPC's limit.
    #[error("request message too large: {detail} ({limit})")]
    MessageTooLarge {
        /// The size found and the limit, as tonic gave them.
        detail: String,
        /// What sets the limit.
        limit: &'static str,
    },
    /// A request was not a valid protobuf message of its type (for
    /// example, a string field that is not UTF-8).
    #[error("malformed request: {0}")]
    MalformedRequest(String),
    /// A Generate request that no puzzle could meet, or over a limit.
    #[error("{reason}")]
    InvalidGenerateRequest {
        /// The field at fault.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A Generate call searched `--max-generate-wait` for its next puzzle
    /// in vain.
    #[error(
        "found {} of the {} asked for ({}) in {}: none in the last {} ({flag}); the target is rarely or never met",
        progress.found, counted(progress.asked as u64, "puzzle", "puzzles"), progress.target,
        counted(progress.attempts, "attempt", "attempts"), format!("{waited:?}")
    )]
    GenerateGaveUp {
        /// How far it got.
        progress: GenerateProgress,
        /// The server's `--max-generate-wait`, or `--max-climb-wait`.
        waited: Duration,
        /// Which of the two flags set `waited`.
        flag: &'static str,
    },
    /// A Generate call's deadline passed before its count was made.
    #[error(
        "the deadline passed after {} of the {} asked for ({}), in {}",
        progress.found, counted(progress.asked as u64, "puzzle", "puzzles"), progress.target,
        counted(progress.attempts, "attempt", "attempts")
    )]
    GenerateDeadlineExceeded {
        /// How far it got.
        progress: GenerateProgress,
    },
    /// The server began draining before a Generate call's count was made.
    #[error(
        "the server is shutting down: sent {} of the {} asked for; ask another server for \
         the rest",
        progress.found, counted(progress.asked as u64, "puzzle", "puzzles")
    )]
    GenerateDraining {
        /// How far it got.
        progress: GenerateProgress,
    },
}

impl ServiceError {
    /// The error behind a status that tonic made itself while reading a
    /// request, before any handler saw it. tonic calls an over-large
    /// message OUT_OF_RANGE, and an undecodable one, or a unary call that
    /// ends without its request, INTERNAL; gRPC's other implementations,
    /// and this service, answer RESOURCE_EXHAUSTED and INVALID_ARGUMENT.
    /// `None` for any other status. `limit` names what sets the call's
    /// message size limit.
    pub fn from_inbound_status(status: &Status, limit: &'static str) -> Option<ServiceError> {
        let message = status.message();
        match status.code() {
            Code::OutOfRange => message
                .strip_prefix("Error, decoded message length too large: ")
                .map(|detail| ServiceError::MessageTooLarge {
                    detail: detail.replace("limit is:", "limit is"),
                    limit,
                }),
            Code::ResourceExhausted => message
                .strip_prefix("Error decompressing: size limit, of ")
                .and_then(|rest| rest.split_once(" bytes"))
                .map(|(bytes, _)| ServiceError::MessageTooLarge {
                    detail: format!("over {bytes} bytes once decompressed"),
                    limit,
                }),
            Code::Internal if message == "Missing request message." => Some(
                ServiceError::MalformedRequest("the call ended without its request".to_string()),
            ),
            Code::Internal => message
                .strip_prefix("failed to decode Protobuf message: ")
                .map(|detail| ServiceError::MalformedRequest(detail.to_string())),
            _ => None,
        }
    }
}

/// How every refusal for overload begins: the call layer knows a shed
/// call by it when it counts and logs the call's end.
pub const OVERLOADED: &str = "server overloaded: ";

/// True for the status of a call refused because the server was full
/// (RESOURCE_EXHAUSTED, worded as every shed is: see [`OVERLOADED`]).
pub fn is_shed(status: &Status) -> bool {
    status.code() == Code::ResourceExhausted && status.message().starts_with(OVERLOADED)
}

impl ServiceError {
    /// True for a refusal because the server was full, which a client
    /// should retry with backoff: counted and logged as a shed.
    pub fn is_shed(&self) -> bool {
        matches!(
            self,
            ServiceError::Overloaded(_) | ServiceError::BatchesOverloaded { .. }
        )
    }

    /// What becomes of a puzzle that met this error instead of an answer,
    /// as a stream item (or a metric) records it: invalid puzzles are
    /// [`Outcome::Invalid`], everything else that can befall one puzzle is
    /// [`Outcome::Failed`].
    pub fn outcome(&self) -> Outcome {
        match self {
            ServiceError::InvalidPuzzle(_)
            | ServiceError::InvalidVariant { .. }
            | ServiceError::InvalidProgress(_)
            | ServiceError::InvalidPosition(_)
            | ServiceError::IdTooLong { .. }
            | ServiceError::BatchTooLarge { .. }
            | ServiceError::MalformedRequest(_)
            | ServiceError::MessageTooLarge { .. }
            | ServiceError::InvalidGenerateRequest { .. } => Outcome::Invalid,
            ServiceError::GaveUp(_) | ServiceError::GenerateGaveUp { .. } => Outcome::GaveUp,
            ServiceError::GenerateDeadlineExceeded { .. }
            | ServiceError::GenerateDraining { .. } => Outcome::Failed,
            ServiceError::Overloaded(_)
            | ServiceError::BatchesOverloaded { .. }
            | ServiceError::DeadlineExceeded
            | ServiceError::Cancelled
            | ServiceError::Internal(_) => Outcome::Failed,
        }
    }
}

impl From<SolvePuzzleError> for ServiceError {
    fn from(error: SolvePuzzleError) -> Self {
        match error {
            SolvePuzzleError::Puzzle(puzzle) => ServiceError::InvalidPuzzle(puzzle),
            SolvePuzzleError::Cancelled => ServiceError::Cancelled,
            SolvePuzzleError::GaveUp(gave_up) => ServiceError::GaveUp(gave_up),
        }
    }
}

impl From<HintError> for ServiceError {
    fn from(error: HintError) -> ServiceError {
        match error {
            HintError::Puzzle(error) => error.into(),
            HintError::Progress(error) => ServiceError::InvalidProgress(error),
            HintError::Position(error) => ServiceError::InvalidPosition(error),
        }
    }
}

/// How far a Generate call got, for the status it ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateProgress {
    /// Puzzles asked for.
    pub asked: usize,
    /// Puzzles sent.
    pub found: usize,
    /// Attempts made.
    pub attempts: u64,
    /// What each puzzle had to be, in words.
    pub target: String,
}

impl From<ServiceError> for Status {
    fn from(error: ServiceError) -> Status {
        let message = error.to_string();
        match error {
            ServiceError::InvalidPuzzle(ref error) => {
                invalid_argument("puzzle", message, &error.cells_at_fault())
            }
            ServiceError::InvalidVariant { ref field, .. } => invalid_argument(field, message, &[]),
            ServiceError::IdTooLong { .. } => Status::with_error_details(
                Code::InvalidArgument,
                message.clone(),
                ErrorDetails::with_bad_request_violation("id", message),
            ),
            ServiceError::InvalidProgress(ref error) => {
                invalid_argument("progress", message, &error.cells_at_fault())
            }
            ServiceError::InvalidPosition(ref position) => {
                let field = match position {
                    PositionError::GivenChanged { .. } => "progress",
                    PositionError::Marks(_) => "marks",
                };
                invalid_argument(field, message, &position.cells_at_fault())
            }
            ServiceError::BatchTooLarge { .. } => Status::with_error_details(
                Code::InvalidArgument,
                message.clone(),
                ErrorDetails::with_bad_request_violation("puzzles", message),
            ),
            ServiceError::GaveUp(gave_up) => Status::with_error_details(
                Code::ResourceExhausted,
                message,
                gave_up_details(&gave_up),
            ),
            ServiceError::Overloaded(_) | ServiceError::BatchesOverloaded { .. } => {
                Status::resource_exhausted(message)
            }
            ServiceError::DeadlineExceeded => Status::deadline_exceeded(message),
            ServiceError::Cancelled => Status::cancelled(message),
            ServiceError::Internal(_) => Status::internal(message),
            ServiceError::MessageTooLarge { .. } => Status::resource_exhausted(message),
            ServiceError::MalformedRequest(_) => Status::invalid_argument(message),
            ServiceError::InvalidGenerateRequest { field, .. } => Status::with_error_details(
                Code::InvalidArgument,
                message.clone(),
                ErrorDetails::with_bad_request_violation(field, message),
            ),
            ServiceError::GenerateGaveUp {
                progress, waited, ..
            } => Status::with_error_details(
                Code::ResourceExhausted,
                message,
                generate_gave_up_details(&progress, waited),
            ),
            ServiceError::GenerateDeadlineExceeded { .. } => Status::deadline_exceeded(message),
            ServiceError::GenerateDraining { .. } => Status::unavailable(message),
        }
    }
}

/// INVALID_ARGUMENT with a google.rpc.BadRequest naming `field`, and a
/// `CellErrors` naming the cells at fault when there are any, so that a
/// client can mark them without reading the message.
fn invalid_argument(field: &str, message: String, cells: &[(Cell, u8)]) -> Status {
    use prost::Message;
    let status = Status::with_error_details(
        Code::InvalidArgument,
        message.clone(),
        ErrorDetails::with_bad_request_violation(field, message.clone()),
    );
    if cells.is_empty() {
        return status;
    }
    let detail = pb::CellErrors {
        field: field.to_string(),
        cells: cells
            .iter()
            .map(|&(cell, digit)| pb_candidate(Mark::new(cell.index(), digit)))
            .collect(),
    };
    let mut rpc = rpc_status(&status);
    rpc.details.push(prost_types::Any {
        type_url: CELL_ERRORS_TYPE_URL.to_string(),
        value: detail.encode_to_vec(),
    });
    Status::with_details(Code::InvalidArgument, message, rpc.encode_to_vec().into())
}

/// The type URL of the `CellErrors` detail.
pub const CELL_ERRORS_TYPE_URL: &str = "type.googleapis.com/sudoku.v1.CellErrors";

/// The reason in the `google.rpc.ErrorInfo` of a puzzle the solver gave up
/// on, so that a client can tell it from an overloaded server (both are
/// RESOURCE_EXHAUSTED).
pub const GAVE_UP_REASON: &str = "SOLVE_TIME_EXHAUSTED";

/// The error domain of this service's `google.rpc.ErrorInfo`.
pub const ERROR_DOMAIN: &str = "sudoku.v1";

/// An ErrorInfo saying the solver gave up, with how far it got.
fn gave_up_details(gave_up: &GaveUp) -> ErrorDetails {
    let metadata: std::collections::HashMap<String, String> = [
        (
            "elapsed_seconds",
            format!("{:.6}", gave_up.elapsed.as_secs_f64()),
        ),
        ("guesses", gave_up.guesses.to_string()),
        (
            "limit_seconds",
            format!("{:.6}", gave_up.budget.as_secs_f64()),
        ),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_string(), value))
    .collect();
    ErrorDetails::with_error_info(GAVE_UP_REASON, ERROR_DOMAIN, metadata)
}

/// The reason in the `google.rpc.ErrorInfo` of a Generate call that gave
/// up on its target.
pub const GENERATE_GAVE_UP_REASON: &str = "GENERATE_TIME_EXHAUSTED";

/// An ErrorInfo saying a Generate call gave up, with what it was asked and
/// how far it got.
fn generate_gave_up_details(progress: &GenerateProgress, waited: Duration) -> ErrorDetails {
    let metadata: std::collections::HashMap<String, String> = [
        ("asked", progress.asked.to_string()),
        ("found", progress.found.to_string()),
        ("attempts", progress.attempts.to_string()),
        ("target", progress.target.clone()),
        ("limit_seconds", format!("{:.6}", waited.as_secs_f64())),
    ]
    .into_iter()
    .map(|(key, value)| (key.to_string(), value))
    .collect();
    ErrorDetails::with_error_info(GENERATE_GAVE_UP_REASON, ERROR_DOMAIN, metadata)
}

/// True when a request-side status says the client reset the stream
/// (RST_STREAM with CANCEL): the client went away, which is CANCELLED,
/// however the transport words it.
pub fn is_client_reset(status: &Status) -> bool {
    let says_reset = |text: &str| {
        text.contains("stream error received: operation was canceled")
            || text.contains("stream error received: stream no longer needed")
    };
    if status.code() == Code::Cancelled || says_reset(status.message()) {
        return true;
    }
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(status);
    while let Some(error) = source {
        if says_reset(&error.to_string()) {
            return true;
        }
        source = error.source();
    }
    false
}

/// The `google.rpc.Status` message for a status, details included, as a
/// stream response carries it.
pub fn rpc_status(status: &Status) -> tonic_types::Status {
    use prost::Message;
    // `with_error_details` stores an encoded google.rpc.Status (code,
    // message and details) in `details()`; a status without details has none.
    tonic_types::Status::decode(status.details())
        .ok()
        .filter(|decoded| decoded.code == status.code() as i32)
        .unwrap_or_else(|| tonic_types::Status {
            code: status.code() as i32,
            message: status.message().to_string(),
            details: Vec::new(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every refusal for overload is known as a shed by its status alone,
    /// and nothing else is.
    #[test]
    fn sheds_are_known_by_their_status() {
        let full = QueueFull {
            workers: 2,
            queue_depth: 4,
        };
        for shed in [
            ServiceError::Overloaded(full),
            ServiceError::BatchesOverloaded { budget: 1 << 20 },
        ] {
            assert!(shed.is_shed());
            let status = Status::from(shed);
            assert!(is_shed(&status), "{status:?}");
        }
        let gave_up = Status::resource_exhausted("the solver gave up after 1s");
        assert!(!is_shed(&gave_up));
        assert!(!is_shed(&Status::invalid_argument(
            "server overloaded: not a shed code"
        )));
    }
    use crate::domain::parse_puzzle;
    use tonic_types::RpcStatusExt;

    #[test]
    fn an_invalid_puzzle_is_invalid_argument_with_a_field_violation() {
        let error = ServiceError::from(parse_puzzle("12x").unwrap_err());
        let status = Status::from(error);
        assert_eq!(status.code(), Code::InvalidArgument);
        assert!(
            status
                .message()
                .starts_with("invalid character 'x' at column 3")
        );
        let violations = status.get_details_bad_request().unwrap().field_violations;
        assert_eq!(violations.len(), 1);
        assert_eq!(violations[0].field, "puzzle");
        assert_eq!(violations[0].description, status.message());
    }

    /// Row, column and digit.
    type CellNamed = (u32, u32, u32);

    /// The cells a status's `CellErrors` detail names, as (row, column,
    /// digit), with its field.
    fn cell_errors(status: &Status) -> Option<(String, Vec<CellNamed>)> {
        use prost::Message;
        let detail = rpc_status(status)
            .details
            .into_iter()
            .find(|any| any.type_url == CELL_ERRORS_TYPE_URL)?;
        let cells = pb::CellErrors::decode(detail.value.as_slice()).unwrap();
        let named = cells
            .cells
            .iter()
            .map(|c| (c.row, c.column, c.digit))
            .collect();
        Some((cells.field, named))
    }

    #[test]
    fn an_invalid_puzzle_names_its_cells_at_fault_in_a_detail() {
        let status_of =
            |text: &str| Status::from(ServiceError::from(parse_puzzle(text).unwrap_err()));
        let conflict = format!("55{}", ".".repeat(79));
        let status = status_of(&conflict);
        assert_eq!(
            cell_errors(&status),
            Some(("puzzle".to_string(), vec![(1, 1, 5), (1, 2, 5)]))
        );
        // The BadRequest stays beside it.
        assert_eq!(
            status
                .get_details_bad_request()
                .unwrap()
                .field_violations
                .len(),
            1
        );
        let bad_character = format!("{}\n..x", ".".repeat(9));
        assert_eq!(
            cell_errors(&status_of(&bad_character)),
            Some(("puzzle".to_string(), vec![(2, 3, 0)]))
        );
        assert_eq!(
            cell_errors(&status_of(&".".repeat(80))),
            Some(("puzzle".to_string(), vec![(9, 9, 0)]))
        );
        assert_eq!(cell_errors(&status_of(&".".repeat(82))), None);
        let changed = ServiceError::from(PositionError::GivenChanged {
            cell: Cell::new(10).unwrap(),
            given: 7,
        });
        assert_eq!(
            cell_errors(&Status::from(changed)),
            Some(("progress".to_string(), vec![(2, 2, 7)]))
        );
    }

    #[test]
    fn the_rpc_status_keeps_code_message_and_details() {
        let status = Status::from(ServiceError::from(parse_puzzle("").unwrap_err()));
        let rpc = rpc_status(&status);
        assert_eq!(rpc.code, Code::InvalidArgument as i32);
        assert_eq!(rpc.message, status.message());
        let bad_request = rpc.get_details_bad_request().unwrap();
        assert_eq!(bad_request.field_violations[0].field, "puzzle");
    }

    #[test]
    fn tonics_own_request_errors_get_this_services_codes() {
        let rewritten = |status: Status| {
            let status = Status::from(
                ServiceError::from_inbound_status(&status, "--max-message-bytes").unwrap(),
            );
            (status.code(), status.message().to_string())
        };
        let too_large = Status::out_of_range(
            "Error, decoded message length too large: found 1048580 bytes, the limit is: 65536 bytes",
        );
        assert_eq!(
            rewritten(too_large),
            (
                Code::ResourceExhausted,
                "request message too large: found 1048580 bytes, the limit is 65536 bytes \
                 (--max-message-bytes)"
                    .to_string()
            )
        );
        let inflated = Status::resource_exhausted(
            "Error decompressing: size limit, of 65536 bytes, exceeded while decompressing message",
        );
        assert_eq!(
            rewritten(inflated),
            (
                Code::ResourceExhausted,
                "request message too large: over 65536 bytes once decompressed \
                 (--max-message-bytes)"
                    .to_string()
            )
        );
        let undecodable = Status::internal(
            "failed to decode Protobuf message: SolveRequest.puzzle: invalid string value: \
             data is not UTF-8 encoded",
        );
        let (code, message) = rewritten(undecodable);
        assert_eq!(code, Code::InvalidArgument);
        assert!(message.starts_with("malformed request: SolveRequest.puzzle"));
        assert_eq!(
            rewritten(Status::internal("Missing request message.")),
            (
                Code::InvalidArgument,
                "malformed request: the call ended without its request".to_string()
            )
        );
        for other in [
            Status::internal("a bug"),
            Status::out_of_range("x"),
            Status::ok(""),
        ] {
            assert!(
                ServiceError::from_inbound_status(&other, "--max-message-bytes").is_none(),
                "{other:?}"
            );
        }
    }

    #[test]
    fn a_reset_from_the_client_is_told_from_other_failures() {
        let reset =
            Status::unknown("h2 protocol error: stream error received: operation was canceled");
        assert!(is_client_reset(&reset));
        assert!(is_client_reset(&Status::cancelled("gone")));
        assert!(!is_client_reset(&Status::unknown("something else")));
        assert!(!is_client_reset(&Status::internal("a bug")));
    }

    #[test]
    fn other_errors_map_to_their_codes() {
        let full = QueueFull {
            workers: 1,
            queue_depth: 2,
        };
        let cases = [
            (ServiceError::Overloaded(full), Code::ResourceExhausted),
            (ServiceError::DeadlineExceeded, Code::DeadlineExceeded),
            (ServiceError::Cancelled, Code::Cancelled),
            (
                ServiceError::Internal(JobError::Panicked("x".into())),
                Code::Internal,
            ),
        ];
        for (error, code) in cases {
            let status = Status::from(error);
            assert_eq!(status.code(), code);
            let rpc = rpc_status(&status);
            assert_eq!(
                (rpc.code, rpc.message.as_str()),
                (code as i32, status.message())
            );
        }
    }
}
