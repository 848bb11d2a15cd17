//! The client side: connecting to a server, calling it, and checking what
//! it answers.
//!
//! Everything a server sends is checked before it becomes a domain value
//! ([`check`]): the command line prints only answers that could be
//! trusted, and says what a server sent when it could not.
//!
//! A server is named by a URL or `host:port`, or many at once by a DNS
//! name, `dns:///NAME:PORT` ([`target`]): the name is resolved
//! ([`mod@resolve`]) and calls are spread over its addresses, which are
//! resolved again as servers come and go ([`pool`]).

pub mod check;
pub mod generate;
pub mod logic;
pub mod pool;
pub mod resolve;
pub mod target;
pub mod variant;

use std::time::Duration;

use tonic::codec::CompressionEncoding;
use tonic::transport::{Channel, ClientTlsConfig, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

use crate::domain::{Answer, Outcome};
use crate::pb::SolveRequest;
use crate::pb::sudoku_service_client::SudokuServiceClient;
use resolve::{SystemLookup, resolve};
use target::Target;

/// The server the command line talks to unless told otherwise.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";

/// The largest response message a client accepts. An answer to one puzzle
/// is an id, 81 digits and perhaps an error message: a few hundred bytes.
/// Anything near this limit is a broken or hostile server, and is refused
/// rather than buffered.
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;

/// The largest batch response a client accepts for a batch of `puzzles`
/// (graded, with `graded`): a result per puzzle, each well under the 1 KiB
/// allowed here (this server keeps each within 512 bytes), and 2 KiB more
/// for a grade (this server's are within 1.5 KiB); never less than
/// [`MAX_RESPONSE_BYTES`].
pub fn max_batch_response_bytes(puzzles: usize, graded: bool) -> usize {
    let per_result = if graded { 3 * 1024 } else { 1024 };
    MAX_RESPONSE_BYTES.max((puzzles + 1) * per_result)
}

/// The largest HTTP/2 frame the client accepts: larger than the 16 KiB
/// default, so that a server writes a batch's answers in a few frames
/// rather than many (fewer system calls on both sides).
const MAX_FRAME_BYTES: u32 = 1 << 20;

/// The HTTP/2 receive window of each of the client's connections: how much
/// answers may run ahead of what the client has read (hyper's default is
/// 5 MiB).
pub const CONNECTION_WINDOW_BYTES: u32 = 4 << 20;

/// The HTTP/2 receive window of each call: an eighth of the connection's
/// (hyper's default is 2 MiB, two fifths).
///
/// h2 closes a connection (GOAWAY ENHANCE_YOUR_CALM) once the DATA frames
/// under 256 bytes it holds unread are charged more than half the
/// connection window, each 256 bytes less its payload. A server that
/// answers each puzzle in a frame of its own (one answer ready at a time)
/// while the client has stopped reading (its output is blocked) fills the
/// call's window with frames charged about 1.9 times their bytes: with
/// hyper's windows one such stream could close the connection, with these
/// two streams on a connection stay under the limit. An ungraded answer to
/// a full batch (about 100 KiB) still fits in one window.
pub const CALL_WINDOW_BYTES: u32 = CONNECTION_WINDOW_BYTES / 8;

/// How long to wait for a TCP connection before giving up.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why the client got no answer.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The list of servers to use is empty.
    #[error("no server given: pass --server URL or set SUDOKU_SERVER")]
    NoServers,
    /// The server address is not a URL the client can use.
    #[error("invalid server address {address:?}: {reason}")]
    InvalidAddress {
        /// The address as given.
        address: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A `dns:` target's name gave no address.
    #[error("cannot resolve {name}: {reason}")]
    Resolve {
        /// The target, `dns:///NAME:PORT`.
        name: String,
        /// What the lookup said, or that it found nothing.
        reason: String,
    },
    /// No connection could be made.
    #[error("cannot connect to {address}: {}", check::deepest_cause(source))]
    Connect {
        /// The address as given.
        address: String,
        /// The transport's error.
        source: tonic::transport::Error,
    },
    /// The server answered with an error status, or the call failed
    /// without an answer (the status then carries the transport's error).
    #[error("{}", check::shown_call_failure(.0))]
    Rpc(#[from] tonic::Status),
    /// The server answered in a way that cannot be trusted.
    #[error("protocol error: the server sent {0}")]
    Protocol(#[from] check::ProtocolError),
    /// The server did not answer in time.
    #[error("no answer from the server within {0:?}")]
    TimedOut(Duration),
    /// What the server sent could not be written out.
    #[error("cannot write the output: {0}")]
    Output(String),
}

/// How the client reaches servers: TLS and compression. The default is
/// plaintext and uncompressed.
#[derive(Debug, Clone, Default)]
pub struct ConnectOptions {
    /// TLS for every server: which CA to trust, which certificate to
    /// present. `None` means plaintext, except for `https://` addresses,
    /// which use the system's trusted roots. A name set here with
    /// `domain_name` is replaced for the addresses of `dns:` targets (by
    /// `tls_domain` or the target's name): set `tls_domain` instead.
    pub tls: Option<ClientTlsConfig>,
    /// The name a server's certificate must carry; `None` for the host of
    /// the address, or the name of a `dns:` target.
    pub tls_domain: Option<String>,
    /// Compress requests this way, and accept responses compressed this way.
    pub compression: Option<CompressionEncoding>,
    /// How long a single call may wait for its server: a unary call's
    /// answer (the server hears it as the call's `grpc-timeout`), or the
    /// next puzzle of a Generate stream. `None` waits as long as the
    /// server takes.
    pub timeout: Option<Duration>,
}

impl ConnectOptions {
    /// `message` as a unary call's request, with the [`timeout`] as its
    /// deadline.
    ///
    /// [`timeout`]: ConnectOptions::timeout
    pub fn request<T>(&self, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        if let Some(timeout) = self.timeout {
            request.set_timeout(timeout);
        }
        request
    }

    /// Waits for `call`, for at most the [`timeout`]. tonic ends a call
    /// whose request carries the deadline itself, with CANCELLED: that
    /// too is a timeout once the time has passed.
    ///
    /// [`timeout`]: ConnectOptions::timeout
    pub async fn within<T>(
        &self,
        call: impl Future<Output = Result<T, ClientError>>,
    ) -> Result<T, ClientError> {
        let Some(timeout) = self.timeout else {
            return call.await;
        };
        let started = tokio::time::Instant::now();
        match tokio::time::timeout(timeout, call).await {
            Err(_) => Err(ClientError::TimedOut(timeout)),
            Ok(Err(ClientError::Rpc(status)))
                if status.code() == tonic::Code::Cancelled && started.elapsed() >= timeout =>
            {
                Err(ClientError::TimedOut(timeout))
            }
            Ok(result) => result,
        }
    }

    /// A SudokuService client on `channel` that compresses as configured
    /// and refuses responses over [`MAX_RESPONSE_BYTES`].
    pub fn sudoku_client(&self, channel: Channel) -> SudokuServiceClient<Channel> {
        let client =
            SudokuServiceClient::new(channel).max_decoding_message_size(MAX_RESPONSE_BYTES);
        match self.compression {
            Some(encoding) => client.send_compressed(encoding).accept_compressed(encoding),
            None => client,
        }
    }
}

/// The endpoint for a server address. Without a scheme, `host:port` means
/// `https://host:port` when `options` configure TLS and plaintext
/// `http://host:port` otherwise. A `dns:` target names several servers and
/// is refused here: [`connect`] or a [`pool::ServerPool`] resolves it.
pub fn endpoint(address: &str, options: &ConnectOptions) -> Result<Endpoint, ClientError> {
    let invalid = |reason: String| ClientError::InvalidAddress {
        address: address.to_string(),
        reason,
    };
    if let Target::Dns(_) = Target::parse(address)? {
        return Err(invalid(
            "a dns: target stands for several servers; resolve it first".to_string(),
        ));
    }
    let url = if address.contains("://") {
        address.to_string()
    } else if options.tls.is_some() {
        format!("https://{address}")
    } else {
        format!("http://{address}")
    };
    let endpoint = base_endpoint(url).map_err(invalid)?;
    let named = |tls: ClientTlsConfig| match &options.tls_domain {
        Some(domain) => tls.domain_name(domain.clone()),
        None => tls,
    };
    let tls = match (&options.tls, endpoint.uri().scheme_str()) {
        (Some(tls), Some("https")) => named(tls.clone()),
        (None, Some("https")) => named(ClientTlsConfig::new().with_native_roots()),
        (Some(_), _) => {
            return Err(invalid(
                "TLS options were given for a plaintext http:// address".to_string(),
            ));
        }
        (None, _) => return Ok(endpoint),
    };
    endpoint
        .tls_config(tls)
        .map_err(|error| invalid(error.to_string()))
}

/// The endpoint of `url` with the transport settings every server gets;
/// the reason when `url` is not a usable URI.
fn base_endpoint(url: String) -> Result<Endpoint, String> {
    Ok(Endpoint::from_shared(url)
        .map_err(|error| error.to_string())?
        .connect_timeout(CONNECT_TIMEOUT)
        .tcp_nodelay(true)
        .initial_connection_window_size(CONNECTION_WINDOW_BYTES)
        .initial_stream_window_size(CALL_WINDOW_BYTES)
        .max_frame_size(MAX_FRAME_BYTES))
}

/// Connects to a server, within the options' timeout (tonic's connect
/// timeout covers TCP alone, not the TLS handshake). A `dns:` target
/// connects to the first of its addresses that accepts, in the order
/// [`resolve()`] gives them.
pub async fn connect(address: &str, options: &ConnectOptions) -> Result<Channel, ClientError> {
    options.within(connect_to(address, options)).await
}

/// [`connect`], with no limit but the transport's own.
async fn connect_to(address: &str, options: &ConnectOptions) -> Result<Channel, ClientError> {
    let name = match Target::parse(address)? {
        Target::Dns(name) => name,
        Target::Address(_) => {
            let endpoint = endpoint(address, options)?;
            return connect_endpoint(address, &endpoint).await;
        }
    };
    // Replaced by the first attempt: a name resolves to at least one address.
    let mut result = Err(ClientError::NoServers);
    for resolved in resolve(&name, &SystemLookup).await? {
        let label = format!("{name} ({resolved})");
        result = connect_endpoint(&label, &name.endpoint(resolved, options)?).await;
        if result.is_ok() {
            break;
        }
    }
    result
}

/// Connects to `endpoint`, calling it `address` in the error.
pub async fn connect_endpoint(address: &str, endpoint: &Endpoint) -> Result<Channel, ClientError> {
    endpoint
        .connect()
        .await
        .map_err(|source| ClientError::Connect {
            address: address.to_string(),
            source,
        })
}

/// Solves one puzzle on the server (and grades it, with `grade`),
/// checking its answer. An invalid puzzle is an answer
/// ([`Outcome::Invalid`]), not an error.
pub async fn solve(
    channel: Channel,
    options: &ConnectOptions,
    puzzle: &str,
    grade: bool,
) -> Result<Answer, ClientError> {
    let request = options.request(SolveRequest {
        puzzle: puzzle.to_string(),
        grade,
    });
    let call = async { Ok(options.sudoku_client(channel).solve(request).await?) };
    match options.within(call).await {
        Ok(response) => Ok(check::unary_answer(puzzle, response.get_ref(), grade)?),
        Err(ClientError::Rpc(status)) if status.code() == tonic::Code::InvalidArgument => {
            Ok(Answer::refused(Outcome::Invalid, status.message()))
        }
        Err(ClientError::Rpc(status)) if solver_gave_up(&status) => {
            Ok(Answer::refused(Outcome::GaveUp, status.message()))
        }
        Err(error) => Err(error),
    }
}

/// The reason of the `google.rpc.ErrorInfo` a server sends with a puzzle
/// its solver gave up on (the service's `GAVE_UP_REASON`).
const SOLVE_GAVE_UP_REASON: &str = "SOLVE_TIME_EXHAUSTED";

/// Whether a unary Solve failed because the server's solver gave up on the
/// puzzle: an answer about the puzzle, as a stream's `OUTCOME_GAVE_UP` is,
/// rather than a failure of the call (RESOURCE_EXHAUSTED alone could be a
/// full server).
pub(crate) fn solver_gave_up(status: &tonic::Status) -> bool {
    use tonic_types::StatusExt;
    status.code() == tonic::Code::ResourceExhausted
        && status
            .get_details_error_info()
            .is_some_and(|info| info.reason == SOLVE_GAVE_UP_REASON)
}

/// Asks the server's standard health service about `service` ("" for the
/// server as a whole); true when it is SERVING.
pub async fn check_health(
    channel: Channel,
    options: &ConnectOptions,
    service: &str,
) -> Result<bool, ClientError> {
    let request = options.request(HealthCheckRequest {
        service: service.to_string(),
    });
    let call = async { Ok(HealthClient::new(channel).check(request).await?) };
    let response = options.within(call).await?.into_inner();
    Ok(response.status() == tonic_health::pb::health_check_response::ServingStatus::Serving)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gave_up_status_is_told_from_a_full_server() {
        assert_eq!(SOLVE_GAVE_UP_REASON, crate::service::GAVE_UP_REASON);
        let gave_up = crate::service::ServiceError::GaveUp(crate::domain::GaveUp {
            elapsed: std::time::Duration::from_millis(20),
            guesses: 5000,
            budget: std::time::Duration::from_millis(20),
        });
        assert!(solver_gave_up(&tonic::Status::from(gave_up)));
        assert!(!solver_gave_up(&tonic::Status::resource_exhausted(
            "server overloaded"
        )));
    }

    #[test]
    fn a_bare_host_and_port_means_plain_http() {
        let plain = ConnectOptions::default();
        assert_eq!(
            endpoint("localhost:50051", &plain)
                .unwrap()
                .uri()
                .to_string(),
            "http://localhost:50051/"
        );
        assert_eq!(
            endpoint(DEFAULT_SERVER, &plain).unwrap().uri().scheme_str(),
            Some("http")
        );
    }

    #[test]
    fn tls_options_make_a_bare_address_https_and_refuse_http() {
        let tls = ConnectOptions {
            tls: Some(ClientTlsConfig::new().domain_name("localhost")),
            tls_domain: None,
            compression: None,
            timeout: None,
        };
        assert_eq!(
            endpoint("localhost:50051", &tls)
                .unwrap()
                .uri()
                .scheme_str(),
            Some("https")
        );
        let error = endpoint("http://localhost:50051", &tls).unwrap_err();
        assert!(error.to_string().contains("plaintext http://"), "{error}");
    }

    #[test]
    fn a_dns_target_is_no_single_endpoint() {
        let error = endpoint("dns:///localhost:50051", &ConnectOptions::default()).unwrap_err();
        assert!(error.to_string().contains("resolve it first"), "{error}");
    }

    #[test]
    fn an_unusable_address_is_an_error() {
        let error = endpoint("http://bad host", &ConnectOptions::default()).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("invalid server address \"http://bad host\"")
        );
    }
}
