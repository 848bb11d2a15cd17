//! `SolveBatchRequest` and `SolveBatchResponse`, written by hand instead of
//! generated, so that decoding one cannot make a small message hold a lot
//! of memory.
//!
//! A generated decoder turns every element of a repeated field into an
//! element of a `Vec`, however small it was on the wire: an empty puzzle is
//! 2 bytes encoded and a 24-byte `String` decoded, an empty result 2 bytes
//! and over 100 decoded. A message of a few MiB could so become tens of MiB
//! before any handler could count its elements. These decoders keep at most
//! [`MAX_KEPT`] elements and only count the rest, so a decoded batch is
//! never much larger than its encoding, and the service (or client) still
//! learns how many there were and can refuse the batch as too large. The
//! wire format is exactly what `proto/sudoku.proto` declares: any protobuf
//! library reads and writes these messages as usual.

use prost::bytes::{Buf, BufMut};
use prost::encoding::{DecodeContext, WireType, message, skip_field, string};
use prost::{DecodeError, Message};

use super::SolveResult;

/// The most elements of a batch's repeated field that are decoded: one
/// more than the largest `--max-batch` a server accepts, so that any batch
/// over the limit still shows as one.
pub const MAX_KEPT: usize = 4097;

/// Many puzzles in one message (see `proto/sudoku.proto`).
#[derive(Clone, PartialEq, Default, Debug)]
pub struct SolveBatchRequest {
    /// Chosen by the client, echoed in the response.
    pub id: String,
    /// The puzzles, in order (at most [`MAX_KEPT`] after decoding).
    pub puzzles: Vec<String>,
    /// Puzzles the message held beyond [`MAX_KEPT`], counted, not kept.
    uncounted: usize,
}

impl SolveBatchRequest {
    /// A request for these puzzles.
    pub fn new(id: impl Into<String>, puzzles: Vec<String>) -> SolveBatchRequest {
        SolveBatchRequest {
            id: id.into(),
            puzzles,
            uncounted: 0,
        }
    }

    /// How many puzzles the message carried, kept or not.
    pub fn puzzle_count(&self) -> usize {
        self.puzzles.len() + self.uncounted
    }
}

impl Message for SolveBatchRequest {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        if !self.id.is_empty() {
            string::encode(1, &self.id, buf);
        }
        for puzzle in &self.puzzles {
            string::encode(2, puzzle, buf);
        }
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: DecodeContext,
    ) -> Result<(), DecodeError> {
        match tag {
            1 => string::merge(wire_type, &mut self.id, buf, ctx),
            2 if self.puzzles.len() < MAX_KEPT => {
                let mut puzzle = String::new();
                string::merge(wire_type, &mut puzzle, buf, ctx)?;
                self.puzzles.push(puzzle);
                Ok(())
            }
            2 => {
                prost::encoding::check_wire_type(WireType::LengthDelimited, wire_type)?;
                self.uncounted += 1;
                skip_field(wire_type, tag, buf, ctx)
            }
            _ => skip_field(wire_type, tag, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        let id = if self.id.is_empty() {
            0
        } else {
            string::encoded_len(1, &self.id)
        };
        id + string::encoded_len_repeated(2, &self.puzzles)
    }

    fn clear(&mut self) {
        *self = SolveBatchRequest::default();
    }
}

/// The answers to one batch (see `proto/sudoku.proto`).
#[derive(Clone, PartialEq, Default, Debug)]
pub struct SolveBatchResponse {
    /// The id of the request this answers.
    pub id: String,
    /// One result per puzzle, in order (at most [`MAX_KEPT`] after
    /// decoding).
    pub results: Vec<SolveResult>,
    /// Set, with no results, when the batch was refused as a whole.
    pub error: Option<tonic_types::pb::Status>,
    /// Results the message held beyond [`MAX_KEPT`], counted, not kept.
    uncounted: usize,
}

impl SolveBatchResponse {
    /// A response with these results.
    pub fn new(id: String, results: Vec<SolveResult>) -> SolveBatchResponse {
        SolveBatchResponse {
            id,
            results,
            error: None,
            uncounted: 0,
        }
    }

    /// A response refusing the whole batch with `error`.
    pub fn refused(id: String, error: tonic_types::pb::Status) -> SolveBatchResponse {
        SolveBatchResponse {
            id,
            results: Vec::new(),
            error: Some(error),
            uncounted: 0,
        }
    }

    /// How many results the message carried, kept or not.
    pub fn result_count(&self) -> usize {
        self.results.len() + self.uncounted
    }
}

impl Message for SolveBatchResponse {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        if !self.id.is_empty() {
            string::encode(1, &self.id, buf);
        }
        for result in &self.results {
            message::encode(2, result, buf);
        }
        if let Some(error) = &self.error {
            message::encode(3, error, buf);
        }
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: DecodeContext,
    ) -> Result<(), DecodeError> {
        match tag {
            1 => string::merge(wire_type, &mut self.id, buf, ctx),
            2 if self.results.len() < MAX_KEPT => {
                let mut result = SolveResult::default();
                message::merge(wire_type, &mut result, buf, ctx)?;
                self.results.push(result);
                Ok(())
            }
            2 => {
                prost::encoding::check_wire_type(WireType::LengthDelimited, wire_type)?;
                self.uncounted += 1;
                skip_field(wire_type, tag, buf, ctx)
            }
            3 => message::merge(
                wire_type,
                self.error.get_or_insert_with(Default::default),
                buf,
                ctx,
            ),
            _ => skip_field(wire_type, tag, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        let id = if self.id.is_empty() {
            0
        } else {
            string::encoded_len(1, &self.id)
        };
        let error = self
            .error
            .as_ref()
            .map_or(0, |error| message::encoded_len(3, error));
        id + message::encoded_len_repeated(2, &self.results) + error
    }

    fn clear(&mut self) {
        *self = SolveBatchResponse::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pb::SolveStats;

    /// The field layout the generated code would use: a request or
    /// response written by hand decodes as the same message would from
    /// any protobuf library, and back.
    #[test]
    fn the_messages_round_trip_through_their_wire_format() {
        let request = SolveBatchRequest::new("b-7", vec!["1".repeat(81), String::new()]);
        let decoded = SolveBatchRequest::decode(request.encode_to_vec().as_slice()).unwrap();
        assert_eq!(decoded, request);
        assert_eq!(request.encoded_len(), request.encode_to_vec().len());

        let result = SolveResult {
            outcome: 1,
            solution: "2".repeat(81),
            error: None,
            stats: Some(SolveStats {
                guesses: 3,
                solve_time: None,
            }),
        };
        let response = SolveBatchResponse::new("b-7".into(), vec![result, SolveResult::default()]);
        let decoded = SolveBatchResponse::decode(response.encode_to_vec().as_slice()).unwrap();
        assert_eq!(decoded, response);
        let refused = SolveBatchResponse::refused(
            String::new(),
            tonic_types::pb::Status {
                code: 3,
                message: "too many".into(),
                details: vec![],
            },
        );
        let decoded = SolveBatchResponse::decode(refused.encode_to_vec().as_slice()).unwrap();
        assert_eq!(decoded, refused);
    }

    /// Hand-encoded: field 2 repeated `count` times with empty strings.
    fn empty_elements(count: usize) -> Vec<u8> {
        [0x12, 0x00].repeat(count)
    }

    #[test]
    fn elements_past_the_cap_are_counted_and_not_kept() {
        let wire = empty_elements(100_000);
        let request = SolveBatchRequest::decode(wire.as_slice()).unwrap();
        assert_eq!(request.puzzles.len(), MAX_KEPT);
        assert_eq!(request.puzzle_count(), 100_000);
        let response = SolveBatchResponse::decode(wire.as_slice()).unwrap();
        assert_eq!(response.results.len(), MAX_KEPT);
        assert_eq!(response.result_count(), 100_000);
    }

    #[test]
    fn a_puzzle_that_is_not_utf8_fails_the_decode() {
        let wire = [0x12, 0x01, 0xff];
        assert!(SolveBatchRequest::decode(wire.as_slice()).is_err());
        let mut past_cap = empty_elements(MAX_KEPT);
        past_cap.extend([0x10, 0x01]);
        assert!(
            SolveBatchRequest::decode(past_cap.as_slice()).is_err(),
            "a varint where a string belongs"
        );
    }
}
