//! The climb's parts against slower, plainer ways of getting the same
//! answers, and a climb end to end.

use super::candidates::Candidates;
use super::neighbours::SOLUTION_LIMIT;
use super::*;
use crate::generate::{Symmetry, is_minimal};
use crate::logic::Rating;
use crate::parse::parse_board;
use crate::solver::reference::count_solutions;

/// A puzzle rated 11.4 by Sukaku Explainer (testdata/se-top-ratings.txt).
const RATED_11_4: &str =
    "1.....7....71.9...68..7......1.9.6.....3...2..4......3..8.6.1..5......4......2..5";

/// A puzzle rated 9.0 by the grader, made by the generator.
const RATED_9_0: &str =
    "......9..6...43....1..2..5...123....3...568....4..8.....3.....18......4....765...";

/// A puzzle singles alone solve.
const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

fn cells(text: &str) -> [u8; 81] {
    *parse_board(text).expect("a valid puzzle").cells()
}

#[test]
fn propagation_fills_what_singles_fill_and_stops_at_contradictions() {
    let mut easy = Candidates::of_givens(&cells(EASY)).expect("no clash");
    let placed = easy.propagate().expect("a puzzle with a solution");
    assert!(easy.is_full());
    assert_eq!(placed, 81 - 30);
    let solution = crate::solver::first_solution(&parse_board(EASY).unwrap()).unwrap();
    assert_eq!(&easy.digits(), solution.cells());

    // A wrong candidate of r1c3 breaks the puzzle once singles follow.
    let start = Candidates::of_givens(&cells(EASY)).unwrap();
    let wrong = (1..=9)
        .filter(|&digit| digit != solution.cells()[2])
        .find(|&digit| start.clone().place(2, digit).is_ok())
        .expect("r1c3 has a wrong candidate");
    let mut assumed = start;
    assumed.place(2, wrong).unwrap();
    assert_eq!(assumed.propagate(), Err(candidates::Contradiction));
    // 1s in r2c4, r3c7, r4c2 and r7c3 leave row 1 one place for its 1,
    // r1c1, which still has nine candidates: a hidden single.
    let mut ones = [0; 81];
    for cell in [9 + 3, 18 + 6, 27 + 1, 54 + 2] {
        ones[cell] = 1;
    }
    let mut hidden = Candidates::of_givens(&ones).unwrap();
    assert!(hidden.propagate().unwrap() >= 1);
    assert_eq!(hidden.digits()[0], 1);

    let mut clash = cells(EASY);
    clash[2] = 5;
    assert!(Candidates::of_givens(&clash).is_none(), "two 5s in row 1");
}

#[test]
fn hardness_ranks_the_top_of_the_scale_far_below_a_puzzle_rated_9() {
    let stop = &|| false;
    let top = hardness(&parse_board(RATED_11_4).unwrap(), SOLVED_BY_BASICS, stop).unwrap();
    let nine = hardness(&parse_board(RATED_9_0).unwrap(), SOLVED_BY_BASICS, stop).unwrap();
    assert!(top < 400, "rated 11.4: {top}");
    assert!(nine > 1_000, "rated 9.0: {nine}");
    let easy = hardness(&parse_board(EASY).unwrap(), SOLVED_BY_BASICS, stop);
    assert_eq!(easy, Some(SOLVED_BY_BASICS));
    // A bound cuts the measure short at the bound, and only above it.
    let board = parse_board(RATED_9_0).unwrap();
    assert_eq!(hardness(&board, nine / 2, stop), Some(nine / 2));
    assert_eq!(hardness(&board, nine + 1, stop), Some(nine));
    assert_eq!(
        hardness(&parse_board(RATED_11_4).unwrap(), SOLVED_BY_BASICS, &|| {
            true
        }),
        None
    );
}

/// The cells of an orbit mask.
fn orbit_cells(orbit: u128) -> Vec<usize> {
    (0..81).filter(|&cell| orbit >> cell & 1 != 0).collect()
}

/// Every puzzle one orbit out and at most one in, with one solution, by
/// trying each with the solver.
fn neighbours_by_brute_force(puzzle: &[u8; 81], orbits: &[u128]) -> Vec<[u8; 81]> {
    let has_one_solution = crate::generate::has_one_solution;
    let givens = neighbours::given_cells(puzzle);
    let mut found = Vec::new();
    for &out in orbits.iter().filter(|&&orbit| orbit & givens != 0) {
        let mut opened = *puzzle;
        for cell in orbit_cells(out) {
            opened[cell] = 0;
        }
        if has_one_solution(&opened) {
            found.push(opened);
            continue;
        }
        for &added in orbits.iter().filter(|&&orbit| orbit & givens == 0) {
            let cells = orbit_cells(added);
            // Every filling of the orbit's cells, as a number in base 9.
            for filling in 0..9u32.pow(cells.len() as u32) {
                let mut repaired = opened;
                let mut rest = filling;
                for &cell in &cells {
                    repaired[cell] = (rest % 9) as u8 + 1;
                    rest /= 9;
                }
                if has_one_solution(&repaired) {
                    found.push(repaired);
                }
            }
        }
    }
    found.sort_unstable();
    found
}

/// Checks the neighbourhood of `puzzle` (minimal, with `symmetry`)
/// against the brute force, and returns it.
fn assert_neighbourhood_is_brute_force(
    puzzle: &[u8; 81],
    symmetry: Symmetry,
) -> neighbours::Neighbourhood {
    let orbits = symmetry.orbit_masks();
    let around = neighbours(puzzle, orbits, &|| false).unwrap();
    let mut found = around.puzzles.clone();
    found.sort_unstable();
    let expected = neighbours_by_brute_force(puzzle, orbits);
    let line = |cells: &[u8; 81]| Board::from_cells(*cells).unwrap().to_line();
    let extra: Vec<String> = found
        .iter()
        .filter(|p| !expected.contains(p))
        .map(line)
        .collect();
    assert!(
        extra.is_empty(),
        "{} not neighbours, among them {:?}",
        extra.len(),
        &extra[..extra.len().min(3)]
    );
    let mut distinct = found.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), found.len(), "each neighbour once");
    // Those missed took out an orbit that opened more solutions than are
    // listed: the limit the module documents.
    let missing: Vec<&[u8; 81]> = expected.iter().filter(|p| !found.contains(p)).collect();
    for missed in &missing {
        let out = orbits
            .iter()
            .find(|&&orbit| {
                orbit_cells(orbit)
                    .iter()
                    .any(|&c| puzzle[c] != 0 && missed[c] == 0)
            })
            .unwrap();
        let mut opened = *puzzle;
        for cell in orbit_cells(*out) {
            opened[cell] = 0;
        }
        let (count, _) = count_solutions(&Board::from_cells(opened).unwrap(), SOLUTION_LIMIT + 1);
        assert!(count > SOLUTION_LIMIT, "missed {}", line(missed));
    }
    assert!(
        missing.len() * 20 < expected.len(),
        "{} of {} missed",
        missing.len(),
        expected.len()
    );
    assert!(found.len() > 20, "{} neighbours", found.len());
    let board = Board::from_cells(*puzzle).unwrap();
    assert_eq!(around.minimal, is_minimal(&board, symmetry));
    around
}

#[test]
fn the_neighbourhood_is_every_puzzle_one_move_away_with_one_solution() {
    let puzzle = cells(RATED_9_0);
    let orbits = Symmetry::None.orbit_masks();
    let around = assert_neighbourhood_is_brute_force(&puzzle, Symmetry::None);
    assert!(around.puzzles.len() > 50);
    assert!(around.minimal);
    // A neighbour that only took a given out is not minimal... or is the
    // puzzle one move further: either way the flag says which.
    let mut extra = puzzle;
    let solution = crate::solver::first_solution(&parse_board(RATED_9_0).unwrap()).unwrap();
    let blank = (0..81).find(|&cell| puzzle[cell] == 0).unwrap();
    extra[blank] = solution.cells()[blank];
    let around = neighbours(&extra, orbits, &|| false).unwrap();
    assert!(
        !around.minimal,
        "a given added to a minimal puzzle can go again"
    );
    assert!(around.puzzles.contains(&puzzle));
}

#[test]
fn a_symmetric_neighbourhood_moves_whole_orbits() {
    let request = Request {
        symmetry: Symmetry::Rotate180,
        minimal: true,
        ..Request::default()
    };
    let (puzzle, _) = ungraded(&request, 2);
    let around = assert_neighbourhood_is_brute_force(puzzle.cells(), Symmetry::Rotate180);
    assert!(around.minimal);
    for neighbour in &around.puzzles {
        assert!(Symmetry::Rotate180.holds_for(neighbour));
    }
}

#[test]
fn a_climb_meets_a_target_random_puzzles_seldom_reach_and_keeps_the_symmetry() {
    let request = Request {
        symmetry: Symmetry::Rotate180,
        minimal: true,
        min_rating: Some(Rating(95)),
        ..Request::default()
    };
    assert!(request.wants_climb());
    let made = climb(&request, 11, None, &|| false).expect("seed 11 reaches 9.5");
    let grade = made.grade.as_ref().unwrap();
    assert!(
        grade.rating >= Rating(95) && grade.stalled.is_none(),
        "{grade:?}"
    );
    assert_eq!(made.seed, 11);
    assert!(Symmetry::Rotate180.holds_for(made.puzzle.cells()));
    assert!(is_minimal(&made.puzzle, Symmetry::Rotate180));
    let (count, solution) = count_solutions(&made.puzzle, 2);
    assert_eq!((count, solution), (1, Some(made.solution)));
    let regraded = crate::logic::grade(&made.puzzle);
    assert_eq!(&regraded, grade, "the grade is the grader's");
}

#[test]
fn the_same_seed_climbs_to_the_same_puzzle() {
    let request = Request {
        minimal: true,
        min_rating: Some(Rating(95)),
        ..Request::default()
    };
    let first = climb(&request, 3, None, &|| false).expect("seed 3 reaches 9.5");
    let again = climb(&request, 3, None, &|| false).expect("and again");
    assert_eq!(first, again);
}

#[test]
fn a_climb_stops_soon_after_it_is_told() {
    let request = Request {
        minimal: true,
        min_rating: Some(Rating(120)),
        ..Request::default()
    };
    let started = std::time::Instant::now();
    let stop = || started.elapsed() > Duration::from_millis(300);
    assert_eq!(climb(&request, 1, None, &stop), None);
    // Unstopped, a climb to 12.0 expands 3,000 puzzles: minutes.
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}

/// Random minimal puzzles, and the hardest at hand: those the basics
/// leave unsolved are what the measure weighs.
fn basics_samples() -> Vec<Board> {
    let request = Request {
        minimal: true,
        ..Request::default()
    };
    let mut samples: Vec<Board> = (0..400u64)
        .map(|seed| crate::generate::ungraded(&request, seed * 7 + 1).0)
        .collect();
    let rated = include_str!("../../../testdata/se-top-ratings.txt");
    samples.extend(
        rated
            .lines()
            .filter(|line| !line.starts_with('#'))
            .filter_map(|line| line.split_whitespace().next())
            .filter_map(|puzzle| parse_board(puzzle).ok()),
    );
    samples.extend([RATED_11_4, RATED_9_0].map(|text| parse_board(text).unwrap()));
    samples
}

#[test]
fn the_bulk_basics_end_where_the_graders_walk_ends_and_stay_sound() {
    let mut unsolved = 0;
    for puzzle in basics_samples() {
        let walked = crate::logic::worked_within(&puzzle, BASICS, &|| false);
        let bulk = hardness::worked(&puzzle);
        assert_eq!(walked.is_some(), bulk.is_some(), "{}", puzzle.to_line());
        let (Some(walked), Some(bulk)) = (walked, bulk) else {
            continue;
        };
        unsolved += 1;
        let solution = crate::solver::first_solution(&puzzle).unwrap();
        for (cell, &digit) in solution.cells().iter().enumerate() {
            let kept = bulk.digits()[cell] == digit || bulk.each().any(|c| c == (cell, digit));
            assert!(
                kept,
                "{}: r{}c{} lost its {digit}",
                puzzle.to_line(),
                cell / 9 + 1,
                cell % 9 + 1
            );
        }
        let values = std::array::from_fn(|cell| walked.value(cell));
        let marks = std::array::from_fn(|cell| walked.marks(cell));
        let walked = Candidates::of_marks(&values, &marks);
        let left = |c: &Candidates| (c.open, c.placed);
        assert_eq!(left(&bulk), left(&walked), "{}", puzzle.to_line());
    }
    assert!(
        unsolved >= 50,
        "only {unsolved} samples need more than the basics"
    );
}
