//! A weighted sum with a fixed total, narrowed by its bounds. Arrows (the
//! line's sum against the number its bulb spells), the innies and outies
//! of runs of houses, and cages too large to list their digit sets compile
//! to this.
//!
//! The cells are grouped into cliques of equal weight whose cells must
//! differ (they share a row, a cage …): a clique's placed cells add their
//! digits, and its `t` open cells at least their `t` smallest distinct
//! candidates and at most their `t` largest, which bounds a long arrow
//! far tighter than cell by cell (the ISS measured forty thousand times
//! fewer guesses on its long sums). Placed digits are kept apart: taken
//! into the union, a placed 2 in a clique of five would bound it by the
//! union's five largest (9 + 7 + 6 + 5 + 4, say), where the open four
//! make at most 9 + 7 + 6 + 5 and the 2. Cells whose ranges differ are
//! bounded tighter by distinct digits each within its cell's range, as
//! the ISS bounds its sums ([`CliqueBounds`]). Each digit of each cell is
//! kept only if the sum can still be met with it. Bounds are exact once
//! every cell is placed, so the search never accepts a broken sum.

use super::narrowing::{Contradiction, Narrowing, digits_of, is_single};

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
    /// their common weight. No cell is in two terms (a clique's bounds
    /// are kept while another clique is narrowed).
    pub fn new(cliques: Vec<(Vec<u16>, i64)>, total: i64) -> Linear {
        let mut cells = Vec::new();
        let mut ends = Vec::new();
        for (clique, weight) in cliques {
            cells.extend(clique);
            ends.push((cells.len(), weight));
        }
        debug_assert!(
            cells
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len()
                == cells.len(),
            "a cell in two terms of a sum"
        );
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
        if let Some(open) = self.few_open(grid) {
            return open.solve(grid);
        }
        // Each clique's bounds, kept for the second pass when they fit:
        // narrowing one clique's cells leaves the others' as they were.
        let mut kept = [CliqueRange::default(); KEPT_CLIQUES];
        let (mut low, mut high) = (0, 0);
        for (index, (cells, weight)) in self.each_clique().enumerate() {
            let clique = CliqueRange::of(cells, grid)?;
            let range = weighted(weight, clique.least, clique.most);
            low += range.0;
            high += range.1;
            if let Some(slot) = kept.get_mut(index) {
                *slot = clique;
            }
        }
        if self.total < low || self.total > high {
            return Err(Contradiction);
        }
        // One digit in one cell moves its clique's bounds by at most the
        // clique's spread of digits (times its weight); a clique whose
        // spread fits within the slack on both sides loses no digit.
        let slack = (self.total - low).min(high - self.total);
        for (index, (cells, weight)) in self.each_clique().enumerate() {
            let clique = match kept.get(index) {
                Some(&clique) => clique,
                None => CliqueRange::of(cells, grid)?,
            };
            if clique.bounds.open > 0 && weight.abs() * clique.bounds.spread() > slack {
                self.narrow_clique(grid, cells, weight, clique, (low, high))?;
            }
        }
        Ok(())
    }

    /// Keeps each open cell's digits, in a clique (`cells`, of `weight`
    /// and bounds `clique`), with which the sum can still be met: `low`
    /// and `high` bound it in all.
    fn narrow_clique(
        &self,
        grid: &mut Narrowing<'_>,
        cells: &[u16],
        weight: i64,
        clique: CliqueRange,
        (low, high): (i64, i64),
    ) -> Result<(), Contradiction> {
        let CliqueRange {
            bounds,
            least,
            most,
        } = clique;
        let (own_low, own_high) = weighted(weight, least, most);
        // The rest of the clique beside an open cell: the other open
        // cells, bounded from their union, and the placed digits.
        let rest_of_union = RestOfUnion::new(bounds.union, bounds.open - 1);
        for &cell in cells {
            let mask = grid.mask(cell);
            // Not only a shortcut: the rest above is an open cell's.
            if is_single(mask) {
                continue;
            }
            // The rest, cell by cell.
            let (alone_least, alone_most) = bounds.alone_without(mask);
            let fits = |digit: u32| {
                // The rest of the clique, with this digit here.
                let (least, most) = rest_of_union.without(digit);
                let (least, most) = (least + bounds.placed, most + bounds.placed);
                let (least, most) = (least.max(alone_least), most.min(alone_most));
                let (rest_low, rest_high) = weighted(weight, least, most);
                let own = weight * i64::from(digit);
                let with_low = low - own_low + own + rest_low;
                let with_high = high - own_high + own + rest_high;
                with_low <= self.total && self.total <= with_high
            };
            let keep = kept_run(mask, fits);
            debug_assert_eq!(
                keep,
                digits_of(mask)
                    .filter(|&digit| fits(digit))
                    .fold(0, |kept, digit| kept | 1 << digit),
                "a sum's digits that fit are a run"
            );
            grid.narrow(cell, keep)?;
        }
        Ok(())
    }

    /// The open cells and what they must make, when there are at most
    /// [`MOST_EXACT_CELLS`] of them.
    fn few_open(&self, grid: &Narrowing<'_>) -> Option<FewOpen> {
        let mut open = FewOpen {
            cells: [(0, 0, 0); MOST_EXACT_CELLS],
            count: 0,
            target: self.total,
        };
        for (index, (cells, weight)) in self.each_clique().enumerate() {
            for &cell in cells {
                let mask = grid.mask(cell);
                if is_single(mask) {
                    open.target -= weight * i64::from(mask.trailing_zeros());
                } else if open.count == MOST_EXACT_CELLS {
                    return None;
                } else {
                    open.cells[open.count] = (cell, weight, index);
                    open.count += 1;
                }
            }
        }
        Some(open)
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

/// Cliques a sum keeps the bounds of between its two passes (more are
/// worked out again).
const KEPT_CLIQUES: usize = 16;

/// A clique's bounds, and the least and most its digits can sum to.
#[derive(Debug, Clone, Copy, Default)]
struct CliqueRange {
    bounds: CliqueBounds,
    least: i64,
    most: i64,
}

impl CliqueRange {
    fn of(cells: &[u16], grid: &Narrowing<'_>) -> Result<CliqueRange, Contradiction> {
        let bounds = CliqueBounds::of(cells, grid);
        let (least, most) = bounds.range()?;
        Ok(CliqueRange {
            bounds,
            least,
            most,
        })
    }
}

/// What bounds a clique's sum, three ways; the tightest bound its range
/// (the rest of a clique beside one cell is bounded the first two ways):
/// - its cells' smallest and largest digits added up (cells taken alone);
/// - its placed digits, and the extremes of its open cells' union (open
///   cells taken as distinct, from digits the placed ones do not take);
/// - its cells' smallest and largest digits taken as distinct: each cell
///   in turn takes the least digit no other took that is not below its
///   smallest (the most not above its largest). The digits taken are the
///   same in any order of the cells, and no distinct digits within the
///   cells' ranges make less (or more). With 7 and 1 placed, two cells of
///   2 to 5 and one of 6 to 9 make at least 7 + 1 + 2 + 3 + 6 = 19,
///   where the second way gives 8 + 2 + 3 + 4 and the first 18.
#[derive(Debug, Clone, Copy, Default)]
struct CliqueBounds {
    smallest: i64,
    largest: i64,
    /// The digits the third way takes for the least sum, and that sum;
    /// the same for the most.
    least_picks: u32,
    least_distinct: i64,
    most_picks: u32,
    most_distinct: i64,
    /// The sum of the placed cells' digits.
    placed: i64,
    /// The open cells: their count, and the union of their candidates.
    open: usize,
    union: u32,
}

impl CliqueBounds {
    fn of(cells: &[u16], grid: &Narrowing<'_>) -> CliqueBounds {
        let mut bounds = CliqueBounds::default();
        for &cell in cells {
            let mask = grid.mask(cell);
            let (low, high) = (mask.trailing_zeros(), 31 - mask.leading_zeros());
            bounds.smallest += i64::from(low);
            bounds.largest += i64::from(high);
            bounds.pick_distinct(low, high);
            if is_single(mask) {
                bounds.placed += i64::from(low);
            } else {
                bounds.open += 1;
                bounds.union |= mask;
            }
        }
        bounds
    }

    /// Takes, for a cell of digits `low` to `high`, the least digit not
    /// taken yet and not below `low`, and the most not above `high`. When
    /// the cells cannot differ within their ranges, a bit past the grid's
    /// digits is taken (bit 31 when the most has none left): no filling
    /// exists then, and the bounds cross (see [`Self::range`]).
    #[inline]
    fn pick_distinct(&mut self, low: u32, high: u32) {
        let free = !self.least_picks & !((1 << low) - 1);
        let pick = free & free.wrapping_neg();
        self.least_picks |= pick;
        self.least_distinct += i64::from(pick.trailing_zeros());
        let free = !self.most_picks & ((2 << high) - 1) & !1;
        let pick = match free {
            0 => 1 << 31,
            _ => 1 << (31 - free.leading_zeros()),
        };
        self.most_picks |= pick;
        self.most_distinct += i64::from(pick.trailing_zeros());
    }

    /// The cells' smallest and largest digits added up, taken alone, but
    /// for a cell of candidates `mask`.
    fn alone_without(&self, mask: u32) -> (i64, i64) {
        (
            self.smallest - i64::from(mask.trailing_zeros()),
            self.largest - i64::from(31 - mask.leading_zeros()),
        )
    }

    /// How far apart the open cells' least and largest digits lie (at
    /// least one cell open).
    fn spread(&self) -> i64 {
        i64::from(31 - self.union.leading_zeros()) - i64::from(self.union.trailing_zeros())
    }

    /// The least and most the clique's cells can sum to (the third way's
    /// bounds are never looser than the first's); a contradiction when
    /// the bounds cross, as they do when no filling exists.
    fn range(&self) -> Result<(i64, i64), Contradiction> {
        let (distinct_least, distinct_most) =
            extreme_sums(self.union, self.open).ok_or(Contradiction)?;
        let least = (self.placed + distinct_least).max(self.least_distinct);
        let most = (self.placed + distinct_most).min(self.most_distinct);
        match least <= most {
            true => Ok((least, most)),
            false => Err(Contradiction),
        }
    }
}

/// The digits of `mask` that `fits`, when those form a run of its digits
/// (no digit fails between two that fit): tried from each end inward
/// until one fits, rather than one by one.
///
/// A cell's digits in a sum are such a run. With the cell's digit `d`,
/// the sum's bounds move with `weight × (d + the rest's bound)`, and the
/// rest's bound without `d` ([`RestOfUnion::without`]) never falls by
/// more than `d` rises: so both bounds rise with `d` (fall, for a
/// negative weight), and the digits that fit lie between a lowest and a
/// highest. Debug builds check this against trying every digit.
fn kept_run(mask: u32, fits: impl Fn(u32) -> bool) -> u32 {
    let Some(lowest) = digits_of(mask).find(|&digit| fits(digit)) else {
        return 0;
    };
    let mut rest = mask;
    let highest = loop {
        let digit = 31 - rest.leading_zeros();
        if digit == lowest || fits(digit) {
            break digit;
        }
        rest &= !(1 << digit);
    };
    let up_to_highest = ((2u64 << highest) - 1) as u32;
    mask & up_to_highest & !((1 << lowest) - 1)
}

/// The least and most `count` distinct digits of a clique's union can sum
/// to with one digit of the union taken out, for any digit: the union has
/// more than `count` digits, so the answer is the `count` smallest (or
/// largest), or those and the next, less the digit if it is among them.
struct RestOfUnion {
    smallest: i64,
    smallest_and_next: i64,
    /// The largest of the `count` smallest digits (0 if `count` is 0).
    last_small: u32,
    largest: i64,
    largest_and_next: i64,
    /// The smallest of the `count` largest digits (32 if `count` is 0).
    last_large: u32,
}

impl RestOfUnion {
    fn new(union: u32, count: usize) -> RestOfUnion {
        debug_assert!(count < union.count_ones() as usize, "a digit to spare");
        let (mut low, mut high) = (union, union);
        let (mut smallest, mut largest) = (0, 0);
        let (mut last_small, mut last_large) = (0, 32);
        for _ in 0..count {
            last_small = low.trailing_zeros();
            low &= low - 1;
            smallest += i64::from(last_small);
            last_large = 31 - high.leading_zeros();
            high &= !(1 << last_large);
            largest += i64::from(last_large);
        }
        RestOfUnion {
            smallest,
            smallest_and_next: smallest + i64::from(low.trailing_zeros()),
            last_small,
            largest,
            largest_and_next: largest + i64::from(31 - high.leading_zeros()),
            last_large,
        }
    }

    /// The bounds without `digit`, a digit of the union.
    fn without(&self, digit: u32) -> (i64, i64) {
        // Digits start at 1, so with `count` 0 (`last_small` 0, `last_large`
        // 32) neither test holds.
        let least = match digit <= self.last_small {
            true => self.smallest_and_next - i64::from(digit),
            false => self.smallest,
        };
        let most = match digit >= self.last_large {
            true => self.largest_and_next - i64::from(digit),
            false => self.largest,
        };
        (least, most)
    }
}

/// The sums of the `count` smallest and the `count` largest digits of a
/// mask, or `None` if it has fewer (found on the way: no bit count, which
/// is slow without the popcnt instruction).
fn extreme_sums(union: u32, count: usize) -> Option<(i64, i64)> {
    let (mut least, mut most) = (0, 0);
    let (mut low, mut high) = (union, union);
    for _ in 0..count {
        if low == 0 {
            return None;
        }
        let smallest = low.trailing_zeros();
        low &= low - 1;
        least += i64::from(smallest);
        let largest = 31 - high.leading_zeros();
        high &= !(1 << largest);
        most += i64::from(largest);
    }
    Some((least, most))
}

/// The range `weight × sum` covers when the sum runs from `least` to `most`.
fn weighted(weight: i64, least: i64, most: i64) -> (i64, i64) {
    let (a, b) = (weight * least, weight * most);
    (a.min(b), a.max(b))
}

/// Most open cells a sum is solved for exactly, digit by digit.
const MOST_EXACT_CELLS: usize = 3;

/// A sum with few open cells: each (cell, weight, clique), and what they
/// must add up to. Each digit of each cell is kept only if the others can
/// make up the rest with digits of their own, distinct within a clique:
/// exact where the bounds are not.
struct FewOpen {
    cells: [(u16, i64, usize); MOST_EXACT_CELLS],
    count: usize,
    target: i64,
}

impl FewOpen {
    fn solve(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let open = &self.cells[..self.count];
        let mut masks = [0u32; MOST_EXACT_CELLS];
        for (mask, &(cell, _, _)) in masks.iter_mut().zip(open) {
            *mask = grid.mask(cell);
        }
        let mut kept = [0u32; MOST_EXACT_CELLS];
        match open {
            [] => {
                return if self.target == 0 {
                    Ok(())
                } else {
                    Err(Contradiction)
                };
            }
            [(_, weight, _)] => {
                kept[0] = digit_for(self.target, *weight, masks[0]).map_or(0, |d| 1 << d);
            }
            [(_, wa, ca), (_, wb, cb)] => {
                for a in digits_of(masks[0]) {
                    let rest = self.target - wa * i64::from(a);
                    if let Some(b) = digit_for(rest, *wb, masks[1])
                        && (ca != cb || a != b)
                    {
                        kept[0] |= 1 << a;
                        kept[1] |= 1 << b;
                    }
                }
            }
            _ => {
                let [(_, wa, ca), (_, wb, cb), (_, wc, cc)] = self.cells;
                for a in digits_of(masks[0]) {
                    for b in digits_of(masks[1]) {
                        if ca == cb && a == b {
                            continue;
                        }
                        let rest = self.target - wa * i64::from(a) - wb * i64::from(b);
                        if let Some(c) = digit_for(rest, wc, masks[2])
                            && (ca != cc || a != c)
                            && (cb != cc || b != c)
                        {
                            kept[0] |= 1 << a;
                            kept[1] |= 1 << b;
                            kept[2] |= 1 << c;
                        }
                    }
                }
            }
        }
        for (&(cell, _, _), &keep) in open.iter().zip(&kept) {
            grid.narrow(cell, keep)?;
        }
        Ok(())
    }
}

/// The digit of `mask` that times `weight` makes `value`, if any.
#[inline]
fn digit_for(value: i64, weight: i64, mask: u32) -> Option<u32> {
    let digit = match weight {
        // The common weights, without a division.
        1 => value,
        -1 => -value,
        0 => return None,
        _ if value % weight != 0 => return None,
        _ => value / weight,
    };
    (1..32)
        .contains(&digit)
        .then_some(digit as u32)
        .filter(|&d| mask & 1 << d != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::search::narrowing::testing::{self, digits};

    /// `masks` narrowed by `linear`, or `None` on a contradiction.
    fn narrowed(linear: &Linear, masks: Vec<u32>) -> Option<Vec<u32>> {
        testing::narrowed(masks, 0b11_1111_1110, |grid| linear.propagate(grid))
    }

    #[test]
    fn the_rest_of_a_union_is_bounded_as_if_summed_afresh() {
        // Every union of digits 1 to 9, and a sample of those of 1 to 25;
        // every count it can spare one digit for, every digit taken out.
        let small = (0u32..1 << 9).map(|bits| bits << 1);
        let large = (0u32..1 << 25).step_by(100_003).map(|bits| bits << 1);
        for union in small.chain(large) {
            for count in 0..union.count_ones() as usize {
                let rest = RestOfUnion::new(union, count);
                for digit in digits_of(union) {
                    let fresh = extreme_sums(union & !(1 << digit), count).unwrap();
                    assert_eq!(rest.without(digit), fresh, "{union:b} {count} {digit}");
                }
            }
        }
    }

    #[test]
    fn a_union_short_of_digits_has_no_extreme_sums() {
        // 1, 2 and 4: the two smallest make 3, the two largest 6; three
        // cells fit, four do not.
        assert_eq!(extreme_sums(0b10110, 2), Some((3, 6)));
        assert_eq!(extreme_sums(0b10110, 3), Some((7, 7)));
        assert_eq!(extreme_sums(0b10110, 4), None);
        assert_eq!(extreme_sums(0, 1), None);
        assert_eq!(extreme_sums(0, 0), Some((0, 0)));
    }

    #[test]
    fn a_run_of_fitting_digits_is_found_from_its_ends() {
        // Every mask of digits 1 to 9 and a sample of those of 1 to 25
        // (with 25 itself), every run of digits 1 to 25 (and none) as
        // what fits.
        let small = (0u32..1 << 9).map(|bits| bits << 1);
        let large = (0u32..1 << 25)
            .step_by(1_000_003)
            .map(|bits| bits << 1 | 1 << 25);
        for mask in small.chain(large) {
            for low in 1..=26u32 {
                for high in low - 1..=25 {
                    let fits = |digit: u32| (low..=high).contains(&digit);
                    let expected = digits_of(mask)
                        .filter(|&d| fits(d))
                        .fold(0, |kept, d| kept | 1 << d);
                    assert_eq!(kept_run(mask, fits), expected, "{mask:b} {low}..={high}");
                }
            }
        }
    }

    #[test]
    fn a_sum_of_more_cliques_than_it_keeps_bounds_for_narrows_them_all() {
        // Twenty cells apart, each its own clique, summing to 20: nineteen
        // hold 1 or 2 and one anything, so every one must hold 1, whether
        // the wide cell's clique comes first (its bounds kept) or last.
        let cells = KEPT_CLIQUES + 4;
        for wide in [0, cells - 1] {
            let cliques = (0..cells as u16).map(|c| (vec![c], 1)).collect();
            let sum = Linear::new(cliques, cells as i64);
            let mut masks = vec![digits(&[1, 2]); cells];
            masks[wide] = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
            assert_eq!(narrowed(&sum, masks), Some(vec![digits(&[1]); cells]));
        }
    }

    #[test]
    fn a_placed_digit_of_a_clique_is_not_among_the_digits_its_open_cells_may_take() {
        // Five cells of a column less a cell apart make 21 (as a killer's
        // innies and outies can), the column's R4 already 2. Its open
        // cells hold at most 9 + 7 + 6 + 5 = 27 (the union's four largest:
        // 2 is placed, not theirs to take), so the column's five at most
        // 29 and the cell apart at most 8: its 9 goes. Over the union of
        // all five, 9 + 7 + 6 + 5 + 4 = 31 would have kept it, as would
        // the cells' ranges taken as distinct (9 + 8 + 7 + 2 + 6 = 32)
        // and cell by cell (38).
        let column = vec![0, 1, 2, 3, 4];
        let sum = Linear::new(vec![(column, 1), (vec![5], -1)], 21);
        let masks = vec![
            digits(&[3, 6, 9]),
            digits(&[4, 7, 9]),
            digits(&[5, 9]),
            digits(&[2]),
            digits(&[1, 5, 9]),
            digits(&[1, 3, 4, 5, 8, 9]),
        ];
        let mut expected = masks.clone();
        expected[5] = digits(&[1, 3, 4, 5, 8]);
        assert_eq!(narrowed(&sum, masks), Some(expected));
    }

    #[test]
    fn a_clique_whose_bounds_cross_cannot_be_filled() {
        // A placed 3 beside two cells of 3 or 4, its digit not yet struck
        // from them: no three distinct digits. The open cells' union
        // holds enough digits (3 and 4 for two cells), but taken as
        // distinct within their ranges the three make at least 3 + 4 + 5
        // and at most 3 + 4 + 2.
        let masks = vec![digits(&[3]), digits(&[3, 4]), digits(&[3, 4])];
        let mut range = None;
        testing::narrowed(masks, 0b11_1111_1110, |grid| {
            range = Some(CliqueRange::of(&[0, 1, 2], grid).map(|r| (r.least, r.most)));
            Ok(())
        });
        assert_eq!(range, Some(Err(Contradiction)));
    }

    #[test]
    fn a_cliques_range_holds_every_filling_of_distinct_digits() {
        // Every clique of one to three cells over digits 1 to 5, and a
        // sample of four cells over 1 to 6: the range holds the sum of
        // every filling with distinct digits, and a contradiction means
        // there is none.
        let all = 0b111_1110;
        let small = (1..=3).flat_map(|cells| {
            (0..31u32.pow(cells)).map(move |code| {
                (0..cells)
                    .map(|i| ((code / 31u32.pow(i)) % 31 + 1) << 1)
                    .collect::<Vec<u32>>()
            })
        });
        let mut seed = 12345u64;
        let large = std::iter::repeat_with(move || {
            (0..4)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 33) as u32 % 63 + 1) << 1
                })
                .collect::<Vec<u32>>()
        })
        .take(20_000);
        // Ranges met that hold some filling, and contradictions.
        let (mut ranged, mut crossed) = (0, 0);
        for masks in small.chain(large) {
            let sums = distinct_fillings(&masks);
            let cells: Vec<u16> = (0..masks.len() as u16).collect();
            testing::narrowed(masks.clone(), all, |grid| {
                match CliqueRange::of(&cells, grid) {
                    Ok(range) => {
                        ranged += usize::from(!sums.is_empty());
                        for &sum in &sums {
                            assert!(range.least <= sum && sum <= range.most, "{masks:?}");
                        }
                    }
                    Err(Contradiction) => {
                        crossed += 1;
                        assert!(sums.is_empty(), "{masks:?}");
                    }
                }
                Ok(())
            });
        }
        assert!(ranged > 10_000 && crossed > 100, "{ranged} {crossed}");
    }

    /// The sums of every filling of `masks` with distinct digits.
    fn distinct_fillings(masks: &[u32]) -> Vec<i64> {
        let mut sums = Vec::new();
        testing::each_distinct_filling(masks, &mut |chosen| {
            sums.push(chosen.iter().map(|d| i64::from(d.trailing_zeros())).sum());
        });
        sums
    }

    #[test]
    fn distinct_digits_each_within_its_cells_range_bound_a_clique() {
        // Five cells of a column less a cell apart make 15: with 7 and 1
        // placed, two cells of 2 to 5 and one of 6, 8 or 9, the column
        // makes at least 7 + 1 + 2 + 3 + 6 = 19, so the cell apart is 4 or
        // more. Cell by cell gives 18 and the open cells' union 17: both
        // would have kept its 3.
        let column = vec![0, 1, 2, 3, 4];
        let sum = Linear::new(vec![(column, 1), (vec![5], -1)], 15);
        let two_to_five = digits(&[2, 3, 4, 5]);
        let masks = vec![
            digits(&[7]),
            two_to_five,
            two_to_five,
            digits(&[1]),
            digits(&[6, 8, 9]),
            digits(&[3, 4, 5, 6, 7, 8, 9]),
        ];
        let mut expected = masks.clone();
        expected[5] = digits(&[4, 5, 6, 7, 8, 9]);
        assert_eq!(narrowed(&sum, masks), Some(expected));
    }

    #[test]
    fn a_sum_of_few_open_cells_keeps_only_digits_that_make_it() {
        // x + y = 10 with x in {1, 3} and y in {6, 9}: only 1 + 9 makes
        // it, though 3 and 6 lie within the bounds.
        let sum = Linear::new(vec![(vec![0], 1), (vec![1], 1)], 10);
        let masks = narrowed(&sum, vec![digits(&[1, 3]), digits(&[6, 9])]);
        assert_eq!(masks, Some(vec![digits(&[1]), digits(&[9])]));
    }

    #[test]
    fn cells_of_one_clique_may_not_share_a_digit_in_an_exact_sum() {
        // a + b - c = 5, a and b distinct: with c = 3, a + b = 8 from
        // {4, 5} and {3, 4}: 4 + 4 would repeat, so a = 5 and b = 3.
        let sum = Linear::new(vec![(vec![0, 1], 1), (vec![2], -1)], 5);
        let masks = narrowed(&sum, vec![digits(&[4, 5]), digits(&[3, 4]), digits(&[3])]);
        assert_eq!(masks, Some(vec![digits(&[5]), digits(&[3]), digits(&[3])]));
        // Only 4 + 4 - 3 makes 5 below (the bounds allow -1 to 10): the
        // rule fails.
        let masks = narrowed(
            &sum,
            vec![digits(&[4, 6]), digits(&[4, 7]), digits(&[3, 9])],
        );
        assert_eq!(masks, None);
    }
}
