//! Climbing to the top of the scale: a best-first search through
//! neighbouring puzzles, for ratings that random puzzles almost never
//! reach.
//!
//! About one random minimal puzzle in three hundred rates 9.0 or more,
//! and in 240 s of attempts none rated above 9.3. Puzzles rated 10 and 11
//! are islands: even the {-1+1} neighbours of a puzzle rated 11.4 mostly
//! rate 9.x. The forum reaches them by neighbourhood search from hard
//! seeds, over days. This search does it from a random puzzle:
//!
//! 1. the attempt's random minimal puzzle (with the symmetry asked for)
//!    starts a queue ordered by [`hardness`], the cheap measure that
//!    stands in for the grade;
//! 2. the hardest-looking puzzle not yet expanded is taken from the
//!    queue, and its whole neighbourhood ([`neighbours`]: an orbit of
//!    givens out, and another in or none) is measured and queued;
//! 3. if it is minimal and looks hard enough ([`GRADE_BELOW`]), it is
//!    graded, and kept if the grade meets the request.
//!
//! Best-first, rather than a walk from neighbour to neighbour, can go back
//! to an earlier puzzle when a path leads nowhere. The queue keeps as many
//! hardest-looking puzzles as the climb can still expand (at most
//! [`QUEUE_LIMIT`]) and a table remembers which were measured, so a
//! climb's memory is fixed; it stops after
//! [`expansions`] puzzles expanded, and the request goes on with its
//! next seed. Every order is fixed, so a seed gives the same climb.

mod basics;
mod candidates;
mod hardness;
mod neighbours;

use std::collections::BTreeSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use super::{Generated, Request, ungraded};
use crate::logic::Rating;
use crate::{Board, solver};
pub use hardness::{BASICS, SOLVED_BY_BASICS, hardness};
pub use neighbours::{MAX_NEIGHBOURS, neighbours};

/// Puzzles looking at least this hard (a hardness below it) are graded.
pub const GRADE_BELOW: u32 = 600;

/// The most puzzles expanded in one climb to a target below
/// [`LONG_CLIMB_FROM`]: a climb to 10.0 that has not found one in 250
/// seldom does later, and a fresh seed is likelier to.
pub const EXPANSIONS: usize = 250;

/// Targets with a floor this high or higher climb longer: puzzles rated
/// 11 lie far past where a climb first reaches 10.
pub const LONG_CLIMB_FROM: Rating = Rating(105);

/// The most puzzles expanded in one climb to a target rated
/// [`LONG_CLIMB_FROM`] or more: with it, one climb in eight to 11.0 found
/// a puzzle (docs/generation.md).
pub const LONG_EXPANSIONS: usize = 3_000;

/// The most puzzles any climb's queue keeps, the hardest-looking first.
/// A climb keeps no more than it can still expand, so none it drops
/// would have been.
pub const QUEUE_LIMIT: usize = LONG_EXPANSIONS;

/// Slots of the table of measured puzzles (one `u64` each, 1 MiB).
const SEEN_SLOTS: usize = 1 << 17;

/// The most a climb holds besides the grade it runs, as a bound: the
/// table of measured puzzles, the queue (at 160 bytes an entry with the
/// B-tree's nodes, counting a neighbourhood more than its limit),
/// one neighbourhood and the solutions listed. About 2.0 MB (1.95 MiB).
pub const MEMORY_BYTES: usize = SEEN_SLOTS * 8
    + (QUEUE_LIMIT + MAX_NEIGHBOURS) * 160
    + MAX_NEIGHBOURS * 81
    + neighbours::SOLUTION_LIMIT * 81;

/// The puzzle a climb from the attempt `seed` reaches for `request`, if it
/// reaches one that meets it within [`expansions`]. Each grade stops
/// after `grade_time`; the climb stops once `should_stop` says so.
pub fn climb(
    request: &Request,
    seed: u64,
    grade_time: Option<Duration>,
    should_stop: &dyn Fn() -> bool,
) -> Option<Generated> {
    let (start, _) = ungraded(request, seed);
    let orbits = request.symmetry.orbit_masks();
    let expansions = expansions(request);
    let mut queue = Queue::with_limit(expansions);
    let mut seen = Seen::new();
    seen.insert(start.cells());
    queue.offer(*start.cells(), should_stop)?;
    for _ in 0..expansions {
        let (looks, puzzle) = queue.puzzles.pop_first()?;
        let around = neighbours(&puzzle, orbits, should_stop)?;
        if around.minimal
            && looks < GRADE_BELOW
            && let Some(made) = graded(request, &puzzle, seed, grade_time, should_stop)
        {
            return Some(made);
        }
        for next in around.puzzles {
            if seen.insert(&next) {
                queue.offer(next, should_stop)?;
            }
        }
        if should_stop() {
            return None;
        }
    }
    None
}

/// The most puzzles a climb to `request` expands: [`EXPANSIONS`], or
/// [`LONG_EXPANSIONS`] for a target rated [`LONG_CLIMB_FROM`] or more.
pub fn expansions(request: &Request) -> usize {
    if request.floor() >= LONG_CLIMB_FROM {
        LONG_EXPANSIONS
    } else {
        EXPANSIONS
    }
}

/// The puzzles waiting to be expanded, with their measures, the
/// hardest-looking first; at most `limit`.
struct Queue {
    puzzles: BTreeSet<(u32, [u8; 81])>,
    limit: usize,
}

impl Queue {
    /// An empty queue that keeps `limit` puzzles, at most [`QUEUE_LIMIT`].
    fn with_limit(limit: usize) -> Queue {
        Queue {
            puzzles: BTreeSet::new(),
            limit: limit.min(QUEUE_LIMIT),
        }
    }

    /// Measures `puzzle` and keeps it if the queue has room or it looks
    /// harder than the last kept (which then goes); `None` when
    /// `should_stop` says stop.
    fn offer(&mut self, puzzle: [u8; 81], should_stop: &dyn Fn() -> bool) -> Option<()> {
        let full = self.puzzles.len() >= self.limit;
        // A full queue drops whatever measures its last or more.
        let bound = match self.puzzles.last() {
            Some(&(last, _)) if full => last,
            _ => SOLVED_BY_BASICS,
        };
        let board = Board::from_cells(puzzle).expect("digits of a solution");
        let looks = hardness(&board, bound, should_stop)?;
        if !full || looks < bound {
            self.puzzles.insert((looks, puzzle));
            if self.puzzles.len() > self.limit {
                self.puzzles.pop_last();
            }
        }
        Some(())
    }
}

/// `puzzle` with its grade, if the grade meets `request`.
fn graded(
    request: &Request,
    puzzle: &[u8; 81],
    seed: u64,
    grade_time: Option<Duration>,
    should_stop: &dyn Fn() -> bool,
) -> Option<Generated> {
    let puzzle = Board::from_cells(*puzzle).expect("digits of a solution");
    let grade = super::grade_meeting(request, &puzzle, grade_time, should_stop)?;
    let solution = solver::first_solution(&puzzle).expect("a puzzle with one solution");
    Some(Generated {
        puzzle,
        solution,
        grade: Some(grade),
        seed,
    })
}

/// Which puzzles a climb has measured: a hash per slot, so that a puzzle
/// whose slot another took since is measured again (the cost of a fixed
/// size), and none is skipped unmeasured.
struct Seen(Vec<u64>);

impl Seen {
    fn new() -> Seen {
        Seen(vec![0; SEEN_SLOTS])
    }

    /// Notes `puzzle`; false when it was noted already.
    fn insert(&mut self, puzzle: &[u8; 81]) -> bool {
        let mut hasher = DefaultHasher::new();
        puzzle.hash(&mut hasher);
        let hash = hasher.finish() | 1;
        let slot = &mut self.0[hash as usize % SEEN_SLOTS];
        let new = *slot != hash;
        *slot = hash;
        new
    }
}

#[cfg(test)]
mod tests;
