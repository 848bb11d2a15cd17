//! `sudoku generate` as a user runs it: the same seed prints the same
//! puzzles on any thread count, each with one solution, the symmetry and
//! the level asked for; an unreachable target stops and says so.

use std::process::{Command, Output};

use crate::common::process::{ServerProcess, text};
use sudoku_grpc::domain::generate::Symmetry;
use sudoku_grpc::domain::{Outcome, parse_board, solve_board};

fn sudoku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_seed_prints_the_same_unique_symmetric_puzzles_on_any_thread_count() {
    let args = [
        "generate",
        "--local",
        "--count",
        "12",
        "--seed",
        "2026",
        "--symmetry",
        "rotate-90",
        "--minimal",
        "--level",
        "medium",
        "--format",
        "json",
    ];
    let one = sudoku(&[&args[..], &["--threads", "1"]].concat());
    let two = sudoku(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert_eq!(text(&one.stdout), text(&two.stdout));
    let lines: Vec<serde_json::Value> = text(&one.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 12);
    let mut seen = std::collections::HashSet::new();
    for line in &lines {
        let puzzle = parse_board(line["puzzle"].as_str().unwrap()).unwrap();
        let report = solve_board(&puzzle, None, || false).unwrap();
        assert_eq!(report.outcome, Outcome::Solved);
        assert_eq!(
            report.solution.unwrap().to_line(),
            line["solution"].as_str().unwrap()
        );
        assert!(Symmetry::Rotate90.holds_for(puzzle.cells()));
        assert_eq!(line["level"], "medium");
        assert!(seen.insert(puzzle.to_line()), "puzzles repeat");
        // Its seed makes the same puzzle first.
        // A string, which JSON readers that hold numbers as doubles keep.
        let seed = line["seed"].as_str().unwrap().to_string();
        assert!(seed.parse::<u64>().is_ok(), "{seed}");
        let again = sudoku(&[&args[..3], &["1", "--seed", &seed], &args[6..]].concat());
        let first: serde_json::Value = serde_json::from_str(text(&again.stdout).trim()).unwrap();
        assert_eq!(first["puzzle"], line["puzzle"]);
    }
    assert!(
        text(&one.stderr).contains("generated 12 puzzles"),
        "{}",
        text(&one.stderr)
    );
}

#[test]
fn an_unreachable_target_stops_and_a_bad_range_is_refused() {
    // Only full houses: no minimal puzzle is that easy. (A target of 12.0
    // would climb, seconds an attempt.)
    let unreachable = sudoku(&[
        "generate",
        "--local",
        "--minimal",
        "--rating",
        "..1.0",
        "--max-attempts",
        "40",
        "--seed",
        "1",
    ]);
    assert_eq!(unreachable.status.code(), Some(3));
    let stderr = text(&unreachable.stderr);
    assert!(
        stderr.contains("found 0 of the 1 puzzle asked for in 40 attempts"),
        "{stderr}"
    );
    // Nothing made: no empty list of givens in the summary.
    assert!(
        stderr.contains("0 hard, 0 diabolical, 0 extreme\nsudoku: found"),
        "{stderr}"
    );
    let backwards = sudoku(&["generate", "--rating", "5..3"]);
    assert_eq!(backwards.status.code(), Some(2));
    assert!(text(&backwards.stderr).contains("the lowest rating 5.0 is above the highest 3.0"));
    let between_tenths = sudoku(&["generate", "--local", "--rating", "1.41..1.49"]);
    assert_eq!(between_tenths.status.code(), Some(2));
    assert!(
        text(&between_tenths.stderr).contains("no rating lies within 1.41..1.49"),
        "{}",
        text(&between_tenths.stderr)
    );
    // Targets no puzzle meets are refused before any attempt, here as on
    // a server (no server is running: the refusal comes first).
    for (target, reason) in [
        (
            &["--level", "easy", "--rating", "3..4"][..],
            "no puzzle of level easy is rated within 3.0..4.0",
        ),
        (
            &["--rating", "..0.99"],
            "the highest rating 0.99 is below 1.0",
        ),
    ] {
        for place in [&["--local"][..], &["--server", "127.0.0.1:9"]] {
            let refused = sudoku(&[&["generate"], target, place].concat());
            assert_eq!(refused.status.code(), Some(2), "{target:?} {place:?}");
            assert!(
                text(&refused.stderr).contains(reason),
                "{}",
                text(&refused.stderr)
            );
        }
    }
    // 0 is a server's "pick a seed", so it cannot name one.
    let zero = sudoku(&["generate", "--seed", "0", "--local"]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(
        text(&zero.stderr).contains("--seed"),
        "{}",
        text(&zero.stderr)
    );
}

#[test]
fn a_server_prints_what_this_process_would_and_a_failed_target_says_so() {
    let server = ServerProcess::start(&[
        "--workers",
        "2",
        "--max-generate-wait",
        "200ms",
        "--max-climb-wait",
        "300ms",
    ]);
    let args = [
        "generate",
        "--count",
        "6",
        "--level",
        "hard",
        "--symmetry",
        "flip",
        "--minimal",
        "--seed",
        "41",
        "--format",
        "json",
    ];
    let local = sudoku(&[&args[..], &["--local"]].concat());
    let remote = sudoku(&[&args[..], &["--server", &server.address]].concat());
    assert_eq!(remote.status.code(), Some(0), "{}", text(&remote.stderr));
    assert_eq!(text(&remote.stdout), text(&local.stdout));
    assert_eq!(text(&remote.stdout).lines().count(), 6);
    assert!(
        text(&remote.stderr).contains("generated 6 puzzles"),
        "{}",
        text(&remote.stderr)
    );

    // Without grades: the same puzzles, here and on the server.
    let plain = [
        "generate",
        "--count",
        "4",
        "--minimal",
        "--symmetry",
        "rotate-180",
        "--seed",
        "5",
    ];
    let graded = sudoku(&[&plain[..], &["--local"]].concat());
    let skipped_here =
        sudoku(&[&plain[..], &["--local", "--skip-grade", "--format", "json"]].concat());
    let skipped_there = sudoku(
        &[
            &plain[..],
            &[
                "--server",
                &server.address,
                "--skip-grade",
                "--format",
                "json",
            ],
        ]
        .concat(),
    );
    assert_eq!(
        skipped_there.status.code(),
        Some(0),
        "{}",
        text(&skipped_there.stderr)
    );
    assert_eq!(text(&skipped_there.stdout), text(&skipped_here.stdout));
    let lines: Vec<serde_json::Value> = text(&skipped_here.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let puzzles: Vec<&str> = lines
        .iter()
        .map(|line| line["puzzle"].as_str().unwrap())
        .collect();
    assert_eq!(puzzles, text(&graded.stdout).lines().collect::<Vec<_>>());
    assert!(
        lines
            .iter()
            .all(|line| line["rating"].is_null() && line["level"].is_null())
    );
    assert!(
        text(&skipped_here.stderr).contains("generated 4 puzzles")
            && text(&skipped_here.stderr).contains("4 ungraded"),
        "{}",
        text(&skipped_here.stderr)
    );
    let conflicting = sudoku(&["generate", "--skip-grade", "--level", "hard", "--local"]);
    assert_eq!(
        conflicting.status.code(),
        Some(2),
        "{}",
        text(&conflicting.stderr)
    );

    let too_many = sudoku(&["generate", "--count", "20000", "--server", &server.address]);
    assert_eq!(
        too_many.status.code(),
        Some(2),
        "{}",
        text(&too_many.stderr)
    );
    assert!(
        text(&too_many.stderr).contains("--max-generate-count"),
        "{}",
        text(&too_many.stderr)
    );

    let never = sudoku(&["generate", "--rating", "11..", "--server", &server.address]);
    assert_eq!(never.status.code(), Some(3));
    let stderr = text(&never.stderr);
    assert!(
        stderr.contains("the server answered RESOURCE_EXHAUSTED"),
        "{stderr}"
    );
    assert!(
        stderr.contains("found 0 of the 1 puzzle asked for (rated 11.0..)"),
        "{stderr}"
    );
    assert!(stderr.contains("(--max-climb-wait)"), "{stderr}");
}
