//! `SolveBatchRequest`, `SolveBatchResponse` and `SolveResult`, written by
//! hand instead of generated, so that decoding one cannot make a small
//! message hold a lot of memory, and so that their text is not copied.
//!
//! A generated decoder turns every element of a repeated field into an
//! element of a `Vec`, however small it was on the wire: an empty puzzle is
//! 2 bytes encoded and a 24-byte `String` decoded, an empty result 2 bytes
//! and over 100 decoded. A message of a few MiB could so become tens of MiB
//! before any handler could count its elements. These decoders keep at most
//! [`MAX_KEPT`] elements and only count the rest, so a decoded batch is
//! never much larger than its encoding, and the service (or client) still
//! learns how many there were and can refuse the batch as too large. A
//! request's puzzles are not even copied: each shares the buffer the
//! message was read into ([`SharedText`]). The
//! wire format is exactly what `proto/sudoku.proto` declares: any protobuf
//! library reads and writes these messages as usual.
//!
//! Each message names the fields its codec handles once, as constants that
//! its decoder's match and its encoder use, listed in its `FIELDS`: the
//! tests hold that list against the proto's descriptor, and the encoding
//! and decoding against prost's own code for the same messages
//! (`src/pb/twin.rs`, `src/pb/codec_tests.rs`).

use std::fmt;

use prost::bytes::{Buf, BufMut, Bytes};
use prost::encoding::{
    DecodeContext, WireType, bool, check_wire_type, encode_key, encode_varint, encoded_len_varint,
    int32, key_len, message, skip_field, string,
};
use prost::{DecodeError, Message};

use super::{EncodedRun, Grade, Outcome, SolveStats};

/// The most elements of a batch's repeated field that are decoded: one
/// more than the largest `--max-batch` a server accepts, so that any batch
/// over the limit still shows as one.
pub const MAX_KEPT: usize = 4097;

/// A string field as a decoded batch message holds it (a puzzle, a
/// solution): UTF-8 (checked when it was made), sharing the buffer its
/// message was read into rather than copied out of it, so that decoding a
/// batch allocates nothing per puzzle.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct SharedText(Bytes);

impl SharedText {
    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).expect("checked to be UTF-8 when it was made")
    }

    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True for empty text.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl SharedText {
    /// `text` as puzzle text if it is UTF-8, sharing its buffer; else
    /// `text` back.
    pub fn from_utf8(text: Bytes) -> Result<SharedText, Bytes> {
        match std::str::from_utf8(&text) {
            Ok(_) => Ok(SharedText(text)),
            Err(_) => Err(text),
        }
    }
}

impl SharedText {
    /// `texts` copied, in order, into one buffer of their own: each then
    /// holds only its own bytes, where a decoded text holds the whole
    /// buffer its message was read into (which may be far larger than the
    /// texts a server keeps of it, and is not what they are charged).
    pub fn copied_together<'a>(
        texts: impl Iterator<Item = &'a SharedText> + Clone,
    ) -> Vec<SharedText> {
        let total = texts.clone().map(SharedText::len).sum();
        let mut buffer = Vec::with_capacity(total);
        let mut ends = Vec::new();
        for text in texts {
            buffer.extend_from_slice(&text.0);
            ends.push(buffer.len());
        }
        let buffer = Bytes::from(buffer);
        let mut start = 0;
        ends.into_iter()
            .map(|end| {
                let text = SharedText(buffer.slice(start..end));
                start = end;
                text
            })
            .collect()
    }
}

impl From<String> for SharedText {
    fn from(text: String) -> Self {
        SharedText(Bytes::from(text))
    }
}

impl From<&str> for SharedText {
    fn from(text: &str) -> Self {
        SharedText(Bytes::copy_from_slice(text.as_bytes()))
    }
}

impl std::ops::Deref for SharedText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for SharedText {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<&str> for SharedText {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<String> for SharedText {
    fn eq(&self, other: &String) -> bool {
        self.0 == other.as_bytes()
    }
}

impl fmt::Debug for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// Many puzzles in one message (see `proto/sudoku.proto`).
#[derive(Clone, PartialEq, Default, Debug)]
pub struct SolveBatchRequest {
    /// Chosen by the client, echoed in the response.
    pub id: String,
    /// The puzzles, in order (at most [`MAX_KEPT`] after decoding).
    puzzles: Vec<SharedText>,
    /// Puzzles the message held beyond [`MAX_KEPT`], counted, not kept.
    uncounted: usize,
    /// Also grade every puzzle.
    pub grade: bool,
}

impl SolveBatchRequest {
    const ID: u32 = 1;
    const PUZZLES: u32 = 2;
    const GRADE: u32 = 3;
    /// The fields this codec reads and writes, by number and proto name
    /// (held against the descriptor by the tests).
    #[cfg(test)]
    pub(super) const FIELDS: &'static [(u32, &'static str)] = &[
        (Self::ID, "id"),
        (Self::PUZZLES, "puzzles"),
        (Self::GRADE, "grade"),
    ];

    /// A request for these puzzles.
    pub fn new(id: impl Into<String>, puzzles: Vec<String>) -> SolveBatchRequest {
        SolveBatchRequest::from_texts(id, puzzles.into_iter().map(SharedText::from).collect())
    }

    /// A request for these puzzles, already in shared buffers.
    pub fn from_texts(id: impl Into<String>, puzzles: Vec<SharedText>) -> SolveBatchRequest {
        SolveBatchRequest {
            id: id.into(),
            puzzles,
            uncounted: 0,
            grade: false,
        }
    }

    /// The same request, asking (or not) for every puzzle's grade.
    pub fn graded(self, grade: bool) -> SolveBatchRequest {
        SolveBatchRequest { grade, ..self }
    }

    /// The puzzles kept, in order.
    pub fn puzzles(&self) -> &[SharedText] {
        &self.puzzles
    }

    /// How many puzzles the message carried, kept or not.
    pub fn puzzle_count(&self) -> usize {
        self.puzzles.len() + self.uncounted
    }

    /// The id, the puzzles kept, and how many the message carried.
    pub fn into_parts(self) -> (String, Vec<SharedText>, usize) {
        let count = self.puzzle_count();
        (self.id, self.puzzles, count)
    }
}

impl Message for SolveBatchRequest {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        encode_id(Self::ID, &self.id, buf);
        for puzzle in &self.puzzles {
            encode_text(Self::PUZZLES, &puzzle.0, buf);
        }
        if self.grade {
            bool::encode(Self::GRADE, &self.grade, buf);
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
            Self::ID => string::merge(wire_type, &mut self.id, buf, ctx),
            Self::PUZZLES if self.puzzles.len() < MAX_KEPT => {
                self.puzzles.push(shared_text(wire_type, buf, ctx)?);
                Ok(())
            }
            Self::PUZZLES => count_beyond_cap(&mut self.uncounted, wire_type, tag, buf, ctx),
            Self::GRADE => bool::merge(wire_type, &mut self.grade, buf, ctx),
            _ => skip_field(wire_type, tag, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        let id = id_len(Self::ID, &self.id);
        let puzzles: usize = self
            .puzzles
            .iter()
            .map(|puzzle| text_len(Self::PUZZLES, puzzle.len()))
            .sum();
        let grade = if self.grade {
            bool::encoded_len(Self::GRADE, &self.grade)
        } else {
            0
        };
        id + puzzles + grade
    }

    fn clear(&mut self) {
        *self = SolveBatchRequest::default();
    }
}

/// A string field's value, taken from `buf` without copying when `buf` is
/// the buffer of a received message, and checked to be UTF-8 as prost
/// checks its strings (failing with prost's own error when it is not).
fn shared_text(
    wire_type: WireType,
    buf: &mut impl Buf,
    ctx: DecodeContext,
) -> Result<SharedText, DecodeError> {
    let mut text = Bytes::new();
    prost::encoding::bytes::merge(wire_type, &mut text, buf, ctx.clone())?;
    if std::str::from_utf8(&text).is_ok() {
        return Ok(SharedText(text));
    }
    let mut field = Vec::with_capacity(text.len() + 10);
    encode_varint(text.len() as u64, &mut field);
    field.extend_from_slice(&text);
    let refused = string::merge(wire_type, &mut String::new(), &mut field.as_slice(), ctx);
    Err(refused.expect_err("text that is not UTF-8 is refused"))
}

/// The answer to one puzzle of a batch (see `proto/sudoku.proto`).
#[derive(Clone, PartialEq, Default, Debug)]
pub struct SolveResult {
    /// An [`Outcome`] value.
    pub outcome: i32,
    /// The solution's 81 digits, or empty.
    pub solution: SharedText,
    /// Why there is no verdict, if there is none.
    pub error: Option<tonic_types::pb::Status>,
    /// How the solver got there.
    pub stats: Option<SolveStats>,
    /// The puzzle's grade, when the batch asked for it.
    pub grade: Option<Grade>,
}

impl SolveResult {
    const OUTCOME: u32 = 1;
    const SOLUTION: u32 = 2;
    const ERROR: u32 = 3;
    const STATS: u32 = 4;
    const GRADE: u32 = 5;
    /// The fields this codec reads and writes, by number and proto name
    /// (held against the descriptor by the tests).
    #[cfg(test)]
    pub(super) const FIELDS: &'static [(u32, &'static str)] = &[
        (Self::OUTCOME, "outcome"),
        (Self::SOLUTION, "solution"),
        (Self::ERROR, "error"),
        (Self::STATS, "stats"),
        (Self::GRADE, "grade"),
    ];

    /// The outcome, or [`Outcome::Unspecified`] for a value this build
    /// does not know (as prost's generated getters do).
    pub fn outcome(&self) -> Outcome {
        Outcome::try_from(self.outcome).unwrap_or_default()
    }

    /// Its fields, borrowed, for the one encoder of a result.
    pub(super) fn fields(&self) -> ResultFields<'_> {
        ResultFields {
            outcome: self.outcome,
            solution: &self.solution.0,
            error: self.error.as_ref(),
            stats: self.stats.as_ref(),
            grade: self.grade.as_ref(),
        }
    }
}

/// A result's fields, borrowed: what encodes a [`SolveResult`], both the
/// message and the results encoded without one (see
/// [`ResultsEncoder::push_solved`](super::ResultsEncoder::push_solved)),
/// so that the two cannot write different bytes.
pub(super) struct ResultFields<'a> {
    pub outcome: i32,
    /// UTF-8.
    pub solution: &'a [u8],
    pub error: Option<&'a tonic_types::pb::Status>,
    pub stats: Option<&'a SolveStats>,
    pub grade: Option<&'a Grade>,
}

impl ResultFields<'_> {
    /// Writes the fields, each unless it is proto3's default.
    fn encode_raw(&self, buf: &mut impl BufMut) {
        if self.outcome != 0 {
            int32::encode(SolveResult::OUTCOME, &self.outcome, buf);
        }
        if !self.solution.is_empty() {
            encode_text(SolveResult::SOLUTION, self.solution, buf);
        }
        if let Some(error) = self.error {
            message::encode(SolveResult::ERROR, error, buf);
        }
        if let Some(stats) = self.stats {
            message::encode(SolveResult::STATS, stats, buf);
        }
        if let Some(grade) = self.grade {
            message::encode(SolveResult::GRADE, grade, buf);
        }
    }

    /// The length [`ResultFields::encode_raw`] writes.
    fn encoded_len(&self) -> usize {
        let outcome = if self.outcome == 0 {
            0
        } else {
            int32::encoded_len(SolveResult::OUTCOME, &self.outcome)
        };
        let solution = if self.solution.is_empty() {
            0
        } else {
            text_len(SolveResult::SOLUTION, self.solution.len())
        };
        let error = self
            .error
            .map_or(0, |error| message::encoded_len(SolveResult::ERROR, error));
        let stats = self
            .stats
            .map_or(0, |stats| message::encoded_len(SolveResult::STATS, stats));
        let grade = self
            .grade
            .map_or(0, |grade| message::encoded_len(SolveResult::GRADE, grade));
        outcome + solution + error + stats + grade
    }

    /// Writes the result as a `results` field of a SolveBatchResponse.
    pub(super) fn encode_as_result(&self, buf: &mut impl BufMut) {
        encode_key(SolveBatchResponse::RESULTS, WireType::LengthDelimited, buf);
        encode_varint(self.encoded_len() as u64, buf);
        self.encode_raw(buf);
    }
}

impl Message for SolveResult {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        self.fields().encode_raw(buf);
    }

    fn merge_field(
        &mut self,
        tag: u32,
        wire_type: WireType,
        buf: &mut impl Buf,
        ctx: DecodeContext,
    ) -> Result<(), DecodeError> {
        match tag {
            Self::OUTCOME => int32::merge(wire_type, &mut self.outcome, buf, ctx),
            Self::SOLUTION => {
                self.solution = shared_text(wire_type, buf, ctx)?;
                Ok(())
            }
            Self::ERROR => message::merge(
                wire_type,
                self.error.get_or_insert_with(Default::default),
                buf,
                ctx,
            ),
            Self::STATS => message::merge(
                wire_type,
                self.stats.get_or_insert_with(Default::default),
                buf,
                ctx,
            ),
            Self::GRADE => message::merge(
                wire_type,
                self.grade.get_or_insert_with(Default::default),
                buf,
                ctx,
            ),
            _ => skip_field(wire_type, tag, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        self.fields().encoded_len()
    }

    fn clear(&mut self) {
        *self = SolveResult::default();
    }
}

/// Writes an `id` as field `tag`, unless it is empty (proto3's default).
fn encode_id(tag: u32, id: &String, buf: &mut impl BufMut) {
    if !id.is_empty() {
        string::encode(tag, id, buf);
    }
}

/// The encoded length of an `id` written by [`encode_id`].
fn id_len(tag: u32, id: &String) -> usize {
    if id.is_empty() {
        0
    } else {
        string::encoded_len(tag, id)
    }
}

/// Skips an element of a repeated field past [`MAX_KEPT`], counting it in
/// `uncounted`.
fn count_beyond_cap(
    uncounted: &mut usize,
    wire_type: WireType,
    tag: u32,
    buf: &mut impl Buf,
    ctx: DecodeContext,
) -> Result<(), DecodeError> {
    check_wire_type(WireType::LengthDelimited, wire_type)?;
    *uncounted += 1;
    skip_field(wire_type, tag, buf, ctx)
}

/// Writes text (UTF-8) as field `tag`.
fn encode_text(tag: u32, text: &[u8], buf: &mut impl BufMut) {
    encode_key(tag, WireType::LengthDelimited, buf);
    encode_varint(text.len() as u64, buf);
    buf.put_slice(text);
}

/// The encoded length of text of `len` bytes as field `tag`.
fn text_len(tag: u32, len: usize) -> usize {
    key_len(tag) + encoded_len_varint(len as u64) + len
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
    /// Results already encoded, sent after `results` (see
    /// [`SolveBatchResponse::from_encoded`]).
    encoded: Vec<EncodedRun>,
}

impl SolveBatchResponse {
    const ID: u32 = 1;
    const RESULTS: u32 = 2;
    const ERROR: u32 = 3;
    /// The fields this codec reads and writes, by number and proto name
    /// (held against the descriptor by the tests).
    #[cfg(test)]
    pub(super) const FIELDS: &'static [(u32, &'static str)] = &[
        (Self::ID, "id"),
        (Self::RESULTS, "results"),
        (Self::ERROR, "error"),
    ];

    /// A response with these results.
    pub fn new(id: String, results: Vec<SolveResult>) -> SolveBatchResponse {
        SolveBatchResponse {
            id,
            results,
            error: None,
            uncounted: 0,
            encoded: Vec::new(),
        }
    }

    /// A response refusing the whole batch with `error`.
    pub fn refused(id: String, error: tonic_types::pb::Status) -> SolveBatchResponse {
        SolveBatchResponse {
            error: Some(error),
            ..SolveBatchResponse::new(id, Vec::new())
        }
    }

    /// A response whose results are already encoded, in order, in `runs`
    /// (see [`EncodedResults`](super::EncodedResults)), so that it is
    /// written out by copying their bytes. This is how the server sends
    /// results, encoded by its worker threads; a decoded response always
    /// has its results in `results`.
    pub fn from_encoded(id: String, runs: Vec<EncodedRun>) -> SolveBatchResponse {
        SolveBatchResponse {
            encoded: runs,
            ..SolveBatchResponse::new(id, Vec::new())
        }
    }

    /// How many results the message carried, kept or not.
    pub fn result_count(&self) -> usize {
        self.results.len() + self.uncounted
    }
}

impl Message for SolveBatchResponse {
    fn encode_raw(&self, buf: &mut impl BufMut) {
        encode_id(Self::ID, &self.id, buf);
        for result in &self.results {
            message::encode(Self::RESULTS, result, buf);
        }
        for run in &self.encoded {
            buf.put_slice(run.as_bytes());
        }
        if let Some(error) = &self.error {
            message::encode(Self::ERROR, error, buf);
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
            Self::ID => string::merge(wire_type, &mut self.id, buf, ctx),
            Self::RESULTS if self.results.len() < MAX_KEPT => {
                let mut result = SolveResult::default();
                message::merge(wire_type, &mut result, buf, ctx)?;
                self.results.push(result);
                Ok(())
            }
            Self::RESULTS => count_beyond_cap(&mut self.uncounted, wire_type, tag, buf, ctx),
            Self::ERROR => message::merge(
                wire_type,
                self.error.get_or_insert_with(Default::default),
                buf,
                ctx,
            ),
            _ => skip_field(wire_type, tag, buf, ctx),
        }
    }

    fn encoded_len(&self) -> usize {
        let id = id_len(Self::ID, &self.id);
        let error = self
            .error
            .as_ref()
            .map_or(0, |error| message::encoded_len(Self::ERROR, error));
        let encoded: usize = self.encoded.iter().map(EncodedRun::len).sum();
        id + message::encoded_len_repeated(Self::RESULTS, &self.results) + encoded + error
    }

    fn clear(&mut self) {
        *self = SolveBatchResponse::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field layout the generated code would use: a request or
    /// response written by hand decodes as the same message would from
    /// any protobuf library, and back.
    #[test]
    fn the_messages_round_trip_through_their_wire_format() {
        let request = SolveBatchRequest::new("b-7", vec!["1".repeat(81), String::new()]);
        let decoded = SolveBatchRequest::decode(request.encode_to_vec().as_slice()).unwrap();
        assert_eq!(decoded, request);
        assert_eq!(request.encoded_len(), request.encode_to_vec().len());
        let graded = request.graded(true);
        let decoded = SolveBatchRequest::decode(graded.encode_to_vec().as_slice()).unwrap();
        assert!(decoded.grade);
        assert_eq!(decoded, graded);
        assert_eq!(graded.encoded_len(), graded.encode_to_vec().len());

        let result = SolveResult {
            outcome: 1,
            solution: "2".repeat(81).into(),
            error: None,
            stats: Some(SolveStats {
                guesses: 3,
                solve_time: None,
            }),
            grade: Some(Grade {
                rating: 3.2,
                level: 3,
                hardest_technique: "X-Wing".into(),
                ..Grade::default()
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
        assert_eq!(request.puzzles().len(), MAX_KEPT);
        assert_eq!(request.puzzle_count(), 100_000);
        let response = SolveBatchResponse::decode(wire.as_slice()).unwrap();
        assert_eq!(response.results.len(), MAX_KEPT);
        assert_eq!(response.result_count(), 100_000);
    }

    #[test]
    fn texts_copied_together_hold_only_their_own_bytes() {
        let wire =
            SolveBatchRequest::new("b", vec!["12".into(), "345".into(), "x".repeat(100_000)])
                .encode_to_vec();
        let decoded = SolveBatchRequest::decode(Bytes::from(wire)).unwrap();
        let kept: Vec<&SharedText> = decoded.puzzles()[..2].iter().collect();
        let copied = SharedText::copied_together(kept.iter().copied());
        assert_eq!(copied, ["12", "345"]);
        drop(decoded);
        // The copies share a buffer of five bytes, not the message's.
        assert_eq!(copied[0].0.len() + copied[1].0.len(), 5);
        assert_eq!(copied[1].0.as_ptr(), copied[0].0.as_ptr().wrapping_add(2));
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
