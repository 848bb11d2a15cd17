//! A house: `size` cells that hold every digit once. Naked singles are the
//! peers' business (the engine strikes a placed digit from every peer);
//! the house finds hidden singles, a digit with one place left, and fails
//! when a digit has none.

use super::narrowing::{Contradiction, Narrowing, digits_of};

/// `size` cells holding distinct digits, so each digit exactly once.
#[derive(Debug, Clone)]
pub(crate) struct House {
    cells: Box<[u16]>,
}

impl House {
    pub fn new(cells: Box<[u16]>) -> House {
        House { cells }
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let mut once = 0u32;
        let mut twice = 0u32;
        for &cell in self.cells.iter() {
            let mask = grid.mask(cell);
            twice |= once & mask;
            once |= mask;
        }
        if once != grid.all_digits() {
            return Err(Contradiction);
        }
        for digit in digits_of(once & !twice).map(|d| 1 << d) {
            let place = self
                .cells
                .iter()
                .copied()
                .find(|&c| grid.mask(c) & digit != 0);
            if let Some(cell) = place {
                grid.narrow(cell, digit)?;
            }
        }
        Ok(())
    }

    pub fn accepts(&self, masks: &[u32]) -> bool {
        let all = self
            .cells
            .iter()
            .fold(0, |seen, &c| seen | masks[usize::from(c)]);
        all.count_ones() as usize == self.cells.len()
    }
}
