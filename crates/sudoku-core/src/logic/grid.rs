//! The candidate grid a human solver works on: placed digits and pencil
//! marks.
//!
//! A cell either holds a digit or a set of candidates. The grid keeps the
//! marks twice, per cell (a 9-bit mask) and per digit (an 81-bit
//! [`Cells`] mask), because techniques ask both ways and each question
//! should cost a few instructions. Placing a digit removes it from the
//! cell's peers at once, as every solving program does: crossing out
//! seen candidates is bookkeeping, not a technique.

use super::bits::{Cells, PEERS, UNITS, bit, digits};
use crate::Board;

/// Placed digits and the candidates of the blank cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    values: [u8; 81],
    marks: [u16; 81],
    by_digit: [Cells; 9],
    placed: [Cells; 9],
    blanks: Cells,
}

/// A set of pencil marks that cannot be worked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MarksError {
    /// The marks are not 729 characters.
    #[error("marks must be 729 characters (9 per cell), not {0}")]
    Length(usize),
    /// A character is neither its digit nor `.` (or `0`).
    #[error(
        "character {} of the marks, digit {expected} of {}, is {found:?}: it must be {expected} \
         while a candidate, or '.' (or '0') where crossed out",
        position + 1,
        crate::Cell::new(position / 9).expect("a position within 729")
    )]
    Character {
        /// 0-based position in the text, counted in characters.
        position: usize,
        /// The character found.
        found: char,
        /// The digit that position stands for.
        expected: u8,
    },
}

/// Hashes the placed digits and the candidates alone: the rest is worked
/// out from them, so equal grids still hash alike, from under half the
/// bytes (the nested chains' caches hash working grids by the hundred
/// thousand).
impl std::hash::Hash for Grid {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.values.hash(state);
        self.marks.hash(state);
    }
}

impl Grid {
    /// The grid a board leaves: its digits placed, every other cell
    /// holding the digits none of its peers hold.
    pub fn new(board: &Board) -> Grid {
        let mut grid = Grid::empty();
        for (index, &value) in board.cells().iter().enumerate() {
            if value != 0 {
                grid.place(index, value);
            }
        }
        grid
    }

    /// The grid a board and a player's pencil marks give: 729 characters,
    /// digit `d` at position `9 * cell + d - 1` while it is a candidate,
    /// `.` (or `0`) where it is crossed out. Marks of placed cells are ignored, and
    /// marks a placed digit rules out are dropped too.
    pub fn with_marks(board: &Board, text: &str) -> Result<Grid, MarksError> {
        let length = text.chars().count();
        if length != 729 {
            return Err(MarksError::Length(length));
        }
        let mut grid = Grid::new(board);
        for (position, found) in text.chars().enumerate() {
            let (index, digit) = (position / 9, (position % 9 + 1) as u8);
            match found {
                '.' | '0' => grid.eliminate(index, digit),
                _ if found == char::from(b'0' + digit) => {}
                _ => {
                    return Err(MarksError::Character {
                        position,
                        found,
                        expected: digit,
                    });
                }
            }
        }
        Ok(grid)
    }

    fn empty() -> Grid {
        Grid {
            values: [0; 81],
            marks: [0x1ff; 81],
            by_digit: [Cells::ALL; 9],
            placed: [Cells::EMPTY; 9],
            blanks: Cells::ALL,
        }
    }

    /// The digit in a cell, 0 when blank.
    pub fn value(&self, index: usize) -> u8 {
        self.values[index]
    }

    /// The candidates of a cell as a 9-bit mask (0 once placed).
    pub fn marks(&self, index: usize) -> u16 {
        self.marks[index]
    }

    /// The cells that still have `digit` as a candidate.
    pub fn cells_with(&self, digit: u8) -> Cells {
        self.by_digit[usize::from(digit - 1)]
    }

    /// True when `digit` is a candidate of the cell.
    pub fn has(&self, index: usize, digit: u8) -> bool {
        self.marks[index] & bit(digit) != 0
    }

    /// The cells where `digit` is placed.
    pub fn placed(&self, digit: u8) -> Cells {
        self.placed[usize::from(digit - 1)]
    }

    /// The blank cells.
    pub fn blanks(&self) -> Cells {
        self.blanks
    }

    /// Blank cells with exactly two candidates.
    pub fn bivalue_cells(&self) -> Cells {
        let mut cells = Cells::EMPTY;
        for index in self.blanks.iter() {
            if self.marks[index].count_ones() == 2 {
                cells.0 |= 1 << index;
            }
        }
        cells
    }

    /// True when every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.blanks.is_empty()
    }

    /// True when some blank cell has no candidate left, or some digit has
    /// no place left in a unit that lacks it: the position is impossible.
    pub fn is_broken(&self) -> bool {
        let marked = self.by_digit.iter().fold(Cells::EMPTY, |all, &c| all.or(c));
        if !self.blanks.minus(marked).is_empty() {
            return true;
        }
        self.by_digit
            .iter()
            .zip(&self.placed)
            .any(|(&open, &placed)| {
                let covered = open.or(placed);
                UNITS.iter().any(|unit| covered.and(*unit).is_empty())
            })
    }

    /// The board of the digits placed so far.
    pub fn board(&self) -> Board {
        Board::from_cells(self.values).expect("grid values are digits")
    }

    /// Places `digit` in a cell and crosses it out of the cell's peers.
    pub fn place(&mut self, index: usize, digit: u8) {
        for other in digits(self.marks[index]) {
            self.by_digit[usize::from(other - 1)].0 &= !(1 << index);
        }
        self.values[index] = digit;
        self.placed[usize::from(digit - 1)].0 |= 1 << index;
        self.marks[index] = 0;
        self.blanks.0 &= !(1 << index);
        let seen = PEERS[index].and(self.cells_with(digit));
        for peer in seen.iter() {
            self.marks[peer] &= !bit(digit);
        }
        self.by_digit[usize::from(digit - 1)] = self.cells_with(digit).minus(seen);
    }

    /// Crosses `digit` out of a blank cell's candidates.
    pub fn eliminate(&mut self, index: usize, digit: u8) {
        if self.values[index] == 0 {
            self.marks[index] &= !bit(digit);
            self.by_digit[usize::from(digit - 1)].0 &= !(1 << index);
        }
    }

    /// Candidates that remain, as a 729-character marks string (see
    /// [`Grid::with_marks`]); placed cells show their digit.
    pub fn marks_text(&self) -> String {
        let mut text = String::with_capacity(729);
        for index in 0..81 {
            for digit in 1..=9u8 {
                let kept = self.has(index, digit) || self.values[index] == digit;
                text.push(if kept { char::from(b'0' + digit) } else { '.' });
            }
        }
        text
    }
}
