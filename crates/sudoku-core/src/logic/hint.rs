//! Hints: the simplest next step from a player's position, or the
//! mistake that makes any step meaningless.
//!
//! A player's position is the givens, the digits they placed, and
//! optionally their pencil marks. Placements and marks are compared with
//! the certified solution first: a wrong digit, or a crossed-out mark
//! that the solution needs, is reported instead of a step, because every
//! step from a broken position would build on the error.

use super::grid::{Grid, MarksError};
use super::ladder::simplest_step;
use super::step::{Mark, Step};
use crate::{Board, Cell};

/// What a hint says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// The simplest step from the position.
    Step(Step),
    /// A placement that is not the solution's digit (the digit placed), or
    /// a crossed-out mark the solution needs (the solution's digit).
    Mistake(Mark),
    /// The position is already solved.
    Solved,
    /// No technique applies (or the time budget ran out first).
    Stalled,
}

/// A player's position that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The progress does not keep a given.
    #[error("progress changes the given {given} at {cell}")]
    GivenChanged {
        /// The cell.
        cell: Cell,
        /// The given there.
        given: u8,
    },
    /// The marks cannot be read.
    #[error(transparent)]
    Marks(#[from] MarksError),
}

impl PositionError {
    /// The cell at fault, with the digit at fault: the given the progress
    /// changes, or the cell whose marks hold a wrong character.
    pub fn cells_at_fault(&self) -> Vec<(Cell, u8)> {
        match *self {
            PositionError::GivenChanged { cell, given } => vec![(cell, given)],
            PositionError::Marks(MarksError::Character {
                position, expected, ..
            }) => Cell::new(position / 9)
                .map(|cell| (cell, expected))
                .into_iter()
                .collect(),
            PositionError::Marks(MarksError::Length(_)) => Vec::new(),
        }
    }
}

/// The hint for a position: `progress` (the givens plus placements; the
/// givens alone when `None`) and optional `marks`, against the puzzle's
/// unique `solution`.
pub fn hint(
    givens: &Board,
    solution: &Board,
    progress: Option<&Board>,
    marks: Option<&str>,
    should_stop: &dyn Fn() -> bool,
) -> Result<Hint, PositionError> {
    let grid = position(givens, progress, marks)?;
    Ok(hint_at(&grid, solution, should_stop))
}

/// A player's position as a grid: `progress` (the givens when `None`),
/// which must keep every given, with `marks` if given, else the
/// candidates the placed digits leave. Needs no solution, so that a bad
/// position is refused before any solving.
pub fn position(
    givens: &Board,
    progress: Option<&Board>,
    marks: Option<&str>,
) -> Result<Grid, PositionError> {
    let position = progress.unwrap_or(givens);
    for cell in (0..81).filter_map(Cell::new) {
        let (given, placed) = (givens.get(cell), position.get(cell));
        if given != 0 && placed != given {
            return Err(PositionError::GivenChanged { cell, given });
        }
    }
    Ok(match marks {
        Some(text) => Grid::with_marks(position, text)?,
        None => Grid::new(position),
    })
}

/// The hint from a position (see [`position`]) against the puzzle's
/// unique `solution`.
pub fn hint_at(grid: &Grid, solution: &Board, should_stop: &dyn Fn() -> bool) -> Hint {
    if let Some(mistake) = first_mistake(grid, solution) {
        return Hint::Mistake(mistake);
    }
    if grid.is_solved() {
        return Hint::Solved;
    }
    match simplest_step(grid, should_stop) {
        Some(step) => Hint::Step(step.with_witnesses(grid)),
        None => Hint::Stalled,
    }
}

/// The first wrong placement, else the first crossed-out solution digit:
/// placements first, since a wrong one also crosses out marks the player
/// never touched.
pub fn first_mistake(grid: &Grid, solution: &Board) -> Option<Mark> {
    let position = grid.board();
    let cells = || (0..81).filter_map(Cell::new);
    let wrong = cells().find(|&c| position.get(c) != 0 && position.get(c) != solution.get(c));
    if let Some(cell) = wrong {
        return Some(Mark::new(cell.index(), position.get(cell)));
    }
    cells()
        .find(|&c| position.get(c) == 0 && !grid.has(c.index(), solution.get(c)))
        .map(|cell| Mark::new(cell.index(), solution.get(cell)))
}
