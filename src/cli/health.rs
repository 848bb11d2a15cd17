//! `sudoku health`: asks each server's health service whether it serves.
//! A `dns:` target is every address its name resolves to, each checked.

use clap::Args;
use tonic::transport::Endpoint;

use super::args::{ConnectArgs, ServersArg, TimeoutArg};
use super::output::ExitCode;
use super::{Failure, print_out, with_runtime};
use crate::client::resolve::{SystemLookup, endpoints};
use crate::client::{self, ClientError};

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
    #[command(flatten)]
    pub timeout: TimeoutArg,
}

/// Checks every server given (every address of a `dns:` target). One
/// server prints `SERVING` or `NOT_SERVING`; several print one line each,
/// `ADDRESS STATUS`. The exit code is the worst: 0 when all serve, 1 when
/// one does not, 3 when one cannot be reached (each is still checked, and
/// the reason printed).
pub fn run(args: HealthArgs) -> Result<ExitCode, Failure> {
    let connect = args.timeout.applied_to(args.connect.options()?);
    let servers = args.servers.servers()?;
    with_runtime(async {
        let servers = endpoints(servers, &connect, &SystemLookup).await;
        let several = servers.len() > 1;
        let mut worst = ExitCode::Success;
        for (server, endpoint) in servers {
            let (code, status) = match check(&server, endpoint, &connect, &args.service).await {
                Ok(true) => (ExitCode::Success, "SERVING".to_string()),
                Ok(false) => (ExitCode::NotUnique, "NOT_SERVING".to_string()),
                Err(error @ ClientError::InvalidAddress { .. }) => return Err(error.into()),
                Err(error) if several => (ExitCode::Failure, format!("UNREACHABLE ({error})")),
                Err(error) => return Err(error.into()),
            };
            if several {
                print_out(&format!("{server} {status}\n"))?;
            } else {
                print_out(&format!("{status}\n"))?;
            }
            worst = worst.max(code);
        }
        Ok(worst)
    })
}

async fn check(
    server: &str,
    endpoint: Result<Endpoint, ClientError>,
    options: &client::ConnectOptions,
    service: &str,
) -> Result<bool, ClientError> {
    let channel = client::connect_endpoint(server, &endpoint?).await?;
    client::check_health(channel, options, service).await
}
