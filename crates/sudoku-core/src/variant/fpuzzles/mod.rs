//! Reading f-puzzles, the interchange format of variant Sudoku: its JSON,
//! and the lz-string payload of its links, which f-puzzles.com writes and
//! SudokuPad and rangsk's solver read.
//!
//! Every top-level key is in [`KEYS`], one row each: a key that states a
//! rule is read into a typed [`Constraint`](super::Constraint), a key that
//! only draws or names things is passed over, and any other key is refused
//! by name. A rule left out could turn a unique puzzle into one with many
//! solutions, so nothing is dropped silently. Errors name the field as the
//! JSON has it: `killercage[2].cells[1]: R10C1 is outside the 9×9 grid`.

mod grid;
mod keys;
mod link;
mod lz_string;
mod reader;
#[cfg(test)]
mod tests;

pub use keys::{KEYS, KeyUse};
pub use link::LinkError;
pub use lz_string::{LzError, decompress_from_base64};

use serde_json::Value;

use super::error::{Place, VariantError};
use super::puzzle::{PuzzleParts, VariantPuzzle};
use grid::{is_empty, read_grid};
use keys::key_use;
use reader::Reader;

/// The longest f-puzzles text read, JSON or link, in bytes: a 25×25 killer
/// with every cell caged is under 100 KiB of JSON. Decoded links are held
/// to the same length.
pub const MAX_FPUZZLES_BYTES: usize = 256 * 1024;

/// Reads an f-puzzles puzzle from its JSON, a link to it, or the bare
/// base64 payload of one.
pub fn read(text: &str) -> Result<VariantPuzzle, VariantError> {
    if text.len() > MAX_FPUZZLES_BYTES {
        return Err(VariantError::TooLong {
            length: text.len(),
            limit: MAX_FPUZZLES_BYTES,
        });
    }
    let json = link::json_text(text, MAX_FPUZZLES_BYTES)
        .map_err(|error| VariantError::malformed(Place::Field("link".into()), error.to_string()))?;
    read_json(&json)
}

/// Reads an f-puzzles puzzle from its JSON text.
pub fn read_json(json: &str) -> Result<VariantPuzzle, VariantError> {
    if json.len() > MAX_FPUZZLES_BYTES {
        return Err(VariantError::TooLong {
            length: json.len(),
            limit: MAX_FPUZZLES_BYTES,
        });
    }
    let value: serde_json::Value = serde_json::from_str(json).map_err(|error| {
        VariantError::malformed(
            Place::Field("JSON".into()),
            format!("not valid JSON: {error}"),
        )
    })?;
    read_value(&value)
}

/// Reads a parsed f-puzzles document: the grid first, then each key by its
/// row in [`KEYS`].
fn read_value(value: &Value) -> Result<VariantPuzzle, VariantError> {
    let malformed =
        |field: &str, problem: &str| VariantError::malformed(Place::Field(field.into()), problem);
    let object = value
        .as_object()
        .ok_or_else(|| malformed("JSON", "expected an object with a \"grid\""))?;
    let grid = read_grid(object)?;
    let mut reader = Reader::new(grid.shape);
    for (constraint, field) in grid.parities {
        reader.push(constraint, field);
    }
    for (key, value) in object {
        match key_use(key) {
            Some(KeyUse::Rule(read)) if !is_empty(value) => read(&mut reader, key, value)?,
            Some(_) => {}
            None if is_empty(value) => {}
            None => {
                return Err(malformed(
                    key,
                    "this constraint is not supported, and leaving it out could change \
                     the puzzle's solutions",
                ));
            }
        }
    }
    let (constraints, fields) = reader.finish();
    VariantPuzzle::new(PuzzleParts {
        size: grid.shape.size(),
        givens: grid.givens,
        regions: grid.regions,
        constraints,
    })
    .map_err(|error| error.relabel(|index| fields.get(index).cloned()))
}

/// True when a line of text looks like an f-puzzles puzzle rather than a
/// classic one: JSON, or a link or payload of one.
pub fn looks_like_fpuzzles(text: &str) -> bool {
    let trimmed = text.trim_start();
    trimmed.starts_with('{')
        || trimmed.contains("f-puzzles.com")
        || trimmed.contains("fpuzzle")
        || trimmed.starts_with("N4Ig")
}
