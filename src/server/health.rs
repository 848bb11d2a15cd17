//! `grpc.health.v1.Health`: tonic-health's service, with two things a
//! production server needs around it.
//!
//! * **Its request must come.** A Check or Watch tells the call policy
//!   ([`super::calls`]) once its request message has arrived, as the
//!   sudoku unary calls do, so that a client sending only headers cannot
//!   hold the slots kept for health checks (and make a pod look dead) for
//!   longer than `--first-call-timeout`.
//! * **Watches end when the server drains.** A Watch sees NOT_SERVING and
//!   then ends with UNAVAILABLE, instead of staying open until the drain
//!   timeout: a client that watches health (client-side health checking
//!   keeps one open for good) would otherwise hold every shutdown for the
//!   whole `--drain-timeout`.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::watch;
use tokio_stream::Stream;
use tonic::{Request, Response, Status};
use tonic_health::pb::health_server::{Health, HealthServer};
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};
use tonic_health::server::{HealthReporter, HealthService};

use super::http1::drained;
use crate::service::RequestArrived;

/// The health service for `reporter`'s statuses, whose watches end once
/// `draining` turns true.
pub fn health_server(
    reporter: &HealthReporter,
    draining: watch::Receiver<bool>,
) -> HealthServer<GuardedHealth> {
    HealthServer::new(GuardedHealth {
        inner: HealthService::from_health_reporter(reporter.clone()),
        draining,
    })
}

/// tonic-health's service, signalling its requests' arrival and ending its
/// watches on draining.
pub struct GuardedHealth {
    inner: HealthService,
    draining: watch::Receiver<bool>,
}

#[tonic::async_trait]
impl Health for GuardedHealth {
    async fn check(
        &self,
        request: Request<HealthCheckRequest>,
    ) -> Result<Response<HealthCheckResponse>, Status> {
        RequestArrived::signal_in(&request);
        self.inner.check(request).await
    }

    type WatchStream = UntilDrained;

    async fn watch(
        &self,
        request: Request<HealthCheckRequest>,
    ) -> Result<Response<UntilDrained>, Status> {
        RequestArrived::signal_in(&request);
        let statuses = self.inner.watch(request).await?.into_inner();
        let mut draining = self.draining.clone();
        let draining_begins = async move { drained(&mut draining).await };
        Ok(Response::new(UntilDrained {
            statuses: Box::pin(statuses),
            drained: Box::pin(draining_begins),
            draining: false,
            ended: false,
        }))
    }
}

/// A watch's statuses until the server drains, then UNAVAILABLE. The
/// server sets NOT_SERVING before draining begins, so once draining shows,
/// the statuses are polled once more, and a NOT_SERVING not yet sent goes
/// out before the end.
pub struct UntilDrained {
    statuses: Pin<Box<dyn Stream<Item = Result<HealthCheckResponse, Status>> + Send>>,
    drained: Pin<Box<dyn Future<Output = ()> + Send>>,
    /// Draining has begun (`drained` completed, and is not polled again).
    draining: bool,
    ended: bool,
}

impl Stream for UntilDrained {
    type Item = Result<HealthCheckResponse, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.ended {
            return Poll::Ready(None);
        }
        if !self.draining {
            if let Poll::Ready(status) = self.statuses.as_mut().poll_next(cx) {
                return Poll::Ready(status);
            }
            if self.drained.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            self.draining = true;
            // NOT_SERVING may have been set between the two polls above.
            if let Poll::Ready(Some(status)) = self.statuses.as_mut().poll_next(cx) {
                return Poll::Ready(Some(status));
            }
        }
        self.ended = true;
        Poll::Ready(Some(Err(Status::unavailable(
            "the server is shutting down: watch another server",
        ))))
    }
}
