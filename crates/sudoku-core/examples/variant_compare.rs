//! Certifies variant puzzles side by side with another solver's recorded
//! answers and times: reads JSON lines as `scripts/iss-export.mjs` writes
//! them (`fpuzzles`, `iss_verdict`, `iss_solution`, `iss_ms`, `collection`,
//! `name`), solves each `REPEAT` times (best time kept; `BUDGET_MS` a solve,
//! 20 s unless set; `ONLY=A,B` keeps the puzzles whose collection or
//! name holds A or B), and prints each
//! puzzle's agreement and time ratio, then totals per collection.
//!
//! `cargo run --release -p sudoku-core --example variant_compare -- FILE.jsonl`

use std::collections::BTreeMap;
use std::time::Instant;

use sudoku_core::Outcome;
use sudoku_core::variant::{digits_line, fpuzzles, solve_variant};

fn verdict(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Solved => "unique",
        Outcome::MultipleSolutions => "multiple",
        _ => "none",
    }
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: variant_compare FILE.jsonl");
    let repeat: usize = std::env::var("REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let budget_ms: u64 = std::env::var("BUDGET_MS")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(20_000);
    // `ONLY=A,B`: the puzzles whose collection or name holds one of these.
    let only: Vec<String> = std::env::var("ONLY")
        .map(|only| only.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let text = std::fs::read_to_string(&path).expect("readable file");
    let mut totals: BTreeMap<String, (usize, f64, f64, usize, f64)> = BTreeMap::new();
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let name = record["name"].as_str().unwrap_or("?");
        let collection = record["collection"].as_str().unwrap_or("?").to_string();
        let chosen = only.is_empty()
            || only
                .iter()
                .any(|part| collection.contains(part.as_str()) || name.contains(part.as_str()));
        if !chosen {
            continue;
        }
        let json = record["fpuzzles"].to_string();
        let puzzle = match fpuzzles::read_json(&json) {
            Ok(puzzle) => puzzle,
            Err(error) => {
                println!("REFUSED {collection}/{name}: {error}");
                continue;
            }
        };
        let mut best = f64::MAX;
        let mut report = None;
        for _ in 0..repeat {
            let started = Instant::now();
            let stop = || started.elapsed().as_millis() as u64 >= budget_ms;
            let Ok(answer) = solve_variant(&puzzle, stop) else {
                break;
            };
            best = best.min(started.elapsed().as_secs_f64() * 1e3);
            report = Some(answer);
        }
        let Some(report) = report else {
            println!("GAVE UP {collection}/{name} after {budget_ms} ms");
            continue;
        };
        let ours = verdict(report.outcome);
        let theirs = record["iss_verdict"].as_str().unwrap_or("?");
        let iss_ms = record["iss_ms"].as_f64().unwrap_or(f64::NAN);
        let same_solution = report.outcome != Outcome::Solved
            || record["iss_solution"].as_str() == Some(digits_line(&report.solutions[0]).as_str());
        let agrees = ours == theirs && same_solution;
        let iss_guesses = record["iss_guesses"].as_u64().unwrap_or(0);
        println!(
            "{} {collection}/{name}: ours {ours} {best:.3} ms, iss {theirs} {iss_ms:.3} ms, ratio {:.2}, guesses {} vs {iss_guesses}",
            if agrees { "ok" } else { "DIFFERS" },
            best / iss_ms,
            report.guesses
        );
        let entry = totals.entry(collection).or_default();
        entry.0 += 1;
        entry.1 += best;
        entry.2 += iss_ms;
        entry.3 += usize::from(!agrees);
        entry.4 = entry.4.max(best / iss_ms);
    }
    println!("\ncollection: puzzles, ours ms, iss ms, ratio, worst ratio, disagreements");
    for (collection, (count, ours, iss, differs, worst)) in totals {
        println!(
            "{collection}: {count}, {ours:.1}, {iss:.1}, {:.3}, {worst:.2}, {differs}",
            ours / iss
        );
    }
}
