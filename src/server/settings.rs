//! The server's settings: command-line flags with environment fallbacks,
//! their defaults (each written once, here or in [`Limits::DEFAULT`]), and
//! the checks that refuse zero or absurd values at startup.

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use crate::pool::available_cores;
use crate::service::Limits;
use crate::service::limits::{MAX_ID_BYTES, MAX_ITEM_CHARGE};

/// The defaults of the settings that are not the service's [`Limits`].
pub mod defaults {
    use std::time::Duration;

    /// `--listen`.
    pub const LISTEN: &str = "127.0.0.1:50051";
    /// `--queue-depth`.
    pub const QUEUE_DEPTH: usize = 1024;
    /// `--drain-timeout`.
    pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);
    /// `--max-concurrent-streams`.
    pub const MAX_CONCURRENT_STREAMS: u32 = 256;
    /// `--max-connections`.
    pub const MAX_CONNECTIONS: usize = 128;
    /// `--max-calls`.
    pub const MAX_CALLS: usize = 1024;
    /// `--max-batch-calls`.
    pub const MAX_BATCH_CALLS: usize = crate::service::Limits::DEFAULT.max_batch_calls;
    /// `--first-call-timeout`.
    pub const FIRST_CALL_TIMEOUT: Duration = crate::service::Limits::DEFAULT.first_message_timeout;
    /// `--connection-window-bytes`.
    pub const CONNECTION_WINDOW_BYTES: u32 = 256 * 1024;
    /// `--keepalive-interval`.
    pub const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(60);
    /// `--keepalive-timeout`.
    pub const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(20);
}

/// The smallest `--max-message-bytes`: a request carrying the largest id
/// and puzzle text allowed, with room for protobuf's framing.
pub const MIN_MESSAGE_BYTES: usize = MAX_ID_BYTES + crate::domain::MAX_PUZZLE_BYTES + 64;

/// The largest `--max-message-bytes` accepted: far beyond any answer, which
/// is a few hundred bytes.
pub const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// Flags of `sudoku-server`. Each can also be set by the environment
/// variable named in its help. Sizes take a unit (`64KiB`, `32MiB`) or a
/// plain number of bytes; durations a unit (`500ms`, `10s`, `2m`).
#[derive(Debug, Clone, clap::Args)]
pub struct Settings {
    /// Address to listen on (use 0.0.0.0:50051 to accept remote clients).
    #[arg(long, env = "SUDOKU_LISTEN", default_value = defaults::LISTEN)]
    pub listen: SocketAddr,

    /// Solver threads [default: the number of available cores].
    #[arg(long, env = "SUDOKU_WORKERS")]
    pub workers: Option<NonZeroUsize>,

    /// Jobs that may wait for a solver thread while all are busy: a unary
    /// call is one job, a stream hands over up to 64 puzzles per job. Beyond
    /// this, unary calls are refused with RESOURCE_EXHAUSTED and streams wait.
    #[arg(long, env = "SUDOKU_QUEUE_DEPTH", default_value_t = defaults::QUEUE_DEPTH)]
    pub queue_depth: usize,

    /// Puzzles of one stream in flight at once; past this the server stops
    /// reading that stream until answers go out.
    #[arg(long, env = "SUDOKU_STREAM_WINDOW",
          default_value_t = NonZeroUsize::new(Limits::DEFAULT.stream_window).unwrap())]
    pub stream_window: NonZeroUsize,

    /// Bytes the puzzles of one stream in flight may hold at once (each is
    /// charged its id, its text and 512 bytes for its answer); past this the
    /// server stops reading that stream.
    #[arg(long, env = "SUDOKU_STREAM_WINDOW_BYTES", value_parser = parse_bytes,
          default_value_t = Limits::DEFAULT.stream_window_bytes)]
    pub stream_window_bytes: usize,

    /// Bytes all SolveStreams together may hold in puzzles in flight,
    /// charged as for a stream's window; a stream whose next item does not
    /// fit stops reading until it does. Unary calls are not charged, and
    /// batch calls have a budget of their own (room for the largest batch
    /// and its answers per --max-batch-calls).
    #[arg(long, env = "SUDOKU_MAX_INFLIGHT_BYTES", value_parser = parse_bytes,
          default_value_t = Limits::DEFAULT.max_inflight_bytes)]
    pub max_inflight_bytes: usize,

    /// Largest request or response message in bytes. An item holds at most
    /// a 256-byte id and 2 KiB of puzzle text; larger items are refused one
    /// by one, and a message over this limit ends its call. (Batch RPCs
    /// size their messages by --max-batch, and an Explain response may
    /// take up to 1 MiB.)
    #[arg(long, env = "SUDOKU_MAX_MESSAGE_BYTES", value_parser = parse_bytes,
          default_value_t = Limits::DEFAULT.max_message_bytes)]
    pub max_message_bytes: usize,

    /// The longest the solver may spend on one puzzle; a puzzle that needs
    /// more gets OUTCOME_GAVE_UP (RESOURCE_EXHAUSTED in a unary call).
    /// Real puzzles take microseconds to milliseconds.
    #[arg(long, env = "SUDOKU_MAX_SOLVE_TIME", value_parser = parse_duration,
          default_value = format_duration(Limits::DEFAULT.max_solve_time))]
    pub max_solve_time: Duration,

    /// The longest the logical solver may spend grading one puzzle (in a
    /// Solve or batch that asks for its grade, or each attempt of a
    /// Generate), or on a Hint or Explain, after the puzzle is solved; a
    /// grade that needs more is marked stalled, with the reason (and a
    /// Generate attempt dropped). Separate from --max-solve-time because
    /// rating the hardest puzzles takes far longer than solving them.
    #[arg(long, env = "SUDOKU_MAX_GRADE_TIME", value_parser = parse_duration,
          default_value = format_duration(Limits::DEFAULT.max_grade_time))]
    pub max_grade_time: Duration,

    /// Most puzzles one Generate call may ask for; a larger count is
    /// refused with INVALID_ARGUMENT.
    #[arg(long, env = "SUDOKU_MAX_GENERATE_COUNT",
          value_parser = clap::value_parser!(u32).range(1..=1_000_000),
          default_value_t = Limits::DEFAULT.max_generate_count as u32)]
    pub max_generate_count: u32,

    /// How long a Generate call may search for its next puzzle: a target
    /// that is rarely or never met (min rating 11, say) ends the call with
    /// what it found and RESOURCE_EXHAUSTED once this passes without one.
    #[arg(long, env = "SUDOKU_MAX_GENERATE_WAIT", value_parser = parse_duration,
          default_value = format_duration(Limits::DEFAULT.max_generate_wait))]
    pub max_generate_wait: Duration,

    /// `--max-generate-wait` for a target rated 9.2 or more (min_rating,
    /// or the level's floor), which random puzzles almost never meet: the
    /// server climbs to it from a random puzzle instead, in seconds to
    /// minutes per puzzle (a median of about 6.5 s for 10.0 on two
    /// workers). A client bounds its own wait with its deadline.
    #[arg(long, env = "SUDOKU_MAX_CLIMB_WAIT", value_parser = parse_duration,
          default_value = format_duration(Limits::DEFAULT.max_climb_wait))]
    pub max_climb_wait: Duration,

    /// After SIGTERM or SIGINT, how long in-flight calls get to finish
    /// before the server closes them, e.g. `30s` or `500ms`.
    #[arg(long, env = "SUDOKU_DRAIN_TIMEOUT", value_parser = parse_duration,
          default_value = format_duration(defaults::DRAIN_TIMEOUT))]
    pub drain_timeout: Duration,

    /// Most SolveStream and Generate calls open at once on this server; more are refused
    /// with RESOURCE_EXHAUSTED.
    #[arg(long, env = "SUDOKU_MAX_OPEN_STREAMS",
          value_parser = clap::value_parser!(u32).range(1..=1 << 20),
          default_value_t = Limits::DEFAULT.max_open_streams as u32)]
    pub max_open_streams: u32,

    /// Most calls in flight at once on this server, of every connection;
    /// more are refused at once with RESOURCE_EXHAUSTED. Health checks and
    /// reflection have a small allowance of their own besides.
    #[arg(long, env = "SUDOKU_MAX_CALLS",
          value_parser = clap::value_parser!(u32).range(1..=1 << 20),
          default_value_t = defaults::MAX_CALLS as u32)]
    pub max_calls: u32,

    /// Most puzzles in one SolveBatch or SolveBatchStream request; a larger
    /// batch is refused as a whole (INVALID_ARGUMENT). The batch RPCs
    /// accept request messages up to a full batch of the largest items
    /// (this many puzzles of 2 KiB and a 256-byte id), and no larger.
    #[arg(long, env = "SUDOKU_MAX_BATCH",
          value_parser = clap::value_parser!(u32).range(1..=MAX_BATCH_LIMIT as i64),
          default_value_t = Limits::DEFAULT.max_batch as u32)]
    pub max_batch: u32,

    /// Batches of one SolveBatchStream in flight at once (fewer when they
    /// hold the largest items: the stream's window also holds at most two
    /// full batches of those); past this the server stops reading it.
    #[arg(long, env = "SUDOKU_BATCH_WINDOW",
          value_parser = clap::value_parser!(u32).range(1..=64),
          default_value_t = Limits::DEFAULT.batch_window as u32)]
    pub batch_window: u32,

    /// Most SolveBatch, SolveBatchStream and Explain calls in flight at
    /// once, besides --max-calls; more are refused at once with
    /// RESOURCE_EXHAUSTED. Each may hold a request message of up to a full
    /// batch (or an explanation of up to 1 MiB).
    #[arg(long, env = "SUDOKU_MAX_BATCH_CALLS",
          value_parser = clap::value_parser!(u32).range(1..=1 << 16),
          default_value_t = defaults::MAX_BATCH_CALLS as u32)]
    pub max_batch_calls: u32,

    /// Most concurrent calls (HTTP/2 streams) one client connection may have.
    #[arg(long, env = "SUDOKU_MAX_CONCURRENT_STREAMS",
          value_parser = clap::value_parser!(u32).range(1..=1 << 20),
          default_value_t = defaults::MAX_CONCURRENT_STREAMS)]
    pub max_concurrent_streams: u32,

    /// Most client connections open at once. A connection over the cap is
    /// closed as soon as it is accepted (gRPC clients see UNAVAILABLE and
    /// retry).
    #[arg(long, env = "SUDOKU_MAX_CONNECTIONS",
          value_parser = clap::value_parser!(u32).range(1..=1 << 20),
          default_value_t = defaults::MAX_CONNECTIONS as u32)]
    pub max_connections: u32,

    /// A connection that has opened no call this long after it was accepted
    /// (its TLS handshake included) is closed, and a unary call whose
    /// request message has not arrived this long after its headers is
    /// answered DEADLINE_EXCEEDED.
    #[arg(long, env = "SUDOKU_FIRST_CALL_TIMEOUT", value_parser = parse_duration,
          default_value = format_duration(defaults::FIRST_CALL_TIMEOUT))]
    pub first_call_timeout: Duration,

    /// HTTP/2 receive window of each connection, in bytes: how much a client
    /// may send ahead of what the server has read. Each call's window is an
    /// eighth of it. Larger windows help clients far away; each connection
    /// may hold this much.
    #[arg(long, env = "SUDOKU_CONNECTION_WINDOW_BYTES", value_parser = parse_window,
          default_value_t = defaults::CONNECTION_WINDOW_BYTES)]
    pub connection_window_bytes: u32,

    /// How often the server pings an idle HTTP/2 connection (0 turns pings
    /// off). A peer that does not answer within --keepalive-timeout is
    /// disconnected, which frees what its calls held.
    #[arg(long, env = "SUDOKU_KEEPALIVE_INTERVAL", value_parser = parse_duration,
          default_value = format_duration(defaults::KEEPALIVE_INTERVAL))]
    pub keepalive_interval: Duration,

    /// How long the server waits for a keepalive ping's answer.
    #[arg(long, env = "SUDOKU_KEEPALIVE_TIMEOUT", value_parser = parse_duration,
          default_value = format_duration(defaults::KEEPALIVE_TIMEOUT))]
    pub keepalive_timeout: Duration,

    /// Serve TLS with this certificate chain (PEM file); needs --tls-key.
    #[arg(
        long,
        env = "SUDOKU_TLS_CERT",
        requires = "tls_key",
        value_name = "PEM"
    )]
    pub tls_cert: Option<PathBuf>,

    /// The private key of --tls-cert (PEM file).
    #[arg(
        long,
        env = "SUDOKU_TLS_KEY",
        requires = "tls_cert",
        value_name = "PEM"
    )]
    pub tls_key: Option<PathBuf>,

    /// Require every client to present a certificate signed by this CA (PEM
    /// file): mutual TLS. Needs --tls-cert.
    #[arg(
        long,
        env = "SUDOKU_TLS_CLIENT_CA",
        requires = "tls_cert",
        value_name = "PEM"
    )]
    pub tls_client_ca: Option<PathBuf>,

    /// Serve Prometheus metrics over plain HTTP at /metrics on this address,
    /// e.g. 0.0.0.0:9090 [default: off].
    #[arg(long, env = "SUDOKU_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,

    /// Log lines as human-readable text or as JSON objects (one per line).
    #[arg(long, env = "SUDOKU_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Serve the web page at / on the gRPC port (gRPC-Web stays on either
    /// way).
    #[arg(long, env = "SUDOKU_WEB", default_value_t = true, action = clap::ArgAction::Set,
          value_name = "BOOL")]
    pub web: bool,

    /// Serve the page's files from this directory (read once, at startup)
    /// instead of the copy built into the binary: for working on web/.
    #[arg(long, env = "SUDOKU_WEB_DIR", value_name = "DIR")]
    pub web_dir: Option<PathBuf>,

    /// Let pages on this origin (e.g. https://app.example.com) call the
    /// service over gRPC-Web; repeat it, or separate origins by commas in
    /// the environment [default: none, only pages served by this server].
    #[arg(long, env = "SUDOKU_CORS_ALLOW_ORIGIN", value_delimiter = ',',
          value_parser = crate::server::web::parse_origin, value_name = "ORIGIN")]
    pub cors_allow_origin: Vec<String>,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable text, coloured on a terminal.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// The longest any duration flag may be: a day is far past any use, and
/// keeps the timers' arithmetic far from overflow.
pub const MAX_DURATION: Duration = Duration::from_secs(24 * 60 * 60);

/// The shortest a connection's timer may be (besides 0 where 0 means
/// off): the runtime's timers keep nothing finer, and a
/// `--first-call-timeout` of `0.0001ms` is a typo that would close every
/// connection before its first call.
pub const MIN_TIMER: Duration = Duration::from_millis(1);

/// The largest `--max-batch`: what a batch message decodes is bounded by
/// it (see [`crate::pb::MAX_KEPT`]).
pub const MAX_BATCH_LIMIT: usize = crate::pb::MAX_KEPT - 1;

/// The most solver threads: far more than cores any machine has.
pub const MAX_WORKERS: usize = 1024;

/// The most jobs that may wait for a solver thread.
pub const MAX_QUEUE_DEPTH: usize = 1 << 20;

/// Settings that cannot work together, found at startup.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SettingsError(String);

impl Settings {
    /// Solver threads: the flag, or the number of available cores (at most
    /// [`MAX_WORKERS`]).
    pub fn worker_count(&self) -> usize {
        self.workers
            .map_or_else(|| available_cores().min(MAX_WORKERS), NonZeroUsize::get)
    }

    /// The HTTP/2 receive window of each call: an eighth of the
    /// connection's.
    ///
    /// h2 closes a connection (GOAWAY ENHANCE_YOUR_CALM) once the DATA
    /// frames under 256 bytes it holds unread cost more than half the
    /// connection window, each charged 256 bytes less its payload. A
    /// SolveStream whose client sends one puzzle per frame (88 bytes at
    /// the least: an empty id and 81 cells), while the server has stopped
    /// reading it, fills its call window with frames charged about 1.9
    /// times their bytes. With call windows an eighth of the connection's,
    /// two such streams on one connection stay under h2's limit (a quarter
    /// let only one); so does a burst of `--max-concurrent-streams` unary
    /// calls of one small frame each. At the defaults (256 KiB) a call's
    /// window is 32 KiB, what it was when calls had a quarter of 128 KiB:
    /// a batch request of 84 KiB takes as few window updates as before
    /// (16 KiB made SolveBatchStream about 10% slower). A third stalled stream of the
    /// smallest frames on the same connection can still reach it: a client
    /// with more streams than that spreads them over connections.
    pub fn call_window_bytes(&self) -> u32 {
        self.connection_window_bytes / 8
    }

    /// The limits the service applies to calls.
    pub fn limits(&self) -> Limits {
        Limits {
            stream_window: self.stream_window.get(),
            stream_window_bytes: self.stream_window_bytes,
            max_open_streams: self.max_open_streams as usize,
            max_message_bytes: self.max_message_bytes,
            max_inflight_bytes: self.max_inflight_bytes,
            max_solve_time: self.max_solve_time,
            max_grade_time: self.max_grade_time,
            max_batch: self.max_batch as usize,
            batch_window: self.batch_window as usize,
            max_batch_calls: self.max_batch_calls as usize,
            first_message_timeout: self.first_call_timeout,
            max_generate_count: self.max_generate_count as usize,
            max_generate_wait: self.max_generate_wait,
            max_climb_wait: self.max_climb_wait,
        }
    }

    /// Refuses values that are zero, absurd, or cannot work together, with
    /// a message naming the flag and what it must be.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let fail = |message: String| Err(SettingsError(message));
        if !(MIN_MESSAGE_BYTES..=MAX_MESSAGE_BYTES).contains(&self.max_message_bytes) {
            return fail(format!(
                "--max-message-bytes {} must be from {MIN_MESSAGE_BYTES} (a request with the \
                 largest id and puzzle allowed) to {MAX_MESSAGE_BYTES}",
                self.max_message_bytes
            ));
        }
        if self.stream_window_bytes < MAX_ITEM_CHARGE {
            return fail(format!(
                "--stream-window-bytes {} must be at least {MAX_ITEM_CHARGE}, what the \
                 largest item allowed is charged",
                self.stream_window_bytes
            ));
        }
        let largest_window = u32::MAX as usize - MAX_ITEM_CHARGE;
        if self.stream_window_bytes > largest_window {
            return fail(format!(
                "--stream-window-bytes {} must be at most {largest_window}: with one more \
                 item it must fit in --max-inflight-bytes, at most {}",
                self.stream_window_bytes,
                u32::MAX
            ));
        }
        let smallest_budget = self.stream_window_bytes + MAX_ITEM_CHARGE;
        if !(smallest_budget..=u32::MAX as usize).contains(&self.max_inflight_bytes) {
            return fail(format!(
                "--max-inflight-bytes {} must be from {smallest_budget} (one full stream \
                 window and one more item) to {}",
                self.max_inflight_bytes,
                u32::MAX
            ));
        }
        for origin in &self.cors_allow_origin {
            let parsed = crate::server::web::parse_origin(origin)
                .map_err(|why| SettingsError(format!("--cors-allow-origin: {why}")))?;
            if &parsed != origin {
                return fail(format!(
                    "--cors-allow-origin {origin:?} must be written as browsers send it: {parsed:?}"
                ));
            }
        }
        self.validate_durations()?;
        self.validate_pool()
    }

    /// Durations: none over [`MAX_DURATION`], the ones that cannot be zero
    /// are not, and the connection's timers are 0 or at least
    /// [`MIN_TIMER`]. The work's budgets may be shorter: a solve of an
    /// easy puzzle takes microseconds.
    fn validate_durations(&self) -> Result<(), SettingsError> {
        let any = Duration::ZERO;
        let durations = [
            ("--max-solve-time", self.max_solve_time, false, any),
            ("--max-grade-time", self.max_grade_time, false, any),
            ("--max-generate-wait", self.max_generate_wait, false, any),
            ("--max-climb-wait", self.max_climb_wait, false, any),
            (
                "--first-call-timeout",
                self.first_call_timeout,
                false,
                MIN_TIMER,
            ),
            (
                "--keepalive-timeout",
                self.keepalive_timeout,
                false,
                MIN_TIMER,
            ),
            ("--drain-timeout", self.drain_timeout, true, MIN_TIMER),
            (
                "--keepalive-interval",
                self.keepalive_interval,
                true,
                MIN_TIMER,
            ),
        ];
        for (flag, duration, may_be_zero, least) in durations {
            if duration.is_zero() && !may_be_zero {
                return Err(SettingsError(format!("{flag} must be more than 0")));
            }
            if !duration.is_zero() && duration < least {
                return Err(SettingsError(format!(
                    "{flag} {duration:?} must be at least {}{}",
                    format_duration(least),
                    if may_be_zero { ", or 0" } else { "" }
                )));
            }
            if duration > MAX_DURATION {
                return Err(SettingsError(format!(
                    "{flag} {} must be at most {}",
                    format_duration(duration),
                    format_duration(MAX_DURATION)
                )));
            }
        }
        Ok(())
    }

    /// The worker pool: threads and queue within [`MAX_WORKERS`] and
    /// [`MAX_QUEUE_DEPTH`].
    fn validate_pool(&self) -> Result<(), SettingsError> {
        if let Some(workers) = self.workers.filter(|workers| workers.get() > MAX_WORKERS) {
            return Err(SettingsError(format!(
                "--workers {workers} must be at most {MAX_WORKERS}"
            )));
        }
        if self.queue_depth > MAX_QUEUE_DEPTH {
            return Err(SettingsError(format!(
                "--queue-depth {} must be at most {MAX_QUEUE_DEPTH}",
                self.queue_depth
            )));
        }
        Ok(())
    }
}

impl Default for Settings {
    fn default() -> Self {
        let limits = Limits::DEFAULT;
        Settings {
            listen: defaults::LISTEN
                .parse()
                .expect("the default address parses"),
            workers: None,
            queue_depth: defaults::QUEUE_DEPTH,
            stream_window: NonZeroUsize::new(limits.stream_window).expect("not zero"),
            stream_window_bytes: limits.stream_window_bytes,
            max_inflight_bytes: limits.max_inflight_bytes,
            max_message_bytes: limits.max_message_bytes,
            max_solve_time: limits.max_solve_time,
            max_grade_time: limits.max_grade_time,
            max_generate_count: limits.max_generate_count as u32,
            max_generate_wait: limits.max_generate_wait,
            max_climb_wait: limits.max_climb_wait,
            drain_timeout: defaults::DRAIN_TIMEOUT,
            max_open_streams: limits.max_open_streams as u32,
            max_calls: defaults::MAX_CALLS as u32,
            max_batch: limits.max_batch as u32,
            batch_window: limits.batch_window as u32,
            max_batch_calls: defaults::MAX_BATCH_CALLS as u32,
            max_concurrent_streams: defaults::MAX_CONCURRENT_STREAMS,
            max_connections: defaults::MAX_CONNECTIONS as u32,
            first_call_timeout: defaults::FIRST_CALL_TIMEOUT,
            connection_window_bytes: defaults::CONNECTION_WINDOW_BYTES,
            keepalive_interval: defaults::KEEPALIVE_INTERVAL,
            keepalive_timeout: defaults::KEEPALIVE_TIMEOUT,
            tls_cert: None,
            tls_key: None,
            tls_client_ca: None,
            metrics_listen: None,
            log_format: LogFormat::Text,
            web: true,
            web_dir: None,
            cors_allow_origin: Vec::new(),
        }
    }
}

/// Parses `250ms`, `30s`, `2m` or a bare number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a duration such as 500ms, 30s or 2m"))?;
    Duration::try_from_secs_f64(value * scale).map_err(|error| format!("{text:?}: {error}"))
}

/// A duration as [`parse_duration`] reads it: `30s`, `500ms`.
pub fn format_duration(duration: Duration) -> String {
    if duration.subsec_nanos() == 0 {
        format!("{}s", duration.as_secs())
    } else {
        format!("{}ms", duration.as_millis())
    }
}

/// Parses a size: `64KiB`, `32MiB`, `1GiB` (or `KB`, `MB`, `GB`, also
/// powers of 1024) or a bare number of bytes.
pub fn parse_bytes(text: &str) -> Result<usize, String> {
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let scale: usize = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => {
            return Err(format!(
                "{text:?} is not a size such as 4096, 64KiB or 32MiB"
            ));
        }
    };
    number
        .parse::<usize>()
        .ok()
        .and_then(|number| number.checked_mul(scale))
        .ok_or_else(|| format!("{text:?} is not a size such as 4096, 64KiB or 32MiB"))
}

/// Parses an HTTP/2 window size: from 16 KiB (one frame) to 16 MiB.
fn parse_window(text: &str) -> Result<u32, String> {
    let bytes = parse_bytes(text)?;
    if !(16 << 10..=16 << 20).contains(&bytes) {
        return Err(format!("{text:?} must be from 16KiB to 16MiB"));
    }
    Ok(bytes as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        settings: Settings,
    }

    fn parse(args: &[&str]) -> Result<Settings, clap::Error> {
        Cli::try_parse_from(std::iter::once("sudoku-server").chain(args.iter().copied()))
            .map(|cli| cli.settings)
    }

    #[test]
    fn the_flags_defaults_are_the_default_settings() {
        let parsed = parse(&[]).unwrap();
        // Debug covers every field; `workers` is None in both.
        assert_eq!(format!("{parsed:?}"), format!("{:?}", Settings::default()));
        assert!(parsed.validate().is_ok());
        assert!(parsed.worker_count() >= 1);
    }

    #[test]
    fn flags_override_defaults() {
        let parsed = parse(&[
            "--listen",
            "0.0.0.0:7000",
            "--workers",
            "3",
            "--drain-timeout",
            "250ms",
            "--max-inflight-bytes",
            "8MiB",
            "--max-grade-time",
            "90s",
        ])
        .unwrap();
        assert_eq!(parsed.listen.port(), 7000);
        assert_eq!(parsed.limits().max_grade_time, Duration::from_secs(90));
        assert_eq!(parsed.worker_count(), 3);
        assert_eq!(parsed.drain_timeout, Duration::from_millis(250));
        assert_eq!(parsed.max_inflight_bytes, 8 << 20);
    }

    #[test]
    fn zero_and_absurd_limits_are_refused_with_the_flag_named() {
        for args in [
            &["--max-open-streams", "0"][..],
            &["--stream-window", "0"],
            &["--max-calls", "0"],
            &["--max-connections", "0"],
            &["--max-concurrent-streams", "0"],
            &["--connection-window-bytes", "1"],
            &["--max-inflight-bytes", "lots"],
            &["--cors-allow-origin", "http://a.example:99999"],
        ] {
            let error = parse(args).err().unwrap_or_else(|| panic!("{args:?}"));
            assert!(error.to_string().contains(args[0]), "{args:?}: {error}");
        }
        let port = parse(&["--cors-allow-origin", "http://a.example:99999"]).err();
        let port = port.map(|error| error.to_string()).unwrap_or_default();
        assert!(port.contains("a port must be from 1 to 65535"), "{port}");
        for (args, needle) in [
            (
                &["--max-message-bytes", "0"][..],
                "--max-message-bytes 0 must be from 2368",
            ),
            (
                &["--max-message-bytes", "1GiB"],
                "--max-message-bytes 1073741824",
            ),
            (
                &["--stream-window-bytes", "1000"],
                "--stream-window-bytes 1000",
            ),
            (
                &["--max-inflight-bytes", "100KiB"],
                "--max-inflight-bytes 102400",
            ),
            (
                &["--max-solve-time", "0s"],
                "--max-solve-time must be more than 0",
            ),
            (
                &["--max-grade-time", "0s"],
                "--max-grade-time must be more than 0",
            ),
            (
                &["--first-call-timeout", "0"],
                "--first-call-timeout must be more than 0",
            ),
            (
                &["--max-solve-time", "1e9"],
                "--max-solve-time 1000000000s must be at most 86400s",
            ),
            (&["--drain-timeout", "1500m"], "--drain-timeout"),
            (
                &["--keepalive-timeout", "0"],
                "--keepalive-timeout must be more than 0",
            ),
            (
                &["--workers", "5000"],
                "--workers 5000 must be at most 1024",
            ),
            (
                &["--queue-depth", "99999999"],
                "--queue-depth 99999999 must be at most",
            ),
            (
                &["--stream-window-bytes", "4294967296"],
                "--stream-window-bytes 4294967296 must be at most",
            ),
            (
                &["--first-call-timeout", "0.0001ms"],
                "--first-call-timeout 100ns must be at least 1ms",
            ),
            (
                &["--drain-timeout", "0.5ms"],
                "--drain-timeout 500µs must be at least 1ms, or 0",
            ),
        ] {
            let error = parse(args).unwrap().validate().unwrap_err().to_string();
            assert!(error.starts_with(needle), "{args:?}: {error}");
        }
    }

    #[test]
    fn tls_flags_come_in_pairs() {
        assert!(parse(&["--tls-cert", "c.pem"]).is_err());
        assert!(parse(&["--tls-key", "k.pem"]).is_err());
        assert!(parse(&["--tls-client-ca", "ca.pem"]).is_err());
        let tls = parse(&[
            "--tls-cert",
            "c.pem",
            "--tls-key",
            "k.pem",
            "--log-format",
            "json",
        ])
        .unwrap();
        assert_eq!(tls.tls_cert, Some(PathBuf::from("c.pem")));
        assert_eq!(tls.log_format, LogFormat::Json);
    }

    #[test]
    fn durations_and_sizes_parse_in_common_units() {
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("-1s").is_err());
        for duration in [Duration::from_secs(30), Duration::from_millis(250)] {
            assert_eq!(parse_duration(&format_duration(duration)), Ok(duration));
        }
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("64KiB"), Ok(65536));
        assert_eq!(parse_bytes("32 MiB"), Ok(32 << 20));
        assert_eq!(parse_bytes("1g"), Ok(1 << 30));
        assert!(parse_bytes("-1").is_err());
        assert!(parse_bytes("12 parsecs").is_err());
        assert!(parse_bytes("99999999999999999999").is_err());
    }
}
