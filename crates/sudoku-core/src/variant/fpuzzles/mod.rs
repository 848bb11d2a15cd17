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

use super::error::{Place, VariantError};
use super::puzzle::VariantPuzzle;

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
    reader::read_value(&value)
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
