//! `sudoku health`: asks each server's health service whether it serves.

use clap::Args;

use super::args::{ConnectArgs, ServersArg};
use super::output::ExitCode;
use super::{Failure, with_runtime};
use crate::client::{self, ConnectOptions};

/// Flags of `sudoku health`.
#[derive(Debug, Args)]
pub struct HealthArgs {
    /// The service to ask about; empty for the server as a whole.
    #[arg(long, default_value = "")]
    pub service: String,
    #[command(flatten)]
    pub servers: ServersArg,
    #[command(flatten)]
    pub connect: ConnectArgs,
}

/// Checks every server given. One server prints `SERVING` or
/// `NOT_SERVING`; several print one line each, `ADDRESS STATUS`. The exit
/// code is the worst: 0 when all serve, 1 when one does not, 3 when one
/// cannot be reached (each is still checked, and the reason printed).
pub fn run(args: HealthArgs) -> Result<ExitCode, Failure> {
    let connect = args.connect.options()?;
    let servers = args.servers.servers()?;
    let several = servers.len() > 1;
    with_runtime(async {
        let mut worst = ExitCode::Success;
        for server in servers {
            let (code, status) = match check(server, &connect, &args.service).await {
                Ok(true) => (ExitCode::Success, "SERVING".to_string()),
                Ok(false) => (ExitCode::NotUnique, "NOT_SERVING".to_string()),
                Err(error) if several => (ExitCode::Failure, format!("UNREACHABLE ({error})")),
                Err(error) => return Err(error.into()),
            };
            if several {
                println!("{server} {status}");
            } else {
                println!("{status}");
            }
            worst = worst.max(code);
        }
        Ok(worst)
    })
}

async fn check(
    server: &str,
    connect: &ConnectOptions,
    service: &str,
) -> Result<bool, client::ClientError> {
    let channel = client::connect(server, connect).await?;
    client::check_health(channel, service).await
}
