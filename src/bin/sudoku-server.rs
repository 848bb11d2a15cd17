//! `sudoku-server`: serves sudoku.v1 with health and reflection.
//! Flags and their environment variables: `sudoku-server --help`.

use std::process::ExitCode;

use clap::Parser;
use sudoku_grpc::pool::WorkerPool;
use sudoku_grpc::server::{self, Settings};

/// A gRPC service that solves 9x9 Sudoku puzzles and certifies uniqueness.
#[derive(Parser)]
#[command(name = "sudoku-server", version, about)]
struct Cli {
    #[command(flatten)]
    settings: Settings,
}

#[tokio::main]
async fn main() -> ExitCode {
    let settings = Cli::parse().settings;
    if let Err(error) = settings.validate() {
        eprintln!("sudoku-server: invalid settings: {error}");
        return ExitCode::from(2);
    }
    server::init_logging(settings.log_format);
    let listeners = match server::Listeners::bind(&settings).await {
        Ok(listeners) => listeners,
        Err(error) => {
            tracing::error!(%error, "cannot start");
            return ExitCode::FAILURE;
        }
    };
    let pool = WorkerPool::new(settings.worker_count(), settings.queue_depth);
    match server::serve(listeners, &settings, pool, server::shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server failed");
            ExitCode::FAILURE
        }
    }
}
