//! Generation: puzzles with exactly one solution, with the symmetry and
//! difficulty asked for, reproducible from a seed.
//!
//! One *attempt* turns a seed into a puzzle:
//!
//! 1. a random solved grid: the three boxes on the diagonal, which share
//!    no row or column, filled with random orders of 1-9, and the rest
//!    completed by the solver;
//! 2. its cells emptied orbit by orbit (the cells the symmetry maps onto
//!    one another, see [`Symmetry`]), in a random order, each orbit left
//!    empty only while the certifying solver still finds one solution. One
//!    pass over every orbit leaves a *minimal* puzzle: an orbit that could
//!    not go then cannot go later, since emptying more cells only adds
//!    solutions. Without `minimal`, emptying stops once
//!    [`FAILURES_ALLOWED`] orbits could not go, which leaves a few more
//!    givens and easier puzzles. Two shortcuts make the same puzzles with
//!    fewer solves: the first half of the orbits are tried together (then
//!    by halves if that fails), and an orbit whose emptying would leave a
//!    small unavoidable set of the grid without a given (see
//!    [`unavoidable`]) is kept without a solve;
//! 3. graded by the logical solver, and kept if the grade meets the
//!    target (not stalled, and within the level and rating bounds); or,
//!    when the request sets `skip_grade`, kept ungraded. Grading stops at
//!    the first step rated above the target's ceiling, if it has one.
//!
//! A request runs attempts on the seeds `seed`, `next_seed(seed)`, ... and
//! keeps those that meet its target, each reported with its own seed: an
//! attempt depends on its seed alone, so a request with that seed and a
//! count of one makes the same puzzle first. A new version of this
//! module may change the puzzles a seed gives.

pub mod climb;
pub(crate) mod random;
mod symmetry;
mod unavoidable;

pub use random::{clock_seed, next_seed};
pub use symmetry::Symmetry;

use std::time::Duration;

use random::Random;
use unavoidable::UnavoidableSets;

use super::graded::Budget;
use super::logic::{self, Grade, Level, Rating};
use super::{Board, Outcome, solver};

/// What a request asks of each puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Request {
    /// The symmetry of the givens.
    pub symmetry: Symmetry,
    /// No given may be removable (keeping the symmetry) without a second
    /// solution.
    pub minimal: bool,
    /// The level, if one is asked for.
    pub level: Option<Level>,
    /// The lowest rating accepted, if any.
    pub min_rating: Option<Rating>,
    /// The highest rating accepted, if any.
    pub max_rating: Option<Rating>,
    /// Make the puzzles without grading them, which is most of the cost
    /// of a minimal puzzle: only for a request with no level or rating
    /// bound, since the grade is what meets those.
    pub skip_grade: bool,
}

/// Why a request's target cannot be met by any puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// The lowest rating is above the highest.
    #[error("min_rating {min} is above max_rating {max}")]
    MinAboveMax {
        /// The lowest rating asked for.
        min: Rating,
        /// The highest.
        max: Rating,
    },
    /// The highest rating is below every puzzle's: even the easiest step
    /// is rated 1.0.
    #[error("max_rating {max} is below 1.0, the rating of the easiest puzzle")]
    MaxBelowEasiest {
        /// The highest rating asked for.
        max: Rating,
    },
    /// The rating bounds leave no rating of the level.
    #[error("no puzzle of level {level} is rated within {min}..{max}")]
    LevelOutsideRatings {
        /// The level asked for.
        level: Level,
        /// The lowest rating asked for, or 0.0.
        min: Rating,
        /// The highest, or the top of the scale.
        max: Rating,
    },
    /// Grading is skipped, but a level or rating bound needs the grade.
    #[error("a puzzle made without a grade cannot meet a level or rating bound")]
    TargetWithoutGrade,
}

/// Which end of a rating range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The lowest rating accepted (`min_rating`).
    Min,
    /// The highest (`max_rating`).
    Max,
}

/// Why rating bounds given as numbers on the scale make no target.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum BoundError {
    /// A bound below 0 or above 20 (or not a number).
    #[error("{value} is off Sudoku Explainer's scale (0 to 20)")]
    OffScale {
        /// Which bound.
        bound: Bound,
        /// Its value.
        value: f64,
    },
    /// The lowest rating is above the highest.
    #[error("min_rating {min:?} is above max_rating {max:?}")]
    MinAboveMax {
        /// The lowest rating asked for.
        min: f64,
        /// The highest.
        max: f64,
    },
    /// The highest rating is below every puzzle's: even the easiest step
    /// is rated 1.0.
    #[error("{max:?} is below 1.0, the rating of the easiest puzzle")]
    MaxBelowEasiest {
        /// The highest rating asked for.
        max: f64,
    },
    /// The bounds are in order but hold no tenth, the step ratings come in.
    #[error("no rating lies within {min:?}..{max:?}: ratings come in tenths (1.4, 1.5, ...)")]
    NoTenthWithin {
        /// The lowest rating asked for.
        min: f64,
        /// The highest.
        max: f64,
    },
}

/// The [`Request`] bounds that numbers on the scale ask for: the lowest
/// rating at or above `min`, the highest at or below `max` (ratings come in
/// tenths, so 1.45..1.55 is 1.5..1.5). `None` is no bound.
pub fn rating_bounds(
    min: Option<f64>,
    max: Option<f64>,
) -> Result<(Option<Rating>, Option<Rating>), BoundError> {
    for (bound, value) in [(Bound::Min, min), (Bound::Max, max)] {
        if let Some(value) = value
            && !(0.0..=20.0).contains(&value)
        {
            return Err(BoundError::OffScale { bound, value });
        }
    }
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        return Err(BoundError::MinAboveMax { min, max });
    }
    if let Some(max) = max
        && Rating::at_most(max) < EASIEST_RATING
    {
        return Err(BoundError::MaxBelowEasiest { max });
    }
    let (low, high) = (min.map(Rating::at_least), max.map(Rating::at_most));
    if let (Some(min), Some(max), Some(low), Some(high)) = (min, max, low, high)
        && low > high
    {
        return Err(BoundError::NoTenthWithin { min, max });
    }
    Ok((low, high))
}

/// The lowest target floor that climbs rather than tries random puzzles:
/// above 9.1, random attempts take seconds to minutes per puzzle.
pub const CLIMB_FROM: Rating = Rating(92);

/// The top of Sudoku Explainer's scale, as a bound.
const TOP_RATING: Rating = Rating(200);

/// The rating of the easiest step there is, a full house: no puzzle is
/// rated lower.
const EASIEST_RATING: Rating = Rating(10);

impl Request {
    /// Whether some puzzle could meet the target: the rating bounds in
    /// order, the ceiling at 1.0 or above, and the bounds overlapping the
    /// level's ratings.
    pub fn check(&self) -> Result<(), RequestError> {
        let has_target =
            self.level.is_some() || self.min_rating.is_some() || self.max_rating.is_some();
        if self.skip_grade && has_target {
            return Err(RequestError::TargetWithoutGrade);
        }
        let min = self.min_rating.unwrap_or(Rating(0));
        let max = self.max_rating.unwrap_or(TOP_RATING);
        if min > max {
            return Err(RequestError::MinAboveMax { min, max });
        }
        if max < EASIEST_RATING {
            return Err(RequestError::MaxBelowEasiest { max });
        }
        if let Some(level) = self.level {
            let (low, high) = level.ratings();
            if max < low || min > high {
                return Err(RequestError::LevelOutsideRatings { level, min, max });
            }
        }
        Ok(())
    }

    /// True when the target is hard puzzles (rated 2.5 and up), which
    /// emptying every orbit it can, as for a minimal puzzle, finds far
    /// more often than stopping early.
    fn wants_hard(&self) -> bool {
        self.floor() >= Rating(25)
    }

    /// True when the target is rated [`CLIMB_FROM`] or more, which random
    /// puzzles almost never reach: such a request climbs (see [`climb`]).
    pub fn wants_climb(&self) -> bool {
        !self.skip_grade && self.floor() >= CLIMB_FROM
    }

    /// The lowest rating the level and `min_rating` accept.
    fn floor(&self) -> Rating {
        let level_floor = self.level.map_or(Rating(0), |level| level.ratings().0);
        level_floor.max(self.min_rating.unwrap_or(Rating(0)))
    }

    /// The highest rating the level and `max_rating` accept, if either
    /// sets one (every level but diabolical does).
    fn ceiling(&self) -> Option<Rating> {
        let level_top = self
            .level
            .map(|level| level.ratings().1)
            .filter(|&top| top < TOP_RATING);
        match (level_top, self.max_rating) {
            (Some(top), Some(max)) => Some(top.min(max)),
            (top, max) => top.or(max),
        }
    }

    /// True when `grade` meets the level and the rating bounds.
    pub fn accepts(&self, grade: &Grade) -> bool {
        grade.stalled.is_none() && self.accepts_rating(grade.rating)
    }

    /// True when `rating` meets the level and the rating bounds.
    pub fn accepts_rating(&self, rating: Rating) -> bool {
        self.level.is_none_or(|level| rating.level() == level)
            && self.min_rating.is_none_or(|min| rating >= min)
            && self.max_rating.is_none_or(|max| rating <= max)
    }
}

/// A generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The givens.
    pub puzzle: Board,
    /// Its one solution.
    pub solution: Board,
    /// How hard it is for a person; `None` when the request skipped
    /// grading.
    pub grade: Option<Grade>,
    /// The seed of the attempt that made it.
    pub seed: u64,
}

/// One attempt: the puzzle `seed` makes for `request`, if its grade
/// meets the target (always, when the request skips grading).
pub fn attempt(request: &Request, seed: u64) -> Option<Generated> {
    attempt_until(request, seed, None, &|| false)
}

/// [`attempt`], whose grading stops (and the attempt fails) once
/// `should_stop` says so, or once it has taken `grade_time`: a puzzle
/// whose grade does not finish in time is dropped, like one the grader
/// cannot finish.
pub fn attempt_until(
    request: &Request,
    seed: u64,
    grade_time: Option<Duration>,
    should_stop: &dyn Fn() -> bool,
) -> Option<Generated> {
    if request.wants_climb() {
        return climb::climb(request, seed, grade_time, should_stop);
    }
    let (puzzle, solution) = ungraded(request, seed);
    let grade = if request.skip_grade {
        None
    } else {
        Some(grade_meeting(request, &puzzle, grade_time, should_stop)?)
    };
    Some(Generated {
        puzzle,
        solution,
        grade,
        seed,
    })
}

/// The grade of `puzzle` if it meets `request`: graded within
/// `grade_time`, and only up to the target's ceiling, if it has one.
fn grade_meeting(
    request: &Request,
    puzzle: &Board,
    grade_time: Option<Duration>,
    should_stop: &dyn Fn() -> bool,
) -> Option<Grade> {
    let budget = Budget::starting_now(grade_time, should_stop);
    let should_stop = &|| budget.should_stop();
    let grade = match request.ceiling() {
        // Passing the ceiling settles it: the puzzle is off the target.
        Some(ceiling) => logic::grade_within(puzzle, ceiling, should_stop)?,
        None => logic::grade_until(puzzle, should_stop, &|| Duration::ZERO),
    };
    request.accepts(&grade).then_some(grade)
}

/// The puzzle and solution an attempt on `seed` makes for `request`,
/// before grading: unique, with the symmetry, minimal if asked.
pub fn ungraded(request: &Request, seed: u64) -> (Board, Board) {
    let mut random = Random::new(seed);
    let solution = random_solution(&mut random);
    let puzzle = empty_cells(&solution, request, &mut random);
    (puzzle, solution)
}

/// The most attempts one job of a request takes (see [`Seeds`]).
pub const MAX_ATTEMPTS_PER_JOB: usize = 16;

/// The seeds a request tries, cut into jobs: the first job takes one
/// attempt, and each next one twice as many, up to
/// [`MAX_ATTEMPTS_PER_JOB`], so that a request for one puzzle of a common
/// level wastes little work while a long one spends little on hand-offs.
/// A climbing request takes one attempt a job: each climb takes seconds,
/// and a job of several would hold a puzzle found by its first climb back
/// until the others had run.
#[derive(Debug, Clone)]
pub struct Seeds {
    next: u64,
    per_job: usize,
    most_per_job: usize,
}

impl Seeds {
    /// The seeds `request` tries from `seed` on.
    pub fn new(request: &Request, seed: u64) -> Seeds {
        Seeds {
            next: seed,
            per_job: 1,
            most_per_job: if request.wants_climb() {
                1
            } else {
                MAX_ATTEMPTS_PER_JOB
            },
        }
    }

    /// The seeds of the next job.
    pub fn next_job(&mut self) -> Vec<u64> {
        let mut seeds = Vec::with_capacity(self.per_job);
        for _ in 0..self.per_job {
            seeds.push(self.next);
            self.next = next_seed(self.next);
        }
        self.per_job = (self.per_job * 2).min(self.most_per_job);
        seeds
    }
}

/// Attempts on each of `seeds` in turn, each graded within `grade_time`
/// ([`attempt_until`]), until `should_stop` says stop: one entry per
/// attempt finished, in seed order (an attempt cut short is left out, so
/// every entry is what its seed makes, or missed its grading time).
pub fn attempt_each(
    request: &Request,
    seeds: &[u64],
    grade_time: Option<Duration>,
    should_stop: &dyn Fn() -> bool,
) -> Vec<Option<Generated>> {
    let mut made = Vec::with_capacity(seeds.len());
    for &seed in seeds {
        let found = attempt_until(request, seed, grade_time, should_stop);
        if should_stop() {
            break;
        }
        made.push(found);
    }
    made
}

/// A random solved grid.
fn random_solution(random: &mut Random) -> Board {
    let mut cells = [0u8; 81];
    for diagonal_box in 0..3 {
        let mut digits: Vec<u8> = (1..=9).collect();
        random.shuffle(&mut digits);
        for (index, digit) in digits.into_iter().enumerate() {
            let row = diagonal_box * 3 + index / 3;
            let column = diagonal_box * 3 + index % 3;
            cells[row * 9 + column] = digit;
        }
    }
    let start = Board::from_cells(cells).expect("digits 1-9");
    solver::first_solution(&start).expect("three diagonal boxes always complete to a grid")
}

/// Orbits that may fail to go before emptying stops, for a puzzle that
/// need not be minimal.
pub const FAILURES_ALLOWED: usize = 3;

/// `solution` with orbits emptied while it keeps one solution.
fn empty_cells(solution: &Board, request: &Request, random: &mut Random) -> Board {
    let mut orbits = request.symmetry.orbit_masks().to_vec();
    random.shuffle(&mut orbits);
    let mut puzzle = Emptying::new(solution, request);
    // The first half of the orbits almost always go, and go together;
    // later ones mostly stay, and are tried one at a time.
    let (first, rest) = orbits.split_at(orbits.len() / 2);
    puzzle.empty_halving(first);
    for &orbit in rest {
        puzzle.empty(orbit);
    }
    Board::from_cells(puzzle.cells).expect("digits of a solution")
}

/// A puzzle being emptied from its solution, orbit by orbit, in the order
/// given: each orbit is emptied if the puzzle keeps one solution without
/// it, and kept otherwise.
struct Emptying {
    /// The solution's small unavoidable sets: a set left without a given
    /// is a second solution found without the solver.
    unavoidable: UnavoidableSets,
    cells: [u8; 81],
    /// The cells that still hold their given, bit `cell`.
    givens: u128,
    /// How many more orbits may fail to go before emptying stops.
    failures_allowed: usize,
}

impl Emptying {
    /// `solution`, to be emptied for `request`.
    fn new(solution: &Board, request: &Request) -> Emptying {
        let stop_early = !request.minimal && !request.wants_hard();
        Emptying {
            unavoidable: UnavoidableSets::of(solution),
            cells: *solution.cells(),
            givens: (1 << 81) - 1,
            failures_allowed: if stop_early {
                FAILURES_ALLOWED
            } else {
                usize::MAX
            },
        }
    }

    /// Empties `orbit` if the puzzle keeps one solution without it.
    fn empty(&mut self, orbit: u128) {
        if self.failures_allowed > 0 && !self.try_empty(orbit) {
            self.failures_allowed -= 1;
        }
    }

    /// Empties `orbits` in turn, as [`Emptying::empty`] does one by one,
    /// with fewer solves: all at once first, and if the puzzle then has a
    /// second solution, each half in the same way. Emptying them all at
    /// once keeps one solution only if every step of emptying them one by
    /// one does (each has more givens), so the puzzle is the same.
    fn empty_halving(&mut self, orbits: &[u128]) {
        match orbits {
            [] => {}
            [orbit] => self.empty(*orbit),
            _ => {
                let cells = orbits.iter().fold(0, |cells, orbit| cells | orbit);
                if self.failures_allowed == 0 || !self.try_empty(cells) {
                    let (left, right) = orbits.split_at(orbits.len() / 2);
                    self.empty_halving(left);
                    self.empty_halving(right);
                }
            }
        }
    }

    /// Empties the cells of `mask` if the puzzle keeps one solution
    /// without them, and says whether it did.
    fn try_empty(&mut self, mask: u128) -> bool {
        let givens = self.givens & !mask;
        if !self.unavoidable.all_hit(givens) {
            return false;
        }
        let mut emptied = self.cells;
        let mut left = mask;
        while left != 0 {
            emptied[left.trailing_zeros() as usize] = 0;
            left &= left - 1;
        }
        if !has_one_solution(&emptied) {
            return false;
        }
        self.cells = emptied;
        self.givens = givens;
        true
    }
}

/// True when no orbit of `symmetry` that holds givens can be emptied
/// without a second solution (for a puzzle with one solution).
pub fn is_minimal(puzzle: &Board, symmetry: Symmetry) -> bool {
    symmetry.orbits().iter().all(|orbit| {
        let mut cells = *puzzle.cells();
        if orbit.iter().all(|&cell| cells[cell] == 0) {
            return true;
        }
        for &cell in orbit {
            cells[cell] = 0;
        }
        !has_one_solution(&cells)
    })
}

fn has_one_solution(cells: &[u8; 81]) -> bool {
    let board = Board::from_cells(*cells).expect("digits of a solution");
    solver::solve(&board, || false).is_ok_and(|report| report.outcome == Outcome::Solved)
}

#[cfg(test)]
mod tests;
