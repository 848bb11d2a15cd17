//! `sudoku grade`, `sudoku hint` and `sudoku explain` as a user runs
//! them: through a real `sudoku-server` (each RPC) and with `--local`,
//! which must print the same lines, and their refusals and exit codes.

use std::process::{Command, Output};

use crate::common::process::{ServerProcess, TempFile, temp_file, text};
use crate::common::{CLASSIC, NEEDS_FORCING_CHAINS as EXTREME, TWO_SOLUTIONS, XY_WING as HARD};

fn sudoku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .output()
        .unwrap()
}

/// A file of every kind of line a graded file meets, a comment included.
fn mixed_file() -> TempFile {
    let lines = [
        CLASSIC,
        "# a comment, skipped",
        HARD,
        TWO_SOLUTIONS,
        "12",
        EXTREME,
    ];
    temp_file("graded.txt", &(lines.join("\n") + "\n"))
}

/// The same command through the server over each RPC, and here.
fn everywhere(args: &[&str], server: &str) -> Vec<Output> {
    let on = |extra: &[&str]| sudoku(&[args, extra].concat());
    vec![
        on(&["--server", server]),
        on(&["--server", server, "--rpc", "stream"]),
        on(&["--local"]),
    ]
}

/// A stalled grade's level is only a lower bound, so the summary counts
/// it apart from the levels.
#[test]
fn a_stalled_grade_is_counted_apart_from_the_levels() {
    // One of the hardest puzzles known: about a second of grading, far
    // over the budget; the classic grades in well under a millisecond.
    let hardest =
        "98.7..6..7..5..9......4..8.6..8..5....3.....8.....2..91...75....7....1...691.....";
    let server = ServerProcess::start(&["--max-grade-time", "100ms"]);
    let file = temp_file("stalls.txt", &format!("{CLASSIC}\n{hardest}\n"));
    let run = sudoku(&["grade", file.to_str().unwrap(), "--server", &server.address]);
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert!(
        stdout.lines().nth(1).unwrap().ends_with("(stalled)"),
        "{stdout}"
    );
    assert!(
        stderr.contains(
            "graded 2 puzzles: 1 easy, 0 medium, 0 hard, 0 diabolical, 0 extreme, 1 stalled; 0 not graded"
        ),
        "{stderr}"
    );
}

#[test]
fn a_graded_file_prints_the_same_lines_through_a_server_and_here() {
    let server = ServerProcess::start(&["--workers", "1"]);
    let file = mixed_file();
    let path = file.to_str().unwrap();
    let runs = everywhere(&["grade", path], &server.address);
    let lines = text(&runs[0].stdout);
    for run in &runs {
        assert_eq!(text(&run.stdout), lines, "{}", text(&run.stderr));
        assert_eq!(run.status.code(), Some(2), "the worst line is invalid");
        let stderr = text(&run.stderr);
        assert!(
            stderr.contains(
                "graded 3 puzzles: 1 easy, 0 medium, 1 hard, 0 diabolical, 1 extreme; 2 not graded"
            ),
            "{stderr}"
        );
    }
    let lines: Vec<&str> = lines.lines().collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(
        lines[0].ends_with(" easy Hidden Single in a Box"),
        "{}",
        lines[0]
    );
    // Sukaku Explainer's ER/EP/ED for this puzzle: 4.2/1.2/1.2.
    assert_eq!(lines[1], "4.2/1.2/1.2 hard XY-Wing");
    assert_eq!(
        lines[2],
        "multiple: the puzzle has several solutions, so no grade"
    );
    assert!(
        lines[3].starts_with("invalid: expected 81 cells"),
        "{}",
        lines[3]
    );
    // Rated 9.3: a forcing chain nested with the simple techniques.
    assert!(lines[4].contains(" extreme "), "{}", lines[4]);
}

#[test]
fn json_grade_lines_carry_line_numbers_and_every_technique() {
    let server = ServerProcess::start(&["--workers", "1"]);
    let file = mixed_file();
    let path = file.to_str().unwrap();
    let runs = everywhere(&["grade", path, "--format", "json"], &server.address);
    let expected = text(&runs[2].stdout);
    for run in &runs {
        assert_eq!(text(&run.stdout), expected);
    }
    let objects: Vec<serde_json::Value> = expected
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let numbers: Vec<u64> = objects
        .iter()
        .map(|o| o["line"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 3, 4, 5, 6]);
    let classic = &objects[0];
    assert_eq!(classic["outcome"], "solved");
    assert_eq!(classic["level"], "easy");
    let placed: u64 = classic["techniques"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(placed as usize, CLASSIC.matches('.').count());
    assert_eq!(objects[1]["rating"], 4.2);
    assert_eq!(
        (&objects[1]["pearl"], &objects[1]["diamond"]),
        (&1.2.into(), &1.2.into())
    );
    assert_eq!(objects[1]["hardest_technique"], "XY-Wing");
    assert_eq!(objects[2]["outcome"], "multiple");
    assert_eq!(objects[3]["outcome"], "invalid");
    assert!(objects[3]["error"].as_str().unwrap().contains("found 2"));
}

#[test]
fn one_puzzle_is_graded_hinted_and_explained_alike_on_a_server_and_here() {
    let server = ServerProcess::start(&["--workers", "1"]);
    let address = server.address.as_str();
    let graded = sudoku(&["grade", HARD, "--server", address]);
    assert_eq!(text(&graded.stdout), "4.2/1.2/1.2 hard XY-Wing\n");
    assert_eq!(graded.status.code(), Some(0));

    // Two placements of the solution (r1c1 is 5, r1c2 is 3).
    let progress = HARD.replacen("..4", "534", 1);
    let commands: [&[&str]; 8] = [
        &["hint", HARD],
        &["hint", HARD, "--progress", &HARD.replacen('.', "9", 1)],
        &["hint", HARD, "--format", "json"],
        &["hint", EXTREME, "--format", "json"],
        &["explain", HARD],
        &["explain", EXTREME],
        &["explain", HARD, "--progress", &progress, "--format", "json"],
        &["explain", HARD, "--progress", &HARD.replacen('.', "9", 1)],
    ];
    for command in commands {
        let remote = sudoku(&[command, &["--server", address]].concat());
        let local = sudoku(&[command, &["--local"]].concat());
        assert_eq!(remote.status.code(), Some(0), "{}", text(&remote.stderr));
        assert_eq!(text(&remote.stdout), text(&local.stdout), "{command:?}");
    }
    let hint = text(&sudoku(&["hint", HARD, "--server", address]).stdout);
    // The grid marks the placement {6} and the witness (6) at r4c4, and
    // the reasoning is spelled out under the step's line.
    assert!(
        hint.contains("place 6 in r3c6.\nunits: box 2\nwitnesses: 6 at r4c4\n"),
        "{hint}"
    );
    assert!(hint.contains("{.}") && hint.contains("(6)"), "{hint}");
    let json = sudoku(&["hint", HARD, "--format", "json", "--server", address]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("one JSON object");
    assert_eq!(
        json["step"]["units"],
        serde_json::json!([{"kind": "box", "number": 2}])
    );
    assert_eq!(
        json["step"]["witnesses"],
        serde_json::json!([{"row": 4, "column": 4, "digit": 6}])
    );
    let chains = sudoku(&["explain", EXTREME, "--format", "json", "--server", address]);
    let chains: serde_json::Value =
        serde_json::from_slice(&chains.stdout).expect("one JSON object");
    let steps = chains["steps"].as_array().expect("steps");
    assert!(
        steps
            .iter()
            .any(|step| !step["links"].as_array().unwrap().is_empty()),
        "no step with links"
    );
    let from_progress = text(
        &sudoku(&[
            "explain",
            HARD,
            "--progress",
            &progress,
            "--server",
            address,
        ])
        .stdout,
    );
    // The path starts from the position: what it already holds is not
    // placed again, and it still ends with the grade.
    assert!(
        !from_progress.contains("place 5 in r1c1"),
        "{from_progress}"
    );
    assert!(from_progress.contains("rating "), "{from_progress}");
    let mistake = sudoku(&[
        "hint",
        HARD,
        "--progress",
        &HARD.replacen('.', "9", 1),
        "--server",
        address,
    ]);
    assert!(
        text(&mistake.stdout).starts_with("mistake at r1c1: 9"),
        "{}",
        text(&mistake.stdout)
    );
    let explained = text(&sudoku(&["explain", HARD, "--server", address]).stdout);
    assert!(explained.ends_with("rating 4.2 (hard), hardest step: XY-Wing\n"));
}

#[test]
fn bad_input_exits_2_with_the_reason_and_two_solutions_exit_1() {
    let server = ServerProcess::start(&["--workers", "1"]);
    let address = server.address.as_str();
    for target in [&["--server", address][..], &["--local"]] {
        let bad_marks = sudoku(&[&["hint", HARD, "--marks", "123"], target].concat());
        assert_eq!(bad_marks.status.code(), Some(2));
        assert!(
            text(&bad_marks.stderr).contains("marks must be 729 characters"),
            "{}",
            text(&bad_marks.stderr)
        );
        let bad_puzzle = sudoku(&[&["explain", "12"], target].concat());
        assert_eq!(bad_puzzle.status.code(), Some(2));
        assert!(text(&bad_puzzle.stderr).contains("found 2"));
        let several = sudoku(&[&["explain", TWO_SOLUTIONS], target].concat());
        assert_eq!(several.status.code(), Some(1));
        assert!(text(&several.stderr).contains("several solutions"));
        let ungraded = sudoku(&[&["grade", TWO_SOLUTIONS], target].concat());
        assert_eq!(ungraded.status.code(), Some(1));
    }
}

/// `sudoku ARGS` with its output into a pipe whose reader has gone
/// (`sudoku ... | head` after head exits), or into `/dev/full`.
fn with_closed_output(args: &[&str], full_disk: bool) -> Output {
    let stdout = if full_disk {
        std::process::Stdio::from(std::fs::File::create("/dev/full").unwrap())
    } else {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        std::process::Stdio::from(writer)
    };
    Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .stdout(stdout)
        .output()
        .unwrap()
}

#[test]
fn a_closed_pipe_ends_hint_explain_and_health_quietly_and_a_full_disk_is_an_error() {
    let server = ServerProcess::start(&["--workers", "1"]);
    let commands: [&[&str]; 4] = [
        &["hint", HARD, "--local"],
        &["hint", HARD, "--local", "--progress", HARD],
        &["explain", HARD, "--local"],
        &["health", "--server", &server.address],
    ];
    for command in commands {
        let closed = with_closed_output(command, false);
        assert_eq!(closed.status.code(), Some(0), "{command:?}");
        assert_eq!(text(&closed.stderr), "", "{command:?}");
        let full = with_closed_output(command, true);
        assert_eq!(full.status.code(), Some(3), "{command:?}");
        assert!(
            text(&full.stderr).contains("No space left on device"),
            "{command:?}: {}",
            text(&full.stderr)
        );
    }
}
