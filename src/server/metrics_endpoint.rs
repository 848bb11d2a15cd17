//! The Prometheus endpoint: `GET /metrics` over plain HTTP/1.1 on its own
//! port (`--metrics-listen`), so that scrapers need neither gRPC nor the
//! service's TLS certificates.

use std::future::Future;
use std::sync::Arc;

use axum::Router;
use axum::http::header::CONTENT_TYPE;
use axum::routing::get;
use tokio::net::TcpListener;

use crate::pool::WorkerPool;
use crate::service::{ByteBudget, Metrics};

/// Serves `metrics` (with the gauges of `pool` and `budgets`, SolveStreams'
/// and SolveBatchStreams') on `listener`
/// until `shutdown` completes.
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
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}
