//! TLS and mutual TLS, with certificates made at test time: a TLS server
//! answers Solve, health and reflection; plaintext clients are refused;
//! with mTLS, clients without a certificate or with one from another CA
//! are refused. The `sudoku` command line's TLS flags are checked against
//! the same servers. A browser that asks ALPN for HTTP/1.1 gets the page
//! and gRPC-Web. A `dns:` target checks the certificate against its name.

use std::time::Duration;

use crate::common::process::{ServerProcess, accounted_in, lines_with, run_sudoku, text};
use crate::common::tls::{Authority, Pem, TlsFiles, file};
use crate::common::{CLASSIC, CLASSIC_SOLUTION, TestServer};
use sudoku_grpc::client::{self, ConnectOptions};
use sudoku_grpc::pb::SolveRequest;
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::server::Settings;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::v1::ServerReflectionRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

/// A TLS server in this process, with the files it was started from.
struct TlsServer {
    server: TestServer,
    _files: TlsFiles,
}

impl std::ops::Deref for TlsServer {
    type Target = TestServer;

    fn deref(&self) -> &TestServer {
        &self.server
    }
}

/// A TLS server with a certificate for localhost and 127.0.0.1 from `ca`;
/// with `client_ca`, it requires client certificates signed by it.
async fn tls_server(ca: &Authority, client_ca: Option<&Authority>) -> TlsServer {
    let files = TlsFiles::new(ca, client_ca);
    let settings = Settings {
        tls_cert: Some(files.cert.to_path_buf()),
        tls_key: Some(files.key.to_path_buf()),
        tls_client_ca: files.client_ca.as_ref().map(|path| path.to_path_buf()),
        ..Settings::default()
    };
    let server = TestServer::start(settings, 2, 16).await;
    // The server reads its files as it starts: answering a call shows it has.
    assert!(
        TcpStream::connect(server.address).await.is_ok(),
        "the TLS server listens"
    );
    TlsServer {
        server,
        _files: files,
    }
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
        grade: false,
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
async fn a_dns_target_checks_the_certificate_against_the_name_not_the_address() {
    let ca = Authority::new("test CA");
    // For the name alone: checked against the address 127.0.0.1, it fails.
    let named = ca.issue(&["localhost"]);
    let (cert, key) = (file("cert", &named.cert), file("key", &named.key));
    let settings = Settings {
        tls_cert: Some(cert.to_path_buf()),
        tls_key: Some(key.to_path_buf()),
        ..Settings::default()
    };
    let server = TestServer::start(settings, 1, 16).await;
    let options = ConnectOptions {
        tls: Some(ClientTlsConfig::new().ca_certificate(Certificate::from_pem(&ca.pem))),
        ..ConnectOptions::default()
    };

    let target = format!("dns:///localhost:{}", server.address.port());
    let channel = client::connect(&target, &options).await.unwrap();
    assert_eq!(solve_over(channel).await.unwrap(), CLASSIC_SOLUTION);

    let by_address = client::connect(&server.address.to_string(), &options).await;
    let refused = match by_address {
        Err(_) => true,
        Ok(channel) => solve_over(channel).await.is_err(),
    };
    assert!(refused, "the certificate does not name 127.0.0.1");
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
    let refused = text(&output.stderr);
    // TLS 1.3 refuses the certificate after the handshake, from the
    // client's side: the alert, or the connection closed first.
    assert!(refused.contains("(--tls-cert and --tls-key)"), "{refused}");
    let mut health = vec!["health"];
    health.extend(tls_flags);
    let output = run(health).await.unwrap();
    assert_eq!(output.status.code(), Some(3));
    let refused = text(&output.stderr);
    assert!(!refused.contains("the server answered"), "{refused}");

    // Without TLS, the command line says what a TLS server needs, in a
    // one-puzzle call, a health check and a file run alike.
    let puzzles = file("puzzles", &format!("{CLASSIC}\n"));
    for plain in [
        vec!["solve", CLASSIC, "--server", address.as_str()],
        vec!["health", "--server", address.as_str()],
        vec![
            "solve",
            puzzles.to_str().unwrap(),
            "--server",
            address.as_str(),
            "--retries",
            "0",
        ],
    ] {
        let output = run(plain.clone()).await.unwrap();
        assert_eq!(output.status.code(), Some(3), "{plain:?}");
        let failed = text(&output.stderr);
        assert!(
            failed.contains("(--tls-ca FILE or an https:// address)"),
            "{plain:?}: {failed}"
        );
        assert!(
            !failed.contains("the server answered"),
            "{plain:?}: {failed}"
        );
    }
}

/// Refused handshakes are logged with the reason, at most once a second,
/// and a client that opens TCP but never starts TLS is closed at the
/// first-call timeout.
#[tokio::test]
async fn a_refused_handshake_is_logged_with_its_reason() {
    let ca = Authority::new("test CA");
    let clients = Authority::new("client CA");
    let stranger = Authority::new("another CA");
    let files = TlsFiles::new(&ca, Some(&clients));
    let mut flags = files.flags();
    flags.extend(["--first-call-timeout".to_string(), "1s".to_string()]);
    let server = ServerProcess::start_async(&flags).await;
    let address = server.address.clone();
    let connect = |identity: Option<Pem>| {
        let (ca, address) = (ca.pem.clone(), address.clone());
        async move {
            let mut tls = ClientTlsConfig::new()
                .ca_certificate(Certificate::from_pem(&ca))
                .domain_name("localhost");
            if let Some(identity) = identity {
                tls = tls.identity(Identity::from_pem(&identity.cert, &identity.key));
            }
            let endpoint = Endpoint::from_shared(format!("https://{address}"))
                .unwrap()
                .tls_config(tls)
                .unwrap();
            is_refused(endpoint.connect().await).await
        }
    };
    assert!(connect(Some(stranger.issue(&["client.example"]))).await);
    let line = first_refusal(&server);
    assert!(line.contains("peer=127.0.0.1:"), "{line}");
    assert!(
        line.to_lowercase().contains("certificate"),
        "the reason: {line}"
    );

    // Refusals in quick succession are counted, not each logged: at most
    // one line a second.
    let started = std::time::Instant::now();
    for _ in 0..5 {
        assert!(connect(None).await);
    }
    let seconds = started.elapsed().as_secs() as usize;

    // A client that never starts its handshake is closed and logged, with
    // the refusals left out before it. Its line comes a first-call timeout
    // after the others, so once it is in the log, theirs are too.
    let mut silent = TcpStream::connect(&address).await.unwrap();
    let mut byte = [0u8; 1];
    let closed = tokio::time::timeout(Duration::from_secs(5), silent.read(&mut byte)).await;
    assert!(matches!(closed, Ok(Ok(0)) | Ok(Err(_))), "{closed:?}");
    assert!(
        server.wait_for_log("did not finish within --first-call-timeout"),
        "{}",
        server.log()
    );
    let log = server.log();
    // The silent client's line is a refused handshake too.
    let lines = lines_with(&log, "TLS handshake refused");
    assert!(
        lines <= 3 + seconds,
        "{lines} lines for 6 refusals and the silent client: {log}"
    );
    // Every refusal is either logged or counted in the next line logged (a
    // client may try more than once: at least seven).
    let accounted = accounted_in(&log, "TLS handshake refused");
    assert!(accounted >= 7, "six refusals and one silent client: {log}");
    assert!(
        accounted > lines,
        "some refusals were counted, not logged: {log}"
    );

    // The one with a certificate from the right CA is served.
    assert!(!connect(Some(clients.issue(&["client.example"]))).await);
}

/// The first "TLS handshake refused" line of the server's log, once it
/// has one.
fn first_refusal(server: &ServerProcess) -> String {
    assert!(
        server.wait_for_log("TLS handshake refused"),
        "{}",
        server.log()
    );
    let log = server.log();
    let line = log
        .lines()
        .find(|line| line.contains("TLS handshake refused"));
    line.unwrap().to_string()
}

/// A client certificate of X.509 version 1 (which rustls refuses to read)
/// and the CA that signed it, made once with `openssl x509 -req` (which
/// writes version 1 when given no extensions); valid until 2126.
fn v1_client_files() -> (String, Pem) {
    let read = |name: &str| {
        let path = format!("{}/tests/data/tls-v1/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
    };
    let identity = Pem {
        cert: read("client.pem"),
        key: read("client-key.pem"),
    };
    (read("ca.pem"), identity)
}

#[tokio::test]
async fn a_client_certificate_of_x509_version_1_is_refused_and_the_log_says_why() {
    let ca = Authority::new("test CA");
    let (v1_ca, v1_client) = v1_client_files();
    let v1_ca = file("v1-ca", &v1_ca);
    let files = TlsFiles::new(&ca, None);
    let mut flags = files.flags();
    flags.extend([
        "--tls-client-ca".to_string(),
        v1_ca.to_str().unwrap().to_string(),
    ]);
    let server = ServerProcess::start_async(&flags).await;
    // tonic's client (rustls) will not even load a version 1 certificate:
    // present it through a certificate resolver that does not look at it,
    // as clients built on other TLS libraries do.
    present_certificate(&server.address, &ca.pem, &v1_client).await;
    let line = first_refusal(&server);
    assert!(
        line.contains("UnsupportedCertVersion"),
        "the reason: {line}"
    );
}

/// A TLS client that presents `identity` without checking it, as an
/// OpenSSL-based client would, and reads until the server hangs up.
async fn present_certificate(address: &str, ca: &str, identity: &Pem) {
    use tokio_rustls::rustls::client::ResolvesClientCert;
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
    use tokio_rustls::rustls::sign::CertifiedKey;
    use tokio_rustls::rustls::{ClientConfig, RootCertStore, SignatureScheme, crypto};

    #[derive(Debug)]
    struct Unchecked(std::sync::Arc<CertifiedKey>);
    impl ResolvesClientCert for Unchecked {
        fn resolve(
            &self,
            _: &[&[u8]],
            _: &[SignatureScheme],
        ) -> Option<std::sync::Arc<CertifiedKey>> {
            Some(self.0.clone())
        }
        fn has_certs(&self) -> bool {
            true
        }
    }

    let provider = std::sync::Arc::new(crypto::ring::default_provider());
    let chain = vec![CertificateDer::from_pem_slice(identity.cert.as_bytes()).unwrap()];
    let key = PrivateKeyDer::from_pem_slice(identity.key.as_bytes()).unwrap();
    let signing_key = provider.key_provider.load_private_key(key).unwrap();
    let mut roots = RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(ca.as_bytes()).unwrap())
        .unwrap();
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_client_cert_resolver(std::sync::Arc::new(Unchecked(std::sync::Arc::new(
            CertifiedKey::new(chain, signing_key),
        ))));
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config));
    let tcp = TcpStream::connect(address).await.unwrap();
    let name = ServerName::try_from("localhost").unwrap();
    if let Ok(mut tls) = connector.connect(name, tcp).await {
        let mut byte = [0u8; 1];
        let _ = tokio::time::timeout(Duration::from_secs(5), tls.read(&mut byte)).await;
    }
}

/// Opens a TLS connection to `server` trusting `ca`, offering HTTP/1.1
/// alone in ALPN, as a browser without HTTP/2 would.
async fn http1_over_tls(
    server: &TestServer,
    ca: &Authority,
) -> tokio_rustls::client::TlsStream<TcpStream> {
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
    use tokio_rustls::rustls::{ClientConfig, RootCertStore};
    let mut roots = RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(ca.pem.as_bytes()).unwrap())
        .unwrap();
    let provider = tokio_rustls::rustls::crypto::ring::default_provider();
    let mut config = ClientConfig::builder_with_provider(provider.into())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config));
    let tcp = TcpStream::connect(server.address).await.unwrap();
    let name = ServerName::try_from("localhost").unwrap();
    connector.connect(name, tcp).await.unwrap()
}

#[tokio::test]
async fn a_browser_speaking_http1_over_tls_gets_the_page_and_grpc_web() {
    use tokio::io::AsyncWriteExt;
    let ca = Authority::new("web test CA");
    let server = tls_server(&ca, None).await;
    let mut page = http1_over_tls(&server, &ca).await;
    assert_eq!(page.get_ref().1.alpn_protocol(), Some(&b"http/1.1"[..]));
    page.write_all(b"GET / HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut response = Vec::new();
    page.read_to_end(&mut response).await.unwrap();
    let response = crate::common::web::parse_response(&response);
    assert_eq!(response.status, 200);
    assert!(response.header("content-security-policy").is_some());

    let mut call = http1_over_tls(&server, &ca).await;
    let request = SolveRequest {
        puzzle: CLASSIC.to_string(),
        grade: false,
    };
    let body = crate::common::web::frame(&request);
    let extra = format!("content-length: {}\r\nconnection: close\r\n", body.len());
    let head = crate::common::web::call_head("Solve", &extra, 0);
    call.write_all(head.as_bytes()).await.unwrap();
    call.write_all(&body).await.unwrap();
    let mut response = Vec::new();
    call.read_to_end(&mut response).await.unwrap();
    let response = crate::common::web::parse_response(&response);
    let answer = crate::common::web::GrpcWebBody::parse(&response.body);
    assert_eq!(answer.status(), Some("0"), "{response:?}");
    let solved: sudoku_grpc::pb::SolveResponse =
        prost::Message::decode(&answer.messages[0][..]).unwrap();
    assert_eq!(solved.solution, CLASSIC_SOLUTION);
}
