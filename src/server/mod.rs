//! The server bootstrap: listener, services, health, reflection, shutdown.
//!
//! [`serve`] takes the listener, the worker pool and the shutdown signal from
//! its caller, so tests bind `127.0.0.1:0` and stop the server with a
//! oneshot while the binary binds the configured address and stops on
//! SIGTERM or SIGINT ([`shutdown_signal`]).

mod deadline;
mod inbound;
mod metrics_endpoint;
mod settings;

use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::watch;
use tonic::transport::server::TcpIncoming;
use tonic::transport::{Certificate, Identity, Server, ServerTlsConfig};
use tonic_health::ServingStatus;

pub use deadline::DeadlineLayer;
pub use inbound::InboundErrorLayer;
pub use metrics_endpoint::serve_metrics;
pub use settings::{LogFormat, Settings, parse_duration};

use crate::pb;
use crate::pb::sudoku_service_server::SERVICE_NAME;
use crate::pool::WorkerPool;
use crate::service::{Metrics, SudokuService};

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The reflection service rejected a descriptor set (a build problem).
    #[error("server reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The transport failed, or rejected the TLS configuration.
    #[error("transport: {0}")]
    Transport(#[from] tonic::transport::Error),
    /// Listening failed.
    #[error("listener: {0}")]
    Io(#[from] std::io::Error),
    /// An address could not be listened on.
    #[error("cannot listen on {address}: {source}")]
    Bind {
        /// The address.
        address: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// A TLS certificate or key file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    TlsFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The sockets the server listens on: gRPC, and optionally metrics.
pub struct Listeners {
    /// sudoku.v1, health and reflection.
    pub grpc: TcpListener,
    /// The Prometheus endpoint, if enabled.
    pub metrics: Option<TcpListener>,
}

impl Listeners {
    /// Binds the addresses of `--listen` and `--metrics-listen`.
    pub async fn bind(settings: &Settings) -> Result<Listeners, ServerError> {
        let bind = |address: SocketAddr| async move {
            TcpListener::bind(address)
                .await
                .map_err(|source| ServerError::Bind { address, source })
        };
        let grpc = bind(settings.listen).await?;
        let metrics = match settings.metrics_listen {
            Some(address) => Some(bind(address).await?),
            None => None,
        };
        Ok(Listeners { grpc, metrics })
    }
}

impl From<TcpListener> for Listeners {
    fn from(grpc: TcpListener) -> Self {
        Listeners {
            grpc,
            metrics: None,
        }
    }
}

/// Serves sudoku.v1, health and reflection on `listeners` until `shutdown`
/// completes, then drains: health turns NOT_SERVING, no new connections or
/// streams are accepted, open streams answer what they have taken in and
/// end with UNAVAILABLE, and calls in flight get `settings.drain_timeout`
/// to finish.
pub async fn serve(
    listeners: impl Into<Listeners>,
    settings: &Settings,
    pool: WorkerPool,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServerError> {
    let listeners = listeners.into();
    let workers = pool.stats().workers;
    let address = listeners.grpc.local_addr()?;
    let tls = tls_config(settings)?;
    let (health, health_service) = tonic_health::server::health_reporter();
    health
        .set_service_status(SERVICE_NAME, ServingStatus::Serving)
        .await;

    let metrics = Arc::new(Metrics::new());
    let (start_draining, draining) = watch::channel(false);
    let draining_signal = draining.clone();
    let sudoku = SudokuService::new(pool.clone(), settings.limits(), metrics.clone(), draining)
        .into_server();
    let reflection = reflection_builder().build_v1()?;
    let reflection_v1alpha = reflection_builder().build_v1alpha()?;

    let stop_accepting = async move {
        shutdown.await;
        tracing::info!("shutting down: health NOT_SERVING, draining calls in flight");
        health
            .set_service_status("", ServingStatus::NotServing)
            .await;
        health
            .set_service_status(SERVICE_NAME, ServingStatus::NotServing)
            .await;
        let _ = start_draining.send(true);
    };

    let (stop_metrics, metrics_stopped) = tokio::sync::oneshot::channel::<()>();
    let metrics_address = match listeners.metrics {
        Some(listener) => {
            let metrics_address = listener.local_addr()?;
            let stopped = async {
                let _ = metrics_stopped.await;
            };
            tokio::spawn(async move {
                if let Err(error) = serve_metrics(listener, metrics, pool, stopped).await {
                    tracing::error!(%error, "metrics endpoint failed");
                }
            });
            Some(metrics_address)
        }
        None => None,
    };

    tracing::info!(
        %address,
        tls = tls.is_some(),
        mutual_tls = settings.tls_client_ca.is_some(),
        metrics = %metrics_address.map_or_else(|| "off".to_string(), |address| address.to_string()),
        workers,
        queue_depth = settings.queue_depth,
        stream_window = settings.stream_window,
        max_open_streams = settings.max_open_streams,
        max_message_bytes = settings.max_message_bytes,
        drain_timeout = ?settings.drain_timeout,
        "sudoku-server listening"
    );
    let mut builder = Server::builder()
        .max_concurrent_streams(Some(settings.max_concurrent_streams))
        .http2_keepalive_interval(nonzero(settings.keepalive_interval))
        .http2_keepalive_timeout(nonzero(settings.keepalive_timeout));
    if let Some(tls) = tls {
        builder = builder.tls_config(tls)?;
    }
    let server = builder
        .layer(InboundErrorLayer)
        .layer(DeadlineLayer)
        .add_service(health_service)
        .add_service(reflection)
        .add_service(reflection_v1alpha)
        .add_service(sudoku)
        .serve_with_incoming_shutdown(
            TcpIncoming::from(listeners.grpc).with_nodelay(Some(true)),
            stop_accepting,
        );
    // The drain clock starts with the draining signal (never, if the server
    // stops without one).
    let mut drain_started = draining_signal;
    let drain_deadline = async move {
        if drain_started.wait_for(|draining| *draining).await.is_ok() {
            tokio::time::sleep(settings.drain_timeout).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    let result = tokio::select! {
        result = server => result.map_err(ServerError::from),
        () = drain_deadline => {
            tracing::warn!(
                timeout = ?settings.drain_timeout,
                "drain timeout passed; closing the calls still open"
            );
            Ok(())
        }
    };
    let _ = stop_metrics.send(());
    tracing::info!("sudoku-server stopped");
    result
}

/// `None` for a zero duration (the feature is off).
fn nonzero(duration: Duration) -> Option<Duration> {
    (!duration.is_zero()).then_some(duration)
}

/// The TLS configuration of `--tls-cert`, `--tls-key` and
/// `--tls-client-ca`, or `None` to serve plaintext.
fn tls_config(settings: &Settings) -> Result<Option<ServerTlsConfig>, ServerError> {
    let (Some(cert), Some(key)) = (&settings.tls_cert, &settings.tls_key) else {
        return Ok(None);
    };
    let identity = Identity::from_pem(read_pem(cert)?, read_pem(key)?);
    let mut config = ServerTlsConfig::new().identity(identity);
    if let Some(client_ca) = &settings.tls_client_ca {
        config = config.client_ca_root(Certificate::from_pem(read_pem(client_ca)?));
    }
    Ok(Some(config))
}

fn read_pem(path: &Path) -> Result<Vec<u8>, ServerError> {
    std::fs::read(path).map_err(|source| ServerError::TlsFile {
        path: path.to_path_buf(),
        source,
    })
}

/// Reflection over sudoku.v1, grpc.health.v1 and google.rpc (so that
/// clients can decode error details). tonic-types' copy of
/// `google/rpc/status.proto` is registered first and wins over ours.
fn reflection_builder() -> tonic_reflection::server::Builder<'static> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(tonic_types::pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
}

/// Completes on SIGINT (Ctrl-C) or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for SIGINT");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut stream) => {
                stream.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("received SIGINT"),
        () = terminate => tracing::info!("received SIGTERM"),
    }
}

/// Logs to stderr in `format`, filtered by `RUST_LOG` (default `info`).
pub fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => logs
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
        LogFormat::Json => logs.json().with_current_span(false).init(),
    }
}
