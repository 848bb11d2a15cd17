//! The `sudoku` command line: its flags and what each command does.
//!
//! `sudoku solve INPUT` takes a puzzle, or a puzzle file (`-` for stdin).
//! Either is solved on the server(s), or in this process with `--local`. A
//! file gets one output line per puzzle (see [`crate::report`]) and a
//! summary on stderr; remotely it is streamed through SolveStream calls
//! (see [`crate::batch::remote`]).

use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use tonic::codec::CompressionEncoding;
use tonic::transport::{Certificate, ClientTlsConfig, Identity};

use crate::batch::{Progress, RemoteError, RemoteOptions, solve_local, solve_remote};
use crate::client::{self, ClientError, ConnectOptions, DEFAULT_SERVER};
use crate::domain::{SolvePuzzleError, solve_puzzle};
use crate::loadgen::BenchOptions;
use crate::report::{Answer, ExitCode, Format, Tally, Verdict};
use crate::server::available_cores;

/// Solve Sudoku puzzles, on a sudoku-grpc server or in this process.
#[derive(Debug, Parser)]
#[command(
    name = "sudoku",
    version,
    about,
    after_help = "Exit codes: 0 every puzzle has exactly one solution (or the server is healthy); \
                  1 some puzzle has no solution or several (or the server is not serving); \
                  2 some puzzle is invalid, or the command line is wrong; \
                  3 the server could not be reached or failed, or the input could not be read."
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
    /// line per puzzle: `solved|multiple|unsolvable|invalid` and the
    /// solution or the error.
    Solve(SolveArgs),
    /// Ask the server's health service whether it is serving.
    Health(HealthArgs),
    /// Load-test running servers with puzzles from a file: unary Solve
    /// latency at a given concurrency, SolveStream throughput, and a bare
    /// echo of the same messages as the transport's baseline.
    Bench(BenchArgs),
}

/// Flags of `sudoku bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A puzzle file (one per line; `#` comments and blank lines skipped).
    pub file: String,
    #[command(flatten)]
    pub servers: ServersArg,
    /// Concurrent unary callers.
    #[arg(long, default_value_t = 32)]
    pub concurrency: usize,
    /// Unary calls in all (0 skips the unary test).
    #[arg(long, default_value_t = 20_000)]
    pub requests: usize,
    /// Concurrent SolveStream calls.
    #[arg(long, default_value_t = 2)]
    pub streams: usize,
    /// Puzzles sent over all the streams (0 skips the stream tests); the
    /// file's puzzles are used round-robin.
    #[arg(long, default_value_t = 200_000)]
    pub stream_puzzles: usize,
    /// Skip the echo baseline.
    #[arg(long)]
    pub no_echo: bool,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// Flags of `sudoku solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// A puzzle (81 cells: `1`-`9` givens, `.` or `0` blanks; whitespace,
    /// `|`, `-`, `+` ignored), or a file with one puzzle per line (`-` for
    /// stdin; lines starting with `#` and blank lines are skipped).
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
    /// For a single puzzle, also print the solution as a grid.
    #[arg(long)]
    pub grid: bool,
    /// No progress, no summary and no notes about invalid lines on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub servers: ServersArg,
    /// SolveStream calls open at once for a file [default: two per server].
    #[arg(long, conflicts_with = "local", value_parser = clap::value_parser!(u16).range(1..))]
    pub streams: Option<u16>,
    /// Failed attempts in a row, per stream, before a file run gives up.
    #[arg(long, default_value_t = 5, conflicts_with = "local")]
    pub retries: u32,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// Flags of `sudoku health`.
#[derive(Debug, Args)]
pub struct HealthArgs {
    /// The service to ask about; empty for the server as a whole.
    #[arg(long, default_value = "")]
    pub service: String,
    #[command(flatten)]
    pub server: ServerArg,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// The servers to talk to, for commands that can use several.
#[derive(Debug, Args)]
pub struct ServersArg {
    /// The server, as a URL or host:port. Give it more than once (or a
    /// comma-separated list) to spread a file's streams, or a benchmark's
    /// calls, over several servers; a single puzzle goes to the first.
    #[arg(
        id = "server",
        long = "server",
        value_name = "URL",
        env = "SUDOKU_SERVER",
        default_value = DEFAULT_SERVER,
        value_delimiter = ','
    )]
    pub list: Vec<String>,
}

/// How to reach the servers: TLS and compression.
#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// Use TLS, trusting this CA (PEM file) for the server's certificate
    /// [default without it: plaintext, or the system's roots for https://].
    #[arg(long, env = "SUDOKU_TLS_CA", value_name = "PEM")]
    pub tls_ca: Option<PathBuf>,
    /// Present this client certificate (PEM file) to a server that requires
    /// mutual TLS; needs --tls-key.
    #[arg(
        long,
        env = "SUDOKU_CLIENT_TLS_CERT",
        value_name = "PEM",
        requires = "tls_key"
    )]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM file).
    #[arg(
        long,
        env = "SUDOKU_CLIENT_TLS_KEY",
        value_name = "PEM",
        requires = "tls_cert"
    )]
    pub tls_key: Option<PathBuf>,
    /// The name the server's certificate must carry [default: the host of
    /// the server address].
    #[arg(long, env = "SUDOKU_TLS_DOMAIN", value_name = "NAME")]
    pub tls_domain: Option<String>,
    /// Compress requests this way and accept compressed responses. Costly
    /// for puzzle-sized messages: it slows a stream down many times (README,
    /// "Compression").
    #[arg(long, env = "SUDOKU_COMPRESS", value_enum, default_value_t = Compression::None)]
    pub compress: Compression,
}

/// Message compression on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Compression {
    /// No compression.
    None,
    /// gzip.
    Gzip,
    /// Zstandard.
    Zstd,
}

impl ConnectArgs {
    /// The client options these flags ask for; fails if a PEM file cannot
    /// be read.
    fn options(&self) -> Result<ConnectOptions, Failure> {
        let read = |path: &PathBuf| {
            std::fs::read(path).map_err(|error| Failure {
                code: ExitCode::Failure,
                message: format!("cannot read {}: {error}", path.display()),
            })
        };
        let wants_tls =
            self.tls_ca.is_some() || self.tls_cert.is_some() || self.tls_domain.is_some();
        let tls = if wants_tls {
            let mut tls = ClientTlsConfig::new();
            tls = match &self.tls_ca {
                Some(ca) => tls.ca_certificate(Certificate::from_pem(read(ca)?)),
                None => tls.with_native_roots(),
            };
            if let (Some(cert), Some(key)) = (&self.tls_cert, &self.tls_key) {
                tls = tls.identity(Identity::from_pem(read(cert)?, read(key)?));
            }
            if let Some(domain) = &self.tls_domain {
                tls = tls.domain_name(domain.clone());
            }
            Some(tls)
        } else {
            None
        };
        let compression = match self.compress {
            Compression::None => None,
            Compression::Gzip => Some(CompressionEncoding::Gzip),
            Compression::Zstd => Some(CompressionEncoding::Zstd),
        };
        Ok(ConnectOptions { tls, compression })
    }
}

/// The server to talk to.
#[derive(Debug, Args)]
pub struct ServerArg {
    /// The server, as a URL or host:port.
    #[arg(long, env = "SUDOKU_SERVER", default_value = DEFAULT_SERVER)]
    pub server: String,
}

/// Runs one command and returns the exit code; errors are reported on
/// stderr. Only commands that talk to a server start an async runtime.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Solve(args) => solve(args),
        Command::Health(args) => with_runtime(health(args)),
        Command::Bench(args) => bench(args),
    };
    result.unwrap_or_else(|failure| {
        if !failure.message.is_empty() {
            eprintln!("sudoku: {}", failure.message);
        }
        failure.code
    })
}

/// Runs a future that talks to a server on a single-threaded runtime.
fn with_runtime<T>(future: impl Future<Output = Result<T, Failure>>) -> Result<T, Failure> {
    start_runtime(&mut tokio::runtime::Builder::new_current_thread())?.block_on(future)
}

/// Builds an async runtime, with its I/O and timer drivers.
fn start_runtime(
    builder: &mut tokio::runtime::Builder,
) -> Result<tokio::runtime::Runtime, Failure> {
    builder.enable_all().build().map_err(|error| Failure {
        code: ExitCode::Failure,
        message: format!("cannot start the async runtime: {error}"),
    })
}

/// A command that could not do its work.
struct Failure {
    code: ExitCode,
    /// What to say on stderr; empty to say nothing.
    message: String,
}

impl From<ClientError> for Failure {
    fn from(error: ClientError) -> Self {
        Failure {
            code: ExitCode::Failure,
            message: error.to_string(),
        }
    }
}

/// What `sudoku solve` was given.
enum Input {
    Puzzle(String),
    File(String),
}

fn classify(input: String) -> Result<Input, Failure> {
    if input == "-" || Path::new(&input).is_file() {
        return Ok(Input::File(input));
    }
    let puzzle_like = input
        .chars()
        .all(|c| c.is_ascii_digit() || ".|+-".contains(c) || c.is_whitespace());
    if puzzle_like {
        Ok(Input::Puzzle(input))
    } else {
        Err(Failure {
            code: ExitCode::Invalid,
            message: format!("{input:?} is neither a puzzle nor a file that can be read"),
        })
    }
}

fn solve(args: SolveArgs) -> Result<ExitCode, Failure> {
    match classify(args.input.clone())? {
        Input::File(path) if args.local => solve_file_locally(&path, &args),
        Input::File(path) => solve_file_remotely(&path, &args),
        Input::Puzzle(puzzle) => {
            let answer = if args.local {
                solve_here(&puzzle)
            } else {
                let connect = args.connect.options()?;
                with_runtime(async {
                    let channel = client::connect(&args.servers.list[0], &connect).await?;
                    Ok(client::solve_remote(channel, &connect, &puzzle).await?)
                })?
            };
            let mut line = Vec::new();
            answer.write(&mut line, args.format, 1);
            if let (true, Some(solution)) = (args.grid, &answer.solution) {
                let board = crate::domain::parse_board(solution).expect("a solution has 81 digits");
                line.extend_from_slice(board.to_grid().as_bytes());
            }
            io::stdout().write_all(&line).map_err(output_failure)?;
            let mut tally = Tally::default();
            tally.add(answer.verdict);
            Ok(tally.exit_code())
        }
    }
}

/// Solves one puzzle in this process.
fn solve_here(puzzle: &str) -> Answer {
    match solve_puzzle(puzzle, || false) {
        Ok(report) => Answer {
            verdict: Verdict::from(report.outcome),
            solution: report.solution.map(|board| board.to_line()),
            error: None,
            guesses: Some(report.stats.guesses),
        },
        Err(SolvePuzzleError::Puzzle(error)) => Answer::invalid(&error.to_string()),
        Err(SolvePuzzleError::Cancelled(_)) => unreachable!("never cancelled"),
    }
}

fn solve_file_locally(path: &str, args: &SolveArgs) -> Result<ExitCode, Failure> {
    let threads = args.threads.map_or_else(available_cores, usize::from);
    let input = open_input(path)?;
    let errors = error_output(args.quiet);
    let run = solve_local(input, io::stdout().lock(), errors, threads, args.format)
        .map_err(output_failure)?;
    Ok(finish_run(&run.tally, run.elapsed, args.quiet))
}

/// A puzzle file, or stdin for `-`, read in large blocks.
fn open_input(path: &str) -> Result<Box<dyn BufRead + Send>, Failure> {
    const READ_BUFFER: usize = 256 * 1024;
    if path == "-" {
        return Ok(Box::new(BufReader::with_capacity(READ_BUFFER, io::stdin())));
    }
    let file = std::fs::File::open(path).map_err(|error| Failure {
        code: ExitCode::Failure,
        message: format!("cannot read {path}: {error}"),
    })?;
    Ok(Box::new(BufReader::with_capacity(READ_BUFFER, file)))
}

/// Where notes about invalid lines go: stderr, or nowhere with `--quiet`.
fn error_output(quiet: bool) -> Box<dyn Write> {
    if quiet {
        Box::new(io::sink())
    } else {
        Box::new(io::stderr())
    }
}

/// Prints a file run's summary (unless quiet) and returns its exit code.
fn finish_run(tally: &Tally, elapsed: Duration, quiet: bool) -> ExitCode {
    if !quiet {
        eprintln!("{}", tally.summary(elapsed));
    }
    tally.exit_code()
}

/// An I/O error as a failure. A closed output pipe (`sudoku ... | head`)
/// means the reader has seen enough: the run ends quietly with exit code 0,
/// as other command-line tools do.
/// Streams a file through the servers, on a runtime with one thread per
/// core for the transport work.
fn solve_file_remotely(path: &str, args: &SolveArgs) -> Result<ExitCode, Failure> {
    let progress = if args.quiet || !io::stderr().is_terminal() {
        Progress::Hidden
    } else if path == "-" {
        Progress::Counter
    } else {
        std::fs::metadata(path).map_or(Progress::Counter, |metadata| Progress::Bar {
            total_bytes: metadata.len(),
        })
    };
    let options = RemoteOptions {
        servers: args.servers.list.clone(),
        streams: args
            .streams
            .map_or(2 * args.servers.list.len(), usize::from),
        format: args.format,
        retries: args.retries,
        progress,
        connect: args.connect.options()?,
    };
    let input = open_input(path)?;
    let errors = error_output(args.quiet);
    let run = with_runtime(async {
        solve_remote(input, io::stdout().lock(), errors, options)
            .await
            .map_err(|error| match error {
                RemoteError::Io(error) => output_failure(error),
                other => Failure {
                    code: ExitCode::Failure,
                    message: other.to_string(),
                },
            })
    })?;
    Ok(finish_run(&run.tally, run.elapsed, args.quiet))
}

fn output_failure(error: io::Error) -> Failure {
    if error.kind() == io::ErrorKind::BrokenPipe {
        return Failure {
            code: ExitCode::Success,
            message: String::new(),
        };
    }
    Failure {
        code: ExitCode::Failure,
        message: format!("input or output failed: {error}"),
    }
}

/// Runs the load generator and prints its table.
fn bench(args: BenchArgs) -> Result<ExitCode, Failure> {
    let text = std::fs::read_to_string(&args.file).map_err(|error| Failure {
        code: ExitCode::Failure,
        message: format!("cannot read {}: {error}", args.file),
    })?;
    let puzzles: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_string)
        .collect();
    if puzzles.is_empty() {
        return Err(Failure {
            code: ExitCode::Invalid,
            message: format!("{} holds no puzzles", args.file),
        });
    }
    let options = BenchOptions {
        servers: args.servers.list,
        puzzles,
        concurrency: args.concurrency,
        requests: args.requests,
        streams: args.streams,
        stream_puzzles: args.stream_puzzles,
        echo: !args.no_echo,
        connect: args.connect.options()?,
    };
    let report = start_runtime(&mut tokio::runtime::Builder::new_multi_thread())?
        .block_on(crate::loadgen::run(&options))
        .map_err(|error| Failure {
            code: ExitCode::Failure,
            message: error.to_string(),
        })?;
    print!("{}", report.table(&options));
    Ok(ExitCode::Success)
}

async fn health(args: HealthArgs) -> Result<ExitCode, Failure> {
    let connect = args.connect.options()?;
    let channel = client::connect(&args.server.server, &connect).await?;
    if client::check_health(channel, &args.service).await? {
        println!("SERVING");
        Ok(ExitCode::Success)
    } else {
        println!("NOT_SERVING");
        Ok(ExitCode::NotUnique)
    }
}
