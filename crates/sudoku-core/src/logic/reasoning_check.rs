//! An independent check of a step's reasoning against the grid it was
//! found on: what the tests and the conformance script hold every step
//! to, so that a drawn link is never one a player could refute.
//!
//! The rules are those of the links themselves, not of any finder:
//! - a strong link joins the two digits of a cell that has no other, or
//!   two places (or groups of places) of a digit that fill a unit;
//! - a weak link joins two digits of one cell, or two places of a digit
//!   that see each other;
//! - in a forcing chain's branch, each link starts from the assumption or
//!   from what an earlier link reached, reads weak links from "on" to
//!   "off" and strong links from "off" to "on", and a strong link's
//!   target is the last candidate of its cell (the source another one of
//!   it) or the last place of its digit in a unit (the source another
//!   place there) once what the branch turned off is gone (the dynamic
//!   chains' rule, which the static chains meet on the grid as it is);
//!   inference links come only in a branch that names the techniques
//!   behind them; the branch reaches its result, or both states of it
//!   for a contradiction;
//! - witnesses are placed digits, and the step's units hold its single.

use super::bits::{Cells, PEERS, UNITS, bit};
use super::grid::Grid;
use super::step::{Link, LinkKind, Mark, Step};

/// Every way `step`'s reasoning breaks the rules on `before`, the grid it
/// was found on; empty when it keeps them.
pub fn reasoning_faults(step: &Step, before: &Grid) -> Vec<String> {
    let mut faults = Vec::new();
    for link in &step.links {
        if let Some(fault) = link_fault(link, before) {
            faults.push(format!("link {}: {fault}", describe(link)));
        }
    }
    for (number, branch) in step.branches.iter().enumerate() {
        let mut known: Vec<(Mark, bool)> = vec![(branch.assumption, branch.assumed_on)];
        if !before.has(usize::from(branch.assumption.cell), branch.assumption.digit) {
            faults.push(format!(
                "branch {}: assumes a candidate not on the grid",
                number + 1
            ));
        }
        if let Some(fault) = branch.shape_fault() {
            faults.push(format!("branch {}: {fault}", number + 1));
        }
        for link in &branch.links {
            if let Some(fault) = implication_fault(link, before, &known) {
                faults.push(format!(
                    "branch {} link {}: {fault}",
                    number + 1,
                    describe(link)
                ));
            }
            known.push((link.target, link.target_on));
        }
    }
    for witness in &step.witnesses {
        if before.value(usize::from(witness.cell)) != witness.digit {
            faults.push(format!(
                "witness {} {} is not placed",
                witness.digit,
                witness.cell()
            ));
        }
    }
    faults
}

fn describe(link: &Link) -> String {
    super::reasoning::eureka(std::slice::from_ref(link))
}

/// The cells of one end of a link: its group, or its one cell.
fn end_cells(mark: Mark, group: &[Mark]) -> Cells {
    match group {
        [] => Cells::single(usize::from(mark.cell)),
        cells => cells.iter().map(|m| usize::from(m.cell)).collect(),
    }
}

/// What is wrong with a link of a pattern, read on the grid alone.
fn link_fault(link: &Link, grid: &Grid) -> Option<String> {
    let source = end_cells(link.source, &link.source_group());
    let target = end_cells(link.target, &link.target_group());
    for (mark, cells) in [(link.source, source), (link.target, target)] {
        if cells.iter().any(|c| !grid.has(c, mark.digit)) {
            return Some("a candidate not on the grid".into());
        }
    }
    if !link.reads_as_its_kind() {
        return Some("read in the other link kind's direction".into());
    }
    match link.kind {
        LinkKind::Strong => (!is_strong(link, source, target, grid))
            .then(|| "no conjugate pair nor bivalue cell".into()),
        LinkKind::Weak => (!is_weak(link, source, target))
            .then(|| "the candidates neither share a cell nor see each other".into()),
        LinkKind::Inference => Some("an inference outside a forcing chain".into()),
    }
}

/// A strong link: one cell with no third candidate, or one digit whose
/// places in some unit all lie in the two ends.
fn is_strong(link: &Link, source: Cells, target: Cells, grid: &Grid) -> bool {
    let (a, b) = (link.source, link.target);
    if a.cell == b.cell && source.len() == 1 && target.len() == 1 {
        return a.digit != b.digit
            && grid.marks(usize::from(a.cell)) == bit(a.digit) | bit(b.digit);
    }
    // Grouped ends may share a box's centre cell: the link holds while
    // the two ends cover every place of the unit.
    let ends = source.or(target);
    a.digit == b.digit
        && source != target
        && UNITS.iter().any(|&unit| {
            ends.minus(unit).is_empty() && grid.cells_with(a.digit).and(unit).minus(ends).is_empty()
        })
}

/// A weak link: two digits of a cell, or a digit's places that see each
/// other (every cell of one end sees every cell of the other).
fn is_weak(link: &Link, source: Cells, target: Cells) -> bool {
    let (a, b) = (link.source, link.target);
    if a.cell == b.cell && source.len() == 1 && target.len() == 1 {
        return a.digit != b.digit;
    }
    a.digit == b.digit
        && source.and(target).is_empty()
        && source
            .iter()
            .all(|cell| target.minus(PEERS[cell]).is_empty())
}

/// What is wrong with a link of a forcing chain's branch on the grid,
/// given the states the branch has reached before it (its order is
/// [`super::step::Branch::shape_fault`]'s to check).
fn implication_fault(link: &Link, grid: &Grid, known: &[(Mark, bool)]) -> Option<String> {
    for mark in [link.source, link.target] {
        if !grid.has(usize::from(mark.cell), mark.digit) {
            return Some("a candidate not on the grid".into());
        }
    }
    if !link.reads_as_its_kind() {
        return Some("read in the other link kind's direction".into());
    }
    let single = |m: Mark| Cells::single(usize::from(m.cell));
    match link.kind {
        LinkKind::Weak => (!is_weak(link, single(link.source), single(link.target)))
            .then(|| "the candidates neither share a cell nor see each other".into()),
        LinkKind::Strong => (!forced_on(link.source, link.target, grid, known)).then(|| {
            "its source is not a candidate whose loss leaves the target last in its cell \
             or unit"
                .into()
        }),
        // Its sources and techniques are the branch's shape to check.
        LinkKind::Inference => None,
    }
}

/// Whether `target` is the last candidate of its cell, with `source`
/// another candidate of that cell, or the last place of its digit in a
/// unit that holds `source` as another place, once every candidate the
/// branch has turned off is gone.
fn forced_on(source: Mark, target: Mark, grid: &Grid, known: &[(Mark, bool)]) -> bool {
    let off = |cell: usize, digit: u8| known.contains(&(Mark::new(cell, digit), false));
    let cell = usize::from(target.cell);
    let from = usize::from(source.cell);
    let others = super::bits::digits(grid.marks(cell) & !bit(target.digit));
    let last_in_cell = from == cell && others.into_iter().all(|d| off(cell, d));
    let gone: Cells = grid
        .cells_with(target.digit)
        .iter()
        .filter(|&c| off(c, target.digit))
        .collect();
    let last_in_unit = source.digit == target.digit
        && super::bits::units_of(cell).iter().any(|&unit| {
            UNITS[unit].has(from)
                && grid
                    .cells_with(target.digit)
                    .and(UNITS[unit])
                    .minus(gone)
                    .minus(Cells::single(cell))
                    .is_empty()
        });
    last_in_cell || last_in_unit
}
