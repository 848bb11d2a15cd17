//! The f-puzzles reader: arbitrary bytes as JSON, a link or a payload.
//!
//! Checks, for every input:
//!
//! * reading never panics, and a refusal's message is not empty;
//! * an accepted puzzle has a supported size, one given a cell (each at
//!   most the size), regions that tile the grid, and constraints whose
//!   cells are on the grid, as `VariantPuzzle::new` promises;
//! * solving it for a moment either stops or gives solutions that keep
//!   every given, with every cell a digit of the grid.
#![no_main]

use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use sudoku_core::variant::{Shape, VariantPuzzle, fpuzzles, solve_variant};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match fpuzzles::read(&text) {
        Err(error) => assert!(!error.to_string().trim().is_empty()),
        Ok(puzzle) => check_puzzle(&puzzle),
    }
});

fn check_puzzle(puzzle: &VariantPuzzle) {
    let size = puzzle.shape().size();
    assert!(Shape::SIZES.contains(&size));
    let cells = puzzle.shape().cell_count();
    assert_eq!(puzzle.givens().len(), cells);
    assert!(puzzle.givens().iter().all(|&d| usize::from(d) <= size));
    let mut counts = vec![0; size];
    for &region in puzzle.regions() {
        counts[usize::from(region)] += 1;
    }
    assert!(counts.iter().all(|&count| count == size), "{counts:?}");
    let deadline = Instant::now() + Duration::from_millis(20);
    if let Ok(report) = solve_variant(puzzle, || Instant::now() >= deadline) {
        for solution in &report.solutions {
            assert_eq!(solution.len(), cells);
            for (&digit, &given) in solution.iter().zip(puzzle.givens()) {
                assert!((1..=size).contains(&usize::from(digit)));
                assert!(given == 0 || given == digit);
            }
        }
    }
}
