//! CORS for gRPC-Web calls from pages on other origins, allowed one origin
//! at a time by `--cors-allow-origin`.
//!
//! tower-http's CORS layer answers preflights and adds the headers, but it
//! adds some of them (allowed methods and headers, exposed headers) to any
//! request. A gate in front of it therefore sends only requests from an
//! allowed origin through it: every other request, same-origin pages and
//! other origins alike, reaches the services with no CORS header added, so
//! a browser keeps other origins' pages out.

use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::{HeaderName, HeaderValue, Method, Request, Response, header};
use tower::{Layer, Service};
use tower_http::cors::{AllowHeaders, AllowOrigin, Cors, CorsLayer, ExposeHeaders};

use super::either::Either;

/// How long a browser may cache a preflight's answer.
const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// The response headers a gRPC-Web client reads: a trailers-only answer
/// carries the status in them.
const EXPOSED_HEADERS: [&str; 3] = ["grpc-status", "grpc-message", "grpc-status-details-bin"];

/// Sends requests from the allowed origins through CORS, and every other
/// request past it.
#[derive(Clone)]
pub struct CorsGateLayer {
    origins: Arc<[HeaderValue]>,
}

impl CorsGateLayer {
    /// Allows exactly `origins` (as the browser sends them, e.g.
    /// `https://app.example.com`).
    pub fn new(origins: Vec<HeaderValue>) -> CorsGateLayer {
        CorsGateLayer {
            origins: origins.into(),
        }
    }

    fn cors(&self) -> CorsLayer {
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(self.origins.iter().cloned()))
            .allow_methods([Method::POST])
            .allow_headers(AllowHeaders::mirror_request())
            .expose_headers(ExposeHeaders::list(
                EXPOSED_HEADERS.map(HeaderName::from_static),
            ))
            .max_age(PREFLIGHT_MAX_AGE)
    }
}

impl<S: Clone> Layer<S> for CorsGateLayer {
    type Service = CorsGate<S>;

    fn layer(&self, inner: S) -> CorsGate<S> {
        CorsGate {
            cors: self.cors().layer(inner.clone()),
            plain: inner,
            origins: self.origins.clone(),
        }
    }
}

/// A service behind the CORS gate.
#[derive(Clone)]
pub struct CorsGate<S> {
    cors: Cors<S>,
    plain: S,
    origins: Arc<[HeaderValue]>,
}

impl<S, B, ResBody> Service<Request<B>> for CorsGate<S>
where
    S: Service<Request<B>, Response = Response<ResBody>>,
    S::Future: Send + 'static,
    ResBody: Default + Send + 'static,
    S::Error: 'static,
{
    type Response = Response<ResBody>;
    type Error = S::Error;
    type Future = Either<tower_http::cors::ResponseFuture<S::Future>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        match self.plain.poll_ready(cx) {
            Poll::Ready(Ok(())) => self.cors.poll_ready(cx),
            other => other,
        }
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let allowed = request
            .headers()
            .get(header::ORIGIN)
            .is_some_and(|origin| self.origins.contains(origin));
        if allowed {
            Either::left(self.cors.call(request))
        } else {
            Either::right(self.plain.call(request))
        }
    }
}

/// Parses one `--cors-allow-origin`: a scheme, `://`, and a host (with
/// an optional port), nothing after, as a browser sends it in `Origin`:
/// lowercase, and without the scheme's default port, so that what can
/// never match a browser's `Origin` is refused rather than ignored.
pub fn parse_origin(text: &str) -> Result<String, String> {
    let text = text.trim();
    let refuse = |why: &str| {
        Err(format!(
            "{text:?} is not an origin ({why}): expected SCHEME://HOST[:PORT] with no path, \
             such as https://app.example.com"
        ))
    };
    let Some((scheme, host)) = text.split_once("://") else {
        return refuse("no scheme");
    };
    let origin = text.to_ascii_lowercase();
    if scheme.is_empty()
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        return refuse("a bad scheme");
    }
    if host.is_empty() || host.contains(['/', '?', '#', '*', ' ', ',', '@']) {
        return refuse("a bad host: no path, wildcard or user");
    }
    let port = match host.strip_prefix('[') {
        Some(bracketed) => bracketed.split_once(']').map(|(_, rest)| rest),
        None => Some(host),
    }
    .and_then(|rest| rest.rsplit_once(':'))
    .map(|(_, port)| port);
    if port.is_some_and(|port| !port.parse::<u16>().is_ok_and(|port| port > 0)) {
        return refuse("a port must be from 1 to 65535");
    }
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "https" => Some(":443"),
        "http" => Some(":80"),
        _ => None,
    };
    if default_port.is_some_and(|port| origin.ends_with(port)) {
        return refuse("browsers leave out the default port");
    }
    if HeaderValue::from_str(&origin).is_err() {
        return refuse("not a header value");
    }
    Ok(origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_scheme_host_and_port_only() {
        assert_eq!(
            parse_origin("https://App.Example.com").unwrap(),
            "https://app.example.com"
        );
        assert_eq!(
            parse_origin("http://127.0.0.1:8080").unwrap(),
            "http://127.0.0.1:8080"
        );
        for good in ["http://[::1]:8080", "http://[::1]", "https://a.com:65535"] {
            assert_eq!(parse_origin(good).unwrap(), good);
        }
        for bad in [
            "app.example.com",
            "https://",
            "https://a.com/path",
            "*",
            "https://*.a.com",
            "://a",
            "http://a.com:99999",
            "http://a.com:0",
            "http://a.com:",
            "http://[::1]:65536",
        ] {
            let error = parse_origin(bad).unwrap_err();
            assert!(error.contains("not an origin"), "{bad}: {error}");
        }
    }
}
