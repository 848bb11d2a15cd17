//! Boards the fuzz targets (`fuzz/`, run by `scripts/fuzz.sh`) found
//! trouble with, kept so that the trouble stays fixed.

use std::cell::Cell;

use sudoku_grpc::domain::{Outcome, parse_board, solve_board};

/// Sparse boards with no solution whose flaw is a pigeonhole: three digits
/// that one unit can only place in two cells. Propagation does not see it,
/// so the solver used to branch on the rest of the board and fail on the
/// flaw under every branch: 184 million guesses (55 s) for the first, 6.7
/// million for the second, 2.6 million for the third, which came from the
/// `solve_board` target; the first two are variations on it.
const DEAD_ENDS: [(&str, &str); 3] = [
    (
        "...............1......3....8...........................3............264....6.42..",
        "row 7 and box 7 can put 2, 4 and 6 only in r7c1 and r7c3",
    ),
    (
        ".........3...............................7.............3............264....6.42..",
        "row 7 and box 7 can put 2, 4 and 6 only in r7c1 and r7c3",
    ),
    (
        "...3...............................93.............5..3.39....8....5...7...8.4.39.",
        "row 8 and box 8 can put 3, 8 and 9 only in r8c5 and r8c6",
    ),
];

#[test]
fn a_unit_that_cannot_take_its_digits_is_refuted_within_a_few_hundred_guesses() {
    for (line, flaw) in DEAD_ENDS {
        let board = parse_board(line).unwrap();
        // The solver polls this every 64 guesses: give up after about
        // 64,000, so that a regression fails in well under a second
        // rather than running for minutes.
        let polls = Cell::new(0u32);
        let is_cancelled = || {
            polls.set(polls.get() + 1);
            polls.get() > 1_000
        };
        let report = solve_board(&board, None, is_cancelled)
            .unwrap_or_else(|error| panic!("{line} ({flaw}): {error} after 64,000 guesses"));
        assert_eq!(report.outcome, Outcome::NoSolution, "{line}: {flaw}");
        assert_eq!(report.solution, None);
        assert!(
            report.stats.guesses <= 1_000,
            "{line} ({flaw}): {} guesses",
            report.stats.guesses
        );
    }
}
