//! Candidates as one bitboard per digit, with singles propagated: the
//! cheap engine under the climb's hardness measure.
//!
//! The climb propagates singles hundreds of thousands of times a second
//! (once per candidate of every puzzle it weighs), so this is the plainest
//! fast form: where each digit may still go, and where each is placed,
//! as 81-bit masks. Naked singles come from counting candidates across the
//! nine masks bit by bit, hidden singles from a popcount per unit and
//! digit. It knows no techniques beyond the two singles, on purpose: what
//! singles alone make of an assumption is what Sukaku Explainer's
//! dynamic chains of the first level see.

use crate::logic::bits::{Cells, PEERS, UNITS};

/// Every cell.
const ALL: u128 = Cells::ALL.0;

/// Every digit, as a 9-bit mask.
const ALL_DIGITS: u16 = 0x1ff;

/// An assumption's propagation ended in a contradiction: a cell with no
/// candidate, or a digit with no place in a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contradiction;

/// Placed digits and the candidates of the blank cells, per digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidates {
    /// For digit `d`, at index `d - 1`, the blank cells that may hold it.
    pub(super) open: [u128; 9],
    /// For digit `d`, at index `d - 1`, the cells that hold it.
    pub(super) placed: [u128; 9],
    /// The digits (bit `d - 1`) whose places changed since their units
    /// were last searched for hidden singles (or for any single, once
    /// candidates are crossed out by other means).
    pub(super) dirty: u16,
}

impl Candidates {
    /// The candidates `cells` (0 for a blank) leave, before any single,
    /// or `None` when two givens clash.
    pub fn of_givens(cells: &[u8; 81]) -> Option<Candidates> {
        let mut candidates = Candidates {
            open: [ALL; 9],
            placed: [0; 9],
            dirty: ALL_DIGITS,
        };
        for (cell, &digit) in cells.iter().enumerate() {
            if digit != 0 && candidates.place(cell, digit).is_err() {
                return None;
            }
        }
        Some(candidates)
    }

    /// The candidates of a worked grid: its placed digits, and each blank
    /// cell's marks (bit `d - 1` for digit `d`).
    #[cfg(test)]
    pub fn of_marks(values: &[u8; 81], marks: &[u16; 81]) -> Candidates {
        let mut candidates = Candidates {
            open: [0; 9],
            placed: [0; 9],
            dirty: ALL_DIGITS,
        };
        for cell in 0..81 {
            for digit in 0..9 {
                if values[cell] == digit as u8 + 1 {
                    candidates.placed[digit] |= 1 << cell;
                } else if values[cell] == 0 && marks[cell] >> digit & 1 != 0 {
                    candidates.open[digit] |= 1 << cell;
                }
            }
        }
        candidates
    }

    /// Places `digit` (1-9) in `cell`, crossing it out of the cell's
    /// peers; a contradiction when it is not a candidate there.
    pub fn place(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        let index = usize::from(digit - 1);
        if self.open[index] >> cell & 1 == 0 {
            return Err(Contradiction);
        }
        for (other, open) in self.open.iter_mut().enumerate() {
            self.dirty |= ((*open >> cell & 1) as u16) << other;
            *open &= !(1 << cell);
        }
        self.open[index] &= !PEERS[cell].0;
        self.placed[index] |= 1 << cell;
        Ok(())
    }

    /// Places naked and hidden singles until none is left, and says how
    /// many digits that placed.
    pub fn propagate(&mut self) -> Result<u32, Contradiction> {
        let mut placed = 0;
        loop {
            let found = self.place_naked_singles()? + self.place_hidden_singles()?;
            // Nothing placed leaves no digit changed since its search.
            if found == 0 {
                return Ok(placed);
            }
            placed += found;
        }
    }

    /// Places every cell with one candidate left.
    fn place_naked_singles(&mut self) -> Result<u32, Contradiction> {
        let (once, twice) = self.counts();
        let blank = !self.filled() & ALL;
        if blank & !once != 0 {
            return Err(Contradiction);
        }
        let mut singles = once & !twice;
        let mut placed = 0;
        while singles != 0 {
            let cell = singles.trailing_zeros() as usize;
            singles &= singles - 1;
            let digit = (0..9)
                .find(|&digit| self.open[digit] >> cell & 1 != 0)
                .ok_or(Contradiction)?;
            self.place(cell, digit as u8 + 1)?;
            placed += 1;
        }
        Ok(placed)
    }

    /// Places every digit with one place left in a unit that lacks it,
    /// among the digits whose places changed.
    fn place_hidden_singles(&mut self) -> Result<u32, Contradiction> {
        let mut placed = 0;
        let mut digits = std::mem::take(&mut self.dirty);
        while digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            for unit in UNITS {
                if self.placed[digit] & unit.0 != 0 {
                    continue;
                }
                let places = self.open[digit] & unit.0;
                if places == 0 {
                    return Err(Contradiction);
                }
                if places & (places - 1) == 0 {
                    self.place(places.trailing_zeros() as usize, digit as u8 + 1)?;
                    placed += 1;
                }
            }
        }
        Ok(placed)
    }

    /// The cells with at least one candidate, and with at least two.
    fn counts(&self) -> (u128, u128) {
        let (mut once, mut twice) = (0, 0);
        for open in self.open {
            twice |= once & open;
            once |= open;
        }
        (once, twice)
    }

    /// The cells that hold a digit.
    fn filled(&self) -> u128 {
        self.placed.iter().fold(0, |all, placed| all | placed)
    }

    /// True when every cell holds a digit.
    pub fn is_full(&self) -> bool {
        self.filled() == ALL
    }

    /// How many candidates the blank cells hold.
    pub fn count(&self) -> u32 {
        self.open.iter().map(|open| open.count_ones()).sum()
    }

    /// Each candidate of a blank cell, as (cell, digit), digit by digit.
    pub fn each(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        (0..9u8).flat_map(move |digit| {
            Cells(self.open[usize::from(digit)])
                .iter()
                .map(move |cell| (cell, digit + 1))
        })
    }

    /// The digits placed, 0 for a blank.
    #[cfg(test)]
    pub fn digits(&self) -> [u8; 81] {
        let mut cells = [0; 81];
        for (digit, &placed) in self.placed.iter().enumerate() {
            for cell in Cells(placed).iter() {
                cells[cell] = digit as u8 + 1;
            }
        }
        cells
    }
}
