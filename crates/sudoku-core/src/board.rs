//! The 9×9 board, its cells and units, and the check that givens agree.

use std::fmt;

/// A 9×9 Sudoku grid: 81 cells in row-major order, each 0 (blank) or 1-9.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; 81],
}

/// One of the 81 cells, by its row-major index 0..81. Displays as `r1c2`
/// (row and column counted from 1), the notation Sudoku players use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

/// A row, column or box: nine cells that must hold each digit once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A row, numbered 1-9 from the top.
    Row(u8),
    /// A column, numbered 1-9 from the left.
    Column(u8),
    /// A 3×3 box, numbered 1-9 in reading order.
    Box(u8),
}

/// Two givens that repeat a digit within one unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Conflict {
    /// The repeated digit.
    pub digit: u8,
    /// The earlier of the two cells, in reading order.
    pub first: Cell,
    /// The later of the two cells.
    pub second: Cell,
    /// The unit both cells belong to.
    pub unit: Unit,
}

impl Cell {
    /// The cell at a row-major index; `None` unless `index < 81`.
    pub fn new(index: usize) -> Option<Cell> {
        (index < 81).then_some(Cell(index as u8))
    }

    /// The row-major index, 0..81.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Row, 0..9.
    pub fn row(self) -> usize {
        self.index() / 9
    }

    /// Column, 0..9.
    pub fn column(self) -> usize {
        self.index() % 9
    }

    /// Box, 0..9 in reading order.
    pub fn box_index(self) -> usize {
        self.row() / 3 * 3 + self.column() / 3
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.column() + 1)
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(n) => write!(f, "row {n}"),
            Unit::Column(n) => write!(f, "column {n}"),
            Unit::Box(n) => write!(f, "box {n}"),
        }
    }
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "digit {} appears at both {} and {}, in the same {}",
            self.digit, self.first, self.second, self.unit
        )
    }
}

impl Board {
    /// The board with all 81 cells blank.
    pub const EMPTY: Board = Board { cells: [0; 81] };

    /// A board from its cells; `None` if any value is above 9.
    pub fn from_cells(cells: [u8; 81]) -> Option<Board> {
        // A fold rather than `all`: no early exit, so it compiles to a few
        // vector instructions.
        let largest = cells.iter().fold(0, |largest, &value| value.max(largest));
        (largest <= 9).then_some(Board { cells })
    }

    /// The cells in row-major order: 0 for a blank, else the digit.
    pub fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The value of one cell: 0 for a blank, else the digit.
    pub fn get(&self, cell: Cell) -> u8 {
        self.cells[cell.index()]
    }

    /// How many cells hold a digit.
    pub fn given_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is blank.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of givens, in reading order of the later cell, that
    /// repeat a digit in a row, column or box; `None` when the givens agree.
    pub fn find_conflict(&self) -> Option<Conflict> {
        // For each unit and digit, the first cell seen holding that digit.
        let mut seen: [[Option<Cell>; 9]; 27] = [[None; 9]; 27];
        for (index, &value) in self.cells.iter().enumerate() {
            if value == 0 {
                continue;
            }
            let cell = Cell(index as u8);
            let digit = usize::from(value - 1);
            let units = [
                (cell.row(), Unit::Row(cell.row() as u8 + 1)),
                (9 + cell.column(), Unit::Column(cell.column() as u8 + 1)),
                (18 + cell.box_index(), Unit::Box(cell.box_index() as u8 + 1)),
            ];
            for (slot, unit) in units {
                match seen[slot][digit] {
                    Some(first) => {
                        return Some(Conflict {
                            digit: value,
                            first,
                            second: cell,
                            unit,
                        });
                    }
                    None => seen[slot][digit] = Some(cell),
                }
            }
        }
        None
    }

    /// True when the board is full and every row, column and box holds each
    /// digit once.
    ///
    /// Each unit's digits are gathered as bits (a blank sets bit 0) and
    /// compared with the nine digit bits, without branches: clients check
    /// every solution a server sends, hundreds of thousands a second.
    pub fn is_solved(&self) -> bool {
        const ALL_DIGITS: u16 = 0b11_1111_1110;
        let mut columns = [0u16; 9];
        let mut boxes = [0u16; 3];
        let mut solved = true;
        for (row, cells) in self.cells.chunks_exact(9).enumerate() {
            let mut row_digits = 0;
            for (column, &value) in cells.iter().enumerate() {
                let bit = 1 << value;
                row_digits |= bit;
                columns[column] |= bit;
                boxes[column / 3] |= bit;
            }
            solved &= row_digits == ALL_DIGITS;
            if row % 3 == 2 {
                // The band's three boxes are complete.
                solved &= boxes == [ALL_DIGITS; 3];
                boxes = [0; 3];
            }
        }
        solved & (columns == [ALL_DIGITS; 9])
    }

    /// True when every given of `puzzle` has the same value here.
    pub fn keeps_givens_of(&self, puzzle: &Board) -> bool {
        // A fold rather than `all`: no early exit, so it vectorises.
        puzzle
            .cells
            .iter()
            .zip(&self.cells)
            .fold(true, |kept, (&given, &value)| {
                kept & ((given == 0) | (given == value))
            })
    }

    /// Writes the board as one 81-character line, `.` for blanks, into `out`.
    pub fn write_line(&self, out: &mut [u8; 81]) {
        for (byte, &value) in out.iter_mut().zip(&self.cells) {
            *byte = if value == 0 { b'.' } else { b'0' + value };
        }
    }

    /// The board as one 81-character line, `.` for blanks.
    pub fn to_line(&self) -> String {
        let mut line = [0u8; 81];
        self.write_line(&mut line);
        // One allocation and a copy, rather than pushing char by char.
        String::from_utf8(line.to_vec()).expect("the line is ASCII")
    }

    /// The board as a 9-line grid with box separators, for people to read.
    /// It parses back to the same board.
    pub fn to_grid(&self) -> String {
        let mut grid = String::with_capacity(200);
        for row in 0..9 {
            if row == 3 || row == 6 {
                grid.push_str("------+-------+------\n");
            }
            for column in 0..9 {
                if column == 3 || column == 6 {
                    grid.push_str("| ");
                }
                let value = self.cells[row * 9 + column];
                grid.push(if value == 0 {
                    '.'
                } else {
                    char::from(b'0' + value)
                });
                grid.push(if column == 8 { '\n' } else { ' ' });
            }
        }
        grid
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_line())
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(line: &str) -> Board {
        crate::parse_board(line).unwrap()
    }

    #[test]
    fn cells_display_in_row_column_notation() {
        assert_eq!(Cell::new(0).unwrap().to_string(), "r1c1");
        assert_eq!(Cell::new(10).unwrap().to_string(), "r2c2");
        assert_eq!(Cell::new(80).unwrap().to_string(), "r9c9");
        assert_eq!(Cell::new(81), None);
        assert_eq!(Cell::new(40).unwrap().box_index(), 4);
    }

    #[test]
    fn a_repeated_digit_in_a_row_names_both_cells() {
        let mut line = ".".repeat(81);
        line.replace_range(1..2, "5");
        line.replace_range(6..7, "5");
        let conflict = board(&line).find_conflict().unwrap();
        assert_eq!(
            conflict.to_string(),
            "digit 5 appears at both r1c2 and r1c7, in the same row 1"
        );
    }

    #[test]
    fn a_repeated_digit_in_a_column_or_box_names_the_unit() {
        let mut line = ".".repeat(81);
        line.replace_range(4..5, "3");
        line.replace_range(76..77, "3");
        let conflict = board(&line).find_conflict().unwrap();
        assert_eq!(conflict.unit, Unit::Column(5));
        assert_eq!(
            (conflict.first.to_string(), conflict.second.to_string()),
            ("r1c5".into(), "r9c5".into())
        );

        let mut line = ".".repeat(81);
        line.replace_range(0..1, "7");
        line.replace_range(20..21, "7");
        let conflict = board(&line).find_conflict().unwrap();
        assert_eq!(conflict.unit, Unit::Box(1));
        assert_eq!(conflict.digit, 7);
    }

    #[test]
    fn consistent_givens_have_no_conflict() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        assert_eq!(board(line).find_conflict(), None);
    }

    #[test]
    fn a_solved_board_has_every_digit_once_in_every_unit() {
        let solution =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        assert!(board(solution).is_solved());
        let blank = solution.replacen('5', ".", 1);
        assert!(!board(&blank).is_solved(), "a blank");
        let swapped = format!("35{}", &solution[2..]);
        assert!(!board(&swapped).is_solved(), "columns 1 and 2 break");
        // Rows and columns hold each digit once, boxes do not.
        let latin: String = (0..81)
            .map(|i| char::from(b'1' + ((i / 9 + i % 9) % 9) as u8))
            .collect();
        assert!(
            !board(&latin).is_solved(),
            "a Latin square is not a solution"
        );
        assert!(board(&latin).find_conflict().is_some());
    }

    #[test]
    fn grid_and_line_forms_round_trip() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let parsed = board(line);
        assert_eq!(parsed.to_line(), line);
        assert_eq!(board(&parsed.to_grid()), parsed);
    }
}
