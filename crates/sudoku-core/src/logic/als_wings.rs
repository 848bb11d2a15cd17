//! WXYZ-, VWXYZ-, UVWXYZ- and TUVWXYZ-Wings: Sukaku Explainer's wings
//! of an almost locked set and a two-candidate cell.
//!
//! An almost locked set is `n` cells of one unit holding `n + 1` digits
//! between them: were one digit gone from them, the rest would fill the
//! cells. Add a cell outside the set with two candidates, `x` and `z`,
//! both among the set's digits, where every set cell holding `x` sees it
//! (`x` is *restricted*). If `x` is in that cell, the set loses `x` and
//! its other digits, `z` among them, are locked in it; if not, `z` is in
//! that cell. Either way `z` is in the cell or in one of the set's cells
//! holding it, so no cell seeing all of those holds `z`. When `z` is
//! restricted too (doubly linked), `x` falls the same way, and every
//! other digit of the set is locked in it, so no cell seeing all its
//! places holds it.
//!
//! Ratings follow Sukaku Explainer: a base for the size, plus a tenth for
//! each step the largest cell of the set is nearer three candidates; the
//! lowest-rated wing wins, and among equals the one that eliminates most.

use std::fmt::Write;

use super::bits::{Cells, PEERS, UNITS, bit, digits};
use super::grid::Grid;
use super::reasoning;
use super::scope::Scope;
use super::step::{Link, Mark, Step};
use super::technique::{Rating, Technique};
use super::words::{Words, cell_list};

/// The wing of an almost locked set of `size` cells (3 to 6) that
/// Sukaku Explainer would take, among those `scope` touches: a wing is
/// its set's cells and its two-candidate cell.
pub fn als_wing(grid: &Grid, size: usize, scope: Scope) -> Option<Step> {
    let technique = match size {
        3 => Technique::WxyzWing,
        4 => Technique::VwxyzWing,
        5 => Technique::UvwxyzWing,
        _ => Technique::TuvwxyzWing,
    };
    let pairs = grid.bivalue_cells();
    let changed_pairs = pairs.and(scope.cells());
    let mut best: Option<Step> = None;
    for unit in UNITS {
        if changed_pairs.is_empty() && !scope.touches(unit) {
            continue;
        }
        let open: Vec<usize> = unit
            .and(grid.blanks())
            .iter()
            .filter(|&cell| (2..=size + 1).contains(&(grid.marks(cell).count_ones() as usize)))
            .collect();
        for_each_set(grid, &open, size, &mut |set, held| {
            let members: Cells = set.iter().copied().collect();
            let partners = match scope.touches(members) {
                true => pairs,
                false => changed_pairs,
            };
            // Only a cell outside the set, seeing some of it, whose two
            // digits the set holds can make a wing (`wing` asks again).
            let seen = set.iter().fold(Cells::EMPTY, |all, &c| all.or(PEERS[c]));
            let foreign =
                digits(0x1ff & !held).fold(Cells::EMPTY, |all, d| all.or(grid.cells_with(d)));
            for pair in partners.and(seen).minus(members).minus(foreign).iter() {
                if let Some(step) = wing(grid, set, members, pair, held, technique) {
                    let better = best.as_ref().is_none_or(|b| {
                        (step.rating, std::cmp::Reverse(step.eliminations.len()))
                            < (b.rating, std::cmp::Reverse(b.eliminations.len()))
                    });
                    if better {
                        best = Some(step);
                    }
                }
            }
        });
    }
    best
}

/// Calls `visit` with every `size` cells of `cells` (in order) that hold
/// `size + 1` digits between them, and those digits; a choice that
/// already holds more is not followed further.
fn for_each_set(grid: &Grid, cells: &[usize], size: usize, visit: &mut dyn FnMut(&[usize], u16)) {
    fn walk(
        grid: &Grid,
        cells: &[usize],
        size: usize,
        chosen: &mut Vec<usize>,
        held: u16,
        visit: &mut dyn FnMut(&[usize], u16),
    ) {
        if chosen.len() == size {
            if held.count_ones() as usize == size + 1 {
                visit(chosen, held);
            }
            return;
        }
        // Only cells with enough after them to complete the set.
        let starts = (cells.len() + chosen.len() + 1).saturating_sub(size);
        for (i, &cell) in cells[..starts].iter().enumerate() {
            let more = held | grid.marks(cell);
            if more.count_ones() as usize > size + 1 {
                continue;
            }
            chosen.push(cell);
            walk(grid, &cells[i + 1..], size, chosen, more, visit);
            chosen.pop();
        }
    }
    walk(grid, cells, size, &mut Vec::with_capacity(size), 0, visit);
}

/// The wing of `set` (its cells `members`, holding the digits `held`)
/// and the two-candidate cell `pair`, if it eliminates anything.
fn wing(
    grid: &Grid,
    set: &[usize],
    members: Cells,
    pair: usize,
    held: u16,
    technique: Technique,
) -> Option<Step> {
    let pair_digits = grid.marks(pair);
    if members.has(pair) || pair_digits & !held != 0 || PEERS[pair].and(members).is_empty() {
        return None;
    }
    let holding = |digit: u8| grid.cells_with(digit).and(members);
    let restricted = |digit: u8| holding(digit).minus(PEERS[pair]).is_empty();
    let [a, b] = {
        let mut both = digits(pair_digits);
        [both.next()?, both.next()?]
    };
    let (x, z) = match (restricted(a), restricted(b)) {
        (false, false) => return None,
        (true, false) => (a, b),
        (false, true) => (b, a),
        (true, true) => (a, b),
    };
    let outside = grid.blanks().minus(members).minus(Cells::single(pair));
    let seeing_all = |cells: Cells| {
        cells
            .iter()
            .fold(outside, |seen, cell| seen.and(PEERS[cell]))
    };
    let mut removed: Vec<Mark> = Vec::new();
    let mut remove = |digit: u8, cells: Cells| {
        for cell in cells.and(grid.cells_with(digit)).iter() {
            removed.push(Mark::new(cell, digit));
        }
    };
    let doubly = restricted(a) && restricted(b);
    for digit in if doubly { vec![x, z] } else { vec![z] } {
        remove(digit, seeing_all(holding(digit).or(Cells::single(pair))));
    }
    if doubly {
        for digit in digits(held & !pair_digits) {
            remove(digit, seeing_all(holding(digit)));
        }
    }
    if removed.is_empty() {
        return None;
    }
    removed.sort_by_key(|m| (m.cell, m.digit));
    removed.dedup();
    let widest = set.iter().map(|&c| grid.marks(c).count_ones()).max()? as i32;
    let mut step = Step::new(technique);
    let nearness = (set.len() as i32 - 2) - (3 - widest).abs();
    step.rating = match technique {
        Technique::WxyzWing | Technique::VwxyzWing => {
            Rating((i32::from(technique.base_rating().0) + nearness) as u16)
        }
        _ => technique.base_rating(),
    };
    step.pattern = set
        .iter()
        .chain([&pair])
        .flat_map(|&cell| digits(grid.marks(cell)).map(move |d| Mark::new(cell, d)))
        .collect();
    step.eliminations = removed;
    step.units = unit_of(set).into_iter().collect();
    step.links = pair_links(grid, pair, set, [x, z], doubly);
    step.digits = if doubly { bit(x) | bit(z) } else { bit(z) };
    Some(step)
}

/// The links from the bivalue cell `pair` into the set: its strong link
/// from `z` to the restricted `x`, and the weak links from that `x` to
/// every place of `x` in the set (and the same from `z`'s side when both
/// are restricted).
fn pair_links(grid: &Grid, pair: usize, set: &[usize], [x, z]: [u8; 2], doubly: bool) -> Vec<Link> {
    let mut links = Vec::new();
    let sides: &[(u8, u8)] = if doubly { &[(z, x), (x, z)] } else { &[(z, x)] };
    for &(from, to) in sides {
        links.push(Link::strong(Mark::new(pair, from), Mark::new(pair, to)));
        for &cell in set.iter().filter(|&&c| grid.has(c, to)) {
            links.push(Link::weak(Mark::new(pair, to), Mark::new(cell, to)));
        }
    }
    links
}

/// A unit holding every cell of `set`.
fn unit_of(set: &[usize]) -> Option<usize> {
    UNITS
        .iter()
        .position(|unit| set.iter().all(|&cell| unit.has(cell)))
}

/// How a player is told about a WXYZ-, VWXYZ-, UVWXYZ- or TUVWXYZ-Wing step.
pub(super) fn explain(step: &Step, words: &Words, text: &mut String) {
    let digits = &words.digits;
    match step.technique {
        Technique::WxyzWing
        | Technique::VwxyzWing
        | Technique::UvwxyzWing
        | Technique::TuvwxyzWing => {
            let pair = step.pattern.last().map_or(0, |m| m.cell);
            let (set, rest): (Vec<Mark>, Vec<Mark>) =
                step.pattern.iter().partition(|m| m.cell != pair);
            let _ = write!(
                text,
                "{} hold one digit more than they have cells, and {} holds two of those \
                 digits; whichever it takes, {digits} ends up in it or in the set ({}), so no \
                 cell seeing all of those places holds {digits}",
                cell_list(&set),
                cell_list(&rest),
                reasoning::eureka(&step.links)
            );
        }
        _ => {}
    }
}
