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
//!    givens and easier puzzles;
//! 3. graded by the logical solver, and kept if the grade meets the
//!    target.
//!
//! A request runs attempts on the seeds `seed`, `next_seed(seed)`, ... and
//! keeps those that meet its target, each reported with its own seed: an
//! attempt depends on its seed alone, so a request with that seed and a
//! count of one makes the same puzzle first. A new version of this
//! module may change the puzzles a seed gives.

mod random;
mod symmetry;

pub use random::next_seed;
pub use symmetry::Symmetry;

use random::Random;

use super::logic::{self, Grade, Level, Rating};
use super::{Board, Outcome, solve_board};

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
}

impl Request {
    /// True when `grade` meets the level and the rating bounds.
    pub fn accepts(&self, grade: &Grade) -> bool {
        grade.stalled.is_none()
            && self.level.is_none_or(|level| grade.level() == level)
            && self.min_rating.is_none_or(|min| grade.rating >= min)
            && self.max_rating.is_none_or(|max| grade.rating <= max)
    }
}

/// A generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The givens.
    pub puzzle: Board,
    /// Its one solution.
    pub solution: Board,
    /// How hard it is for a person.
    pub grade: Grade,
    /// The seed of the attempt that made it.
    pub seed: u64,
}

/// One attempt: the puzzle `seed` makes for `request`, if its grade
/// meets the target.
pub fn attempt(request: &Request, seed: u64) -> Option<Generated> {
    let mut random = Random::new(seed);
    let solution = random_solution(&mut random);
    let puzzle = empty_cells(&solution, request, &mut random);
    let grade = logic::grade(&puzzle);
    request.accepts(&grade).then_some(Generated {
        puzzle,
        solution,
        grade,
        seed,
    })
}

/// The first puzzle that meets `request`, trying the seeds from `seed` on
/// until `give_up` says stop: the puzzle, or how many attempts failed.
pub fn generate(
    request: &Request,
    mut seed: u64,
    give_up: &dyn Fn(u64) -> bool,
) -> Result<Generated, u64> {
    let mut attempts = 0;
    loop {
        if let Some(generated) = attempt(request, seed) {
            return Ok(generated);
        }
        attempts += 1;
        if give_up(attempts) {
            return Err(attempts);
        }
        seed = next_seed(seed);
    }
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
    solve_board(&start, None, || false)
        .ok()
        .and_then(|report| report.solution)
        .expect("three diagonal boxes always complete to a grid")
}

/// Orbits that may fail to go before emptying stops, for a puzzle that
/// need not be minimal.
pub const FAILURES_ALLOWED: usize = 3;

/// `solution` with orbits emptied while it keeps one solution.
fn empty_cells(solution: &Board, request: &Request, random: &mut Random) -> Board {
    let mut orbits = request.symmetry.orbits();
    random.shuffle(&mut orbits);
    let mut cells = *solution.cells();
    let mut failures = 0;
    for orbit in orbits {
        for &cell in &orbit {
            cells[cell] = 0;
        }
        if !has_one_solution(&cells) {
            for &cell in &orbit {
                cells[cell] = solution.cells()[cell];
            }
            failures += 1;
            if !request.minimal && failures == FAILURES_ALLOWED {
                break;
            }
        }
    }
    Board::from_cells(cells).expect("digits of a solution")
}

fn has_one_solution(cells: &[u8; 81]) -> bool {
    let board = Board::from_cells(*cells).expect("digits of a solution");
    solve_board(&board, None, || false).is_ok_and(|report| report.outcome == Outcome::Solved)
}

#[cfg(test)]
mod tests;
