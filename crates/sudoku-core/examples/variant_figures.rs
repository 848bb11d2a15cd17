//! Makes variant puzzle sets and times their certification: the figures
//! of docs/variants.md.
//!
//! ```text
//! variant_figures write KIND COUNT SEED [SECONDS]  f-puzzles JSON lines on stdout
//! variant_figures time FILE                         certify each line, then median and slowest
//! ```
//!
//! KIND is `6`, `16`, `25` (minimal puzzles with standard boxes; a 25×25
//! stops removing givens once SECONDS have passed, 60 unless set) or
//! `killer` (9×9 cages of 2 to 4 cells with the fewest givens that keep
//! one solution).
//!
//! `cargo run --release -p sudoku-core --example variant_figures -- write 16 300 1 > sixteen.jsonl`

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use sudoku_core::Outcome;
use sudoku_core::variant::generate::{killer_puzzle, minimal_puzzle, to_fpuzzles_json};
use sudoku_core::variant::{Shape, fpuzzles, solve_variant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["write", kind, count, seed] => write(kind, count, seed, 60),
        ["write", kind, count, seed, seconds] => {
            write(kind, count, seed, seconds.parse().expect("SECONDS"))
        }
        ["time", file] => time(file),
        _ => panic!("usage: variant_figures write KIND COUNT SEED [SECONDS] | time FILE"),
    }
}

/// Writes `count` puzzles of `kind` from seeds `seed`, `seed + 1`, ...,
/// and on stderr how long making them took.
fn write(kind: &str, count: &str, seed: &str, seconds: u64) {
    let count: u64 = count.parse().expect("COUNT");
    let seed: u64 = seed.parse().expect("SEED");
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    let mut givens = Vec::new();
    for index in 0..count {
        let made = match kind {
            "killer" => killer_puzzle(seed + index, 4, &|| false),
            size => {
                let shape = Shape::new(size.parse().expect("KIND")).expect("a size");
                let deadline = Instant::now() + Duration::from_secs(seconds);
                minimal_puzzle(shape, seed + index, &|| Instant::now() >= deadline)
            }
        };
        givens.push(made.puzzle.givens().iter().filter(|&&d| d != 0).count());
        writeln!(out, "{}", to_fpuzzles_json(&made.puzzle)).unwrap();
    }
    givens.sort_unstable();
    eprintln!(
        "made {count} {kind} puzzles in {:.1} s; givens: fewest {}, median {}, most {}",
        started.elapsed().as_secs_f64(),
        givens[0],
        givens[givens.len() / 2],
        givens[givens.len() - 1]
    );
}

/// Certifies each puzzle of `file` and prints the median, the slowest and
/// the total, with the outcomes.
fn time(file: &str) {
    let file = std::fs::File::open(file).expect("FILE");
    let mut times = Vec::new();
    let (mut unique, mut other) = (0, 0);
    for line in std::io::BufReader::new(file).lines() {
        let puzzle = fpuzzles::read(&line.unwrap()).expect("a puzzle");
        let started = Instant::now();
        let report = solve_variant(&puzzle, || false).unwrap();
        times.push(started.elapsed());
        match report.outcome {
            Outcome::Solved => unique += 1,
            _ => other += 1,
        }
    }
    let total: Duration = times.iter().sum();
    times.sort_unstable();
    println!(
        "{} puzzles ({unique} unique, {other} not): median {:.3} ms, slowest {:.3} ms, total {:.3} s",
        times.len(),
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3,
        total.as_secs_f64()
    );
}
