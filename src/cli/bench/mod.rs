//! `sudoku bench`: load-tests running servers and prints one table.
//!
//! [`loadgen`] drives the servers (unary calls at a concurrency, streams)
//! and [`echo`] is the bare echo server measured beside them as the
//! transport's ceiling. A run whose calls failed exits with code 3 and
//! says how many failed, by code, so that a script cannot mistake an
//! overloaded or broken server for a fast one.

mod echo;
pub mod loadgen;

use clap::Args;

use super::args::{ConnectArgs, ServersArg};
use super::output::ExitCode;
use super::{Failure, start_runtime};
use crate::file::read_puzzle_lines;
use crate::wording::count_of;
use loadgen::{BenchOptions, BenchReport, StreamFigures, UnaryFigures};

/// Why a benchmark could not run: here, where both the load generator
/// and the echo server it starts can name it.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A server address is unusable.
    #[error(transparent)]
    Address(#[from] crate::client::ClientError),
    /// A stream failed.
    #[error("a stream failed: {}", crate::client::check::shown_status_with_cause(.0))]
    Stream(tonic::Status),
    /// The echo server could not start.
    #[error("cannot start the echo server: {0}")]
    Echo(String),
}

/// Flags of `sudoku bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A puzzle file (one per line; `#` comments and blank lines skipped).
    pub file: String,
    #[command(flatten)]
    pub servers: ServersArg,
    /// Concurrent unary callers.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..))]
    pub concurrency: u32,
    /// Unary calls in all (0 skips the unary test).
    #[arg(long, default_value_t = 20_000)]
    pub requests: usize,
    /// Concurrent SolveStream calls.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub streams: u32,
    /// Puzzles sent over all the streams (0 skips the stream tests); the
    /// file's puzzles are used round-robin.
    #[arg(long, default_value_t = 200_000)]
    pub stream_puzzles: usize,
    /// Puzzles per message in the SolveBatchStream test, which runs after
    /// the SolveStream test with the same puzzles and streams (0 skips it).
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// Skip the echo baseline.
    #[arg(long)]
    pub no_echo: bool,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// Runs the load generator, prints its table, and fails if calls failed.
pub fn run(args: BenchArgs) -> Result<ExitCode, Failure> {
    let file = std::fs::File::open(&args.file)
        .map_err(|error| Failure::error(format!("cannot read {}: {error}", args.file)))?;
    let puzzles = read_puzzle_lines(std::io::BufReader::new(file))
        .map_err(|error| Failure::error(format!("cannot read {}: {error}", args.file)))?;
    if puzzles.is_empty() {
        return Err(Failure::usage(format!("{} holds no puzzles", args.file)));
    }
    let options = BenchOptions {
        servers: args.servers.list,
        puzzles,
        concurrency: args.concurrency as usize,
        requests: args.requests,
        streams: args.streams as usize,
        stream_puzzles: args.stream_puzzles,
        batch: args.batch,
        echo: !args.no_echo,
        connect: args.connect.options()?,
    };
    let report = start_runtime(&mut tokio::runtime::Builder::new_multi_thread())?
        .block_on(loadgen::run(&options))
        .map_err(|error| match error {
            BenchError::Address(error) => Failure::from(error),
            other => Failure::error(other.to_string()),
        })?;
    super::print_out(&table(&report, &options))?;
    match failed_calls(&report) {
        Some(failures) => Err(Failure::error(failures)),
        None => Ok(ExitCode::Success),
    }
}

/// What failed: unary calls by code, and stream answers that were
/// failures; `None` when nothing did.
pub fn failed_calls(report: &BenchReport) -> Option<String> {
    let mut failures = Vec::new();
    if let Some(unary) = report
        .unary
        .as_ref()
        .filter(|unary| !unary.errors.is_empty())
    {
        let total: u64 = unary.errors.iter().map(|(_, count)| count).sum();
        failures.push(format!(
            "{total} of {} unary calls failed: {}",
            total + unary.ok,
            error_counts(unary)
        ));
    }
    for (rpc, figures) in [
        ("stream", report.stream),
        ("batch stream", report.batch_stream),
    ] {
        if let Some(stream) = figures.filter(|stream| stream.failed > 0) {
            failures.push(format!(
                "{} of {} {rpc} answers were failures (failed, gave up, or an unknown outcome)",
                stream.failed, stream.answered
            ));
        }
    }
    (!failures.is_empty()).then(|| failures.join("; "))
}

/// The report as a table, for people.
pub fn table(report: &BenchReport, options: &BenchOptions) -> String {
    let mut out = format!(
        "sudoku bench against {}: {}\n\n",
        options.servers.join(", "),
        count_of(options.puzzles.len() as u64, "distinct puzzle")
    );
    out += &format!(
        "{:<38} {:>10} {:>12} {:>9} {:>9} {:>9} {:>9}  {}\n",
        "test", "answered", "rate", "p50", "p90", "p99", "max", "errors"
    );
    if let Some(unary) = &report.unary {
        out += &unary_row(unary, options.concurrency);
    }
    let stream_row = |name: &str, figures: &StreamFigures| {
        format!(
            "{:<38} {:>10} {:>10.0}/s {:>39}  {}\n",
            format!("{name}, {}", count_of(options.streams as u64, "stream")),
            figures.answered,
            figures.rate,
            "",
            figures.failed
        )
    };
    if let Some(stream) = &report.stream {
        out += &stream_row("SolveStream", stream);
    }
    if let Some(echo) = &report.echo {
        out += &stream_row("bare echo (same messages)", echo);
    }
    if let Some(batch) = &report.batch_stream {
        out += &stream_row(&format!("SolveBatchStream, batch {}", options.batch), batch);
    }
    if let Some(echo) = &report.batch_echo {
        out += &stream_row("batch echo (same messages)", echo);
    }
    let ratios = [
        ("SolveStream / echo", &report.stream, &report.echo),
        (
            "SolveBatchStream / batch echo",
            &report.batch_stream,
            &report.batch_echo,
        ),
    ];
    let mut first = true;
    for (name, served, echoed) in ratios {
        if let (Some(served), Some(echoed)) = (served, echoed) {
            out += if first { "\n" } else { "" };
            out += &format!("{name}: {:.2}\n", served.rate / echoed.rate);
            first = false;
        }
    }
    out
}

/// The unary test's row: rate, latency percentiles and errors.
fn unary_row(unary: &UnaryFigures, concurrency: usize) -> String {
    let ms = |micros: u64| format!("{:.2}ms", micros as f64 / 1000.0);
    let at = |quantile: f64| ms(unary.latency.value_at_quantile(quantile));
    let errors = if unary.errors.is_empty() {
        "0".to_string()
    } else {
        error_counts(unary)
    };
    format!(
        "{:<38} {:>10} {:>10.0}/s {:>9} {:>9} {:>9} {:>9}  {}\n",
        format!("unary Solve, concurrency {concurrency}"),
        unary.ok,
        unary.rate,
        at(0.50),
        at(0.90),
        at(0.99),
        ms(unary.latency.max()),
        errors
    )
}

/// The failed calls by code, e.g. `ResourceExhausted 12, Unavailable 1`.
fn error_counts(unary: &UnaryFigures) -> String {
    unary
        .errors
        .iter()
        .map(|(code, count)| format!("{code:?} {count}"))
        .collect::<Vec<_>>()
        .join(", ")
}
