//! The server bootstrap: listener, connections, services, health,
//! reflection, metrics, shutdown.
//!
//! [`serve`] takes the listener, the worker pool and the shutdown signal from
//! its caller, so tests bind `127.0.0.1:0` and stop the server with a
//! oneshot while the binary binds the configured address and stops on
//! SIGTERM or SIGINT ([`shutdown_signal`]).
//!
//! What a client may make the server hold is capped at each way in:
//! connections ([`connections`]: how many, how long before a first call,
//! TLS handshakes), calls ([`calls`]: how many in flight, deadlines), and,
//! in the service, the bytes and puzzles of what they send. [`memory`]
//! derives the worst case from the settings, and the startup line prints
//! it.

mod call_end;
mod calls;
mod connections;
mod health;
pub mod http1;
pub mod memory;
mod metrics_endpoint;
mod process;
mod reflection;
mod settings;
mod tls;
pub mod web;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};
use tonic::transport::Server;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

pub use calls::{HEALTH_CHECK_CALLS, OTHER_CALLS, SIDE_CALLS};
pub use memory::MemoryBound;
pub use metrics_endpoint::{
    HEADER_TIMEOUT as METRICS_HEADER_TIMEOUT, METRICS_CONNECTIONS, serve_metrics,
};
pub use process::{init_logging, shutdown_signal};
pub use settings::{LogFormat, Settings, SettingsError, defaults};

use crate::pb;
use crate::pb::sudoku_service_server::SERVICE_NAME;
use crate::pool::WorkerPool;
use crate::service::{ByteBudget, Metrics, SudokuService};
use calls::CallPolicyLayer;
use connections::ConnectionOptions;
use reflection::GuardedReflection;
use web::{CorsGateLayer, WebAssets, WebPageLayer};

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The settings cannot work (a zero or absurd limit, say).
    #[error("invalid settings: {0}")]
    Settings(#[from] SettingsError),
    /// The reflection service rejected a descriptor set (a build problem).
    #[error("server reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The transport failed.
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
    /// The TLS certificates or key cannot be used.
    #[error("TLS: {0}")]
    Tls(String),
    /// `--web-dir` cannot be served.
    #[error("--web-dir: {0}")]
    WebDir(#[from] web::WebDirError),
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

/// Serves sudoku.v1, health and reflection on `listeners` (over HTTP/2, and
/// over gRPC-Web beside the web page on HTTP/1.1) until `shutdown`
/// completes, then drains: health turns NOT_SERVING, no new connections or
/// streams are accepted, open streams answer what they have taken in and
/// end with UNAVAILABLE, and calls in flight get `settings.drain_timeout`
/// to finish. Fails at once if the settings cannot work.
pub async fn serve(
    listeners: impl Into<Listeners>,
    settings: &Settings,
    pool: WorkerPool,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServerError> {
    settings.validate()?;
    let listeners = listeners.into();
    let address = listeners.grpc.local_addr()?;
    let tls = tls::acceptor(settings)?;
    let page = web_page(settings)?;
    let metrics = Arc::new(Metrics::new());
    let (start_draining, draining) = watch::channel(false);
    let health = HealthReporter::new();
    health
        .set_service_status(SERVICE_NAME, ServingStatus::Serving)
        .await;
    let health_service = health::health_server(&health, draining.clone());
    let sudoku = SudokuService::new(
        pool.clone(),
        settings.limits,
        metrics.clone(),
        draining.clone(),
    );

    let (stop_metrics, metrics_stopped) = oneshot::channel();
    let metrics_address = start_metrics(
        listeners.metrics,
        (&metrics, &pool, (sudoku.budget(), sudoku.batch_budget())),
        metrics_stopped,
    )?;
    log_startup(
        settings,
        address,
        metrics_address,
        pool.stats().workers,
        tls.is_some(),
    );

    let options = ConnectionOptions {
        max_connections: settings.max_connections as usize,
        first_call_timeout: settings.limits.first_call_timeout,
        tls,
    };
    let (incoming, http1_incoming) =
        connections::incoming(listeners.grpc, options, metrics.clone());
    let routes = tonic::service::Routes::new(health_service)
        .add_service(GuardedReflection::new(
            reflection_builder().build_v1()?,
            settings.limits.first_call_timeout,
            draining.clone(),
        ))
        .add_service(GuardedReflection::new(
            reflection_builder().build_v1alpha()?,
            settings.limits.first_call_timeout,
            draining.clone(),
        ))
        .add_service(sudoku.into_server())
        .prepare();
    let layers = tower::ServiceBuilder::new()
        .layer(page)
        .layer(CorsGateLayer::new(cors_origins(settings)))
        .layer(tonic_web::GrpcWebLayer::new())
        .layer(CallPolicyLayer::new(
            settings.max_calls as usize,
            settings.limits.max_batch_calls,
            settings.limits.first_call_timeout,
            metrics,
        ));
    let http1 = http1::serve(
        http1_incoming,
        layers.service(routes.clone()),
        settings.limits.first_call_timeout,
        draining.clone(),
    );
    let http2 = http2_server(settings)
        .layer(layers)
        .add_routes(routes)
        .serve_with_incoming_shutdown(incoming, stop_accepting(shutdown, health, start_draining));
    let server = async {
        let (http2, ()) = tokio::join!(http2, http1);
        http2
    };
    let result = drain(server, draining, settings.drain_timeout).await;
    let _ = stop_metrics.send(());
    tracing::info!("sudoku-server stopped");
    result
}

/// The most header bytes a call may send (HTTP/2's SETTINGS_MAX_HEADER_LIST_SIZE):
/// gRPC's own headers take a few hundred bytes, and a call keeps its headers
/// for as long as it runs, so they count in [`memory::CALL_BYTES`].
pub const MAX_HEADER_LIST_BYTES: u32 = 8 * 1024;

/// The HTTP/2 transport with the connection-level settings: calls per
/// connection, header size, receive windows, keepalive pings. (HTTP/1.1
/// connections are served by [`http1`].)
fn http2_server(settings: &Settings) -> Server {
    Server::builder()
        .max_concurrent_streams(Some(settings.max_concurrent_streams))
        .http2_max_header_list_size(MAX_HEADER_LIST_BYTES)
        .initial_connection_window_size(settings.connection_window_bytes)
        .initial_stream_window_size(settings.call_window_bytes())
        .http2_keepalive_interval(nonzero(settings.keepalive_interval))
        .http2_keepalive_timeout(nonzero(settings.keepalive_timeout))
}

/// The page's files (`None` if `--web false`): the built-in copy, or
/// `--web-dir`'s, read now.
fn web_page(settings: &Settings) -> Result<WebPageLayer, ServerError> {
    let assets = match (&settings.web, &settings.web_dir) {
        (false, _) => None,
        (true, None) => Some(WebAssets::embedded()),
        (true, Some(dir)) => Some(WebAssets::from_dir(dir)?),
    };
    if assets.as_ref().is_some_and(|assets| !assets.has_page()) {
        tracing::warn!("the web page has no index.html: this binary was built without web/dist");
    }
    Ok(WebPageLayer::new(assets))
}

/// `--cors-allow-origin`, as header values (checked by `validate`).
fn cors_origins(settings: &Settings) -> Vec<http::HeaderValue> {
    settings
        .cors_allow_origin
        .iter()
        .filter_map(|origin| http::HeaderValue::from_str(origin).ok())
        .collect()
}

/// Waits for `shutdown`, then turns health NOT_SERVING and tells the
/// streams to drain; tonic stops accepting once this completes.
async fn stop_accepting(
    shutdown: impl Future<Output = ()>,
    health: HealthReporter,
    start_draining: watch::Sender<bool>,
) {
    shutdown.await;
    tracing::info!("shutting down: health NOT_SERVING, draining calls in flight");
    health
        .set_service_status("", ServingStatus::NotServing)
        .await;
    health
        .set_service_status(SERVICE_NAME, ServingStatus::NotServing)
        .await;
    let _ = start_draining.send(true);
}

/// Runs the server until it has drained, or until the drain timeout has
/// passed since draining began (the clock never starts if the server stops
/// without draining).
async fn drain(
    server: impl Future<Output = Result<(), tonic::transport::Error>>,
    mut draining: watch::Receiver<bool>,
    drain_timeout: Duration,
) -> Result<(), ServerError> {
    let deadline = async move {
        if draining.wait_for(|draining| *draining).await.is_ok() {
            tokio::time::sleep(drain_timeout).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = server => result.map_err(ServerError::from),
        () = deadline => {
            tracing::warn!(timeout = ?drain_timeout, "drain timeout passed; closing the calls still open");
            Ok(())
        }
    }
}

/// Starts the Prometheus endpoint if it has a listener, on what it reports
/// (the service's metrics, the pool, the byte budgets); its address.
fn start_metrics(
    listener: Option<TcpListener>,
    (metrics, pool, budgets): (&Arc<Metrics>, &WorkerPool, (&ByteBudget, &ByteBudget)),
    stopped: oneshot::Receiver<()>,
) -> Result<Option<SocketAddr>, ServerError> {
    let Some(listener) = listener else {
        return Ok(None);
    };
    let address = listener.local_addr()?;
    let (metrics, pool) = (metrics.clone(), pool.clone());
    let budgets = (budgets.0.clone(), budgets.1.clone());
    tokio::spawn(async move {
        let stopped = async {
            let _ = stopped.await;
        };
        if let Err(error) = serve_metrics(listener, metrics, pool, budgets, stopped).await {
            tracing::error!(%error, "metrics endpoint failed");
        }
    });
    Ok(Some(address))
}

/// The startup line: where the server listens, its limits, and the most
/// memory clients can make it hold.
fn log_startup(
    settings: &Settings,
    address: SocketAddr,
    metrics: Option<SocketAddr>,
    workers: usize,
    tls: bool,
) {
    let bound = MemoryBound::of(settings);
    tracing::info!(
        %address,
        tls,
        mutual_tls = settings.tls_client_ca.is_some(),
        metrics = %metrics.map_or_else(|| "off".to_string(), |address| address.to_string()),
        workers,
        queue_depth = settings.queue_depth,
        max_calls = settings.max_calls,
        max_connections = settings.max_connections,
        limits = %settings.limits,
        drain_timeout = ?settings.drain_timeout,
        web = settings.web,
        cors_allow_origin = ?settings.cors_allow_origin,
        memory_bound_bytes = bound.total(),
        memory_bound = %bound,
        "sudoku-server listening"
    );
}

/// `None` for a zero duration (the feature is off).
fn nonzero(duration: Duration) -> Option<Duration> {
    (!duration.is_zero()).then_some(duration)
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
