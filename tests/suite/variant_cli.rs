//! `sudoku solve` and `sudoku candidates` on variant puzzles: a file of
//! f-puzzles JSON lines gets one line per puzzle, the same here and
//! through a server; a JSON document over many lines is one puzzle; the
//! candidates grid, capped or not.

use crate::common::process::{ServerProcess, run_sudoku, temp_file, text};

/// A 6×6 killer with one solution, `123456456123231564564231312645645312`,
/// as one line of f-puzzles JSON; `cage_sum` sets its one cage's sum (9
/// keeps the solution).
fn six_by_six(cage_sum: u32) -> String {
    let givens = "1....6...1..2.1.6.56.2......4.6....2";
    let rows: Vec<String> = givens
        .as_bytes()
        .chunks(6)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|&c| match c {
                    b'.' => "{}".to_string(),
                    digit => format!(r#"{{"value":{},"given":true}}"#, digit - b'0'),
                })
                .collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    format!(
        r#"{{"size":6,"grid":[{}],"killercage":[{{"cells":["R2C1","R2C2"],"value":"{cage_sum}"}}],"thermometer":[{{"lines":[["R5C2","R5C3","R5C4"]]}}],"difference":[{{"cells":["R6C5","R6C6"]}}],"xv":[{{"cells":["R3C1","R3C2"],"value":"V"}}]}}"#,
        rows.join(",")
    )
}

/// A 4×4 anti-knight grid with R1C1 given: several solutions.
const OPEN_FOUR: &str = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"antiknight":true}"#;

fn file_of_puzzles() -> String {
    format!(
        "# variant puzzles\n{}\n\n{}\n{{\"size\":7}}\n{OPEN_FOUR}\n",
        six_by_six(9),
        six_by_six(3)
    )
}

#[test]
fn a_file_of_json_lines_gets_one_line_each_the_same_here_and_on_a_server() {
    let path = temp_file("variants.jsonl", &file_of_puzzles());
    let local = run_sudoku(&["solve", "--local", path.to_str().unwrap()], "");
    let stdout = text(&local.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert_eq!(lines[0], "solved 123456456123231564564231312645645312");
    assert_eq!(lines[1], "unsolvable");
    assert!(
        lines[2].starts_with("invalid grid: missing"),
        "{}",
        lines[2]
    );
    let multiple: Vec<&str> = lines[3].split(' ').collect();
    assert_eq!(multiple[0], "multiple");
    assert_eq!(multiple.len(), 3, "two solutions: {}", lines[3]);
    assert_ne!(multiple[1], multiple[2]);
    assert_eq!(local.status.code(), Some(2), "an invalid line is the worst");
    assert!(text(&local.stderr).contains("sudoku: line 5: grid: missing"));

    let server = ServerProcess::start(&["--workers", "2"]);
    let remote = run_sudoku(
        &["solve", "--server", &server.address, path.to_str().unwrap()],
        "",
    );
    assert_eq!(text(&remote.stdout), stdout, "{}", text(&remote.stderr));
    assert_eq!(remote.status.code(), Some(2));
    let from_stdin = run_sudoku(
        &[
            "solve",
            "--server",
            &server.address,
            "--format",
            "json",
            "-",
        ],
        &file_of_puzzles(),
    );
    let json = text(&from_stdin.stdout);
    assert_eq!(json.lines().count(), 4, "{json}");
    assert!(
        json.starts_with("{\"line\":2,\"outcome\":\"solved\",\"solutions\":[\"123456"),
        "{json}"
    );
    assert_eq!(from_stdin.status.code(), Some(2));
}

#[test]
fn a_json_document_over_many_lines_is_one_puzzle() {
    let pretty = six_by_six(9)
        .replace("],[", "],\n  [")
        .replace(",\"", ",\n\"");
    assert!(pretty.lines().count() > 5);
    let path = temp_file("variant.json", &pretty);
    let output = run_sudoku(&["solve", "--local", path.to_str().unwrap()], "");
    assert_eq!(
        text(&output.stdout),
        "solved 123456456123231564564231312645645312\n"
    );
    assert_eq!(output.status.code(), Some(0));
    let argument = run_sudoku(
        &["solve", "--local", "--format", "json", &six_by_six(9)],
        "",
    );
    assert_eq!(
        text(&argument.stdout),
        "{\"line\":1,\"outcome\":\"solved\",\"solutions\":[\"123456456123231564564231312645645312\"]}\n"
    );
}

#[test]
fn candidates_are_drawn_on_the_grid_with_the_cap_s_undecided_digits() {
    let all = run_sudoku(&["candidates", "--local", OPEN_FOUR], "");
    assert_eq!(
        text(&all.stdout),
        "1   234 | 234 234\n\
         234 234 | 234 1\n\
         -----------------\n\
         234 234 | 1   234\n\
         234 1   | 234 234\n\
         multiple: 5 solutions found\n"
    );
    assert_eq!(all.status.code(), Some(1));
    let server = ServerProcess::start(&["--workers", "1"]);
    let capped_here = run_sudoku(
        &["candidates", "--local", "--max-solutions", "3", OPEN_FOUR],
        "",
    );
    let capped_there = run_sudoku(
        &[
            "candidates",
            "--server",
            &server.address,
            "--max-solutions",
            "3",
            OPEN_FOUR,
        ],
        "",
    );
    let capped = text(&capped_here.stdout);
    assert_eq!(text(&capped_there.stdout), capped);
    assert!(capped.contains("?"), "{capped}");
    assert!(
        capped.ends_with(
            "multiple: 3 solutions found; the cap was reached: digits after ? are undecided\n"
        ),
        "{capped}"
    );
    let unique = run_sudoku(&["candidates", "--local", &six_by_six(9)], "");
    assert!(
        text(&unique.stdout).starts_with("1 2 3 | 4 5 6\n"),
        "{}",
        text(&unique.stdout)
    );
    assert_eq!(unique.status.code(), Some(0));
    let refused = run_sudoku(
        &["candidates", "--local", "--max-solutions", "1", OPEN_FOUR],
        "",
    );
    assert_eq!(refused.status.code(), Some(2));
}
