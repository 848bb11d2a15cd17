//! How hard a puzzle looks, in a millisecond: the climb's compass.
//!
//! Grading a puzzle rated 9 or more takes tens to hundreds of
//! milliseconds, too slow to weigh the hundreds of neighbours of every
//! puzzle the climb visits. This measure stands in for it. It works the
//! puzzle with the grader's basic techniques (those rated up to
//! [`BASICS`]) until they run out (in bulk, on bitboards: [`basics`],
//! which ends where the grader's own walk does and made climbs a third
//! faster),
//! then assumes each candidate left in turn and propagates singles from
//! it. On an easy puzzle assumptions
//! spread far or run into contradictions quickly: those are the dynamic
//! forcing chains of Sukaku Explainer's first level, which rate up to
//! about 9.4. On a puzzle rated 11 almost nothing follows from any one
//! assumption. So the measure is the average spread: the digits each
//! assumption places, with a contradiction counted as the whole grid.
//! Lower is harder. Worked up to 6.0, over 773 random puzzles rated
//! 9.0-9.3 it ran 11 to 45; over 200 puzzles rated 11.3-11.6 from the
//! forum's list, 0.7 to 3.1.

use super::basics;
use super::candidates::Candidates;
use crate::Board;
use crate::logic::Rating;

/// The highest rating of the basic techniques worked before measuring:
/// singles, intersections, pairs and triples, X-Wing, Swordfish, two
/// strong links, XY- and XYZ-Wing. [`basics`] works exactly these, and a
/// test holds it to the grader's walk up to this rating, so a change here
/// is a change there. Working more (up to 6.0, with the uniqueness tests and BUG)
/// measures a little better and costs more: climbs to 10.0 over 16 seeds
/// took twice the time per puzzle found.
pub const BASICS: Rating = Rating(44);

/// What a contradiction counts for: as if the assumption had filled every
/// cell.
const CONTRADICTION: u32 = 81;

/// The measure of a puzzle the basic techniques solve: the easiest.
pub const SOLVED_BY_BASICS: u32 = u32::MAX;

/// The measure, in hundredths of a placement per candidate; lower is
/// harder, and [`SOLVED_BY_BASICS`] when the basic techniques solve the
/// puzzle. A measure sure to reach `bound` stops there and is `bound`:
/// the climb passes over such puzzles, and most stop after a few dozen
/// assumptions. `None` when `should_stop` says stop first.
pub fn hardness(puzzle: &Board, bound: u32, should_stop: &dyn Fn() -> bool) -> Option<u32> {
    if should_stop() {
        return None;
    }
    let Some(start) = worked(puzzle) else {
        return Some(SOLVED_BY_BASICS);
    };
    let count = u64::from(start.count().max(1));
    // The spread at which the measure reaches the bound.
    let reach = (u64::from(bound) * count).div_ceil(100);
    let mut spread = 0u64;
    for (cell, digit) in start.each() {
        let mut assumed = start;
        spread += match assumed
            .place(cell, digit)
            .and_then(|()| assumed.propagate())
        {
            Ok(placed) => u64::from(placed),
            Err(_) => u64::from(CONTRADICTION),
        };
        if spread >= reach {
            return Some(bound);
        }
    }
    Some((spread * 100 / count) as u32)
}

/// The candidates `puzzle` leaves once the basic techniques are worked;
/// `None` when they solve it (or, for a puzzle with no solution, break
/// it: the climb never weighs one).
pub fn worked(puzzle: &Board) -> Option<Candidates> {
    let mut candidates = Candidates::of_givens(puzzle.cells())?;
    basics::work(&mut candidates).ok()?;
    (!candidates.is_full()).then_some(candidates)
}
