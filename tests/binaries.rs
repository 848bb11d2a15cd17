//! The two binaries as a user runs them: `sudoku-server` on port 0, the
//! `sudoku` command line against it, and SIGTERM.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};

use common::{CLASSIC, CLASSIC_SOLUTION};

/// A `sudoku-server` process listening on an ephemeral port.
struct ServerProcess {
    child: Child,
    address: String,
    log: Vec<String>,
    stderr: BufReader<std::process::ChildStderr>,
}

impl ServerProcess {
    fn start(extra: &[&str]) -> ServerProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-server"))
            .args(["--listen", "127.0.0.1:0"])
            .args(extra)
            .env("RUST_LOG", "info")
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut log = Vec::new();
        let address = loop {
            let mut line = String::new();
            assert_ne!(
                stderr.read_line(&mut line).unwrap(),
                0,
                "server exited early: {log:?}"
            );
            let address = line
                .split("address=")
                .nth(1)
                .map(|rest| rest.split_whitespace().next().unwrap().to_string());
            log.push(line);
            if let Some(address) = address {
                break address;
            }
        };
        ServerProcess {
            child,
            address,
            log,
            stderr,
        }
    }

    /// Sends SIGTERM and waits; returns the exit status and the rest of the log.
    fn terminate(mut self) -> (std::process::ExitStatus, String) {
        let pid = self.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
        let status = self.child.wait().unwrap();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stderr, &mut rest).unwrap();
        (status, rest)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

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

#[test]
fn the_client_exits_3_when_no_server_answers() {
    // Bind and drop a listener to find a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let output = sudoku(&["health", "--server", &format!("127.0.0.1:{port}")]);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("sudoku: cannot connect to 127.0.0.1:"),
        "{stderr}"
    );
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
    let startup = server.log.join("");
    assert!(startup.contains("sudoku-server listening"), "{startup}");
    for setting in [
        "workers=2",
        "queue_depth=7",
        "stream_window=128",
        "max_message_bytes=65536",
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
fn the_server_refuses_a_bad_flag_with_usage_help() {
    let output = Command::new(env!("CARGO_BIN_EXE_sudoku-server"))
        .args(["--workers", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("--workers"), "{stderr}");
}
