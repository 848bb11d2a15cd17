//! The server's settings: command-line flags with environment fallbacks,
//! and their defaults.
//!
//! Each flag is declared once. The flags that bound the service's work are
//! the service's own [`Limits`], flattened in here; the rest (address,
//! pool, connections, TLS, logging, the page) are declared below. Each
//! flag's parser checks its range as it is read (see
//! [`crate::flag_values`]), so a bad value is refused with the flag named;
//! [`Settings::validate`] then weighs flags against each other.

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use crate::flag_values::{
    check_timer, check_timer_or_off, format_duration, parse_bytes, parse_timer, parse_timer_or_off,
};
use crate::pool::available_cores;
use crate::service::Limits;

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
    /// `--connection-window-bytes`.
    pub const CONNECTION_WINDOW_BYTES: u32 = 256 * 1024;
    /// `--keepalive-interval`.
    pub const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(60);
    /// `--keepalive-timeout`.
    pub const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(20);
}

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

    /// The limits on the service's work.
    #[command(flatten)]
    pub limits: Limits,

    /// After SIGTERM or SIGINT, how long in-flight calls get to finish
    /// before the server closes them, e.g. `30s` or `500ms`.
    #[arg(long, env = "SUDOKU_DRAIN_TIMEOUT", value_parser = parse_timer_or_off,
          default_value = format_duration(defaults::DRAIN_TIMEOUT))]
    pub drain_timeout: Duration,

    /// Most calls in flight at once on this server, of every connection;
    /// more are refused at once with RESOURCE_EXHAUSTED. Health checks and
    /// reflection have a small allowance of their own besides.
    #[arg(long, env = "SUDOKU_MAX_CALLS",
          value_parser = clap::value_parser!(u32).range(1..=1 << 20),
          default_value_t = defaults::MAX_CALLS as u32)]
    pub max_calls: u32,

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
    #[arg(long, env = "SUDOKU_KEEPALIVE_INTERVAL", value_parser = parse_timer_or_off,
          default_value = format_duration(defaults::KEEPALIVE_INTERVAL))]
    pub keepalive_interval: Duration,

    /// How long the server waits for a keepalive ping's answer.
    #[arg(long, env = "SUDOKU_KEEPALIVE_TIMEOUT", value_parser = parse_timer,
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

    /// Refuses values that are zero, absurd, or cannot work together, with
    /// a message naming the flag and what it must be. Parsed flags were
    /// checked as they were read; this holds the limits and the timers of
    /// settings made in code to the same ranges (not yet the server's
    /// connection and call caps), and weighs flags against each other.
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.limits
            .validate()
            .map_err(|error| SettingsError(error.0))?;
        self.validate_timers()?;
        for origin in &self.cors_allow_origin {
            let parsed = crate::server::web::parse_origin(origin)
                .map_err(|why| SettingsError(format!("--cors-allow-origin: {why}")))?;
            if &parsed != origin {
                return Err(SettingsError(format!(
                    "--cors-allow-origin {origin:?} must be written as browsers send it: {parsed:?}"
                )));
            }
        }
        self.validate_pool()
    }

    /// The connection's timers, as their parsers check them.
    fn validate_timers(&self) -> Result<(), SettingsError> {
        let timers = [
            ("--drain-timeout", check_timer_or_off(self.drain_timeout)),
            (
                "--keepalive-interval",
                check_timer_or_off(self.keepalive_interval),
            ),
            ("--keepalive-timeout", check_timer(self.keepalive_timeout)),
        ];
        for (flag, checked) in timers {
            checked.map_err(|why| SettingsError(format!("invalid value for '{flag}': {why}")))?;
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
        Settings {
            listen: defaults::LISTEN
                .parse()
                .expect("the default address parses"),
            workers: None,
            queue_depth: defaults::QUEUE_DEPTH,
            limits: Limits::DEFAULT,
            drain_timeout: defaults::DRAIN_TIMEOUT,
            max_calls: defaults::MAX_CALLS as u32,
            max_concurrent_streams: defaults::MAX_CONCURRENT_STREAMS,
            max_connections: defaults::MAX_CONNECTIONS as u32,
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
        assert_eq!(parsed.limits.max_grade_time, Duration::from_secs(90));
        assert_eq!(parsed.worker_count(), 3);
        assert_eq!(parsed.drain_timeout, Duration::from_millis(250));
        assert_eq!(parsed.limits.max_inflight_bytes, 8 << 20);
    }

    /// Each flag's own range is checked as it is parsed: clap refuses
    /// the value with the flag named and the reason.
    #[test]
    fn zero_and_absurd_values_are_refused_with_the_flag_named() {
        for (args, reason) in [
            (&["--max-open-streams", "0"][..], "0 is not in 1..=1048576"),
            (&["--stream-window", "0"], "0 is not in 1.."),
            (&["--max-calls", "0"], "0 is not in 1..=1048576"),
            (&["--max-connections", "0"], "0 is not in 1..=1048576"),
            (
                &["--max-concurrent-streams", "0"],
                "0 is not in 1..=1048576",
            ),
            (&["--max-batch", "5000"], "5000 is not in 1..=4096"),
            (&["--batch-window", "65"], "65 is not in 1..=64"),
            (&["--max-generate-count", "0"], "0 is not in 1..=1000000"),
            (&["--connection-window-bytes", "1"], "must be from 16KiB"),
            (&["--max-inflight-bytes", "lots"], "is not a size"),
            (
                &["--cors-allow-origin", "http://a.example:99999"],
                "a port must be from 1 to 65535",
            ),
            (
                &["--max-message-bytes", "0"],
                "0 must be from 2368 (a request with the largest id and puzzle allowed)",
            ),
            (&["--max-message-bytes", "1GiB"], "1073741824 must be from"),
            (
                &["--stream-window-bytes", "1000"],
                "1000 must be from 4864 (what the largest item allowed is charged)",
            ),
            (
                &["--stream-window-bytes", "4294967296"],
                "4294967296 must be from 4864 (what the largest item allowed is charged) to 4294962431",
            ),
            (&["--max-inflight-bytes", "5GiB"], "5368709120 must be from"),
            (&["--max-solve-time", "0s"], "must be more than 0"),
            (&["--max-grade-time", "0s"], "must be more than 0"),
            (&["--max-generate-wait", "0"], "must be more than 0"),
            (&["--max-climb-wait", "2d"], "is not a duration"),
            (&["--first-call-timeout", "0"], "must be more than 0"),
            (
                &["--max-solve-time", "1e9"],
                "1000000000s must be at most 86400s",
            ),
            (
                &["--drain-timeout", "1500m"],
                "90000s must be at most 86400s",
            ),
            (&["--keepalive-timeout", "0"], "must be more than 0"),
            (
                &["--first-call-timeout", "0.0001ms"],
                "100ns must be at least 1ms",
            ),
            (
                &["--drain-timeout", "0.5ms"],
                "500µs must be at least 1ms, or 0",
            ),
            (
                &["--keepalive-interval", "0.5ms"],
                "500µs must be at least 1ms, or 0",
            ),
        ] {
            let error = parse(args).err().unwrap_or_else(|| panic!("{args:?}"));
            let error = error.to_string();
            assert!(
                error.contains(&format!("'{}", args[0])),
                "{args:?}: {error}"
            );
            assert!(error.contains(reason), "{args:?}: {error}");
        }
        for zero_is_off in ["--drain-timeout", "--keepalive-interval"] {
            assert!(parse(&[zero_is_off, "0"]).is_ok(), "{zero_is_off}");
        }
    }

    /// What no one flag's range can say: the flags weighed together, and
    /// the pool.
    #[test]
    fn settings_that_cannot_work_together_are_refused_at_validation() {
        for (args, needle) in [
            (
                &["--max-inflight-bytes", "100KiB"][..],
                "--max-inflight-bytes 102400 must be at least 267008: one full \
                 --stream-window-bytes (262144) and one more item",
            ),
            (
                &["--workers", "5000"],
                "--workers 5000 must be at most 1024",
            ),
            (
                &["--queue-depth", "99999999"],
                "--queue-depth 99999999 must be at most",
            ),
        ] {
            let error = parse(args).unwrap().validate().unwrap_err().to_string();
            assert!(error.starts_with(needle), "{args:?}: {error}");
        }
        // Settings made in code meet the same ranges as parsed ones.
        let in_code = |limits: Limits| Settings {
            limits,
            ..Settings::default()
        };
        for (settings, needle) in [
            (
                in_code(Limits {
                    first_call_timeout: Duration::ZERO,
                    ..Limits::DEFAULT
                }),
                "invalid value '0ns' for '--first-call-timeout <FIRST_CALL_TIMEOUT>': must be more than 0",
            ),
            (
                in_code(Limits {
                    max_message_bytes: 0,
                    ..Limits::DEFAULT
                }),
                "invalid value '0' for '--max-message-bytes <MAX_MESSAGE_BYTES>': 0 must be from 2368",
            ),
            (
                in_code(Limits {
                    max_open_streams: 0,
                    ..Limits::DEFAULT
                }),
                "invalid value '0' for '--max-open-streams <MAX_OPEN_STREAMS>': 0 is not in 1..=1048576",
            ),
            (
                in_code(Limits {
                    max_solve_time: Duration::from_secs(100_000),
                    ..Limits::DEFAULT
                }),
                "invalid value '100000s' for '--max-solve-time <MAX_SOLVE_TIME>': 100000s must be at most 86400s",
            ),
            (
                in_code(Limits {
                    first_call_timeout: Duration::from_micros(500),
                    ..Limits::DEFAULT
                }),
                "500µs must be at least 1ms",
            ),
            (
                Settings {
                    keepalive_timeout: Duration::ZERO,
                    ..Settings::default()
                },
                "invalid value for '--keepalive-timeout': must be more than 0",
            ),
            (
                Settings {
                    drain_timeout: Duration::from_micros(10),
                    ..Settings::default()
                },
                "invalid value for '--drain-timeout': 10µs must be at least 1ms, or 0",
            ),
        ] {
            let error = settings.validate().unwrap_err().to_string();
            assert!(error.contains(needle), "{error}");
        }
        let window_and_one = parse(&[
            "--stream-window-bytes",
            "10000",
            "--max-inflight-bytes",
            "14864",
        ])
        .unwrap();
        assert_eq!(window_and_one.validate(), Ok(()));
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
}
