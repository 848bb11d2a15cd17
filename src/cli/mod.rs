//! The `sudoku` command line: one module per command, with its flags.
//!
//! * [`solve`]: a puzzle or a puzzle file, on servers or in this process;
//! * [`health`]: the health of one server or several;
//! * [`bench`]: the load generator, with its echo baseline;
//! * [`grade`]: how hard puzzles are for a person;
//! * [`hint`]: the next logical step (`hint`) and the whole path (`explain`);
//! * [`generate`]: fresh puzzles at a level, rating and symmetry.
//!
//! [`args`] holds the flags several commands share, [`output`] what they
//! print (answer lines, summaries, exit codes) and [`progress`] the progress
//! display of a file run. The library below (`file`, `client`, `domain`)
//! returns domain values and knows nothing of this module: everything a
//! person reads is made here.

pub mod args;
pub mod bench;
pub mod generate;
pub mod grade;
pub mod health;
pub mod hint;
pub mod output;
pub mod progress;
pub mod reasoning;
pub mod solve;
pub mod variant;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

pub use output::ExitCode;

use crate::client::ClientError;

/// Solve Sudoku puzzles, on a sudoku-grpc server or in this process.
#[derive(Debug, Parser)]
#[command(
    name = "sudoku",
    version,
    about,
    after_help = "Exit codes: 0 every puzzle has exactly one solution (or every server is serving); \
                  1 some puzzle has no solution or several (or a server is not serving); \
                  2 some puzzle is invalid, or the command line is wrong; \
                  3 a server could not be reached, failed, gave up on a puzzle or broke the \
                  protocol, a benchmark's calls failed, or the input could not be read \
                  (a missing file, say)."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a puzzle, or a file of puzzles (one per line), and print one
    /// line per puzzle: `solved|multiple|unsolvable|invalid|gave-up|failed`
    /// and the solution or the error.
    Solve(solve::SolveArgs),
    /// Ask servers' health services whether they are serving.
    Health(health::HealthArgs),
    /// Load-test running servers with puzzles from a file: unary Solve
    /// latency at a given concurrency, SolveStream throughput, and a bare
    /// echo of the same messages as the transport's baseline.
    Bench(bench::BenchArgs),
    /// Rate puzzles for a human solver on Sudoku Explainer's scale: one
    /// line per puzzle (rating, level, hardest technique), and a summary of
    /// the levels of a file.
    Grade(grade::GradeArgs),
    /// Show the simplest logical step from a position, on the grid.
    Hint(hint::HintArgs),
    /// Show the whole logical path from the givens, one step per line.
    Explain(hint::ExplainArgs),
    /// Make puzzles with exactly one solution, at the level, rating and
    /// symmetry asked for, one per line, with a summary of what was made.
    Generate(generate::GenerateArgs),
    /// Show a variant puzzle's true candidates on its grid: for each cell,
    /// the digits that stand there in some solution.
    Candidates(variant::CandidatesArgs),
}

/// The command line of this process, parsed and checked; a usage error
/// ends the process with clap's message and exit code 2.
pub fn parse() -> Cli {
    let matches = Cli::command().get_matches();
    if let Err(message) = args::refuse_server_flags_with_local(&matches) {
        Cli::command()
            .error(clap::error::ErrorKind::ArgumentConflict, message)
            .exit();
    }
    Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit())
}

/// Runs one command and returns the exit code; errors are reported on
/// stderr. Only commands that talk to a server start an async runtime.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        // Variant puzzles (f-puzzles JSON or links) have a path of their own.
        Command::Solve(args) if variant::is_variant_input(&args.input) => variant::run_solve(&args),
        Command::Solve(args) => solve::run(args),
        Command::Health(args) => health::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Hint(args) => hint::run_hint(args),
        Command::Explain(args) => hint::run_explain(args),
        Command::Generate(args) => generate::run(args),
        Command::Candidates(args) => variant::run_candidates(args),
    };
    result.unwrap_or_else(|failure| {
        if !failure.message.is_empty() {
            note(format_args!("sudoku: {}", failure.message));
        }
        failure.code
    })
}

/// A command that could not do its work: the exit code, and what to say.
#[derive(Debug)]
pub struct Failure {
    code: ExitCode,
    /// What to say on stderr; empty to say nothing.
    message: String,
}

impl Failure {
    /// Exit code 3 with `message`: a server, the input or the output failed.
    pub fn error(message: impl Into<String>) -> Failure {
        Failure {
            code: ExitCode::Failure,
            message: message.into(),
        }
    }

    /// Exit code 2 with `message`: the command line is wrong.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: ExitCode::Invalid,
            message: message.into(),
        }
    }

    /// An I/O error. A closed output pipe (`sudoku ... | head`) means the
    /// reader has seen enough: the run ends quietly with exit code 0, as
    /// other command-line tools do.
    pub fn io(error: std::io::Error) -> Failure {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            return Failure {
                code: ExitCode::Success,
                message: String::new(),
            };
        }
        Failure::error(format!("input or output failed: {error}"))
    }
}

impl Failure {
    /// A server's error, where INVALID_ARGUMENT means that the server
    /// refuses what the command line asked for: exit code 2, with the
    /// server's reason.
    fn refused_as_usage(error: ClientError) -> Failure {
        match error {
            ClientError::Rpc(status) if status.code() == tonic::Code::InvalidArgument => {
                Failure::usage(crate::client::check::shown_status_message(&status))
            }
            other => Failure::from(other),
        }
    }
}

impl From<ClientError> for Failure {
    /// Exit code 2 for a server address that cannot be one, or none at
    /// all (the command line is wrong), and 3 for the rest.
    fn from(error: ClientError) -> Self {
        match error {
            ClientError::InvalidAddress { .. } | ClientError::NoServers => {
                Failure::usage(error.to_string())
            }
            error => Failure::error(error.to_string()),
        }
    }
}

/// Writes `text` and a newline to stderr. What cannot be written there
/// is dropped: a message has nowhere else to go, and `eprintln!` would
/// panic on a closed pipe (`sudoku ... 2>&1 | head`).
pub fn note(text: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Writes `text` to stdout. A closed pipe or a full disk is a
/// [`Failure::io`] (a closed pipe ends the run quietly), never a panic as
/// with `print!`.
fn print_out(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Failure::io)
}

/// Runs a future that talks to a server on a single-threaded runtime.
fn with_runtime<T>(future: impl Future<Output = Result<T, Failure>>) -> Result<T, Failure> {
    start_runtime(&mut tokio::runtime::Builder::new_current_thread())?.block_on(future)
}

/// Builds an async runtime, with its I/O and timer drivers.
fn start_runtime(
    builder: &mut tokio::runtime::Builder,
) -> Result<tokio::runtime::Runtime, Failure> {
    builder
        .enable_all()
        .build()
        .map_err(|error| Failure::error(format!("cannot start the async runtime: {error}")))
}
