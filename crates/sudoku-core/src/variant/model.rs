//! What the search runs on: a puzzle compiled into candidate masks and
//! propagators.
//!
//! Each constraint kind says what it means through the [`Builder`]: cells
//! that must differ ([`Builder::distinct`]), a relation between two cells
//! ([`Builder::relate`]), a weighted sum ([`Builder::linear`]), a cage's
//! sum of distinct digits ([`Builder::cage_sum`]), a cell's allowed digits
//! ([`Builder::restrict`]); [`Builder::weigh_sum`] weighs a sum's cells
//! again without a second rule. The builder merges what they say: the pairs
//! that must differ become one peer list a cell, two relations on one pair
//! become one table, a group of `size` distinct cells becomes a house that
//! looks for hidden singles and, where it meets another house, points and
//! claims. A sum loses every whole house among its terms, for the constant
//! the house adds. The search then knows nothing of kinds.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::geometry::Shape;
use super::puzzle::VariantPuzzle;
use super::search::propagators::{
    CageSum, House, Linear, MOST_CAGE_CELLS, Pair, Propagator, SupportCache,
};

/// Most digit sets a cage's propagator keeps; a cage with more ways to
/// make its sum (only possible on large grids) is narrowed by its bounds.
const MAX_CAGE_COMBINATIONS: usize = 4096;

/// A compiled puzzle.
#[derive(Debug, Clone)]
pub(crate) struct Model {
    pub shape: Shape,
    /// Every cell's starting candidates: givens, parity, unary limits.
    pub start: Vec<u32>,
    /// For each cell, the cells that may not hold its digit.
    pub peers: Vec<Box<[u16]>>,
    /// Everything else that narrows candidates.
    pub propagators: Vec<Propagator>,
    /// For each cell, the propagators woken when it narrows.
    pub watchers: Vec<Box<[u32]>>,
    /// For each cell, the propagators that read it but are woken only
    /// once it holds one digit.
    pub fixed_watchers: Vec<Box<[u32]>>,
    /// For each cell, how much the rules on it weigh: where the search
    /// starts branching, before it has learnt anything.
    pub weights: Vec<u32>,
}

/// For each cell, the propagators woken when it narrows, and those woken
/// only when it is left one digit.
type Watchers = (Vec<Box<[u32]>>, Vec<Box<[u32]>>);

/// Two cells, smaller index first.
type CellPair = (u16, u16);

/// The key of the pair `a`, `b` in either order.
fn pair_key(a: usize, b: usize) -> CellPair {
    (a.min(b) as u16, a.max(b) as u16)
}

/// Pairs a relation was drawn on, by what the mark exempts them from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum PairMark {
    /// A kropki dot, white or black: exempt from the negative kropki rules.
    Kropki,
    /// An X or a V: exempt from the negative XV rule.
    Xv,
}

/// A sum waiting for the peers to be known: its terms, its total, and
/// whether it is kept only if tight.
type PendingSum = (Vec<(u16, i64)>, i64, bool);

/// Collects what the constraints say, then builds a [`Model`].
pub(crate) struct Builder<'p> {
    puzzle: &'p VariantPuzzle,
    start: Vec<u32>,
    peers: Vec<Vec<u16>>,
    houses: Vec<Vec<u16>>,
    house_set: BTreeSet<Vec<u16>>,
    relations: BTreeMap<CellPair, Vec<u32>>,
    marks: BTreeMap<CellPair, Vec<PairMark>>,
    sums: Vec<PendingSum>,
    digit_sets: BTreeMap<(usize, u32), Option<Arc<[u32]>>>,
    others: Vec<Propagator>,
    weights: Vec<u32>,
}

impl<'p> Builder<'p> {
    pub fn new(puzzle: &'p VariantPuzzle) -> Builder<'p> {
        let shape = puzzle.shape();
        let start = puzzle
            .givens()
            .iter()
            .map(|&digit| match digit {
                0 => shape.all_digits(),
                _ => 1 << digit,
            })
            .collect();
        Builder {
            puzzle,
            start,
            peers: vec![Vec::new(); shape.cell_count()],
            houses: Vec::new(),
            house_set: BTreeSet::new(),
            relations: BTreeMap::new(),
            marks: BTreeMap::new(),
            sums: Vec::new(),
            digit_sets: BTreeMap::new(),
            others: Vec::new(),
            weights: vec![0; shape.cell_count()],
        }
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.puzzle.shape()
    }

    /// The puzzle being compiled.
    pub fn puzzle(&self) -> &VariantPuzzle {
        self.puzzle
    }

    /// `cells` hold distinct digits; `size` of them form a house.
    pub fn distinct(&mut self, cells: &[usize]) {
        weigh(&mut self.weights, cells.iter().copied(), cells.len() as u32);
        self.implied_distinct(cells);
    }

    /// `cells` hold distinct digits as a consequence of rules already
    /// said (a thermometer's rising digits): the peers learn it, but the
    /// rule adds no weight of its own.
    pub fn implied_distinct(&mut self, cells: &[usize]) {
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                self.peers[a].push(b as u16);
                self.peers[b].push(a as u16);
            }
        }
        if cells.len() == self.shape().size() {
            let mut house: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
            house.sort_unstable();
            // A house given twice (a full cage over a box) says nothing more.
            if self.house_set.insert(house.clone()) {
                self.houses.push(house);
            }
        }
    }

    /// `a` and `b` hold different digits by a rule of exclusion
    /// (anti-knight, anti-king): the peers learn it, but it adds no
    /// weight, as the ISS's exclusions add none. Weighed as pairs, they
    /// drew the search to the cells with most knight's moves, not to those
    /// that decide ("Anti-Knight, slow": 349 guesses against 108).
    pub fn exclude(&mut self, a: usize, b: usize) {
        self.implied_distinct(&[a, b]);
    }

    /// Only digit pairs `allowed(digit at a, digit at b)` may stand in `a`
    /// and `b`.
    pub fn relate(&mut self, a: usize, b: usize, allowed: impl Fn(u32, u32) -> bool) {
        let size = self.shape().size() as u32;
        weigh(&mut self.weights, [a, b], 2);
        // The table reads from the smaller cell to the larger.
        let swapped = a > b;
        let table = self
            .relations
            .entry(pair_key(a, b))
            .or_insert_with(|| vec![u32::MAX; size as usize + 1]);
        for x in 1..=size {
            let mut mask = 0;
            for y in 1..=size {
                let holds = if swapped {
                    allowed(y, x)
                } else {
                    allowed(x, y)
                };
                if holds {
                    mask |= 1 << y;
                }
            }
            table[x as usize] &= mask;
        }
    }

    /// Marks the pair `a`, `b` as carrying a clue of `mark`'s family.
    pub fn mark(&mut self, a: usize, b: usize, mark: PairMark) {
        self.marks.entry(pair_key(a, b)).or_default().push(mark);
    }

    /// True when the pair carries a clue of `mark`'s family.
    pub fn is_marked(&self, a: usize, b: usize, mark: PairMark) -> bool {
        self.marks
            .get(&pair_key(a, b))
            .is_some_and(|marks| marks.contains(&mark))
    }

    /// Every pair of orthogonal neighbours, each once.
    pub fn orthogonal_pairs(&self) -> Vec<(usize, usize)> {
        let shape = self.shape();
        let size = shape.size();
        let mut pairs = Vec::with_capacity(2 * size * size);
        for cell in 0..shape.cell_count() {
            if shape.column(cell) + 1 < size {
                pairs.push((cell, cell + 1));
            }
            if shape.row(cell) + 1 < size {
                pairs.push((cell, cell + size));
            }
        }
        pairs
    }

    /// `sum(weight × digit) == total` over `terms`.
    pub fn linear(&mut self, terms: &[(usize, i64)], total: i64) {
        let terms = terms.iter().map(|&(c, w)| (c as u16, w)).collect();
        // Built once every peer is known, to group the cells into cliques.
        self.sums.push((terms, total, false));
    }

    /// Weighs `cells` as a sum over them would, with no rule: for a
    /// derived sum found twice (as it is and negated), which runs once.
    pub fn weigh_sum(&mut self, cells: impl ExactSizeIterator<Item = usize>) {
        let weight = sum_weight(self.shape().size() as u32, cells.len());
        weigh(&mut self.weights, cells, weight);
    }

    /// `sum(digits) == total` over `cells`, a sum the search may do
    /// without: kept only if its cliques leave it tight, its total within
    /// a quarter of its range from one end (or out of reach).
    pub fn sum_if_tight(&mut self, cells: &[usize], total: i64) {
        let terms = cells.iter().map(|&c| (c as u16, 1)).collect();
        self.sums.push((terms, total, true));
    }

    /// `cells` hold distinct digits that sum to `sum`.
    pub fn cage_sum(&mut self, cells: &[usize], sum: u32) {
        let size = self.shape().size() as u32;
        // Cages of one size and sum share their list.
        let sets = self
            .digit_sets
            .entry((cells.len(), sum))
            .or_insert_with(|| {
                digit_sets(size, cells.len(), sum, MAX_CAGE_COMBINATIONS).map(Arc::from)
            })
            .clone();
        match sets {
            Some(sets) => {
                let weight = sum_weight(size, cells.len());
                weigh(&mut self.weights, cells.iter().copied(), weight);
                let cells = cells.iter().map(|&c| c as u16).collect();
                self.others
                    .push(Propagator::Cage(CageSum::new(cells, sets)));
            }
            None => {
                let terms: Vec<_> = cells.iter().map(|&c| (c, 1)).collect();
                self.linear(&terms, i64::from(sum));
            }
        }
    }

    /// `cell` holds one of the digits in `mask` (bit `d` for digit `d`).
    pub fn restrict(&mut self, cell: usize, mask: u32) {
        self.start[cell] &= mask;
    }

    /// The model of everything said so far, with what houses that meet
    /// and what the cells around each cage imply.
    pub fn finish(self) -> Model {
        self.build(true)
    }

    /// The model of what was said alone: enough to check a full grid.
    pub fn finish_rules(self) -> Model {
        self.build(false)
    }

    fn build(self, derived: bool) -> Model {
        let shape = self.shape();
        let peers: Vec<Box<[u16]>> = self
            .peers
            .into_iter()
            .map(|mut list| {
                list.sort_unstable();
                list.dedup();
                list.into_boxed_slice()
            })
            .collect();
        let meetings = match derived {
            true => meeting_houses(&self.houses, shape.cell_count()),
            false => Vec::new(),
        };
        let mut propagators: Vec<Propagator> = houses_that_meet(&self.houses, &meetings)
            .into_iter()
            .map(Propagator::House)
            .collect();
        let mut sees = vec![0u32; shape.cell_count()];
        let others = self.others.into_iter().map(|propagator| match propagator {
            Propagator::Cage(cage) if derived => {
                Propagator::Cage(surround(cage, &self.houses, &peers, &mut sees))
            }
            other => other,
        });
        let others: Vec<Propagator> = others.collect();
        let mut support = SupportCache::default();
        for ((a, b), table) in self.relations {
            let pair = Pair::new(a, b, table, &mut support);
            let pair = match derived {
                true => pair.with_seers(common_peers(&peers, a, b)),
                false => pair,
            };
            propagators.push(Propagator::Pair(pair));
        }
        propagators.extend(others);
        let mut weights = self.weights;
        let mut term_weights = vec![None; shape.cell_count()];
        for (terms, total, tight_only) in self.sums {
            let (kept, total) =
                without_whole_houses(&terms, total, &self.houses, &mut term_weights);
            let cliques = cliques(&kept, &peers);
            if tight_only && !is_tight(&cliques, total, shape.size() as i64) {
                continue;
            }
            let weight = sum_weight(shape.size() as u32, terms.len());
            weigh(
                &mut weights,
                terms.iter().map(|&(c, _)| usize::from(c)),
                weight,
            );
            propagators.push(Propagator::Linear(Linear::new(cliques, total)));
        }
        let (watchers, fixed_watchers) = watchers_of(&propagators, shape.cell_count());
        Model {
            shape,
            start: self.start,
            peers,
            watchers,
            fixed_watchers,
            propagators,
            weights,
        }
    }
}

impl Model {
    /// True when `digits` (one a cell) break nothing the model knows: a
    /// last check on every solution the search reports.
    pub fn accepts(&self, digits: &[u8]) -> bool {
        let masks: Vec<u32> = digits.iter().map(|&d| 1u32 << d).collect();
        if masks.iter().zip(&self.start).any(|(m, s)| m & s == 0) {
            return false;
        }
        let peers_differ = self.peers.iter().enumerate().all(|(cell, peers)| {
            peers
                .iter()
                .all(|&peer| digits[usize::from(peer)] != digits[cell])
        });
        peers_differ && self.propagators.iter().all(|p| p.accepts(&masks))
    }
}

/// The cells that are peers of both `a` and `b`.
fn common_peers(peers: &[Box<[u16]>], a: u16, b: u16) -> Vec<u16> {
    let of_b = &peers[usize::from(b)];
    peers[usize::from(a)]
        .iter()
        .copied()
        .filter(|cell| of_b.binary_search(cell).is_ok())
        .collect()
}

/// Adds `weight` to each of `cells` in `weights`.
fn weigh(weights: &mut [u32], cells: impl IntoIterator<Item = usize>, weight: u32) {
    for cell in cells {
        weights[cell] += weight;
    }
}

/// A sum's weight on each of its `len` cells: the fewer cells, the more
/// it decides, and every sum weighs at least as much as a house's cell.
fn sum_weight(size: u32, len: usize) -> u32 {
    (2 * size).saturating_sub(len as u32).max(size)
}

/// `cage` with the rest of a house holding it, and the cells
/// outside that see two or more of its cells (`sees`: a zeroed scratch
/// mask a cell, left zeroed).
fn surround(cage: CageSum, houses: &[Vec<u16>], peers: &[Box<[u16]>], sees: &mut [u32]) -> CageSum {
    let cells = cage.cage().to_vec();
    // One bit a cage cell in `sees`.
    debug_assert!(cells.len() <= MOST_CAGE_CELLS);
    // Every house has `size` cells, so any that holds the cage will do.
    let complement: Vec<u16> = houses
        .iter()
        .find(|house| cells.iter().all(|cell| house.binary_search(cell).is_ok()))
        .map(|house| {
            house
                .iter()
                .copied()
                .filter(|cell| !cells.contains(cell))
                .collect()
        })
        .unwrap_or_default();
    // `sees[cell]`: the cage cells `cell` sees, as bits; reset on the way out.
    let mut touched = Vec::new();
    for (i, &cell) in cells.iter().enumerate() {
        for &peer in peers[usize::from(cell)].iter() {
            if sees[usize::from(peer)] == 0 {
                touched.push(peer);
            }
            sees[usize::from(peer)] |= 1 << i;
        }
    }
    touched.sort_unstable();
    let mut seers = Vec::new();
    for peer in touched {
        let seen = std::mem::take(&mut sees[usize::from(peer)]);
        if seen.count_ones() >= 2 && !cells.contains(&peer) {
            seers.push((peer, seen));
        }
    }
    cage.surrounded(&complement, seers)
}

/// `terms` less every house whose cells all lie among them with one weight,
/// and `total` less what those houses add (each digit once, times the
/// weight): a whole house adds the same to every solution, and a sum that
/// kept it would walk its cells on every run for nothing. Overhangs of a
/// house the cages cross often hold a whole neighbouring row. The terms
/// stay whole when nothing else would be left. `scratch`: a `None` a
/// cell, left so.
fn without_whole_houses(
    terms: &[(u16, i64)],
    total: i64,
    houses: &[Vec<u16>],
    scratch: &mut [Option<i64>],
) -> (Vec<(u16, i64)>, i64) {
    let Some(size) = houses.first().map(Vec::len) else {
        return (terms.to_vec(), total);
    };
    if terms.len() <= size {
        return (terms.to_vec(), total);
    }
    let clear = |scratch: &mut [Option<i64>]| {
        (terms.iter()).for_each(|&(c, _)| scratch[usize::from(c)] = None);
    };
    let mut repeated = false;
    for &(cell, weight) in terms {
        repeated |= scratch[usize::from(cell)].replace(weight).is_some();
    }
    // A cell named twice would be dropped twice: such a sum stays whole.
    if repeated {
        clear(scratch);
        return (terms.to_vec(), total);
    }
    let house_total = (size * (size + 1) / 2) as i64;
    let mut left = total;
    for house in houses {
        let Some(weight) = scratch[usize::from(house[0])] else {
            continue;
        };
        if house
            .iter()
            .all(|&c| scratch[usize::from(c)] == Some(weight))
        {
            // Taken out, so that a house crossing it is not taken too.
            house.iter().for_each(|&c| scratch[usize::from(c)] = None);
            left -= weight * house_total;
        }
    }
    let kept: Vec<(u16, i64)> = (terms.iter().copied())
        .filter(|&(cell, _)| scratch[usize::from(cell)].is_some())
        .collect();
    clear(scratch);
    match kept.is_empty() {
        true => (terms.to_vec(), total),
        false => (kept, left),
    }
}

/// True when a sum of unit-weight `cliques` to `total` narrows much: the
/// total lies within a quarter of the range of sums from one end of it,
/// or outside it.
fn is_tight(cliques: &[(Vec<u16>, i64)], total: i64, size: i64) -> bool {
    let (mut least, mut most) = (0, 0);
    for (clique, _) in cliques {
        let count = clique.len() as i64;
        least += count * (count + 1) / 2;
        most += count * size - count * (count - 1) / 2;
    }
    let range = most - least;
    let slack = (total - least).min(most - total);
    range > 0 && 4 * slack < range
}

/// Sums with more terms than this are split into cliques first-fit: the
/// careful split costs the cube of the count.
const MOST_CAREFUL_TERMS: usize = 64;

/// Orders of the terms, shuffled, in which cliques are also grown (after
/// the cells' own order and the order given), as the ISS tries a few.
const SHUFFLED_ORDERS: usize = 4;

/// The fewest terms a sum split into several cliques must have to be split
/// again in the other orders. Below it the greedy split is kept: on the
/// ISS's puzzles the other orders of shorter sums changed the guesses of
/// two, by 2 % (more with them than without), and building them cost easy
/// killers 8 % of their time, half of which is compiling the model.
const MIN_REORDERED_TERMS: usize = 8;

/// A sum's terms in cliques: cells of equal weight that are all peers of
/// each other. Larger cliques bound a sum more tightly (a clique of `t`
/// cells sums to at least 1 + 2 + … + t, and with unit weights the bounds'
/// range shrinks by the sum of the squares of the cliques' sizes). Cliques
/// are grown from the cell that is a peer of the most others still able to
/// join; a sum of [`MIN_REORDERED_TERMS`] terms or more is also split in a
/// few orders of its cells, each clique taking every cell that still fits,
/// and the split with the largest sum of squares is kept. No one way finds
/// the best split on every line: on "Long sums 2", a 32-cell arrow with
/// disjoint groups, the greedy split and the cells' own order bound the
/// line at 97, and the first shuffled order at 98, which forces the pill
/// (404 guesses to 32).
fn cliques(terms: &[(u16, i64)], peers: &[Box<[u16]>]) -> Vec<(Vec<u16>, i64)> {
    if terms.len() > MOST_CAREFUL_TERMS {
        return first_fit_cliques(terms, peers);
    }
    // For each term, the terms of its weight among its peers, as bits.
    let linked: Vec<u64> = terms
        .iter()
        .map(|&(cell, weight)| {
            terms
                .iter()
                .enumerate()
                .fold(0u64, |bits, (j, &(other, w))| {
                    let peer =
                        w == weight && peers[usize::from(cell)].binary_search(&other).is_ok();
                    bits | u64::from(peer) << j
                })
        })
        .collect();
    let mut best = grown_from_most_linked(terms, &linked);
    // One clique cannot be bettered; short sums keep the greedy split.
    let orders = match best.len() > 1 && terms.len() >= MIN_REORDERED_TERMS {
        true => clique_orders(terms),
        false => Vec::new(),
    };
    for order in orders {
        let split = grown_in_order(&linked, &order);
        if squares(&split) > squares(&best) {
            best = split;
        }
    }
    best.iter()
        .map(|clique| {
            (
                clique.iter().map(|&i| terms[i].0).collect(),
                terms[clique[0]].1,
            )
        })
        .collect()
}

/// The sum of the squares of the cliques' sizes.
fn squares(cliques: &[Vec<usize>]) -> usize {
    cliques.iter().map(|clique| clique.len().pow(2)).sum()
}

/// The bits of the first `count` terms.
fn all_terms(count: usize) -> u64 {
    match count {
        64 => u64::MAX,
        _ => (1 << count) - 1,
    }
}

/// Cliques (of term indices) grown each from the term left that is
/// linked to the most others still able to join (the first on a tie).
fn grown_from_most_linked(terms: &[(u16, i64)], linked: &[u64]) -> Vec<Vec<usize>> {
    let mut left = all_terms(terms.len());
    let mut cliques = Vec::new();
    while left != 0 {
        let weight = terms[left.trailing_zeros() as usize].1;
        let mut candidates = terms
            .iter()
            .enumerate()
            .filter(|&(i, term)| left & 1 << i != 0 && term.1 == weight)
            .fold(0u64, |bits, (i, _)| bits | 1 << i);
        let mut clique = Vec::new();
        while candidates != 0 {
            let best = (0..terms.len())
                .filter(|&i| candidates & 1 << i != 0)
                .max_by_key(|&i| ((linked[i] & candidates).count_ones(), std::cmp::Reverse(i)))
                .expect("a candidate");
            clique.push(best);
            left &= !(1 << best);
            candidates &= linked[best];
        }
        cliques.push(clique);
    }
    cliques
}

/// Cliques (of term indices) grown in `order`: each from the first term
/// left, taking every later term linked to all its members.
fn grown_in_order(linked: &[u64], order: &[usize]) -> Vec<Vec<usize>> {
    let mut left = all_terms(linked.len());
    let mut cliques = Vec::new();
    while left != 0 {
        let mut clique = Vec::new();
        let mut candidates = left;
        for &i in order {
            if candidates & 1 << i != 0 {
                clique.push(i);
                candidates &= linked[i];
                left &= !(1 << i);
            }
        }
        cliques.push(clique);
    }
    cliques
}

/// The orders to grow cliques in: by cell, as given, and a few shuffles
/// from a fixed seed, so that a puzzle always compiles the same.
fn clique_orders(terms: &[(u16, i64)]) -> Vec<Vec<usize>> {
    let given: Vec<usize> = (0..terms.len()).collect();
    let mut by_cell = given.clone();
    by_cell.sort_by_key(|&i| terms[i].0);
    let mut orders = vec![by_cell, given.clone()];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..SHUFFLED_ORDERS {
        let mut order = given.clone();
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        orders.push(order);
    }
    orders
}

/// Cliques grown greedily in the terms' order: each cell joins the first
/// clique of its weight whose cells are all its peers.
fn first_fit_cliques(terms: &[(u16, i64)], peers: &[Box<[u16]>]) -> Vec<(Vec<u16>, i64)> {
    let mut cliques: Vec<(Vec<u16>, i64)> = Vec::new();
    for &(cell, weight) in terms {
        let fits = |clique: &Vec<u16>| {
            clique
                .iter()
                .all(|member| peers[usize::from(cell)].binary_search(member).is_ok())
        };
        match cliques
            .iter_mut()
            .find(|(clique, w)| *w == weight && fits(clique))
        {
            Some((clique, _)) => clique.push(cell),
            None => cliques.push((vec![cell], weight)),
        }
    }
    cliques
}

/// Houses that meet others are looked for among the first this many:
/// the rows, columns and regions (75 on 25×25), then the windows,
/// diagonals and other extra houses, a few dozen in real puzzles.
const MAX_MEETING_HOUSES: usize = 256;

/// Most meetings of two houses kept. The rows, columns and standard boxes
/// meet in 250 pairs on 25×25; a puzzle of thousands of extra regions
/// would otherwise get millions. One left out loses speed, never a
/// solution.
const MAX_MEETINGS: usize = 1024;

/// For each of `cell_count` cells, the propagators woken whenever it
/// narrows (each propagator's first [`Propagator::woken_by`] cells) and
/// those woken only once it is fixed (the rest of its cells).
fn watchers_of(propagators: &[Propagator], cell_count: usize) -> Watchers {
    let mut any = vec![Vec::new(); cell_count];
    let mut fixed = vec![Vec::new(); cell_count];
    for (index, propagator) in propagators.iter().enumerate() {
        let (woken, woken_when_fixed) = propagator.cells().split_at(propagator.woken_by());
        for (lists, cells) in [(&mut any, woken), (&mut fixed, woken_when_fixed)] {
            for &cell in cells {
                let list: &mut Vec<u32> = &mut lists[usize::from(cell)];
                if list.last() != Some(&(index as u32)) {
                    list.push(index as u32);
                }
            }
        }
    }
    let boxed = |lists: Vec<Vec<u32>>| lists.into_iter().map(Vec::into_boxed_slice).collect();
    (boxed(any), boxed(fixed))
}

/// The houses, each knowing the houses it meets (`meetings`, by index).
fn houses_that_meet(houses: &[Vec<u16>], meetings: &[(usize, usize)]) -> Vec<House> {
    let mut built: Vec<House> = (houses.iter())
        .map(|cells| House::new(cells.as_slice().into()))
        .collect();
    for &(a, b) in meetings {
        built[a].meet(&houses[b]);
        built[b].meet(&houses[a]);
    }
    built
}

/// Every two houses that share at least two cells but not all, by their
/// index in `houses`, up to the caps above.
fn meeting_houses(houses: &[Vec<u16>], cell_count: usize) -> Vec<(usize, usize)> {
    let houses = &houses[..houses.len().min(MAX_MEETING_HOUSES)];
    // Each house against those before it, so that the rows, columns and
    // regions (built first) meet each other before any extra house.
    let mut in_house: Vec<Vec<usize>> = vec![Vec::new(); cell_count];
    let mut meetings = Vec::new();
    for (index, house) in houses.iter().enumerate() {
        let mut shared = vec![0usize; index];
        for &cell in house {
            for &earlier in &in_house[usize::from(cell)] {
                shared[earlier] += 1;
            }
        }
        for (earlier, &count) in shared.iter().enumerate() {
            if count >= 2 && count < house.len() {
                if meetings.len() == MAX_MEETINGS {
                    return meetings;
                }
                meetings.push((index, earlier));
            }
        }
        for &cell in house {
            in_house[usize::from(cell)].push(index);
        }
    }
    meetings
}

/// Every set of `count` distinct digits from 1 to `size` that sums to
/// `sum`, as masks; `None` when there are more than `cap`.
pub(crate) fn digit_sets(size: u32, count: usize, sum: u32, cap: usize) -> Option<Vec<u32>> {
    fn extend(
        from: u32,
        size: u32,
        left: usize,
        sum: u32,
        mask: u32,
        cap: usize,
        out: &mut Vec<u32>,
    ) -> bool {
        if left == 0 {
            if sum == 0 {
                out.push(mask);
            }
            return out.len() <= cap;
        }
        let left32 = left as u32;
        for digit in from..=size {
            // The smallest sum `left` digits from `digit` up can make.
            let least = left32 * digit + left32 * (left32 - 1) / 2;
            if least > sum {
                break;
            }
            // The largest, from the top of the range down.
            let most = left32 * size - left32 * (left32 - 1) / 2;
            if most < sum {
                return true;
            }
            if !extend(
                digit + 1,
                size,
                left - 1,
                sum - digit,
                mask | 1 << digit,
                cap,
                out,
            ) {
                return false;
            }
        }
        true
    }
    let mut out = Vec::new();
    extend(1, size, count, sum, 0, cap, &mut out).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::PuzzleParts;
    use crate::variant::compile::compile;
    use crate::variant::constraints::Cage;
    use crate::variant::search::Searcher;
    use crate::variant::tests::random::plain_puzzle;

    /// The candidates propagation alone leaves, before any search.
    fn propagated(parts: PuzzleParts) -> Vec<u32> {
        let puzzle = VariantPuzzle::new(parts).unwrap();
        let model = compile(&puzzle);
        Searcher::new(&model, || false).root().unwrap()
    }

    /// A grid of `size` with one summed cage over `cells`, propagated.
    fn with_a_cage(size: usize, cells: &[usize], sum: u32) -> Vec<u32> {
        let cage = Cage {
            cells: cells.to_vec(),
            sum: Some(sum),
        };
        propagated(PuzzleParts {
            size,
            constraints: vec![cage.into()],
            ..PuzzleParts::default()
        })
    }

    /// A 4×4 with one cage, R1C1 + R1C2 = 3, propagated.
    fn with_a_row_cage_of_three() -> Vec<u32> {
        with_a_cage(4, &[0, 1], 3)
    }

    #[test]
    fn a_summed_cage_inside_a_house_leaves_the_rest_of_the_house_its_sum() {
        // R1C1 + R1C2 = 3, so R1C3 + R1C4 = 10 - 3 = 7: 3 and 4.
        let masks = with_a_row_cage_of_three();
        assert_eq!(masks[2], 0b11000);
        assert_eq!(masks[3], 0b11000);
        // R3C3 shares no house with the cage or its remainder.
        assert_eq!(masks[10], 0b11110);
    }

    #[test]
    fn the_search_starts_where_the_rules_weigh_most() {
        use crate::variant::constraints::Thermometer;
        // A cage across two boxes and a thermometer of three cells.
        let cage = Cage {
            cells: vec![2, 3],
            sum: Some(17),
        };
        let thermo = Thermometer {
            cells: vec![72, 73, 74],
        };
        let puzzle = VariantPuzzle::new(PuzzleParts {
            size: 9,
            constraints: vec![cage.into(), thermo.into()],
            ..PuzzleParts::default()
        })
        .unwrap();
        let weights = compile(&puzzle).weights;
        // Three houses of nine cells.
        assert_eq!(weights[40], 27);
        // Its houses, the cage's own two cells, and its sum: a sum weighs
        // twice the grid's size less its cells, so small cages most.
        assert_eq!(weights[2], 27 + 2 + 16);
        // A step of the thermometer weighs as a pair; that the steps
        // rise, and so differ, adds nothing.
        assert_eq!(weights[72], 27 + 2);
        assert_eq!(weights[73], 27 + 2 + 2);
    }

    #[test]
    fn a_chess_rule_adds_no_weight() {
        use crate::variant::constraints::{AntiKing, AntiKnight};
        let puzzle = VariantPuzzle::new(PuzzleParts {
            size: 9,
            constraints: vec![AntiKnight.into(), AntiKing.into()],
            ..PuzzleParts::default()
        })
        .unwrap();
        let model = compile(&puzzle);
        // Three houses of nine cells, and nothing for the knight's and
        // king's moves, though R5C5's are its peers now.
        assert!(model.weights.iter().all(|&weight| weight == 27));
        assert!(model.peers[40].contains(&(40 - 18 + 1)));
    }

    #[test]
    fn houses_that_meet_hold_the_same_digits_outside_each_other() {
        // R1C3 and R1C4 hold 3 and 4 (as above), so the rest of their box,
        // R2C3 and R2C4, holds 1 and 2: claiming, from the row to the box.
        let masks = with_a_row_cage_of_three();
        assert_eq!(masks[6], 0b110);
        assert_eq!(masks[7], 0b110);
    }

    #[test]
    fn a_digit_every_way_needs_leaves_the_cells_that_see_all_its_places() {
        // R1C3 + R1C4 + R2C4 = 6: 1, 2 and 3, in some order. R1C5 and
        // R1C6 see all three (the row, and the box of R1C4 and R2C4).
        let masks = with_a_cage(9, &[2, 3, 12], 6);
        for cell in [4, 5] {
            assert_eq!(masks[cell] & 0b1110, 0, "R1C{}", cell + 1);
        }
        // R2C5 sees R1C4 and R2C4, not R1C3: it keeps them all.
        assert_eq!(masks[13] & 0b1110, 0b1110);
    }

    #[test]
    fn a_cage_holds_the_digits_the_rest_of_its_house_cannot() {
        // Givens 9 deny a 9 to the rest of row 1: R1C1 and R1C2 by their
        // columns, R1C5 and R1C6 by theirs, R1C7 to R1C9 by their box.
        let mut givens = vec![0u8; 81];
        for (row, column) in [(3, 0), (6, 1), (4, 4), (7, 5), (1, 6)] {
            givens[row * 9 + column] = 9;
        }
        // R1C3 + R1C4 = 10 must then hold the row's 9: 1 and 9.
        let cage = Cage {
            cells: vec![2, 3],
            sum: Some(10),
        };
        let masks = propagated(PuzzleParts {
            size: 9,
            givens,
            constraints: vec![cage.into()],
            ..PuzzleParts::default()
        });
        assert_eq!(masks[2], 1 << 1 | 1 << 9);
        assert_eq!(masks[3], 1 << 1 | 1 << 9);
    }

    #[test]
    fn a_whole_house_in_a_sum_leaves_it_for_what_it_adds() {
        // A 4×4's rows, then its boxes.
        let rows = (0..4u16).map(|r| (4 * r..4 * r + 4).collect());
        let boxes = [0u16, 2, 8, 10].map(|c| vec![c, c + 1, c + 4, c + 5]);
        let houses: Vec<Vec<u16>> = rows.chain(boxes).collect();
        let mut scratch = vec![None; 16];
        let mut fold = |terms: &[(u16, i64)], total| {
            let folded = without_whole_houses(terms, total, &houses, &mut scratch);
            assert!(scratch.iter().all(Option::is_none), "scratch left clean");
            folded
        };
        let unit = |cells: &[u16]| cells.iter().map(|&c| (c, 1)).collect::<Vec<_>>();
        // Row 1 and R2C1: R2C1 alone makes what the row's 10 leaves.
        assert_eq!(fold(&unit(&[0, 1, 2, 3, 4]), 14), (vec![(4, 1)], 4));
        // Row 1 and R2C1, R2C2 also hold box 1, which shares row 1's
        // first two cells: only one of the two is taken out.
        assert_eq!(
            fold(&unit(&[0, 1, 2, 3, 4, 5]), 13),
            (vec![(4, 1), (5, 1)], 3)
        );
        // Weighed against: row 2 at -1 adds -10.
        let terms = [(0, 1), (4, -1), (5, -1), (6, -1), (7, -1)];
        assert_eq!(fold(&terms, -7), (vec![(0, 1)], 3));
        // A house of mixed weights stays.
        let terms = [(0, 2), (1, 1), (2, 1), (3, 1), (4, 1)];
        assert_eq!(fold(&terms, 16), (terms.to_vec(), 16));
        // A cell named twice: the sum stays as it was.
        let twice = unit(&[0, 1, 2, 3, 4, 0]);
        assert_eq!(fold(&twice, 15), (twice.clone(), 15));
        // Nothing left but houses: the sum stays as it was, to fail or hold.
        let rows = unit(&[0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(fold(&rows, 21), (rows.clone(), 21));
    }

    #[test]
    fn a_sum_is_split_into_the_largest_cliques() {
        let puzzle = plain_puzzle(9);
        let peers = compile(&puzzle).peers;
        // R1C1, R1C9, R2C9, R3C9, R3C8: taken in this order, R1C1 and R1C9
        // would pair off first; R1C9 with the three below it in box 3
        // bound the sum more tightly.
        let terms: Vec<(u16, i64)> = [0, 8, 17, 26, 25].map(|cell| (cell, 1)).to_vec();
        let mut sizes: Vec<usize> = cliques(&terms, &peers)
            .iter()
            .map(|(clique, _)| clique.len())
            .collect();
        sizes.sort_unstable();
        assert_eq!(sizes, [1, 4]);
    }

    #[test]
    fn a_long_arrow_is_split_into_cliques_that_bound_it_as_tightly_as_the_iss() {
        use crate::variant::constraints::{Arrow, DisjointGroups};
        // "Long sums 2" from the ISS's collections: a two-cell pill in
        // R5C5 and R6C5, its line winding through 32 cells, and disjoint
        // groups. The split grown from the most linked cell bounds the
        // line at 97 or more, and so does the cells' own order; the first
        // shuffled order (from the fixed seed) bounds it at 98, which
        // leaves the pill 98 alone.
        let cell = |name: &str| {
            let (row, column) = name[1..].split_once('C').unwrap();
            (row.parse::<usize>().unwrap() - 1) * 9 + column.parse::<usize>().unwrap() - 1
        };
        let line = "R4C5 R4C4 R5C4 R5C3 R5C2 R6C2 R6C3 R7C3 R7C4 R8C4 R9C4 R9C5 R8C5 \
                    R7C5 R7C6 R8C6 R8C7 R7C7 R6C7 R5C7 R5C8 R4C8 R4C9 R3C9 R2C9 R2C8 \
                    R3C8 R3C7 R2C7 R2C6 R3C6 R3C5";
        let arrow = Arrow {
            bulb: vec![cell("R5C5"), cell("R6C5")],
            line: line.split_whitespace().map(cell).collect(),
        };
        let masks = propagated(PuzzleParts {
            size: 9,
            constraints: vec![arrow.into(), DisjointGroups.into()],
            ..PuzzleParts::default()
        });
        assert_eq!(masks[cell("R5C5")], 1 << 9);
        assert_eq!(masks[cell("R6C5")], 1 << 8);
    }

    #[test]
    fn thousands_of_extra_regions_meet_in_a_bounded_number_of_meetings() {
        use crate::variant::constraints::ExtraRegion;
        // Each region holds R1C1 and R1C2 and seven cells of its own choice.
        let regions = (0..2000).map(|i| {
            let mut cells = vec![0, 1];
            cells.extend((0..7).map(|k| 9 + (i * 7 + k * 11) % 72));
            cells.sort_unstable();
            cells.dedup();
            ExtraRegion { cells }.into()
        });
        let puzzle = VariantPuzzle::new(PuzzleParts {
            size: 9,
            constraints: regions.collect(),
            ..PuzzleParts::default()
        })
        .unwrap();
        let model = compile(&puzzle);
        let meetings = (model.propagators.iter())
            .map(|p| match p {
                Propagator::House(house) => house.meeting_count(),
                _ => 0,
            })
            .sum::<usize>()
            / 2;
        // 72 distinct regions would meet in 2556 pairs among themselves.
        assert!(meetings <= 1024, "{meetings}");
        // The rows, columns and boxes meet in 54 pairs, all kept.
        assert!(meetings >= 54, "{meetings}");
    }

    #[test]
    fn digit_sets_list_every_way_and_give_up_past_the_cap() {
        assert_eq!(digit_sets(9, 2, 4, 10), Some(vec![0b1010]));
        assert_eq!(digit_sets(9, 3, 15, 100).map(|sets| sets.len()), Some(8));
        assert_eq!(digit_sets(9, 2, 18, 10), Some(vec![]));
        assert_eq!(digit_sets(25, 12, 150, 100), None);
    }
}
