//! `sudoku-server` and `sudoku` as child processes, for tests of the
//! binaries, and the temporary files they read.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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
    // A command that exits before reading its input closes the pipe.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().unwrap()
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A temporary file, removed when dropped; it derefs to its path.
pub type TempFile = tempfile::TempPath;

/// A temporary file holding `contents`, its name ending in `name`.
pub fn temp_file(name: &str, contents: &str) -> TempFile {
    let mut file = tempfile::Builder::new()
        .prefix("sudoku-tests-")
        .suffix(&format!("-{name}"))
        .tempfile()
        .unwrap();
    file.write_all(contents.as_bytes()).unwrap();
    file.into_temp_path()
}

/// A `sudoku-server` process listening on an ephemeral port. Its stderr is
/// read all the time by a thread of its own, so that a chatty server never
/// blocks on a full pipe, and kept for the test to look at.
pub struct ServerProcess {
    pub child: Child,
    /// `host:port` it listens on.
    pub address: String,
    log: Arc<Mutex<Vec<String>>>,
    reader: Option<JoinHandle<()>>,
}

impl ServerProcess {
    /// [`ServerProcess::start`] from async code: waits for the server off
    /// the runtime.
    pub async fn start_async(extra: &[impl AsRef<str>]) -> ServerProcess {
        let extra: Vec<String> = extra.iter().map(|flag| flag.as_ref().to_string()).collect();
        tokio::task::spawn_blocking(move || {
            let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
            ServerProcess::start(&extra)
        })
        .await
        .unwrap()
    }

    /// Starts a server on an ephemeral port of 127.0.0.1 with `extra`
    /// flags, and waits until it says where it listens.
    pub fn start(extra: &[&str]) -> ServerProcess {
        ServerProcess::start_on("127.0.0.1:0", extra)
            .unwrap_or_else(|log| panic!("the server did not start: {log}"))
    }

    /// Starts a server listening on `listen` with `extra` flags, and waits
    /// until it says where it listens; its log if it does not start (its
    /// address is taken, say).
    pub fn start_on(listen: &str, extra: &[&str]) -> Result<ServerProcess, String> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-server"))
            .args(["--listen", listen])
            .args(extra)
            .env("RUST_LOG", "info")
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        let log = Arc::new(Mutex::new(Vec::new()));
        let (found, address) = mpsc::channel();
        let reader = std::thread::spawn({
            let log = log.clone();
            move || {
                for line in stderr.lines() {
                    let Ok(line) = line else { break };
                    let address = line
                        .split("address=")
                        .nth(1)
                        .map(|rest| rest.split_whitespace().next().unwrap().to_string());
                    // The line is in the log before anyone hears of it.
                    log.lock().unwrap().push(line);
                    if let Some(address) = address {
                        let _ = found.send(address);
                    }
                }
            }
        });
        let Ok(address) = address.recv_timeout(Duration::from_secs(30)) else {
            let _ = child.kill();
            let _ = child.wait();
            let _ = reader.join();
            let log = log.lock().unwrap().join("\n");
            return Err(log);
        };
        Ok(ServerProcess {
            child,
            address,
            log,
            reader: Some(reader),
        })
    }

    /// Its log so far, one line per line.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }

    /// Waits until its log has a line containing `needle`, for at most
    /// ten seconds; true if it came.
    pub fn wait_for_log(&self, needle: &str) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if self
                .log
                .lock()
                .unwrap()
                .iter()
                .any(|line| line.contains(needle))
            {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    /// Sends SIGTERM and waits; returns the exit status and the whole log.
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
        if let Some(reader) = self.reader.take() {
            reader.join().unwrap();
        }
        (status, self.log())
    }

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

    /// A memory figure of `/proc/PID/status`, in KiB: `VmRSS` (now) or
    /// `VmHWM` (the peak so far).
    pub fn memory_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|value| value.split_whitespace().next()?.parse().ok())
            .unwrap_or_else(|| panic!("no {field} in {status}"))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How many lines of `log` hold `needle`.
pub fn lines_with(log: &str, needle: &str) -> usize {
    log.lines().filter(|line| line.contains(needle)).count()
}

/// How many events the lines of `log` holding `needle` account for: each
/// line one, plus the lines it says it left out.
pub fn accounted_in(log: &str, needle: &str) -> usize {
    log.lines()
        .filter(|line| line.contains(needle))
        .map(|line| 1 + suppressed(line))
        .sum()
}

/// The count of lines left out that a rate-limited log line reports
/// (`suppressed=N`), or 0.
pub fn suppressed(line: &str) -> usize {
    line.split("suppressed=")
        .nth(1)
        .and_then(|rest| {
            rest.split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(0)
}
