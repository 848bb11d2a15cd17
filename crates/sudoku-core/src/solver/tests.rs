//! Unit and property tests of the fast solver against the plain reference.

use proptest::prelude::*;

use super::{SolveError, list_solutions, reference, solve, solve_checked};
use crate::Outcome;
use crate::{Board, parse_board};

const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const CLASSIC_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// A 17-clue puzzle built so that cell-by-cell backtracking in reading order
/// needs a huge search.
const ANTI_BACKTRACKING: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

fn board(text: &str) -> Board {
    parse_board(text).unwrap()
}

fn never() -> bool {
    false
}

#[test]
fn solves_a_classic_puzzle_uniquely() {
    let report = solve(&board(CLASSIC), never).unwrap();
    assert_eq!(report.outcome, Outcome::Solved);
    assert_eq!(report.solution.unwrap().to_line(), CLASSIC_SOLUTION);
    assert_eq!(report.stats.guesses, 0, "this one falls to singles");
}

#[test]
fn solves_a_puzzle_built_against_backtracking() {
    let puzzle = board(ANTI_BACKTRACKING);
    let report = solve(&puzzle, never).unwrap();
    assert_eq!(report.outcome, Outcome::Solved);
    let solution = report.solution.unwrap();
    assert!(solution.is_solved());
    assert!(solution.keeps_givens_of(&puzzle));
}

#[test]
fn a_hard_puzzle_needs_branching_and_counts_it() {
    let hard = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let report = solve(&board(hard), never).unwrap();
    assert_eq!(report.outcome, Outcome::Solved);
    assert!(report.stats.guesses > 0);
    let (count, solution) = reference::count_solutions(&board(hard), 2);
    assert_eq!((count, solution), (1, report.solution));
}

#[test]
fn an_empty_board_has_many_solutions() {
    let report = solve(&Board::EMPTY, never).unwrap();
    assert_eq!(report.outcome, Outcome::MultipleSolutions);
    assert!(report.solution.unwrap().is_solved());
}

#[test]
fn consistent_givens_without_a_completion_have_no_solution() {
    // r1c9 can only be 9, but column 9 already has a 9.
    let text = format!("12345678.........9{}", ".".repeat(63));
    let puzzle = board(&text);
    assert_eq!(puzzle.find_conflict(), None);
    let report = solve(&puzzle, never).unwrap();
    assert_eq!(report.outcome, Outcome::NoSolution);
    assert_eq!(report.solution, None);
}

#[test]
fn conflicting_givens_yield_no_solution_rather_than_a_wrong_answer() {
    let text = format!("11{}", ".".repeat(79));
    assert_eq!(
        solve(&board(&text), never).unwrap().outcome,
        Outcome::NoSolution
    );
}

#[test]
fn a_full_valid_board_is_its_own_solution() {
    let report = solve(&board(CLASSIC_SOLUTION), never).unwrap();
    assert_eq!(report.outcome, Outcome::Solved);
    assert_eq!(report.solution.unwrap().to_line(), CLASSIC_SOLUTION);
}

#[test]
fn a_full_board_with_a_wrong_digit_has_no_solution() {
    let broken = CLASSIC_SOLUTION.replacen('5', "6", 1);
    assert_eq!(
        solve(&board(&broken), never).unwrap().outcome,
        Outcome::NoSolution
    );
}

#[test]
fn a_cancelled_search_stops_at_its_first_branch() {
    assert_eq!(
        solve(&Board::EMPTY, || true),
        Err(super::Stopped { guesses: 0 })
    );
    // A puzzle that needs no branching finishes regardless.
    assert!(solve(&board(CLASSIC), || true).is_ok());
}

#[test]
fn the_reference_gives_up_when_its_budget_runs_out() {
    assert_eq!(
        reference::count_solutions_within(&board(ANTI_BACKTRACKING), 2, 10),
        None
    );
    let finished = reference::count_solutions_within(&board(CLASSIC), 2, 1_000_000);
    assert_eq!(finished.map(|(count, _)| count), Some(1));
}

#[test]
fn the_reference_agrees_on_the_fixed_examples() {
    for text in [CLASSIC, ANTI_BACKTRACKING] {
        let (count, solution) = reference::count_solutions(&board(text), 2);
        let report = solve(&board(text), never).unwrap();
        assert_eq!(count, 1);
        assert_eq!(solution, report.solution);
    }
}

/// A valid solved grid picked by the seed: the classic solution relabelled
/// and shuffled by moves that keep a grid valid.
fn solved_grid(seed: &GridShuffle) -> Board {
    let base = board(CLASSIC_SOLUTION);
    let mut cells = [0u8; 81];
    for row in 0..9 {
        for column in 0..9 {
            let source_row = seed.bands[row / 3] * 3 + seed.rows[row / 3][row % 3];
            let source_column = seed.stacks[column / 3] * 3 + seed.columns[column / 3][column % 3];
            let (r, c) = if seed.transpose {
                (source_column, source_row)
            } else {
                (source_row, source_column)
            };
            let value = base.cells()[r * 9 + c];
            cells[row * 9 + column] = seed.digits[usize::from(value - 1)];
        }
    }
    Board::from_cells(cells).unwrap()
}

#[derive(Debug, Clone)]
struct GridShuffle {
    digits: Vec<u8>,
    bands: Vec<usize>,
    stacks: Vec<usize>,
    rows: Vec<Vec<usize>>,
    columns: Vec<Vec<usize>>,
    transpose: bool,
}

fn permutation(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>()).prop_shuffle()
}

fn grid_shuffle() -> impl Strategy<Value = GridShuffle> {
    (
        Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        permutation(3),
        permutation(3),
        prop::collection::vec(permutation(3), 3),
        prop::collection::vec(permutation(3), 3),
        any::<bool>(),
    )
        .prop_map(
            |(digits, bands, stacks, rows, columns, transpose)| GridShuffle {
                digits,
                bands,
                stacks,
                rows,
                columns,
                transpose,
            },
        )
}

/// A puzzle from a random solved grid with each cell kept with the given
/// probability: many are unique, the sparse ones have several solutions.
fn puzzle_from_grid() -> impl Strategy<Value = Board> {
    (
        grid_shuffle(),
        prop::collection::vec(0.0..1.0f64, 81),
        0.22..0.7f64,
    )
        .prop_map(|(shuffle, draws, keep)| {
            let grid = solved_grid(&shuffle);
            let mut cells = *grid.cells();
            for (cell, draw) in cells.iter_mut().zip(draws) {
                if draw > keep {
                    *cell = 0;
                }
            }
            Board::from_cells(cells).unwrap()
        })
}

/// Random givens that do not repeat a digit in a unit, not taken from any
/// grid: many such boards have no solution.
fn random_consistent_board() -> impl Strategy<Value = Board> {
    prop::collection::vec((0..81usize, 1..=9u8), 15..40).prop_map(|givens| {
        let mut board = Board::EMPTY;
        for (index, digit) in givens {
            let mut cells = *board.cells();
            cells[index] = digit;
            let candidate = Board::from_cells(cells).unwrap();
            if candidate.find_conflict().is_none() {
                board = candidate;
            }
        }
        board
    })
}

/// Digits the plain reference may try per case: a few milliseconds.
/// Random givens now and then make a board it would need minutes to refute;
/// for such a case only the fast solver's own answer is checked (a solution
/// must keep the givens and obey the rules). Discarding those cases instead
/// made the test's running time, and its reject count, depend on the seed.
const REFERENCE_STEPS: u64 = 300_000;

fn assert_agrees_with_reference(puzzle: &Board) -> Result<(), TestCaseError> {
    let report = solve(puzzle, never).unwrap();
    let reference = reference::count_solutions_within(puzzle, 2, REFERENCE_STEPS);
    let Some(reference) = reference else {
        if let Some(solution) = report.solution {
            prop_assert!(solution.is_solved(), "{} breaks the rules", solution);
            prop_assert!(
                solution.keeps_givens_of(puzzle),
                "{} drops a given",
                solution
            );
        }
        return Ok(());
    };
    let (count, reference_solution) = reference;
    let expected = Outcome::of_solution_count(count);
    prop_assert_eq!(report.outcome, expected, "puzzle {}", puzzle);
    match report.solution {
        Some(solution) => {
            prop_assert!(solution.is_solved(), "{} breaks the rules", solution);
            prop_assert!(
                solution.keeps_givens_of(puzzle),
                "{} drops a given",
                solution
            );
            if expected == Outcome::Solved {
                prop_assert_eq!(Some(solution), reference_solution);
            }
        }
        None => prop_assert_eq!(expected, Outcome::NoSolution),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn agrees_with_the_reference_on_puzzles_from_grids(puzzle in puzzle_from_grid()) {
        assert_agrees_with_reference(&puzzle)?;
    }

    #[test]
    fn agrees_with_the_reference_on_random_givens(puzzle in random_consistent_board()) {
        assert_agrees_with_reference(&puzzle)?;
    }
}

/// The most solutions the listing test asks for.
const LISTED: usize = 40;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Listing finds as many solutions as the reference counts (up to the
    /// limit), each one a solution of the puzzle, and none twice.
    #[test]
    fn listing_finds_each_solution_the_reference_counts(puzzle in puzzle_from_grid()) {
        let Some((count, _)) = reference::count_solutions_within(&puzzle, LISTED, REFERENCE_STEPS)
        else {
            return Ok(());
        };
        let mut listed = Vec::new();
        list_solutions(&puzzle, LISTED, &mut listed);
        prop_assert_eq!(listed.len(), count, "puzzle {}", puzzle);
        for solution in &listed {
            prop_assert!(solution.is_solved(), "{} breaks the rules", solution);
            prop_assert!(solution.keeps_givens_of(&puzzle), "{} drops a given", solution);
        }
        let mut distinct = listed.clone();
        distinct.sort_unstable_by_key(|solution| *solution.cells());
        distinct.dedup();
        prop_assert_eq!(distinct.len(), listed.len(), "a solution listed twice");
    }
}

/// Boards with random givens, conflicting or not.
fn random_board() -> impl Strategy<Value = Board> {
    prop::collection::vec((0..81usize, 1..=9u8), 0..40).prop_map(|givens| {
        let mut cells = [0u8; 81];
        for (index, digit) in givens {
            cells[index] = digit;
        }
        Board::from_cells(cells).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The solver's cheap check while placing givens finds a conflict
    /// exactly when the plain scan does.
    #[test]
    fn conflicts_are_found_exactly_when_they_exist(board in random_board()) {
        let conflicting = matches!(solve_checked(&board, || true), Err(SolveError::ConflictingGivens));
        prop_assert_eq!(conflicting, board.find_conflict().is_some(), "{}", board);
    }
}

#[test]
fn conflicts_across_bands_in_one_column_are_found() {
    let mut cells = [0u8; 81];
    cells[4] = 7; // r1c5
    cells[76] = 7; // r9c5
    let board = Board::from_cells(cells).unwrap();
    assert_eq!(
        solve_checked(&board, never),
        Err(SolveError::ConflictingGivens)
    );
    assert_eq!(solve(&board, never).unwrap().outcome, Outcome::NoSolution);
}
