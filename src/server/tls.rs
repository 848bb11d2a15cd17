//! TLS on the gRPC port, with rustls: the server's certificate, client
//! certificates for mutual TLS, and HTTP/2 (or, for gRPC-Web and the web
//! page, HTTP/1.1) chosen by ALPN.
//!
//! The server runs the handshakes itself rather than leaving them to tonic,
//! for two reasons: a handshake is part of a connection's first-call clock,
//! so a client that opens TCP and never finishes TLS is closed like an idle
//! one; and a refused handshake is logged with its reason (a client
//! certificate from another CA, or one rustls will not read, such as an
//! X.509 version 1 certificate), where otherwise the server is silent and
//! the client sees only "broken pipe".

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::server::WebPkiClientVerifier;
use tokio_rustls::rustls::{RootCertStore, ServerConfig, crypto};

use super::{ServerError, Settings};
use crate::log_limit::LogLimit;

/// At most one log line a second about refused handshakes; the metrics
/// count every one.
static HANDSHAKE_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// The acceptor for `--tls-cert`, `--tls-key` and `--tls-client-ca`, or
/// `None` to serve plaintext.
pub fn acceptor(settings: &Settings) -> Result<Option<TlsAcceptor>, ServerError> {
    let (Some(cert), Some(key)) = (&settings.tls_cert, &settings.tls_key) else {
        return Ok(None);
    };
    let provider = Arc::new(crypto::ring::default_provider());
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|error| ServerError::Tls(error.to_string()))?;
    let builder = match &settings.tls_client_ca {
        None => builder.with_no_client_auth(),
        Some(client_ca) => {
            let mut roots = RootCertStore::empty();
            for certificate in read_certificates(client_ca)? {
                roots.add(certificate).map_err(|error| {
                    ServerError::Tls(format!("{}: {error}", client_ca.display()))
                })?;
            }
            let verifier = WebPkiClientVerifier::builder_with_provider(roots.into(), provider)
                .build()
                .map_err(|error| ServerError::Tls(format!("{}: {error}", client_ca.display())))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let mut config = builder
        .with_single_cert(read_certificates(cert)?, read_key(key)?)
        .map_err(|error| ServerError::Tls(format!("{}: {error}", cert.display())))?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Some(TlsAcceptor::from(Arc::new(config))))
}

/// Logs a handshake that failed, at most once a second, with how many
/// were left out since the last line.
pub fn log_refused_handshake(peer: std::net::SocketAddr, reason: &str) {
    if let Some(suppressed) = HANDSHAKE_LOG.check() {
        tracing::warn!(%peer, reason, suppressed, "TLS handshake refused");
    }
}

fn read_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, ServerError> {
    let pem = read(path)?;
    let certificates = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| ServerError::Tls(format!("{}: {error}", path.display())))?;
    if certificates.is_empty() {
        return Err(ServerError::Tls(format!(
            "{}: no PEM certificate in it",
            path.display()
        )));
    }
    Ok(certificates)
}

fn read_key(path: &Path) -> Result<PrivateKeyDer<'static>, ServerError> {
    PrivateKeyDer::from_pem_slice(&read(path)?)
        .map_err(|error| ServerError::Tls(format!("{}: {error}", path.display())))
}

fn read(path: &Path) -> Result<Vec<u8>, ServerError> {
    std::fs::read(path).map_err(|source| ServerError::TlsFile {
        path: path.to_path_buf(),
        source,
    })
}
