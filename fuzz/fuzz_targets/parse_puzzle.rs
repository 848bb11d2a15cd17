//! Puzzle text parsing: arbitrary bytes as puzzle text.
//!
//! Checks, for every input:
//!
//! * neither parser panics, and `parse_board_bytes` (bytes, with invalid
//!   UTF-8 read as U+FFFD) gives exactly what `parse_board` gives on the text
//!   (or its lossy decoding): the same board, or the same error, except
//!   that the length limit applies to the bytes given (their lossy decoding
//!   may be longer);
//! * both agree with a plain model of the documented grammar, written here
//!   char by char: text over 2 KiB refused, `1`-`9` givens, `.`/`0` blanks,
//!   whitespace, `|`, `-`, `+` and a JSON board's `[`, `]`, `,`, `"`, `'`
//!   skipped, anything else an error naming the character, its 1-based line
//!   and its column in characters; otherwise exactly 81 cells;
//! * an error's Display is non-empty and names what it carries: the
//!   character really is at that line and column of the input (a first
//!   line's place given by its column alone), and the
//!   cell count is the number of cells the text holds;
//! * `parse_puzzle` accepts exactly the boards without conflicting givens,
//!   and the conflict it reports names two cells holding the digit in the
//!   unit it names;
//! * an accepted board round-trips through `to_line` and `to_grid`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::{
    Board, Cell, Conflict, MAX_PUZZLE_BYTES, PuzzleError, Unit, parse_board, parse_board_bytes,
    parse_puzzle,
};

fuzz_target!(|data: &[u8]| {
    let from_bytes = parse_board_bytes(data);
    let text = String::from_utf8_lossy(data);
    let from_text = parse_board(&text);
    if data.len() > MAX_PUZZLE_BYTES {
        let length = data.len();
        assert_eq!(from_bytes, Err(PuzzleError::TooLong { length }));
    } else if text.len() > MAX_PUZZLE_BYTES {
        // Only invalid UTF-8 grows when decoded, and U+FFFD is no cell.
        assert!(
            matches!(from_bytes, Err(PuzzleError::InvalidCharacter { .. })),
            "{from_bytes:?}"
        );
    } else {
        assert_eq!(
            from_bytes, from_text,
            "parse_board_bytes and parse_board differ"
        );
    }
    if let Ok(utf8) = std::str::from_utf8(data) {
        assert_eq!(parse_board(utf8), from_bytes);
    }
    assert_eq!(from_text, model(&text), "the parser and the grammar differ");

    match &from_text {
        Ok(board) => check_board(board),
        Err(error) => check_error(error, &text),
    }

    // parse_puzzle = parse_board + the conflict check.
    let puzzle = parse_puzzle(&text);
    match (&from_text, &puzzle) {
        (Err(parse_error), _) => assert_eq!(puzzle.as_ref(), Err(parse_error)),
        (Ok(board), Ok(accepted)) => {
            assert_eq!(accepted, board);
            assert_eq!(board.find_conflict(), None);
        }
        (Ok(board), Err(PuzzleError::ConflictingGivens(conflict))) => {
            assert_eq!(board.find_conflict(), Some(*conflict));
            check_conflict(board, conflict);
            check_error(&PuzzleError::ConflictingGivens(*conflict), &text);
        }
        (Ok(_), Err(other)) => panic!("parse_puzzle failed on a parsed board: {other:?}"),
    }
});

/// The grammar of the module docs of `domain::parse`, written plainly.
fn model(text: &str) -> Result<Board, PuzzleError> {
    let is_compact = text.len() == 81 && text.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if text.len() > MAX_PUZZLE_BYTES && !is_compact {
        return Err(PuzzleError::TooLong { length: text.len() });
    }
    let mut cells = Vec::new();
    let (mut line, mut column) = (1, 1);
    for character in text.chars() {
        match character {
            '1'..='9' => cells.push(character as u8 - b'0'),
            '.' | '0' => cells.push(0),
            '|' | '-' | '+' | '[' | ']' | ',' | '"' | '\'' => {}
            c if c.is_whitespace() => {}
            _ => {
                return Err(PuzzleError::InvalidCharacter {
                    character,
                    line,
                    column,
                    cell: cells.len(),
                });
            }
        }
        if character == '\n' {
            (line, column) = (line + 1, 1);
        } else {
            column += 1;
        }
    }
    let cells: [u8; 81] = cells
        .try_into()
        .map_err(|cells: Vec<u8>| PuzzleError::WrongCellCount { found: cells.len() })?;
    Ok(Board::from_cells(cells).expect("cells are 0-9"))
}

/// An accepted board: cells in range, and it survives both printed forms.
fn check_board(board: &Board) {
    assert!(board.cells().iter().all(|&value| value <= 9));
    let line = board.to_line();
    assert_eq!(line.len(), 81);
    assert_eq!(parse_board(&line).as_ref(), Ok(board), "to_line round trip");
    assert_eq!(parse_board_bytes(line.as_bytes()).as_ref(), Ok(board));
    assert_eq!(
        parse_board(&board.to_grid()).as_ref(),
        Ok(board),
        "to_grid round trip"
    );
}

/// An error says something, and what it names is really in the input.
fn check_error(error: &PuzzleError, text: &str) {
    let message = error.to_string();
    assert!(!message.trim().is_empty(), "empty message for {error:?}");
    match *error {
        PuzzleError::InvalidCharacter {
            character,
            line,
            column,
            ..
        } => {
            assert!(line >= 1 && column >= 1);
            let at = text
                .split('\n')
                .nth(line - 1)
                .and_then(|line_text| line_text.chars().nth(column - 1));
            assert_eq!(at, Some(character), "{error:?} is not where it says");
            assert!(!character.is_whitespace() && !"0123456789.|-+[],\"'".contains(character));
            let place = match line {
                1 => format!("at column {column}:"),
                _ => format!("at line {line}, column {column}:"),
            };
            assert!(message.contains(&place), "{message:?} does not say {place:?}");
            assert_eq!(line == 1, !message.contains("at line"), "{message:?}");
        }
        PuzzleError::WrongCellCount { found } => {
            assert_ne!(found, 81);
            let cells = text
                .chars()
                .filter(|c| c.is_ascii_digit() || *c == '.')
                .count();
            assert_eq!(found, cells);
            assert!(message.contains(&format!("found {found}")));
        }
        PuzzleError::ConflictingGivens(conflict) => {
            assert!(message.contains(&conflict.first.to_string()));
            assert!(message.contains(&conflict.second.to_string()));
        }
        PuzzleError::TooLong { length } => {
            assert!(length > MAX_PUZZLE_BYTES && length == text.len());
            assert!(message.contains(&format!("{length} bytes long")));
        }
    }
}

/// A conflict: two different cells, in reading order, both holding the
/// digit, both in the unit named.
fn check_conflict(board: &Board, conflict: &Conflict) {
    let Conflict {
        digit,
        first,
        second,
        unit,
    } = *conflict;
    assert!((1..=9).contains(&digit));
    assert!(first < second);
    assert_eq!((board.get(first), board.get(second)), (digit, digit));
    let in_unit = |cell: Cell| match unit {
        Unit::Row(n) => cell.row() + 1 == usize::from(n),
        Unit::Column(n) => cell.column() + 1 == usize::from(n),
        Unit::Box(n) => cell.box_index() + 1 == usize::from(n),
    };
    assert!(in_unit(first) && in_unit(second), "{conflict:?}");
}
