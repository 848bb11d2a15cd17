//! A cage with a sum: distinct digits adding to a total. The builder lists
//! every set of digits that makes the total; the propagator keeps the sets
//! that fit the cage's cells as they stand (every placed digit in the set,
//! every digit of the set still somewhere, every cell able to take one of
//! them). A cell keeps only digits of some surviving set, and a digit every
//! surviving set needs that one cell alone can take is placed there.
//!
//! With five cells open or fewer, a set must also survive its own singles:
//! a cell left one of the set's digits keeps it from the others, and a
//! digit of the set left one place takes it, until nothing moves. A cell
//! then keeps only what some set leaves it. This is what a player sees as
//! "only one way to make it", and what the Interactive Sudoku Solver's sum
//! finds on its hardest killers that the plain test does not (the
//! figures are in docs/variants.md). With more cells open it costs more a
//! guess than it saves.
//!
//! Two things around the cage narrow it further, as a solver's eye would:
//! - the rest of a house the cage lies in (its complement)
//!   holds exactly the house's digits the cage does not, so a digit the
//!   complement cannot take must be in the cage's set, and a digit every
//!   set needs leaves the complement. The complement is read whenever the
//!   cage runs, but wakes it only as its cells are fixed (the sum derived
//!   for the same house sees most of the rest from its own side);
//! - a digit every set needs stands in one of the cage cells that can
//!   take it, so it leaves every cell outside that sees all of those.
//!   The builder lists, for each cell outside that sees two or more cage
//!   cells, which ones it sees.

use std::sync::Arc;

use super::narrowing::{Contradiction, Narrowing, digits_of, is_single};

/// Most cells a cage may have: its digits differ, and grids go to 25. Its
/// cells fit one bit each in a mask, as its seers record them.
pub(crate) const MOST_CAGE_CELLS: usize = 32;

/// Most open cells a cage follows the singles within each set for. With
/// more open (on TAREK_ALL's cages of six to nine cells) it costs more a
/// guess than it saves: under callgrind, TAREK_ALL took 6.83G instructions
/// (26.7k guesses) with five, 7.46G (31.2k) with four and 7.94G (30.3k)
/// with any number, against 6.87G (45.1k) without the check.
const MOST_OPEN_FOR_SINGLES: usize = 5;

/// How many digit sets are sorted at a time into those that fit a cage
/// before each one's singles are followed.
const SETS_AT_ONCE: usize = 32;

/// Distinct digits with a fixed sum.
#[derive(Debug, Clone)]
pub(crate) struct CageSum {
    /// The cage's cells, then its complement's.
    cells: Box<[u16]>,
    /// How many of `cells` are the cage's.
    cage_len: usize,
    /// Cells outside that see two or more cage cells, grouped by the cage
    /// cells they see (bit `i` for the cage's `i`th cell): each group's
    /// mask, and where its cells end in `seer_cells`.
    seer_groups: Box<[(u32, usize)]>,
    seer_cells: Box<[u16]>,
    /// The digit sets that make the sum, as masks (shared by the cages of
    /// one size and sum).
    sets: Arc<[u32]>,
}

impl CageSum {
    /// A cage with no surroundings known yet.
    pub fn new(cells: Box<[u16]>, sets: Arc<[u32]>) -> CageSum {
        assert!(cells.len() <= MOST_CAGE_CELLS, "a cage of distinct digits");
        CageSum {
            cage_len: cells.len(),
            cells,
            seer_groups: Box::new([]),
            seer_cells: Box::new([]),
            sets,
        }
    }

    /// The cage with the rest of a house it lies in, and the
    /// cells outside that see several of its cells.
    pub fn surrounded(self, complement: &[u16], mut seers: Vec<(u16, u32)>) -> CageSum {
        let mut cells = self.cells[..self.cage_len].to_vec();
        cells.extend_from_slice(complement);
        seers.sort_unstable_by_key(|&(cell, sees)| (sees, cell));
        let mut groups: Vec<(u32, usize)> = Vec::new();
        for (end, &(_, sees)) in seers.iter().enumerate() {
            match groups.last_mut() {
                Some(group) if group.0 == sees => group.1 = end + 1,
                _ => groups.push((sees, end + 1)),
            }
        }
        CageSum {
            cells: cells.into(),
            seer_groups: groups.into(),
            seer_cells: seers.into_iter().map(|(cell, _)| cell).collect(),
            ..self
        }
    }

    /// The cells it reads: the cage's, then its complement's.
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// The cage's own cells.
    pub fn cage(&self) -> &[u16] {
        &self.cells[..self.cage_len]
    }

    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let (cage, complement) = self.cells.split_at(self.cage_len);
        // The cage cells' candidates, kept in step with what is narrowed.
        let mut masks = [0u32; MOST_CAGE_CELLS];
        let masks = &mut masks[..cage.len()];
        let mut union = 0;
        let mut placed = 0;
        let mut open = 0;
        for (mask, &cell) in masks.iter_mut().zip(cage) {
            *mask = grid.mask(cell);
            union |= *mask;
            if is_single(*mask) {
                placed |= *mask;
            } else {
                open += 1;
            }
        }
        // The digits of the house the complement cannot hold.
        let outside = complement.iter().fold(0, |u, &c| u | grid.mask(c));
        let must = match complement {
            [] => 0,
            _ => grid.all_digits() & !outside,
        };
        let wanted = Wanted {
            placed,
            union,
            must,
        };
        let needed = if open <= MOST_OPEN_FOR_SINGLES {
            self.fit_sets_within(grid, masks, wanted)?
        } else {
            grid.disown();
            self.fit_sets(grid, masks, wanted)?
        };
        // Only when it can narrow something (the cage's cells are not the
        // complement's, so `outside` still holds).
        if outside & needed != 0 {
            for &cell in complement {
                grid.narrow(cell, !needed)?;
            }
        }
        self.strike_from_seers(grid, masks, needed & !placed)
    }

    /// Keeps the sets that fit `wanted`, each cell's digits of them, and
    /// each needed digit in its one place if it has one: the digits every
    /// such set needs.
    fn fit_sets(
        &self,
        grid: &mut Narrowing<'_>,
        masks: &mut [u32],
        wanted: Wanted,
    ) -> Result<u32, Contradiction> {
        let mut allowed = 0;
        let mut needed = u32::MAX;
        for &set in self.sets.iter() {
            if wanted.admits(set) && masks.iter().all(|&mask| mask & set != 0) {
                allowed |= set;
                needed &= set;
            }
        }
        if allowed == 0 {
            return Err(Contradiction);
        }
        if wanted.union & !allowed != 0 {
            for (mask, &cell) in masks.iter_mut().zip(self.cage()) {
                grid.narrow(cell, allowed)?;
                *mask &= allowed;
            }
        }
        self.place_needed(grid, masks, needed & !wanted.placed)?;
        Ok(needed)
    }

    /// Keeps the sets that fit `wanted` and can still fill the cage once
    /// the singles within each are followed ([`assign_within`]), and each
    /// cell's digits that some such set leaves it (a needed digit with one
    /// place is left alone there): the digits every such set needs.
    fn fit_sets_within(
        &self,
        grid: &mut Narrowing<'_>,
        masks: &mut [u32],
        wanted: Wanted,
    ) -> Result<u32, Contradiction> {
        let mut needed = u32::MAX;
        let mut kept = [0u32; MOST_CAGE_CELLS];
        let kept = &mut kept[..masks.len()];
        let mut within = [0u32; MOST_CAGE_CELLS];
        let within = &mut within[..masks.len()];
        let mut any = false;
        // The sets that fit are gathered first, without a branch: whether
        // one fits varies too much to predict, and gathering them so made
        // MATHEMAGIC_KILLERS#0 2 to 4 % faster.
        for chunk in self.sets.chunks(SETS_AT_ONCE) {
            let mut admitted = [0u32; SETS_AT_ONCE];
            let mut count = 0;
            for &set in chunk {
                admitted[count] = set;
                count += usize::from(wanted.admits(set));
            }
            for &set in &admitted[..count] {
                if assign_within(set, masks, within) {
                    any = true;
                    needed &= set;
                    for (keep, &left) in kept.iter_mut().zip(within.iter()) {
                        *keep |= left;
                    }
                }
            }
        }
        if !any {
            return Err(Contradiction);
        }
        for ((mask, &cell), &keep) in masks.iter_mut().zip(self.cage()).zip(kept.iter()) {
            if *mask & !keep != 0 {
                grid.narrow(cell, keep)?;
                *mask &= keep;
            }
        }
        Ok(needed)
    }

    /// Strikes each needed digit from the cells outside that see every
    /// cage cell still able to take it (`masks`: the cage cells'). A
    /// digit with one place is left to the engine, which strikes it from
    /// that cell's peers once it is placed there.
    ///
    /// Group by group, all its digits at once: digit by digit, finding
    /// each one's places first, made a guess on MATHEMAGIC_KILLERS#0 3 %
    /// dearer.
    fn strike_from_seers(
        &self,
        grid: &mut Narrowing<'_>,
        masks: &[u32],
        needed: u32,
    ) -> Result<(), Contradiction> {
        if self.seer_groups.is_empty() {
            return Ok(());
        }
        let (mut once, mut twice) = (0u32, 0u32);
        for &mask in masks.iter() {
            twice |= once & mask;
            once |= mask;
        }
        let spread = needed & twice;
        if spread == 0 {
            return Ok(());
        }
        let mut start = 0;
        for &(sees, end) in self.seer_groups.iter() {
            let strike = spread & !unseen_by(masks, sees);
            if strike != 0 {
                for &cell in &self.seer_cells[start..end] {
                    grid.narrow(cell, !strike)?;
                }
            }
            start = end;
        }
        Ok(())
    }

    /// Places each needed digit that one cell alone can still take
    /// (`masks`: the cage cells', updated).
    fn place_needed(
        &self,
        grid: &mut Narrowing<'_>,
        masks: &mut [u32],
        needed: u32,
    ) -> Result<(), Contradiction> {
        for digit in digits_of(needed).map(|d| 1 << d) {
            let places = places_of(masks, digit);
            if places == 0 {
                return Err(Contradiction);
            }
            if is_single(places) {
                let index = places.trailing_zeros() as usize;
                grid.narrow(self.cells[index], digit)?;
                masks[index] &= digit;
            }
        }
        Ok(())
    }

    pub fn accepts(&self, masks: &[u32]) -> bool {
        let digits = self
            .cage()
            .iter()
            .fold(0, |seen, &c| seen | masks[usize::from(c)]);
        self.sets.contains(&digits) && digits.count_ones() as usize == self.cage_len
    }
}

/// What a digit set must be to fit a cage as its cells stand.
#[derive(Debug, Clone, Copy)]
struct Wanted {
    /// The digits placed in the cage: all in the set.
    placed: u32,
    /// Every digit its cells can take: the set lies within.
    union: u32,
    /// The digits the rest of its house cannot take: all in the set.
    must: u32,
}

impl Wanted {
    /// True when `set` holds every placed and every needed digit, and
    /// only digits some cell can take.
    fn admits(&self, set: u32) -> bool {
        set & self.placed == self.placed && set & !self.union == 0 && set & self.must == self.must
    }
}

/// Narrows `within` to what each cell (of `masks`) may take if the cage
/// holds exactly `set`: a cell left one digit keeps it from the others, and
/// a digit left one cell takes it. False when the set cannot fill the
/// cage so.
fn assign_within(set: u32, masks: &[u32], within: &mut [u32]) -> bool {
    // The first pass narrows nothing: most sets end with it.
    let (mut twice, mut once, mut alone, mut wide) = (0u32, 0u32, 0u32, 0u32);
    for (w, &mask) in within.iter_mut().zip(masks) {
        let left = mask & set;
        if left == 0 || is_single(left) && alone & left != 0 {
            return false;
        }
        *w = left;
        twice |= once & left;
        once |= left;
        match is_single(left) {
            true => alone |= left,
            false => wide |= left,
        }
    }
    if set & !once != 0 {
        return false;
    }
    // Digits with one place left, not yet alone there.
    let mut hidden = set & !twice & !alone;
    while hidden != 0 || wide & alone != 0 {
        let mut changed = false;
        for w in within.iter_mut().filter(|w| !is_single(**w)) {
            let only = *w & hidden;
            let left = if only != 0 { only } else { *w & !alone };
            if left == 0 || !is_single(left) && only != 0 {
                return false;
            }
            changed |= left != *w;
            *w = left;
        }
        if !changed {
            return true;
        }
        (twice, once, alone, wide) = (0, 0, 0, 0);
        for &w in within.iter() {
            twice |= once & w;
            once |= w;
            match is_single(w) {
                true if alone & w != 0 => return false,
                true => alone |= w,
                false => wide |= w,
            }
        }
        if set & !once != 0 {
            return false;
        }
        hidden = set & !twice & !alone;
    }
    true
}

/// The digits of the cage cells (`masks`) that a group of cells outside
/// does not see (`sees`: bit `i` for the `i`th cage cell it sees).
fn unseen_by(masks: &[u32], sees: u32) -> u32 {
    let mut unseen = 0;
    for (i, &mask) in masks.iter().enumerate() {
        // All ones when the group does not see cell `i`, else none.
        unseen |= mask & ((sees >> i) & 1).wrapping_sub(1);
    }
    unseen
}

/// The positions (bit `i` for the `i`th) of the masks holding `digit`.
fn places_of(masks: &[u32], digit: u32) -> u32 {
    (masks.iter().enumerate())
        .filter(|&(_, &mask)| mask & digit != 0)
        .fold(0, |places, (i, _)| places | 1 << i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::random::Random;
    use crate::variant::search::narrowing::testing::{self, digits};

    #[test]
    fn a_needed_digit_leaves_the_cells_outside_that_see_all_its_places() {
        // Cells 0, 1 and 2 of a 4×4 make 6, so they hold 1, 2 and 3.
        let cage = CageSum::new(vec![0, 1, 2].into(), vec![digits(&[1, 2, 3])].into());
        // Cells 10 and 12 see cage cells 0 and 1, cell 11 all three,
        // cell 13 cells 1 and 2.
        let seers = vec![(10, 0b011), (11, 0b111), (12, 0b011), (13, 0b110)];
        let cage = cage.surrounded(&[], seers);
        let all = digits(&[1, 2, 3, 4]);
        let mut masks = vec![all; 16];
        masks[0] = digits(&[1, 2]);
        masks[1] = digits(&[1, 2]);
        masks[2] = digits(&[3]);
        let masks = testing::narrowed(masks, all, |grid| cage.propagate(grid)).unwrap();
        // 1 and 2 stand in cells 0 and 1: every cell that sees both loses them.
        for cell in [10, 11, 12] {
            assert_eq!(masks[cell], digits(&[3, 4]), "cell {cell}");
        }
        assert_eq!(masks[13], all);
    }

    #[test]
    fn a_needed_digit_with_one_place_left_is_placed_there() {
        // Cells 0, 1 and 2 of a 4×4 make 6: 1, 2 and 3. Only cell 2 can
        // still take the 3.
        let cage = CageSum::new(vec![0, 1, 2].into(), vec![digits(&[1, 2, 3])].into());
        let all = digits(&[1, 2, 3, 4]);
        let mut masks = vec![all; 16];
        masks[0] = digits(&[1, 2]);
        masks[1] = digits(&[1, 2]);
        masks[2] = digits(&[2, 3, 4]);
        let masks = testing::narrowed(masks, all, |grid| cage.propagate(grid)).unwrap();
        assert_eq!(masks[2], digits(&[3]));
        // With the 3 nowhere, no set fits.
        let mut masks = vec![all; 16];
        masks[0] = digits(&[1, 2]);
        masks[1] = digits(&[1, 2]);
        masks[2] = digits(&[2, 4]);
        assert_eq!(
            testing::narrowed(masks, all, |grid| cage.propagate(grid)),
            None
        );
        // The set fits, but once the 2 is placed in its one place the 3
        // has none.
        let mut masks = vec![all; 16];
        masks[0] = digits(&[1]);
        masks[1] = digits(&[1]);
        masks[2] = digits(&[2, 3]);
        assert_eq!(
            testing::narrowed(masks, all, |grid| cage.propagate(grid)),
            None
        );
    }

    #[test]
    fn each_set_follows_its_own_singles_and_a_cell_keeps_what_some_set_leaves_it() {
        // Cells 0, 1 and 2 hold 1 2 3 or 4 5 6 (two sums of 6 and 15).
        let sets: Arc<[u32]> = vec![digits(&[1, 2, 3]), digits(&[4, 5, 6])].into();
        let cage = CageSum::new(vec![0, 1, 2].into(), sets);
        let all = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let mut masks = vec![all; 16];
        masks[0] = digits(&[1, 4]);
        masks[1] = digits(&[1, 2, 5, 6]);
        masks[2] = digits(&[2, 3, 4, 5, 6]);
        // Every cell can take a digit of either set, and no digit is
        // needed. But with 1 2 3, cell 0 is left the 1, so cell 1 the 2
        // and cell 2 the 3; with 4 5 6, cell 0 takes the 4 and the others
        // share 5 and 6.
        let masks = testing::narrowed(masks, all, |grid| cage.propagate(grid)).unwrap();
        assert_eq!(
            masks[..3],
            [digits(&[1, 4]), digits(&[2, 5, 6]), digits(&[3, 5, 6])]
        );
    }

    #[test]
    fn a_set_far_down_a_long_list_is_followed_as_the_first_would_be() {
        // Every three digits of 1 to 9, by mask: 7 8 9 comes last, the
        // 84th, well past the first batch of sets gathered.
        let sets: Vec<u32> = (0u32..1 << 10)
            .filter(|set| set.count_ones() == 3 && set & 1 == 0)
            .collect();
        assert!(sets.len() > 2 * SETS_AT_ONCE);
        assert_eq!(sets.last(), Some(&digits(&[7, 8, 9])));
        let cage = CageSum::new(vec![0, 1, 2].into(), sets.into());
        let all = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let mut masks = vec![all; 16];
        masks[0] = digits(&[7]);
        masks[1] = digits(&[7, 8]);
        masks[2] = digits(&[8, 9]);
        let masks = testing::narrowed(masks, all, |grid| cage.propagate(grid)).unwrap();
        assert_eq!(masks[..3], [digits(&[7]), digits(&[8]), digits(&[9])]);
    }

    #[test]
    fn with_six_cells_open_a_cage_keeps_its_sets_digits_without_following_them() {
        // Cells 0 to 5 hold 1 to 5 with a 6 or a 7.
        let sets: Arc<[u32]> =
            vec![digits(&[1, 2, 3, 4, 5, 6]), digits(&[1, 2, 3, 4, 5, 7])].into();
        let cage = CageSum::new((0..6).collect(), sets);
        let all = digits(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let mut masks = vec![digits(&[1, 2, 3, 4, 5, 8, 9]); 16];
        masks[5] = digits(&[6, 7, 8]);
        let masks = testing::narrowed(masks, all, |grid| cage.propagate(grid)).unwrap();
        assert_eq!(masks[..5], [digits(&[1, 2, 3, 4, 5]); 5]);
        assert_eq!(masks[5], digits(&[6, 7]));
    }

    /// Small random cages: following each set's singles keeps every digit
    /// some filling of the cage uses, and never more than the plain test.
    #[test]
    fn following_a_sets_singles_keeps_every_real_filling_and_no_more_than_the_plain_test() {
        let all = digits(&[1, 2, 3, 4, 5, 6, 7]);
        let mut random = Random::new(0x9e37_79b9_7f4a_7c15);
        let (mut filled, mut narrowed) = (0, 0);
        for _ in 0..2000 {
            let len = 2 + random.below(4) as usize;
            let sets = random_sum_sets(&mut random, len);
            let cage = CageSum::new((0..len as u16).collect(), sets.clone().into());
            let masks: Vec<u32> = (0..len).map(|_| random_mask(&mut random)).collect();
            let run = |within: bool| {
                testing::narrowed(masks.clone(), all, |grid| {
                    let mut cells = masks.clone();
                    let wanted = Wanted {
                        placed: masks
                            .iter()
                            .filter(|&&m| is_single(m))
                            .fold(0, |p, &m| p | m),
                        union: masks.iter().fold(0, |u, &m| u | m),
                        must: 0,
                    };
                    match within {
                        true => cage.fit_sets_within(grid, &mut cells, wanted),
                        false => cage.fit_sets(grid, &mut cells, wanted),
                    }
                    .map(|_| ())
                })
            };
            let (followed, plain) = (run(true), run(false));
            let real = fillings(&masks, &sets);
            if real.iter().any(|&used| used != 0) {
                filled += 1;
                let followed = followed.as_ref().expect("a cage with a filling fails");
                for (cell, &used) in real.iter().enumerate() {
                    assert_eq!(followed[cell] & used, used, "{masks:?} {sets:?}");
                }
            }
            match (&followed, &plain) {
                (Some(followed), Some(plain)) => {
                    for (f, p) in followed.iter().zip(plain) {
                        assert_eq!(f & !p, 0, "{masks:?} {sets:?}");
                    }
                    narrowed += usize::from(followed != plain);
                }
                (Some(_), None) => panic!("the plain test fails where following does not"),
                _ => {}
            }
        }
        // Both kinds of case came up often.
        assert!(filled > 300 && narrowed > 50, "{filled} {narrowed}");
    }

    /// Every set of `len` digits from 1 to 7 with the sum of `len` such
    /// digits drawn at random: the sets of a cage of `len` cells.
    fn random_sum_sets(random: &mut Random, len: usize) -> Vec<u32> {
        let total = random_subset(random, len).into_iter().sum::<u32>();
        (0u32..1 << 7)
            .map(|bits| bits << 1)
            .filter(|&set| set.count_ones() as usize == len)
            .filter(|&set| digits_of(set).sum::<u32>() == total)
            .collect()
    }

    /// A random mask of digits 1 to 7: one digit a time in four.
    fn random_mask(random: &mut Random) -> u32 {
        match random.below(4) {
            0 => 1 << (1 + random.below(7)),
            _ => (random.below(127) + 1) << 1,
        }
    }

    /// The engine does not wake a cage for its own changes (see
    /// [`Narrowing::disown`]): with five cells open or fewer, a second run
    /// on what the first left must narrow nothing, in the cage, the rest
    /// of its house or the cells outside that see it.
    #[test]
    fn with_five_open_or_fewer_a_cages_second_run_narrows_nothing() {
        let all = digits(&[1, 2, 3, 4, 5, 6, 7]);
        let mut random = Random::new(0x2545_f491_4f6c_dd1d);
        let (mut settled, mut moved) = (0, 0);
        for _ in 0..3000 {
            // Cells 0 to 6 are a house of seven: the cage first, then the
            // rest; cells 7 to 11 see cage cells at random.
            let len = 2 + random.below(4) as usize;
            let sets = random_sum_sets(&mut random, len);
            let seers = (7..12u16)
                .map(|cell| (cell, random.below(1 << len)))
                .filter(|&(_, sees)| sees.count_ones() >= 2)
                .collect();
            let complement: Vec<u16> = (len as u16..7).collect();
            let cage =
                CageSum::new((0..len as u16).collect(), sets.into()).surrounded(&complement, seers);
            let masks: Vec<u32> = (0..12).map(|_| random_mask(&mut random)).collect();
            let run = |masks: Vec<u32>| testing::narrowed(masks, all, |grid| cage.propagate(grid));
            let Some(first) = run(masks.clone()) else {
                continue;
            };
            assert_eq!(run(first.clone()), Some(first.clone()), "{masks:?}");
            settled += 1;
            moved += usize::from(first != masks);
        }
        assert!(settled > 600 && moved > 600, "{settled} {moved}");
    }

    /// `len` distinct digits from 1 to 7.
    fn random_subset(random: &mut Random, len: usize) -> Vec<u32> {
        let mut digits: Vec<u32> = (1..=7).collect();
        for i in 0..len {
            let j = i + random.below((7 - i) as u32) as usize;
            digits.swap(i, j);
        }
        digits.truncate(len);
        digits
    }

    /// For each cell, the digits it takes in some filling of the cage: a
    /// digit of its mask for each cell, all distinct, making one of `sets`.
    fn fillings(masks: &[u32], sets: &[u32]) -> Vec<u32> {
        let mut used = vec![0; masks.len()];
        testing::each_distinct_filling(masks, &mut |chosen| {
            let set = chosen.iter().fold(0, |s, &d| s | d);
            if sets.contains(&set) {
                for (u, &d) in used.iter_mut().zip(chosen) {
                    *u |= d;
                }
            }
        });
        used
    }

    #[test]
    fn a_cage_keeps_its_sets_digits_and_the_rest_of_its_house_the_others() {
        // Cells 0 and 1 of a 4×4's first row make 5: 1 and 4, or 2 and 3.
        let sets: Arc<[u32]> = vec![digits(&[1, 4]), digits(&[2, 3])].into();
        let cage = CageSum::new(vec![0, 1].into(), sets).surrounded(&[2, 3], Vec::new());
        let all = digits(&[1, 2, 3, 4]);
        // Neither set is ruled out: nothing moves.
        let masks = testing::narrowed(vec![all; 16], all, |grid| cage.propagate(grid)).unwrap();
        assert_eq!(masks, vec![all; 16]);
        // The rest of the row cannot hold 4, so the cage holds 1 and 4,
        // and the rest of the row neither.
        let mut masks = vec![all; 16];
        masks[2] = digits(&[1, 2, 3]);
        masks[3] = digits(&[1, 2, 3]);
        let masks = testing::narrowed(masks, all, |grid| cage.propagate(grid)).unwrap();
        assert_eq!(
            masks[..4],
            [
                digits(&[1, 4]),
                digits(&[1, 4]),
                digits(&[2, 3]),
                digits(&[2, 3])
            ]
        );
    }
}
