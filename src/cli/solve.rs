//! `sudoku solve`: a puzzle, or a file of puzzles, on servers or here.
//!
//! The argument is a puzzle when every character of it can be part of one
//! (cells and layout, as the parser reads them); anything else names a
//! file, `-` standing for stdin. A file is solved by [`crate::file`], in
//! this process with `--local` or streamed through the servers.

use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;

use super::args::TargetArgs;
use super::output::{ExitCode, Format, Output};
use super::progress::{ProgressKind, RunDisplay};
use super::{Failure, with_runtime};
use crate::client;
use crate::domain::{Answer, TimeLimits, looks_like_puzzle, solve_and_grade};
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
    /// How to print each answer: `OUTCOME SOLUTION-OR-ERROR` lines, or one
    /// JSON object per line with the input line number.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// For a single puzzle, also print the solution as a grid (after the
    /// line in text, as a "grid" field in JSON).
    #[arg(long)]
    pub grid: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Where and how puzzles are worked out: flags `sudoku solve` and
/// `sudoku grade` share.
#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Solver threads for --local [default: the number of available cores].
    #[arg(long, requires = "local", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// No progress, no summary and no notes about lines with errors on
    /// stderr.
    #[arg(long, short)]
    pub quiet: bool,
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
    /// Calls open at once for a file [default: two per server, counting
    /// each address a dns:/// name has at the start].
    #[arg(long, conflicts_with = "local", value_parser = clap::value_parser!(u16).range(1..))]
    pub streams: Option<u16>,
    /// How many times in a row a stream retries a failed call before a
    /// file run gives up (0: at the first failure; the default makes six
    /// attempts).
    #[arg(long, default_value_t = 5, conflicts_with = "local")]
    pub retries: u32,
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
    let output = Output {
        format: args.format,
        grid: args.grid,
    };
    if is_puzzle_argument(&args.input) {
        let answer = answer_one(&args.input, &args.run, false)?;
        let mut line = Vec::new();
        output.write_line(&mut line, 1, &answer);
        io::stdout().write_all(&line).map_err(Failure::io)?;
        return Ok(ExitCode::of(answer.outcome));
    }
    if args.grid {
        return Err(Failure::usage(
            "--grid draws a single puzzle's solution, not a file's",
        ));
    }
    run_file(&args.input, &args.run, Arc::new(output), false)
}

/// Works out every puzzle of the file `input` (and with `grade`, grades
/// it), here or through servers as `run` says, printing each answer with
/// `output` and, unless quiet, a summary on stderr; returns the exit code.
pub(super) fn run_file(
    input: &str,
    run: &RunArgs,
    output: Arc<dyn LineFormat>,
    grade: bool,
) -> Result<ExitCode, Failure> {
    let name = input;
    let progress = progress_kind(input);
    let input = open_input(input)?;
    let mut display = RunDisplay::new(progress, run.quiet);
    let result = if run.target.local {
        let threads = run.threads.map_or_else(available_cores, usize::from);
        solve_local(
            input,
            io::stdout().lock(),
            output,
            threads,
            grade,
            &mut |progress| display.report(progress),
        )
        .map_err(Failure::io)
    } else {
        let options = remote_options(run, grade)?;
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
    let result = result.and_then(|run| match run.tally.total() {
        // A named file with nothing to solve is the wrong file, as for
        // `sudoku bench`; an empty pipe is a pipeline with nothing to do.
        0 if name != "-" => Err(Failure::usage(format!("{name} holds no puzzles"))),
        _ => Ok(run),
    });
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

/// Works out the one puzzle given on the command line (and with `grade`,
/// grades it), here or on the first server.
pub(super) fn answer_one(puzzle: &str, run: &RunArgs, grade: bool) -> Result<Answer, Failure> {
    // A puzzle over the size limit is invalid whatever the server: here it
    // gets the limit's own words, where past the server's message limit
    // the call would fail as too large a message instead.
    if run.target.local || puzzle.len() > crate::domain::MAX_PUZZLE_BYTES {
        return Ok(solve_here(puzzle, grade));
    }
    let connect = run.target.options()?;
    let server = &run.target.servers.servers()?[0];
    with_runtime(async {
        let channel = client::connect(server, &connect).await?;
        Ok(client::solve(channel, &connect, puzzle, grade).await?)
    })
}

/// Solves (and grades) one puzzle in this process, with no time limit.
fn solve_here(puzzle: &str, grade: bool) -> Answer {
    solve_and_grade(puzzle, grade, Instant::now(), TimeLimits::NONE, &|| false).into()
}

/// A puzzle file, or stdin for `-`, read in large blocks.
pub(super) fn open_input(path: &str) -> Result<Box<dyn BufRead + Send>, Failure> {
    const READ_BUFFER: usize = 256 * 1024;
    if path == "-" {
        return Ok(Box::new(BufReader::with_capacity(READ_BUFFER, io::stdin())));
    }
    let cannot_read = |reason: String| Failure::error(format!("cannot read {path}: {reason}"));
    let file = std::fs::File::open(path).map_err(|error| cannot_read(error.to_string()))?;
    // Opening a directory succeeds; reading it would fail with no name.
    if file.metadata().is_ok_and(|metadata| metadata.is_dir()) {
        return Err(cannot_read("it is a directory".to_string()));
    }
    Ok(Box::new(BufReader::with_capacity(READ_BUFFER, file)))
}

/// The progress display a file run gets: a bar on a terminal, sized by the
/// file when it has a size.
fn progress_kind(input: &str) -> ProgressKind {
    if !io::stderr().is_terminal() {
        ProgressKind::Hidden
    } else if input == "-" {
        ProgressKind::Counter
    } else {
        std::fs::metadata(input).map_or(ProgressKind::Counter, |metadata| ProgressKind::Bar {
            total_bytes: metadata.len(),
        })
    }
}

/// The streaming options the flags ask for.
fn remote_options(run: &RunArgs, grade: bool) -> Result<RemoteOptions, Failure> {
    let rpc = match run.rpc {
        RpcArg::Stream => RemoteRpc::Stream,
        RpcArg::Batch => RemoteRpc::Batch(usize::from(run.batch)),
    };
    Ok(RemoteOptions {
        servers: run.target.servers.list.clone(),
        rpc,
        streams: run.streams.map(usize::from),
        retries: run.retries,
        connect: run.target.connect.options()?,
        grade,
    })
}

fn remote_failure(error: RemoteError) -> Failure {
    match error {
        RemoteError::Io(error) => Failure::io(error),
        RemoteError::Address(error) => Failure::from(error),
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
