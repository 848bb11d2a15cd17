//! The server bootstrap: listener, services, health, reflection, shutdown.
//!
//! [`serve`] takes the listener, the worker pool and the shutdown signal from
//! its caller, so tests bind `127.0.0.1:0` and stop the server with a
//! oneshot while the binary binds the configured address and stops on
//! SIGTERM or SIGINT ([`shutdown_signal`]).

mod deadline;
mod settings;

use std::future::Future;

use tokio::net::TcpListener;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tonic_health::ServingStatus;

pub use deadline::DeadlineLayer;
pub use settings::{Settings, available_cores, parse_duration};

use crate::pb;
use crate::pb::sudoku_service_server::SERVICE_NAME;
use crate::pool::WorkerPool;
use crate::service::SudokuService;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The reflection service rejected a descriptor set (a build problem).
    #[error("server reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The transport failed.
    #[error("transport: {0}")]
    Transport(#[from] tonic::transport::Error),
    /// Listening failed.
    #[error("listener: {0}")]
    Io(#[from] std::io::Error),
}

/// Serves sudoku.v1, health and reflection on `listener` until `shutdown`
/// completes, then drains: health turns NOT_SERVING, no new connections are
/// accepted, and calls in flight get `settings.drain_timeout` to finish.
pub async fn serve(
    listener: TcpListener,
    settings: &Settings,
    pool: WorkerPool,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServerError> {
    let address = listener.local_addr()?;
    let (health, health_service) = tonic_health::server::health_reporter();
    health
        .set_service_status(SERVICE_NAME, ServingStatus::Serving)
        .await;

    let sudoku = SudokuService::new(pool.clone(), settings.stream_window.get())
        .into_server(settings.max_message_bytes);
    let reflection = reflection_builder().build_v1()?;
    let reflection_v1alpha = reflection_builder().build_v1alpha()?;

    let (draining, drain_started) = tokio::sync::oneshot::channel::<()>();
    let stop_accepting = async move {
        shutdown.await;
        tracing::info!("shutting down: health NOT_SERVING, draining calls in flight");
        health
            .set_service_status("", ServingStatus::NotServing)
            .await;
        health
            .set_service_status(SERVICE_NAME, ServingStatus::NotServing)
            .await;
        let _ = draining.send(());
    };

    tracing::info!(
        %address,
        workers = pool.stats().workers,
        queue_depth = settings.queue_depth,
        stream_window = settings.stream_window,
        max_message_bytes = settings.max_message_bytes,
        drain_timeout = ?settings.drain_timeout,
        "sudoku-server listening"
    );
    let server = Server::builder()
        .layer(DeadlineLayer)
        .add_service(health_service)
        .add_service(reflection)
        .add_service(reflection_v1alpha)
        .add_service(sudoku)
        .serve_with_incoming_shutdown(
            TcpIncoming::from(listener).with_nodelay(Some(true)),
            stop_accepting,
        );
    let drain_deadline = async {
        if drain_started.await.is_ok() {
            tokio::time::sleep(settings.drain_timeout).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = server => result?,
        () = drain_deadline => tracing::warn!(
            timeout = ?settings.drain_timeout,
            "drain timeout passed; closing the calls still open"
        ),
    }
    tracing::info!("sudoku-server stopped");
    Ok(())
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

/// Logs to stderr, filtered by `RUST_LOG` (default `info`).
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
}
