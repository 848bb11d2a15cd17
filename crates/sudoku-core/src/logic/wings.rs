//! XY-Wing and XYZ-Wing: a pivot cell and two wings that force a digit
//! into one of the wings.
//!
//! XY-Wing: the pivot holds {x, y}, one wing {x, z}, the other {y, z},
//! both wings seeing the pivot. Whatever the pivot takes, one wing is z,
//! so a cell seeing both wings cannot be z. XYZ-Wing is the same with the
//! pivot holding {x, y, z}, so the cell must also see the pivot.

use std::fmt::Write;

use super::bits::{Cells, PEERS, bit, digits};
use super::grid::Grid;
use super::reasoning;
use super::step::{Link, Mark, Step};
use super::technique::Technique;
use super::words::{Words, cell_list};

/// The first XY-Wing that eliminates something.
pub fn xy_wing(grid: &Grid) -> Option<Step> {
    wing(grid, 2, Technique::XYWing)
}

/// The first XYZ-Wing that eliminates something.
pub fn xyz_wing(grid: &Grid) -> Option<Step> {
    wing(grid, 3, Technique::XYZWing)
}

fn wing(grid: &Grid, pivot_size: u32, technique: Technique) -> Option<Step> {
    let mut first = None;
    wings(grid, pivot_size, technique, &mut |step| {
        first = Some(step);
        true
    });
    first
}

/// Every XY-Wing (pivot of 2 candidates) or XYZ-Wing (3) that eliminates
/// something, in search order, to `visit` until it returns true.
pub fn wings(
    grid: &Grid,
    pivot_size: u32,
    technique: Technique,
    visit: &mut dyn FnMut(Step) -> bool,
) {
    let bivalue = grid.bivalue_cells();
    for pivot in grid.blanks().iter() {
        let held = grid.marks(pivot);
        if held.count_ones() != pivot_size {
            continue;
        }
        let wings: Vec<usize> = bivalue
            .and(PEERS[pivot])
            .iter()
            .filter(|&w| grid.marks(w) & held != 0)
            .collect();
        for (i, &first) in wings.iter().enumerate() {
            for &second in &wings[i + 1..] {
                if let Some(step) = wing_step(grid, pivot, first, second, technique)
                    && visit(step)
                {
                    return;
                }
            }
        }
    }
}

/// The links of a wing: each wing's strong link from its `z` to the
/// digit it shares with the pivot, and the weak link on to the pivot.
/// The XY-Wing's pivot has two candidates, which joins the two halves
/// into one chain from one wing's `z` to the other's.
fn wing_links(grid: &Grid, pivot: usize, wings: [usize; 2], z: u8) -> Vec<Link> {
    let shared_with_pivot = |wing: usize| digits(grid.marks(wing) & !bit(z)).next().unwrap_or(z);
    let [x, y] = wings.map(shared_with_pivot);
    let half = |wing: usize, digit: u8| {
        [
            Link::strong(Mark::new(wing, z), Mark::new(wing, digit)),
            Link::weak(Mark::new(wing, digit), Mark::new(pivot, digit)),
        ]
    };
    let [first, second] = wings;
    let mut links = half(first, x).to_vec();
    if grid.marks(pivot).count_ones() == 2 {
        // (z)A=(x)A-(x)P=(y)P-(y)B=(z)B: the second half read backwards.
        links.push(Link::strong(Mark::new(pivot, x), Mark::new(pivot, y)));
        links.push(Link::weak(Mark::new(pivot, y), Mark::new(second, y)));
        links.push(Link::strong(Mark::new(second, y), Mark::new(second, z)));
    } else {
        links.extend(half(second, y));
    }
    links
}

fn wing_step(
    grid: &Grid,
    pivot: usize,
    first: usize,
    second: usize,
    technique: Technique,
) -> Option<Step> {
    let (p, a, b) = (grid.marks(pivot), grid.marks(first), grid.marks(second));
    let shared = a & b;
    if a == b || shared.count_ones() != 1 {
        return None;
    }
    let fits = match technique {
        Technique::XYWing => shared & p == 0 && (a | b) & !shared == p,
        _ => shared & p != 0 && a | b == p,
    };
    if !fits {
        return None;
    }
    let z = digits(shared).next()?;
    let mut seeing = PEERS[first].and(PEERS[second]);
    if technique == Technique::XYZWing {
        seeing = seeing.and(PEERS[pivot]);
    }
    let removed = grid.cells_with(z).and(seeing).minus(Cells::single(pivot));
    if removed.is_empty() {
        return None;
    }
    let mut step = Step::new(technique);
    step.pattern = [pivot, first, second]
        .iter()
        .flat_map(|&cell| digits(grid.marks(cell)).map(move |d| Mark::new(cell, d)))
        .collect();
    step.eliminations = removed.iter().map(|cell| Mark::new(cell, z)).collect();
    step.digits = bit(z);
    step.links = wing_links(grid, pivot, [first, second], z);
    Some(step)
}

/// How a player is told about an XY-Wing or XYZ-Wing step.
pub(super) fn explain(step: &Step, words: &Words, text: &mut String) {
    let digits = &words.digits;
    match step.technique {
        Technique::XYWing | Technique::XYZWing => {
            let wings = step
                .pattern
                .iter()
                .copied()
                .filter(|m| m.cell != step.pattern[0].cell)
                .collect::<Vec<_>>();
            let holder = match step.technique {
                Technique::XYWing => "one of the wings",
                _ => "the pivot or one of the wings",
            };
            let _ = write!(
                text,
                "whichever digit the pivot {} takes, {holder} {} holds {digits}: {}",
                cell_list(&step.pattern[..1]),
                cell_list(&wings),
                reasoning::eureka(&step.links)
            );
        }
        _ => {}
    }
}
