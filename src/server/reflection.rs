//! Server reflection (v1 and v1alpha): tonic-reflection's services, with
//! the two guards health has ([`super::health`]).
//!
//! * **Its first request must come.** Reflection is a bidirectional
//!   stream: its handler answers with headers at once and then waits for
//!   requests, so the call policy cannot see the request arrive. Each
//!   request gets one response, so a call that has sent no response
//!   `--first-call-timeout` after its headers has had no request, and ends
//!   with DEADLINE_EXCEEDED: headers alone cannot hold the slots that
//!   reflection shares with health watches.
//! * **Streams end when the server drains**, with UNAVAILABLE, instead of
//!   holding the shutdown until `--drain-timeout`: `grpcurl` and other
//!   tools keep a reflection stream open while they work.
//!
//! Both guards sit on the response body, which ends with the status in
//! its trailers; the call's slot goes back when the body is dropped. The
//! request body ends with it: tonic-reflection reads requests in a task of
//! its own, which would otherwise keep the call's HTTP/2 stream (and so
//! the shutdown) waiting on a client that never closes its side.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::{Request, Response};
use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio::sync::futures::OwnedNotified;
use tokio::sync::{Notify, watch};
use tokio::time::Sleep;
use tonic::body::Body;
use tonic::codegen::Bytes;
use tonic::server::NamedService;
use tower::Service;

use super::http1::drained;
use crate::flag_values::format_duration;

/// A reflection service whose streams must have a request within
/// `first_request_within` and end once `draining` turns true.
#[derive(Clone)]
pub struct GuardedReflection<S> {
    inner: S,
    first_request_within: Duration,
    draining: watch::Receiver<bool>,
}

impl<S> GuardedReflection<S> {
    /// `inner`, guarded.
    pub fn new(
        inner: S,
        first_request_within: Duration,
        draining: watch::Receiver<bool>,
    ) -> GuardedReflection<S> {
        GuardedReflection {
            inner,
            first_request_within,
            draining,
        }
    }
}

impl<S: NamedService> NamedService for GuardedReflection<S> {
    const NAME: &'static str = S::NAME;
}

impl<S> Service<Request<Body>> for GuardedReflection<S>
where
    S: Service<Request<Body>, Response = Response<Body>, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let response_ended = Arc::new(Notify::new());
        let request = request.map(|body| {
            Body::new(UntilResponseEnds {
                body,
                response_ended: Box::pin(response_ended.clone().notified_owned()),
            })
        });
        let call = self.inner.call(request);
        let within = self.first_request_within;
        let mut draining = self.draining.clone();
        Box::pin(async move {
            let response = call.await?;
            Ok(response.map(|body| {
                Body::new(Guarded {
                    body,
                    first_response_due: Some(Box::pin(tokio::time::sleep(within))),
                    within,
                    drained: Box::pin(async move { drained(&mut draining).await }),
                    ended: false,
                    response_ended,
                })
            }))
        })
    }
}

/// A reflection stream's responses, ended early if no request comes in
/// time or the server drains.
struct Guarded {
    body: Body,
    /// Until the first response: when the call gives up on its request.
    first_response_due: Option<Pin<Box<Sleep>>>,
    within: Duration,
    drained: Pin<Box<dyn Future<Output = ()> + Send>>,
    ended: bool,
    /// Told when the responses end, to end the requests.
    response_ended: Arc<Notify>,
}

impl Drop for Guarded {
    fn drop(&mut self) {
        self.response_ended.notify_one();
    }
}

impl Guarded {
    /// Ends the stream with `status` in its trailers.
    fn end(&mut self, status: tonic::Status) -> Poll<Option<Result<Frame<Bytes>, tonic::Status>>> {
        self.ended = true;
        let mut trailers = http::HeaderMap::new();
        status.add_header(&mut trailers)?;
        Poll::Ready(Some(Ok(Frame::trailers(trailers))))
    }
}

impl HttpBody for Guarded {
    type Data = Bytes;
    type Error = tonic::Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, tonic::Status>>> {
        if self.ended {
            return Poll::Ready(None);
        }
        if let Poll::Ready(frame) = Pin::new(&mut self.body).poll_frame(cx) {
            if matches!(&frame, Some(Ok(frame)) if frame.is_data()) {
                self.first_response_due = None;
            }
            return Poll::Ready(frame);
        }
        let late = self
            .first_response_due
            .as_mut()
            .is_some_and(|due| due.as_mut().poll(cx).is_ready());
        if late {
            let within = format_duration(self.within);
            return self.end(tonic::Status::deadline_exceeded(format!(
                "no reflection request arrived within {within} of the call's headers \
                 (--first-call-timeout)"
            )));
        }
        if self.drained.as_mut().poll(cx).is_ready() {
            return self.end(tonic::Status::unavailable(
                "the server is shutting down: ask another server",
            ));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.ended || self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A reflection call's requests, which end when its responses do.
struct UntilResponseEnds {
    body: Body,
    response_ended: Pin<Box<OwnedNotified>>,
}

impl HttpBody for UntilResponseEnds {
    type Data = Bytes;
    type Error = tonic::Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, tonic::Status>>> {
        if self.response_ended.as_mut().poll(cx).is_ready() {
            return Poll::Ready(None);
        }
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
