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

use super::bits::{BOXES, Cells, UNITS, bit, cell_at, units_of};
use super::grid::Grid;
use super::step::{Mark, Step};
use super::technique::{Rating, Technique};

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

/// The two-strong-link pattern Sukaku Explainer would pick, if any.
pub fn two_strong_links(grid: &Grid) -> Option<Step> {
    strong_links(grid, 2)
}

/// The pattern of `count` strong links (2, 3 or 4) on one digit that
/// Sukaku Explainer would pick, if any: plain or grouped, a chain or a
/// loop.
pub fn strong_links(grid: &Grid, count: usize) -> Option<Step> {
    let mut best: Option<(Key, Step)> = None;
    each_of(grid, count, &mut |key, step| {
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
    each_of(grid, 2, &mut |_, step| {
        if found.is_none() && step.technique == technique {
            found = Some(step);
        }
    });
    found
}

/// Every pattern of `count` links on the grid, in Sukaku Explainer's
/// order (kinds of units, then digits), each with its sort key.
fn each_of(grid: &Grid, count: usize, found: &mut dyn FnMut(Key, Step)) {
    thread_local! {
        /// The last grid's links: the searches of 2, 3 and 4 links run
        /// on the same grid when the shorter find nothing.
        static LAST: std::cell::RefCell<Option<(Grid, std::rc::Rc<[DigitLinks]>)>> =
            const { std::cell::RefCell::new(None) };
    }
    let digits = LAST.with_borrow_mut(|last| match last {
        Some((seen, links)) if seen == grid => links.clone(),
        _ => {
            let links: std::rc::Rc<[DigitLinks]> =
                (1..=9).map(|digit| DigitLinks::new(grid, digit)).collect();
            *last = Some((grid.clone(), links.clone()));
            links
        }
    });
    for kinds in kind_tuples(count) {
        for links in digits.iter() {
            each_pattern(grid, links, &kinds, found);
        }
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

/// Every pattern of `digit` with links of `kinds`, in Sukaku Explainer's
/// order, each with its sort key: units chosen link by link (a link of
/// the same kind as the one before in a later unit), then the orders of
/// the links, then their orientations.
fn each_pattern(grid: &Grid, links: &DigitLinks, kinds: &[Kind], found: &mut dyn FnMut(Key, Step)) {
    let orders = link_orders(kinds.len());
    let search = Search {
        grid,
        digit: links.digit,
        kinds,
        per_kind: &links.per_kind,
        joins: &links.joins,
        orders: &orders,
        component_sizes: &links.component_sizes,
    };
    let mut chosen = Vec::with_capacity(kinds.len());
    search.choose(0, &mut chosen, found);
}

/// A digit's links, by kind and unit, and which of them join.
struct DigitLinks {
    digit: u8,
    per_kind: Vec<Vec<Vec<Link>>>,
    /// For each link, the links one of whose ends shares a unit with one
    /// of its ends (bit `id`).
    joins: Vec<u64>,
    /// For each link, how many links its joins reach, itself included.
    component_sizes: Vec<usize>,
}

impl DigitLinks {
    fn new(grid: &Grid, digit: u8) -> DigitLinks {
        let mut next_id = 0;
        let per_kind: Vec<Vec<Vec<Link>>> = (0..3)
            .map(|kind| {
                units_of_kind(kind)
                    .map(|unit| {
                        let mut variants = links(grid, digit, unit, kind);
                        for link in &mut variants {
                            link.id = next_id;
                            next_id += 1;
                        }
                        variants
                    })
                    .collect()
            })
            .collect();
        let all: Vec<Link> = per_kind.iter().flatten().flatten().copied().collect();
        let mut joins = vec![0u64; all.len()];
        for a in &all {
            for b in &all {
                let joined = a.id != b.id
                    && a.ends
                        .iter()
                        .any(|&x| b.ends.iter().any(|&y| shared_unit(x.or(y)).is_some()));
                if joined {
                    joins[a.id] |= 1 << b.id;
                }
            }
        }
        let component_sizes = (0..joins.len())
            .map(|id| {
                let mut reached = 1u64 << id;
                loop {
                    let next = (0..joins.len())
                        .filter(|&i| reached >> i & 1 != 0)
                        .fold(reached, |all, i| all | joins[i]);
                    if next == reached {
                        return reached.count_ones() as usize;
                    }
                    reached = next;
                }
            })
            .collect();
        DigitLinks {
            digit,
            per_kind,
            joins,
            component_sizes,
        }
    }
}

/// The links of one digit and what a search for patterns needs of them.
struct Search<'a> {
    grid: &'a Grid,
    digit: u8,
    kinds: &'a [Kind],
    per_kind: &'a [Vec<Vec<Link>>],
    /// For each link, the links one of whose ends shares a unit with one
    /// of its ends (bit `id`).
    joins: &'a [u64],
    /// The orders to chain a full set of links in.
    orders: &'a [Vec<usize>],
    /// For each link, how many links its joins reach, itself included: a
    /// chain of `n` links needs `n`.
    component_sizes: &'a [usize],
}

impl Search<'_> {
    /// Chooses the link at the next depth (and those after it), then
    /// tries the orders and orientations of a full set whose links can
    /// form a chain.
    fn choose(&self, first_unit: usize, chosen: &mut Vec<Link>, found: &mut dyn FnMut(Key, Step)) {
        let depth = chosen.len();
        if depth == self.kinds.len() {
            if self.can_chain(chosen) {
                for order in self.orders {
                    let joined = order
                        .windows(2)
                        .all(|w| self.joins[chosen[w[0]].id] >> chosen[w[1]].id & 1 != 0);
                    if !joined {
                        continue;
                    }
                    for turns in 0..1u32 << chosen.len() {
                        if let Some((key, step)) =
                            pattern(self.grid, self.digit, chosen, order, turns)
                        {
                            found(key, step);
                        }
                    }
                }
            }
            return;
        }
        let kind = self.kinds[depth];
        let units = &self.per_kind[usize::from(kind)];
        let taken = chosen.iter().fold(Cells::EMPTY, |all, l| all.or(l.places));
        // The last link must join every piece the others form, and a
        // chain less one link is in two pieces at most.
        let pieces = match depth + 1 == self.kinds.len() && depth > 0 {
            true => self.pieces(chosen),
            false => Vec::new(),
        };
        if pieces.len() > 2 {
            return;
        }
        for (index, variants) in units.iter().enumerate().skip(first_unit) {
            for &link in variants {
                let too_small = self.component_sizes[link.id] < self.kinds.len();
                let joins_all = pieces.iter().all(|&piece| self.joins[link.id] & piece != 0);
                if too_small || !joins_all || !taken.and(link.places).is_empty() {
                    continue;
                }
                chosen.push(link);
                let next_first = match self.kinds.get(depth + 1) {
                    Some(&next) if next == kind => index + 1,
                    _ => 0,
                };
                self.choose(next_first, chosen, found);
                chosen.pop();
            }
        }
    }

    /// The links' pieces: the sets (bit `id`) their joins connect.
    fn pieces(&self, links: &[Link]) -> Vec<u64> {
        let set: u64 = links.iter().map(|l| 1u64 << l.id).sum();
        let mut pieces: Vec<u64> = Vec::new();
        for link in links {
            if pieces.iter().any(|&p| p >> link.id & 1 != 0) {
                continue;
            }
            let mut reached = 1u64 << link.id;
            loop {
                let next = links
                    .iter()
                    .filter(|l| reached >> l.id & 1 != 0)
                    .fold(reached, |all, l| all | (self.joins[l.id] & set));
                if next == reached {
                    break;
                }
                reached = next;
            }
            pieces.push(reached);
        }
        pieces
    }

    /// Whether the links' joins connect them all: a chain through all of
    /// them needs that.
    fn can_chain(&self, links: &[Link]) -> bool {
        self.pieces(links).len() == 1
    }
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
    let mut bridges = Vec::with_capacity(count - 1);
    for w in 0..count - 1 {
        let near = link(w).ends[1 - turned(w)].or(link(w + 1).ends[turned(w + 1)]);
        bridges.push((near, shared_unit(near)?));
    }
    let start = link(0).ends[turned(0)];
    let end = link(count - 1).ends[1 - turned(count - 1)];
    let middle_extra = (1..count - 1).any(|i| !link(i).extra.is_empty());
    if middle_extra {
        // A middle link that leaves out a cell is no strong link.
        return None;
    }
    let link_cells = links
        .iter()
        .fold(Cells::EMPTY, |all, l| all.or(UNITS[l.unit]));
    let places = grid.cells_with(digit);
    let ring = shared_unit(start.or(end));
    let removed = match ring {
        Some(_) => {
            let lowest = order
                .iter()
                .all(|&i| links[order[0]].unit_number() <= links[i].unit_number());
            let with_extra = links.iter().any(|l| !l.extra.is_empty());
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
            let far = start.or(end).or(link(0).extra).or(link(count - 1).extra);
            let shared = bridges
                .iter()
                .fold(Cells::EMPTY, |all, &(_, u)| all.or(UNITS[u]));
            far.common_peers()
                .and(places)
                .minus(link_cells)
                .minus(shared)
        }
    };
    if removed.is_empty() {
        return None;
    }
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
    let key = Key {
        rating,
        removals: step.eliminations.len(),
        suffix,
    };
    Some((key, step))
}

/// The unit holding every cell of `cells`: a column first, then a row,
/// then a box, as Sukaku Explainer looks.
fn shared_unit(cells: Cells) -> Option<usize> {
    let first = cells.first()?;
    let [boxed, row, column] = units_of(first);
    [column, row, boxed]
        .into_iter()
        .find(|&unit| cells.minus(UNITS[unit]).is_empty())
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

#[cfg(test)]
mod tests {
    use super::*;

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
