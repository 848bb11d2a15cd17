//! prost's own code for the three messages written by hand in
//! `src/pb/batch.rs`, generated from the same descriptors by build.rs (for
//! tests only), and conversions, field by field, between each hand-coded
//! message and its twin: the reference the hand codec is tested against.
//!
//! The conversions name every field of the twins, with no `..`: a field
//! added to the proto stops them compiling until it is converted, and so
//! checked, too.

use std::fmt::Debug;

use prost::Message;

use crate::pb;

/// The generated code: the whole package, of which the tests use only the
/// three twins (so dead code is allowed, and the lints of code we write).
#[allow(dead_code, clippy::all)]
pub(crate) mod generated {
    include!(concat!(env!("OUT_DIR"), "/twin/sudoku.v1.rs"));
}

/// A message written by hand, and its generated twin.
pub(crate) trait Twin: Message + Default + PartialEq + Debug {
    /// prost's code for the same message.
    type Generated: Message + Default + PartialEq + Debug + Clone;

    /// The same value as the twin. Panics for a decoded message that
    /// counted elements past [`pb::MAX_KEPT`] without keeping them, which
    /// has no twin.
    fn to_twin(&self) -> Self::Generated;

    /// The twin's value as this message.
    fn from_twin(twin: Self::Generated) -> Self;
}

impl Twin for pb::SolveBatchRequest {
    type Generated = generated::SolveBatchRequest;

    fn to_twin(&self) -> generated::SolveBatchRequest {
        assert_eq!(
            self.puzzle_count(),
            self.puzzles().len(),
            "puzzles past the cap"
        );
        generated::SolveBatchRequest {
            id: self.id.clone(),
            puzzles: self
                .puzzles()
                .iter()
                .map(|puzzle| puzzle.as_str().to_owned())
                .collect(),
            grade: self.grade,
        }
    }

    fn from_twin(twin: generated::SolveBatchRequest) -> pb::SolveBatchRequest {
        let generated::SolveBatchRequest { id, puzzles, grade } = twin;
        pb::SolveBatchRequest::new(id, puzzles).graded(grade)
    }
}

impl Twin for pb::SolveResult {
    type Generated = generated::SolveResult;

    fn to_twin(&self) -> generated::SolveResult {
        let pb::SolveResult {
            outcome,
            solution,
            error,
            stats,
            grade,
        } = self;
        generated::SolveResult {
            outcome: *outcome,
            solution: solution.as_str().to_owned(),
            error: error.clone(),
            stats: *stats,
            grade: grade.clone(),
        }
    }

    fn from_twin(twin: generated::SolveResult) -> pb::SolveResult {
        let generated::SolveResult {
            outcome,
            solution,
            error,
            stats,
            grade,
        } = twin;
        pb::SolveResult {
            outcome,
            solution: solution.into(),
            error,
            stats,
            grade,
        }
    }
}

impl Twin for pb::SolveBatchResponse {
    type Generated = generated::SolveBatchResponse;

    /// The results of a response built from encoded results
    /// ([`pb::SolveBatchResponse::from_encoded`]) are not seen: compare
    /// such a response by its bytes.
    fn to_twin(&self) -> generated::SolveBatchResponse {
        assert_eq!(
            self.result_count(),
            self.results.len(),
            "results past the cap"
        );
        generated::SolveBatchResponse {
            id: self.id.clone(),
            results: self.results.iter().map(pb::SolveResult::to_twin).collect(),
            error: self.error.clone(),
        }
    }

    fn from_twin(twin: generated::SolveBatchResponse) -> pb::SolveBatchResponse {
        let generated::SolveBatchResponse { id, results, error } = twin;
        let results = results
            .into_iter()
            .map(pb::SolveResult::from_twin)
            .collect();
        let mut response = pb::SolveBatchResponse::new(id, results);
        response.error = error;
        response
    }
}
