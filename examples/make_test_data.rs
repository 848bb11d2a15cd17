//! Writes the puzzle files in `tests/data/` from the benchmark sets in
//! `../shared/puzzles`, so that tests never need that folder:
//!
//! ```text
//! cargo run --release --example make_test_data -- ../shared/puzzles tests/data
//! ```
//!
//! * `unique.txt`: a sample of every benchmark set (each has one solution),
//!   keeping only puzzles the plain reference oracle finishes within
//!   [`ORACLE_BUDGET`], so that the differential tests stay quick;
//! * `multiple.txt`: sampled puzzles with givens removed until they have
//!   several solutions;
//! * `unsolvable.txt`: sampled puzzles with one blank filled by a digit that
//!   clashes with no given but is not the solution's, checked to have none;
//! * `conflicting.txt`: sampled puzzles with one blank filled by a digit that
//!   repeats a given in its row, column or box.
//!
//! Choices are made by a fixed-seed generator, so reruns write the same files.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use sudoku_grpc::domain::solver::{reference, solve};
use sudoku_grpc::domain::{Board, Outcome, parse_board};
use sudoku_grpc::file::read_puzzle_lines;

/// (file, consider one puzzle in this many) per benchmark set.
const SAMPLES: [(&str, usize); 4] = [
    ("kaggle_like.txt", 10),
    ("17_clue.txt", 60),
    ("top1465.txt", 5),
    ("hardest_1905_11plus.txt", 100),
];

/// The most time the plain reference may need for a sampled puzzle.
const ORACLE_BUDGET: Duration = Duration::from_millis(100);

fn oracle_is_quick(board: &Board) -> bool {
    let started = Instant::now();
    reference::count_solutions(board, 2);
    started.elapsed() <= ORACLE_BUDGET
}

/// A small xorshift generator: enough to pick cells reproducibly.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn outcome(board: &Board) -> Outcome {
    solve(board, || false).expect("never cancelled").outcome
}

fn with_cell(board: &Board, index: usize, value: u8) -> Board {
    let mut cells = *board.cells();
    cells[index] = value;
    Board::from_cells(cells).expect("value is 0-9")
}

fn blanks(board: &Board) -> Vec<usize> {
    (0..81).filter(|&i| board.cells()[i] == 0).collect()
}

fn make_multiple(board: &Board, rng: &mut Rng) -> Board {
    let mut current = *board;
    while outcome(&current) != Outcome::MultipleSolutions {
        let givens: Vec<usize> = (0..81).filter(|&i| current.cells()[i] != 0).collect();
        current = with_cell(&current, givens[rng.below(givens.len())], 0);
    }
    current
}

fn make_unsolvable(board: &Board, rng: &mut Rng) -> Option<Board> {
    let solution = solve(board, || false).unwrap().solution?;
    let open = blanks(board);
    for _ in 0..50 {
        let index = open[rng.below(open.len())];
        let digit = 1 + rng.below(9) as u8;
        if digit == solution.cells()[index] {
            continue;
        }
        let candidate = with_cell(board, index, digit);
        if candidate.find_conflict().is_none() && outcome(&candidate) == Outcome::NoSolution {
            return Some(candidate);
        }
    }
    None
}

fn make_conflicting(board: &Board, rng: &mut Rng) -> Option<Board> {
    let open = blanks(board);
    for _ in 0..50 {
        let candidate = with_cell(board, open[rng.below(open.len())], 1 + rng.below(9) as u8);
        if candidate.find_conflict().is_some() {
            return Some(candidate);
        }
    }
    None
}

fn write(dir: &Path, name: &str, header: &str, boards: &[Board]) {
    let mut text = format!(
        "# {header}\n# Written by examples/make_test_data.rs; {} puzzles.\n",
        boards.len()
    );
    for board in boards {
        writeln!(text, "{board}").unwrap();
    }
    std::fs::write(dir.join(name), text).unwrap();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (source, target) = match &args[..] {
        [_, source, target] => (Path::new(source), Path::new(target)),
        _ => panic!("usage: make_test_data SHARED_PUZZLES_DIR TARGET_DIR"),
    };
    let mut unique = Vec::new();
    for (file, every) in SAMPLES {
        let input = std::io::BufReader::new(std::fs::File::open(source.join(file)).unwrap());
        let lines = read_puzzle_lines(input).unwrap();
        let sampled = lines
            .iter()
            .step_by(every)
            .map(|line| parse_board(line).unwrap());
        unique.extend(sampled.filter(oracle_is_quick));
    }
    assert!(unique.iter().all(|b| outcome(b) == Outcome::Solved));

    let mut rng = Rng(0x5EED_CAFE_F00D_BEEF);
    let multiple: Vec<Board> = unique
        .iter()
        .step_by(2)
        .map(|b| make_multiple(b, &mut rng))
        .collect();
    let unsolvable: Vec<Board> = unique
        .iter()
        .step_by(2)
        .filter_map(|b| make_unsolvable(b, &mut rng))
        .collect();
    let conflicting: Vec<Board> = unique
        .iter()
        .step_by(4)
        .filter_map(|b| make_conflicting(b, &mut rng))
        .collect();

    write(
        target,
        "unique.txt",
        "Puzzles with exactly one solution, sampled from the benchmark sets.",
        &unique,
    );
    write(
        target,
        "multiple.txt",
        "Puzzles with several solutions: sampled puzzles with givens removed.",
        &multiple,
    );
    write(
        target,
        "unsolvable.txt",
        "Consistent givens with no solution: one blank filled with a wrong digit.",
        &unsolvable,
    );
    write(
        target,
        "conflicting.txt",
        "Givens that repeat a digit in a row, column or box.",
        &conflicting,
    );
    println!(
        "unique {}, multiple {}, unsolvable {}, conflicting {}",
        unique.len(),
        multiple.len(),
        unsolvable.len(),
        conflicting.len()
    );
}
