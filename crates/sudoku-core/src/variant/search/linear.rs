//! A weighted sum with a fixed total, narrowed by its bounds: each cell
//! keeps the digits that the others' smallest and largest contributions
//! leave room for. Arrows (the line's sum against the number its bulb
//! spells) and cages too large to list their digit sets compile to this.
//! Bounds alone prove nothing wrong until every cell is placed, and then
//! they are exact, so the search never accepts a broken sum.

use super::narrowing::{Contradiction, Narrowing};

/// `sum(weight × digit) == total`.
#[derive(Debug, Clone)]
pub(crate) struct Linear {
    cells: Box<[u16]>,
    weights: Box<[i64]>,
    total: i64,
}

impl Linear {
    pub fn new(terms: Vec<(u16, i64)>, total: i64) -> Linear {
        let (cells, weights): (Vec<u16>, Vec<i64>) = terms.into_iter().unzip();
        Linear {
            cells: cells.into(),
            weights: weights.into(),
            total,
        }
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let (low, high) = self.bounds(|cell| grid.mask(cell));
        if self.total < low || self.total > high {
            return Err(Contradiction);
        }
        for (&cell, &weight) in self.cells.iter().zip(self.weights.iter()) {
            let (own_low, own_high) = term_bounds(grid.mask(cell), weight);
            // What this term must contribute, given the others' range.
            let least = self.total - (high - own_high);
            let most = self.total - (low - own_low);
            grid.narrow(cell, digits_between(weight, least, most))?;
        }
        Ok(())
    }

    pub fn accepts(&self, masks: &[u32]) -> bool {
        let (low, high) = self.bounds(|cell| masks[usize::from(cell)]);
        low == high && low == self.total
    }

    fn bounds(&self, mask: impl Fn(u16) -> u32) -> (i64, i64) {
        let mut low = 0;
        let mut high = 0;
        for (&cell, &weight) in self.cells.iter().zip(self.weights.iter()) {
            let (term_low, term_high) = term_bounds(mask(cell), weight);
            low += term_low;
            high += term_high;
        }
        (low, high)
    }
}

/// The smallest and largest `weight × digit` over a mask's digits.
fn term_bounds(mask: u32, weight: i64) -> (i64, i64) {
    let smallest = i64::from(mask.trailing_zeros());
    let largest = 31 - i64::from(mask.leading_zeros());
    let (a, b) = (weight * smallest, weight * largest);
    (a.min(b), a.max(b))
}

/// The digits `d` (1 to 25) with `least <= weight × d <= most`, as a mask.
fn digits_between(weight: i64, least: i64, most: i64) -> u32 {
    let mut mask = 0;
    for digit in 1..=25i64 {
        let value = weight * digit;
        if value >= least && value <= most {
            mask |= 1 << digit;
        }
    }
    mask
}
