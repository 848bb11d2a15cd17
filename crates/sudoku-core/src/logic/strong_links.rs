//! Strong links on one digit, plain and grouped, chained or in a loop, as
//! Sukaku Explainer finds and sorts them: two links (Skyscraper 4.0,
//! Two-String Kite and Turbot Fish 4.1, any of them grouped 4.3), three
//! (5.4 to 5.7) and four (5.8 to 6.1).
//!
//! A strong link is a unit where the digit lies in one of two *ends*: two
//! cells (a unit with two places), or, grouped, two groups of cells. A row
//! or column whose places fill exactly two of its box segments links those
//! segments; a box whose places lie in one row and one column of it (a
//! cross) links the row's part and the column's part, and one whose places
//! lie in two of its rows (or columns) links those. When an end of one
//! link and an end of the next lie in one column, row or box, at most one
//! of them holds the digit; along a chain of links so joined, one of the
//! two far ends holds it, and a cell that sees every cell of both far ends
//! cannot. When the far ends also share a unit, the chain closes into a
//! loop (an X-Loop), and every joint of it removes the digit from the
//! cells that see both its sides.
//!
//! Sukaku Explainer collects every such pattern and sorts them: by rating,
//! then by how many candidates they remove (most first), then by a suffix
//! naming the kinds of their units, then in the order found. The details
//! below (which box shapes it tries and in what order, where a cross puts
//! its centre cell, the units a removal may not lie in) follow it, since
//! the pattern chosen decides every later step. One quirk is made sound: a
//! box holding the digit in a cross's centre and in one cell of each arm
//! links the two arm cells for Sukaku Explainer, leaving the centre out;
//! here the centre joins whichever arm cell is the far end, so a cell must
//! see it too to lose the digit.

use std::fmt::Write;

use super::bits::{BOXES, ByUnit, Cells, UNITS, bit, cell_at};
use super::grid::Grid;
use super::reasoning;
use super::reasoning::chain_ends;
use super::scope::Scope;
use super::step::{LinkKind, Mark, Step, grouped};
use super::technique::{Rating, Technique};
use super::words::Words;

/// A unit's kind as Sukaku Explainer numbers it: box 0, row 1, column 2.
type Kind = u8;

/// One way a unit links two ends for a digit.
#[derive(Debug, Clone, Copy)]
struct Link {
    unit: usize,
    kind: Kind,
    grouped: bool,
    places: Cells,
    ends: [Cells; 2],
    /// A cell that may hold the digit besides the ends: it goes with
    /// whichever end is the far one.
    extra: Cells,
    /// Its number among the digit's links, for the search's bit sets.
    id: usize,
}

/// The two-strong-link pattern Sukaku Explainer would pick, if any,
/// among the digits in `scope`.
pub fn two_strong_links(grid: &Grid, scope: Scope) -> Option<Step> {
    strong_links(grid, 2, scope)
}

/// The pattern of `count` strong links (2, 3 or 4) on one digit that
/// Sukaku Explainer would pick, if any: plain or grouped, a chain or a
/// loop. Only digits in `scope` are tried: a pattern is made of its
/// digit's places.
pub fn strong_links(grid: &Grid, count: usize, scope: Scope) -> Option<Step> {
    let mut best: Option<(Key, Step)> = None;
    each_of(grid, count, scope, &mut |key, step| {
        if best.as_ref().is_none_or(|(b, _)| key.before(b)) {
            best = Some((key, step));
        }
    });
    best.map(|(_, step)| step)
}

/// The first pattern of one kind (Skyscraper, Two-String Kite, Turbot
/// Fish, or a grouped one), for checking a technique alone.
pub fn of_kind(grid: &Grid, technique: Technique) -> Option<Step> {
    let mut found = None;
    each_of(grid, 2, Scope::WHOLE, &mut |_, step| {
        if found.is_none() && step.technique == technique {
            found = Some(step);
        }
    });
    found
}

/// Every pattern of `count` links on the digits of `scope`, in Sukaku
/// Explainer's order (kinds of units, then digits), each with its sort
/// key.
///
/// Sukaku Explainer tries every set of links, every order of a set and
/// every orientation; nearly all fail to chain. Here the chains are walked
/// instead, from link to joined link, and each is given the place Sukaku
/// Explainer's enumeration would find it in ([`Discovery`]).
fn each_of(grid: &Grid, count: usize, scope: Scope, found: &mut dyn FnMut(Key, Step)) {
    /// Each digit's links on one grid, made when first asked for.
    type Made = [Option<std::rc::Rc<DigitLinks>>; 9];
    thread_local! {
        /// The last grid's links: the searches of 2, 3 and 4 links run
        /// on the same grid when the shorter find nothing.
        static LAST: std::cell::RefCell<Option<(Grid, Made)>> =
            const { std::cell::RefCell::new(None) };
    }
    let digits: Vec<std::rc::Rc<DigitLinks>> = LAST.with_borrow_mut(|last| {
        if last.as_ref().is_none_or(|(seen, _)| seen != grid) {
            *last = Some((grid.clone(), Default::default()));
        }
        let made = &mut last.as_mut().expect("set just above").1;
        (1..=9u8)
            .filter(|&digit| scope.has_digit(digit))
            .map(|digit| {
                made[usize::from(digit) - 1]
                    .get_or_insert_with(|| std::rc::Rc::new(DigitLinks::new(grid, digit)))
                    .clone()
            })
            .collect()
    });
    let walk = Walk::new(grid, count);
    let mut finds = Vec::new();
    for links in &digits {
        walk.chains(links, &mut finds);
    }
    finds.sort_by_key(|find| find.0);
    for (_, key, step) in finds {
        found(key, step);
    }
}

/// What orders the patterns: rating, removals (more first), suffix.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    rating: Rating,
    removals: usize,
    suffix: String,
}

impl Key {
    /// Strictly before `other`: among equals the first found stays.
    fn before(&self, other: &Key) -> bool {
        (self.rating, std::cmp::Reverse(self.removals), &self.suffix)
            < (
                other.rating,
                std::cmp::Reverse(other.removals),
                &other.suffix,
            )
    }
}

/// Where Sukaku Explainer's enumeration meets a pattern: the kinds of its
/// links (by [`kind_tuples`]), the digit, each link's unit and variant in
/// the order the links are chosen (by kind, then unit), the order they
/// are chained in (by [`link_orders`]), then their orientations.
type Discovery = (usize, u8, [(usize, usize); 4], usize, u32);

/// The kinds of `count` units, never decreasing, in the order Sukaku
/// Explainer tries them (by the highest position of its bit mask, where
/// kind `k` of link `i` is bit `k * count + i`).
fn kind_tuples(count: usize) -> Vec<Vec<Kind>> {
    let mut tuples: Vec<Vec<Kind>> = Vec::new();
    let mut tuple = vec![0; count];
    loop {
        if tuple.windows(2).all(|w| w[0] <= w[1]) {
            tuples.push(tuple.clone());
        }
        let Some(i) = (0..count).rev().find(|&i| tuple[i] < 2) else {
            break;
        };
        tuple[i] += 1;
        tuple[i + 1..].iter_mut().for_each(|k| *k = 0);
    }
    let mask = |t: &Vec<Kind>| -> u32 {
        t.iter()
            .enumerate()
            .map(|(i, &k)| 1u32 << (usize::from(k) * count + i))
            .sum()
    };
    tuples.sort_by_key(mask);
    tuples
}

fn units_of_kind(kind: Kind) -> std::ops::Range<usize> {
    match kind {
        0 => BOXES,
        1 => super::bits::ROWS,
        _ => super::bits::COLUMNS,
    }
}

/// A digit's links, in Sukaku Explainer's order: by kind, then unit, then
/// variant.
struct DigitLinks {
    digit: u8,
    all: Vec<Link>,
    /// Each link's unit and variant numbers, within its kind.
    positions: Vec<(usize, usize)>,
    /// For each link entered at each end (index `2 * id + turn`), the
    /// links and ends that share a unit with its far end: those of entry
    /// `e` are `next[next_starts[e]..next_starts[e + 1]]`, one list for
    /// all, since a grid's links are made afresh at every step.
    next: Vec<(usize, usize)>,
    next_starts: Vec<usize>,
}

impl DigitLinks {
    fn new(grid: &Grid, digit: u8) -> DigitLinks {
        let mut all = Vec::new();
        let mut positions = Vec::new();
        for kind in 0..3 {
            for (index, unit) in units_of_kind(kind).enumerate() {
                for (variant, mut link) in links(grid, digit, unit, kind).into_iter().enumerate() {
                    link.id = all.len();
                    all.push(link);
                    positions.push((index, variant));
                }
            }
        }
        // End `e` is end `e % 2` of link `e / 2`; a digit has at most two
        // links in each unit, so 108 ends.
        let ends = ByUnit::new(
            all.iter()
                .flat_map(|link| link.ends)
                .map(Cells::units_holding),
        );
        let mut next = Vec::new();
        let mut next_starts = Vec::with_capacity(2 * all.len() + 1);
        for far in all.iter().flat_map(|link| [link.ends[1], link.ends[0]]) {
            next_starts.push(next.len());
            let mut joined = ends.in_any(far.units_holding());
            while joined != 0 {
                let end = joined.trailing_zeros() as usize;
                joined &= joined - 1;
                next.push((end / 2, end % 2));
            }
        }
        next_starts.push(next.len());
        DigitLinks {
            digit,
            all,
            positions,
            next,
            next_starts,
        }
    }

    /// The links and ends that share a unit with the far end of link `id`
    /// entered by its end `turn`.
    fn joined(&self, id: usize, turn: usize) -> &[(usize, usize)] {
        let entry = 2 * id + turn;
        &self.next[self.next_starts[entry]..self.next_starts[entry + 1]]
    }
}

/// The walk along chains of strong links of one length.
struct Walk<'a> {
    grid: &'a Grid,
    count: usize,
    tuples: &'static [Vec<Kind>],
    orders: &'static [Vec<usize>],
}

/// A chain being walked: each link's id and orientation (1 when it is
/// entered by its second end).
type Trail = Vec<(usize, usize)>;

impl<'a> Walk<'a> {
    fn new(grid: &'a Grid, count: usize) -> Walk<'a> {
        Walk {
            grid,
            count,
            tuples: &orders_of(count).0,
            orders: &orders_of(count).1,
        }
    }

    /// Every pattern of the digit's links, with where it is discovered.
    fn chains(&self, links: &DigitLinks, finds: &mut Vec<(Discovery, Key, Step)>) {
        let mut trail = Trail::with_capacity(self.count);
        for link in &links.all {
            for turn in 0..2 {
                trail.push((link.id, turn));
                self.extend(links, &mut trail, link.places, finds);
                trail.pop();
            }
        }
    }

    /// Extends the trail by every link whose near end shares a unit with
    /// the trail's far end, and none of whose places it holds.
    fn extend(
        &self,
        links: &DigitLinks,
        trail: &mut Trail,
        taken: Cells,
        finds: &mut Vec<(Discovery, Key, Step)>,
    ) {
        if trail.len() == self.count {
            finds.extend(self.pattern(links, trail));
            return;
        }
        let &(last, turn) = trail.last().expect("a trail starts with a link");
        let middle = trail.len() + 1 < self.count;
        // Sukaku Explainer reads a chain in the direction whose order
        // reads no later than its reverse: from the earlier of its two
        // end links (links are numbered in its order).
        let first = trail[0].0;
        for &(id, turn) in links.joined(last, turn) {
            let link = &links.all[id];
            let backwards = !middle && id < first;
            if backwards || !taken.and(link.places).is_empty() || (middle && !link.extra.is_empty())
            {
                continue;
            }
            trail.push((id, turn));
            self.extend(links, trail, taken.or(link.places), finds);
            trail.pop();
        }
    }

    /// The pattern a full trail makes, as Sukaku Explainer would see it:
    /// its links chosen by kind and unit, chained in the trail's direction
    /// (which [`Walk::extend`] makes the one whose order reads no later
    /// than its reverse).
    fn pattern(&self, links: &DigitLinks, trail: &Trail) -> Option<(Discovery, Key, Step)> {
        let count = trail.len();
        let turns = trail
            .iter()
            .fold(0u32, |all, &(_, turn)| all << 1 | turn as u32);
        let mut chain = [&links.all[trail[0].0]; 4];
        for (slot, &(id, _)) in chain.iter_mut().zip(trail) {
            *slot = &links.all[id];
        }
        removals(self.grid, links.digit, &chain[..count], turns)?;
        let mut chosen = [0usize; 4];
        for (slot, &(id, _)) in chosen.iter_mut().zip(trail) {
            *slot = id;
        }
        let chosen = &mut chosen[..count];
        chosen.sort_unstable();
        let mut order = [0usize; 4];
        for (slot, (id, _)) in order.iter_mut().zip(trail) {
            *slot = chosen.iter().position(|c| c == id).unwrap_or(0);
        }
        let order = &order[..count];
        debug_assert!(
            order.iter().le(order.iter().rev()),
            "the walk reads a chain from its earlier end"
        );
        let mut picked = [links.all[chosen[0]]; 4];
        let mut positions = [(0, 0); 4];
        for (i, &id) in chosen.iter().enumerate() {
            picked[i] = links.all[id];
            positions[i] = links.positions[id];
        }
        let picked = &picked[..count];
        let (key, step) = pattern(self.grid, links.digit, picked, order, turns)?;
        let kinds = picked.iter().map(|l| l.kind);
        let discovery = (
            self.tuples
                .iter()
                .position(|t| t.iter().copied().eq(kinds.clone()))?,
            links.digit,
            positions,
            self.orders.iter().position(|o| o == order)?,
            turns,
        );
        Some((discovery, key, step))
    }
}

/// The kinds of units and the orders of links a search tries.
type Orders = (Vec<Vec<Kind>>, Vec<Vec<usize>>);

/// [`kind_tuples`] and [`link_orders`] for `count` links, made once:
/// every search of a step asks for them.
fn orders_of(count: usize) -> &'static Orders {
    static ORDERS: [std::sync::OnceLock<Orders>; 5] = [const { std::sync::OnceLock::new() }; 5];
    ORDERS[count].get_or_init(|| (kind_tuples(count), link_orders(count)))
}

/// The orders in which a pattern's links are chained, in Sukaku
/// Explainer's order (a countdown permutation), each kept only when it
/// reads no later than its reverse.
fn link_orders(count: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..count).collect();
    let mut weights: Vec<usize> = (0..=count).collect();
    let mut orders = vec![order.clone()];
    let mut s = 1;
    while s < count {
        weights[s] -= 1;
        let t = s % 2 * weights[s];
        order.swap(t, s);
        orders.push(order.clone());
        s = 1;
        while s < count && weights[s] == 0 {
            weights[s] = s;
            s += 1;
        }
    }
    orders.retain(|o| o.iter().le(o.iter().rev()));
    orders
}

/// What the links of `chain`, in that order and each turned by its bit
/// of `turns` (the first link's bit the highest), remove, if consecutive
/// ends share a unit and they remove something: the test every chain the
/// walk meets must pass (about one in a hundred does) before it is made
/// into a pattern.
fn removals(grid: &Grid, digit: u8, chain: &[&Link], turns: u32) -> Option<Cells> {
    let count = chain.len();
    let turned = |i: usize| (turns >> (count - 1 - i) & 1) as usize;
    let mut bridges = [(Cells::EMPTY, 0); 3];
    for (w, bridge) in bridges.iter_mut().enumerate().take(count - 1) {
        let near = chain[w].ends[1 - turned(w)].or(chain[w + 1].ends[turned(w + 1)]);
        *bridge = (near, shared_unit(near)?);
    }
    let bridges = &bridges[..count - 1];
    let start = chain[0].ends[turned(0)];
    let end = chain[count - 1].ends[1 - turned(count - 1)];
    if chain[1..count - 1].iter().any(|l| !l.extra.is_empty()) {
        // A middle link that leaves out a cell is no strong link.
        return None;
    }
    let link_cells = chain
        .iter()
        .fold(Cells::EMPTY, |all, l| all.or(UNITS[l.unit]));
    let places = grid.cells_with(digit);
    let removed = match shared_unit(start.or(end)) {
        Some(_) => {
            let lowest = chain
                .iter()
                .all(|l| chain[0].unit_number() <= l.unit_number());
            let with_extra = chain.iter().any(|l| !l.extra.is_empty());
            if !lowest || turned(0) != 0 || with_extra {
                return None;
            }
            bridges
                .iter()
                .map(|&(near, _)| near)
                .chain([start.or(end)])
                .fold(Cells::EMPTY, |all, pair| all.or(pair.common_peers()))
                .and(places)
                .minus(link_cells)
        }
        None => {
            let far = start.or(end).or(chain[0].extra).or(chain[count - 1].extra);
            let shared = bridges
                .iter()
                .fold(Cells::EMPTY, |all, &(_, u)| all.or(UNITS[u]));
            far.common_peers()
                .and(places)
                .minus(link_cells)
                .minus(shared)
        }
    };
    (!removed.is_empty()).then_some(removed)
}

/// The pattern that chains `links` in `order`, each turned by its bit of
/// `turns` (the first link's bit the highest), if consecutive ends share
/// a unit and it removes something.
fn pattern(
    grid: &Grid,
    digit: u8,
    links: &[Link],
    order: &[usize],
    turns: u32,
) -> Option<(Key, Step)> {
    let count = links.len();
    let turned = |i: usize| (turns >> (count - 1 - i) & 1) as usize;
    let link = |i: usize| &links[order[i]];
    let mut chain = [&links[0]; 4];
    for (i, slot) in chain.iter_mut().enumerate().take(count) {
        *slot = link(i);
    }
    let removed = removals(grid, digit, &chain[..count], turns)?;
    let grouped = links.iter().filter(|l| l.grouped).count();
    let kinds: Vec<Kind> = order.iter().map(|&i| links[i].kind).collect();
    let oriented = match kinds.iter().le(kinds.iter().rev()) {
        true => kinds,
        false => kinds.into_iter().rev().collect(),
    };
    let suffix = format!("{grouped}{}", line_names(&oriented));
    let rating = rating_of(count, grouped > 0, &suffix);
    let mut step = Step::new(technique_of(count, grouped > 0, &suffix));
    step.rating = rating;
    step.pattern = (0..count)
        .flat_map(|i| {
            let l = link(i);
            [l.ends[turned(i)], l.ends[1 - turned(i)]]
        })
        .flat_map(|cells| cells.iter())
        .filter(|&c| grid.has(c, digit))
        .map(|c| Mark::new(c, digit))
        .collect();
    step.eliminations = removed.iter().map(|c| Mark::new(c, digit)).collect();
    step.units = order.iter().map(|&i| links[i].unit).collect();
    step.digits = bit(digit);
    step.links = chain_links(grid, digit, &chain[..count], turned);
    let key = Key {
        rating,
        removals: step.eliminations.len(),
        suffix,
    };
    Some((key, step))
}

/// The links of a chain of strong links, each turned as `turned` says:
/// strong within each unit, weak between one link's far end and the
/// next one's near end. A cell that may hold the digit besides a link's
/// ends goes with the pattern's far end it joins.
fn chain_links(
    grid: &Grid,
    digit: u8,
    chain: &[&Link],
    turned: impl Fn(usize) -> usize,
) -> Vec<super::step::Link> {
    let count = chain.len();
    let mut found = Vec::with_capacity(2 * count - 1);
    let mut previous = Cells::EMPTY;
    for (i, link) in chain.iter().enumerate() {
        let places = grid.cells_with(digit);
        let mut near = link.ends[turned(i)].and(places);
        let mut far = link.ends[1 - turned(i)].and(places);
        if i == 0 {
            near = near.or(link.extra);
        }
        if i == count - 1 {
            far = far.or(link.extra);
        }
        if i > 0 {
            found.push(grouped(LinkKind::Weak, digit, previous, near));
        }
        found.push(grouped(LinkKind::Strong, digit, near, far));
        previous = far;
    }
    found
}

/// The unit holding every cell of `cells`: a column first, then a row,
/// then a box, as Sukaku Explainer looks.
/// (Columns are numbered after rows, and rows after boxes.)
fn shared_unit(cells: Cells) -> Option<usize> {
    let holding = cells.units_holding();
    (holding != 0).then(|| 31 - holding.leading_zeros() as usize)
}

/// Sukaku Explainer's name for the kinds of a pattern's links, with rows
/// and columns told apart only by whether they differ.
fn line_names(kinds: &[Kind]) -> String {
    let original: String = kinds.iter().map(|k| k.to_string()).collect();
    if !kinds.contains(&1) {
        return kinds
            .iter()
            .map(|&k| if k == 2 { '1' } else { char::from(b'0' + k) })
            .collect();
    }
    let swapped = |k: Kind| match k {
        1 => '2',
        2 => '1',
        other => char::from(b'0' + other),
    };
    let current: String = kinds.iter().map(|&k| swapped(k)).collect();
    let reversed: String = kinds.iter().rev().map(|&k| swapped(k)).collect();
    let swap = reversed.min(current);
    original.min(swap)
}

fn technique_of(count: usize, grouped: bool, suffix: &str) -> Technique {
    let rest = &suffix[1..];
    let skyscraper = !rest.contains('0') && !rest.contains('2');
    let kite = !rest.contains('0');
    if count > 2 {
        return Technique::XChain;
    }
    match (grouped, skyscraper, kite) {
        (false, true, _) => Technique::Skyscraper,
        (false, false, true) => Technique::TwoStringKite,
        (false, ..) => Technique::TurbotFish,
        (true, true, _) => Technique::GroupedSkyscraper,
        (true, false, true) => Technique::GroupedTwoStringKite,
        (true, ..) => Technique::GroupedTurbotFish,
    }
}

/// 4.0 for two links, 5.4 for three, 5.8 for four; plus 0.3 with a
/// grouped link, else 0.2 with box links and both kinds of line, else 0.1
/// unless every link is a line of one kind.
fn rating_of(count: usize, grouped: bool, suffix: &str) -> Rating {
    let base = match count {
        2 => 40,
        3 => 54,
        _ => 58,
    };
    let rest = &suffix[1..];
    Rating(
        base + match (grouped, rest.contains('0'), rest.contains('2')) {
            (true, ..) => 3,
            (false, false, false) => 0,
            (false, true, true) => 2,
            _ => 1,
        },
    )
}

impl Link {
    /// Sukaku Explainer's number of the unit: boxes 1-9, rows 11-19,
    /// columns 21-29.
    fn unit_number(&self) -> usize {
        usize::from(self.kind) * 10 + self.unit % 9 + 1
    }
}

/// The ways `unit` links two ends for `digit`: none, or one or two when
/// its places allow.
fn links(grid: &Grid, digit: u8, unit: usize, kind: Kind) -> Vec<Link> {
    let places = UNITS[unit].and(grid.cells_with(digit));
    let link = |ends: [Cells; 2], grouped| Link {
        unit,
        kind,
        grouped,
        places,
        ends,
        extra: places.minus(ends[0]).minus(ends[1]),
        id: 0,
    };
    match places.len() {
        2 => {
            let mut cells = places.iter();
            let (a, b) = (cells.next().unwrap_or(0), cells.next().unwrap_or(0));
            let boxed_in_line = kind == 0 && (a / 9 == b / 9 || a % 9 == b % 9);
            match boxed_in_line {
                true => Vec::new(),
                false => vec![link([Cells::single(a), Cells::single(b)], false)],
            }
        }
        3..=6 => grouped_ends(unit, kind, places)
            .into_iter()
            .map(|ends| link(ends, true))
            .collect(),
        _ => Vec::new(),
    }
}

/// The cells of a unit at positions (0..9, in the unit's order).
fn at(unit: usize, positions: &[usize]) -> Cells {
    positions.iter().map(|&p| cell_at(unit, p)).collect()
}

/// A grouped link's ends: the first box shape (or line segment) that the
/// places leave empty decides; both its arms must hold the digit.
fn grouped_ends(unit: usize, kind: Kind, places: Cells) -> Vec<[Cells; 2]> {
    if kind != 0 {
        for empty in 0..3 {
            if !places
                .and(at(unit, &[empty * 3, empty * 3 + 1, empty * 3 + 2]))
                .is_empty()
            {
                continue;
            }
            let mut segments = (0..3)
                .filter(|&s| s != empty)
                .map(|s| places.and(at(unit, &[s * 3, s * 3 + 1, s * 3 + 2])));
            let (first, second) = (
                segments.next().unwrap_or_default(),
                segments.next().unwrap_or_default(),
            );
            if first.is_empty() || second.is_empty() {
                return Vec::new();
            }
            return line_variants(first, second);
        }
        return Vec::new();
    }
    for (shape, &(empty, arms)) in BOX_SHAPES.iter().enumerate() {
        if shape > 8 && places.len() < 4 {
            continue;
        }
        if !places.and(at(unit, empty)).is_empty() {
            continue;
        }
        let blades = [places.and(at(unit, arms.0)), places.and(at(unit, arms.1))];
        if blades[0].is_empty() || blades[1].is_empty() {
            return Vec::new();
        }
        let centre = (shape < 9).then(|| at(unit, &[shape]));
        return box_variants(blades, centre, places);
    }
    Vec::new()
}

/// A grouped line's ends: with a single-cell segment, that cell first.
fn line_variants(first: Cells, second: Cells) -> Vec<[Cells; 2]> {
    match first.len() != 1 && second.len() == 1 {
        true => vec![[second, first]],
        false => vec![[first, second]],
    }
}

/// A grouped box's ends. An arm of one cell is an end alone, and the
/// other end takes the centre cell (whether or not it holds the digit);
/// arms of two cells each take the centre if it holds the digit.
fn box_variants(blades: [Cells; 2], centre: Option<Cells>, places: Cells) -> Vec<[Cells; 2]> {
    let single = [blades[0].len() == 1, blades[1].len() == 1];
    let Some(centre) = centre else {
        return vec![blades];
    };
    if single[0] && single[1] {
        // Sukaku Explainer links the two arm cells, whatever the centre
        // holds; a centre holding the digit becomes the link's extra.
        return vec![blades];
    }
    if single[0] || single[1] {
        let mut variants = Vec::new();
        for (alone, other) in [(0, 1), (1, 0)] {
            if single[alone] {
                variants.push([blades[alone], blades[other].or(centre)]);
            }
        }
        return variants;
    }
    let with_centre = |arm: Cells| match arm.len() == 2 && !places.and(centre).is_empty() {
        true => arm.or(centre),
        false => arm,
    };
    vec![[with_centre(blades[0]), with_centre(blades[1])]]
}

/// A box shape: the positions that must be empty, and the two arms.
type BoxShape = (&'static [usize], (&'static [usize], &'static [usize]));

/// Sukaku Explainer's box shapes, by box position: the positions that
/// must be empty, and the two arms. Shapes 0-8 are crosses centred on
/// that position (its column's other cells, then its row's); 9-14 are two
/// rows (the bottom, middle, then top one empty) and two columns (the
/// right, middle, then left one empty).
const BOX_SHAPES: [BoxShape; 15] = [
    (&[4, 5, 7, 8], (&[3, 6], &[1, 2])),
    (&[3, 5, 6, 8], (&[4, 7], &[0, 2])),
    (&[3, 4, 6, 7], (&[5, 8], &[0, 1])),
    (&[1, 2, 7, 8], (&[0, 6], &[4, 5])),
    (&[0, 2, 6, 8], (&[1, 7], &[3, 5])),
    (&[0, 1, 6, 7], (&[2, 8], &[3, 4])),
    (&[1, 2, 4, 5], (&[0, 3], &[7, 8])),
    (&[0, 2, 3, 5], (&[1, 4], &[6, 8])),
    (&[0, 1, 3, 4], (&[2, 5], &[6, 7])),
    (&[6, 7, 8], (&[0, 1, 2], &[3, 4, 5])),
    (&[3, 4, 5], (&[0, 1, 2], &[6, 7, 8])),
    (&[0, 1, 2], (&[3, 4, 5], &[6, 7, 8])),
    (&[2, 5, 8], (&[0, 3, 6], &[1, 4, 7])),
    (&[1, 4, 7], (&[0, 3, 6], &[2, 5, 8])),
    (&[0, 3, 6], (&[1, 4, 7], &[2, 5, 8])),
];

/// How a player is told about a two-strong-link step, plain or grouped.
pub(super) fn explain(step: &Step, words: &Words, text: &mut String) {
    let digits = &words.digits;
    let units = &words.units;
    match step.technique {
        Technique::Skyscraper | Technique::TwoStringKite | Technique::TurbotFish => {
            let _ = write!(
                text,
                "{digits} is in one end or the other of the chain of strong links {}, whose ends \
                 are {}, so no cell seeing both ends holds it",
                reasoning::eureka(&step.links),
                chain_ends(&step.links)
            );
        }
        Technique::GroupedSkyscraper
        | Technique::GroupedTwoStringKite
        | Technique::GroupedTurbotFish => {
            let _ = write!(
                text,
                "{digits} is in one end or the other of the chain of strong links {} across \
                 {units}, some ends being groups of cells; its ends are {}, so no cell seeing \
                 every cell of both ends holds it",
                reasoning::eureka(&step.links),
                chain_ends(&step.links)
            );
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::path_of;
    use super::*;

    /// Sukaku Explainer's enumeration, written plainly: every set of
    /// links chosen by kinds and units, every order, every orientation,
    /// in its order. The chain walk must hand over the same patterns in
    /// the same order.
    fn enumerated(grid: &Grid, count: usize) -> Vec<(Key, Step)> {
        let mut found = Vec::new();
        for kinds in kind_tuples(count) {
            for digit in 1..=9 {
                let links = DigitLinks::new(grid, digit);
                let mut chosen = Vec::new();
                choose_plainly(grid, &links, &kinds, 0, &mut chosen, &mut found);
            }
        }
        found
    }

    fn choose_plainly(
        grid: &Grid,
        links: &DigitLinks,
        kinds: &[Kind],
        first_unit: usize,
        chosen: &mut Vec<Link>,
        found: &mut Vec<(Key, Step)>,
    ) {
        let depth = chosen.len();
        if depth == kinds.len() {
            for order in link_orders(depth) {
                for turns in 0..1u32 << depth {
                    found.extend(pattern(grid, links.digit, chosen, &order, turns));
                }
            }
            return;
        }
        let kind = kinds[depth];
        for link in &links.all {
            let (unit, _) = links.positions[link.id];
            let overlaps = chosen.iter().any(|c| !c.places.and(link.places).is_empty());
            if link.kind != kind || unit < first_unit || overlaps {
                continue;
            }
            chosen.push(*link);
            let next_first = match kinds.get(depth + 1) == Some(&kind) {
                true => unit + 1,
                false => 0,
            };
            choose_plainly(grid, links, kinds, next_first, chosen, found);
            chosen.pop();
        }
    }

    #[test]
    fn the_chain_walk_finds_what_the_plain_enumeration_finds_in_its_order() {
        // Puzzles whose grading paths go through strong links of every
        // length, plain and grouped; every grid on the path is checked.
        let puzzles = [
            ".9.8..6....7.4...54...63.7...8.....9.59...34.7.....8...7.15...39...7.2....5..6.9.",
            "5.2...8.7.9..7..1....812......943....39...72..8.....4...84291...........97.....54",
            "3...5.2.629.3.......6.4.......29..67..2.3.1..48..17.......2.6.......5.749.8.7...3",
        ];
        let mut compared = [0; 5];
        for text in puzzles {
            let (path, end) = path_of(text);
            for (grid, _) in &path {
                for (count, total) in compared.iter_mut().enumerate().skip(2) {
                    let mut walked = Vec::new();
                    each_of(grid, count, Scope::WHOLE, &mut |key, step| {
                        walked.push((key, step))
                    });
                    let plain = enumerated(grid, count);
                    assert_eq!(
                        walked,
                        plain,
                        "{text}, {count} links, at {}",
                        grid.marks_text()
                    );
                    *total += walked.len();
                }
            }
            assert!(end.is_solved(), "{text}");
        }
        assert!(
            compared[2..].iter().all(|&n| n > 10),
            "patterns compared: {compared:?}"
        );
    }

    #[test]
    fn suffixes_name_rows_and_columns_alike() {
        assert_eq!(line_names(&[1, 1]), "11");
        assert_eq!(line_names(&[2, 2]), "11");
        assert_eq!(line_names(&[1, 2]), "12");
        assert_eq!(line_names(&[0, 1]), "01");
        assert_eq!(line_names(&[0, 2]), "01");
        assert_eq!(line_names(&[0, 0]), "00");
    }

    #[test]
    fn a_unit_of_every_cell_of_a_set_is_a_column_first() {
        assert_eq!(shared_unit(Cells::single(0).or(Cells::single(9))), Some(18));
        assert_eq!(shared_unit(Cells::single(0).or(Cells::single(1))), Some(9));
        assert_eq!(shared_unit(Cells::single(0).or(Cells::single(10))), Some(0));
        assert_eq!(shared_unit(Cells::single(0).or(Cells::single(40))), None);
    }
}
