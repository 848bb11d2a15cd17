//! TLS and mutual TLS, with certificates made at test time: a TLS server
//! answers Solve, health and reflection; plaintext clients are refused;
//! with mTLS, clients without a certificate or with one from another CA
//! are refused. The `sudoku` command line's TLS flags are checked against
//! the same servers.

mod common;

use std::path::PathBuf;

use common::process::{run_sudoku, temp_file, text};
use common::{CLASSIC, CLASSIC_SOLUTION, TestServer};
use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use sudoku_grpc::pb::SolveRequest;
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::server::Settings;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::v1::ServerReflectionRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

/// A certificate and its key, in PEM.
struct Pem {
    cert: String,
    key: String,
}

/// A certificate authority that signs server and client certificates.
struct Authority {
    params: CertificateParams,
    key: KeyPair,
    pem: String,
}

impl Authority {
    fn new(name: &str) -> Authority {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, name);
        let key = KeyPair::generate().unwrap();
        let pem = params.self_signed(&key).unwrap().pem();
        Authority { params, key, pem }
    }

    /// A certificate for `names` signed by this authority.
    fn issue(&self, names: &[&str]) -> Pem {
        let names: Vec<String> = names.iter().map(|name| name.to_string()).collect();
        let params = CertificateParams::new(names).unwrap();
        let key = KeyPair::generate().unwrap();
        let issuer = Issuer::from_params(&self.params, &self.key);
        let cert = params.signed_by(&key, &issuer).unwrap();
        Pem {
            cert: cert.pem(),
            key: key.serialize_pem(),
        }
    }
}

/// Writes `contents` to a fresh file named after `tag`.
fn file(tag: &str, contents: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    temp_file(
        &format!("{tag}-{}.pem", NEXT.fetch_add(1, Ordering::Relaxed)),
        contents,
    )
}

/// A TLS server with a certificate for localhost and 127.0.0.1 from `ca`;
/// with `client_ca`, it requires client certificates signed by it.
async fn tls_server(ca: &Authority, client_ca: Option<&Authority>) -> TestServer {
    let server = ca.issue(&["localhost", "127.0.0.1"]);
    let settings = Settings {
        tls_cert: Some(file("server-cert", &server.cert)),
        tls_key: Some(file("server-key", &server.key)),
        tls_client_ca: client_ca.map(|client_ca| file("client-ca", &client_ca.pem)),
        ..Settings::default()
    };
    TestServer::start(settings, 2, 16).await
}

/// A TLS channel trusting `ca`, presenting `identity` if given.
async fn tls_channel(
    server: &TestServer,
    ca: &Authority,
    identity: Option<&Pem>,
) -> Result<Channel, tonic::transport::Error> {
    let mut tls = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(&ca.pem))
        .domain_name("localhost");
    if let Some(identity) = identity {
        tls = tls.identity(Identity::from_pem(&identity.cert, &identity.key));
    }
    Endpoint::from_shared(format!("https://{}", server.address))
        .unwrap()
        .tls_config(tls)?
        .connect()
        .await
}

async fn solve_over(channel: Channel) -> Result<String, tonic::Status> {
    let request = SolveRequest {
        puzzle: CLASSIC.to_string(),
    };
    let response = SudokuServiceClient::new(channel).solve(request).await?;
    Ok(response.into_inner().solution)
}

/// Solve, health and reflection all answer over `channel`.
async fn everything_answers(channel: Channel) {
    assert_eq!(solve_over(channel.clone()).await.unwrap(), CLASSIC_SOLUTION);
    let health = HealthClient::new(channel.clone())
        .check(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(health.status(), ServingStatus::Serving);
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut responses = ServerReflectionClient::new(channel)
        .server_reflection_info(tokio_stream::once(request))
        .await
        .unwrap()
        .into_inner();
    let Some(MessageResponse::ListServicesResponse(list)) =
        responses.message().await.unwrap().unwrap().message_response
    else {
        panic!("expected a service list");
    };
    assert!(
        list.service
            .iter()
            .any(|service| service.name == "sudoku.v1.SudokuService")
    );
}

/// Whether a client on this channel (or its connection attempt) is turned away.
async fn is_refused(channel: Result<Channel, tonic::transport::Error>) -> bool {
    match channel {
        Err(_) => true,
        Ok(channel) => solve_over(channel).await.is_err(),
    }
}

#[tokio::test]
async fn tls_serves_solve_health_and_reflection() {
    let ca = Authority::new("test CA");
    let server = tls_server(&ca, None).await;
    everything_answers(tls_channel(&server, &ca, None).await.unwrap()).await;
}

#[tokio::test]
async fn a_plaintext_client_is_refused_by_a_tls_server() {
    let ca = Authority::new("test CA");
    let server = tls_server(&ca, None).await;
    let plaintext = Endpoint::from_shared(server.url()).unwrap().connect().await;
    assert!(is_refused(plaintext).await);
}

#[tokio::test]
async fn a_client_that_does_not_trust_the_server_refuses_it() {
    let ca = Authority::new("test CA");
    let stranger = Authority::new("another CA");
    let server = tls_server(&ca, None).await;
    assert!(is_refused(tls_channel(&server, &stranger, None).await).await);
}

#[tokio::test]
async fn mutual_tls_admits_only_clients_with_a_certificate_from_its_ca() {
    let ca = Authority::new("test CA");
    let clients = Authority::new("client CA");
    let stranger = Authority::new("another CA");
    let server = tls_server(&ca, Some(&clients)).await;

    let admitted = clients.issue(&["client.example"]);
    everything_answers(tls_channel(&server, &ca, Some(&admitted)).await.unwrap()).await;

    assert!(
        is_refused(tls_channel(&server, &ca, None).await).await,
        "no client certificate"
    );
    let foreign = stranger.issue(&["client.example"]);
    assert!(
        is_refused(tls_channel(&server, &ca, Some(&foreign)).await).await,
        "a certificate from another CA"
    );
}

#[tokio::test]
async fn the_command_line_speaks_tls_and_mutual_tls() {
    let ca = Authority::new("test CA");
    let clients = Authority::new("client CA");
    let server = tls_server(&ca, Some(&clients)).await;
    let address = server.address.to_string();
    let ca_file = file("ca", &ca.pem);
    let identity = clients.issue(&["client.example"]);
    let (cert, key) = (file("cert", &identity.cert), file("key", &identity.key));
    let tls_flags = [
        "--server",
        address.as_str(),
        "--tls-ca",
        ca_file.to_str().unwrap(),
        "--tls-domain",
        "localhost",
    ];
    let identity_flags = [
        "--tls-cert",
        cert.to_str().unwrap(),
        "--tls-key",
        key.to_str().unwrap(),
    ];

    // The command line runs on a blocking thread: the server it talks to
    // runs on this test's runtime.
    let run = |args: Vec<&str>| {
        let args: Vec<String> = args.into_iter().map(String::from).collect();
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            run_sudoku(&args, "")
        })
    };
    let mut solve = vec!["solve", CLASSIC];
    solve.extend(tls_flags);
    solve.extend(identity_flags);
    let output = run(solve.clone()).await.unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains(CLASSIC_SOLUTION));

    let mut health = vec!["health"];
    health.extend(tls_flags);
    health.extend(identity_flags);
    let output = run(health).await.unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).trim(), "SERVING");

    // Without its certificate the command line is turned away: exit code 3.
    let mut anonymous = vec!["solve", CLASSIC];
    anonymous.extend(tls_flags);
    let output = run(anonymous).await.unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", text(&output.stdout));
}
