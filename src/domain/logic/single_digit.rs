//! Two strong links on one digit: Skyscraper, Two-String Kite and Turbot
//! Fish.
//!
//! A strong link is a unit where a digit has exactly two places: one of
//! them holds it. When one end of a strong link sees one end of another,
//! at most one of those two is the digit, so one of the two far ends is,
//! and a cell seeing both far ends cannot be. The names say which units
//! the links lie in: two parallel lines (Skyscraper), a row and a column
//! (Two-String Kite), or a box and a line (Turbot Fish).

use super::bits::{Cells, PEERS, UNITS, UnitKind, bit, unit_kind};
use super::grid::Grid;
use super::step::{Mark, Step};
use super::technique::Technique;

/// A unit where a digit has exactly two places.
#[derive(Debug, Clone, Copy)]
struct Link {
    unit: usize,
    ends: [usize; 2],
}

/// The first two-strong-link pattern that eliminates something, the
/// simplest kind first.
pub fn two_strong_links(grid: &Grid) -> Option<Step> {
    [
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
    ]
    .into_iter()
    .find_map(|technique| of_kind(grid, technique))
}

/// The first pattern of one kind (Skyscraper, Two-String Kite or Turbot
/// Fish) that eliminates something.
pub fn of_kind(grid: &Grid, technique: Technique) -> Option<Step> {
    (1..=9).find_map(|digit| find(grid, digit, technique))
}

fn find(grid: &Grid, digit: u8, technique: Technique) -> Option<Step> {
    let places = grid.cells_with(digit);
    let links: Vec<Link> = (0..27)
        .filter_map(|unit| {
            let ends = places.and(UNITS[unit]);
            let mut cells = ends.iter();
            match (ends.len(), cells.next(), cells.next()) {
                (2, Some(a), Some(b)) => Some(Link { unit, ends: [a, b] }),
                _ => None,
            }
        })
        .collect();
    for (i, first) in links.iter().enumerate() {
        for second in &links[i + 1..] {
            if kind_of(first.unit, second.unit) != technique {
                continue;
            }
            for (near_a, far_a) in [(0, 1), (1, 0)] {
                for (near_b, far_b) in [(0, 1), (1, 0)] {
                    let (na, nb) = (first.ends[near_a], second.ends[near_b]);
                    let (fa, fb) = (first.ends[far_a], second.ends[far_b]);
                    let distinct = Cells::single(na).or(Cells::single(nb));
                    let ends = distinct.or(Cells::single(fa)).or(Cells::single(fb));
                    if ends.len() != 4 || !PEERS[na].has(nb) {
                        continue;
                    }
                    let removed = places.and(PEERS[fa]).and(PEERS[fb]).minus(ends);
                    if removed.is_empty() {
                        continue;
                    }
                    let mut step = Step::new(technique);
                    step.pattern = [fa, na, nb, fb]
                        .iter()
                        .map(|&c| Mark::new(c, digit))
                        .collect();
                    step.eliminations = removed.iter().map(|c| Mark::new(c, digit)).collect();
                    step.units = vec![first.unit, second.unit];
                    step.digits = bit(digit);
                    return Some(step);
                }
            }
        }
    }
    None
}

fn kind_of(a: usize, b: usize) -> Technique {
    match (unit_kind(a), unit_kind(b)) {
        (UnitKind::Row, UnitKind::Row) | (UnitKind::Column, UnitKind::Column) => {
            Technique::Skyscraper
        }
        (UnitKind::Row, UnitKind::Column) | (UnitKind::Column, UnitKind::Row) => {
            Technique::TwoStringKite
        }
        _ => Technique::TurbotFish,
    }
}
