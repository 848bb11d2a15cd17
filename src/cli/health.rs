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
/// the reason printed), and 2 before any check when an address cannot be
/// one. Once stdout's reader has gone (`| grep -q`), the checks go on
/// unprinted, for the exit code.
pub fn run(args: HealthArgs) -> Result<ExitCode, Failure> {
    let connect = args.timeout.applied_to(args.connect.options()?);
    let servers = args.servers.servers()?;
    with_runtime(async {
        let mut servers = endpoints(servers, &connect, &SystemLookup).await;
        if let Some(index) = servers
            .iter()
            .position(|(_, endpoint)| matches!(endpoint, Err(ClientError::InvalidAddress { .. })))
        {
            let (_, refused) = servers.swap_remove(index);
            return Err(refused.expect_err("an invalid address").into());
        }
        let several = servers.len() > 1;
        let (mut worst, mut printing) = (ExitCode::Success, true);
        for (server, endpoint) in servers {
            let (code, status) = match check(&server, endpoint, &connect, &args.service).await {
                Ok(true) => (ExitCode::Success, "SERVING".to_string()),
                Ok(false) => (ExitCode::NotUnique, "NOT_SERVING".to_string()),
                Err(ClientError::Rpc(status)) if status.code() == tonic::Code::NotFound => {
                    return Err(unknown_service(&server, &args.service));
                }
                Err(error) if several => (ExitCode::Failure, format!("UNREACHABLE ({error})")),
                Err(error) => return Err(error.into()),
            };
            worst = worst.max(code);
            if printing {
                let line = match several {
                    true => format!("{server} {status}\n"),
                    false => format!("{status}\n"),
                };
                printing = still_printing(print_out(&line))?;
            }
        }
        Ok(worst)
    })
}

/// A `--service` the server's health service does not know (it answers
/// NOT_FOUND): the command line is wrong, so exit code 2.
fn unknown_service(server: &str, service: &str) -> Failure {
    Failure::usage(format!(
        "{server} reports no health for a service named {service:?}: give --service {} \
         or leave it out for the server as a whole",
        crate::pb::sudoku_service_server::SERVICE_NAME
    ))
}

/// Whether to go on printing after a write: not once the reader has gone
/// (a closed pipe, which [`print_out`] reports as exit code 0), and any
/// other failure is the command's.
fn still_printing(written: Result<(), Failure>) -> Result<bool, Failure> {
    match written {
        Ok(()) => Ok(true),
        Err(failure) if failure.code == ExitCode::Success => Ok(false),
        Err(failure) => Err(failure),
    }
}

async fn check(
    server: &str,
    endpoint: Result<Endpoint, ClientError>,
    options: &client::ConnectOptions,
    service: &str,
) -> Result<bool, ClientError> {
    let endpoint = endpoint?;
    let channel = options
        .within(client::connect_endpoint(server, &endpoint))
        .await?;
    client::check_health(channel, options, service).await
}
