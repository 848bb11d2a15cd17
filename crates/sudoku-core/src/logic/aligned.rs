//! Aligned pair exclusion (6.2) and aligned triple exclusion (7.5), as
//! Sukaku Explainer finds them.
//!
//! Two cells (the *base*), each with two candidates or more, share at
//! least two *excluders*: cells with exactly two candidates that each of
//! them sees. Try every pair of digits the base could take. A pair is
//! impossible when the base cells see each other and it repeats a digit,
//! or when it takes both digits of some shared excluder, which would then
//! be left with none. A base digit that is in no possible pair goes.
//!
//! The base cells are those with two candidates or more whose peers hold
//! no naked single and include at least one two-candidate cell; pairs of
//! them are tried in Sukaku Explainer's order, (0, 1), (0, 2), (1, 2),
//! (0, 3) and so on, and the first that removes something is the step.
//!
//! The triple exclusion works the same on three cells, with excluders of
//! two or three candidates: after each pair of base cells, its third cell
//! is each other base cell among the pair's excluders (the first cell's,
//! then the second's), and the three must share at least two.
//!
//! What a base tells depends only on its cells and the cells they all see
//! (the excluders among them): with a [`Scope`], only bases that hold a
//! changed cell, or a changed cell all of them see, are tried. (Being a
//! base at all also asks that no peer hold a single candidate; on the
//! ladder, past naked singles, none does.)

use std::fmt::Write;

use super::bits::{Cells, PEERS, bit, digits};
use super::grid::Grid;
use super::scope::Scope;
use super::step::{Mark, Step};
use super::technique::Technique;
use super::words::{Words, cell_list};

/// The first aligned pair exclusion that removes something, if any,
/// among the bases `scope` touches.
pub fn aligned_pair_exclusion(grid: &Grid, scope: Scope) -> Option<Step> {
    let bases = base_cells(grid, 2);
    for second in 1..bases.len() {
        for first in 0..second {
            let (a, a_excluders) = bases[first];
            let (b, b_excluders) = bases[second];
            let shared = a_excluders.and(b_excluders);
            if shared.len() < 2 || !touched(scope, &[a, b]) {
                continue;
            }
            let step = exclusion(grid, &[a, b], shared, Technique::AlignedPairExclusion);
            if step.is_some() {
                return step;
            }
        }
    }
    None
}

/// The first aligned triple exclusion that removes something, if any,
/// among the bases `scope` touches.
pub fn aligned_triple_exclusion(grid: &Grid, scope: Scope) -> Option<Step> {
    let bases = base_cells(grid, 3);
    let base_set: Cells = bases.iter().map(|&(cell, _)| cell).collect();
    let mut excluders_of = [Cells::EMPTY; 81];
    for &(cell, excluders) in &bases {
        excluders_of[cell] = excluders;
    }
    for second in 1..bases.len() {
        for first in 0..second {
            let (a, a_excluders) = bases[first];
            let (b, b_excluders) = bases[second];
            // A triple shares no more excluders than its pair.
            if a_excluders.and(b_excluders).len() < 2 {
                continue;
            }
            let pair = Cells::single(a).or(Cells::single(b));
            // A triple sees no more than its pair: when the pair is
            // untouched, only a changed third cell can make it new.
            let thirds = match touched(scope, &[a, b]) {
                true => base_set,
                false => base_set.and(scope.cells()),
            };
            let firsts = a_excluders.and(thirds).minus(pair);
            let seconds = b_excluders.minus(a_excluders).and(thirds).minus(pair);
            for c in firsts.iter().chain(seconds.iter()) {
                let shared = a_excluders.and(b_excluders).and(excluders_of[c]);
                if shared.len() < 2 || !touched(scope, &[a, b, c]) {
                    continue;
                }
                let step = exclusion(grid, &[a, b, c], shared, Technique::AlignedTripleExclusion);
                if step.is_some() {
                    return step;
                }
            }
        }
    }
    None
}

/// Whether `scope` holds a cell of `base` or one that all of them see.
fn touched(scope: Scope, base: &[usize]) -> bool {
    if scope.is_whole() {
        return true;
    }
    let cells: Cells = base.iter().copied().collect();
    let seen = base
        .iter()
        .fold(Cells::ALL, |all, &cell| all.and(PEERS[cell]));
    scope.touches(cells.or(seen))
}

/// The cells that can be a base, in index order, with their excluders:
/// two candidates or more, no peer with one candidate, and some peer with
/// at most `widest` candidates (the excluders; none has fewer than two
/// unless the grid is broken).
fn base_cells(grid: &Grid, widest: u32) -> Vec<(usize, Cells)> {
    let (mut singles, mut narrow, mut several) = (Cells::EMPTY, Cells::EMPTY, Cells::EMPTY);
    for cell in grid.blanks().iter() {
        let count = grid.marks(cell).count_ones();
        match count {
            1 => singles = singles.or(Cells::single(cell)),
            n if n <= widest => narrow = narrow.or(Cells::single(cell)),
            _ => {}
        }
        if count >= 2 {
            several = several.or(Cells::single(cell));
        }
    }
    several
        .iter()
        .filter(|&cell| PEERS[cell].and(singles).is_empty())
        .map(|cell| (cell, PEERS[cell].and(narrow)))
        .filter(|(_, excluders)| !excluders.is_empty())
        .collect()
}

/// The step that removes the digits of `base` found in no possible
/// combination, if there are any. A combination (a digit for each base
/// cell) is impossible when two base cells that see each other take the
/// same digit, or when it leaves a shared excluder no candidate.
fn exclusion<const N: usize>(
    grid: &Grid,
    base: &[usize; N],
    shared: Cells,
    technique: Technique,
) -> Option<Step> {
    let mut excluders = [0u16; 20];
    for (slot, cell) in excluders.iter_mut().zip(shared.iter()) {
        *slot = grid.marks(cell);
    }
    let excluders = &excluders[..shared.len().min(20) as usize];
    let search = Combinations {
        marks: base.map(|cell| grid.marks(cell)),
        sees: std::array::from_fn(|i| {
            std::array::from_fn(|j| i != j && PEERS[base[i]].has(base[j]))
        }),
        excluders,
    };
    let mut allowed = [0u16; N];
    match N {
        3 => search.combine_three(&mut allowed),
        _ => search.combine(&mut [0; N], 0, &mut allowed),
    }
    if (0..N).all(|i| search.marks[i] & !allowed[i] == 0) {
        return None;
    }
    let mut step = Step::new(technique);
    for (index, &cell) in base.iter().enumerate() {
        step.pattern.push(Mark::new(cell, 0));
        step.eliminations
            .extend(digits(grid.marks(cell) & !allowed[index]).map(|digit| Mark::new(cell, digit)));
    }
    step.pattern
        .extend(shared.iter().map(|cell| Mark::new(cell, 0)));
    Some(step)
}

/// The combinations of digits of `N` base cells, and what rules them out.
struct Combinations<'a, const N: usize> {
    marks: [u16; N],
    /// Which base cells see which.
    sees: [[bool; N]; N],
    /// The shared excluders' candidates.
    excluders: &'a [u16],
}

impl<const N: usize> Combinations<'_, N> {
    /// Tries every digit for base cell `next` after those `chosen` (none
    /// a base cell it sees took), and marks the digits of each possible
    /// whole combination `allowed`.
    fn combine(&self, chosen: &mut [u8; N], next: usize, allowed: &mut [u16; N]) {
        let repeated = (0..next)
            .filter(|&i| self.sees[i][next])
            .fold(0, |mask, i| mask | bit(chosen[i]));
        let free = self.marks[next] & !repeated;
        if next == N - 1 {
            let taken = chosen[..next].iter().fold(0, |mask, &d| mask | bit(d));
            let Some(ruled_out) = self.ruled_out(taken) else {
                return;
            };
            let last = free & !ruled_out;
            if last != 0 {
                allowed[next] |= last;
                for (slot, &digit) in allowed.iter_mut().zip(&chosen[..next]) {
                    *slot |= bit(digit);
                }
            }
            return;
        }
        for digit in digits(free) {
            chosen[next] = digit;
            self.combine(chosen, next + 1, allowed);
        }
    }

    /// The digits the last base cell cannot take once the others took
    /// `taken`: an excluder they leave one digit rules that digit out;
    /// one they leave none rules out the whole combination (`None`).
    fn ruled_out(&self, taken: u16) -> Option<u16> {
        let mut ruled_out = 0;
        for &marks in self.excluders {
            let rest = marks & !taken;
            if rest == 0 {
                return None;
            }
            if rest.count_ones() == 1 {
                ruled_out |= rest;
            }
        }
        Some(ruled_out)
    }

    /// [`Combinations::combine`] for three base cells, as two plain
    /// loops: the triple exclusion tries millions of triples.
    fn combine_three(&self, allowed: &mut [u16; N]) {
        let [a, b, c] = [self.marks[0], self.marks[1], self.marks[2]];
        let sees = |i: usize, j: usize, digit: u8| match self.sees[i][j] {
            true => bit(digit),
            false => 0,
        };
        for first in digits(a) {
            for second in digits(b & !sees(0, 1, first)) {
                let Some(ruled_out) = self.ruled_out(bit(first) | bit(second)) else {
                    continue;
                };
                let last = c & !(ruled_out | sees(0, 2, first) | sees(1, 2, second));
                if last != 0 {
                    allowed[0] |= bit(first);
                    allowed[1] |= bit(second);
                    allowed[2] |= last;
                    if allowed[..] == [a, b, c] {
                        // Every digit is allowed: nothing goes.
                        return;
                    }
                }
            }
        }
    }
}

/// How a player is told about an aligned pair or triple exclusion step.
pub(super) fn explain(step: &Step, _words: &Words, text: &mut String) {
    match step.technique {
        Technique::AlignedPairExclusion => {
            let _ = write!(
                text,
                "{} cannot take two digits that would leave one of the two-candidate cells \
                 {} they both see with nothing, nor one digit twice if they see each other",
                cell_list(&step.pattern[..2]),
                cell_list(&step.pattern[2..])
            );
        }
        Technique::AlignedTripleExclusion => {
            let _ = write!(
                text,
                "{} cannot take three digits that would leave one of the cells {} they all \
                 see with nothing, nor one digit twice in cells that see each other",
                cell_list(&step.pattern[..3]),
                cell_list(&step.pattern[3..])
            );
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`base_cells`] written plainly, a peer at a time.
    fn base_cells_plainly(grid: &Grid, widest: u32) -> Vec<(usize, Cells)> {
        let excluders = |cell: usize| {
            let mut found = Cells::EMPTY;
            for peer in PEERS[cell].and(grid.blanks()).iter() {
                match grid.marks(peer).count_ones() {
                    1 => return None,
                    n if n <= widest => found = found.or(Cells::single(peer)),
                    _ => {}
                }
            }
            (!found.is_empty()).then_some(found)
        };
        grid.blanks()
            .iter()
            .filter(|&cell| grid.marks(cell).count_ones() >= 2)
            .filter_map(|cell| excluders(cell).map(|found| (cell, found)))
            .collect()
    }

    #[test]
    fn base_cells_and_their_excluders_are_those_found_a_peer_at_a_time() {
        // Every position of a hard puzzle's walk, and the same positions
        // with a cell's candidates cut to one (a naked single among the
        // peers rules a base out): it fails when the widest excluder,
        // the single test or the two-candidate floor is off by one.
        let text =
            "5.4.2.8.77.......3...7.3.....8.3.9....5.9.4.....6.4...8..3.2..1.2..6..5.6...8...9";
        let mut grid = Grid::new(&crate::parse_board(text).expect("a puzzle"));
        let mut compared = 0;
        loop {
            let mut cut = grid.clone();
            if let Some(cell) = cut.blanks().iter().find(|&c| cut.marks(c).count_ones() > 2) {
                let keep = super::super::bits::digits(cut.marks(cell))
                    .next()
                    .expect("a digit");
                for digit in super::super::bits::digits(cut.marks(cell) & !bit(keep)) {
                    cut.eliminate(cell, digit);
                }
            }
            for position in [&grid, &cut] {
                for widest in [2, 3] {
                    assert_eq!(
                        base_cells(position, widest),
                        base_cells_plainly(position, widest)
                    );
                    compared += 1;
                }
            }
            let Some(step) = super::super::ladder::simplest_step(&grid, &|| false) else {
                break;
            };
            step.apply(&mut grid);
        }
        assert!(compared > 100, "{compared}");
    }

    #[test]
    fn the_three_cell_search_allows_what_the_general_one_does() {
        // Random base cells, sights and excluders: the same digits allowed
        // (it fails when a sight, a ruled-out digit or an excluder left
        // empty is missed, or when the early exit comes too soon).
        let mut seed = 0x9e37_79b9_u32;
        let mut random = move |below: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % below
        };
        let mut removals = 0;
        for _ in 0..20_000 {
            let marks = |random: &mut dyn FnMut(u32) -> u32| {
                (0..2 + random(3)).fold(0u16, |m, _| m | bit(1 + random(5) as u8))
            };
            let base = [marks(&mut random), marks(&mut random), marks(&mut random)];
            let excluders: Vec<u16> = (0..random(5)).map(|_| marks(&mut random)).collect();
            let (ab, ac, bc) = (random(2) == 1, random(2) == 1, random(2) == 1);
            let search = Combinations {
                marks: base,
                sees: [[false, ab, ac], [ab, false, bc], [ac, bc, false]],
                excluders: &excluders,
            };
            let mut general = [0u16; 3];
            search.combine(&mut [0; 3], 0, &mut general);
            let mut three = [0u16; 3];
            search.combine_three(&mut three);
            assert_eq!(three, general, "{base:?} {excluders:?} {ab} {ac} {bc}");
            removals += usize::from(general != base);
        }
        assert!(removals > 1_000, "{removals}");
    }
}
