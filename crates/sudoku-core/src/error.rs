//! What can be wrong with puzzle text.

use super::board::Conflict;

/// The longest puzzle text accepted, in bytes. An 81-character line is 81
/// bytes, a 9-line grid drawn with separators under 300, LeetCode's JSON
/// board under 400; anything longer is refused before it is read, so that
/// no one can make a solver, a stream window or a file reader hold more.
pub const MAX_PUZZLE_BYTES: usize = 2048;

/// Why a puzzle was rejected before solving.
///
/// Every message says what is wrong and where, in words a person can act on;
/// the service sends them to clients verbatim.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// A character that is neither a cell nor layout.
    #[error(
        "invalid character {shown} at {at}: \
         expected a digit 1-9, '.' or '0' for a blank, or layout \
         (whitespace or one of | - + [ ] , \" ')",
        shown = describe_char(*.character),
        at = position(*.line, *.column)
    )]
    InvalidCharacter {
        /// The offending character.
        character: char,
        /// 1-based line of the character in the text.
        line: usize,
        /// 1-based column, counted in characters.
        column: usize,
        /// How many cells come before it: the 0-based index of the cell
        /// it stands where (81 or more past the last).
        cell: usize,
    },
    /// After layout is removed, the text does not hold exactly 81 cells.
    #[error("expected 81 cells (digits 1-9, or '.' or '0' for blanks), found {found}")]
    WrongCellCount {
        /// How many cells the text holds.
        found: usize,
    },
    /// Two givens repeat a digit in a row, column or box.
    #[error("conflicting givens: {0}")]
    ConflictingGivens(Conflict),
    /// The text is longer than any drawing of a board needs
    /// ([`MAX_PUZZLE_BYTES`]).
    #[error("puzzle text is {length} bytes long, over the limit of {MAX_PUZZLE_BYTES} bytes")]
    TooLong {
        /// Its length in bytes.
        length: usize,
    },
}

impl PuzzleError {
    /// The cells at fault, each with the digit at fault (0 for none): the
    /// two givens that conflict, the cell a character that is not a cell
    /// stands where, the first cell a short text leaves out.
    pub fn cells_at_fault(&self) -> Vec<(super::Cell, u8)> {
        match *self {
            PuzzleError::InvalidCharacter { cell, .. } => {
                super::Cell::new(cell).map(|c| (c, 0)).into_iter().collect()
            }
            PuzzleError::WrongCellCount { found } => super::Cell::new(found)
                .map(|c| (c, 0))
                .into_iter()
                .collect(),
            PuzzleError::ConflictingGivens(conflict) => vec![
                (conflict.first, conflict.digit),
                (conflict.second, conflict.digit),
            ],
            PuzzleError::TooLong { .. } => Vec::new(),
        }
    }
}

/// Where a character is: `column 5` on the first line (all of a puzzle
/// written on one line, which a file's line number already places), `line
/// 3, column 6` below it.
fn position(line: usize, column: usize) -> String {
    match line {
        1 => format!("column {column}"),
        _ => format!("line {line}, column {column}"),
    }
}

/// Quotes a character so that invisible and look-alike ones are recognisable:
/// `'x'`, `'\0'`, `'１' (U+FF11)`. U+FFFD says where it usually comes from:
/// bytes that were not UTF-8, replaced when a file was read.
fn describe_char(character: char) -> String {
    if character.is_ascii_graphic() {
        format!("'{character}'")
    } else if character == char::REPLACEMENT_CHARACTER {
        format!("'{character}' (U+FFFD, which replaces bytes that are not UTF-8)")
    } else {
        format!(
            "'{}' (U+{:04X})",
            character.escape_debug(),
            u32::from(character)
        )
    }
}
