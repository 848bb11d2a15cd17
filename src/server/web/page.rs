//! The layer that answers a browser's `GET`s with the page's files, in
//! front of gRPC: gRPC and gRPC-Web calls are always `POST`s, so every
//! `GET` or `HEAD` is the page's, and anything else goes on to the
//! services.
//!
//! Files come from memory ([`WebAssets`]) with an ETag and `Cache-Control:
//! no-cache`, so a browser revalidates and gets `304 Not Modified` until
//! the binary changes. The Content-Security-Policy lets the page load and
//! call nothing but this server.

use std::future::Ready;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::Full;
use tonic::body::Body;
use tonic::codegen::Bytes;
use tower::{Layer, Service};

use super::assets::{Asset, WebAssets};
use super::either::Either;
use crate::server::connections::ConnectionInfo;

/// Nothing from another host, no inline script or style, no framing.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; base-uri 'none'; form-action 'none'; \
                                       frame-ancestors 'none'; object-src 'none'";

/// Serves the page's files, or says the page is off.
#[derive(Clone)]
pub struct WebPageLayer {
    assets: Option<Arc<WebAssets>>,
}

impl WebPageLayer {
    /// Serves `assets`; `None` answers every `GET` that the page is off.
    pub fn new(assets: Option<WebAssets>) -> WebPageLayer {
        WebPageLayer {
            assets: assets.map(Arc::new),
        }
    }
}

impl<S> Layer<S> for WebPageLayer {
    type Service = WebPage<S>;

    fn layer(&self, inner: S) -> WebPage<S> {
        WebPage {
            inner,
            assets: self.assets.clone(),
        }
    }
}

/// A service with the page's files in front of it.
#[derive(Clone)]
pub struct WebPage<S> {
    inner: S,
    assets: Option<Arc<WebAssets>>,
}

impl<S, B> Service<Request<B>> for WebPage<S>
where
    S: Service<Request<B>, Response = Response<Body>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = Either<Ready<Result<Response<Body>, S::Error>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let method = request.method();
        if method != Method::GET && method != Method::HEAD {
            if let Some(refusal) = not_a_call(&request) {
                return Either::left(std::future::ready(Ok(refusal)));
            }
            return Either::right(self.inner.call(request));
        }
        // A page load is the connection's use, as a call is: the first-call
        // clock must not close it mid-download.
        if let Some(connection) = request.extensions().get::<ConnectionInfo>() {
            connection.mark_called();
        }
        let response = match &self.assets {
            None => plain(
                StatusCode::NOT_FOUND,
                "this server's web page is off (--web false)\n",
            ),
            Some(assets) => match assets.get(request.uri().path()) {
                Some(asset) => serve(asset, &request),
                None => plain(StatusCode::NOT_FOUND, "not found\n"),
            },
        };
        let response = if method == Method::HEAD {
            response.map(|_| Body::empty())
        } else {
            response
        };
        Either::left(std::future::ready(Ok(response)))
    }
}

/// `asset` for `request`: gzipped if the client takes it, `304` if the
/// client's copy is current.
fn serve<B>(asset: &Asset, request: &Request<B>) -> Response<Body> {
    let gzip = asset.gzip.as_ref().filter(|_| accepts_gzip(request));
    let etag = if gzip.is_some() {
        &asset.gzip_etag
    } else {
        &asset.etag
    };
    let builder = Response::builder()
        .header(header::ETAG, etag)
        .header(header::CACHE_CONTROL, "no-cache")
        .header(header::VARY, "accept-encoding")
        .header(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY)
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .header(header::REFERRER_POLICY, "no-referrer");
    if matches_etag(request, etag) {
        return builder
            .status(StatusCode::NOT_MODIFIED)
            .body(Body::empty())
            .expect("static headers are valid");
    }
    let builder = builder.header(header::CONTENT_TYPE, &asset.content_type);
    let (builder, bytes) = match gzip {
        Some(bytes) => (builder.header(header::CONTENT_ENCODING, "gzip"), bytes),
        None => (builder, &asset.identity),
    };
    builder
        .header(header::CONTENT_LENGTH, bytes.len())
        .body(Body::new(Full::new(bytes.clone())))
        .expect("static headers are valid")
}

/// A request that is not for the page, nor a CORS preflight, nor a call
/// this port runs, gets a `415` that says what this port speaks (tonic
/// would run any content type over HTTP/2, and tonic-web would answer an
/// empty `400` over HTTP/1.1). Over HTTP/2 that matters: a web page could
/// otherwise make its visitors' browsers call the service with a `POST`
/// of `text/plain`, which browsers send without a CORS preflight.
fn not_a_call<B>(request: &Request<B>) -> Option<Response<Body>> {
    if request.method() == Method::OPTIONS {
        return None;
    }
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    if runs_as_call(request.version(), content_type) {
        return None;
    }
    Some(plain(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "this port speaks gRPC over HTTP/2 (content-type application/grpc or \
         application/grpc+proto), and gRPC-Web (content-type application/grpc-web, \
         application/grpc-web+proto, application/grpc-web-text or \
         application/grpc-web-text+proto) over HTTP/1.1 or HTTP/2\n",
    ))
}

/// Whether a request of `content_type` runs as a call over `version`:
/// gRPC-Web with protobuf messages, binary or text, over any version, and
/// gRPC itself over HTTP/2 only. Parameters after `;` are ignored, and
/// case, as HTTP says.
fn runs_as_call(version: http::Version, content_type: &str) -> bool {
    let media = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let grpc_web = matches!(
        media.as_str(),
        "application/grpc-web"
            | "application/grpc-web+proto"
            | "application/grpc-web-text"
            | "application/grpc-web-text+proto"
    );
    let grpc = matches!(
        media.as_str(),
        "application/grpc" | "application/grpc+proto"
    );
    grpc_web || (grpc && version >= http::Version::HTTP_2)
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .body(Body::new(Full::new(Bytes::from_static(text.as_bytes()))))
        .expect("static headers are valid")
}

/// Whether `Accept-Encoding` takes gzip: named (or `*`, when gzip is not
/// named) with a weight above zero.
fn accepts_gzip<B>(request: &Request<B>) -> bool {
    let codings: Vec<(String, bool)> = request
        .headers()
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|coding| {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let refused = parts.any(|parameter| {
                let parameter: String = parameter.chars().filter(|c| !c.is_whitespace()).collect();
                parameter
                    .to_ascii_lowercase()
                    .strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name, !refused)
        })
        .collect();
    let weight = |name: &str| {
        codings
            .iter()
            .find(|(coding, _)| coding == name)
            .map(|(_, taken)| *taken)
    };
    weight("gzip").or_else(|| weight("*")).unwrap_or(false)
}

/// Whether `If-None-Match` names `etag` (or is `*`).
fn matches_etag<B>(request: &Request<B>, etag: &HeaderValue) -> bool {
    let Ok(etag) = etag.to_str() else {
        return false;
    };
    request
        .headers()
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(headers: &[(&str, &str)]) -> Request<()> {
        let mut builder = Request::get("/");
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(()).unwrap()
    }

    #[test]
    fn only_grpc_and_grpc_web_with_protobuf_run_as_calls() {
        use http::Version;
        let h1 = Version::HTTP_11;
        let h2 = Version::HTTP_2;
        for web in [
            "application/grpc-web",
            "application/grpc-web+proto",
            "application/grpc-web-text",
            "Application/GRPC-Web-Text+Proto; charset=utf-8",
        ] {
            assert!(runs_as_call(h1, web) && runs_as_call(h2, web), "{web}");
        }
        for grpc in ["application/grpc", "application/grpc+proto"] {
            assert!(runs_as_call(h2, grpc), "{grpc}");
            assert!(!runs_as_call(h1, grpc), "{grpc} over HTTP/1.1");
        }
        for other in [
            "",
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "application/grpc-web+json",
            "application/grpc+json",
            "application/grpcx",
        ] {
            assert!(
                !runs_as_call(h1, other) && !runs_as_call(h2, other),
                "{other:?}"
            );
        }
    }

    #[test]
    fn gzip_is_taken_unless_refused() {
        assert!(accepts_gzip(&request(&[(
            "accept-encoding",
            "gzip, deflate, br"
        )])));
        assert!(accepts_gzip(&request(&[(
            "accept-encoding",
            "br;q=1.0, gzip;q=0.5"
        )])));
        assert!(accepts_gzip(&request(&[("accept-encoding", "*")])));
        assert!(!accepts_gzip(&request(&[("accept-encoding", "gzip;q=0")])));
        assert!(!accepts_gzip(&request(&[(
            "accept-encoding",
            "gzip; Q = 0, *"
        )])));
        assert!(accepts_gzip(&request(&[("accept-encoding", "GZIP")])));
        assert!(!accepts_gzip(&request(&[("accept-encoding", "identity")])));
        assert!(!accepts_gzip(&request(&[])));
    }

    #[test]
    fn if_none_match_matches_a_listed_or_weak_or_any_tag() {
        let etag = HeaderValue::from_static("\"abc\"");
        assert!(matches_etag(
            &request(&[("if-none-match", "\"x\", \"abc\"")]),
            &etag
        ));
        assert!(matches_etag(
            &request(&[("if-none-match", "W/\"abc\"")]),
            &etag
        ));
        assert!(matches_etag(&request(&[("if-none-match", "*")]), &etag));
        assert!(!matches_etag(
            &request(&[("if-none-match", "\"abcd\"")]),
            &etag
        ));
        assert!(!matches_etag(&request(&[]), &etag));
    }
}
