//! Tests of the variant solver against oracles written for them: an
//! independent rule checker, brute-force enumeration on small grids, and
//! hand-made puzzles whose answers are worked out by hand.

mod brute;
mod cases;
mod checker;
pub(crate) mod random;

use brute::enumerate;
use checker::keeps_rules;
use random::random_puzzle;

use super::{TrueCandidates, VariantPuzzle, solve_variant, true_candidates};
use crate::Outcome;

/// Compares the solver with enumeration on one puzzle; returns what
/// enumeration found, capped at three.
fn agrees_with_enumeration(puzzle: &VariantPuzzle, label: &str) -> usize {
    let enumerated = enumerate(puzzle, 500);
    let report = solve_variant(puzzle, || false).unwrap();
    let expected = Outcome::of_solution_count(enumerated.solutions.len());
    assert_eq!(report.outcome, expected, "{label}: {puzzle:?}");
    for solution in &report.solutions {
        assert!(
            keeps_rules(puzzle, solution),
            "{label}: a solution breaks a rule"
        );
        assert!(
            enumerated.capped || enumerated.solutions.contains(solution),
            "{label}"
        );
    }
    if report.solutions.len() == 2 {
        assert_ne!(report.solutions[0], report.solutions[1], "{label}");
    }
    clients_check_agrees(puzzle, &enumerated.solutions, label);
    if enumerated.solutions.len() == 1 {
        assert_eq!(report.solutions, enumerated.solutions, "{label}");
    }
    if enumerated.capped {
        return 3;
    }
    let candidates = true_candidates(puzzle, usize::MAX, || false).unwrap();
    let mut union = vec![0u32; puzzle.shape().cell_count()];
    for solution in &enumerated.solutions {
        for (mask, &digit) in union.iter_mut().zip(solution) {
            *mask |= 1 << digit;
        }
    }
    assert!(!candidates.cap_reached, "{label}");
    assert_eq!(
        candidates.possible, union,
        "{label}: true candidates, {puzzle:?}"
    );
    assert_eq!(candidates.outcome(), Some(expected), "{label}");
    enumerated.solutions.len().min(3)
}

/// The check a client makes of a server's solution (which compiles the
/// puzzle's own rules alone) agrees with the independent checker on
/// solutions, on grids one digit away from them, and on solutions with
/// two digits traded everywhere (houses still whole, the constraints
/// mostly not).
fn clients_check_agrees(puzzle: &VariantPuzzle, solutions: &[Vec<u8>], label: &str) {
    let size = puzzle.shape().size() as u8;
    let agree = |grid: &[u8]| {
        assert_eq!(
            crate::variant::keeps_rules(puzzle, grid),
            keeps_rules(puzzle, grid),
            "{label}: {grid:?}"
        );
    };
    for solution in solutions.iter().take(3) {
        assert!(crate::variant::keeps_rules(puzzle, solution), "{label}");
        for cell in [0, solution.len() / 2, solution.len() - 1] {
            let mut changed = solution.clone();
            changed[cell] = changed[cell] % size + 1;
            agree(&changed);
        }
        for (a, b) in [(1, 2), (1, size), (2, size - 1)] {
            let traded: Vec<u8> = solution
                .iter()
                .map(|&d| {
                    if d == a {
                        b
                    } else if d == b {
                        a
                    } else {
                        d
                    }
                })
                .collect();
            agree(&traded);
        }
    }
}

/// Runs the comparison on `count` random puzzles and checks that the mix
/// held puzzles with no solution, one, and several.
fn differential(size: usize, seeds: std::ops::Range<u64>, shares: &[u32], least_each: usize) {
    let mut tally = [0usize; 4];
    for seed in seeds {
        let jigsaw = seed % 3 == 0;
        let share = shares[seed as usize % shares.len()];
        let puzzle = random_puzzle(seed, size, jigsaw, share);
        tally[agrees_with_enumeration(&puzzle, &format!("{size}×{size} seed {seed}"))] += 1;
    }
    let several = tally[2] + tally[3];
    assert!(
        tally[0] >= least_each && tally[1] >= least_each && several >= least_each,
        "{size}×{size}: too few of some outcome: {tally:?}"
    );
}

#[test]
fn four_by_four_puzzles_agree_with_enumeration() {
    differential(4, 0..400, &[0, 10, 25, 40], 60);
}

#[test]
fn six_by_six_puzzles_agree_with_enumeration() {
    differential(6, 1000..1150, &[35, 45, 55], 15);
}

#[test]
fn true_candidates_report_the_cap_and_leave_the_rest_undecided() {
    // An empty 4×4 has 288 solutions; each search settles a digit a cell.
    let empty = VariantPuzzle::new(super::PuzzleParts {
        size: 4,
        ..Default::default()
    })
    .unwrap();
    let capped: TrueCandidates = true_candidates(&empty, 2, || false).unwrap();
    assert!(capped.cap_reached);
    assert_eq!(capped.solutions_found, 2);
    assert_eq!(capped.outcome(), Some(Outcome::MultipleSolutions));
    for (possible, undecided) in capped.possible.iter().zip(&capped.undecided) {
        assert_eq!(possible & undecided, 0);
        assert_eq!((possible | undecided).count_ones(), 4);
    }
    assert!(capped.undecided.iter().any(|&m| m != 0));
    let full = true_candidates(&empty, usize::MAX, || false).unwrap();
    assert!(!full.cap_reached);
    assert!(full.possible.iter().all(|&m| m == 0b11110));
    // No more searches than candidates, and far fewer than solutions.
    assert!(
        full.solutions_found <= 64,
        "{} searches",
        full.solutions_found
    );
}

#[test]
fn classic_puzzles_take_the_classic_solver_and_agree_with_the_general_one() {
    let empty = VariantPuzzle::new(super::PuzzleParts {
        size: 9,
        ..Default::default()
    })
    .unwrap();
    assert!(empty.is_classic());
    let report = solve_variant(&empty, || false).unwrap();
    assert_eq!(report.outcome, Outcome::MultipleSolutions);
    assert_eq!(report.solutions.len(), 2);
    assert_ne!(report.solutions[0], report.solutions[1]);
    assert!(report.solutions.iter().all(|s| keeps_rules(&empty, s)));
    // The well-known example puzzle; a one-cell extra region changes
    // nothing but sends it to the general search.
    let text = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let givens: Vec<u8> = text
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    let classic = VariantPuzzle::new(super::PuzzleParts {
        size: 9,
        givens: givens.clone(),
        ..Default::default()
    })
    .unwrap();
    let general = VariantPuzzle::new(super::PuzzleParts {
        size: 9,
        givens,
        constraints: vec![super::constraints::ExtraRegion { cells: vec![0] }.into()],
        ..Default::default()
    })
    .unwrap();
    assert!(classic.is_classic() && !general.is_classic());
    let (fast, slow) = (
        solve_variant(&classic, || false).unwrap(),
        solve_variant(&general, || false).unwrap(),
    );
    assert_eq!(fast.outcome, Outcome::Solved);
    assert_eq!(fast.solutions, slow.solutions);
    assert!(keeps_rules(&classic, &fast.solutions[0]));
}

/// A full grid of `box_side²` digits with square boxes: row r is the
/// first row shifted by `box_side × (r mod box_side) + r / box_side`.
fn pattern(box_side: usize) -> Vec<u8> {
    let size = box_side * box_side;
    (0..size * size)
        .map(|cell| {
            let (row, column) = (cell / size, cell % size);
            ((box_side * (row % box_side) + row / box_side + column) % size + 1) as u8
        })
        .collect()
}

#[test]
fn sixteen_and_twenty_five_wide_grids_solve_with_digits_past_nine() {
    for box_side in [4, 5] {
        let size = box_side * box_side;
        let full = pattern(box_side);
        let mut random = crate::generate::random::Random::new(size as u64);
        let givens: Vec<u8> = full
            .iter()
            .map(|&d| if random.below(100) < 45 { d } else { 0 })
            .collect();
        let puzzle = VariantPuzzle::new(super::PuzzleParts {
            size,
            givens,
            ..Default::default()
        })
        .unwrap();
        assert!(keeps_rules(&puzzle, &full), "the pattern is a solution");
        let report = solve_variant(&puzzle, || false).unwrap();
        assert!(
            report.outcome.has_solution(),
            "{size}: {:?}",
            report.outcome
        );
        for solution in &report.solutions {
            assert!(keeps_rules(&puzzle, solution), "{size}");
            assert!(solution.iter().all(|&d| (1..=size as u8).contains(&d)));
            assert!(
                super::digits_line(solution).contains('G'),
                "{size}: 16 prints as G"
            );
        }
    }
}

#[test]
fn a_cell_no_digit_can_fill_has_no_solution() {
    // R1C1 odd and even at once, and an arrow reading it.
    let rules = vec![
        super::constraints::Parity { cell: 0, odd: true }.into(),
        super::constraints::Parity {
            cell: 0,
            odd: false,
        }
        .into(),
        super::constraints::Arrow {
            bulb: vec![0],
            line: vec![5],
        }
        .into(),
    ];
    let puzzle = VariantPuzzle::new(super::PuzzleParts {
        size: 4,
        constraints: rules,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        solve_variant(&puzzle, || false).unwrap().outcome,
        Outcome::NoSolution
    );
    let candidates = true_candidates(&puzzle, 10, || false).unwrap();
    assert_eq!(candidates.outcome(), Some(Outcome::NoSolution));
}

#[test]
fn a_whole_grid_rule_given_twice_is_kept_once() {
    use super::constraints::{AntiKnight, Diagonal, NegativeRatio};
    let rules = vec![
        NegativeRatio.into(),
        Diagonal::Positive.into(),
        NegativeRatio.into(),
        Diagonal::Negative.into(),
        AntiKnight.into(),
        Diagonal::Positive.into(),
    ];
    let puzzle = VariantPuzzle::new(super::PuzzleParts {
        size: 9,
        constraints: rules,
        ..Default::default()
    })
    .unwrap();
    let kinds: Vec<_> = puzzle
        .constraints()
        .iter()
        .map(|c| format!("{c:?}"))
        .collect();
    assert_eq!(
        kinds,
        [
            "NegativeRatio(NegativeRatio)",
            "Diagonal(Positive)",
            "Diagonal(Negative)",
            "AntiKnight(AntiKnight)"
        ]
    );
}
