//! Batch results encoded before their response is, each framed as a
//! `results` field of a SolveBatchResponse, so that the response is written
//! out by copying bytes.
//!
//! The server encodes a job's results on the worker thread that solved
//! them, so that the solver threads, not the transport's, pay for the
//! encoding. The bytes can be made only here, by encoding a [`SolveResult`]
//! or a solved puzzle's fields with the one encoder of a result, and cut
//! only where a result ends; so a response built from them
//! ([`SolveBatchResponse::from_encoded`](super::SolveBatchResponse::from_encoded))
//! is always a well-formed message.

use prost::bytes::Bytes;

use super::batch::ResultFields;
use super::{Grade, SolveResult, SolveStats};

/// About the encoded size of a solved puzzle's result without a grade
/// (the 81 digits, the outcome and the stats, framed): what
/// [`ResultsEncoder::with_capacity`] reserves per result.
const TYPICAL_RESULT_BYTES: usize = 100;

/// Encodes results, one at a time, into [`EncodedResults`].
#[derive(Debug, Default)]
pub struct ResultsEncoder {
    bytes: Vec<u8>,
    /// Where each result ends in `bytes`.
    ends: Vec<usize>,
}

impl ResultsEncoder {
    /// An encoder with room for about `results` results.
    pub fn with_capacity(results: usize) -> ResultsEncoder {
        ResultsEncoder {
            bytes: Vec::with_capacity(results.saturating_mul(TYPICAL_RESULT_BYTES)),
            ends: Vec::with_capacity(results),
        }
    }

    /// Adds `result`.
    pub fn push(&mut self, result: &SolveResult) {
        self.add(result.fields());
    }

    /// Adds the result of a puzzle that got a verdict: `outcome` (an
    /// [`Outcome`](super::Outcome) value), the `solution` (empty for none),
    /// `stats` and the `grade` if any, and no error. The same bytes as
    /// [`ResultsEncoder::push`] of the [`SolveResult`] with those fields,
    /// without building one.
    pub fn push_solved(
        &mut self,
        outcome: i32,
        solution: &str,
        stats: &SolveStats,
        grade: Option<&Grade>,
    ) {
        self.add(ResultFields {
            outcome,
            solution: solution.as_bytes(),
            error: None,
            stats: Some(stats),
            grade,
        });
    }

    fn add(&mut self, fields: ResultFields<'_>) {
        fields.encode_as_result(&mut self.bytes);
        self.ends.push(self.bytes.len());
    }

    /// The results added, in order.
    pub fn finish(self) -> EncodedResults {
        EncodedResults {
            bytes: Bytes::from(self.bytes),
            ends: self.ends,
        }
    }
}

/// Results of a batch, encoded in order (see [`ResultsEncoder`]), to be
/// sent in runs of consecutive results.
#[derive(Debug, Default, Clone)]
pub struct EncodedResults {
    bytes: Bytes,
    /// Where each result ends in `bytes`.
    ends: Vec<usize>,
}

impl EncodedResults {
    /// How many results it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when it holds none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Results `from..to`, sharing these bytes rather than copying them.
    ///
    /// # Panics
    ///
    /// If `from > to` or `to > self.len()`.
    pub fn slice(&self, from: usize, to: usize) -> EncodedRun {
        assert!(
            from <= to && to <= self.len(),
            "results {from}..{to} of {}",
            self.len()
        );
        EncodedRun(self.bytes.slice(self.start_of(from)..self.start_of(to)))
    }

    /// Where result `index` starts (or, at `len()`, where the last ends).
    fn start_of(&self, index: usize) -> usize {
        index.checked_sub(1).map_or(0, |before| self.ends[before])
    }
}

/// Consecutive results of an [`EncodedResults`], whole, for
/// [`SolveBatchResponse::from_encoded`](super::SolveBatchResponse::from_encoded).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct EncodedRun(Bytes);

impl EncodedRun {
    /// Its encoded length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when it holds no result.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Its bytes: each result framed as a `results` field of a
    /// SolveBatchResponse.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}
