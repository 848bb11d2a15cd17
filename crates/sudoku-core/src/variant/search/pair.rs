//! A relation between two cells, as a table: for each digit one cell may
//! hold, the digits the other may hold beside it. Kropki dots, XV, thermo
//! steps and the negative rules all compile to these; two relations on one
//! pair are merged into one table by the builder.

use super::narrowing::{Contradiction, Narrowing, digits_of};

/// Two cells and the digit pairs they may hold.
#[derive(Debug, Clone)]
pub(crate) struct Pair {
    cells: [u16; 2],
    /// The cells that see both, when the relation can force a digit into
    /// one of the two (it is not transitive); empty otherwise.
    seers: Box<[u16]>,
    /// `forward[x]`: the digits the second cell may hold when the first
    /// holds `x`.
    forward: Box<[u32]>,
    /// `backward[y]`: the digits the first may hold when the second holds `y`.
    backward: Box<[u32]>,
}

impl Pair {
    pub fn new(first: u16, second: u16, forward: Vec<u32>) -> Pair {
        let mut backward = vec![0u32; forward.len()];
        for (x, &mask) in forward.iter().enumerate().skip(1) {
            for (y, slot) in backward.iter_mut().enumerate().skip(1) {
                if mask & (1 << y) != 0 {
                    *slot |= 1 << x;
                }
            }
        }
        Pair {
            cells: [first, second],
            seers: Box::new([]),
            forward: forward.into(),
            backward: backward.into(),
        }
    }

    /// The pair, striking from `seers` (cells that see both of its
    /// cells) any digit the relation forces into one of the two.
    pub fn with_seers(mut self, seers: Vec<u16>) -> Pair {
        if !self.is_transitive() {
            self.seers = seers.into();
        }
        self
    }

    /// True when x~y and y~z always give x~z (as `<` does): then no digit
    /// is ever forced into one of the pair, and the check is skipped.
    fn is_transitive(&self) -> bool {
        let table = &self.forward;
        (1..table.len()).all(|x| {
            digits_of(table[x])
                .filter(|&y| (y as usize) < table.len())
                .all(|y| table[y as usize] & !table[x] & !1 == 0)
        })
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let [first, second] = self.cells;
        grid.narrow(second, supported(&self.forward, grid.mask(first)))?;
        grid.narrow(first, supported(&self.backward, grid.mask(second)))?;
        if self.seers.is_empty() {
            return Ok(());
        }
        let forced = self.forced(grid.mask(first), grid.mask(second));
        if forced != 0 {
            for &cell in self.seers.iter() {
                grid.narrow(cell, !forced)?;
            }
        }
        Ok(())
    }

    /// The digits that must stand in one of the two cells, holding
    /// `first` and `second`: a digit `v` such that no allowed pair leaves
    /// both cells without it. A cell already single counts too: within a
    /// round of the search its digit may not be struck from its peers yet.
    fn forced(&self, first: u32, second: u32) -> u32 {
        let mut forced = 0;
        for digit in digits_of(first & second).map(|d| 1u32 << d) {
            let others = supported(&self.forward, first & !digit) & second;
            if others == digit {
                forced |= digit;
            }
        }
        forced
    }

    pub fn accepts(&self, masks: &[u32]) -> bool {
        let [first, second] = self.cells.map(usize::from);
        let x = masks[first].trailing_zeros() as usize;
        self.forward
            .get(x)
            .is_some_and(|&allowed| allowed & masks[second] != 0)
    }
}

/// The digits `table` allows beside any digit of `mask`.
fn supported(table: &[u32], mask: u32) -> u32 {
    digits_of(mask).fold(0, |allowed, digit| allowed | table[digit as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::search::narrowing::testing::{self, digits};

    /// The table of `allowed` on 1 to 9, from the first cell to the second.
    fn table(allowed: impl Fn(u32, u32) -> bool) -> Vec<u32> {
        (0..=9)
            .map(|x| {
                (1..=9)
                    .filter(|&y| allowed(x, y))
                    .fold(0, |m, y| m | 1 << y)
            })
            .collect()
    }

    /// `masks` narrowed by `pair`, or `None` on a contradiction.
    fn narrowed(pair: &Pair, masks: Vec<u32>) -> Option<Vec<u32>> {
        let all = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        testing::narrowed(masks, all, |grid| pair.propagate(grid))
    }

    #[test]
    fn a_digit_one_of_the_pair_must_hold_leaves_the_cells_that_see_both() {
        // A white dot on cells 0 and 1, holding 3 or 4 and 4 or 5: 3
        // beside 4, or 4 beside 5. Either way one of them holds 4, so
        // cells 2 and 3, which see both, do not.
        let dot = Pair::new(0, 1, table(|x, y| x.abs_diff(y) == 1)).with_seers(vec![2, 3]);
        let all = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let masks = vec![digits(&[3, 4]), digits(&[4, 5]), all, all];
        let masks = narrowed(&dot, masks).unwrap();
        assert_eq!(masks[2], all & !digits(&[4]));
        assert_eq!(masks[3], all & !digits(&[4]));
        // With 3 or 4 beside 2 or 4, no digit is bound to the pair.
        let masks = vec![digits(&[3, 4]), digits(&[2, 4]), all, all];
        let masks = narrowed(&dot, masks).unwrap();
        assert_eq!(masks[2], all);
    }

    #[test]
    fn a_single_of_the_pair_leaves_the_cells_that_see_both_too() {
        // The search may hold a single back a round before striking its
        // digit from its peers: the pair strikes it from theirs meanwhile.
        // Not consecutive, with 2 or 4 beside a 4: the 4 is there, or
        // beside the 2.
        let apart = Pair::new(0, 1, table(|x, y| x.abs_diff(y) != 1)).with_seers(vec![2]);
        let all = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let masks = vec![digits(&[2, 4]), digits(&[4]), all];
        let masks = narrowed(&apart, masks).unwrap();
        assert_eq!(masks[2], all & !digits(&[4]));
    }

    #[test]
    fn an_order_binds_no_digit_to_the_pair_and_is_not_checked() {
        let rising = Pair::new(0, 1, table(|x, y| x < y));
        assert!(rising.is_transitive());
        assert!(rising.with_seers(vec![2]).seers.is_empty());
        let dot = Pair::new(0, 1, table(|x, y| x.abs_diff(y) == 1));
        assert!(!dot.is_transitive());
    }
}
