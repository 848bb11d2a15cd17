//! What changed since a search found nothing: the part of the grid a
//! technique must look at again.
//!
//! The grader climbs the ladder from its first rung at every step, and on
//! a hard puzzle most rungs find nothing step after step, while each step
//! changes a cell or two. A technique's pattern is made of candidates,
//! and its removals lie among candidates too. A pattern on the new grid
//! none of whose candidates changed was there on the old grid, with every
//! removal it has now (candidates are only ever crossed out); a rung that
//! found nothing there would have found it. So such a rung need only try
//! the patterns that a change touches: those on a digit whose places
//! changed, or those holding a cell whose candidates changed. Each
//! technique says what its patterns hold; searched so, it finds exactly
//! what a search of the whole grid finds, in the same order, only sooner.

use super::bits::Cells;
use super::grid::Grid;

/// The cells and digits a search must consider: everything, or what
/// changed since a grid on which it found nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scope {
    cells: Cells,
    digits: u16,
}

impl Scope {
    /// The whole grid: a search with no memory.
    pub const WHOLE: Scope = Scope {
        cells: Cells::ALL,
        digits: 0x1ff,
    };

    /// What differs between `before` and `now`, a grid reached from it by
    /// placing digits and crossing out candidates: the cells whose
    /// candidates changed or that were filled, and the digits that left
    /// some cell's candidates (a placed digit among them, since it was a
    /// candidate of its cell).
    pub fn since(before: &Grid, now: &Grid) -> Scope {
        debug_assert!(
            now.blanks().minus(before.blanks()).is_empty()
                && (0..81).all(|cell| now.marks(cell) & !before.marks(cell) == 0),
            "a later grid only fills cells and crosses out candidates"
        );
        let mut scope = Scope {
            cells: before.blanks().minus(now.blanks()),
            digits: 0,
        };
        for cell in before.blanks().iter() {
            let gone = before.marks(cell) ^ now.marks(cell);
            if gone != 0 {
                scope.cells = scope.cells.or(Cells::single(cell));
                scope.digits |= gone;
            }
        }
        scope
    }

    /// Whether the places of `digit` may have changed.
    pub fn has_digit(self, digit: u8) -> bool {
        self.digits & super::bits::bit(digit) != 0
    }

    /// Whether any of `cells` may have changed.
    pub fn touches(self, cells: Cells) -> bool {
        !self.cells.and(cells).is_empty()
    }

    /// The digits whose places may have changed, as a mask.
    pub fn digits(self) -> u16 {
        self.digits
    }

    /// The cells that may have changed.
    pub fn cells(self) -> Cells {
        self.cells
    }

    /// Every cell, but only the digits of `digits`: for tests of searches
    /// that narrow by digit.
    #[cfg(test)]
    pub fn of_digits(digits: u16) -> Scope {
        Scope {
            cells: Cells::ALL,
            digits,
        }
    }

    /// Whether this is the whole grid.
    pub fn is_whole(self) -> bool {
        self == Scope::WHOLE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_board;

    #[test]
    fn a_placement_and_a_removal_change_their_cells_and_digits_only() {
        let board = parse_board(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let before = Grid::new(&board);
        let mut now = before.clone();
        let cell = before.blanks().first().unwrap();
        let digit = super::super::bits::digits(before.marks(cell))
            .next()
            .unwrap();
        now.place(cell, digit);
        let far = 80;
        let other = super::super::bits::digits(now.marks(far)).last().unwrap();
        now.eliminate(far, other);
        let scope = Scope::since(&before, &now);
        let changed: Vec<usize> = (0..81)
            .filter(|&c| before.marks(c) != now.marks(c) || before.value(c) != now.value(c))
            .collect();
        assert!(changed.len() > 2, "{changed:?}");
        for c in 0..81 {
            assert_eq!(scope.touches(Cells::single(c)), changed.contains(&c), "{c}");
        }
        for d in 1..=9 {
            let moved = before.cells_with(d) != now.cells_with(d);
            assert_eq!(scope.has_digit(d), moved, "digit {d}");
        }
        assert!(Scope::since(&now, &now).cells.is_empty());
        assert!(Scope::WHOLE.is_whole() && !scope.is_whole());
    }
}
