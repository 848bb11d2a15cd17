//! The fast solver against the plain reference on the shipped puzzle files:
//! same outcome on every puzzle, and every solution keeps the givens and
//! obeys the rules.

use sudoku_grpc::domain::solver::{reference, solve};
use sudoku_grpc::domain::{Board, Outcome, PuzzleError, parse_board, parse_puzzle};

fn boards(name: &str) -> Vec<Board> {
    crate::common::read_puzzles(name)
        .iter()
        .map(|line| parse_board(line).unwrap())
        .collect()
}

/// Checks every board of a file against the reference: the outcome the
/// file promises, from both solvers; a valid solution that keeps the givens;
/// and for unique puzzles, the same solution.
fn check_file(name: &str, expected: Outcome) {
    let boards = boards(name);
    assert!(
        boards.len() >= 300,
        "{name} holds only {} puzzles",
        boards.len()
    );
    for board in &boards {
        let report = solve(board, || false).unwrap();
        assert_eq!(report.outcome, expected, "{name}: {board}");
        let (count, reference_solution) = reference::count_solutions(board, 2);
        let reference_outcome = Outcome::of_solution_count(count);
        assert_eq!(reference_outcome, expected, "reference on {name}: {board}");
        if let Some(solution) = report.solution {
            assert!(solution.is_solved(), "{board}: {solution} breaks the rules");
            assert!(
                solution.keeps_givens_of(board),
                "{board}: {solution} drops a given"
            );
        }
        if expected == Outcome::Solved {
            assert_eq!(report.solution, reference_solution, "{board}");
        }
    }
}

#[test]
fn unique_puzzles_agree_with_the_reference_and_solutions_match() {
    check_file("unique.txt", Outcome::Solved);
}

#[test]
fn puzzles_with_several_solutions_agree_with_the_reference() {
    check_file("multiple.txt", Outcome::MultipleSolutions);
}

#[test]
fn unsolvable_puzzles_agree_with_the_reference() {
    check_file("unsolvable.txt", Outcome::NoSolution);
}

#[test]
fn conflicting_givens_are_rejected_naming_the_repeat() {
    let lines = crate::common::read_puzzles("conflicting.txt");
    assert!(lines.len() >= 300);
    for line in lines {
        let Err(PuzzleError::ConflictingGivens(conflict)) = parse_puzzle(&line) else {
            panic!("{line} was not rejected as conflicting");
        };
        let board = parse_board(&line).unwrap();
        assert_eq!(board.get(conflict.first), conflict.digit);
        assert_eq!(board.get(conflict.second), conflict.digit);
        assert_ne!(conflict.first, conflict.second);
        // Handed to the solver anyway, the board gets no answer, not a wrong one.
        assert_eq!(
            solve(&board, || false).unwrap().outcome,
            Outcome::NoSolution,
            "{line}"
        );
    }
}
