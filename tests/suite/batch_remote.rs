//! `sudoku solve FILE --server URL`: a puzzle file streamed through real
//! `sudoku-server` processes, checked line for line against solving the same
//! file in-process (`--local`). Covers order, several streams, two servers,
//! stdin, a server killed and restarted mid-batch, giving up, a server
//! drained by SIGTERM, and no progress bar when stderr is not a terminal;
//! each over both RPCs a file can take: SolveBatchStream (`--rpc batch`, the
//! default, also with batches smaller than a chunk of input) and
//! SolveStream (`--rpc stream`). And `--server dns:///localhost:PORT`: the
//! servers on both loopback addresses share the work, and one killed
//! mid-run loses nothing.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::process::{ServerProcess, TempFile, run_sudoku, temp_file, text};
use crate::common::{CLASSIC, CrashableServer, read_puzzles, sample};

/// One way of streaming a file through servers.
#[derive(Debug, Clone, Copy)]
struct Rpc {
    /// What a failure message calls it.
    name: &'static str,
    /// The `sudoku solve` flags that ask for it.
    flags: &'static [&'static str],
    /// The `rpc` label the server's metrics count its calls under.
    label: &'static str,
}

impl Rpc {
    /// `args` followed by this RPC's flags.
    fn args<'a>(&self, args: &[&'a str]) -> Vec<&'a str> {
        let mut all = args.to_vec();
        all.extend_from_slice(self.flags);
        all
    }
}

impl std::fmt::Display for Rpc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// No `--rpc` flag: batches, of the default size (each chunk one batch).
const DEFAULT: Rpc = Rpc {
    name: "no --rpc flag (batch)",
    flags: &[],
    label: "SolveBatchStream",
};

/// SolveBatchStream, asked for, with the default batch size.
const BATCH: Rpc = Rpc {
    name: "--rpc batch",
    flags: &["--rpc", "batch"],
    label: "SolveBatchStream",
};

/// SolveBatchStream with batches of 2: in a short file, one batch spans a
/// line too long to send, which the client answers itself.
const BATCH_OF_2: Rpc = Rpc {
    name: "--rpc batch --batch 2",
    flags: &["--rpc", "batch", "--batch", "2"],
    label: "SolveBatchStream",
};

/// SolveBatchStream with batches of 7: about 115 batches per chunk of
/// input, the last of each short.
const BATCH_OF_7: Rpc = Rpc {
    name: "--rpc batch --batch 7",
    flags: &["--rpc", "batch", "--batch", "7"],
    label: "SolveBatchStream",
};

/// SolveStream: one puzzle per message.
const STREAM: Rpc = Rpc {
    name: "--rpc stream",
    flags: &["--rpc", "stream"],
    label: "SolveStream",
};

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

/// Where `server` (started with `--metrics-listen 127.0.0.1:0`) serves its
/// metrics, from its start-up line.
fn metrics_address(server: &ServerProcess) -> String {
    let log = server.log();
    log.split("metrics=")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no metrics address in {log}"))
        .to_string()
}

/// The metrics text at `address`, fetched with a plain HTTP/1.0 GET.
fn scrape(address: &str) -> String {
    use std::io::{Read, Write};
    let mut connection = std::net::TcpStream::connect(address).unwrap();
    write!(connection, "GET /metrics HTTP/1.0\r\nHost: test\r\n\r\n").unwrap();
    let mut response = String::new();
    connection.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
    assert!(head.contains(" 200 "), "{head}");
    body.to_string()
}

/// Asserts that the server whose metrics are at `metrics` has solved
/// `expected` puzzles over each RPC (`rpc` label, count), waiting up to ten
/// seconds for the counts of calls that have just ended: each run went
/// over the RPC it asked for, here the last one `rpc`.
fn assert_solved_over_each_rpc(metrics: &str, expected: [(&str, f64); 2], rpc: Rpc) {
    let counts = || {
        let body = scrape(metrics);
        expected.map(|(label, _)| {
            let series = format!("sudoku_puzzles_total{{outcome=\"solved\",rpc=\"{label}\"}}");
            (label, sample(&body, &series))
        })
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut counted = counts();
    while counted != expected && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
        counted = counts();
    }
    assert_eq!(
        counted, expected,
        "{rpc}: puzzles solved, by the RPC that carried them"
    );
}

#[test]
fn a_file_streams_through_a_server_in_input_order_with_every_kind_of_answer() {
    let server = ServerProcess::start(&["--workers", "2", "--metrics-listen", "127.0.0.1:0"]);
    let metrics = metrics_address(&server);
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
    let expected: Vec<(&str, String)> = ["text", "json"]
        .into_iter()
        .map(|format| (format, local_answers(path, format)))
        .collect();

    // Puzzles solved so far over each RPC, by the server's metrics.
    let mut solved = [("SolveBatchStream", 0.0), ("SolveStream", 0.0)];
    for rpc in [DEFAULT, BATCH, BATCH_OF_2, STREAM] {
        for (format, answers) in &expected {
            let format: &str = format;
            let remote = run_sudoku(
                &rpc.args(&[
                    "solve",
                    "--server",
                    &server.address,
                    "--format",
                    format,
                    path,
                ]),
                "",
            );
            assert_eq!(text(&remote.stdout), *answers, "{rpc}, {format}");
            assert_eq!(
                remote.status.code(),
                Some(2),
                "{rpc}, {format}: an invalid line: exit 2"
            );
            // stderr is a pipe here, so no progress bar: only the notes
            // about invalid lines and the summary.
            let stderr = text(&remote.stderr);
            let lines: Vec<&str> = stderr.lines().collect();
            assert_eq!(lines.len(), 4, "{rpc}, {format}: {stderr}");
            assert!(
                lines[0].starts_with("sudoku: line 6: conflicting givens"),
                "{rpc}, {format}: {stderr}"
            );
            assert!(
                lines[1].starts_with("sudoku: line 7: expected 81 cells"),
                "{rpc}, {format}: {stderr}"
            );
            assert!(
                lines[2].starts_with("sudoku: line 8: the line is longer than"),
                "{rpc}, {format}: {stderr}"
            );
            assert!(
                lines[3]
                    .starts_with("7 puzzles: 2 solved, 1 multiple, 1 unsolvable, 3 invalid in "),
                "{rpc}, {format}: {stderr}"
            );
            assert!(
                !stderr.contains('\r') && !stderr.contains('\x1b'),
                "{rpc}, {format}: {stderr:?}"
            );
        }

        // The same from stdin, quietly.
        let stdin = run_sudoku(
            &rpc.args(&["solve", "--server", &server.address, "-q", "-"]),
            &contents,
        );
        assert_eq!(text(&stdin.stdout), expected[0].1, "{rpc}, stdin");
        assert!(
            stdin.stderr.is_empty(),
            "{rpc}, stdin: {}",
            text(&stdin.stderr)
        );

        // Three runs, two puzzles solved in each, all over the RPC asked
        // for (the overlong line never reaches the server).
        for (label, count) in &mut solved {
            if *label == rpc.label {
                *count += 6.0;
            }
        }
        assert_solved_over_each_rpc(&metrics, solved, rpc);
    }
}

#[test]
fn several_streams_over_two_servers_keep_input_order() {
    let first = ServerProcess::start(&["--workers", "1"]);
    let second = ServerProcess::start(&["--workers", "1"]);
    let path = unique_file("two_servers.txt", 12);
    let path = path.to_str().unwrap();
    let expected = local_answers(path, "text");
    for rpc in [BATCH, STREAM] {
        let (idle_first, idle_second) = (first.cpu_ticks(), second.cpu_ticks());
        let output = run_sudoku(
            &rpc.args(&[
                "solve",
                "--server",
                &first.address,
                "--server",
                &second.address,
                "--streams",
                "4",
                "-q",
                path,
            ]),
            "",
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "{rpc}: {}",
            text(&output.stderr)
        );
        assert_eq!(text(&output.stdout), expected, "{rpc}");
        assert!(
            first.cpu_ticks() > idle_first && second.cpu_ticks() > idle_second,
            "{rpc}: both servers solved a share"
        );
    }
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
        assert_ne!(
            stdout.read_line(&mut received).unwrap(),
            0,
            "ended early: {args:?}"
        );
    }
    (child, stdout, received)
}

#[test]
fn a_server_killed_and_restarted_mid_batch_loses_and_repeats_nothing() {
    // The default batches (one per chunk) on the big file; batches of 7
    // (many per chunk, so the call resumes from the first batch of a chunk
    // left unanswered) and single puzzles on a smaller one, which still
    // leaves the restarted server well over 10,000 puzzles.
    for (rpc, copies) in [(BATCH, 40), (BATCH_OF_7, 12), (STREAM, 12)] {
        killed_and_restarted_mid_run(rpc, copies);
    }
}

/// A run over `rpc` on `copies` of the unique puzzles, through a server
/// that crashes once 200 answers are written and starts again.
fn killed_and_restarted_mid_run(rpc: Rpc, copies: usize) {
    // The test holds the socket, so the port stays the server's across the
    // crash and no other test can bind it in between.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let server = CrashableServer::start(&listener, 1);
    let path = unique_file("restart.txt", copies);
    let path = path.to_str().unwrap();
    let (mut child, mut stdout, mut received) =
        start_batch_and_wait_for(&rpc.args(&["solve", "--server", &address, "-q", path]), 200);

    // A crash, not a graceful shutdown: every connection drops mid-batch.
    server.crash();
    let restarted = CrashableServer::start(&listener, 2);
    std::io::Read::read_to_string(&mut stdout, &mut received).unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();

    assert_eq!(status.code(), Some(0), "{rpc}: {stderr}");
    assert_eq!(
        received,
        local_answers(path, "text"),
        "{rpc}: nothing lost or repeated"
    );
    // The rest (thousands of puzzles, in jobs of up to 64) went to the
    // restarted server.
    assert!(
        restarted.pool.stats().completed > 100,
        "{rpc}: the restarted server answered the rest: {:?}",
        restarted.pool.stats()
    );
}

#[test]
fn without_a_server_the_client_gives_up_and_says_how_much_was_answered() {
    let path = unique_file("give_up.txt", 40);
    let path = path.to_str().unwrap();
    let expected = local_answers(path, "text");
    for rpc in [BATCH, BATCH_OF_7, STREAM] {
        let server = ServerProcess::start(&["--workers", "1"]);
        let (mut child, mut stdout, mut received) = start_batch_and_wait_for(
            &rpc.args(&[
                "solve",
                "--server",
                &server.address,
                "--retries",
                "2",
                "-q",
                path,
            ]),
            200,
        );
        server.kill();
        std::io::Read::read_to_string(&mut stdout, &mut received).unwrap();
        let status = child.wait().unwrap();
        let mut stderr = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();

        assert_eq!(status.code(), Some(3), "{rpc}: {stderr}");
        let answered: usize = stderr
            .split(" puzzles were answered")
            .next()
            .and_then(|before| before.rsplit(' ').next())
            .and_then(|count| count.parse().ok())
            .unwrap_or_else(|| panic!("{rpc}: no count in {stderr:?}"));
        assert!(
            stderr.starts_with("sudoku: gave up after 3 failed attempts"),
            "{rpc}: {stderr}"
        );
        // What was written is exactly the answered prefix of the full
        // output.
        assert_eq!(received.lines().count(), answered, "{rpc}");
        assert!(
            expected.starts_with(&received),
            "{rpc}: the output is a prefix of the full one"
        );
        assert!((200..40 * 1650).contains(&answered), "{rpc}: {answered}");
    }
}

#[test]
fn a_server_drained_by_sigterm_mid_batch_hands_the_rest_to_the_other() {
    // SolveStream on a smaller file, which still leaves the other server
    // tens of thousands of puzzles.
    for (rpc, copies) in [(BATCH, 40), (STREAM, 20)] {
        drained_mid_run(rpc, copies);
    }
}

/// A run over `rpc` on `copies` of the unique puzzles through two
/// servers, one of which is sent SIGTERM once 200 answers are written.
fn drained_mid_run(rpc: Rpc, copies: usize) {
    let draining = ServerProcess::start(&["--workers", "1", "--drain-timeout", "10s"]);
    let other = ServerProcess::start(&["--workers", "1"]);
    let path = unique_file("sigterm.txt", copies);
    let path = path.to_str().unwrap();
    let draining_address = draining.address.clone();
    let (mut child, mut stdout, mut received) = start_batch_and_wait_for(
        &rpc.args(&[
            "solve",
            "--server",
            &draining_address,
            "--server",
            &other.address,
            "--streams",
            "2",
            "-q",
            path,
        ]),
        200,
    );
    let idle = other.cpu_ticks();

    // The draining server answers what it took in, ends its stream with
    // UNAVAILABLE and exits 0 well within its drain timeout; the client
    // sends the rest to the other server.
    let started = Instant::now();
    let (status, log) = draining.terminate();
    assert!(
        status.success(),
        "{rpc}: exit status {status:?}; log: {log}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{rpc}: stopped only at the drain timeout: {log}"
    );

    std::io::Read::read_to_string(&mut stdout, &mut received).unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(0), "{rpc}: {stderr}");
    assert_eq!(
        received,
        local_answers(path, "text"),
        "{rpc}: nothing lost or repeated"
    );
    assert!(
        other.cpu_ticks() > idle + 10,
        "{rpc}: the other server took the rest"
    );
}

/// Two servers with one solver thread and a metrics endpoint each, on the
/// same port of 127.0.0.1 and of ::1: the addresses `localhost` stands for.
/// Another port is tried if the first one's is taken on ::1.
fn servers_on_both_loopback_addresses() -> (ServerProcess, ServerProcess, u16) {
    let flags = ["--workers", "1", "--metrics-listen", "127.0.0.1:0"];
    let mut refused = String::new();
    for _ in 0..5 {
        let v4 = ServerProcess::start(&flags);
        let (_, port) = v4.address.rsplit_once(':').expect("host:port");
        let port: u16 = port.parse().unwrap();
        match ServerProcess::start_on(&format!("[::1]:{port}"), &flags) {
            Ok(v6) => return (v4, v6, port),
            Err(log) => refused = log,
        }
    }
    panic!("no port free on both 127.0.0.1 and ::1; the last refusal: {refused}");
}

/// Puzzles the server whose metrics are at `metrics` has solved over
/// SolveBatchStream, once that is more than `than` (or ten seconds have
/// passed: the caller's assertion then says what was missing).
fn solved_beyond(metrics: &str, than: f64) -> f64 {
    let series = "sudoku_puzzles_total{outcome=\"solved\",rpc=\"SolveBatchStream\"}";
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let solved = sample(&scrape(metrics), series);
        if solved > than || Instant::now() > deadline {
            return solved;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_dns_name_spreads_the_streams_over_its_addresses_and_survives_losing_one() {
    // `localhost` is 127.0.0.1 and ::1 to the client whatever the hosts
    // file says, so the name stands for both servers.
    let (v4, v6, port) = servers_on_both_loopback_addresses();
    let (v4_metrics, v6_metrics) = (metrics_address(&v4), metrics_address(&v6));
    let target = format!("dns:///localhost:{port}");
    let path = unique_file("dns.txt", 40);
    let path = path.to_str().unwrap();
    let (mut child, mut stdout, mut received) =
        start_batch_and_wait_for(&["solve", "--server", &target, "-q", path], 200);

    // Two streams per address: both servers have been solving.
    let v4_solved = solved_beyond(&v4_metrics, 0.0);
    let v6_solved = solved_beyond(&v6_metrics, 0.0);
    assert!(
        v4_solved > 0.0 && v6_solved > 0.0,
        "both addresses got work: 127.0.0.1 solved {v4_solved}, ::1 {v6_solved}"
    );

    // A crash: the connections to 127.0.0.1 drop mid-batch, and its streams
    // move on to ::1 with what they had not had answered.
    v4.kill();
    std::io::Read::read_to_string(&mut stdout, &mut received).unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_eq!(
        received,
        local_answers(path, "text"),
        "every answer, once, in input order"
    );
    assert!(
        solved_beyond(&v6_metrics, v6_solved) > v6_solved,
        "::1 went on solving"
    );
}
