//! A cage with a sum: distinct digits adding to a total. The builder lists
//! every set of digits that makes the total; the propagator keeps the sets
//! that fit the cage's cells as they stand (every placed digit in the set,
//! every digit of the set still somewhere, every cell able to take one of
//! them). A cell keeps only digits of some surviving set, and a digit every
//! surviving set needs that one cell alone can take is placed there.

use std::sync::Arc;

use super::narrowing::{Contradiction, Narrowing, digits_of};

/// Distinct digits with a fixed sum.
#[derive(Debug, Clone)]
pub(crate) struct CageSum {
    cells: Box<[u16]>,
    /// The digit sets that make the sum, as masks (shared by the cages of
    /// one size and sum).
    sets: Arc<[u32]>,
}

impl CageSum {
    pub fn new(cells: Box<[u16]>, sets: Arc<[u32]>) -> CageSum {
        CageSum { cells, sets }
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let mut union = 0;
        let mut placed = 0;
        for &cell in self.cells.iter() {
            let mask = grid.mask(cell);
            union |= mask;
            if mask.is_power_of_two() {
                placed |= mask;
            }
        }
        let mut allowed = 0;
        let mut needed = u32::MAX;
        for &set in self.sets.iter() {
            let fits = set & placed == placed
                && set & !union == 0
                && self.cells.iter().all(|&cell| grid.mask(cell) & set != 0);
            if fits {
                allowed |= set;
                needed &= set;
            }
        }
        if allowed == 0 {
            return Err(Contradiction);
        }
        for &cell in self.cells.iter() {
            grid.narrow(cell, allowed)?;
        }
        self.place_needed(grid, needed & !placed)
    }

    /// Places each needed digit that one cell alone can still take.
    fn place_needed(&self, grid: &mut Narrowing<'_>, needed: u32) -> Result<(), Contradiction> {
        for digit in digits_of(needed).map(|d| 1 << d) {
            let mut places = self
                .cells
                .iter()
                .copied()
                .filter(|&c| grid.mask(c) & digit != 0);
            match (places.next(), places.next()) {
                (None, _) => return Err(Contradiction),
                (Some(cell), None) => grid.narrow(cell, digit)?,
                _ => {}
            }
        }
        Ok(())
    }

    pub fn accepts(&self, masks: &[u32]) -> bool {
        let digits = self
            .cells
            .iter()
            .fold(0, |seen, &c| seen | masks[usize::from(c)]);
        self.sets.contains(&digits) && digits.count_ones() as usize == self.cells.len()
    }
}
