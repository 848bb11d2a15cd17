//! Brute-force enumeration for small grids: fill cells in reading order,
//! each digit in turn, and back up whenever the independent checker sees
//! a broken rule. Slow and obviously right, the oracle for the solver.

use super::checker::keeps_rules;
use crate::variant::VariantPuzzle;

/// What enumeration found.
pub struct Enumerated {
    /// Every solution, up to the cap.
    pub solutions: Vec<Vec<u8>>,
    /// True when it stopped at the cap.
    pub capped: bool,
}

/// Every solution of `puzzle`, stopping after `cap`.
pub fn enumerate(puzzle: &VariantPuzzle, cap: usize) -> Enumerated {
    let mut grid = puzzle.givens().to_vec();
    let mut found = Enumerated {
        solutions: Vec::new(),
        capped: false,
    };
    if keeps_rules(puzzle, &grid) {
        fill(puzzle, &mut grid, 0, cap, &mut found);
    }
    found
}

fn fill(
    puzzle: &VariantPuzzle,
    grid: &mut Vec<u8>,
    from: usize,
    cap: usize,
    found: &mut Enumerated,
) {
    let Some(cell) = (from..grid.len()).find(|&c| grid[c] == 0) else {
        if found.solutions.len() == cap {
            found.capped = true;
        } else {
            found.solutions.push(grid.clone());
        }
        return;
    };
    for digit in 1..=puzzle.shape().size() as u8 {
        if found.capped {
            return;
        }
        grid[cell] = digit;
        if keeps_rules(puzzle, grid) {
            fill(puzzle, grid, cell + 1, cap, found);
        }
    }
    grid[cell] = 0;
}
