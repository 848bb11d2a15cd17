//! The client side: connecting to a server and calling it.

use std::time::Duration;

use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

use crate::report::Answer;

use crate::pb::SolveRequest;
use crate::pb::sudoku_service_client::SudokuServiceClient;

/// The server the command line talks to unless told otherwise.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";

/// How long to wait for a TCP connection before giving up.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why the client got no answer.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server address is not a URL the client can use.
    #[error("invalid server address {address:?}: {reason}")]
    InvalidAddress {
        /// The address as given.
        address: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No connection could be made.
    #[error("cannot connect to {address}: {source}")]
    Connect {
        /// The address as given.
        address: String,
        /// The transport's error.
        source: tonic::transport::Error,
    },
    /// The server answered with an error status.
    #[error("the server answered {}: {}", .0.code(), .0.message())]
    Rpc(#[from] tonic::Status),
}

/// The endpoint for a server address; `host:port` without a scheme means
/// plaintext `http://host:port`.
pub fn endpoint(address: &str) -> Result<Endpoint, ClientError> {
    let url = if address.contains("://") {
        address.to_string()
    } else {
        format!("http://{address}")
    };
    Endpoint::from_shared(url)
        .map(|endpoint| endpoint.connect_timeout(CONNECT_TIMEOUT).tcp_nodelay(true))
        .map_err(|error| ClientError::InvalidAddress {
            address: address.to_string(),
            reason: error.to_string(),
        })
}

/// Connects to a server.
pub async fn connect(address: &str) -> Result<Channel, ClientError> {
    endpoint(address)?
        .connect()
        .await
        .map_err(|source| ClientError::Connect {
            address: address.to_string(),
            source,
        })
}

/// Solves one puzzle on the server. An invalid puzzle is an answer
/// ([`crate::report::Verdict::Invalid`]), not an error.
pub async fn solve_remote(channel: Channel, puzzle: &str) -> Result<Answer, ClientError> {
    let request = SolveRequest {
        puzzle: puzzle.to_string(),
    };
    match SudokuServiceClient::new(channel).solve(request).await {
        Ok(response) => Ok(Answer::from(response.into_inner())),
        Err(status) if status.code() == tonic::Code::InvalidArgument => {
            Ok(Answer::invalid(status.message()))
        }
        Err(status) => Err(status.into()),
    }
}

/// Asks the server's standard health service about `service` ("" for the
/// server as a whole); true when it is SERVING.
pub async fn check_health(channel: Channel, service: &str) -> Result<bool, ClientError> {
    let request = HealthCheckRequest {
        service: service.to_string(),
    };
    let response = HealthClient::new(channel)
        .check(request)
        .await?
        .into_inner();
    Ok(response.status() == tonic_health::pb::health_check_response::ServingStatus::Serving)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_host_and_port_means_plain_http() {
        assert_eq!(
            endpoint("localhost:50051").unwrap().uri().to_string(),
            "http://localhost:50051/"
        );
        assert_eq!(
            endpoint(DEFAULT_SERVER).unwrap().uri().scheme_str(),
            Some("http")
        );
    }

    #[test]
    fn an_unusable_address_is_an_error() {
        let error = endpoint("http://bad host").unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("invalid server address \"http://bad host\"")
        );
    }
}
