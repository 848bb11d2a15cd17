//! The puzzles one move from a puzzle: an orbit of givens taken out, and
//! another orbit given instead or none, keeping one solution.
//!
//! This is the forum's {-1+1} neighbourhood (and {-1+0}), orbit by orbit
//! so that every neighbour keeps the symmetry. Trying every added orbit
//! and digit with the solver would take thousands of solves per puzzle;
//! instead, once an orbit is out, the solutions of what is left are listed
//! (up to [`SOLUTION_LIMIT`], by the solver's own search), and an added
//! orbit restores uniqueness exactly when its digits in one listed
//! solution appear in no other.
//! When the list was cut short, each such neighbour is checked by the
//! certifying solver.

use crate::{Board, solver};

/// The most solutions listed after an orbit is taken out: a removal that
/// opens more rarely has a one-orbit repair, and listing is the cost.
pub const SOLUTION_LIMIT: usize = 256;

/// The most neighbours kept of one puzzle, the first found: a bound on
/// memory, seldom reached (puzzles near 10.0 have 200 to 500).
pub const MAX_NEIGHBOURS: usize = 2048;

/// The neighbourhood of a puzzle.
#[derive(Debug, Default)]
pub struct Neighbourhood {
    /// The neighbours, in a fixed order: by orbit taken out, then orbit
    /// added, then solution listed.
    pub puzzles: Vec<[u8; 81]>,
    /// True when no orbit of givens can go without a second solution.
    pub minimal: bool,
}

/// The neighbours of `puzzle` (one solution, its givens a union of
/// `orbits`); `None` when `should_stop` says stop.
pub fn neighbours(
    puzzle: &[u8; 81],
    orbits: &[u128],
    should_stop: &dyn Fn() -> bool,
) -> Option<Neighbourhood> {
    let givens = given_cells(puzzle);
    let mut found = Neighbourhood {
        puzzles: Vec::new(),
        minimal: true,
    };
    let blank_orbits: Vec<Vec<usize>> = orbits
        .iter()
        .filter(|&&orbit| orbit & givens == 0)
        .map(|&orbit| cells_of(orbit).collect())
        .collect();
    let mut listed = Listed::default();
    for &out in orbits.iter().filter(|&&orbit| orbit & givens != 0) {
        if should_stop() {
            return None;
        }
        let mut opened = *puzzle;
        for cell in cells_of(out) {
            opened[cell] = 0;
        }
        listed.list(&opened);
        if listed.solutions.len() == 1 {
            found.minimal = false;
            if found.puzzles.len() < MAX_NEIGHBOURS {
                found.puzzles.push(opened);
            }
            continue;
        }
        for added in &blank_orbits {
            listed.repairs(&opened, added, &mut found.puzzles);
        }
    }
    Some(found)
}

/// The solutions of a puzzle with an orbit taken out, up to
/// [`SOLUTION_LIMIT`], with how many hold each digit in each cell.
struct Listed {
    solutions: Vec<Board>,
    /// `counts[cell][digit]`: how many of the solutions hold `digit` in
    /// `cell`.
    counts: [[u16; 10]; 81],
}

impl Default for Listed {
    fn default() -> Listed {
        Listed {
            solutions: Vec::with_capacity(SOLUTION_LIMIT),
            counts: [[0; 10]; 81],
        }
    }
}

impl Listed {
    /// Lists the solutions of `opened` in place of the last.
    fn list(&mut self, opened: &[u8; 81]) {
        self.solutions.clear();
        let board = Board::from_cells(*opened).expect("digits of a solution");
        solver::list_solutions(&board, SOLUTION_LIMIT, &mut self.solutions);
        self.counts = [[0; 10]; 81];
        for solution in &self.solutions {
            for (cell, &digit) in solution.cells().iter().enumerate() {
                self.counts[cell][usize::from(digit)] += 1;
            }
        }
    }

    /// True when every solution of the puzzle was listed.
    fn complete(&self) -> bool {
        self.solutions.len() < SOLUTION_LIMIT
    }

    /// Adds to `out` each puzzle `opened` plus the orbit of `cells`,
    /// filled as in one listed solution and in no other (checked with the
    /// solver unless the list is complete).
    ///
    /// A solution's digits there are its own when one of them is (a count
    /// of 1): for a one-cell orbit, the usual case, the counts settle it;
    /// a larger orbit whose digits are each shared compares whole keys.
    fn repairs(&self, opened: &[u8; 81], cells: &[usize], out: &mut Vec<[u8; 81]>) {
        let key = |solution: &Board| {
            cells.iter().fold(0u32, |key, &cell| {
                key << 4 | u32::from(solution.cells()[cell])
            })
        };
        let mut keys: Option<Vec<u32>> = None;
        for solution in &self.solutions {
            let digits = solution.cells();
            let some_digit_own = cells
                .iter()
                .any(|&cell| self.counts[cell][usize::from(digits[cell])] == 1);
            let own = some_digit_own
                || cells.len() > 1 && {
                    let keys = keys.get_or_insert_with(|| {
                        let mut keys: Vec<u32> = self.solutions.iter().map(key).collect();
                        keys.sort_unstable();
                        keys
                    });
                    let mine = key(solution);
                    let first = keys.partition_point(|&other| other < mine);
                    keys.get(first + 1) != Some(&mine)
                };
            if !own {
                continue;
            }
            let mut repaired = *opened;
            for &cell in cells {
                repaired[cell] = digits[cell];
            }
            if out.len() < MAX_NEIGHBOURS
                && (self.complete() || super::super::has_one_solution(&repaired))
            {
                out.push(repaired);
            }
        }
    }
}

/// The cells holding a given, as a mask.
pub fn given_cells(puzzle: &[u8; 81]) -> u128 {
    (0..81)
        .filter(|&cell| puzzle[cell] != 0)
        .fold(0, |mask, cell| mask | 1 << cell)
}

/// The cells of a mask, in increasing order.
fn cells_of(mask: u128) -> impl Iterator<Item = usize> {
    (0..81).filter(move |&cell| mask >> cell & 1 != 0)
}
