//! A relation between two cells, as a table: for each digit one cell may
//! hold, the digits the other may hold beside it. Kropki dots, XV, thermo
//! steps and the negative rules all compile to these; two relations on one
//! pair are merged into one table by the builder.
//!
//! A relation is looked up a mask at a time: for every set of digits one
//! cell may hold, the table lists the digits allowed beside any of them.
//! Many pairs share a relation (every pair of a non-consecutive grid), so
//! the tables are built once per relation and shared.

use std::collections::HashMap;
use std::sync::Arc;

use super::narrowing::{Contradiction, Narrowing, digits_of};

/// Most digits a support table looks up at once: above this the mask is
/// read in chunks of [`CHUNK_DIGITS`].
const MOST_WHOLE_DIGITS: usize = 10;

/// Digits per chunk of a mask on large grids.
const CHUNK_DIGITS: usize = 8;

/// For each set of digits, the digits a relation allows beside any of
/// them, read in one lookup per chunk of the mask.
#[derive(Debug)]
struct Support {
    /// Digits per chunk.
    width: usize,
    /// Chunk `c`'s entry for the digit set `s` (bits for its digits
    /// `c * width + 1` on) is at `c << width | s`.
    entries: Box<[u32]>,
}

impl Support {
    /// The table of `allowed`, where `allowed[d]` is the mask of digits
    /// allowed beside digit `d` (1 up; entry 0 is unused).
    fn new(allowed: &[u32]) -> Support {
        let digits = allowed.len() - 1;
        let width = match digits <= MOST_WHOLE_DIGITS {
            true => digits.max(1),
            false => CHUNK_DIGITS,
        };
        let chunks = digits.div_ceil(width);
        let mut entries = vec![0u32; chunks << width];
        for chunk in 0..chunks {
            let base = chunk << width;
            for set in 1..1usize << width {
                let digit = chunk * width + set.trailing_zeros() as usize + 1;
                let beside = allowed.get(digit).copied().unwrap_or(0);
                entries[base | set] = entries[base | (set & (set - 1))] | beside;
            }
        }
        Support {
            width,
            entries: entries.into(),
        }
    }

    /// The digits allowed beside any digit of `mask`.
    #[inline]
    fn of(&self, mask: u32) -> u32 {
        let low = (1usize << self.width) - 1;
        let mut digits = (mask >> 1) as usize;
        let mut allowed = 0;
        let mut base = 0;
        while digits != 0 {
            allowed |= self.entries[base | (digits & low)];
            digits >>= self.width;
            base += 1 << self.width;
        }
        allowed
    }
}

/// The support tables built so far, by relation, for pairs to share.
#[derive(Debug, Default)]
pub(crate) struct SupportCache {
    tables: HashMap<Vec<u32>, Arc<Support>>,
}

impl SupportCache {
    fn get(&mut self, allowed: Vec<u32>) -> Arc<Support> {
        self.tables
            .entry(allowed)
            .or_insert_with_key(|allowed| Arc::new(Support::new(allowed)))
            .clone()
    }
}

/// Two cells and the digit pairs they may hold.
#[derive(Debug, Clone)]
pub(crate) struct Pair {
    cells: [u16; 2],
    /// The cells that see both, when the relation can force a digit into
    /// one of the two (it is not transitive); empty otherwise.
    seers: Box<[u16]>,
    /// The digits the second cell may hold beside those of the first.
    forward: Arc<Support>,
    /// The digits the first cell may hold beside those of the second.
    backward: Arc<Support>,
    /// See [`is_transitive`].
    transitive: bool,
}

impl Pair {
    /// The pair of `first` and `second`, where `forward[x]` is the mask of
    /// digits the second may hold when the first holds `x` (entry 0 is
    /// unused). Its tables come from `cache` when another pair has the
    /// same relation.
    pub fn new(first: u16, second: u16, forward: Vec<u32>, cache: &mut SupportCache) -> Pair {
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
            transitive: is_transitive(&forward),
            forward: cache.get(forward),
            backward: cache.get(backward),
        }
    }

    /// The pair, striking from `seers` (cells that see both of its
    /// cells) any digit the relation forces into one of the two.
    pub fn with_seers(mut self, seers: Vec<u16>) -> Pair {
        if !self.transitive {
            self.seers = seers.into();
        }
        self
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let [first, second] = self.cells;
        grid.narrow(second, self.forward.of(grid.mask(first)))?;
        grid.narrow(first, self.backward.of(grid.mask(second)))?;
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
            let others = self.forward.of(first & !digit) & second;
            if others == digit {
                forced |= digit;
            }
        }
        forced
    }

    pub fn accepts(&self, masks: &[u32]) -> bool {
        let [first, second] = self.cells.map(usize::from);
        self.forward.of(masks[first]) & masks[second] != 0
    }
}

/// True when x~y and y~z always give x~z under `table` (as `<` does):
/// then no digit is ever forced into one of the pair, and the check is
/// skipped.
fn is_transitive(table: &[u32]) -> bool {
    (1..table.len()).all(|x| {
        digits_of(table[x])
            .filter(|&y| (y as usize) < table.len())
            .all(|y| table[y as usize] & !table[x] & !1 == 0)
    })
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
        let dot = Pair::new(
            0,
            1,
            table(|x, y| x.abs_diff(y) == 1),
            &mut SupportCache::default(),
        )
        .with_seers(vec![2, 3]);
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
        let apart = Pair::new(
            0,
            1,
            table(|x, y| x.abs_diff(y) != 1),
            &mut SupportCache::default(),
        )
        .with_seers(vec![2]);
        let all = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let masks = vec![digits(&[2, 4]), digits(&[4]), all];
        let masks = narrowed(&apart, masks).unwrap();
        assert_eq!(masks[2], all & !digits(&[4]));
    }

    #[test]
    fn an_order_binds_no_digit_to_the_pair_and_is_not_checked() {
        let rising = Pair::new(0, 1, table(|x, y| x < y), &mut SupportCache::default());
        assert!(rising.transitive);
        assert!(rising.with_seers(vec![2]).seers.is_empty());
        let dot = Pair::new(
            0,
            1,
            table(|x, y| x.abs_diff(y) == 1),
            &mut SupportCache::default(),
        );
        assert!(!dot.transitive);
    }

    /// The digits `allowed` (a table by digit) allows beside any digit of
    /// `mask`, one digit at a time.
    fn beside(allowed: &[u32], mask: u32) -> u32 {
        digits_of(mask).fold(0, |union, digit| union | allowed[digit as usize])
    }

    /// An irregular relation on digits 1 to `size`, as a table by digit.
    fn irregular(size: u32) -> Vec<u32> {
        (0..=size)
            .map(|x| {
                (1..=size)
                    .filter(|&y| x > 0 && (x * 7 + y * y) % 5 < 2)
                    .fold(0, |m, y| m | 1 << y)
            })
            .collect()
    }

    #[test]
    fn a_support_table_gives_what_each_digit_allows_for_every_mask() {
        // Whole masks up to ten digits, then chunks of eight (12 leaves
        // the second chunk half full).
        for size in [4, 9, 10, 12, 16, 25] {
            let allowed = irregular(size);
            let support = Support::new(&allowed);
            let all = (1u32 << (size + 1)) - 2;
            let masks: Vec<u32> = match size <= 10 {
                true => (0..=all).filter(|m| m & !all == 0).collect(),
                false => (0..20_000u32)
                    .map(|i| i.wrapping_mul(2_654_435_761).rotate_left(i % 32) & all)
                    .chain((1..=size).map(|d| 1 << d))
                    .chain([0, all])
                    .collect(),
            };
            for mask in masks {
                assert_eq!(
                    support.of(mask),
                    beside(&allowed, mask),
                    "size {size}, mask {mask:#b}"
                );
            }
        }
    }

    #[test]
    fn pairs_with_one_relation_share_its_tables() {
        let mut cache = SupportCache::default();
        let apart = |x: u32, y: u32| x.abs_diff(y) != 1;
        let first = Pair::new(0, 1, table(apart), &mut cache);
        let second = Pair::new(1, 2, table(apart), &mut cache);
        let other = Pair::new(2, 3, table(|x, y| x < y), &mut cache);
        assert!(Arc::ptr_eq(&first.forward, &second.forward));
        assert!(Arc::ptr_eq(&first.backward, &second.backward));
        assert!(!Arc::ptr_eq(&first.forward, &other.forward));
    }
}
