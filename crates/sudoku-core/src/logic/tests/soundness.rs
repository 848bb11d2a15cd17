//! Soundness: walks over classic puzzles, puzzles made for these tests
//! and random unique puzzles, every step checked against the solution;
//! and the walk's ladder checked against a ladder with no memory.

use super::grader::RATED;
use super::strong_links::{GROUPED_STRONG_LINKS, GROUPED_THREE_LINKS};
use super::uniqueness::{BUGS, UNIQUE_LOOPS};
use super::wings::{ALIGNED_PAIRS, ALIGNED_TRIPLES};
use super::*;

#[test]
fn every_instance_listed_is_sound_distinct_and_led_by_the_first_found() {
    let listable = [
        Technique::NakedPair,
        Technique::NakedTriple,
        Technique::HiddenPair,
        Technique::HiddenTriple,
        Technique::XYWing,
        Technique::XYZWing,
    ];
    let mut listed = 0;
    for text in [WINGS, MIXED_CHAINS, INKALA, ESCARGOT] {
        let puzzle = board(text);
        let solution = solution_of(&puzzle);
        let mut grid = Grid::new(&puzzle);
        // Fill in the singles first, so that the subsets and wings show.
        while let Some(step) = simplest_step(&grid, &never) {
            if step.placements.is_empty() {
                break;
            }
            step.apply(&mut grid);
        }
        for technique in listable {
            let all = all_instances(&grid, technique);
            assert_eq!(all.first(), find_technique(&grid, technique).as_ref());
            for (i, step) in all.iter().enumerate() {
                assert_true_to(step, &solution.to_line());
                assert!(
                    all[..i].iter().all(|s| s != step),
                    "{technique} listed twice"
                );
            }
            listed += all.len();
        }
    }
    assert!(listed >= 4, "only {listed} instances listed");
}

#[test]
fn walking_classic_and_made_puzzles_never_contradicts_the_solution() {
    for text in walked_puzzles() {
        let puzzle = board(text);
        let faults = walk_faults(&puzzle, solution_of(&puzzle));
        assert!(faults.is_empty(), "{text}: {faults:#?}");
    }
}

/// Checks that every harder step of a walk is the one a ladder with no
/// memory finds on the same grid.
struct Unremembered {
    compared: usize,
    differences: Vec<String>,
}

impl Observer for Unremembered {
    fn single(&mut self, _: &Grid, _: Single) {}

    fn step(&mut self, before: &Grid, step: &Step) {
        self.compared += 1;
        let fresh = super::ladder::harder_step(before, &never);
        if fresh.as_ref() != Some(step) {
            self.differences.push(format!(
                "at {}: the walk took {step:?}, a fresh ladder finds {fresh:?}",
                before.marks_text()
            ));
        }
    }
}

#[test]
fn the_walk_s_ladder_finds_what_a_ladder_with_no_memory_finds() {
    // The walk's ladder searches only what changed below the rung that
    // found the last step; every step must still be the simplest.
    let rated = [
        &RATED[..],
        &CYCLES_AND_CHAINS,
        &BUGS,
        &UNIQUE_LOOPS,
        &ALIGNED_PAIRS,
        &ALIGNED_TRIPLES,
        &GROUPED_STRONG_LINKS,
        &GROUPED_THREE_LINKS,
        &DYNAMIC_CHAINS,
    ]
    .concat();
    // Four of magictour's "top 1465": in the first two an aligned
    // triple exclusion turns on a cell that the three base cells all see,
    // in the fourth on a changed third cell; in the third a Nishio chain
    // on the lowest digit a step changed.
    let top = [
        "4.2....5..8.7..1..1..9......9.6....8..5..12......2..7...9.3..4..3......6......8..",
        "9.7.5..8..2.........57.3..1....72.........812..398..5.......46..9.......6.83...7.",
        "..3..4..2....6..8....1..69718.4.......75.........71...23.8..4.............1...578",
        "...39.....8...6......14.7..1.....47....5....69...2..8..5....3..32..8...47.1......",
    ];
    let puzzles = rated
        .iter()
        .map(|(text, _, _)| *text)
        .chain([WINGS, MIXED_CHAINS])
        .chain(MADE)
        .chain(top);
    let mut checker = Unremembered {
        compared: 0,
        differences: Vec::new(),
    };
    for text in puzzles {
        walk(
            Grid::new(&board(text)),
            &never,
            &|| Duration::ZERO,
            &mut checker,
        );
    }
    assert!(checker.differences.is_empty(), "{:#?}", checker.differences);
    assert!(checker.compared > 500, "only {} steps", checker.compared);
}

/// A solved grid: [`SOLUTION`] with its digits relabelled, its bands,
/// stacks, and the rows and columns within them shuffled, and perhaps
/// transposed, all moves that keep a grid valid.
fn solved_grids() -> impl Strategy<Value = Board> {
    let three = || Just(vec![0usize, 1, 2]).prop_shuffle();
    (
        Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
        three(),
        three(),
        prop::collection::vec(three(), 3),
        prop::collection::vec(three(), 3),
        any::<bool>(),
    )
        .prop_map(|(digits, bands, stacks, rows, columns, transpose)| {
            let base = board(SOLUTION);
            let mut cells = [0u8; 81];
            for (index, value) in cells.iter_mut().enumerate() {
                let (row, column) = (index / 9, index % 9);
                let r = bands[row / 3] * 3 + rows[row / 3][row % 3];
                let c = stacks[column / 3] * 3 + columns[column / 3][column % 3];
                let (r, c) = if transpose { (c, r) } else { (r, c) };
                *value = digits[usize::from(base.cells()[r * 9 + c] - 1)];
            }
            Board::from_cells(cells).expect("digits 1-9")
        })
}

/// Empties the cells of `solution` in `order`, each only while the puzzle
/// keeps one solution: a minimal puzzle.
fn minimal_puzzle(solution: &Board, order: &[usize]) -> Board {
    let mut cells = *solution.cells();
    for &index in order {
        let digit = cells[index];
        cells[index] = 0;
        let puzzle = Board::from_cells(cells).expect("digits");
        if solve(&puzzle, never).expect("never stopped").outcome != Outcome::Solved {
            cells[index] = digit;
        }
    }
    Board::from_cells(cells).expect("digits")
}

/// A minimal puzzle and its one solution.
pub(crate) fn unique_puzzles() -> impl Strategy<Value = (Board, Board)> {
    (
        solved_grids(),
        Just((0..81usize).collect::<Vec<_>>()).prop_shuffle(),
    )
        .prop_map(|(solution, order)| (minimal_puzzle(&solution, &order), solution))
}

proptest! {
    // Each case builds a minimal puzzle (81 solves) and walks it, now and
    // then through chains and forcing chains: 32 cases keep it to seconds.
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn every_step_on_a_random_unique_puzzle_agrees_with_its_solution(case in unique_puzzles()) {
        let (puzzle, solution) = case;
        let faults = walk_faults(&puzzle, solution);
        prop_assert!(faults.is_empty(), "{}: {:#?}", puzzle, faults);
    }
}
