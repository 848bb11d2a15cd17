//! Tests of the logical solver as a whole.
//!
//! - One hand-made position per technique family, cut from one solved
//!   grid: each test checks that the finder removes (or places) exactly
//!   what the pattern implies, and nothing the solution needs.
//! - Positions that look like a pattern but are not one.
//! - The grader on whole puzzles: ratings, levels, stalls.
//! - Soundness: walks over classic puzzles, puzzles made for these tests
//!   and random unique puzzles, checking every step against the solution.
//! - Hints, and the sentences steps are explained with.
//!
//! Every puzzle and position here was made for these tests, except the
//! classic puzzles named as such.
//!
//! The tests are grouped by family in the modules below; this one holds
//! what they share: the puzzles, the positions more than one family
//! uses, and the helpers that cut positions and check steps and walks.

use std::time::Duration;

use proptest::prelude::*;

use super::*;
use crate::solver::solve;
use crate::{Board, Cell, Outcome, parse_board};

mod chains;
mod forcing_chains;
mod grader;
mod hints;
mod singles;
mod soundness;
mod strong_links;
mod subsets;
mod uniqueness;
mod wings;

pub(super) use chains::CYCLES_AND_CHAINS;
pub(super) use forcing_chains::DYNAMIC_CHAINS;
pub(super) use soundness::unique_puzzles;

/// The solved grid the hand-made positions are cut from: the solution of
/// [`CLASSIC`].
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// Wikipedia's example puzzle; full houses and hidden singles in boxes
/// solve it.
const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// Made by emptying cells while full houses and hidden singles in boxes
/// still solve it.
const BOX_SINGLES: &str =
    "..8..1....97.582..6.....4........7...7....69486.94...3....3.92..8...6...4....2..1";

/// A minimal puzzle whose hardest step is a hidden single in a line.
const LINE_SINGLES: &str =
    "......6..7.9.......83....94...2....6..4..7.8.3.1...2.....6.27.....89......83.19..";

/// A minimal puzzle whose path takes an X-Wing and a naked triple, and at
/// its hardest an XY-Wing.
const WINGS: &str =
    "..4.12.......79.8.....4....7..6..8.43.....2...62....15.4......6.53.....2..64..3..";

/// A minimal puzzle whose path needs chains that mix digits.
const MIXED_CHAINS: &str =
    ".9..1....2...4.58..4.8..39..1.97..3.....3...8..21.....8....315........2..6......7";

/// Minimal puzzles made for the soundness walk, each reaching a different
/// technique: BUG+1, a naked quad, unique rectangles of types 1, 2 and 4,
/// an XYZ-Wing, contradiction forcing chains, an XY-Chain.
const MADE: [&str; 8] = [
    "........59.8.....3.7...8...2.....1.....2.3.98.4...6.....7.3..468..7.......1..4.82",
    "....1......9....51..63....9.........763...8...4.8.732..7.95..6....6.2.........2.3",
    "3..6..5...9..4.......2.....8....9.7.9....12.67....43.15.7.......1.....2...3...8..",
    "..9.7..2.7...68...23.1.........8..5..4..9.1...134..7............7.84....182......",
    ".5...42..9...35.....7......7..8..5......9.12........635........43.1...72.7..4..9.",
    "..35.28....768.......3..4.1...83.1.69.......2.....7....6..1...8...........9...54.",
    ".5..9.6.33....1.5...1...2.9..2.47.8.5..18......72..5....8..5.2.7.............43..",
    "8...5.14......1.3..249..6....1....9.4....9....5....4.7.38.1........72..1.....3.8.",
];

/// Arto Inkala's "world's hardest sudoku" (2012): nested forcing chains
/// from the first step.
const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// AI Escargot (2006): a few singles, then nested forcing chains.
const ESCARGOT: &str =
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";

/// The classic puzzles and those made for these tests, which the
/// soundness walks take from start to end.
pub(super) fn walked_puzzles() -> impl Iterator<Item = &'static str> {
    [
        CLASSIC,
        BOX_SINGLES,
        LINE_SINGLES,
        WINGS,
        MIXED_CHAINS,
        INKALA,
        ESCARGOT,
    ]
    .into_iter()
    .chain(MADE)
}

pub(super) fn board(text: &str) -> Board {
    parse_board(text).expect("test boards parse")
}

fn never() -> bool {
    false
}

/// The unique solution of a puzzle, as the backtracking solver finds it.
fn solution_of(puzzle: &Board) -> Board {
    let report = solve(puzzle, never).expect("never stopped");
    assert_eq!(
        report.outcome,
        Outcome::Solved,
        "{puzzle} must have one solution"
    );
    report.solution.expect("a solved puzzle has its solution")
}

/// The grading path of `text`, the simplest step at each position: every
/// grid with the step taken from it, and the grid where no step is left.
/// The logic tests that check a finder along real paths walk them here.
pub(super) fn path_of(text: &str) -> (Vec<(Grid, Step)>, Grid) {
    let mut grid = Grid::new(&board(text));
    let mut steps = Vec::new();
    while let Some(step) = ladder::simplest_step(&grid, &never) {
        let before = grid.clone();
        step.apply(&mut grid);
        steps.push((before, step));
    }
    (steps, grid)
}

/// The index of a cell named like `r4c7`.
fn cell(name: &str) -> usize {
    match name.as_bytes() {
        &[b'r', row @ b'1'..=b'9', b'c', column @ b'1'..=b'9'] => {
            usize::from(row - b'1') * 9 + usize::from(column - b'1')
        }
        _ => panic!("{name:?} is not a cell like r4c7"),
    }
}

/// Entries like `r1c9=25`, as (cell, digits).
fn entries(list: &str) -> impl Iterator<Item = (usize, Vec<u8>)> + '_ {
    list.split_whitespace().map(|entry| {
        let (name, digits) = entry.split_once('=').expect("entries look like r1c9=25");
        (cell(name), digits.bytes().map(|d| d - b'0').collect())
    })
}

/// Candidates written `r7c3=4 r8c7=46`, one mark per digit, sorted.
fn marks(list: &str) -> Vec<Mark> {
    let mut marks: Vec<Mark> = entries(list)
        .flat_map(|(index, digits)| digits.into_iter().map(move |d| Mark::new(index, d)))
        .collect();
    marks.sort();
    marks
}

fn sorted(marks: &[Mark]) -> Vec<Mark> {
    let mut marks = marks.to_vec();
    marks.sort();
    marks
}

/// A position cut from `solution`: the cells listed (`r1c1=56 r1c4=56
/// ...`) are blank with exactly those candidates, given as pencil marks;
/// every other cell holds its digit. Checks that each listed cell keeps
/// its solution digit and that no given rules out a listed candidate, so
/// the position is what the test says it is.
fn position_in(solution: &str, candidates: &str) -> Grid {
    let solved = board(solution);
    let mut cells = *solved.cells();
    let mut text: Vec<u8> = (0..729).map(|at| b'1' + (at % 9) as u8).collect();
    let mut wanted = Vec::new();
    for (index, digits) in entries(candidates) {
        let mask = digits.iter().fold(0u16, |mask, &d| mask | 1 << (d - 1));
        assert!(
            digits.contains(&cells[index]),
            "{} must keep its solution digit {}",
            Mark::new(index, 0).cell(),
            cells[index]
        );
        cells[index] = 0;
        for digit in 1..=9u8 {
            if mask & 1 << (digit - 1) == 0 {
                text[index * 9 + usize::from(digit) - 1] = b'.';
            }
        }
        wanted.push((index, mask));
    }
    let puzzle = Board::from_cells(cells).expect("digits");
    let text = String::from_utf8(text).expect("ASCII");
    let grid = Grid::with_marks(&puzzle, &text).expect("well-formed marks");
    for (index, mask) in wanted {
        assert_eq!(
            grid.marks(index),
            mask,
            "a given rules out a candidate listed for {}",
            Mark::new(index, 0).cell()
        );
    }
    grid
}

/// A position cut from [`SOLUTION`]; see [`position_in`].
pub(super) fn position(candidates: &str) -> Grid {
    position_in(SOLUTION, candidates)
}

/// The first step of a technique, which the test expects to exist, with
/// its witnesses; its reasoning is checked on the grid (see
/// [`super::reasoning_tests::shape_faults`]).
fn found(grid: &Grid, technique: Technique) -> Step {
    let step = find_technique(grid, technique)
        .unwrap_or_else(|| panic!("no {technique} found in the position"))
        .with_witnesses(grid);
    assert_eq!(step.technique, technique);
    let faults = super::reasoning_tests::shape_faults(&step, grid);
    assert!(faults.is_empty(), "{}: {faults:#?}", step.explanation());
    step
}

/// Checks that a step places only the solution's digits and removes none
/// of them.
fn assert_true_to(step: &Step, solution: &str) {
    let solution = board(solution);
    for mark in &step.placements {
        assert_eq!(
            solution.get(mark.cell()),
            mark.digit,
            "{} places a wrong digit",
            step.technique
        );
    }
    for mark in &step.eliminations {
        assert_ne!(
            solution.get(mark.cell()),
            mark.digit,
            "{} removes the solution's digit from {}",
            step.technique,
            mark.cell()
        );
    }
}

// Hand-made positions that tests of more than one family use.

/// Rows 1, 4 and 8 hold 4 only in columns 3, 4 and 7, two of them each,
/// and no two of those rows share their two columns.
const SWORDFISH: &str = "r1c3=4 r1c7=49 r2c8=4 r4c4=47 r4c7=4 r6c4=49 r6c6=4 r8c3=47 r8c4=4 r9c2=4";

/// Strong links on 4: row 1 (r1c3, r1c7), row 4 (r4c1, r4c7), row 2
/// (r2c1, r2c8) and column 7 (r1c7, r4c7).
const STRONG_LINKS: &str = "r1c3=4 r1c7=49 r2c1=46 r2c8=4 r4c1=48 r4c7=4 r5c1=4";

/// Pivot r1c1 {4,5}, wings r1c5 {5,7} and r5c1 {4,7}; r5c5 sees both
/// wings.
const XY_WING: &str = "r1c1=45 r1c5=57 r5c1=47 r5c5=57 r2c6=5 r1c3=4 r5c7=7 r6c1=7 r4c4=7";

// Walks checked against the solution, and puzzles against Sukaku
// Explainer's ratings.

/// Checks every single and step of a walk against the solution, and
/// keeps the grid the walk has reached.
struct Referee {
    solution: Board,
    reached: Option<Grid>,
    faults: Vec<String>,
}

impl Referee {
    fn new(solution: Board) -> Referee {
        Referee {
            solution,
            reached: None,
            faults: Vec::new(),
        }
    }

    fn check_placement(&mut self, before: &Grid, technique: Technique, mark: Mark) {
        let index = usize::from(mark.cell);
        if before.value(index) != 0 || !before.has(index, mark.digit) {
            self.faults.push(format!(
                "{technique} places {} in {}, not a candidate",
                mark.digit,
                mark.cell()
            ));
        }
        if self.solution.get(mark.cell()) != mark.digit {
            self.faults.push(format!(
                "{technique} places a wrong {} in {}",
                mark.digit,
                mark.cell()
            ));
        }
    }
}

impl Observer for Referee {
    fn single(&mut self, before: &Grid, single: Single) {
        self.check_placement(
            before,
            single.technique,
            Mark::new(single.cell, single.digit),
        );
        let mut after = before.clone();
        after.place(single.cell, single.digit);
        self.reached = Some(after);
    }

    fn step(&mut self, before: &Grid, step: &Step) {
        if step.is_empty() {
            self.faults
                .push(format!("{} changes nothing", step.technique));
        }
        for &mark in &step.placements {
            self.check_placement(before, step.technique, mark);
        }
        for mark in &step.eliminations {
            if !before.has(usize::from(mark.cell), mark.digit) {
                self.faults.push(format!(
                    "{} removes {} from {}, not a candidate",
                    step.technique,
                    mark.digit,
                    mark.cell()
                ));
            }
            if self.solution.get(mark.cell()) == mark.digit {
                self.faults.push(format!(
                    "{} removes the solution's {} from {}: {}",
                    step.technique,
                    mark.digit,
                    mark.cell(),
                    step.explanation()
                ));
            }
        }
        let mut after = before.clone();
        step.apply(&mut after);
        self.reached = Some(after);
    }
}

/// Walks a puzzle's logical path; the faults found: wrong steps, or an
/// end that is neither the solution nor a stall with no technique left.
fn walk_faults(puzzle: &Board, solution: Board) -> Vec<String> {
    let mut referee = Referee::new(solution);
    let grade = walk(Grid::new(puzzle), &never, &|| Duration::ZERO, &mut referee);
    let mut faults = referee.faults;
    match grade.stalled {
        None => {
            let reached = referee.reached.map(|grid| grid.board());
            if reached != Some(solution) {
                faults.push(format!(
                    "the walk ended at {reached:?}, not at the solution"
                ));
            }
        }
        Some(Stall::NoTechnique { .. }) => {}
        Some(stall) => faults.push(stall.to_string()),
    }
    faults
}

/// Checks each puzzle's ER/EP/ED (in tenths) and hardest technique, and
/// every step of its path against its solution.
fn assert_rated_as_sukaku_explainer_rates(puzzles: &[(&str, [u16; 3], Technique)]) {
    for &(text, ratings, technique) in puzzles {
        let puzzle = board(text);
        let grade = grade(&puzzle);
        assert_eq!(
            (
                [grade.rating, grade.pearl, grade.diamond],
                grade.hardest,
                grade.stalled
            ),
            (ratings.map(Rating), Some(technique), None),
            "{text}"
        );
        let faults = walk_faults(&puzzle, solution_of(&puzzle));
        assert!(faults.is_empty(), "{text}: {faults:#?}");
    }
}
