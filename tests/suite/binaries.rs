//! The two binaries as a user runs them: `sudoku-server` on port 0, the
//! `sudoku` command line against it, and SIGTERM.

use std::process::{Command, Output};

use crate::common::process::ServerProcess;
use crate::common::{CLASSIC, CLASSIC_SOLUTION};

fn sudoku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn the_client_solves_reports_and_exits_by_outcome() {
    let server = ServerProcess::start(&["--workers", "1"]);
    let address = server.address.as_str();

    let solved = sudoku(&["solve", CLASSIC, "--server", address]);
    assert_eq!(stdout(&solved), format!("solved {CLASSIC_SOLUTION}\n"));
    assert_eq!(solved.status.code(), Some(0));

    let grid = sudoku(&["solve", CLASSIC, "--server", address, "--grid"]);
    assert!(
        stdout(&grid).contains("5 3 4 | 6 7 8 | 9 1 2\n"),
        "{}",
        stdout(&grid)
    );

    let empty_board = ".".repeat(81);
    let multiple = sudoku(&["solve", &empty_board, "--server", address]);
    assert!(stdout(&multiple).starts_with("multiple "));
    assert_eq!(multiple.status.code(), Some(1));

    let invalid = sudoku(&["solve", &CLASSIC[..80], "--server", address]);
    assert_eq!(
        stdout(&invalid),
        "invalid expected 81 cells (digits 1-9, or '.' or '0' for blanks), found 80\n"
    );
    assert_eq!(invalid.status.code(), Some(2));

    let health = sudoku(&["health", "--server", &format!("http://{address}")]);
    assert_eq!(
        (stdout(&health).as_str(), health.status.code()),
        ("SERVING\n", Some(0))
    );
}

/// LeetCode 37's example board, as its JSON `char[9][9]`: the classic puzzle.
const LEETCODE: &str = r#"[["5","3",".",".","7",".",".",".","."],["6",".",".","1","9","5",".",".","."],[".","9","8",".",".",".",".","6","."],["8",".",".",".","6",".",".",".","3"],["4",".",".","8",".","3",".",".","1"],["7",".",".",".","2",".",".",".","6"],[".","6",".",".",".",".","2","8","."],[".",".",".","4","1","9",".",".","5"],[".",".",".",".","8",".",".","7","9"]]"#;

#[test]
fn the_leetcode_board_is_a_puzzle_as_an_argument_and_as_a_file_line() {
    let server = ServerProcess::start(&["--workers", "1"]);
    let file = crate::common::process::temp_file("leetcode.txt", &format!("{LEETCODE}\n"));
    let file = file.to_str().unwrap();
    let expected = format!("solved {CLASSIC_SOLUTION}\n");
    for args in [
        &["solve", LEETCODE, "--local"][..],
        &["solve", LEETCODE, "--server", &server.address],
        &["solve", file, "--local", "-q"],
        &[
            "solve",
            file,
            "--server",
            &server.address,
            "-q",
            "--rpc",
            "batch",
        ],
        &[
            "solve",
            file,
            "--server",
            &server.address,
            "-q",
            "--rpc",
            "stream",
        ],
    ] {
        let output = sudoku(args);
        assert_eq!(stdout(&output), expected, "{args:?}");
        assert_eq!(output.status.code(), Some(0), "{args:?}");
    }
    let broken = LEETCODE.replacen("\"7\"", "\"x\"", 1);
    let refused = sudoku(&["solve", &broken, "--local"]);
    assert!(
        stdout(&refused).starts_with("invalid ") && stdout(&refused).contains("'x'"),
        "{}",
        stdout(&refused)
    );
    assert_eq!(refused.status.code(), Some(2));
}

#[test]
fn the_client_exits_3_when_no_server_answers() {
    // A port nobody listens on: one below the kernel's ephemeral range, so
    // that no server another test starts on port 0 can take it meanwhile
    // (a freed ephemeral port can be handed out again at once).
    let port = (20_000..30_000)
        .find(|port| std::net::TcpListener::bind(("127.0.0.1", *port)).is_ok())
        .expect("a free port below the ephemeral range");
    let output = sudoku(&["health", "--server", &format!("127.0.0.1:{port}")]);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("sudoku: cannot connect to 127.0.0.1:"),
        "{stderr}"
    );
    // The cause, not the transport's bare "transport error".
    assert!(stderr.contains(": Connection refused"), "{stderr}");
}

#[test]
fn the_server_logs_its_settings_and_exits_0_on_sigterm() {
    let server = ServerProcess::start(&["--workers", "2", "--queue-depth", "7"]);
    assert_eq!(
        sudoku(&["health", "--server", &server.address])
            .status
            .code(),
        Some(0)
    );
    let startup = server.log();
    assert!(startup.contains("sudoku-server listening"), "{startup}");
    for setting in [
        "workers=2",
        "queue_depth=7",
        "stream_window=256",
        "max_message_bytes=16384",
        "max_connections=128",
        "memory_bound_bytes=",
    ] {
        assert!(
            startup.contains(setting),
            "{setting} missing from {startup}"
        );
    }
    let (status, rest) = server.terminate();
    assert!(status.success(), "exit status {status:?}; log: {rest}");
    assert!(rest.contains("received SIGTERM"), "{rest}");
    assert!(rest.contains("sudoku-server stopped"), "{rest}");
}

#[test]
fn the_server_refuses_settings_that_cannot_work_before_it_listens() {
    for (args, message) in [
        (
            &["--max-message-bytes", "0"][..],
            "error: invalid value '0' for '--max-message-bytes <MAX_MESSAGE_BYTES>': 0 must be \
             from 2368",
        ),
        (
            &["--stream-window-bytes", "10"],
            "error: invalid value '10' for '--stream-window-bytes <STREAM_WINDOW_BYTES>': 10 \
             must be from 4864",
        ),
        (
            &["--max-inflight-bytes", "100KiB"],
            "sudoku-server: invalid settings: --max-inflight-bytes 102400 must be at least",
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_sudoku-server"))
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.starts_with(message), "{args:?}: {stderr}");
    }
    for zero in ["--max-open-streams", "--stream-window", "--max-connections"] {
        let output = Command::new(env!("CARGO_BIN_EXE_sudoku-server"))
            .args([zero, "0"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{zero} 0");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.contains(&format!("invalid value '0' for '{zero}")),
            "{stderr}"
        );
    }
}

#[test]
fn the_server_refuses_a_bad_flag_with_usage_help() {
    let output = Command::new(env!("CARGO_BIN_EXE_sudoku-server"))
        .args(["--workers", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("--workers"), "{stderr}");
}

#[test]
fn the_server_serves_metrics_on_its_own_port_when_asked() {
    let server = ServerProcess::start(&["--metrics-listen", "127.0.0.1:0"]);
    let startup = server.log();
    let metrics_address = startup
        .split("metrics=")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no metrics address in {startup}"))
        .to_string();
    assert_eq!(
        sudoku(&["solve", CLASSIC, "--server", &server.address])
            .status
            .code(),
        Some(0)
    );
    let body = http_get(&metrics_address, "/metrics");
    assert!(
        body.contains("sudoku_calls_total{code=\"OK\",rpc=\"Solve\"} 1"),
        "{body}"
    );
    assert!(body.contains("# TYPE sudoku_solve_duration_seconds histogram"));
}

#[test]
fn the_server_logs_json_lines_when_asked() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-server"))
        .args(["--listen", "127.0.0.1:0", "--log-format", "json"])
        .env("RUST_LOG", "info")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let record: serde_json::Value =
        serde_json::from_str(&line).unwrap_or_else(|error| panic!("{error}: {line}"));
    assert_eq!(record["level"], "INFO", "{line}");
    assert_eq!(record["fields"]["message"], "sudoku-server listening");
    let address = record["fields"]["address"].as_str().unwrap();
    assert!(address.starts_with("127.0.0.1:"), "{line}");
    assert!(record["timestamp"].is_string());
}

/// A plain HTTP/1.0 GET; returns the body of a 200 answer.
fn http_get(address: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let mut connection = std::net::TcpStream::connect(address).unwrap();
    write!(connection, "GET {path} HTTP/1.0\r\nHost: test\r\n\r\n").unwrap();
    let mut response = String::new();
    connection.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    assert!(head.contains(" 200 "), "{head}");
    body.to_string()
}

#[test]
fn health_checks_each_of_several_servers_and_exits_with_the_worst() {
    let server = ServerProcess::start(&["--workers", "1"]);
    let servers = format!("{},127.0.0.1:1", server.address);
    let output = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .arg("health")
        .env("SUDOKU_SERVER", &servers)
        .output()
        .unwrap();
    let lines: Vec<String> = stdout(&output).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0], format!("{} SERVING", server.address));
    assert!(
        lines[1].starts_with("127.0.0.1:1 UNREACHABLE (cannot connect to 127.0.0.1:1"),
        "{}",
        lines[1]
    );
    assert_eq!(output.status.code(), Some(3), "one could not be reached");
    // `sudoku health | grep -q SERVING` after grep has gone: every
    // server is still checked, for the exit code.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let unread = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .arg("health")
        .env("SUDOKU_SERVER", &servers)
        .stdout(std::process::Stdio::from(writer))
        .output()
        .unwrap();
    assert_eq!(unread.status.code(), Some(3), "{}", stdout(&unread));
    let one = sudoku(&["health", "--server", &server.address]);
    assert_eq!(
        (stdout(&one).as_str(), one.status.code()),
        ("SERVING\n", Some(0))
    );
    let api = "sudoku.v1.SudokuService";
    let named = sudoku(&["health", "--server", &server.address, "--service", api]);
    assert_eq!(
        (stdout(&named).as_str(), named.status.code()),
        ("SERVING\n", Some(0))
    );
    // A service the server does not know is a wrong command line, not a
    // server that failed.
    let unknown = sudoku(&["health", "--server", &server.address, "--service", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8(unknown.stderr).unwrap();
    assert!(
        stderr.contains(
            "reports no health for a service named \"nope\": give --service sudoku.v1.SudokuService"
        ),
        "{stderr}"
    );
}

#[test]
fn health_checks_every_address_of_a_dns_name_and_refuses_two_slashes() {
    // Nothing listens on ::1 here: `localhost` is both loopback addresses
    // to the client, whatever the hosts file says, so both are checked.
    let server = ServerProcess::start(&["--workers", "1"]);
    let (_, port) = server.address.rsplit_once(':').expect("host:port");
    let output = sudoku(&["health", "--server", &format!("dns:///localhost:{port}")]);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0], format!("127.0.0.1:{port} SERVING"));
    let unreachable = format!("[::1]:{port} UNREACHABLE (cannot connect to [::1]:{port}");
    assert!(lines[1].starts_with(&unreachable), "{text}");
    assert_eq!(output.status.code(), Some(3), "one could not be reached");

    let refused = sudoku(&["health", "--server", &format!("dns://localhost:{port}")]);
    assert_eq!(refused.status.code(), Some(2), "a wrong command line");
    let stderr = String::from_utf8(refused.stderr).unwrap();
    let advice = format!("write dns:///localhost:{port} (three slashes)");
    assert!(stderr.contains(&advice), "{stderr}");
    // Addresses that cannot be one are usage errors too, among others,
    // found before any server is checked; and for file runs and bench.
    let file = crate::common::process::temp_file("for-bad-address.txt", "1\n");
    let file = file.to_str().unwrap();
    for servers in [
        "dns:///localhost".to_string(),
        "not a url".to_string(),
        format!("{},dns:///localhost", server.address),
    ] {
        for command in [
            &["health"][..],
            &["solve", file],
            &["bench", file, "--requests", "1"],
        ] {
            let refused = sudoku(&[command, &["--server", &servers]].concat());
            assert_eq!(refused.status.code(), Some(2), "{command:?} {servers}");
            assert_eq!(stdout(&refused), "", "{command:?} {servers}");
            assert!(
                String::from_utf8(refused.stderr)
                    .unwrap()
                    .contains("invalid server address"),
                "{command:?} {servers}"
            );
        }
    }
    // Spaces around the servers of a list are not part of them.
    let spaced = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .arg("health")
        .env("SUDOKU_SERVER", format!("{0}, {0}", server.address))
        .output()
        .unwrap();
    assert_eq!(spaced.status.code(), Some(0), "{}", stdout(&spaced));
}

#[test]
fn a_benchmark_whose_calls_fail_exits_3_and_says_how_many_by_code() {
    let server = ServerProcess::start(&["--workers", "1"]);
    let file = crate::common::process::temp_file("bad-bench.txt", "not a puzzle\n");
    let output = sudoku(&[
        "bench",
        file.to_str().unwrap(),
        "--server",
        &server.address,
        "--requests",
        "20",
        "--concurrency",
        "4",
        "--stream-puzzles",
        "0",
    ]);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert_eq!(
        stderr,
        "sudoku: 20 of 20 unary calls failed: InvalidArgument 20\n"
    );
    assert!(stdout(&output).contains("unary Solve, concurrency 4"));
}

#[test]
fn a_benchmark_with_no_callers_or_no_streams_is_a_usage_error() {
    let file = crate::common::process::temp_file("no-callers.txt", &format!("{CLASSIC}\n"));
    for flag in ["--concurrency", "--streams"] {
        let refused = sudoku(&["bench", file.to_str().unwrap(), flag, "0"]);
        assert_eq!(refused.status.code(), Some(2), "{flag} 0");
        let stderr = String::from_utf8(refused.stderr).unwrap();
        assert!(
            stderr.contains(&format!("invalid value '0' for '{flag}")),
            "{stderr}"
        );
    }
}

#[test]
fn local_refuses_a_server_typed_beside_it_but_not_one_from_the_environment() {
    let refused = sudoku(&["solve", "--local", "--server", "127.0.0.1:1", CLASSIC]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(
        stderr.contains("--local works in this process, so --server"),
        "{stderr}"
    );
    // A shell's default server does not stop a --local run.
    let output = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(["solve", "--local", CLASSIC])
        .env("SUDOKU_SERVER", "127.0.0.1:1")
        .env("SUDOKU_COMPRESS", "gzip")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(stdout(&output), format!("solved {CLASSIC_SOLUTION}\n"));
}

/// The exit codes `sudoku --help` gives are docs/cli.md's, word for word.
#[test]
fn the_exit_codes_of_help_and_the_cli_doc_agree() {
    let help = stdout(&sudoku(&["--help"]));
    let help: String = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let cli_doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let table = cli_doc
        .split("| Exit code | Meaning |")
        .nth(1)
        .expect("docs/cli.md has an exit code table");
    let rows: Vec<(&str, String)> = table
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (cells[1], cells[2].replace('`', ""))
        })
        .collect();
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (code, meaning) in rows {
        let entry = format!("{code} {meaning}");
        assert!(
            help.to_lowercase().contains(&entry.to_lowercase()),
            "{entry:?} is not in --help: {help}"
        );
    }
}

/// Each command's `--help` names its own text line, and no other
/// command's: the formats share one value list, whose help once gave
/// solve's line to grade and generate too.
#[test]
fn each_commands_help_names_its_own_text_line() {
    let lines = [
        ("solve", "OUTCOME SOLUTION-OR-ERROR"),
        ("grade", "ER/EP/ED LEVEL HARDEST"),
        ("generate", "`PUZZLE` lines"),
    ];
    for (command, own) in lines {
        let help = stdout(&sudoku(&[command, "--help"]));
        assert!(help.contains(own), "{command} --help lacks {own:?}: {help}");
        for (other, theirs) in lines {
            if other != command {
                assert!(
                    !help.contains(theirs),
                    "{command} --help gives {other}'s line {theirs:?}: {help}"
                );
            }
        }
    }
}

/// Every flag `sudoku-server --help` lists is a row of docs/operations.md's
/// configuration table, with its environment variable, and the table has
/// no row for a flag the server lacks: a new flag's documentation is held
/// to its declaration.
#[test]
fn the_server_flags_and_the_operations_doc_agree() {
    let output = Command::new(env!("CARGO_BIN_EXE_sudoku-server"))
        .arg("--help")
        .output()
        .unwrap();
    let help = stdout(&output);
    let flags: Vec<(String, String)> = help
        .lines()
        // A flag's own line is indented by at most six spaces; its help
        // text, by more.
        .filter(|line| line.len() - line.trim_start().len() <= 6)
        .filter_map(|line| line.trim().strip_prefix("--"))
        .map(|flag| format!("--{}", flag.split_whitespace().next().unwrap_or_default()))
        .filter(|flag| flag != "--help" && flag != "--version")
        .map(|flag| {
            let variable = format!("SUDOKU_{}", flag[2..].replace('-', "_").to_uppercase());
            (flag, variable)
        })
        .collect();
    assert!(flags.len() > 30, "{flags:?}");
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/operations.md"))
        .unwrap();
    let table = doc
        .split("| Flag | Environment | Default | Meaning |")
        .nth(1)
        .expect("docs/operations.md has a configuration table");
    // A row may name several flags (`--tls-cert`, `--tls-key`), with their
    // variables in the same order.
    let rows: Vec<(String, String)> = table
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .flat_map(|line| {
            let cells: Vec<&str> = line.split('|').map(|cell| cell.trim()).collect();
            let flags = cells[1].split(',').map(|flag| flag.trim().replace('`', ""));
            let variables = cells[2]
                .split(|c: char| !(c.is_ascii_uppercase() || c == '_'))
                .filter(|word| word.starts_with("SUDOKU_"))
                .map(String::from)
                .collect::<Vec<_>>();
            flags.zip(variables).collect::<Vec<_>>()
        })
        .collect();
    for (flag, variable) in &flags {
        assert!(
            help.contains(&format!("[env: {variable}=")),
            "{flag}'s variable is not {variable}"
        );
        assert!(
            rows.contains(&(flag.clone(), variable.clone())),
            "{flag} ({variable}) has no row in docs/operations.md"
        );
    }
    for (flag, _) in &rows {
        assert!(
            flags.iter().any(|(known, _)| known == flag),
            "docs/operations.md documents {flag}, which the server lacks"
        );
    }
}
