//! HTTP/1.1 connections: browsers loading the page and calling over
//! gRPC-Web.
//!
//! tonic serves HTTP/2; HTTP/1.1 connections are served here, with hyper
//! set up to bound what one connection can make the server hold: a
//! header section and the buffers around a request are capped at
//! [`HTTP1_BUFFER_BYTES`] (hyper's default is about 400 KiB each way). The
//! same clock as the first call's closes a connection whose next request's
//! headers do not come in time, idle keep-alive connections included. A
//! connection serves its requests one at a time, each through the same
//! layers and services as an HTTP/2 call, with its `ConnectionInfo` in
//! the request's extensions as tonic puts it there. When the server drains,
//! each connection finishes the request it is serving and closes.

use std::convert::Infallible;
use std::time::Duration;

use http::{Request, Response};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::sync::{mpsc, watch};
use tonic::body::Body;
use tonic::transport::server::Connected;
use tower::{Service, ServiceExt};

use super::connections::Connection;

/// The most one HTTP/1.1 connection buffers each way: hyper's read buffer
/// (a request's header section must fit in it; a longer one gets `431`)
/// and its write buffer (past which hyper takes no more of a response
/// until the client reads; one chunk of a response may go past it, and is
/// the call's). 8 KiB, hyper's least, is the header section an HTTP/2 call
/// may send ([`MAX_HEADER_LIST_BYTES`](super::MAX_HEADER_LIST_BYTES)):
/// the headers a call keeps are slices of this buffer.
pub const HTTP1_BUFFER_BYTES: usize = 8 << 10;

/// The services behind the server's layers, as each connection calls them.
pub trait LayeredService:
    Service<Request<Body>, Response = Response<Body>, Error = Infallible, Future: Send + 'static>
    + Clone
    + Send
    + 'static
{
}

impl<S> LayeredService for S where
    S: Service<
            Request<Body>,
            Response = Response<Body>,
            Error = Infallible,
            Future: Send + 'static,
        > + Clone
        + Send
        + 'static
{
}

/// Serves the HTTP/1.1 connections that arrive on `incoming` with
/// `service` until `draining` turns true; then each finishes its request
/// and closes. Completes once every connection has closed.
pub async fn serve(
    mut incoming: mpsc::Receiver<Connection>,
    service: impl LayeredService,
    header_timeout: Duration,
    mut draining: watch::Receiver<bool>,
) {
    let (open, mut all_closed) = mpsc::channel::<Infallible>(1);
    loop {
        tokio::select! {
            connection = incoming.recv() => match connection {
                Some(connection) => {
                    let connection = serve_connection(connection, service.clone(), header_timeout, draining.clone());
                    let open = open.clone();
                    tokio::spawn(async move {
                        connection.await;
                        drop(open);
                    });
                }
                None => break,
            },
            () = drained(&mut draining) => break,
        }
    }
    drop((open, incoming));
    // Every task holds a sender: this returns once the last has closed.
    let _ = all_closed.recv().await;
}

/// Serves one connection until it closes, or until it has finished its
/// request once the server drains.
async fn serve_connection(
    connection: Connection,
    service: impl LayeredService,
    header_timeout: Duration,
    mut draining: watch::Receiver<bool>,
) {
    let info = connection.connect_info();
    let service = service.map_request(move |request: Request<Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(info.clone());
        request
    });
    let served = capped_builder(header_timeout)
        .serve_connection(TokioIo::new(connection), TowerToHyperService::new(service));
    tokio::pin!(served);
    let result = tokio::select! {
        result = served.as_mut() => result,
        () = drained(&mut draining) => {
            served.as_mut().graceful_shutdown();
            served.await
        }
    };
    if let Err(error) = result {
        tracing::debug!(%error, "HTTP/1.1 connection ended with an error");
    }
}

/// hyper's HTTP/1.1 server with this module's caps: buffers of
/// [`HTTP1_BUFFER_BYTES`], and a request's headers (idle keep-alive
/// included) due within `header_timeout`. The metrics endpoint uses it too.
pub(super) fn capped_builder(header_timeout: Duration) -> hyper::server::conn::http1::Builder {
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_buf_size(HTTP1_BUFFER_BYTES);
    builder
}

/// Completes once the server drains (or can no longer say so).
pub(super) async fn drained(draining: &mut watch::Receiver<bool>) {
    let _ = draining.wait_for(|draining| *draining).await;
}
