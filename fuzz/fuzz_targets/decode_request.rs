//! Arbitrary bytes as request messages, through the conversion layer.
//!
//! The input is decoded with prost as a `SolveStreamRequest` and as a
//! `SolveRequest`; each that decodes is answered on this thread by
//! `answer_stream_request` / `answer_request`, exactly as a worker would.
//!
//! Checks, against `proto/sudoku.proto` and the domain's own answer:
//!
//! * a stream request gets exactly one response (by construction), echoing
//!   its `id`, with an outcome the enum knows and never UNSPECIFIED (nothing
//!   here can fail inside the server);
//! * SOLVED and MULTIPLE_SOLUTIONS carry an 81-digit solution that obeys the
//!   rules and keeps the puzzle's givens, SOLVED the domain's unique one;
//!   NO_SOLUTION carries none; all three carry stats and no error;
//! * INVALID carries an error with code INVALID_ARGUMENT, the domain's
//!   non-empty message, a google.rpc.BadRequest violation on `puzzle`, and
//!   no solution or stats; it is given exactly when `parse_puzzle` fails;
//! * the unary answer agrees: the same outcome and solution, or a status
//!   INVALID_ARGUMENT with the same message when the puzzle is invalid;
//! * every response encodes and decodes back to itself;
//! * decoded as a `SolveBatchRequest` (whose decoder is written by hand),
//!   at most `MAX_KEPT` puzzles are kept, the rest counted, and a batch
//!   kept whole encodes and decodes back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prost::Message;
use sudoku_core::{Board, Outcome, parse_board, parse_puzzle, solve_board};
use sudoku_grpc::pb;
use sudoku_grpc::service::limits::MAX_ID_BYTES;
use sudoku_grpc::service::{answer_request, answer_stream_request, pb_outcome};
use tonic::Code;
use tonic_types::RpcStatusExt;

fuzz_target!(|data: &[u8]| {
    if let Ok(request) = pb::SolveStreamRequest::decode(data) {
        check_stream(request);
    }
    if let Ok(request) = pb::SolveRequest::decode(data) {
        check_unary(request);
    }
    if let Ok(batch) = pb::SolveBatchRequest::decode(data) {
        check_batch(&batch);
    }
});

fn check_batch(batch: &pb::SolveBatchRequest) {
    assert!(batch.puzzles().len() <= pb::MAX_KEPT, "{} kept", batch.puzzles().len());
    assert!(batch.puzzle_count() >= batch.puzzles().len());
    if batch.puzzle_count() == batch.puzzles().len() {
        let again = pb::SolveBatchRequest::decode(batch.encode_to_vec().as_slice())
            .expect("what was decoded encodes");
        assert_eq!(&again, batch);
    }
}

/// What the domain says about a puzzle: its board and outcome, or the
/// message of why it is invalid.
fn expected(puzzle: &str) -> Result<(Board, Outcome, String), String> {
    let board = parse_puzzle(puzzle).map_err(|error| error.to_string())?;
    let report = solve_board(&board, None, || false).expect("a checked board solves");
    let solution = report.solution.map(|s| s.to_line()).unwrap_or_default();
    Ok((board, report.outcome, solution))
}

fn check_stream(request: pb::SolveStreamRequest) {
    let response = answer_stream_request(request.clone());
    if request.id.len() > MAX_ID_BYTES {
        // Refused on its own, and not echoed.
        assert_eq!(response.id, "", "an overlong id is echoed");
        assert_eq!(response.outcome(), pb::Outcome::Invalid);
        let error = response.error.as_ref().expect("INVALID carries an error");
        assert!(error.message.starts_with("id is "), "{error:?}");
        let bad_request = error.get_details_bad_request().expect("a BadRequest detail");
        assert_eq!(bad_request.field_violations[0].field, "id");
        round_trip(&response);
        return;
    }
    assert_eq!(response.id, request.id, "the id is not echoed");
    let outcome = pb::Outcome::try_from(response.outcome)
        .unwrap_or_else(|_| panic!("unknown outcome {}", response.outcome));
    match expected(&request.puzzle) {
        Ok((board, domain_outcome, solution)) => {
            assert_eq!(outcome, pb_outcome(domain_outcome));
            assert!(response.error.is_none(), "{response:?}");
            assert!(response.stats.is_some(), "{response:?}");
            check_solution(&board, outcome, &response.solution, &solution);
        }
        Err(message) => {
            assert_eq!(outcome, pb::Outcome::Invalid, "{response:?}");
            assert_eq!((response.solution.as_str(), response.stats), ("", None));
            let error = response.error.as_ref().expect("INVALID carries an error");
            assert_eq!(error.code, Code::InvalidArgument as i32);
            assert!(!error.message.is_empty());
            assert_eq!(error.message, message);
            let bad_request = error
                .get_details_bad_request()
                .expect("a BadRequest detail");
            assert_eq!(bad_request.field_violations.len(), 1);
            assert_eq!(bad_request.field_violations[0].field, "puzzle");
            assert_eq!(bad_request.field_violations[0].description, message);
        }
    }
    round_trip(&response);
}

fn check_unary(request: pb::SolveRequest) {
    let answer = answer_request(request.clone());
    match (expected(&request.puzzle), answer) {
        (Ok((board, domain_outcome, solution)), Ok(response)) => {
            let outcome = pb::Outcome::try_from(response.outcome)
                .unwrap_or_else(|_| panic!("unknown outcome {}", response.outcome));
            assert_eq!(outcome, pb_outcome(domain_outcome));
            assert!(response.stats.is_some());
            check_solution(&board, outcome, &response.solution, &solution);
            round_trip(&response);
        }
        (Err(message), Err(status)) => {
            assert_eq!(status.code(), Code::InvalidArgument);
            assert!(!status.message().is_empty());
            assert_eq!(status.message(), message);
        }
        (Ok(_), Err(status)) => panic!("a valid puzzle failed: {status:?}"),
        (Err(message), Ok(response)) => panic!("invalid ({message}), yet {response:?}"),
    }
}

/// A response's solution field for `outcome`, compared with the domain's.
fn check_solution(board: &Board, outcome: pb::Outcome, solution: &str, domain_solution: &str) {
    match outcome {
        pb::Outcome::Solved | pb::Outcome::MultipleSolutions => {
            assert_eq!(solution.len(), 81, "{solution:?}");
            assert!(solution.bytes().all(|b| (b'1'..=b'9').contains(&b)));
            let solved = parse_board(solution).expect("81 digits parse");
            assert!(solved.is_solved(), "{solution} breaks the rules");
            assert!(solved.keeps_givens_of(board), "{solution} drops a given");
            if outcome == pb::Outcome::Solved {
                assert_eq!(solution, domain_solution);
            }
        }
        pb::Outcome::NoSolution => assert_eq!(solution, ""),
        other => panic!("{other:?} for a valid puzzle"),
    }
}

/// Encodes a message and decodes it back unchanged.
fn round_trip<M: Message + Default + PartialEq + std::fmt::Debug>(message: &M) {
    let bytes = message.encode_to_vec();
    assert_eq!(bytes.len(), message.encoded_len());
    assert_eq!(&M::decode(bytes.as_slice()).expect("re-decodes"), message);
}
