//! The slowest puzzles of puzzle files, for choosing `--max-solve-time`:
//! no puzzle of a benchmark set may come within 100 times of the default.
//!
//! `cargo run --release --example slowest_puzzles -- FILE...` solves every
//! puzzle of each file on one thread (certifying, as the server does), each
//! three times keeping its fastest time so that a stray interrupt does not
//! count, and prints the slowest few with their times and guesses.

use std::io::BufReader;
use std::time::{Duration, Instant};

use sudoku_grpc::domain::{Board, parse_board, solve_board};
use sudoku_grpc::file::read_puzzle_lines;

/// How many of the slowest puzzles of each file are printed.
const SHOWN: usize = 3;

/// The fastest of three solves of `board`, and its guesses; `None` for a
/// board the solver refuses (conflicting givens), which costs nothing.
fn solve_time(board: &Board) -> Option<(Duration, u64)> {
    let mut best = Duration::MAX;
    let mut guesses = 0;
    for _ in 0..3 {
        let started = Instant::now();
        let report = solve_board(board, None, || false).ok()?;
        best = best.min(started.elapsed());
        guesses = report.stats.guesses;
    }
    Some((best, guesses))
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    assert!(!files.is_empty(), "usage: slowest_puzzles FILE...");
    let mut slowest_of_all = Duration::ZERO;
    for path in files {
        let file = std::fs::File::open(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
        let lines = read_puzzle_lines(BufReader::new(file)).expect("readable");
        let mut times: Vec<(Duration, u64, String)> = lines
            .iter()
            .filter_map(|line| parse_board(line).ok())
            .filter_map(|board| {
                let (time, guesses) = solve_time(&board)?;
                Some((time, guesses, board.to_line()))
            })
            .collect();
        times.sort_by_key(|(time, ..)| std::cmp::Reverse(*time));
        println!("{path}: {} puzzles", times.len());
        for (time, guesses, line) in times.iter().take(SHOWN) {
            println!(
                "  {:>9.3} ms {guesses:>7} guesses  {line}",
                time.as_secs_f64() * 1e3
            );
        }
        if let Some((time, ..)) = times.first() {
            slowest_of_all = slowest_of_all.max(*time);
        }
    }
    println!(
        "slowest of all: {:.3} ms; 100 times that is {:.1} ms",
        slowest_of_all.as_secs_f64() * 1e3,
        slowest_of_all.as_secs_f64() * 1e5
    );
}
