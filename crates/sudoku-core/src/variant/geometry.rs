//! The shape of a variant grid: its size, its standard boxes, how its
//! cells and digits are named.
//!
//! Cells are row-major indices (`row * size + column`), as for the classic
//! board. Names follow f-puzzles: `R1C1` at the top left, rows and columns
//! counted from 1 and written in decimal past 9 (`R10C1`). Digits past 9
//! are written as letters, `A` for 10 up to `P` for 25, so that every
//! solution prints as one character a cell.

use std::fmt;

/// The largest grid side: 25 digits fit a `u32` candidate mask.
pub const MAX_SIZE: usize = 25;

/// The grid sides with a standard box shape, and that shape (rows × columns
/// of a box). Sizes 6, 8 and 10 have boxes two rows tall, 12 and 15 three,
/// as f-puzzles draws them.
const BOXES: [(usize, usize, usize); 9] = [
    (4, 2, 2),
    (6, 2, 3),
    (8, 2, 4),
    (9, 3, 3),
    (10, 2, 5),
    (12, 3, 4),
    (15, 3, 5),
    (16, 4, 4),
    (25, 5, 5),
];

/// A grid side and its standard box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    size: u8,
    box_rows: u8,
    box_columns: u8,
}

impl Shape {
    /// The shape of a grid `size` cells wide, or `None` for a size with no
    /// standard boxes (see [`Shape::SIZES`]).
    pub fn new(size: usize) -> Option<Shape> {
        BOXES
            .iter()
            .find(|&&(side, _, _)| side == size)
            .map(|&(side, rows, columns)| Shape {
                size: side as u8,
                box_rows: rows as u8,
                box_columns: columns as u8,
            })
    }

    /// The classic 9×9 grid.
    pub const CLASSIC: Shape = Shape {
        size: 9,
        box_rows: 3,
        box_columns: 3,
    };

    /// Every supported side, smallest first.
    pub const SIZES: [usize; 9] = [4, 6, 8, 9, 10, 12, 15, 16, 25];

    /// Cells a row (and digits a cell may hold).
    pub fn size(self) -> usize {
        usize::from(self.size)
    }

    /// Cells in the grid.
    pub fn cell_count(self) -> usize {
        self.size() * self.size()
    }

    /// A standard box's height and width.
    pub fn box_dims(self) -> (usize, usize) {
        (usize::from(self.box_rows), usize::from(self.box_columns))
    }

    /// The 0-based row of a cell.
    pub fn row(self, cell: usize) -> usize {
        cell / self.size()
    }

    /// The 0-based column of a cell.
    pub fn column(self, cell: usize) -> usize {
        cell % self.size()
    }

    /// The cell at a 0-based row and column, if both are on the grid.
    pub fn cell_at(self, row: usize, column: usize) -> Option<usize> {
        (row < self.size() && column < self.size()).then(|| row * self.size() + column)
    }

    /// The standard box each cell lies in, numbered in reading order.
    pub fn standard_regions(self) -> Vec<u8> {
        let (rows, columns) = self.box_dims();
        let boxes_across = self.size() / columns;
        (0..self.cell_count())
            .map(|cell| {
                let band = self.row(cell) / rows;
                let stack = self.column(cell) / columns;
                (band * boxes_across + stack) as u8
            })
            .collect()
    }

    /// A cell's f-puzzles name: `R1C1` top left.
    pub fn cell_name(self, cell: usize) -> CellName {
        CellName {
            row: self.row(cell) + 1,
            column: self.column(cell) + 1,
        }
    }

    /// The digits a cell may hold, as a mask with bit `d` for digit `d`.
    pub fn all_digits(self) -> u32 {
        ((1u32 << self.size()) - 1) << 1
    }
}

/// A cell's name as players write it, `R3C12`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellName {
    /// Row, counted from 1.
    pub row: usize,
    /// Column, counted from 1.
    pub column: usize,
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "R{}C{}", self.row, self.column)
    }
}

/// The character a digit prints as: `1`-`9`, then `A` (10) to `P` (25);
/// `.` for 0, a blank, and `?` for anything past 25.
pub fn digit_char(digit: u8) -> char {
    match digit {
        0 => '.',
        1..=9 => char::from(b'0' + digit),
        10..=25 => char::from(b'A' + digit - 10),
        _ => '?',
    }
}

/// The digit a character stands for ([`digit_char`]'s inverse, lower case
/// letters too); `None` for anything else.
pub fn char_digit(character: char) -> Option<u8> {
    match character {
        '1'..='9' => Some(character as u8 - b'0'),
        'A'..='P' => Some(character as u8 - b'A' + 10),
        'a'..='p' => Some(character as u8 - b'a' + 10),
        _ => None,
    }
}

/// A grid's digits as one line, one character a cell ([`digit_char`]).
pub fn digits_line(digits: &[u8]) -> String {
    digits.iter().map(|&digit| digit_char(digit)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_tile_the_grid_with_one_box_per_digit() {
        for size in Shape::SIZES {
            let shape = Shape::new(size).unwrap();
            let regions = shape.standard_regions();
            for region in 0..size {
                let count = regions
                    .iter()
                    .filter(|&&r| usize::from(r) == region)
                    .count();
                assert_eq!(count, size, "size {size}, box {region}");
            }
        }
        assert_eq!(Shape::new(7), None);
        assert_eq!(Shape::new(9), Some(Shape::CLASSIC));
    }

    #[test]
    fn boxes_of_six_eight_and_ten_are_two_rows_tall() {
        assert_eq!(Shape::new(6).unwrap().box_dims(), (2, 3));
        assert_eq!(Shape::new(8).unwrap().box_dims(), (2, 4));
        assert_eq!(Shape::new(10).unwrap().box_dims(), (2, 5));
        assert_eq!(Shape::new(12).unwrap().box_dims(), (3, 4));
        assert_eq!(Shape::new(15).unwrap().box_dims(), (3, 5));
        // Six: R1C1-R2C3 is the first box, R1C4 starts the second.
        let six = Shape::new(6).unwrap().standard_regions();
        assert_eq!(&six[..6], &[0, 0, 0, 1, 1, 1]);
        assert_eq!(six[2 * 6], 2);
    }

    #[test]
    fn names_and_digits_past_nine() {
        let shape = Shape::new(16).unwrap();
        assert_eq!(shape.cell_name(9 * 16).to_string(), "R10C1");
        assert_eq!(shape.cell_name(15).to_string(), "R1C16");
        assert_eq!(digits_line(&[0, 1, 9, 10, 16, 25]), ".19AGP");
        for digit in 1..=25 {
            assert_eq!(char_digit(digit_char(digit)), Some(digit));
        }
        assert_eq!(char_digit('Q'), None);
        assert_eq!(Shape::new(25).unwrap().all_digits().count_ones(), 25);
    }
}
