//! `sudoku solve --local` on puzzle files, as a user runs it: one answer
//! line per puzzle in input order, text or JSON, a summary on stderr, and
//! the documented exit codes.

use std::process::{Command, Stdio};

use crate::common::process::{run_sudoku, temp_file, text};
use crate::common::{CLASSIC, CLASSIC_SOLUTION, read_puzzles};

/// One puzzle of each kind, with a comment and a blank line among them.
fn mixed_file() -> (String, [String; 4]) {
    let multiple = read_puzzles("multiple.txt").remove(0);
    let unsolvable = read_puzzles("unsolvable.txt").remove(0);
    let conflicting = read_puzzles("conflicting.txt").remove(0);
    let contents = format!(
        "# a comment\n{CLASSIC}\n\n{multiple}\n{unsolvable}\n{conflicting}\n{}\n",
        &CLASSIC[..80]
    );
    (
        contents,
        [multiple, unsolvable, conflicting, CLASSIC.into()],
    )
}

#[test]
fn a_file_gets_one_line_per_puzzle_in_order_and_exits_by_its_worst_line() {
    let (contents, _) = mixed_file();
    let path = temp_file("mixed.txt", &contents);
    let output = run_sudoku(
        &["solve", "--local", "--threads", "2", path.to_str().unwrap()],
        "",
    );
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    assert_eq!(lines[0], format!("solved {CLASSIC_SOLUTION}"));
    assert!(lines[1].starts_with("multiple "), "{}", lines[1]);
    assert_eq!(lines[2], "unsolvable");
    assert!(
        lines[3].starts_with("invalid conflicting givens: digit ")
            && lines[3].contains(" at both r"),
        "conflicting givens name their cells: {}",
        lines[3]
    );
    assert_eq!(
        lines[4],
        "invalid expected 81 cells (digits 1-9, or '.' or '0' for blanks), found 80"
    );
    // An invalid line is the worst outcome: exit code 2.
    assert_eq!(output.status.code(), Some(2));

    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("sudoku: line 6: ") && stderr.contains("sudoku: line 7: "),
        "invalid lines are named by their input line: {stderr}"
    );
    assert!(
        stderr.contains("5 puzzles: 1 solved, 1 multiple, 1 unsolvable, 2 invalid"),
        "{stderr}"
    );
}

#[test]
fn stdin_and_json_lines_carry_input_line_numbers() {
    let (contents, _) = mixed_file();
    let output = run_sudoku(
        &["solve", "--local", "--format", "json", "--quiet", "-"],
        &contents,
    );
    assert!(
        output.stderr.is_empty(),
        "--quiet: {}",
        text(&output.stderr)
    );
    let answers: Vec<serde_json::Value> = text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let lines: Vec<u64> = answers
        .iter()
        .map(|a| a["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [2, 4, 5, 6, 7]);
    let outcomes: Vec<&str> = answers
        .iter()
        .map(|a| a["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(
        outcomes,
        ["solved", "multiple", "unsolvable", "invalid", "invalid"]
    );
    assert_eq!(answers[0]["solution"], CLASSIC_SOLUTION);
    assert!(answers[0]["guesses"].is_u64());
    assert!(
        answers[3]["error"]
            .as_str()
            .unwrap()
            .starts_with("conflicting givens: digit ")
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn only_unique_puzzles_exit_0_and_threads_do_not_change_the_answers() {
    let puzzles = read_puzzles("unique.txt");
    let contents = puzzles.join("\n") + "\n";
    let path = temp_file("unique.txt", &contents);
    let path = path.to_str().unwrap();
    let one = run_sudoku(&["solve", "--local", "--threads", "1", "-q", path], "");
    let two = run_sudoku(&["solve", "--local", "--threads", "2", "-q", path], "");
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(two.status.code(), Some(0));
    assert_eq!(text(&one.stdout).lines().count(), puzzles.len());
    assert!(
        text(&one.stdout)
            .lines()
            .all(|line| line.starts_with("solved "))
    );
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn no_solution_or_several_exits_1() {
    let multiple = read_puzzles("multiple.txt").remove(0);
    let output = run_sudoku(
        &["solve", "--local", "-q", "-"],
        &format!("{CLASSIC}\n{multiple}\n"),
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn a_missing_input_file_exits_3_an_empty_named_one_2_and_empty_stdin_0() {
    for mode in ["--local", "--server=127.0.0.1:1"] {
        let missing = run_sudoku(&["solve", mode, "/no/such/file.txt"], "");
        assert_eq!(missing.status.code(), Some(3), "{mode}");
        assert!(
            text(&missing.stderr)
                .starts_with("sudoku: cannot read /no/such/file.txt: No such file or directory"),
            "{}",
            text(&missing.stderr)
        );
        let directory = std::env::temp_dir();
        let directory = directory.to_str().unwrap();
        let folder = run_sudoku(&["solve", mode, directory], "");
        assert_eq!(folder.status.code(), Some(3), "{mode}");
        assert_eq!(
            text(&folder.stderr),
            format!("sudoku: cannot read {directory}: it is a directory\n")
        );
    }

    let empty = run_sudoku(&["solve", "--local", "-"], "# nothing but a comment\n\n");
    assert_eq!(empty.status.code(), Some(0));
    assert!(empty.stdout.is_empty());
    assert!(text(&empty.stderr).contains("0 puzzles"));
    // A named file with none is the wrong file: a usage error, as `sudoku
    // bench` says of it.
    let file = temp_file("empty.txt", "# nothing but a comment\n\n");
    let path = file.to_str().unwrap();
    for args in [
        &["solve", "--local", path][..],
        &["grade", "--local", path],
        &["bench", path],
    ] {
        let empty = run_sudoku(args, "");
        assert_eq!(empty.status.code(), Some(2), "{args:?}");
        assert!(empty.stdout.is_empty(), "{args:?}");
        let said = text(&empty.stderr);
        assert!(
            said.contains(&format!("{path} holds no puzzles")),
            "{args:?}: {said}"
        );
    }
}

#[test]
fn a_reader_that_stops_early_ends_the_run_quietly() {
    let puzzles = read_puzzles("unique.txt");
    let contents = puzzles.join("\n") + "\n";
    let path = temp_file("for_head.txt", &contents);
    // `sudoku ... | head -n 1`: the pipe closes after the first line.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(["solve", "--local", "-q", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 8];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert!(first.starts_with(b"solved "), "{first:?}");
    assert!(
        output.stderr.is_empty(),
        "a closed pipe is not an error to report: {}",
        text(&output.stderr)
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn a_closed_stderr_loses_only_the_messages() {
    // `sudoku ... 2>&1 | head` once head has gone: the notes on stderr
    // are dropped, the answers and the exit code are not.
    let (contents, _) = mixed_file();
    let path = temp_file("mixed_for_closed_stderr.txt", &contents);
    let run = |args: &[&str]| {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        Command::new(env!("CARGO_BIN_EXE_sudoku"))
            .args(args)
            .stderr(Stdio::from(writer))
            .output()
            .unwrap()
    };
    let file = run(&["solve", "--local", path.to_str().unwrap()]);
    assert_eq!(file.status.code(), Some(2));
    assert_eq!(text(&file.stdout).lines().count(), 5);
    let missing = run(&["solve", "--local", "/no/such/file.txt"]);
    assert_eq!(missing.status.code(), Some(3));
    let several = run(&["explain", &read_puzzles("multiple.txt")[0], "--local"]);
    assert_eq!(several.status.code(), Some(1));
}
