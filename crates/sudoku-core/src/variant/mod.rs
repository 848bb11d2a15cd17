//! Variant Sudoku: grids from 4×4 to 25×25, jigsaw regions, and the
//! constraints setters add (killer cages, thermometers, arrows, kropki
//! dots, XV, the chess rules …), alone or together.
//!
//! A puzzle arrives as a [`VariantPuzzle`], checked once when it is made
//! ([`puzzle`]); [`fpuzzles`] reads one from f-puzzles JSON or links.
//! [`solve_variant`] certifies it (one solution, several with two of them,
//! or none) and [`true_candidates`] finds, cell by cell, the digits that
//! appear in some solution.
//!
//! Each constraint kind lives in a file of its own under [`constraints`]
//! and says what it means to a model builder: cells that differ, a relation
//! between two cells, a weighted sum, a cage's digit sets. The search runs
//! on the compiled model and knows no kinds, so a new kind adds no case to
//! it. A classic 9×9 puzzle with no constraint goes to the classic solver,
//! which is several times faster than the general one.

mod compile;
pub mod constraints;
mod error;
pub mod fpuzzles;
pub mod generate;
mod geometry;
mod model;
mod puzzle;
mod search;
#[cfg(test)]
mod tests;

pub use constraints::Constraint;
pub use error::{Place, VariantError};
pub use geometry::{CellName, MAX_SIZE, Shape, char_digit, digit_char, digits_line};
pub use puzzle::{PuzzleParts, VariantPuzzle};

use compile::{compile, compile_rules};
use search::{Searcher, digits_of};

use crate::{Board, Outcome, Stopped, solver};

/// The answer to one variant puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantReport {
    /// [`Outcome::Solved`], [`Outcome::MultipleSolutions`] or
    /// [`Outcome::NoSolution`].
    pub outcome: Outcome,
    /// No solution, the one, or two of several; digits one a cell.
    pub solutions: Vec<Vec<u8>>,
    /// Branching decisions the search made.
    pub guesses: u64,
}

/// Certifies a puzzle: searches for up to two solutions.
///
/// `should_stop` is polled every few dozen branching decisions; once it
/// says so the search stops with [`Stopped`].
pub fn solve_variant(
    puzzle: &VariantPuzzle,
    should_stop: impl Fn() -> bool,
) -> Result<VariantReport, Stopped> {
    if puzzle.is_classic() {
        return solve_classic(puzzle, &should_stop);
    }
    let model = compile(puzzle);
    let mut searcher = Searcher::new(&model, should_stop);
    let solutions = match searcher.root() {
        Some(root) => searcher.solutions(root, 2)?,
        None => Vec::new(),
    };
    Ok(VariantReport {
        outcome: Outcome::of_solution_count(solutions.len()),
        solutions,
        guesses: searcher.guesses(),
    })
}

/// True when `digits` (one a cell, row-major) are a solution of `puzzle`:
/// every cell holds a digit of the grid, the givens stand, and every row,
/// column, region and constraint holds. A client checks a server's
/// answers with it.
pub fn keeps_rules(puzzle: &VariantPuzzle, digits: &[u8]) -> bool {
    let size = puzzle.shape().size();
    digits.len() == puzzle.shape().cell_count()
        && digits
            .iter()
            .all(|&digit| (1..=size).contains(&usize::from(digit)))
        && compile_rules(puzzle).accepts(digits)
}

/// A classic puzzle, by the classic solver.
fn solve_classic(
    puzzle: &VariantPuzzle,
    should_stop: &impl Fn() -> bool,
) -> Result<VariantReport, Stopped> {
    let cells: [u8; 81] = puzzle
        .givens()
        .try_into()
        .expect("a classic grid has 81 cells");
    let board = Board::from_cells(cells).expect("givens are digits 0 to 9");
    let report = solver::solve(&board, should_stop)?;
    let mut solutions: Vec<Board> = report.solution.into_iter().collect();
    if report.outcome == Outcome::MultipleSolutions {
        // The search found two and kept the first; listing them repeats
        // the same search, which has just finished within the budget.
        solutions.clear();
        solver::list_solutions(&board, 2, &mut solutions);
    }
    Ok(VariantReport {
        outcome: report.outcome,
        solutions: solutions
            .iter()
            .map(|board| board.cells().to_vec())
            .collect(),
        guesses: report.stats.guesses,
    })
}

/// The true candidates of a puzzle: for each cell, the digits that stand
/// there in at least one solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrueCandidates {
    /// For each cell, the digits seen in a solution (bit `d` for digit `d`).
    pub possible: Vec<u32>,
    /// For each cell, the digits not yet settled when the cap was reached:
    /// neither seen in a solution nor proved impossible. Empty masks
    /// unless [`TrueCandidates::cap_reached`].
    pub undecided: Vec<u32>,
    /// Solutions the search found on the way.
    pub solutions_found: usize,
    /// True when the search stopped at the cap with digits undecided.
    pub cap_reached: bool,
    /// Branching decisions made.
    pub guesses: u64,
}

impl TrueCandidates {
    /// What the candidates say of the puzzle's solutions, when they are
    /// settled: none, one (every cell has one digit) or several.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.cap_reached {
            return (self.solutions_found > 1).then_some(Outcome::MultipleSolutions);
        }
        Some(match self.solutions_found {
            0 => Outcome::NoSolution,
            _ if self.possible.iter().all(|m| m.count_ones() == 1) => Outcome::Solved,
            _ => Outcome::MultipleSolutions,
        })
    }
}

/// Finds the true candidates, exploring at most `cap` solutions.
///
/// It finds a solution, then for each digit no solution so far has shown,
/// searches for a solution with that digit in that cell: either it finds
/// one (which settles that digit and usually many others) or proves there
/// is none (and strikes the digit for the searches after). Each search
/// that finds a solution counts against `cap`; once `cap` solutions have
/// been found the digits left unsettled are reported as undecided. A
/// puzzle never needs more searches than it has candidates.
pub fn true_candidates(
    puzzle: &VariantPuzzle,
    cap: usize,
    should_stop: impl Fn() -> bool,
) -> Result<TrueCandidates, Stopped> {
    let model = compile(puzzle);
    let cells = puzzle.shape().cell_count();
    let mut searcher = Searcher::new(&model, should_stop);
    searcher.branch_on_fewest();
    let mut result = TrueCandidates {
        possible: vec![0; cells],
        undecided: vec![0; cells],
        solutions_found: 0,
        cap_reached: false,
        guesses: 0,
    };
    let Some(mut root) = searcher.root() else {
        return Ok(result);
    };
    'cells: for cell in 0..cells {
        while let Some(digit) = digits_of(root[cell] & !result.possible[cell]).next() {
            let digit = 1 << digit;
            if result.solutions_found >= cap {
                result.cap_reached = true;
                result.undecided[cell] = root[cell] & !result.possible[cell];
                break;
            }
            // Each forced search polls the stop check as it branches; one
            // that propagation settles alone does not branch.
            if searcher.stop_requested() {
                return Err(Stopped {
                    guesses: searcher.guesses(),
                });
            }
            let forced = searcher.narrowed(root.clone(), cell, digit);
            let solution = match forced {
                Some(masks) => searcher.solutions(masks, 1)?.pop(),
                None => None,
            };
            match solution {
                Some(digits) => {
                    result.solutions_found += 1;
                    for (possible, digit) in result.possible.iter_mut().zip(digits) {
                        *possible |= 1 << digit;
                    }
                }
                None => match searcher.narrowed(root, cell, !digit) {
                    Some(narrowed) => root = narrowed,
                    // Only when no solution is left at all.
                    None => break 'cells,
                },
            }
        }
    }
    result.guesses = searcher.guesses();
    Ok(result)
}
