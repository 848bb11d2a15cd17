//! `sudoku`: the command-line client. `sudoku --help` for commands and exit
//! codes.

use std::process::ExitCode as ProcessExit;

use clap::{Parser, Subcommand};
use sudoku_grpc::client::{self, DEFAULT_SERVER, ExitCode};

/// Solve Sudoku puzzles with a sudoku-grpc server.
#[derive(Parser)]
#[command(
    name = "sudoku",
    version,
    about,
    after_help = "Exit codes: 0 every puzzle has exactly one solution (or the server is healthy); \
                  1 some puzzle has no solution or several (or the server is not serving); \
                  2 some puzzle is invalid, or the command line is wrong; \
                  3 the server could not be reached or failed."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve one puzzle on the server and print `VERDICT SOLUTION` (or
    /// `invalid MESSAGE`).
    Solve {
        /// The puzzle: 81 cells, `1`-`9` for givens and `.` or `0` for blanks;
        /// whitespace, `|`, `-` and `+` are ignored.
        puzzle: String,
        /// Also print the solution as a grid.
        #[arg(long)]
        grid: bool,
        #[command(flatten)]
        server: ServerArg,
    },
    /// Ask the server's health service whether it is serving.
    Health {
        /// The service to ask about; empty for the server as a whole.
        #[arg(long, default_value = "")]
        service: String,
        #[command(flatten)]
        server: ServerArg,
    },
}

#[derive(clap::Args)]
struct ServerArg {
    /// The server, as a URL or host:port.
    #[arg(long, env = "SUDOKU_SERVER", default_value = DEFAULT_SERVER)]
    server: String,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ProcessExit {
    let result = match Cli::parse().command {
        Command::Solve {
            puzzle,
            grid,
            server,
        } => solve(&server.server, &puzzle, grid).await,
        Command::Health { service, server } => health(&server.server, &service).await,
    };
    match result {
        Ok(code) => code.into(),
        Err(error) => {
            eprintln!("sudoku: {error}");
            ExitCode::Failure.into()
        }
    }
}

async fn solve(server: &str, puzzle: &str, grid: bool) -> Result<ExitCode, client::ClientError> {
    let channel = client::connect(server).await?;
    let answer = client::solve_remote(channel, puzzle).await?;
    println!("{answer}");
    if let (true, Some(solution)) = (grid, &answer.solution) {
        let board = sudoku_grpc::domain::parse_board(solution).expect("the server sends 81 digits");
        print!("{}", board.to_grid());
    }
    Ok(ExitCode::for_verdict(answer.verdict))
}

async fn health(server: &str, service: &str) -> Result<ExitCode, client::ClientError> {
    let channel = client::connect(server).await?;
    if client::check_health(channel, service).await? {
        println!("SERVING");
        Ok(ExitCode::Success)
    } else {
        println!("NOT_SERVING");
        Ok(ExitCode::NotUnique)
    }
}
