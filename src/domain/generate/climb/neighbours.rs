//! The puzzles one move from a puzzle: an orbit of givens taken out, and
//! another orbit given instead or none, keeping one solution.
//!
//! This is the forum's {-1+1} neighbourhood (and {-1+0}), orbit by orbit
//! so that every neighbour keeps the symmetry. Trying every added orbit
//! and digit with the solver would take thousands of solves per puzzle;
//! instead, once an orbit is out, the solutions of what is left are listed
//! (up to [`SOLUTION_LIMIT`]), and an added orbit restores uniqueness
//! exactly when its digits in one listed solution appear in no other.
//! When the list was cut short, each such neighbour is checked by the
//! certifying solver.

use super::candidates::Candidates;

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
    let mut solutions = Vec::with_capacity(SOLUTION_LIMIT);
    for &out in orbits.iter().filter(|&&orbit| orbit & givens != 0) {
        if should_stop() {
            return None;
        }
        let mut opened = *puzzle;
        for cell in cells_of(out) {
            opened[cell] = 0;
        }
        solutions.clear();
        Candidates::of_givens(&opened)?.solutions(SOLUTION_LIMIT, &mut solutions);
        if solutions.len() == 1 {
            found.minimal = false;
            if found.puzzles.len() < MAX_NEIGHBOURS {
                found.puzzles.push(opened);
            }
            continue;
        }
        let complete = solutions.len() < SOLUTION_LIMIT;
        for &added in orbits {
            if added == out || added & givens != 0 {
                continue;
            }
            repairs(&opened, added, &solutions, complete, &mut found.puzzles);
        }
    }
    Some(found)
}

/// Adds to `out` each puzzle `opened` plus the orbit `added`, filled as in
/// one of `solutions` and in no other (checked with the solver unless the
/// list is `complete`).
fn repairs(
    opened: &[u8; 81],
    added: u128,
    solutions: &[[u8; 81]],
    complete: bool,
    out: &mut Vec<[u8; 81]>,
) {
    let cells: Vec<usize> = cells_of(added).collect();
    let key = |solution: &[u8; 81]| {
        cells
            .iter()
            .fold(0u32, |key, &cell| key << 4 | u32::from(solution[cell]))
    };
    let mut keys: Vec<u32> = solutions.iter().map(key).collect();
    keys.sort_unstable();
    for solution in solutions {
        let own = key(solution);
        let first = keys.partition_point(|&other| other < own);
        if keys.get(first + 1) == Some(&own) {
            continue;
        }
        let mut repaired = *opened;
        for &cell in &cells {
            repaired[cell] = solution[cell];
        }
        if out.len() < MAX_NEIGHBOURS && (complete || super::super::has_one_solution(&repaired)) {
            out.push(repaired);
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
