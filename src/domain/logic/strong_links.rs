//! Two strong links on one digit, plain and grouped, as Sukaku Explainer
//! finds and sorts them (Skyscraper 4.0, Two-String Kite and Turbot Fish
//! 4.1, any of them grouped 4.3).
//!
//! A strong link is a unit where the digit lies in one of two *ends*: two
//! cells (a unit with two places), or, grouped, two groups of cells. A row
//! or column whose places fill exactly two of its box segments links those
//! segments; a box whose places lie in one row and one column of it (a
//! cross) links the row's part and the column's part, and one whose places
//! lie in two of its rows (or columns) links those. When an end of one
//! link and an end of another lie in one column, row or box, at most one
//! of them holds the digit, so one of the two far ends does, and a cell
//! that sees every cell of both far ends cannot hold it.
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

use super::bits::{BOXES, Cells, UNITS, bit, units_of};
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
}

/// The kinds of the two units, in the order Sukaku Explainer tries them.
const KIND_PAIRS: [(Kind, Kind); 6] = [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)];

/// The two-strong-link pattern Sukaku Explainer would pick, if any.
pub fn two_strong_links(grid: &Grid) -> Option<Step> {
    let mut best: Option<(Key, Step)> = None;
    for (first, second) in KIND_PAIRS {
        for digit in 1..=9 {
            each_pattern(grid, digit, first, second, &mut |key, step| {
                if best.as_ref().is_none_or(|(b, _)| key.before(b)) {
                    best = Some((key, step));
                }
            });
        }
    }
    best.map(|(_, step)| step)
}

/// The first pattern of one kind (Skyscraper, Two-String Kite, Turbot
/// Fish, or a grouped one), for checking a technique alone.
pub fn of_kind(grid: &Grid, technique: Technique) -> Option<Step> {
    let mut found = None;
    for (first, second) in KIND_PAIRS {
        for digit in 1..=9 {
            each_pattern(grid, digit, first, second, &mut |_, step| {
                if found.is_none() && step.technique == technique {
                    found = Some(step);
                }
            });
        }
    }
    found
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

fn units_of_kind(kind: Kind) -> std::ops::Range<usize> {
    match kind {
        0 => BOXES,
        1 => super::bits::ROWS,
        _ => super::bits::COLUMNS,
    }
}

/// Every pattern of `digit` with a link of kind `first` and one of kind
/// `second`, in Sukaku Explainer's order, each with its sort key.
fn each_pattern(
    grid: &Grid,
    digit: u8,
    first: Kind,
    second: Kind,
    found: &mut dyn FnMut(Key, Step),
) {
    let links_of = |kind: Kind| -> Vec<Vec<Link>> {
        units_of_kind(kind)
            .map(|unit| links(grid, digit, unit, kind))
            .collect()
    };
    let (firsts, seconds) = (links_of(first), links_of(second));
    for (i, variants) in firsts.iter().enumerate() {
        for a in variants {
            let start = if first == second { i + 1 } else { 0 };
            for b in seconds[start..].iter().flatten() {
                if !a.places.and(b.places).is_empty() {
                    continue;
                }
                for (near_a, near_b) in [(1, 0), (1, 1), (0, 0), (0, 1)] {
                    if let Some(pattern) = pattern(grid, digit, a, b, near_a, near_b) {
                        found(pattern.0, pattern.1);
                    }
                }
            }
        }
    }
}

/// The pattern joining end `near_a` of `a` to end `near_b` of `b`, if
/// they share a unit and it removes something.
fn pattern(
    grid: &Grid,
    digit: u8,
    a: &Link,
    b: &Link,
    near_a: usize,
    near_b: usize,
) -> Option<(Key, Step)> {
    let bridge = a.ends[near_a].or(b.ends[near_b]);
    let shared = shared_unit(bridge)?;
    let (start, end) = (a.ends[1 - near_a], b.ends[1 - near_b]);
    if shared_unit(start.or(end)).is_some() {
        // A loop: Sukaku Explainer's X-Loop, not searched here.
        return None;
    }
    let seen = start.or(end).or(a.extra).or(b.extra).common_peers();
    let removed = seen
        .and(grid.cells_with(digit))
        .minus(UNITS[a.unit])
        .minus(UNITS[b.unit])
        .minus(UNITS[shared]);
    if removed.is_empty() {
        return None;
    }
    let grouped = u8::from(a.grouped) + u8::from(b.grouped);
    let suffix = format!("{grouped}{}", line_names(&[a.kind, b.kind]));
    let technique = technique_of(grouped > 0, &suffix);
    let rating = rating_of(grouped > 0, &suffix);
    let mut step = Step::new(technique);
    step.rating = rating;
    step.pattern = [start, a.ends[near_a], b.ends[near_b], end]
        .iter()
        .flat_map(|cells| cells.iter())
        .filter(|&c| grid.has(c, digit))
        .map(|c| Mark::new(c, digit))
        .collect();
    step.eliminations = removed.iter().map(|c| Mark::new(c, digit)).collect();
    step.units = vec![a.unit, b.unit];
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

fn technique_of(grouped: bool, suffix: &str) -> Technique {
    let rest = &suffix[1..];
    let skyscraper = !rest.contains('0') && !rest.contains('2');
    let kite = !rest.contains('0');
    match (grouped, skyscraper, kite) {
        (false, true, _) => Technique::Skyscraper,
        (false, false, true) => Technique::TwoStringKite,
        (false, ..) => Technique::TurbotFish,
        (true, true, _) => Technique::GroupedSkyscraper,
        (true, false, true) => Technique::GroupedTwoStringKite,
        (true, ..) => Technique::GroupedTurbotFish,
    }
}

/// 4.0, plus 0.3 with a grouped link, else 0.1 when the links are not
/// two parallel lines.
fn rating_of(grouped: bool, suffix: &str) -> Rating {
    let rest = &suffix[1..];
    match (grouped, rest.contains('0'), rest.contains('2')) {
        (true, ..) => Rating(43),
        (false, false, false) => Rating(40),
        (false, true, true) => Rating(42),
        _ => Rating(41),
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
    let cells: Vec<usize> = UNITS[unit].iter().collect();
    positions.iter().map(|&p| cells[p]).collect()
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
    match (first.len(), second.len()) {
        (1, 1) => vec![[first, second]],
        (1, _) => vec![[first, second]],
        (_, 1) => vec![[second, first]],
        _ => vec![[first, second]],
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
        let _ = places;
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
