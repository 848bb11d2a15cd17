//! `sudoku solve`: a puzzle, or a file of puzzles, on servers or here.
//!
//! The argument is a puzzle when every character of it can be part of one
//! (cells and layout, as the parser reads them); anything else names a
//! file, `-` standing for stdin. A file is solved by [`crate::file`], in
//! this process with `--local` or streamed through the servers.

use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;

use clap::Args;

use super::args::{ConnectArgs, ServersArg};
use super::output::{ExitCode, Format, Output};
use super::progress::{ProgressKind, RunDisplay};
use super::{Failure, with_runtime};
use crate::client;
use crate::domain::{Answer, looks_like_puzzle, solve_puzzle};
use crate::file::{
    DEFAULT_BATCH, LineFormat, RemoteError, RemoteOptions, RemoteRpc, Run, solve_local,
    solve_remote,
};
use crate::pool::available_cores;

/// Flags of `sudoku solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// A puzzle (81 cells: `1`-`9` givens, `.` or `0` blanks; whitespace,
    /// `|`, `-`, `+` and the brackets, quotes and commas of a JSON board
    /// ignored), or a file with one puzzle per line (`-` for stdin; lines
    /// starting with `#` and blank lines are skipped). A file that cannot
    /// be read exits with code 3.
    pub input: String,
    /// Solve in this process instead of on a server.
    #[arg(long)]
    pub local: bool,
    /// Solver threads for --local [default: the number of available cores].
    #[arg(long, requires = "local", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// For a single puzzle, also print the solution as a grid (after the
    /// line in text, as a "grid" field in JSON).
    #[arg(long)]
    pub grid: bool,
    /// No progress, no summary and no notes about lines with errors on
    /// stderr.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub servers: ServersArg,
    /// Which RPC streams a file: `batch` (SolveBatchStream, many puzzles per
    /// message, the fast path) or `stream` (SolveStream, one per message).
    #[arg(long, value_enum, default_value_t = RpcArg::Batch, conflicts_with = "local")]
    pub rpc: RpcArg,
    /// Most puzzles per batch with `--rpc batch`; a batch never spans more
    /// than one 64 KiB chunk of input (about 800 lines). It must be within
    /// the server's --max-batch (1024 by default).
    #[arg(long, default_value_t = DEFAULT_BATCH as u16, conflicts_with = "local",
          value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub batch: u16,
    /// Calls open at once for a file [default: two per server].
    #[arg(long, conflicts_with = "local", value_parser = clap::value_parser!(u16).range(1..))]
    pub streams: Option<u16>,
    /// Failed attempts in a row, per stream, before a file run gives up.
    #[arg(long, default_value_t = 5, conflicts_with = "local")]
    pub retries: u32,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// The RPC that streams a file through servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RpcArg {
    /// SolveBatchStream: many puzzles per message.
    Batch,
    /// SolveStream: one puzzle per message.
    Stream,
}

/// Runs `sudoku solve`.
pub fn run(args: SolveArgs) -> Result<ExitCode, Failure> {
    if is_puzzle_argument(&args.input) {
        return solve_one(&args);
    }
    if args.grid {
        return Err(Failure::usage(
            "--grid draws a single puzzle's solution, not a file's",
        ));
    }
    let input = open_input(&args.input)?;
    let progress = progress_kind(&args);
    let output: Arc<dyn LineFormat> = Arc::new(Output {
        format: args.format,
        grid: false,
    });
    let mut display = RunDisplay::new(progress, args.quiet);
    let result = if args.local {
        let threads = args.threads.map_or_else(available_cores, usize::from);
        solve_local(
            input,
            io::stdout().lock(),
            output,
            threads,
            &mut |progress| display.report(progress),
        )
        .map_err(Failure::io)
    } else {
        let options = remote_options(&args)?;
        with_runtime(async {
            solve_remote(
                input,
                io::stdout().lock(),
                output,
                options,
                &mut |progress| display.report(progress),
            )
            .await
            .map_err(remote_failure)
        })
    };
    finish_run(display, result)
}

/// Whether the argument is a puzzle rather than a file: it is not `-` or
/// an existing file, and either holds nothing but puzzle characters, or
/// holds so many cells (digits and `.`) that it can only be a puzzle with a
/// mistake in it, which the parser then names with its place.
pub(super) fn is_puzzle_argument(input: &str) -> bool {
    let cells = input
        .bytes()
        .filter(|byte| byte.is_ascii_digit() || *byte == b'.')
        .count();
    input != "-"
        && !Path::new(input).is_file()
        && (looks_like_puzzle(input) || cells >= MIN_CELLS_OF_A_MISTYPED_PUZZLE)
}

/// Cells (digits and `.`) enough to take an argument for a puzzle even
/// with other characters in it: nine short of a board.
const MIN_CELLS_OF_A_MISTYPED_PUZZLE: usize = 72;

/// Solves the one puzzle given on the command line and prints its answer.
fn solve_one(args: &SolveArgs) -> Result<ExitCode, Failure> {
    let puzzle = &args.input;
    let answer = if args.local {
        solve_here(puzzle)
    } else {
        let connect = args.connect.options()?;
        let server = &args.servers.servers()?[0];
        with_runtime(async {
            let channel = client::connect(server, &connect).await?;
            Ok(client::solve(channel, &connect, puzzle).await?)
        })?
    };
    let output = Output {
        format: args.format,
        grid: args.grid,
    };
    let mut line = Vec::new();
    output.write_line(&mut line, 1, &answer);
    io::stdout().write_all(&line).map_err(Failure::io)?;
    Ok(ExitCode::of(answer.outcome))
}

/// Solves one puzzle in this process, with no time limit.
fn solve_here(puzzle: &str) -> Answer {
    solve_puzzle(puzzle, None, || false).into()
}

/// A puzzle file, or stdin for `-`, read in large blocks.
pub(super) fn open_input(path: &str) -> Result<Box<dyn BufRead + Send>, Failure> {
    const READ_BUFFER: usize = 256 * 1024;
    if path == "-" {
        return Ok(Box::new(BufReader::with_capacity(READ_BUFFER, io::stdin())));
    }
    let file = std::fs::File::open(path)
        .map_err(|error| Failure::error(format!("cannot read {path}: {error}")))?;
    Ok(Box::new(BufReader::with_capacity(READ_BUFFER, file)))
}

/// The progress display a file run gets: a bar on a terminal, sized by the
/// file when it has a size.
fn progress_kind(args: &SolveArgs) -> ProgressKind {
    if !io::stderr().is_terminal() {
        ProgressKind::Hidden
    } else if args.input == "-" {
        ProgressKind::Counter
    } else {
        std::fs::metadata(&args.input).map_or(ProgressKind::Counter, |metadata| ProgressKind::Bar {
            total_bytes: metadata.len(),
        })
    }
}

/// The streaming options the flags ask for.
fn remote_options(args: &SolveArgs) -> Result<RemoteOptions, Failure> {
    let rpc = match args.rpc {
        RpcArg::Stream => RemoteRpc::Stream,
        RpcArg::Batch => RemoteRpc::Batch(usize::from(args.batch)),
    };
    Ok(RemoteOptions {
        servers: args.servers.list.clone(),
        rpc,
        streams: args
            .streams
            .map_or(2 * args.servers.list.len(), usize::from),
        retries: args.retries,
        connect: args.connect.options()?,
    })
}

fn remote_failure(error: RemoteError) -> Failure {
    match error {
        RemoteError::Io(error) => Failure::io(error),
        other => Failure::error(other.to_string()),
    }
}

/// Ends a file run's display (with its summary, if it ran to the end) and
/// returns its exit code.
fn finish_run(display: RunDisplay, result: Result<Run, Failure>) -> Result<ExitCode, Failure> {
    match result {
        Ok(run) => {
            display.finish(Some((&run.tally, run.elapsed)));
            Ok(ExitCode::of_tally(&run.tally))
        }
        Err(failure) => {
            display.finish(None);
            Err(failure)
        }
    }
}
