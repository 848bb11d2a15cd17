//! Deadlines: answer DEADLINE_EXCEEDED when a call's `grpc-timeout` passes.
//!
//! tonic enforces that header itself, but answers CANCELLED when it expires,
//! and a client that set a deadline should hear DEADLINE_EXCEEDED. So
//! [`DeadlineLayer`] sits just inside tonic's own timeout layer: both start
//! their clocks in the same `call`, when the request headers arrive (the body
//! may come much later, e.g. 40 ms later from a client using Nagle's
//! algorithm), and this one is due one timer tick earlier. When both are due,
//! tonic polls the inner service first, so this answer wins.
//!
//! On expiry the layer drops the call's future, which drops the handler and
//! its job handle, which cancels the job on the worker pool.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use http::{HeaderMap, Request, Response};
use tokio::time::Instant;
use tonic::body::Body;
use tower::{Layer, Service};

use crate::service::ServiceError;

/// How much earlier than the client's deadline the server gives up: the
/// resolution of tokio's timer.
const TIMER_TICK: Duration = Duration::from_millis(1);

/// Applies [`Deadline`] to every service of the server.
#[derive(Debug, Clone, Copy, Default)]
pub struct DeadlineLayer;

/// A service that answers DEADLINE_EXCEEDED once the request's
/// `grpc-timeout` has passed.
#[derive(Debug, Clone)]
pub struct Deadline<S> {
    inner: S,
}

impl<S> Layer<S> for DeadlineLayer {
    type Service = Deadline<S>;

    fn layer(&self, inner: S) -> Deadline<S> {
        Deadline { inner }
    }
}

impl<S, B> Service<Request<B>> for Deadline<S>
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
        let deadline = deadline_of(request.headers(), Instant::now());
        let call = self.inner.call(request);
        Box::pin(async move {
            let Some(deadline) = deadline else {
                return call.await;
            };
            match tokio::time::timeout_at(deadline, call).await {
                Ok(response) => response,
                Err(_) => Ok(tonic::Status::from(ServiceError::DeadlineExceeded).into_http()),
            }
        })
    }
}

/// The instant at which to give up on a request that arrived at `arrival`,
/// if it carries a valid `grpc-timeout`.
fn deadline_of(headers: &HeaderMap, arrival: Instant) -> Option<Instant> {
    let timeout = parse_grpc_timeout(headers.get("grpc-timeout")?.to_str().ok()?)?;
    Some(arrival + timeout.saturating_sub(TIMER_TICK))
}

/// Parses a `grpc-timeout` value: up to eight digits and a unit (`H`, `M`,
/// `S`, `m`, `u` or `n`), per the gRPC over HTTP/2 spec.
fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount * 3600),
        "M" => Duration::from_secs(amount * 60),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_unit() {
        assert_eq!(parse_grpc_timeout("2H"), Some(Duration::from_secs(7200)));
        assert_eq!(parse_grpc_timeout("3M"), Some(Duration::from_secs(180)));
        assert_eq!(parse_grpc_timeout("4S"), Some(Duration::from_secs(4)));
        assert_eq!(parse_grpc_timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(
            parse_grpc_timeout("99999u"),
            Some(Duration::from_micros(99999))
        );
        assert_eq!(parse_grpc_timeout("1n"), Some(Duration::from_nanos(1)));
    }

    #[test]
    fn rejects_malformed_values() {
        for value in ["", "S", "10", "10x", "123456789S", "-1S", "1.5S"] {
            assert_eq!(parse_grpc_timeout(value), None, "{value:?}");
        }
    }

    #[test]
    fn the_deadline_is_one_tick_before_the_clients() {
        let mut headers = HeaderMap::new();
        headers.insert("grpc-timeout", "100m".parse().unwrap());
        let now = Instant::now();
        assert_eq!(
            deadline_of(&headers, now),
            Some(now + Duration::from_millis(99))
        );
        assert_eq!(deadline_of(&HeaderMap::new(), now), None);
    }
}
