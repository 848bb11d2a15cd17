//! Puzzle text to [`Board`].
//!
//! Cells are read in row-major order: `1`-`9` are givens, `.` and `0` are
//! blanks. Whitespace, `|`, `-` and `+` are layout and are skipped, so an
//! 81-character line, a 9-line grid and a grid with box separators all parse
//! the same. So are `[`, `]`, `,`, `"` and `'`, which makes the board of
//! LeetCode 37, a JSON `char[9][9]` such as `[["5","3","."...],...]`, one
//! more form of the same puzzle. Anything else is an error naming the
//! character and its place.

use super::error::MAX_PUZZLE_BYTES;
use super::{Board, PuzzleError};

/// The ASCII characters that are layout: whitespace, grid lines, and the
/// punctuation of a JSON board.
const LAYOUT_BYTES: &[u8] = b" \t\n\r|-+[],\"'";

/// What a byte means in puzzle text: a cell value 0-9, or one of these.
const LAYOUT: u8 = 10;
const OTHER: u8 = 11;

/// Byte classes, so that the common case costs one table look-up per byte.
const BYTE_CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut digit = 1;
    while digit <= 9 {
        table[(b'0' + digit) as usize] = digit;
        digit += 1;
    }
    table[b'.' as usize] = 0;
    table[b'0' as usize] = 0;
    let layout = LAYOUT_BYTES;
    let mut i = 0;
    while i < layout.len() {
        table[layout[i] as usize] = LAYOUT;
        i += 1;
    }
    table
};

/// Parses puzzle text into a board, checking only its form (see the module
/// docs); givens that conflict are found by [`Board::find_conflict`].
pub fn parse_board(text: &str) -> Result<Board, PuzzleError> {
    if let Some(board) = parse_compact_line(text.as_bytes()) {
        return Ok(board);
    }
    if text.len() > MAX_PUZZLE_BYTES {
        return Err(PuzzleError::TooLong { length: text.len() });
    }
    parse_text(text)
}

/// The general parser, for text within the length limit.
fn parse_text(text: &str) -> Result<Board, PuzzleError> {
    let bytes = text.as_bytes();
    let mut cells = [0u8; 81];
    let mut found = 0usize;
    let mut offset = 0;
    while offset < bytes.len() {
        let class = BYTE_CLASS[usize::from(bytes[offset])];
        if class <= 9 {
            if let Some(cell) = cells.get_mut(found) {
                *cell = class;
            }
            found += 1;
            offset += 1;
        } else if class == LAYOUT {
            offset += 1;
        } else {
            // Rare: other whitespace (possibly multi-byte), or an error.
            let character = text[offset..]
                .chars()
                .next()
                .expect("offset is on a char boundary");
            if !character.is_whitespace() {
                return Err(invalid_character(text, offset, character));
            }
            offset += character.len_utf8();
        }
    }
    if found != 81 {
        return Err(PuzzleError::WrongCellCount { found });
    }
    Ok(Board::from_cells(cells).expect("cell values are 0-9"))
}

/// Parses puzzle text given as bytes, as read from a file: the same rules
/// as [`parse_board`], the length limit applying to the bytes given, with
/// bytes that are not UTF-8 reported as U+FFFD. The common 81-character
/// line needs no UTF-8 check at all.
pub fn parse_board_bytes(bytes: &[u8]) -> Result<Board, PuzzleError> {
    if let Some(board) = parse_compact_line(bytes) {
        return Ok(board);
    }
    if bytes.len() > MAX_PUZZLE_BYTES {
        return Err(PuzzleError::TooLong {
            length: bytes.len(),
        });
    }
    parse_text(&String::from_utf8_lossy(bytes))
}

/// True when every character of `text` could be part of a puzzle: a cell
/// or layout. The command line uses it to tell a puzzle from a file name.
pub fn looks_like_puzzle(text: &str) -> bool {
    text.chars().all(|character| match u8::try_from(character) {
        Ok(byte) => BYTE_CLASS[usize::from(byte)] != OTHER,
        Err(_) => character.is_whitespace(),
    })
}

/// The board of exactly 81 bytes of `1`-`9`, `.` and `0`, the form of
/// nearly every line in a puzzle file; `None` for anything else, which the
/// general parser handles. Branch-free, so it compiles to vector code.
#[inline]
fn parse_compact_line(bytes: &[u8]) -> Option<Board> {
    let bytes: &[u8; 81] = bytes.try_into().ok()?;
    let mut cells = [0u8; 81];
    let mut invalid = false;
    for (cell, &byte) in cells.iter_mut().zip(bytes) {
        let is_dot = byte == b'.';
        let value = byte.wrapping_sub(b'0');
        invalid |= (value > 9) & !is_dot;
        *cell = if is_dot { 0 } else { value };
    }
    if invalid {
        return None;
    }
    Board::from_cells(cells)
}

/// The error for `character` at byte `offset`, with its 1-based line and
/// column (in characters).
fn invalid_character(text: &str, offset: usize, character: char) -> PuzzleError {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    PuzzleError::InvalidCharacter {
        character,
        line: before.matches('\n').count() + 1,
        column: before[line_start..].chars().count() + 1,
        cell: before
            .bytes()
            .filter(|b| b.is_ascii_digit() || *b == b'.')
            .count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn message(text: &str) -> String {
        parse_board(text).unwrap_err().to_string()
    }

    #[test]
    fn line_grid_and_boxed_grid_parse_the_same() {
        let from_line = parse_board(LINE).unwrap();
        let grid: String = LINE
            .as_bytes()
            .chunks(9)
            .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
            .collect();
        assert_eq!(parse_board(&grid).unwrap(), from_line);
        assert_eq!(parse_board(&from_line.to_grid()).unwrap(), from_line);
        let zeros = LINE.replace('.', "0");
        assert_eq!(parse_board(&zeros).unwrap(), from_line);
        let windows = grid.replace('\n', "\r\n\t");
        assert_eq!(parse_board(&windows).unwrap(), from_line);
    }

    /// The example board of LeetCode 37, as its JSON `char[9][9]`.
    const LEETCODE: &str = r#"[["5","3",".",".","7",".",".",".","."],["6",".",".","1","9","5",".",".","."],[".","9","8",".",".",".",".","6","."],["8",".",".",".","6",".",".",".","3"],["4",".",".","8",".","3",".",".","1"],["7",".",".",".","2",".",".",".","6"],[".","6",".",".",".",".","2","8","."],[".",".",".","4","1","9",".",".","5"],[".",".",".",".","8",".",".","7","9"]]"#;

    #[test]
    fn the_leetcode_board_is_the_same_puzzle() {
        assert_eq!(parse_board(LEETCODE).unwrap(), parse_board(LINE).unwrap());
        let quoted = LEETCODE.replace('"', "'").replace("],[", "],\n [");
        assert_eq!(parse_board(&quoted).unwrap(), parse_board(LINE).unwrap());
        assert!(looks_like_puzzle(LEETCODE));
        assert!(looks_like_puzzle(&parse_board(LINE).unwrap().to_grid()));
        assert!(!looks_like_puzzle("puzzles.txt"));
        assert!(!looks_like_puzzle("12x"));
    }

    #[test]
    fn anything_else_in_a_json_board_is_still_named() {
        let text = LEETCODE.replacen("\"7\"", "\"x\"", 1);
        assert_eq!(
            parse_board(&text),
            Err(PuzzleError::InvalidCharacter {
                character: 'x',
                line: 1,
                column: 20,
                cell: 4
            })
        );
        let colon = LEETCODE.replacen(',', ":", 1);
        assert!(message(&colon).starts_with("invalid character ':' at column 6"));
    }

    #[test]
    fn unicode_whitespace_is_layout() {
        let spaced = LINE.replacen('.', "\u{00A0}.", 1);
        assert_eq!(parse_board(&spaced).unwrap(), parse_board(LINE).unwrap());
    }

    #[test]
    fn an_invalid_character_is_named_with_its_line_and_column() {
        let text = LINE.replacen('7', "x", 1);
        assert_eq!(
            parse_board(&text),
            Err(PuzzleError::InvalidCharacter {
                character: 'x',
                line: 1,
                column: 5,
                cell: 4
            })
        );
        assert!(message(&text).starts_with("invalid character 'x' at column 5: expected"));
    }

    #[test]
    fn an_invalid_character_in_a_grid_reports_its_line() {
        let text = "53..7....\n6..195...\n.98..a.6.\n";
        assert_eq!(
            parse_board(text),
            Err(PuzzleError::InvalidCharacter {
                character: 'a',
                line: 3,
                column: 6,
                cell: 23
            })
        );
        assert!(message(text).starts_with("invalid character 'a' at line 3, column 6: expected"));
    }

    #[test]
    fn invisible_and_unicode_characters_are_shown_with_their_code_point() {
        let nul = LINE.replacen('.', "\0", 1);
        assert!(message(&nul).starts_with("invalid character '\\0' (U+0000) at column 3"));
        let fullwidth = LINE.replacen('5', "\u{FF15}", 1);
        assert!(message(&fullwidth).starts_with("invalid character '５' (U+FF15) at column 1"));
        let not_utf8 = [&LINE.as_bytes()[..80], b"\xFF"].concat();
        assert!(
            parse_board_bytes(&not_utf8)
                .unwrap_err()
                .to_string()
                .contains("(U+FFFD, which replaces bytes that are not UTF-8) at column 81")
        );
        let arabic = format!("{}\u{0663}", &LINE[..80]);
        assert!(message(&arabic).contains("(U+0663) at column 81"));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = format!("é{LINE}");
        assert_eq!(
            parse_board(&text),
            Err(PuzzleError::InvalidCharacter {
                character: 'é',
                line: 1,
                column: 1,
                cell: 0
            })
        );
        let text = format!("\u{00A0}\u{00A0}x{LINE}");
        assert_eq!(
            parse_board(&text),
            Err(PuzzleError::InvalidCharacter {
                character: 'x',
                line: 1,
                column: 3,
                cell: 0
            })
        );
    }

    #[test]
    fn too_few_or_too_many_cells_says_how_many() {
        assert_eq!(
            parse_board(&LINE[..80]),
            Err(PuzzleError::WrongCellCount { found: 80 })
        );
        assert_eq!(
            parse_board(&format!("{LINE}1")),
            Err(PuzzleError::WrongCellCount { found: 82 })
        );
        assert_eq!(
            parse_board(""),
            Err(PuzzleError::WrongCellCount { found: 0 })
        );
        assert_eq!(
            parse_board(" \n| - +"),
            Err(PuzzleError::WrongCellCount { found: 0 })
        );
        assert_eq!(
            message(&LINE[..80]),
            "expected 81 cells (digits 1-9, or '.' or '0' for blanks), found 80"
        );
    }

    #[test]
    fn text_over_the_limit_is_refused_with_its_length() {
        let padded = format!("{LINE}{}", " ".repeat(MAX_PUZZLE_BYTES - 81));
        assert_eq!(parse_board(&padded).unwrap(), parse_board(LINE).unwrap());
        let over = format!("{padded} ");
        assert_eq!(
            parse_board(&over),
            Err(PuzzleError::TooLong {
                length: MAX_PUZZLE_BYTES + 1
            })
        );
        assert_eq!(
            message(&over),
            "puzzle text is 2049 bytes long, over the limit of 2048 bytes"
        );
        assert_eq!(parse_board_bytes(over.as_bytes()), parse_board(&over));
    }

    #[test]
    fn a_bad_character_is_reported_before_the_cell_count() {
        assert!(matches!(
            parse_board("12x"),
            Err(PuzzleError::InvalidCharacter { column: 3, .. })
        ));
    }
}
