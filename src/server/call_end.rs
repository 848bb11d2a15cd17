//! Every sudoku call's end, counted once in `sudoku_calls_total` and
//! logged if it failed, by the call layer ([`super::calls`]) and nowhere
//! else.
//!
//! The count is the code the client gets: the `grpc-status` of a
//! trailers-only answer, or of the response's trailers as the transport
//! takes them (qdrant's `TonicTelemetryLayer` counts the same way). So the
//! handlers, the stream drivers and the layer's own refusals only answer;
//! none of them counts. A call whose future or response body is dropped
//! before its status (its client reset it, or went away) counts
//! CANCELLED, unlogged. A failed call is logged at most once a second of
//! each kind ([`log_failed_call`]), a refusal for overload as a shed
//! ([`is_shed`]).

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio::sync::OwnedSemaphorePermit;
use tonic::body::Body;
use tonic::codegen::Bytes;

use crate::service::{Metrics, Rpc, is_shed, log_failed_call};

/// Counts `status` as the end of the call `end` is for, if it is a
/// sudoku call.
pub(super) fn count(end: &mut Option<CallEnd>, status: &tonic::Status) {
    if let Some(end) = end {
        end.count(status);
    }
}

/// One sudoku call's end, counted once in `sudoku_calls_total` with the
/// code its client gets, and logged if the call failed: from the status
/// in its response's headers (a trailers-only answer) or in its trailers.
/// A call whose future or response body is dropped before either (its
/// client reset it, or went away) counts CANCELLED, unlogged.
pub(super) struct CallEnd {
    rpc: Rpc,
    metrics: Arc<Metrics>,
    counted: bool,
}

impl CallEnd {
    /// The end of a call to `rpc`, to count into `metrics`.
    pub(super) fn new(rpc: Rpc, metrics: Arc<Metrics>) -> CallEnd {
        CallEnd {
            rpc,
            metrics,
            counted: false,
        }
    }

    /// Counts the call's end with `status`, and logs it if it failed; only
    /// the first call counts.
    fn count(&mut self, status: &tonic::Status) {
        if std::mem::replace(&mut self.counted, true) {
            return;
        }
        self.metrics.call_finished(self.rpc, status.code());
        if status.code() != tonic::Code::Ok {
            log_failed_call(self.rpc.label(), status, is_shed(status));
        }
    }
}

impl Drop for CallEnd {
    fn drop(&mut self) {
        if !self.counted {
            self.metrics.call_finished(self.rpc, tonic::Code::Cancelled);
        }
    }
}

/// A response body that counts its call's end from its trailers, and
/// holds its call's slot until it is dropped.
pub(super) struct CallBody {
    body: Body,
    end: Option<CallEnd>,
    _slot: Arc<OwnedSemaphorePermit>,
}

impl CallBody {
    /// `body`, counting `end` (if a sudoku call's) and holding `slot`.
    pub(super) fn new(
        body: Body,
        end: Option<CallEnd>,
        slot: Arc<OwnedSemaphorePermit>,
    ) -> CallBody {
        CallBody {
            body,
            end,
            _slot: slot,
        }
    }
}

impl HttpBody for CallBody {
    type Data = Bytes;
    type Error = tonic::Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let frame = Pin::new(&mut self.body).poll_frame(cx);
        match &frame {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(trailers) = frame.trailers_ref() {
                    let status = tonic::Status::from_header_map(trailers).unwrap_or_else(|| {
                        tonic::Status::unknown("the call's trailers had no grpc-status")
                    });
                    count(&mut self.end, &status);
                }
            }
            Poll::Ready(Some(Err(status))) => count(&mut self.end, status),
            Poll::Ready(None) => count(
                &mut self.end,
                &tonic::Status::unknown("the call's response ended without trailers"),
            ),
            Poll::Pending => {}
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use http_body_util::BodyExt;
    use tokio::sync::Semaphore;

    use super::*;

    /// A response body of `frames`, held slot and all, whose end counts
    /// into `metrics` as a Solve call's.
    fn response(frames: Vec<Frame<Bytes>>, metrics: &Arc<Metrics>) -> CallBody {
        let frames = frames.into_iter().map(Ok::<_, std::convert::Infallible>);
        let body = http_body_util::StreamBody::new(tokio_stream::iter(frames));
        let slot = Arc::new(Semaphore::new(1)).try_acquire_owned().unwrap();
        CallBody {
            body: Body::new(body),
            end: Some(CallEnd::new(Rpc::Solve, metrics.clone())),
            _slot: Arc::new(slot),
        }
    }

    /// Trailers with `code`.
    fn trailers(code: tonic::Code) -> Frame<Bytes> {
        let mut trailers = http::HeaderMap::new();
        trailers.insert("grpc-status", (code as i32).into());
        Frame::trailers(trailers)
    }

    /// The Solve calls counted, as `code=count` pairs.
    fn counted(metrics: &Metrics) -> Vec<String> {
        let text = metrics.render(Default::default(), (0, 0));
        text.lines()
            .filter(|line| line.starts_with("sudoku_calls_total{") && !line.ends_with(" 0"))
            .map(|line| {
                let code = line
                    .split("code=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap();
                format!("{code}={}", line.rsplit(' ').next().unwrap())
            })
            .collect()
    }

    #[tokio::test]
    async fn a_call_is_counted_once_with_the_code_in_its_trailers() {
        let metrics = Arc::new(Metrics::new());
        let data = Frame::data(Bytes::from_static(b"answer"));
        let body = response(vec![data, trailers(tonic::Code::Ok)], &metrics);
        let collected = body.collect().await.unwrap();
        assert!(collected.trailers().is_some());
        assert_eq!(counted(&metrics), ["OK=1"]);
        let failed = response(vec![trailers(tonic::Code::ResourceExhausted)], &metrics);
        failed.collect().await.unwrap();
        assert_eq!(counted(&metrics), ["OK=1", "RESOURCE_EXHAUSTED=1"]);
    }

    #[tokio::test]
    async fn a_body_polled_past_its_trailers_is_not_counted_again() {
        let metrics = Arc::new(Metrics::new());
        let mut body = response(vec![trailers(tonic::Code::Ok)], &metrics);
        while body.frame().await.is_some() {}
        assert!(body.frame().await.is_none());
        drop(body);
        assert_eq!(counted(&metrics), ["OK=1"]);
    }

    #[tokio::test]
    async fn a_body_dropped_before_its_trailers_counts_cancelled() {
        let metrics = Arc::new(Metrics::new());
        let data = Frame::data(Bytes::from_static(b"answer"));
        let mut body = response(vec![data, trailers(tonic::Code::Ok)], &metrics);
        assert!(body.frame().await.unwrap().unwrap().is_data());
        drop(body);
        assert_eq!(counted(&metrics), ["CANCELLED=1"]);
        let ended = response(vec![], &metrics);
        ended.collect().await.unwrap();
        assert_eq!(
            counted(&metrics),
            ["CANCELLED=1", "UNKNOWN=1"],
            "no trailers"
        );
    }
}
