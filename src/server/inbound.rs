//! Requests that tonic refuses before any handler sees them (too large, or
//! not decodable) get this service's status codes: see
//! [`ServiceError::from_inbound_status`]. Streams map these statuses in
//! their driver; this layer does it for unary calls, whose refusal is a
//! trailers-only response with the status in its headers.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use http::{Request, Response};
use tonic::body::Body;
use tower::{Layer, Service};

use crate::service::ServiceError;

/// Applies [`InboundErrors`] to every service of the server.
#[derive(Debug, Clone, Copy, Default)]
pub struct InboundErrorLayer;

/// Rewrites tonic's own statuses for unreadable requests.
#[derive(Debug, Clone)]
pub struct InboundErrors<S> {
    inner: S,
}

impl<S> Layer<S> for InboundErrorLayer {
    type Service = InboundErrors<S>;

    fn layer(&self, inner: S) -> InboundErrors<S> {
        InboundErrors { inner }
    }
}

impl<S, B> Service<Request<B>> for InboundErrors<S>
where
    S: Service<Request<B>, Response = Response<Body>>,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let call = self.inner.call(request);
        Box::pin(async move {
            let mut response = call.await?;
            // Only a trailers-only response has grpc-status in its headers.
            let Some(status) = tonic::Status::from_header_map(response.headers()) else {
                return Ok(response);
            };
            let Some(error) = ServiceError::from_inbound_status(&status) else {
                return Ok(response);
            };
            tracing::info!(code = ?status.code(), detail = status.message(), %error, "request refused");
            let headers = response.headers_mut();
            for name in ["grpc-status", "grpc-message", "grpc-status-details-bin"] {
                headers.remove(name);
            }
            if tonic::Status::from(error).add_header(headers).is_err() {
                tracing::warn!("cannot rewrite the status of a refused request");
            }
            Ok(response)
        })
    }
}
