//! The solver on arbitrary boards, against the plain reference.
//!
//! The input becomes a board in one of two ways (see [`board_from`]): raw
//! (each byte a cell, mostly blanks) or shaped (a valid solution grid,
//! shuffled by symmetries the input picks, showing the cells the input picks,
//! with a few wrong digits dropped in), so that the fuzzer reaches the boards
//! that matter: sparse ones, near-unique ones, and consistent givens with no
//! completion, not only boards whose givens clash.
//!
//! Checks, for every board, with `solve_board` never cancelled:
//!
//! * it terminates (libFuzzer's `-timeout` catches a hang) without panicking;
//! * givens that repeat a digit give `ConflictingGivens` with the conflict
//!   `find_conflict` names, and `solve` answers `NoSolution` for them;
//! * otherwise the report is self-consistent (a solution exactly when the
//!   outcome is not `NoSolution`), the solution `is_solved()` and
//!   `keeps_givens_of` the board, and solving is deterministic;
//! * the reference oracle (`count_solutions_within`, step-limited) gives the
//!   same outcome class, and the same solution when it is unique; when the
//!   oracle runs out of steps only the checks above apply;
//! * the same board moved by a Sudoku symmetry (picked from a hash of the
//!   input) has the same outcome, and when unique the moved solution: a
//!   check that needs no oracle, so it also covers the boards the oracle
//!   gives up on;
//! * propagation is as strong as documented: a board that plain naked and
//!   hidden singles and locked candidates (written here) settle, solved or
//!   contradicted, takes no guess; and whether a board takes none is the same
//!   for its moved image.
//!
//! The solver is fast on almost every board, but not on all: some sparse
//! boards with no solution take it seconds (millions of guesses), because
//! their contradiction (e.g. three digits that a box can only place in two
//! cells) is beyond its propagation. `-timeout` (scripts/fuzz.sh) turns a
//! really slow one into a failure; libFuzzer reports the slowest input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::solver::{self, reference};
use sudoku_core::{Board, Outcome, PuzzleError, SolvePuzzleError, solve_board};

/// Digits the oracle may try before giving up. Most boards need far fewer;
/// this keeps the oracle's share of the worst input to a few milliseconds.
const ORACLE_STEPS: u64 = 20_000;

/// A valid solution grid, the base of shaped boards.
const SOLUTION: &[u8; 81] =
    b"534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fuzz_target!(|data: &[u8]| {
    let board = board_from(data);
    let conflict = board.find_conflict();
    let answer = solve_board(&board, None, || false);

    if let Some(conflict) = conflict {
        assert_eq!(
            answer,
            Err(SolvePuzzleError::Puzzle(PuzzleError::ConflictingGivens(
                conflict
            ))),
            "{board}"
        );
        let report = solver::solve(&board, || false).expect("never cancelled");
        assert_eq!(
            (report.outcome, report.solution),
            (Outcome::NoSolution, None)
        );
        let moved = Symmetry::from_seed(hash(data)).apply(&board);
        assert!(moved.find_conflict().is_some());
        assert!(solve_board(&moved, None, || false).is_err(), "{moved}");
        return;
    }

    let report = match answer {
        Ok(report) => report,
        Err(error) => panic!("{board}: no conflict, but {error:?}"),
    };
    check_report(&board, &report);
    check_logic(&board, &report);
    assert_eq!(
        solver::solve(&board, || false),
        Ok(report),
        "{board}: solving again differs"
    );

    if let Some((count, first)) = reference::count_solutions_within(&board, 2, ORACLE_STEPS) {
        let expected = Outcome::of_solution_count(count);
        assert_eq!(report.outcome, expected, "{board}: the reference disagrees");
        if let Some(first) = first {
            assert!(first.is_solved() && first.keeps_givens_of(&board));
        }
        if expected == Outcome::Solved {
            assert_eq!(
                report.solution, first,
                "{board}: a different unique solution"
            );
        }
    }

    let symmetry = Symmetry::from_seed(hash(data));
    let moved = symmetry.apply(&board);
    let moved_report = solve_board(&moved, None, || false)
        .unwrap_or_else(|error| panic!("{moved} (moved {board}): {error:?}"));
    check_report(&moved, &moved_report);
    assert_eq!(
        moved_report.outcome, report.outcome,
        "{board} and its image {moved} differ"
    );
    // Propagation is the same in every orientation, so whether it settles
    // the board without a guess cannot depend on one.
    assert_eq!(
        moved_report.stats.guesses == 0,
        report.stats.guesses == 0,
        "{board} ({} guesses) and its image {moved} ({} guesses)",
        report.stats.guesses,
        moved_report.stats.guesses
    );
    if report.outcome == Outcome::Solved {
        assert_eq!(
            moved_report.solution,
            report.solution.map(|solution| symmetry.apply(&solution)),
            "{board} and its image {moved}: solutions do not correspond"
        );
    }
});

/// The report's own promises: a valid solution keeping the givens exactly
/// when there is one.
fn check_report(board: &Board, report: &solver::SolveReport) {
    match (report.outcome, report.solution) {
        (Outcome::NoSolution, None) => {}
        (Outcome::Solved | Outcome::MultipleSolutions, Some(solution)) => {
            assert!(solution.is_solved(), "{board}: {solution} breaks the rules");
            assert!(
                solution.keeps_givens_of(board),
                "{board}: {solution} drops a given"
            );
        }
        (outcome, solution) => panic!("{board}: {outcome:?} with solution {solution:?}"),
    }
    if board.is_solved() {
        assert_eq!(report.outcome, Outcome::Solved);
        assert_eq!(report.solution.as_ref(), Some(board));
    }
}

/// What plain singles and locked candidates make of a board.
#[derive(Debug, PartialEq)]
enum Logic {
    Solved,
    Contradiction,
    Stuck,
}

/// The solver's documented propagation includes naked and hidden singles
/// and locked candidates (pointing and claiming), and `guesses` counts the
/// branching it needed beyond propagation. So a board that these rules alone
/// settle, written here plainly, must take no guess.
fn check_logic(board: &Board, report: &solver::SolveReport) {
    let logic = plain_logic(board);
    let expected = match logic {
        Logic::Solved => Outcome::Solved,
        Logic::Contradiction => Outcome::NoSolution,
        Logic::Stuck => return,
    };
    assert_eq!(
        (report.outcome, report.stats.guesses),
        (expected, 0),
        "{board}: plain logic gives {logic:?}"
    );
}

/// The 27 units as cell indices: rows, columns, boxes.
fn units() -> [[usize; 9]; 27] {
    std::array::from_fn(|unit| {
        std::array::from_fn(|i| match unit {
            0..9 => unit * 9 + i,
            9..18 => i * 9 + (unit - 9),
            _ => {
                let b = unit - 18;
                (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3
            }
        })
    })
}

/// The row, column and box of a cell, as indices into [`units`].
fn units_of(cell: usize) -> [usize; 3] {
    let (row, column) = (cell / 9, cell % 9);
    [row, 9 + column, 18 + row / 3 * 3 + column / 3]
}

/// Candidates as bit sets (bit `d - 1` for digit `d`), narrowed by naked
/// singles, hidden singles and box/line intersections until nothing changes.
fn plain_logic(board: &Board) -> Logic {
    let units = units();
    let mut candidates = board.cells().map(|value| {
        if value == 0 {
            0x1FF
        } else {
            1u16 << (value - 1)
        }
    });
    loop {
        let before = candidates;
        // Naked singles: a settled cell's digit leaves its peers.
        for cell in 0..81 {
            let bits = candidates[cell];
            if bits.count_ones() != 1 {
                continue;
            }
            for unit in units_of(cell) {
                for peer in units[unit] {
                    if peer != cell {
                        candidates[peer] &= !bits;
                    }
                }
            }
        }
        if candidates.contains(&0) {
            return Logic::Contradiction;
        }
        for (index, unit) in units.iter().enumerate() {
            for digit in 0..9 {
                let bit = 1u16 << digit;
                // The other units (as bit sets of unit indices) that hold
                // every place of the digit in this unit.
                let mut shared = u32::MAX >> 5;
                let mut places = 0;
                let mut last = 0;
                for &cell in unit {
                    if candidates[cell] & bit != 0 {
                        places += 1;
                        last = cell;
                        shared &= units_of(cell).iter().fold(0, |set, &u| set | 1 << u);
                    }
                }
                match places {
                    0 => return Logic::Contradiction,
                    // Hidden single.
                    1 => candidates[last] = bit,
                    _ => {}
                }
                // Locked candidates: the digit's places here all lie in
                // another unit too, so it leaves the rest of that one.
                shared &= !(1 << index);
                while shared != 0 {
                    let other = shared.trailing_zeros() as usize;
                    shared &= shared - 1;
                    for cell in units[other] {
                        if !unit.contains(&cell) {
                            candidates[cell] &= !bit;
                        }
                    }
                }
            }
        }
        if candidates == before {
            break;
        }
    }
    if candidates.iter().all(|bits| bits.count_ones() == 1) {
        Logic::Solved
    } else {
        Logic::Stuck
    }
}

/// The input's bytes, then zeros.
struct Bytes<'a>(std::slice::Iter<'a, u8>);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        self.0.next().copied().unwrap_or(0)
    }
}

/// The board an input stands for.
///
/// * First byte below 0x80 (so any puzzle text): **raw**, one byte per cell,
///   `1`-`9` or the bytes 1-9 are givens and anything else is blank, so
///   random bytes give sparse boards and puzzle lines give themselves.
/// * Otherwise **shaped**: byte 1 is the density, byte 2 the number of
///   stray digits (0-7), then bytes for a symmetry of [`SOLUTION`]; then one
///   byte per cell, the cell showing its solution digit when below the
///   density; then (cell, digit) byte pairs for the strays, which may make
///   the givens clash or leave no completion.
fn board_from(data: &[u8]) -> Board {
    let mut bytes = Bytes(data.iter());
    let mut cells = [0u8; 81];
    if data.first().is_none_or(|&first| first < 0x80) {
        for cell in &mut cells {
            *cell = match bytes.next() {
                digit @ 1..=9 => digit,
                digit @ b'1'..=b'9' => digit - b'0',
                _ => 0,
            };
        }
        return Board::from_cells(cells).expect("cells are 0-9");
    }
    bytes.next();
    let density = bytes.next();
    let strays = bytes.next() % 8;
    let symmetry = Symmetry::from_bytes(&mut bytes);
    let solution = symmetry.apply(&Board::from_cells(SOLUTION.map(|b| b - b'0')).expect("digits"));
    for (cell, &digit) in cells.iter_mut().zip(solution.cells()) {
        if bytes.next() < density {
            *cell = digit;
        }
    }
    for _ in 0..strays {
        let cell = usize::from(bytes.next()) % 81;
        cells[cell] = bytes.next() % 10;
    }
    Board::from_cells(cells).expect("cells are 0-9")
}

/// A validity-preserving move of the grid: cell `i` of the image is cell
/// `cells[i]` of the original, with its digit renamed by `digits`.
struct Symmetry {
    cells: [usize; 81],
    digits: [u8; 10],
}

impl Symmetry {
    /// Picks a symmetry with the next bytes: a renaming of the digits, the
    /// order of the bands, of the rows in each band, of the stacks, of the
    /// columns in each stack, and whether to transpose.
    fn from_bytes(bytes: &mut Bytes) -> Symmetry {
        let names = permutation::<9>(bytes);
        let mut digits = [0u8; 10];
        for (digit, name) in names.iter().enumerate() {
            digits[digit + 1] = *name as u8 + 1;
        }
        let mut lines = || {
            let groups = permutation::<3>(bytes);
            let mut order = [0usize; 9];
            for (group, &from) in groups.iter().enumerate() {
                let within = permutation::<3>(bytes);
                for (offset, &line) in within.iter().enumerate() {
                    order[group * 3 + offset] = from * 3 + line;
                }
            }
            order
        };
        let (rows, columns) = (lines(), lines());
        let transpose = bytes.next() & 1 == 1;
        let mut cells = [0usize; 81];
        for (index, cell) in cells.iter_mut().enumerate() {
            let (row, column) = (rows[index / 9], columns[index % 9]);
            *cell = if transpose {
                column * 9 + row
            } else {
                row * 9 + column
            };
        }
        Symmetry { cells, digits }
    }

    /// A symmetry picked by a seed rather than by the input's bytes.
    fn from_seed(mut seed: u64) -> Symmetry {
        let mut random = Vec::with_capacity(32);
        for _ in 0..32 {
            // xorshift64: enough to spread the seed's bits.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            random.push(seed as u8);
        }
        Symmetry::from_bytes(&mut Bytes(random.iter()))
    }

    fn apply(&self, board: &Board) -> Board {
        let from = board.cells();
        let cells = self
            .cells
            .map(|index| self.digits[usize::from(from[index])]);
        Board::from_cells(cells).expect("digits are renamed within 0-9")
    }
}

/// A permutation of `0..N` picked by the next bytes.
fn permutation<const N: usize>(bytes: &mut Bytes) -> [usize; N] {
    let mut items: [usize; N] = std::array::from_fn(|i| i);
    for i in 0..N.saturating_sub(1) {
        let j = i + usize::from(bytes.next()) % (N - i);
        items.swap(i, j);
    }
    items
}

/// FNV-1a, made non-zero for xorshift.
fn hash(data: &[u8]) -> u64 {
    let hash = data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    hash | 1
}
