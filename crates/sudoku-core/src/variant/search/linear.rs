//! A weighted sum with a fixed total, narrowed by its bounds. Arrows (the
//! line's sum against the number its bulb spells), the innies and outies
//! of runs of houses, and cages too large to list their digit sets compile
//! to this.
//!
//! The cells are grouped into cliques of equal weight whose cells must
//! differ (they share a row, a cage …): a clique of `t` cells takes at
//! least its `t` smallest distinct candidates and at most its `t` largest,
//! which bounds a long arrow far tighter than cell by cell (the ISS
//! measured forty thousand times fewer guesses on its long sums). Each
//! digit of each cell is kept only if the sum can still be met with it.
//! Bounds are exact once every cell is placed, so the search never
//! accepts a broken sum.

use super::narrowing::{Contradiction, Narrowing, digits_of};

/// `sum(weight × digit) == total`, over cliques of equal weight.
#[derive(Debug, Clone)]
pub(crate) struct Linear {
    /// The cells, each clique's together.
    cells: Box<[u16]>,
    /// Each clique: where its cells end in `cells`, and their weight.
    cliques: Box<[(usize, i64)]>,
    total: i64,
}

impl Linear {
    /// A sum over `cliques`: each a list of cells that must differ, with
    /// their common weight.
    pub fn new(cliques: Vec<(Vec<u16>, i64)>, total: i64) -> Linear {
        let mut cells = Vec::new();
        let mut ends = Vec::new();
        for (clique, weight) in cliques {
            cells.extend(clique);
            ends.push((cells.len(), weight));
        }
        Linear {
            cells: cells.into(),
            cliques: ends.into(),
            total,
        }
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// Each clique's cells and weight.
    fn each_clique(&self) -> impl Iterator<Item = (&[u16], i64)> {
        let mut start = 0;
        self.cliques.iter().map(move |&(end, weight)| {
            let cells = &self.cells[start..end];
            start = end;
            (cells, weight)
        })
    }

    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let (mut low, mut high) = (0, 0);
        for (cells, weight) in self.each_clique() {
            let bounds = CliqueBounds::of(cells, grid);
            let (least, most) = bounds.range(cells.len(), None)?;
            let range = weighted(weight, least, most);
            low += range.0;
            high += range.1;
        }
        if self.total < low || self.total > high {
            return Err(Contradiction);
        }
        // One digit in one cell moves its clique's bounds by at most the
        // clique's spread of digits (times its weight); a clique whose
        // spread fits within the slack on both sides loses no digit.
        let slack = (self.total - low).min(high - self.total);
        for (cells, weight) in self.each_clique() {
            let bounds = CliqueBounds::of(cells, grid);
            let spread = i64::from(31 - bounds.union.leading_zeros())
                - i64::from(bounds.union.trailing_zeros());
            if weight.abs() * spread <= slack {
                continue;
            }
            let (least, most) = bounds.range(cells.len(), None)?;
            let (own_low, own_high) = weighted(weight, least, most);
            for &cell in cells {
                let mask = grid.mask(cell);
                // The rest of the clique, this cell apart.
                let others = bounds.without((mask.trailing_zeros(), 31 - mask.leading_zeros()));
                let mut keep = 0;
                for digit in digits_of(mask) {
                    // The rest of the clique, with this digit here.
                    let rest = others.range(cells.len() - 1, Some(digit as u8));
                    let Ok((least, most)) = rest else { continue };
                    let (rest_low, rest_high) = weighted(weight, least, most);
                    let own = weight * i64::from(digit);
                    let with_low = low - own_low + own + rest_low;
                    let with_high = high - own_high + own + rest_high;
                    if with_low <= self.total && self.total <= with_high {
                        keep |= 1 << digit;
                    }
                }
                grid.narrow(cell, keep)?;
            }
        }
        Ok(())
    }

    pub fn accepts(&self, masks: &[u32]) -> bool {
        let sum: i64 = self
            .each_clique()
            .flat_map(|(cells, weight)| {
                cells
                    .iter()
                    .map(move |&c| weight * i64::from(masks[usize::from(c)].trailing_zeros()))
            })
            .sum();
        let distinct = self.each_clique().all(|(cells, _)| {
            let union = cells.iter().fold(0u32, |u, &c| u | masks[usize::from(c)]);
            union.count_ones() as usize == cells.len()
        });
        distinct && sum == self.total
    }
}

/// What bounds a clique's sum: its cells' smallest and largest digits
/// added up (cells taken alone), and the union of their candidates
/// (cells taken as distinct). Each gives bounds; the tighter are used.
struct CliqueBounds {
    smallest: i64,
    largest: i64,
    union: u32,
}

impl CliqueBounds {
    fn of(cells: &[u16], grid: &Narrowing<'_>) -> CliqueBounds {
        let mut bounds = CliqueBounds {
            smallest: 0,
            largest: 0,
            union: 0,
        };
        for &cell in cells {
            let mask = grid.mask(cell);
            bounds.smallest += i64::from(mask.trailing_zeros());
            bounds.largest += i64::from(31 - mask.leading_zeros());
            bounds.union |= mask;
        }
        bounds
    }

    /// The bounds without one cell, given its smallest and largest digit
    /// (the union stays: it may still be needed by the others).
    fn without(&self, (smallest, largest): (u32, u32)) -> CliqueBounds {
        CliqueBounds {
            smallest: self.smallest - i64::from(smallest),
            largest: self.largest - i64::from(largest),
            union: self.union,
        }
    }

    /// The least and most `count` cells can sum to, one of them being
    /// left out of the union as `without` if given.
    fn range(&self, count: usize, without: Option<u8>) -> Result<(i64, i64), Contradiction> {
        let union = match without {
            Some(digit) => self.union & !(1 << digit),
            None => self.union,
        };
        if (union.count_ones() as usize) < count {
            return Err(Contradiction);
        }
        let (distinct_least, distinct_most) = extreme_sums(union, count);
        Ok((
            distinct_least.max(self.smallest),
            distinct_most.min(self.largest),
        ))
    }
}

/// The sums of the `count` smallest and the `count` largest digits of a
/// mask (which has at least `count`).
fn extreme_sums(union: u32, count: usize) -> (i64, i64) {
    let (mut least, mut most) = (0, 0);
    let (mut low, mut high) = (union, union);
    for _ in 0..count {
        let smallest = low.trailing_zeros();
        low &= low - 1;
        least += i64::from(smallest);
        let largest = 31 - high.leading_zeros();
        high &= !(1 << largest);
        most += i64::from(largest);
    }
    (least, most)
}

/// The range `weight × sum` covers when the sum runs from `least` to `most`.
fn weighted(weight: i64, least: i64, most: i64) -> (i64, i64) {
    let (a, b) = (weight * least, weight * most);
    (a.min(b), a.max(b))
}
