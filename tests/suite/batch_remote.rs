//! `sudoku solve FILE --server URL`: a puzzle file streamed through real
//! `sudoku-server` processes, checked line for line against solving the same
//! file in-process (`--local`). Covers order, several streams, two servers,
//! stdin, a server killed and restarted mid-batch, giving up, and no
//! progress bar when stderr is not a terminal.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::common::process::{ServerProcess, TempFile, run_sudoku, temp_file, text};
use crate::common::{CLASSIC, CrashableServer, read_puzzles};

/// The shipped unique puzzles, `copies` times over, in a temporary file.
fn unique_file(name: &str, copies: usize) -> TempFile {
    let puzzles = read_puzzles("unique.txt").join("\n") + "\n";
    temp_file(name, &puzzles.repeat(copies))
}

/// What `--local` answers for a file: the expected output.
fn local_answers(path: &str, format: &str) -> String {
    let output = run_sudoku(&["solve", "--local", "-q", "--format", format, path], "");
    text(&output.stdout)
}

#[test]
fn a_file_streams_through_a_server_in_input_order_with_every_kind_of_answer() {
    let server = ServerProcess::start(&["--workers", "2"]);
    let multiple = read_puzzles("multiple.txt").remove(0);
    let unsolvable = read_puzzles("unsolvable.txt").remove(0);
    let conflicting = read_puzzles("conflicting.txt").remove(0);
    let overlong = "1".repeat(70_000);
    let contents = format!(
        "# a comment\n{CLASSIC}\n\n{multiple}\n{unsolvable}\n{conflicting}\n{}\n{overlong}\n{CLASSIC}\n",
        &CLASSIC[..80]
    );
    let path = temp_file("mixed.txt", &contents);
    let path = path.to_str().unwrap();

    for format in ["text", "json"] {
        let remote = run_sudoku(
            &[
                "solve",
                "--server",
                &server.address,
                "--format",
                format,
                path,
            ],
            "",
        );
        assert_eq!(
            text(&remote.stdout),
            local_answers(path, format),
            "{format}"
        );
        assert_eq!(remote.status.code(), Some(2), "an invalid line: exit 2");
        // stderr is a pipe here, so no progress bar: only the notes about
        // invalid lines and the summary.
        let stderr = text(&remote.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 4, "{stderr}");
        assert!(
            lines[0].starts_with("sudoku: line 6: conflicting givens"),
            "{stderr}"
        );
        assert!(
            lines[1].starts_with("sudoku: line 7: expected 81 cells"),
            "{stderr}"
        );
        assert!(
            lines[2].starts_with("sudoku: line 8: the line is longer than"),
            "{stderr}"
        );
        assert!(
            lines[3].starts_with("7 puzzles: 2 solved, 1 multiple, 1 unsolvable, 3 invalid in "),
            "{stderr}"
        );
        assert!(
            !stderr.contains('\r') && !stderr.contains('\x1b'),
            "{stderr:?}"
        );
    }

    // The same from stdin, quietly.
    let stdin = run_sudoku(
        &["solve", "--server", &server.address, "-q", "-"],
        &contents,
    );
    assert_eq!(text(&stdin.stdout), local_answers(path, "text"));
    assert!(stdin.stderr.is_empty(), "{}", text(&stdin.stderr));
}

#[test]
fn several_streams_over_two_servers_keep_input_order() {
    let first = ServerProcess::start(&["--workers", "1"]);
    let second = ServerProcess::start(&["--workers", "1"]);
    let (idle_first, idle_second) = (first.cpu_ticks(), second.cpu_ticks());
    let path = unique_file("two_servers.txt", 12);
    let path = path.to_str().unwrap();
    let output = run_sudoku(
        &[
            "solve",
            "--server",
            &first.address,
            "--server",
            &second.address,
            "--streams",
            "4",
            "-q",
            path,
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), local_answers(path, "text"));
    assert!(
        first.cpu_ticks() > idle_first && second.cpu_ticks() > idle_second,
        "both servers solved a share"
    );
}

/// Starts `sudoku solve` on a big file against `server`, waits until it has
/// written `lines` answers, and returns the child with its stdout reader.
fn start_batch_and_wait_for(
    args: &[&str],
    lines: usize,
) -> (
    std::process::Child,
    BufReader<std::process::ChildStdout>,
    String,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut received = String::new();
    for _ in 0..lines {
        assert_ne!(stdout.read_line(&mut received).unwrap(), 0, "ended early");
    }
    (child, stdout, received)
}

#[test]
fn a_server_killed_and_restarted_mid_batch_loses_and_repeats_nothing() {
    // The test holds the socket, so the port stays the server's across the
    // crash and no other test can bind it in between.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let server = CrashableServer::start(&listener, 1);
    let path = unique_file("restart.txt", 40);
    let path = path.to_str().unwrap();
    let (mut child, mut stdout, mut received) =
        start_batch_and_wait_for(&["solve", "--server", &address, "-q", path], 200);

    // A crash, not a graceful shutdown: every connection drops mid-batch.
    server.crash();
    let restarted = CrashableServer::start(&listener, 2);
    std::io::Read::read_to_string(&mut stdout, &mut received).unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();

    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_eq!(received, local_answers(path, "text"));
    // The rest (tens of thousands of puzzles, in jobs of up to 64) went to
    // the restarted server.
    assert!(
        restarted.pool.stats().completed > 100,
        "the restarted server answered the rest: {:?}",
        restarted.pool.stats()
    );
}

#[test]
fn without_a_server_the_client_gives_up_and_says_how_much_was_answered() {
    let server = ServerProcess::start(&["--workers", "1"]);
    let path = unique_file("give_up.txt", 40);
    let path = path.to_str().unwrap();
    let (mut child, mut stdout, mut received) = start_batch_and_wait_for(
        &[
            "solve",
            "--server",
            &server.address,
            "--retries",
            "2",
            "-q",
            path,
        ],
        200,
    );
    server.kill();
    std::io::Read::read_to_string(&mut stdout, &mut received).unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();

    assert_eq!(status.code(), Some(3));
    let answered: usize = stderr
        .split(" puzzles were answered")
        .next()
        .and_then(|before| before.rsplit(' ').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no count in {stderr:?}"));
    assert!(
        stderr.starts_with("sudoku: gave up after 3 failed attempts"),
        "{stderr}"
    );
    // What was written is exactly the answered prefix of the full output.
    assert_eq!(received.lines().count(), answered);
    assert!(local_answers(path, "text").starts_with(&received));
    assert!((200..40 * 1650).contains(&answered), "{answered}");
}

#[test]
fn a_server_drained_by_sigterm_mid_batch_hands_the_rest_to_the_other() {
    let draining = ServerProcess::start(&["--workers", "1", "--drain-timeout", "10s"]);
    let other = ServerProcess::start(&["--workers", "1"]);
    let path = unique_file("sigterm.txt", 40);
    let path = path.to_str().unwrap();
    let draining_address = draining.address.clone();
    let (mut child, mut stdout, mut received) = start_batch_and_wait_for(
        &[
            "solve",
            "--server",
            &draining_address,
            "--server",
            &other.address,
            "--streams",
            "2",
            "-q",
            path,
        ],
        200,
    );
    let idle = other.cpu_ticks();

    // The draining server answers what it took in, ends its stream with
    // UNAVAILABLE and exits 0 well within its drain timeout; the client
    // sends the rest to the other server.
    let started = std::time::Instant::now();
    let (status, log) = draining.terminate();
    assert!(status.success(), "exit status {status:?}; log: {log}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "stopped only at the drain timeout: {log}"
    );

    std::io::Read::read_to_string(&mut stdout, &mut received).unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_eq!(
        received,
        local_answers(path, "text"),
        "nothing lost or repeated"
    );
    assert!(
        other.cpu_ticks() > idle + 10,
        "the other server took the rest"
    );
}
