//! Checking what a request carries against the per-item caps, and what it
//! is charged: the rules by which a stream's requests count against its
//! window and byte budget (see [`super::limits`] for the sizes, and
//! [`crate::streaming`] for how the charges are held).

use super::error::ServiceError;
use super::jobs::{Item, QueuedPuzzle};
use super::limits::{GRADE_OVERHEAD_BYTES, ITEM_OVERHEAD_BYTES, MAX_ID_BYTES};
use crate::domain::{MAX_PUZZLE_BYTES, PuzzleError};
use crate::pb::SharedText;

/// What an item with this id and puzzle text is charged.
pub fn item_charge(id_bytes: usize, puzzle_bytes: usize) -> usize {
    id_bytes + puzzle_bytes + ITEM_OVERHEAD_BYTES
}

/// What an admitted puzzle's grade is charged: its allowance when one
/// was asked for.
fn grade_charge(grade: bool) -> usize {
    if grade { GRADE_OVERHEAD_BYTES } else { 0 }
}

/// A stream request checked against the item caps: the id to echo, the
/// puzzle to solve (and whether to grade it) or why it was refused, and
/// what it is charged (at most [`MAX_ITEM_CHARGE`]). A refused item's text
/// is dropped here, and an id over its cap is not echoed.
pub fn admit_item(id: String, puzzle: String, grade: bool) -> (String, Item, usize) {
    match check_item(&id, &puzzle) {
        Ok(()) => {
            let charge = item_charge(id.len(), puzzle.len()) + grade_charge(grade);
            let puzzle = QueuedPuzzle {
                text: puzzle.into(),
                grade,
            };
            (id, Ok(puzzle), charge)
        }
        Err(error @ ServiceError::IdTooLong { .. }) => {
            (String::new(), Err(error), ITEM_OVERHEAD_BYTES)
        }
        Err(error) => {
            let charge = item_charge(id.len(), 0);
            (id, Err(error), charge)
        }
    }
}

/// A batch's puzzles, each to solve or refused on its own, or why the
/// whole batch is refused.
pub type AdmittedBatch = Result<Vec<Item>, ServiceError>;

/// A batch request checked against the caps: the id to echo, and either
/// the batch's puzzles (each refused on its own if over its cap), with
/// what the batch is charged, or why the whole batch is refused. A batch
/// is charged its id and, per puzzle, its text and the allowances (the
/// grade's when `grade` asks for one); refused puzzles and batches only
/// the answer's allowance, and their text is dropped here.
pub fn admit_batch(
    id: String,
    puzzles: Vec<SharedText>,
    count: usize,
    max_batch: usize,
    grade: bool,
) -> (String, AdmittedBatch, usize) {
    if id.len() > MAX_ID_BYTES {
        let refused = ServiceError::IdTooLong { length: id.len() };
        return (String::new(), Err(refused), ITEM_OVERHEAD_BYTES);
    }
    let id_charge = id.len() + ITEM_OVERHEAD_BYTES;
    if count > max_batch {
        let refused = ServiceError::BatchTooLarge {
            count,
            limit: max_batch,
        };
        return (id, Err(refused), id_charge);
    }
    let mut charge = id_charge;
    let checked: Vec<Result<SharedText, ServiceError>> = puzzles
        .into_iter()
        .map(|puzzle| {
            let checked = check_puzzle_length(puzzle.len())
                .map(|()| puzzle)
                .map_err(ServiceError::from);
            charge += match &checked {
                Ok(text) => item_charge(0, text.len()) + grade_charge(grade),
                Err(_) => item_charge(0, 0),
            };
            checked
        })
        .collect();
    let items = with_own_buffer(checked)
        .into_iter()
        .map(|checked| checked.map(|text| QueuedPuzzle { text, grade }))
        .collect();
    (id, Ok(items), charge)
}

/// The admitted texts of a batch copied into one buffer of the batch's
/// own, so that what the batch holds is what it is charged: a decoded
/// text shares the buffer its message was read into, which could be far
/// larger (text that was refused, fields that were skipped).
fn with_own_buffer(
    items: Vec<Result<SharedText, ServiceError>>,
) -> Vec<Result<SharedText, ServiceError>> {
    let mut copies =
        SharedText::copied_together(items.iter().filter_map(|item| item.as_ref().ok())).into_iter();
    items
        .into_iter()
        .map(|item| item.map(|_| copies.next().expect("one copy per admitted text")))
        .collect()
}

/// Checks an item against the per-item caps.
pub fn check_item(id: &str, puzzle: &str) -> Result<(), ServiceError> {
    if id.len() > MAX_ID_BYTES {
        return Err(ServiceError::IdTooLong { length: id.len() });
    }
    check_puzzle(puzzle)
}

/// Checks puzzle text against its cap.
pub fn check_puzzle(puzzle: &str) -> Result<(), ServiceError> {
    Ok(check_puzzle_length(puzzle.len())?)
}

/// Checks the length of puzzle text (or of a board of progress) against
/// the cap of puzzle text.
pub fn check_puzzle_length(length: usize) -> Result<(), PuzzleError> {
    if length > MAX_PUZZLE_BYTES {
        return Err(PuzzleError::TooLong { length });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::limits::{Limits, MAX_ITEM_CHARGE};

    #[test]
    fn items_over_their_caps_are_refused_with_their_length() {
        assert!(check_item(&"i".repeat(MAX_ID_BYTES), &"1".repeat(MAX_PUZZLE_BYTES)).is_ok());
        let id = check_item(&"i".repeat(MAX_ID_BYTES + 1), "").unwrap_err();
        assert_eq!(
            id.to_string(),
            "id is 257 bytes long, over the limit of 256 bytes; it is not echoed"
        );
        let puzzle = check_item("", &"1".repeat(MAX_PUZZLE_BYTES + 1)).unwrap_err();
        assert_eq!(
            puzzle.to_string(),
            "puzzle text is 2049 bytes long, over the limit of 2048 bytes"
        );
    }

    #[test]
    fn an_admitted_item_is_charged_at_most_the_largest_charge() {
        let cases = [
            ("i".repeat(MAX_ID_BYTES), "1".repeat(MAX_PUZZLE_BYTES)),
            ("i".repeat(MAX_ID_BYTES), "1".repeat(MAX_PUZZLE_BYTES + 1)),
            ("i".repeat(MAX_ID_BYTES + 1), "1".repeat(20_000)),
            (String::new(), String::new()),
        ];
        for ((id, puzzle), grade) in cases
            .into_iter()
            .flat_map(|case| [(case.clone(), false), (case, true)])
        {
            let (echoed, item, charge) = admit_item(id.clone(), puzzle.clone(), grade);
            assert!(charge <= MAX_ITEM_CHARGE, "{charge}");
            match item {
                Ok(queued) => {
                    let graded = if grade { GRADE_OVERHEAD_BYTES } else { 0 };
                    assert_eq!(charge, item_charge(id.len(), puzzle.len()) + graded);
                    assert_eq!(
                        (echoed, queued.text, queued.grade),
                        (id, puzzle.into(), grade)
                    );
                }
                Err(_) => assert!(echoed.len() <= MAX_ID_BYTES),
            }
        }
        assert_eq!(admit_item("i".repeat(300), String::new(), false).0, "");
    }

    #[test]
    fn batches_are_charged_per_puzzle_and_refused_whole_over_the_limits() {
        let puzzles: Vec<SharedText> = [
            "1".repeat(81),
            "1".repeat(MAX_PUZZLE_BYTES + 1),
            String::new(),
        ]
        .map(SharedText::from)
        .into();
        let (id, items, charge) = admit_batch("b".into(), puzzles.clone(), 3, 3, false);
        let items = items.unwrap();
        assert_eq!(id, "b");
        assert_eq!(
            charge,
            1 + ITEM_OVERHEAD_BYTES + 81 + 3 * ITEM_OVERHEAD_BYTES
        );
        assert!(items[0].is_ok() && items[1].is_err() && items[2].is_ok());
        assert!(!items[0].as_ref().unwrap().grade);

        // Graded, each admitted puzzle is also charged its grade.
        let (_, items, graded_charge) = admit_batch("b".into(), puzzles.clone(), 3, 3, true);
        assert_eq!(graded_charge, charge + 2 * GRADE_OVERHEAD_BYTES);
        assert!(items.unwrap()[2].as_ref().unwrap().grade);

        let (id, refused, charge) = admit_batch("b".into(), puzzles.clone(), 3, 2, true);
        assert_eq!((id.as_str(), charge), ("b", 1 + ITEM_OVERHEAD_BYTES));
        assert_eq!(
            refused.unwrap_err().to_string(),
            "the batch has 3 puzzles, over the limit of 2 (--max-batch); split it"
        );
        let (id, refused, _) = admit_batch("i".repeat(MAX_ID_BYTES + 1), puzzles, 3, 3, false);
        assert_eq!(id, "");
        assert!(matches!(refused, Err(ServiceError::IdTooLong { .. })));
    }

    /// it is charged the most a batch can be.
    #[test]
    fn a_full_batch_of_the_largest_items_fits_its_limits() {
        use prost::Message;
        let limits = Limits::DEFAULT;
        let largest = crate::pb::SolveBatchRequest::new(
            "i".repeat(MAX_ID_BYTES),
            vec!["1".repeat(MAX_PUZZLE_BYTES); limits.max_batch],
        )
        .graded(true);
        assert_eq!(largest.encoded_len(), limits.max_batch_request_bytes());
        let (_, _, charge) = admit_batch(
            largest.id.clone(),
            largest.puzzles().to_vec(),
            limits.max_batch,
            limits.max_batch,
            true,
        );
        assert_eq!(charge, limits.max_batch_charge());
        let (puzzles, bytes) = limits.batch_stream_window();
        assert!(puzzles >= limits.max_batch && bytes >= limits.max_batch_charge());
    }
}
