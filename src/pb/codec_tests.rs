//! The hand codec of `src/pb/batch.rs` against prost's own code for the
//! same messages (their twins, `src/pb/twin.rs`) and against the proto's
//! descriptor.
//!
//! * Property tests: for any value within the service's caps, the hand
//!   encoder writes the bytes prost writes, and each side decodes the
//!   other's bytes to that value; results encoded ahead of their response
//!   ([`ResultsEncoder`]) make the bytes of prost's response holding them.
//! * Descriptor tests: each hand codec lists exactly the fields the proto
//!   declares for its message, and its decoder reads every one of them.

use std::collections::BTreeSet;

use proptest::prelude::*;
use prost::Message;
use prost::bytes::Bytes;
use prost::encoding::{WireType, encode_key};
use prost_types::field_descriptor_proto::Type;
use prost_types::{FieldDescriptorProto, FileDescriptorSet};

use super::twin::{Twin, generated};
use super::{
    FILE_DESCRIPTOR_SET, Grade, MAX_KEPT, ResultsEncoder, SolveBatchRequest, SolveBatchResponse,
    SolveResult, SolveStats, TechniqueCount,
};

/// Text of at most `chars` characters, each any Unicode scalar value: at
/// most 4 × `chars` bytes of UTF-8.
fn text(chars: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..=chars)
        .prop_map(|letters| letters.into_iter().collect::<String>())
}

/// An id of at most 256 bytes, the cap the service puts on ids.
fn id() -> impl Strategy<Value = String> {
    text(64)
}

/// Puzzle text of at most 2048 bytes, the cap on puzzles; mostly short,
/// to keep the cases quick.
fn puzzle() -> impl Strategy<Value = String> {
    prop_oneof![3 => text(100), 1 => text(512)]
}

fn status() -> impl Strategy<Value = tonic_types::pb::Status> {
    let detail = (text(32), prop::collection::vec(any::<u8>(), 0..48))
        .prop_map(|(type_url, value)| prost_types::Any { type_url, value });
    (any::<i32>(), text(64), prop::collection::vec(detail, 0..4)).prop_map(
        |(code, message, details)| tonic_types::pb::Status {
            code,
            message,
            details,
        },
    )
}

fn stats() -> impl Strategy<Value = SolveStats> {
    let time = (any::<i64>(), any::<i32>())
        .prop_map(|(seconds, nanos)| prost_types::Duration { seconds, nanos });
    (any::<u64>(), prop::option::of(time)).prop_map(|(guesses, solve_time)| SolveStats {
        guesses,
        solve_time,
    })
}

fn grade() -> impl Strategy<Value = Grade> {
    let technique =
        (text(24), any::<u32>()).prop_map(|(technique, count)| TechniqueCount { technique, count });
    let rating = || prop_oneof![Just(0.0), 0.0..20.0f64, -1.0e9..1.0e9f64];
    (
        (rating(), rating(), rating()),
        any::<i32>(),
        text(24),
        prop::collection::vec(technique, 0..12),
        any::<bool>(),
        text(48),
    )
        .prop_map(
            |(ratings, level, hardest_technique, techniques, stalled, stalled_reason)| {
                let (rating, pearl, diamond) = ratings;
                Grade {
                    rating,
                    level,
                    hardest_technique,
                    techniques,
                    stalled,
                    stalled_reason,
                    pearl,
                    diamond,
                }
            },
        )
}

/// An outcome: mostly one the enum names, sometimes any value.
fn outcome() -> impl Strategy<Value = i32> {
    prop_oneof![0..=6i32, any::<i32>()]
}

/// A solution: none, 81 digits, or any text.
fn solution() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[1-9]{81}", text(96)]
}

/// Any result, every field set or not.
fn result() -> impl Strategy<Value = generated::SolveResult> {
    (
        outcome(),
        solution(),
        prop::option::of(status()),
        prop::option::of(stats()),
        prop::option::of(grade()),
    )
        .prop_map(
            |(outcome, solution, error, stats, grade)| generated::SolveResult {
                outcome,
                solution,
                error,
                stats,
                grade,
            },
        )
}

/// A result with a verdict: stats, no error (what
/// [`ResultsEncoder::push_solved`] writes).
fn verdict() -> impl Strategy<Value = generated::SolveResult> {
    (outcome(), solution(), stats(), prop::option::of(grade())).prop_map(
        |(outcome, solution, stats, grade)| generated::SolveResult {
            outcome,
            solution,
            error: None,
            stats: Some(stats),
            grade,
        },
    )
}

fn request() -> impl Strategy<Value = generated::SolveBatchRequest> {
    (id(), prop::collection::vec(puzzle(), 0..=32), any::<bool>())
        .prop_map(|(id, puzzles, grade)| generated::SolveBatchRequest { id, puzzles, grade })
}

fn response() -> impl Strategy<Value = generated::SolveBatchResponse> {
    (
        id(),
        prop::collection::vec(result(), 0..=24),
        prop::option::of(status()),
    )
        .prop_map(|(id, results, error)| generated::SolveBatchResponse { id, results, error })
}

/// A result to encode ahead, and whether through
/// [`ResultsEncoder::push_solved`] (a verdict's fields) rather than
/// [`ResultsEncoder::push`].
fn encoded_ahead() -> impl Strategy<Value = (generated::SolveResult, bool)> {
    prop_oneof![
        result().prop_map(|result| (result, false)),
        verdict().prop_map(|result| (result, true)),
    ]
}

/// The hand codec and prost agree on `twin`'s value: the hand encoder
/// writes prost's bytes, and its length, and each side decodes the other's
/// bytes to that value.
fn agrees<H: Twin>(twin: H::Generated) -> Result<(), TestCaseError> {
    let hand = H::from_twin(twin.clone());
    let twin_bytes = twin.encode_to_vec();
    let hand_bytes = hand.encode_to_vec();
    prop_assert_eq!(&hand_bytes, &twin_bytes, "the hand encoder's bytes");
    prop_assert_eq!(hand.encoded_len(), twin_bytes.len(), "its encoded_len");

    let read_by_hand = H::decode(Bytes::from(twin_bytes))
        .map_err(|error| TestCaseError::fail(format!("prost's bytes, decoded by hand: {error}")))?;
    prop_assert_eq!(&read_by_hand, &hand);
    prop_assert_eq!(read_by_hand.to_twin(), twin.clone());

    let read_by_prost =
        <H::Generated as Message>::decode(hand_bytes.as_slice()).map_err(|error| {
            TestCaseError::fail(format!("the hand bytes, decoded by prost: {error}"))
        })?;
    prop_assert_eq!(read_by_prost, twin);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn requests_agree_with_prost(twin in request()) {
        agrees::<SolveBatchRequest>(twin)?;
    }

    #[test]
    fn results_agree_with_prost(twin in result()) {
        agrees::<SolveResult>(twin)?;
    }

    #[test]
    fn responses_agree_with_prost(twin in response()) {
        agrees::<SolveBatchResponse>(twin)?;
    }

    /// Results encoded ahead, through either door, and sent in runs cut
    /// at any results, make the bytes prost writes for a response with
    /// those results.
    #[test]
    fn results_encoded_ahead_make_prosts_response(
        response_id in id(),
        ahead in prop::collection::vec(encoded_ahead(), 0..=24),
        cuts in prop::collection::vec(0..=24usize, 0..4),
    ) {
        let mut encoder = ResultsEncoder::with_capacity(ahead.len());
        for (result, solved) in &ahead {
            match (*solved, result) {
                (
                    true,
                    generated::SolveResult {
                        outcome,
                        solution,
                        error: None,
                        stats: Some(stats),
                        grade,
                    },
                ) => encoder.push_solved(*outcome, solution, stats, grade.as_ref()),
                _ => encoder.push(&SolveResult::from_twin(result.clone())),
            }
        }
        let encoded = encoder.finish();
        prop_assert_eq!(encoded.len(), ahead.len());
        let mut bounds: Vec<usize> = cuts.iter().map(|&cut| cut.min(ahead.len())).collect();
        bounds.extend([0, ahead.len()]);
        bounds.sort_unstable();
        let runs = bounds
            .windows(2)
            .map(|run| encoded.slice(run[0], run[1]))
            .collect();
        let response = SolveBatchResponse::from_encoded(response_id.clone(), runs);
        let twin = generated::SolveBatchResponse {
            id: response_id,
            results: ahead.into_iter().map(|(result, _)| result).collect(),
            error: None,
        };
        prop_assert_eq!(response.encode_to_vec(), twin.encode_to_vec());
        prop_assert_eq!(response.encoded_len(), twin.encoded_len());
    }
}

/// Past [`MAX_KEPT`], the hand decoders keep the first elements prost
/// wrote, in order, and count the rest.
#[test]
fn past_the_cap_the_first_elements_are_kept_and_the_rest_counted() {
    let count = MAX_KEPT + 3;
    let request = generated::SolveBatchRequest {
        id: "past".into(),
        puzzles: (1..=count).map(|index| index.to_string()).collect(),
        grade: true,
    };
    let decoded = SolveBatchRequest::decode(request.encode_to_vec().as_slice()).unwrap();
    assert_eq!(decoded.puzzle_count(), count);
    assert_eq!(decoded.puzzles(), &request.puzzles[..MAX_KEPT]);
    assert_eq!((decoded.id.as_str(), decoded.grade), ("past", true));

    let response = generated::SolveBatchResponse {
        id: "past".into(),
        results: (1..=count)
            .map(|index| generated::SolveResult {
                solution: index.to_string(),
                ..Default::default()
            })
            .collect(),
        error: None,
    };
    let decoded = SolveBatchResponse::decode(response.encode_to_vec().as_slice()).unwrap();
    assert_eq!(decoded.result_count(), count);
    let kept: Vec<generated::SolveResult> =
        decoded.results.iter().map(SolveResult::to_twin).collect();
    assert_eq!(kept, &response.results[..MAX_KEPT]);
    assert_eq!(decoded.id, "past");
}

/// The fields a hand codec lists: number and proto name.
type Fields = &'static [(u32, &'static str)];

/// The messages written by hand, each with the fields its codec lists.
fn hand_coded() -> [(&'static str, Fields); 3] {
    [
        ("SolveBatchRequest", SolveBatchRequest::FIELDS),
        ("SolveBatchResponse", SolveBatchResponse::FIELDS),
        ("SolveResult", SolveResult::FIELDS),
    ]
}

/// The fields `proto/sudoku.proto` declares for `message`, from the
/// descriptor set the server's reflection serves.
fn declared_fields(message: &str) -> Vec<FieldDescriptorProto> {
    let set = FileDescriptorSet::decode(FILE_DESCRIPTOR_SET).expect("the descriptor set decodes");
    let file = set
        .file
        .into_iter()
        .find(|file| file.package() == "sudoku.v1")
        .expect("sudoku.v1 is in the descriptor set");
    file.message_type
        .into_iter()
        .find(|described| described.name() == message)
        .unwrap_or_else(|| panic!("sudoku.v1 has no {message}"))
        .field
}

fn number(field: &FieldDescriptorProto) -> u32 {
    u32::try_from(field.number()).expect("field numbers are positive")
}

#[test]
fn each_hand_codec_lists_exactly_the_fields_of_its_message() {
    for (message, listed) in hand_coded() {
        let declared: BTreeSet<(u32, String)> = declared_fields(message)
            .iter()
            .map(|field| (number(field), field.name().to_owned()))
            .collect();
        let handled: BTreeSet<(u32, String)> = listed
            .iter()
            .map(|&(number, name)| (number, name.to_owned()))
            .collect();
        assert_eq!(handled.len(), listed.len(), "{message} lists a field twice");
        let unhandled: Vec<_> = declared.difference(&handled).collect();
        assert!(
            unhandled.is_empty(),
            "{message}: the proto declares {unhandled:?}, which the hand codec does not handle"
        );
        let stale: Vec<_> = handled.difference(&declared).collect();
        assert!(
            stale.is_empty(),
            "{message}: the hand codec handles {stale:?}, which the proto does not declare"
        );
    }
}

/// Field `number` given with a wire type that no field of type `declared`
/// has, followed by a value of that wire type.
fn mistyped(number: u32, declared: Type) -> Vec<u8> {
    let (wire_type, width) = match declared {
        Type::Fixed32 | Type::Sfixed32 | Type::Float => (WireType::SixtyFourBit, 8),
        _ => (WireType::ThirtyTwoBit, 4),
    };
    let mut wire = Vec::new();
    encode_key(number, wire_type, &mut wire);
    wire.resize(wire.len() + width, 0);
    wire
}

/// `M`'s decoder reads every field the proto declares for `message`: each,
/// given with a wire type its type never has, fails the decode, where a
/// field the decoder skipped would decode (as one the proto does not
/// declare does).
fn assert_reads_every_declared_field<M: Message + Default>(message: &str) {
    let declared = declared_fields(message);
    for field in &declared {
        let wire = mistyped(number(field), field.r#type());
        assert!(
            M::decode(wire.as_slice()).is_err(),
            "{message}'s decoder skips field {} ({})",
            number(field),
            field.name()
        );
    }
    let undeclared = declared.iter().map(number).max().unwrap_or(0) + 1;
    let wire = mistyped(undeclared, Type::String);
    assert!(
        M::decode(wire.as_slice()).is_ok(),
        "{message}'s decoder refuses an unknown field"
    );
}

#[test]
fn the_hand_decoders_read_every_declared_field() {
    assert_reads_every_declared_field::<SolveBatchRequest>("SolveBatchRequest");
    assert_reads_every_declared_field::<SolveBatchResponse>("SolveBatchResponse");
    assert_reads_every_declared_field::<SolveResult>("SolveResult");
}
