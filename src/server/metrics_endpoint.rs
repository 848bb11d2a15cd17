//! The Prometheus endpoint: `GET /metrics` over plain HTTP/1.1 on its own
//! port (`--metrics-listen`), so that scrapers need neither gRPC nor the
//! service's TLS certificates.
//!
//! Scrapers are few, but the port may be reachable by anything in the
//! cluster, so what a client can make it hold is capped as on the main
//! port: [`METRICS_CONNECTIONS`] connections at once (more wait in the
//! listen backlog), hyper's buffers at
//! [`HTTP1_BUFFER_BYTES`](super::http1::HTTP1_BUFFER_BYTES), a request's
//! headers (idle keep-alive included) due within [`HEADER_TIMEOUT`], and
//! each connection closed after [`CONNECTION_LIFETIME`], so that clients
//! that stall cannot keep the slots from scrapers for long.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::header::CONTENT_TYPE;
use axum::routing::get;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::http1::capped_builder;
use crate::pool::WorkerPool;
use crate::service::{ByteBudget, Metrics};

/// Connections the endpoint serves at once.
pub const METRICS_CONNECTIONS: usize = 16;

/// How long a request's header section may take to come, counted from the
/// end of the previous request on a kept-alive connection.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long one connection is served; a scraper then simply reconnects.
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(60);

/// Serves `metrics` (with the gauges of `pool` and `budgets`, SolveStreams'
/// and SolveBatchStreams') on `listener` until `shutdown` completes.
pub async fn serve_metrics(
    listener: TcpListener,
    metrics: Arc<Metrics>,
    pool: WorkerPool,
    budgets: (ByteBudget, ByteBudget),
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let render = move || {
        let text = metrics.render(pool.stats(), (budgets.0.in_use(), budgets.1.in_use()));
        async move { ([(CONTENT_TYPE, prometheus::TEXT_FORMAT)], text) }
    };
    let app = Router::new().route("/metrics", get(render));
    let slots = Arc::new(Semaphore::new(METRICS_CONNECTIONS));
    tokio::pin!(shutdown);
    loop {
        // A slot first: past the cap, connections wait in the backlog.
        let accepted = tokio::select! {
            () = &mut shutdown => return Ok(()),
            accepted = async {
                let slot = slots.clone().acquire_owned().await.expect("never closed");
                (slot, listener.accept().await)
            } => accepted,
        };
        match accepted {
            (slot, Ok((stream, _))) => {
                let app = app.clone();
                tokio::spawn(async move {
                    serve_connection(stream, app).await;
                    drop(slot);
                });
            }
            (_, Err(error)) => {
                // Out of file descriptors, say: the endpoint carries on.
                tracing::warn!(%error, "metrics endpoint: cannot accept a connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// Serves one connection for at most [`CONNECTION_LIFETIME`], then lets it
/// finish the request it is serving.
async fn serve_connection(stream: TcpStream, app: Router) {
    let served = capped_builder(HEADER_TIMEOUT)
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
    tokio::pin!(served);
    let result = match tokio::time::timeout(CONNECTION_LIFETIME, served.as_mut()).await {
        Ok(result) => result,
        Err(_) => {
            served.as_mut().graceful_shutdown();
            match tokio::time::timeout(HEADER_TIMEOUT, served).await {
                Ok(result) => result,
                Err(_) => return,
            }
        }
    };
    if let Err(error) = result {
        tracing::debug!(%error, "metrics connection ended with an error");
    }
}
