//! Basic fish: X-Wing, Swordfish and Jellyfish.
//!
//! When a digit's candidates in n rows all fall in the same n columns, the
//! digit takes one cell in each of those columns within those rows, so the
//! columns lose it everywhere else (and the same with rows and columns
//! swapped). Finned and franken fish are left to the chains.

use super::bits::{COLUMNS, Cells, ROWS, UNITS, bit};
use super::grid::Grid;
use super::step::{Mark, Step};
use super::technique::Technique;

/// The first fish of `size` lines (2, 3 or 4) that eliminates something:
/// rows as the base first, then columns.
pub fn fish(grid: &Grid, size: u32) -> Option<Step> {
    let technique = match size {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    for digit in 1..=9 {
        for (base, cover) in [(ROWS, COLUMNS), (COLUMNS, ROWS)] {
            if let Some(step) = fish_on(grid, digit, size, base, cover, technique) {
                return Some(step);
            }
        }
    }
    None
}

fn fish_on(
    grid: &Grid,
    digit: u8,
    size: u32,
    base: std::ops::Range<usize>,
    cover: std::ops::Range<usize>,
    technique: Technique,
) -> Option<Step> {
    let places = grid.cells_with(digit);
    let lines: Vec<usize> = base
        .filter(|&line| (2..=size).contains(&places.and(UNITS[line]).len()))
        .collect();
    let cover_lines: Vec<usize> = cover.collect();
    for choice in 0u16..1 << lines.len() {
        if choice.count_ones() != size {
            continue;
        }
        let chosen: Vec<usize> = (0..lines.len())
            .filter(|i| choice >> i & 1 != 0)
            .map(|i| lines[i])
            .collect();
        let body = chosen
            .iter()
            .fold(Cells::EMPTY, |set, &line| set.or(places.and(UNITS[line])));
        let covers: Vec<usize> = cover_lines
            .iter()
            .copied()
            .filter(|&line| !body.and(UNITS[line]).is_empty())
            .collect();
        if covers.len() != size as usize {
            continue;
        }
        let covered = covers
            .iter()
            .fold(Cells::EMPTY, |set, &line| set.or(UNITS[line]));
        let removed = places.and(covered).minus(body);
        if removed.is_empty() {
            continue;
        }
        let mut step = Step::new(technique);
        step.pattern = body.iter().map(|cell| Mark::new(cell, digit)).collect();
        step.eliminations = removed.iter().map(|cell| Mark::new(cell, digit)).collect();
        step.units = chosen.into_iter().chain(covers).collect();
        step.digits = bit(digit);
        return Some(step);
    }
    None
}
