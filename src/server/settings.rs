//! The server's settings: command-line flags with environment fallbacks.

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use crate::pool::available_cores;
use crate::service::Limits;

/// Flags of `sudoku-server`. Each can also be set by the environment
/// variable named in its help.
#[derive(Debug, Clone, clap::Args)]
pub struct Settings {
    /// Address to listen on (use 0.0.0.0:50051 to accept remote clients).
    #[arg(long, env = "SUDOKU_LISTEN", default_value = "127.0.0.1:50051")]
    pub listen: SocketAddr,

    /// Solver threads [default: the number of available cores].
    #[arg(long, env = "SUDOKU_WORKERS")]
    pub workers: Option<NonZeroUsize>,

    /// Jobs that may wait for a solver thread while all are busy: a unary
    /// call is one job, a stream hands over up to 64 puzzles per job. Beyond
    /// this, unary calls are refused with RESOURCE_EXHAUSTED and streams wait.
    #[arg(long, env = "SUDOKU_QUEUE_DEPTH", default_value_t = 1024)]
    pub queue_depth: usize,

    /// Puzzles of one stream in flight at once; past this the server stops
    /// reading that stream until answers go out.
    #[arg(long, env = "SUDOKU_STREAM_WINDOW", default_value_t = NonZeroUsize::new(128).unwrap())]
    pub stream_window: NonZeroUsize,

    /// Largest request or response message in bytes. A puzzle is about 100
    /// bytes; the limit guards against memory abuse.
    #[arg(long, env = "SUDOKU_MAX_MESSAGE_BYTES", default_value_t = 64 * 1024)]
    pub max_message_bytes: usize,

    /// After SIGTERM or SIGINT, how long in-flight calls get to finish
    /// before the server closes them, e.g. `30s` or `500ms`.
    #[arg(long, env = "SUDOKU_DRAIN_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub drain_timeout: Duration,

    /// Most SolveStream calls open at once on this server; more are refused
    /// with RESOURCE_EXHAUSTED.
    #[arg(long, env = "SUDOKU_MAX_OPEN_STREAMS", default_value_t = 1024)]
    pub max_open_streams: usize,

    /// Most concurrent calls (HTTP/2 streams) one client connection may have.
    #[arg(long, env = "SUDOKU_MAX_CONCURRENT_STREAMS", default_value_t = 256)]
    pub max_concurrent_streams: u32,

    /// How often the server pings an idle HTTP/2 connection (0 turns pings
    /// off). A peer that does not answer within --keepalive-timeout is
    /// disconnected, which frees what its calls held.
    #[arg(long, env = "SUDOKU_KEEPALIVE_INTERVAL", default_value = "60s", value_parser = parse_duration)]
    pub keepalive_interval: Duration,

    /// How long the server waits for a keepalive ping's answer.
    #[arg(long, env = "SUDOKU_KEEPALIVE_TIMEOUT", default_value = "20s", value_parser = parse_duration)]
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
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable text, coloured on a terminal.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

impl Settings {
    /// Solver threads: the flag, or the number of available cores.
    pub fn worker_count(&self) -> usize {
        self.workers.map_or_else(available_cores, NonZeroUsize::get)
    }

    /// The limits the service applies to calls.
    pub fn limits(&self) -> Limits {
        Limits {
            stream_window: self.stream_window.get(),
            max_open_streams: self.max_open_streams,
            max_message_bytes: self.max_message_bytes,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            listen: SocketAddr::from(([127, 0, 0, 1], 50051)),
            workers: None,
            queue_depth: 1024,
            stream_window: NonZeroUsize::new(128).unwrap(),
            max_message_bytes: 64 * 1024,
            drain_timeout: Duration::from_secs(30),
            max_open_streams: 1024,
            max_concurrent_streams: 256,
            keepalive_interval: Duration::from_secs(60),
            keepalive_timeout: Duration::from_secs(20),
            tls_cert: None,
            tls_key: None,
            tls_client_ca: None,
            metrics_listen: None,
            log_format: LogFormat::Text,
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        settings: Settings,
    }

    #[test]
    fn defaults_match_the_documented_ones() {
        let parsed = Cli::try_parse_from(["sudoku-server"]).unwrap().settings;
        let default = Settings::default();
        assert_eq!(parsed.listen, default.listen);
        assert_eq!(parsed.queue_depth, default.queue_depth);
        assert_eq!(parsed.stream_window, default.stream_window);
        assert_eq!(parsed.max_message_bytes, 65536);
        assert_eq!(parsed.drain_timeout, Duration::from_secs(30));
        assert_eq!(parsed.max_open_streams, default.max_open_streams);
        assert_eq!(
            parsed.max_concurrent_streams,
            default.max_concurrent_streams
        );
        assert_eq!(parsed.keepalive_interval, default.keepalive_interval);
        assert_eq!(parsed.keepalive_timeout, default.keepalive_timeout);
        assert_eq!(parsed.metrics_listen, None);
        assert_eq!(parsed.tls_cert, None);
        assert_eq!(parsed.log_format, LogFormat::Text);
        assert!(parsed.worker_count() >= 1);
    }

    #[test]
    fn flags_override_defaults() {
        let parsed = Cli::try_parse_from([
            "sudoku-server",
            "--listen",
            "0.0.0.0:7000",
            "--workers",
            "3",
            "--drain-timeout",
            "250ms",
        ])
        .unwrap()
        .settings;
        assert_eq!(parsed.listen.port(), 7000);
        assert_eq!(parsed.worker_count(), 3);
        assert_eq!(parsed.drain_timeout, Duration::from_millis(250));
    }

    #[test]
    fn tls_flags_come_in_pairs() {
        let parse = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("sudoku-server").chain(args.iter().copied()))
                .map(|cli| cli.settings)
        };
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
    fn durations_parse_in_common_units() {
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("-1s").is_err());
    }
}
