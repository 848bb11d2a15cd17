//! `sudoku`: the command-line client. `sudoku --help` for commands and exit
//! codes.

use clap::Parser;
use sudoku_grpc::cli::{self, Cli};

fn main() -> std::process::ExitCode {
    cli::run(Cli::parse()).into()
}
