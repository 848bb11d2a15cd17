//! `sudoku-server` as a child process, for tests of the binaries.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

/// Runs the `sudoku` command line with `args`, feeding it `stdin`.
pub fn run_sudoku(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A file in this test process's own temporary directory.
pub fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// A `sudoku-server` process listening on an ephemeral port.
pub struct ServerProcess {
    pub child: Child,
    /// `host:port` it listens on.
    pub address: String,
    /// Its log lines up to the one with the address.
    pub log: Vec<String>,
    stderr: BufReader<std::process::ChildStderr>,
}

impl ServerProcess {
    /// Starts a server on an ephemeral port of 127.0.0.1 with `extra` flags.
    pub fn start(extra: &[&str]) -> ServerProcess {
        Self::start_on("127.0.0.1:0", extra)
    }

    /// Starts a server listening on `listen` (e.g. again on the port of one
    /// that was killed).
    pub fn start_on(listen: &str, extra: &[&str]) -> ServerProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-server"))
            .args(["--listen", listen])
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
    pub fn terminate(mut self) -> (std::process::ExitStatus, String) {
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

impl ServerProcess {
    /// Kills the server at once (SIGKILL), as a crash would.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// CPU time the process has used so far, in clock ticks.
    pub fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        // Fields after the command name (which is in parentheses): utime is
        // the 14th field of the line, stime the 15th.
        let fields: Vec<&str> = stat
            .rsplit(')')
            .next()
            .unwrap()
            .split_whitespace()
            .collect();
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
