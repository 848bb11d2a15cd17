//! `sudoku`: the command-line client. `sudoku --help` for commands and exit
//! codes.

use sudoku_grpc::cli;

fn main() -> std::process::ExitCode {
    cli::run(cli::parse()).into()
}
