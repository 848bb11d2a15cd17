//! The nested rules of a forcing chain of level 1 and up: what simple
//! techniques, and from level 2 whole chains, find on the working grid of
//! a search once its plain implications run out.
//!
//! Sukaku Explainer tries a fixed list, in order, and keeps only the first
//! rule that finds anything: pointing and claiming, hidden pairs, naked
//! pairs, X-Wings; then at level 2 its cycles and forcing chains, at
//! level 3 its static cell and region chains too. Every candidate a rule
//! would remove becomes an "off" of the search, whose parents are the
//! "offs" the rule needed: the candidates the search crossed out that the
//! pattern depends on. A rule instance that needs none of them is skipped,
//! since it held before the assumption. Instances are taken in Sukaku
//! Explainer's scan order, and each one's removals in the order its hash
//! map keeps them, because the first to produce an "off" gives it its
//! parents, and so the length of the chains built on it.
//!
//! The chains found on a working grid depend on that grid alone, so they
//! are kept in a bounded cache: the same grid comes back again and again
//! from different assumptions.

use std::collections::HashMap;
use std::rc::Rc;

use super::super::bits::{Cells, UNITS, bit, cell_at, digits};
use super::super::grid::Grid;
use super::super::implications::{State, state};
use super::inner::{self, InnerHint, RuleCause};
use super::nested::{Implication, NestedChains, NestedRules, Rule};
use super::search::{STATIC, dynamic};

/// Most working grids whose nested chains are kept, of each kind. Each
/// entry holds a few dozen chains of about a hundred bytes.
const CACHE_LIMIT: usize = 1024;

/// Most working grids kept for level 4's dynamic chains, and for each
/// kind of the chains nested in them: their lists are longer, and level 4
/// is rare, so a quarter of the room keeps its memory within the worker's
/// allowance (docs/operations.md) at some cost in its speed.
const DEEP_CACHE_LIMIT: usize = CACHE_LIMIT / 4;

/// Working grids and the chains found on them, at most `limit`: the grids
/// met since the last turn, and those met in the turn before that are not
/// yet met again. A turn comes when the recent half is full; the older
/// half is then dropped. Grids still in use survive a turn, as they would
/// not if the whole cache were emptied at once.
struct GridCache {
    limit: usize,
    recent: HashMap<Grid, Rc<[InnerHint]>>,
    older: HashMap<Grid, Rc<[InnerHint]>>,
}

impl Default for GridCache {
    fn default() -> GridCache {
        GridCache::with_limit(CACHE_LIMIT)
    }
}

impl GridCache {
    fn with_limit(limit: usize) -> GridCache {
        GridCache {
            limit,
            recent: HashMap::new(),
            older: HashMap::new(),
        }
    }

    /// The chains kept for `grid`, if any; a grid from the older half
    /// moves to the recent one.
    fn get(&mut self, grid: &Grid) -> Option<Rc<[InnerHint]>> {
        if let Some(hints) = self.recent.get(grid) {
            return Some(hints.clone());
        }
        let (grid, hints) = self.older.remove_entry(grid)?;
        self.insert(grid, hints.clone());
        Some(hints)
    }

    /// Keeps `hints` for `grid`, turning first if the recent half is full.
    fn insert(&mut self, grid: Grid, hints: Rc<[InnerHint]>) {
        if self.recent.len() >= self.limit / 2 {
            self.older = std::mem::take(&mut self.recent);
        }
        if self.recent.capacity() == 0 {
            // Room for a whole half at once: growing rehashes every grid.
            self.recent.reserve(self.limit / 2);
        }
        self.recent.insert(grid, hints);
    }
}

/// Most distinct nested chains kept between two searches.
const NESTED_LIMIT: usize = 1 << 16;

/// The chains a nested rule may use on a working grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chains {
    /// Cycles and forcing chains (level 2).
    Cycles,
    /// Static cell and region chains (level 3).
    Multiple,
    /// Dynamic chains nested to this limit (level 4).
    Dynamic(u8),
}

/// The nested rules' state: the chains found so far, and each working
/// grid's chains. A worker thread keeps one across its searches, since
/// the producers of successive levels, and successive steps, meet the
/// same working grids again.
pub(super) struct Advanced {
    /// Every nested chain any node refers to.
    pub nested: NestedChains,
    cycles: GridCache,
    multiple: GridCache,
    /// Dynamic chains nested to `dynamic_limit` (level 4): one limit at a
    /// time, since a search keeps to one, so that level 4 adds one cache.
    dynamic: GridCache,
    dynamic_limit: u8,
    /// The state of those dynamic chains' own nested searches.
    inner: Option<Box<Advanced>>,
}

impl Default for Advanced {
    fn default() -> Advanced {
        Advanced::with_cache_limit(CACHE_LIMIT)
    }
}

impl Advanced {
    fn with_cache_limit(limit: usize) -> Advanced {
        Advanced {
            nested: NestedChains::default(),
            cycles: GridCache::with_limit(limit),
            multiple: GridCache::with_limit(limit),
            dynamic: GridCache::with_limit(DEEP_CACHE_LIMIT),
            dynamic_limit: 0,
            inner: None,
        }
    }

    /// Drops what was kept once it has grown past its bounds. Call only
    /// between searches: nodes of a search refer to the nested chains.
    pub fn trim(&mut self) {
        let inner_grown = self
            .inner
            .as_ref()
            .is_some_and(|inner| inner.nested.len() > NESTED_LIMIT);
        if self.nested.len() > NESTED_LIMIT || inner_grown {
            *self = Advanced::default();
        }
    }

    fn cache(&mut self, chains: Chains) -> &mut GridCache {
        match chains {
            Chains::Cycles => &mut self.cycles,
            Chains::Multiple => &mut self.multiple,
            Chains::Dynamic(limit) => {
                if limit != self.dynamic_limit {
                    self.dynamic = GridCache::with_limit(DEEP_CACHE_LIMIT);
                    self.dynamic_limit = limit;
                }
                &mut self.dynamic
            }
        }
    }

    /// The chains of one kind on `work`, found once per grid. A search
    /// `should_stop` cut short finds none, and is not kept.
    fn cached(
        &mut self,
        work: &Grid,
        chains: Chains,
        should_stop: &dyn Fn() -> bool,
    ) -> Rc<[InnerHint]> {
        if let Some(hints) = self.cache(chains).get(work) {
            return hints;
        }
        let found = match chains {
            Chains::Cycles => Some(inner::cycles_and_chains(work, &mut self.nested)),
            Chains::Multiple => {
                let mut plain = Advanced::default();
                let nested = &mut self.nested;
                inner::propagated_chains(work, STATIC, &mut plain, nested, should_stop)
            }
            Chains::Dynamic(limit) => {
                let own = self
                    .inner
                    .get_or_insert_with(|| Box::new(Advanced::with_cache_limit(DEEP_CACHE_LIMIT)));
                let nested = &mut self.nested;
                inner::propagated_chains(work, dynamic(limit), own.as_mut(), nested, should_stop)
            }
        };
        let Some(found) = found else {
            return Rc::from(Vec::new());
        };
        let hints: Rc<[InnerHint]> = found.into();
        self.cache(chains).insert(work.clone(), hints.clone());
        hints
    }

    fn chain_implications(
        &self,
        hints: &[InnerHint],
        work: &Grid,
        source: &Grid,
        found: &mut Vec<Implication>,
    ) {
        let mut parents = Vec::new();
        for hint in hints {
            parents.clear();
            for &(on, cause) in &hint.recipe {
                rule_parents_of(on, cause, work, source, &mut parents);
            }
            dedup_in_order(&mut parents);
            if parents.is_empty() {
                continue;
            }
            emit(&hint.removals, &parents, hint.nested, found);
        }
    }
}

impl NestedRules for Advanced {
    /// The "offs" the first nested rule that finds anything implies on
    /// `work`, for a search that started on `source`. Levels 4 to 7 are
    /// level 4 with an inner limit of 0 to 3.
    fn implications(
        &mut self,
        work: &Grid,
        source: &Grid,
        level: u8,
        should_stop: &dyn Fn() -> bool,
    ) -> Vec<Implication> {
        let mut found = Vec::new();
        let simple: [(SimpleRule, Rule); 4] = [
            (locking, Rule::LockedCandidates),
            (hidden_pairs, Rule::HiddenPair),
            (naked_pairs, Rule::NakedPair),
            (x_wings, Rule::XWing),
        ];
        for (find, rule) in simple {
            find(work, source, &mut found);
            if !found.is_empty() {
                return tagged(found, rule);
            }
        }
        if level >= 4 {
            let hints = self.cached(work, Chains::Dynamic(level - 4), should_stop);
            self.chain_implications(&hints, work, source, &mut found);
            return tagged(found, Rule::DynamicForcingChains);
        }
        if level >= 2 {
            let hints = self.cached(work, Chains::Cycles, should_stop);
            self.chain_implications(&hints, work, source, &mut found);
            if !found.is_empty() {
                return tagged(found, Rule::ForcingChains);
            }
        }
        if level >= 3 {
            let hints = self.cached(work, Chains::Multiple, should_stop);
            self.chain_implications(&hints, work, source, &mut found);
        }
        tagged(found, Rule::MultipleForcingChains)
    }

    fn nested(&self) -> &NestedChains {
        &self.nested
    }
}

/// A simple technique's search on a working grid.
type SimpleRule = fn(&Grid, &Grid, &mut Vec<Implication>);

/// The implications, each marked as `rule`'s.
fn tagged(mut found: Vec<Implication>, rule: Rule) -> Vec<Implication> {
    for implication in &mut found {
        implication.rule = rule;
    }
    found
}

/// The "offs" that an "on" of a nested chain, implied by `cause`, needed:
/// for a cell link, the candidates its cell lost; for a unit link, the
/// places its digit lost in the unit.
fn rule_parents_of(on: State, cause: RuleCause, work: &Grid, source: &Grid, out: &mut Vec<State>) {
    let (cell, digit) = (
        super::super::implications::cell_of(on),
        super::super::implications::digit_of(on),
    );
    match cause {
        RuleCause::Cell => {
            for lost in digits(source.marks(cell) & !work.marks(cell)) {
                out.push(state(cell, lost, false));
            }
        }
        RuleCause::Unit(unit) => {
            let lost = UNITS[usize::from(unit)]
                .and(source.cells_with(digit))
                .minus(work.cells_with(digit));
            out.extend(lost.iter().map(|c| state(c, digit, false)));
        }
    }
}

fn dedup_in_order(states: &mut Vec<State>) {
    let mut seen = [0u64; super::super::implications::STATES.div_ceil(64)];
    states.retain(|&s| {
        let (word, mask) = (usize::from(s) / 64, 1u64 << (s % 64));
        let new = seen[word] & mask == 0;
        seen[word] |= mask;
        new
    });
}

/// The "offs" of one rule instance: its removals, cell by cell in the
/// order Java's `HashMap` keyed by cell index iterates them (by index
/// modulo its capacity, then insertion order), digits ascending.
pub(super) fn emit(
    removals: &[(u8, u16)],
    parents: &[State],
    nested: u32,
    out: &mut Vec<Implication>,
) {
    for &(cell, marks) in hash_map_order(removals).iter() {
        for digit in digits(marks) {
            out.push(Implication {
                state: state(usize::from(cell), digit, false),
                parents: parents.to_vec(),
                rule: Rule::LockedCandidates,
                nested,
            });
        }
    }
}

/// `removals` (in insertion order) as Java's `HashMap<Cell, _>` iterates
/// them: its capacity is 16 for up to 12 entries and doubles each time
/// three quarters of it fill.
pub(super) fn hash_map_order(removals: &[(u8, u16)]) -> Vec<(u8, u16)> {
    let mut capacity = 16;
    while removals.len() > capacity * 3 / 4 {
        capacity *= 2;
    }
    let mut ordered = removals.to_vec();
    ordered.sort_by_key(|&(cell, _)| usize::from(cell) % capacity);
    ordered
}

/// The positions (0..9) within line `unit` (a row or column) of `cells`.
fn positions(unit: usize, cells: Cells) -> u16 {
    if unit < COLUMN {
        let row = unit - ROW;
        return ((cells.0 >> (row * 9)) & 0x1ff) as u16;
    }
    let column = unit - COLUMN;
    (0..9).fold(0, |mask, row| {
        mask | u16::from(cells.has(row * 9 + column)) << row
    })
}

const BOX: usize = 0;
const ROW: usize = 9;
const COLUMN: usize = 18;

/// Pointing then claiming: a digit whose places in one unit all lie in
/// another leaves the rest of that other unit. Sukaku Explainer scans
/// box-column, box-row, column-box, row-box, digit by digit.
fn locking(work: &Grid, source: &Grid, out: &mut Vec<Implication>) {
    for (first, second) in [(BOX, COLUMN), (BOX, ROW), (COLUMN, BOX), (ROW, BOX)] {
        for digit in 1..=9u8 {
            for i in 0..9 {
                let base = first + i;
                let places = UNITS[base].and(work.cells_with(digit));
                let Some(cell) = places.first() else {
                    continue;
                };
                // Only the unit of the second kind through the first place
                // can hold them all.
                let cover = super::super::bits::units_of(cell)[match second {
                    BOX => 0,
                    ROW => 1,
                    _ => 2,
                }];
                if places.len() < 2 || !places.minus(UNITS[cover]).is_empty() {
                    continue;
                }
                let removed = UNITS[cover].and(work.cells_with(digit)).minus(UNITS[base]);
                if removed.is_empty() {
                    continue;
                }
                let lost = UNITS[base]
                    .and(source.cells_with(digit))
                    .minus(work.cells_with(digit))
                    .minus(UNITS[cover]);
                let parents: Vec<State> = lost.iter().map(|c| state(c, digit, false)).collect();
                if parents.is_empty() {
                    continue;
                }
                let removals: Vec<(u8, u16)> =
                    removed.iter().map(|c| (c as u8, bit(digit))).collect();
                emit(&removals, &parents, super::propagation::NO_NESTED, out);
            }
        }
    }
}

/// The pairs of 0..9 in Sukaku Explainer's order: by the higher, then
/// the lower.
fn pairs() -> impl Iterator<Item = (usize, usize)> {
    (1..9).flat_map(|high| (0..high).map(move |low| (low, high)))
}

/// Units in the order Sukaku Explainer scans them for sets: boxes,
/// columns, rows.
fn set_units() -> impl Iterator<Item = usize> {
    (BOX..BOX + 9).chain(COLUMN..COLUMN + 9).chain(ROW..ROW + 9)
}

/// Hidden pairs: two digits with the same two places, and no others, in
/// a unit with more than four blank cells.
fn hidden_pairs(work: &Grid, source: &Grid, out: &mut Vec<Implication>) {
    for unit in set_units() {
        if work.blanks().and(UNITS[unit]).len() <= 4 {
            continue;
        }
        // Each digit's places in the unit, worked out once.
        let places: [Cells; 9] =
            std::array::from_fn(|d| UNITS[unit].and(work.cells_with(d as u8 + 1)));
        let counts = places.map(|p| p.len());
        for (low, high) in pairs() {
            if counts[low] != 2 || counts[high] != 2 || places[low] != places[high] {
                continue;
            }
            let (a, b) = (low as u8 + 1, high as u8 + 1);
            let both = places[low];
            let pair = bit(a) | bit(b);
            let removals: Vec<(u8, u16)> = both
                .iter()
                .map(|c| (c as u8, work.marks(c) & !pair))
                .filter(|&(_, m)| m != 0)
                .collect();
            if removals.is_empty() {
                continue;
            }
            let mut parents = Vec::new();
            for cell in UNITS[unit].minus(both).iter() {
                for digit in [a, b] {
                    if source.has(cell, digit) {
                        parents.push(state(cell, digit, false));
                    }
                }
            }
            if !parents.is_empty() {
                emit(&removals, &parents, super::propagation::NO_NESTED, out);
            }
        }
    }
}

/// Naked pairs: two cells of a unit with the same two candidates, in a
/// unit with at least four blank cells.
fn naked_pairs(work: &Grid, source: &Grid, out: &mut Vec<Implication>) {
    for unit in set_units() {
        if work.blanks().and(UNITS[unit]).len() < 4 {
            continue;
        }
        let marks: [u16; 9] = std::array::from_fn(|p| work.marks(cell_at(unit, p)));
        for (low, high) in pairs() {
            let (marks_a, marks_b) = (marks[low], marks[high]);
            if marks_a.count_ones() != 2 || marks_a != marks_b {
                continue;
            }
            let pair = marks_a;
            let (first, second) = (cell_at(unit, low), cell_at(unit, high));
            let removals: Vec<(u8, u16)> = UNITS[unit]
                .iter()
                .filter(|&c| c != first && c != second)
                .map(|c| (c as u8, work.marks(c) & pair))
                .filter(|&(_, m)| m != 0)
                .collect();
            if removals.is_empty() {
                continue;
            }
            let mut parents = Vec::new();
            for cell in [first, second] {
                for lost in digits(source.marks(cell) & !pair) {
                    parents.push(state(cell, lost, false));
                }
            }
            if !parents.is_empty() {
                emit(&removals, &parents, super::propagation::NO_NESTED, out);
            }
        }
    }
}

/// X-Wings: a digit whose places in two lines lie in the same two
/// crossing lines leaves the rest of those. Columns as base first, then
/// rows; base pairs in order, digits inside.
fn x_wings(work: &Grid, source: &Grid, out: &mut Vec<Implication>) {
    let open: Vec<u8> = (1..=9u8)
        .filter(|&digit| work.placed(digit).len() + 4 <= 9)
        .collect();
    for (base_kind, cover_kind) in [(COLUMN, ROW), (ROW, COLUMN)] {
        // Each digit's positions along each base line, worked out once.
        let mut along = [[0u16; 9]; 9];
        for &digit in &open {
            let places = work.cells_with(digit);
            for (line, slot) in along[usize::from(digit) - 1].iter_mut().enumerate() {
                *slot = positions(base_kind + line, places);
            }
        }
        for (low, high) in pairs() {
            let bases = [base_kind + low, base_kind + high];
            for &digit in &open {
                let lines = &along[usize::from(digit) - 1];
                let across = [lines[low], lines[high]];
                if across.iter().any(|p| p.count_ones() < 2)
                    || (across[0] | across[1]).count_ones() != 2
                {
                    continue;
                }
                let covers: Vec<usize> = (0..9)
                    .filter(|i| (across[0] | across[1]) & 1 << i != 0)
                    .map(|i| cover_kind + i)
                    .collect();
                let base_cells = UNITS[bases[0]].or(UNITS[bases[1]]);
                let cover_cells = UNITS[covers[0]].or(UNITS[covers[1]]);
                let removed = cover_cells.and(work.cells_with(digit)).minus(base_cells);
                if removed.is_empty() {
                    continue;
                }
                let lost = base_cells
                    .and(source.cells_with(digit))
                    .minus(work.cells_with(digit))
                    .minus(cover_cells);
                let parents: Vec<State> = lost.iter().map(|c| state(c, digit, false)).collect();
                if parents.is_empty() {
                    continue;
                }
                let removals: Vec<(u8, u16)> = covers
                    .iter()
                    .flat_map(|&cover| UNITS[cover].and(removed).iter())
                    .map(|c| (c as u8, bit(digit)))
                    .collect();
                emit(&removals, &parents, super::propagation::NO_NESTED, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct grids: a puzzle's grid with one or two candidates removed.
    fn grids(count: usize) -> Vec<Grid> {
        let board = crate::parse_board(
            "98.7..6..5.4.6..3......9...62...73.........9.........129..7.8....58.2......9...23",
        )
        .expect("a puzzle");
        let grid = Grid::new(&board);
        let candidates: Vec<(usize, u8)> = grid
            .blanks()
            .iter()
            .flat_map(|cell| digits(grid.marks(cell)).map(move |digit| (cell, digit)))
            .collect();
        let mut made = Vec::new();
        'pairs: for (i, &(a, x)) in candidates.iter().enumerate() {
            for &(b, y) in &candidates[i + 1..] {
                if made.len() == count {
                    break 'pairs;
                }
                let mut changed = grid.clone();
                changed.eliminate(a, x);
                changed.eliminate(b, y);
                made.push(changed);
            }
        }
        assert_eq!(made.len(), count, "enough distinct grids");
        made
    }

    #[test]
    fn the_grid_cache_stays_bounded_and_keeps_the_grids_in_use() {
        let grids = grids(3 * CACHE_LIMIT);
        let hints: Rc<[InnerHint]> = Rc::from(Vec::new());
        let mut cache = GridCache::default();
        // The first grid is asked for after every insertion; the second
        // only once, at the start.
        cache.insert(grids[0].clone(), hints.clone());
        cache.insert(grids[1].clone(), hints.clone());
        for grid in &grids[2..] {
            cache.insert(grid.clone(), hints.clone());
            assert!(cache.recent.len() + cache.older.len() <= CACHE_LIMIT);
            assert!(cache.get(&grids[0]).is_some(), "a grid in use is kept");
        }
        assert!(cache.get(&grids[1]).is_none(), "a grid not met again goes");
        let last = grids.last().expect("grids");
        assert!(cache.get(last).is_some(), "the newest grid is kept");
    }
}
