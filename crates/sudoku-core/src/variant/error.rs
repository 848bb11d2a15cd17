//! What can be wrong with a variant puzzle, and where.
//!
//! Every message names the place at fault (the size, a given, a region or
//! a constraint) and the cell when there is one, so that a setter can find
//! it. A reader of another format (f-puzzles) renames the constraint
//! places with its own keys through [`VariantError::relabel`].

use std::fmt;

use super::geometry::CellName;

/// Where in a puzzle a problem lies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The grid's size.
    Size,
    /// The givens.
    Givens,
    /// The regions (boxes or jigsaw pieces).
    Regions,
    /// A constraint, by its index in the puzzle's list and its kind's name.
    Constraint {
        /// Its 0-based index.
        index: usize,
        /// Its kind, as [`super::Constraint::kind_name`] names it.
        kind: &'static str,
    },
    /// A field named by the format it was read from: `killercage[2].value`.
    Field(String),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Size => f.write_str("size"),
            Place::Givens => f.write_str("givens"),
            Place::Regions => f.write_str("regions"),
            Place::Constraint { index, kind } => write!(f, "constraints[{index}] ({kind})"),
            Place::Field(field) => f.write_str(field),
        }
    }
}

/// Why a variant puzzle was refused before solving.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// A side with no standard boxes, or no grid at all.
    #[error(
        "{place}: a grid {size} cells wide is not supported: \
         the sizes are 4, 6, 8, 9, 10, 12, 15, 16 and 25"
    )]
    UnsupportedSize {
        /// Where the size was read.
        place: Place,
        /// The size asked for.
        size: usize,
    },
    /// Anything else malformed, with the place and what is wrong there.
    #[error("{place}: {problem}")]
    Malformed {
        /// Where the problem lies.
        place: Place,
        /// What is wrong, naming the cell when there is one.
        problem: String,
    },
    /// Two givens repeat a digit in a row, column or region.
    #[error("conflicting givens: {digit} at {first} and at {second}, both in {unit}")]
    ConflictingGivens {
        /// The repeated digit, as it prints.
        digit: char,
        /// The earlier cell in reading order.
        first: CellName,
        /// The later one.
        second: CellName,
        /// The row, column or region both lie in, in words (`row 3`).
        unit: String,
    },
    /// The puzzle's text is over the byte cap for variant puzzles.
    #[error("variant puzzle is {length} bytes long, over the limit of {limit} bytes")]
    TooLong {
        /// Its length in bytes.
        length: usize,
        /// The cap.
        limit: usize,
    },
}

impl VariantError {
    /// A [`VariantError::Malformed`] at `place`. Text that came from the
    /// puzzle (a key, a value) is cut short, so that an error is never
    /// much longer than its words: a field name at [`MAX_FIELD_CHARS`],
    /// the problem at [`MAX_PROBLEM_CHARS`].
    pub fn malformed(place: Place, problem: impl Into<String>) -> VariantError {
        let place = match place {
            Place::Field(field) => Place::Field(shortened(field, MAX_FIELD_CHARS)),
            other => other,
        };
        VariantError::Malformed {
            place,
            problem: shortened(problem.into(), MAX_PROBLEM_CHARS),
        }
    }

    /// The same error with a constraint's place renamed by `name`, which
    /// maps a constraint's index to the field it was read from.
    pub fn relabel(self, name: impl Fn(usize) -> Option<String>) -> VariantError {
        let rename = |place: Place| match place {
            Place::Constraint { index, kind } => name(index)
                .map(Place::Field)
                .unwrap_or(Place::Constraint { index, kind }),
            other => other,
        };
        match self {
            VariantError::Malformed { place, problem } => VariantError::Malformed {
                place: rename(place),
                problem,
            },
            VariantError::UnsupportedSize { place, size } => VariantError::UnsupportedSize {
                place: rename(place),
                size,
            },
            other => other,
        }
    }
}

/// The longest field name an error shows, in characters.
pub const MAX_FIELD_CHARS: usize = 80;

/// The longest problem an error states, in characters.
pub const MAX_PROBLEM_CHARS: usize = 300;

/// `text`, cut to `limit` characters with `…` when it is longer.
fn shortened(text: String, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// Text taken from a puzzle as an error shows it: cut to 40 characters.
pub(crate) fn shown(text: &str) -> String {
    shortened(text.to_string(), 40)
}
