//! The policy every call meets before and around its handler: one tower
//! layer, so that each call costs one boxed future.
//!
//! * **Admission.** At most `--max-calls` sudoku calls are in flight on the
//!   whole server, and besides them `--max-batch-calls` batch calls
//!   (SolveBatch, SolveBatchStream, Explain, whose response may reach
//!   1 MiB, and the variant calls, whose requests decode to up to 3 MiB),
//!   which may each hold a much larger message; health checks have [`HEALTH_CHECK_CALLS`] slots of their
//!   own, so that a flood of calls cannot make a pod look dead, and every
//!   other call (health watches, reflection) shares [`OTHER_CALLS`], so
//!   that long watches cannot starve the probes either. Past its cap a call
//!   is answered RESOURCE_EXHAUSTED at once. The slot is held until the
//!   response body is done, which for a stream is its end.
//! * **The connection's first call.** A call marks its connection as used,
//!   which stops the connection's first-call clock
//!   ([`super::connections`]).
//! * **A unary call's message.** A Solve, SolveBatch, Hint, Explain or
//!   Generate call, or a health Check or Watch, whose request message has
//!   not arrived `--first-call-timeout` after its headers is answered
//!   DEADLINE_EXCEEDED, so that headers alone cannot hold a slot; the
//!   handler signals the message's arrival ([`RequestArrived`]). A
//!   reflection stream's first request is watched by the reflection
//!   service itself ([`super::reflection`]).
//! * **Deadlines.** A call whose `grpc-timeout` passes before its handler
//!   answers gets DEADLINE_EXCEEDED (tonic's own timeout, due at the same
//!   time, would say CANCELLED; this layer is polled first, so its answer
//!   wins). A SolveStream's deadline past its response headers is its
//!   driver's (see `crate::service`).
//! * **Requests tonic refuses.** tonic answers an over-large request
//!   message OUT_OF_RANGE and an undecodable one INTERNAL before any
//!   handler runs; this service, like gRPC's other implementations, says
//!   RESOURCE_EXHAUSTED and INVALID_ARGUMENT, and counts them, since no
//!   handler will. Any other refusal before a sudoku call's handler ran (a
//!   bad compression flag, an encoding tonic lacks) keeps tonic's code and
//!   is counted too, and one whose request body failed under it (the
//!   connection dropped) is CANCELLED. Streams map what fails after their
//!   handler ran in their driver.
//! * **Every sudoku call's end, counted and logged once.** Here, and
//!   nowhere else ([`super::call_end`]): from the `grpc-status` the client
//!   gets; a call dropped before it counts CANCELLED.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use http::{Request, Response};
use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
use tonic::body::Body;
use tonic::codegen::Bytes;
use tower::{Layer, Service};

use super::call_end::{CallBody, CallEnd, count};
use super::connections::ConnectionInfo;
use crate::flag_values::format_duration;
use crate::log_limit::LogLimit;
use crate::service::deadline::deadline_of;
use crate::service::{
    CallSlot, Metrics, OVERLOADED, RequestArrived, Rpc, ServiceError, is_client_reset,
};
use crate::wording::counted;

/// Health checks (`grpc.health.v1.Health/Check`) that may be in flight
/// besides `--max-calls`: a probe is one short call.
pub const HEALTH_CHECK_CALLS: usize = 16;

/// Other calls besides the sudoku RPCs and health checks (health watches,
/// reflection, unknown methods) that may be in flight at once.
pub const OTHER_CALLS: usize = 48;

/// Every call that may be in flight besides `--max-calls`.
pub const SIDE_CALLS: usize = HEALTH_CHECK_CALLS + OTHER_CALLS;

/// The path of the health check, which has slots of its own.
const HEALTH_CHECK_PATH: &str = "/grpc.health.v1.Health/Check";

/// Health's calls, which send one request message each, and signal its
/// arrival ([`super::health`]).
const HEALTH_PATHS: [&str; 2] = [HEALTH_CHECK_PATH, "/grpc.health.v1.Health/Watch"];

/// At most one log line a second about calls refused at the cap.
static REFUSED_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// At most one log line a second about requests tonic refused.
static INBOUND_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// The policy's shared state: the call slots and where refusals are
/// counted.
#[derive(Clone)]
pub struct CallPolicyLayer {
    policy: Arc<Policy>,
}

struct Policy {
    request_timeout: Duration,
    sudoku_calls: Arc<Semaphore>,
    batch_calls: Arc<Semaphore>,
    health_checks: Arc<Semaphore>,
    other_calls: Arc<Semaphore>,
    max_calls: usize,
    max_batch_calls: usize,
    metrics: Arc<Metrics>,
}

impl CallPolicyLayer {
    /// A policy admitting `max_calls` sudoku calls and `max_batch_calls`
    /// batch calls at once, giving a unary call `request_timeout` for its
    /// request message to arrive, counting into `metrics`.
    pub fn new(
        max_calls: usize,
        max_batch_calls: usize,
        request_timeout: Duration,
        metrics: Arc<Metrics>,
    ) -> CallPolicyLayer {
        CallPolicyLayer {
            policy: Arc::new(Policy {
                request_timeout,
                sudoku_calls: Arc::new(Semaphore::new(max_calls)),
                batch_calls: Arc::new(Semaphore::new(max_batch_calls)),
                health_checks: Arc::new(Semaphore::new(HEALTH_CHECK_CALLS)),
                other_calls: Arc::new(Semaphore::new(OTHER_CALLS)),
                max_calls,
                max_batch_calls,
                metrics,
            }),
        }
    }
}

impl<S> Layer<S> for CallPolicyLayer {
    type Service = CallPolicy<S>;

    fn layer(&self, inner: S) -> CallPolicy<S> {
        CallPolicy {
            inner,
            policy: self.policy.clone(),
        }
    }
}

/// A service with the call policy around it.
#[derive(Clone)]
pub struct CallPolicy<S> {
    inner: S,
    policy: Arc<Policy>,
}

impl<S> Service<Request<Body>> for CallPolicy<S>
where
    S: Service<Request<Body>, Response = Response<Body>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<Body>) -> Self::Future {
        if let Some(connection) = request.extensions().get::<ConnectionInfo>() {
            connection.mark_called();
        }
        let path = request.uri().path();
        let rpc = Rpc::from_path(path);
        let one_request = rpc.is_some_and(Rpc::has_one_request) || HEALTH_PATHS.contains(&path);
        // Counts the call once, whatever ends it; dropped uncounted (the
        // call's future or its response body dropped), it counts CANCELLED.
        let mut end = rpc.map(|rpc| CallEnd::new(rpc, self.policy.metrics.clone()));
        let slot = match self.policy.admit(rpc, path == HEALTH_CHECK_PATH) {
            Ok(slot) => Arc::new(slot),
            Err(status) => return answered_at_once(end, status),
        };
        if rpc == Some(Rpc::SolveBatchStream) {
            request.extensions_mut().insert(CallSlot(slot.clone()));
        }
        let now = Instant::now();
        let deadline = deadline_of(request.headers(), now);
        if deadline.is_some_and(|deadline| deadline <= now) {
            // Spent before it began (a timeout under the timer's tick): no
            // work is started for it.
            return answered_at_once(end, ServiceError::DeadlineExceeded.into());
        }
        let (request, watch) = RequestWatch::install(request, rpc.is_some(), one_request);
        let policy = self.policy.clone();
        let call = self.inner.call(request);
        let call = unless_request_late(call, watch.timed_arrival(), policy.request_timeout);
        Box::pin(async move {
            let handled = match deadline {
                None => call.await?,
                Some(deadline) => match tokio::time::timeout_at(deadline, call).await {
                    Ok(response) => response?,
                    Err(_) => Err(Unanswered::DeadlinePassed),
                },
            };
            let response = match handled {
                Ok(response) => policy.rewrite_refusal(rpc, response, watch.refused_by()),
                Err(unanswered) => unanswered.response(policy.request_timeout),
            };
            if let Some(status) = tonic::Status::from_header_map(response.headers()) {
                count(&mut end, &status);
            }
            Ok(response.map(|body| Body::new(CallBody::new(body, end, slot))))
        })
    }
}

/// A call answered with `status` before anything ran for it, its end
/// counted.
fn answered_at_once<E: Send + 'static>(
    mut end: Option<CallEnd>,
    status: tonic::Status,
) -> Pin<Box<dyn Future<Output = Result<Response<Body>, E>> + Send>> {
    count(&mut end, &status);
    Box::pin(std::future::ready(Ok(status.into_http())))
}

/// What the policy watches of a call's request: whether its handler ran
/// (it signals its request's arrival), and whether the request body failed
/// under tonic before it did.
struct RequestWatch {
    /// Set for sudoku calls and health's one-request calls.
    arrived: Option<RequestArrived>,
    one_request: bool,
    failed: TransportFailed,
}

impl RequestWatch {
    /// Puts the watch on `request`: the arrival signal in its extensions
    /// (for a sudoku call, or any `one_request` call), and, for a
    /// one-request call, a watch on its body. Only such a call's body can
    /// fail before its handler runs (tonic runs a stream's handler before
    /// reading anything), so streams' request frames are not wrapped.
    fn install(
        mut request: Request<Body>,
        sudoku_call: bool,
        one_request: bool,
    ) -> (Request<Body>, RequestWatch) {
        let arrived = (sudoku_call || one_request).then(|| {
            let arrived = RequestArrived::default();
            request.extensions_mut().insert(arrived.clone());
            arrived
        });
        let failed = TransportFailed::default();
        let request = if arrived.is_some() && one_request {
            request.map(|body| {
                Body::new(WatchedBody {
                    body,
                    failed: failed.clone(),
                })
            })
        } else {
            request
        };
        let watch = RequestWatch {
            arrived,
            one_request,
            failed,
        };
        (request, watch)
    }

    /// The arrival to time against `--first-call-timeout`: a one-request
    /// call's.
    fn timed_arrival(&self) -> Option<RequestArrived> {
        self.arrived.clone().filter(|_| self.one_request)
    }

    /// Who answered a call whose response came back.
    fn refused_by(&self) -> RefusedBy {
        match &self.arrived {
            Some(arrived) if !arrived.has_arrived() && self.failed.is_set() => RefusedBy::Transport,
            Some(arrived) if !arrived.has_arrived() => RefusedBy::Tonic,
            _ => RefusedBy::Handler,
        }
    }
}

/// Who answered a sudoku call whose response the policy sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RefusedBy {
    /// Its handler ran (and answered the call), or it is no sudoku call.
    Handler,
    /// tonic, before the handler, on what the request sent.
    Tonic,
    /// tonic, before the handler, because the request body failed under
    /// it: the client's connection dropped.
    Transport,
}

/// Set when a request body fails (its connection dropped or was reset).
#[derive(Debug, Clone, Default)]
struct TransportFailed(Arc<std::sync::atomic::AtomicBool>);

impl TransportFailed {
    fn set(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Release);
    }

    fn is_set(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Acquire)
    }
}

/// A request body that records whether it failed.
struct WatchedBody<B> {
    body: B,
    failed: TransportFailed,
}

impl<B> HttpBody for WatchedBody<B>
where
    B: HttpBody<Data = Bytes> + Unpin,
{
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let frame = Pin::new(&mut self.body).poll_frame(cx);
        if let Poll::Ready(Some(Err(_))) = &frame {
            self.failed.set();
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

/// Why the call policy answers a call itself, without its handler.
enum Unanswered {
    /// The call's `grpc-timeout` passed first.
    DeadlinePassed,
    /// A unary call's request message did not arrive in time.
    RequestLate,
}

impl Unanswered {
    /// The policy's answer, with `request_timeout` the first-call timeout.
    fn response(self, request_timeout: Duration) -> Response<Body> {
        let status = match self {
            Unanswered::DeadlinePassed => ServiceError::DeadlineExceeded.into(),
            Unanswered::RequestLate => tonic::Status::deadline_exceeded(format!(
                "the request message did not arrive within {} of the call's headers \
                 (--first-call-timeout)",
                format_duration(request_timeout)
            )),
        };
        status.into_http()
    }
}

/// `call`, unless it is a unary call (`arrived` is set) whose request
/// message has not arrived within `timeout`: a client that sends a call's
/// headers and never its message would otherwise hold a call slot for as
/// long as it keeps the connection.
async fn unless_request_late<F, T, E>(
    call: F,
    arrived: Option<RequestArrived>,
    timeout: Duration,
) -> Result<Result<T, Unanswered>, E>
where
    F: Future<Output = Result<T, E>>,
{
    let Some(arrived) = arrived else {
        return call.await.map(Ok);
    };
    let late = async {
        if tokio::time::timeout(timeout, arrived.wait()).await.is_ok() {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        biased;
        response = call => response.map(Ok),
        () = late => Ok(Err(Unanswered::RequestLate)),
    }
}

impl Policy {
    /// A slot for a call to `rpc` (`None`: health or reflection, a health
    /// check if `health_check`), or the status that refuses it.
    fn admit(
        &self,
        rpc: Option<Rpc>,
        health_check: bool,
    ) -> Result<OwnedSemaphorePermit, tonic::Status> {
        let (slots, cap) = match rpc {
            Some(rpc) if rpc.has_large_messages() => (
                &self.batch_calls,
                format!(
                    "{} in flight (--max-batch-calls)",
                    counted(
                        self.max_batch_calls as u64,
                        "batch, Explain or variant call is",
                        "batch, Explain and variant calls are"
                    )
                ),
            ),
            Some(_) => (
                &self.sudoku_calls,
                format!(
                    "{} in flight (--max-calls)",
                    counted(self.max_calls as u64, "call is", "calls are")
                ),
            ),
            None if health_check => (
                &self.health_checks,
                format!("{HEALTH_CHECK_CALLS} health checks are in flight"),
            ),
            None => (
                &self.other_calls,
                format!("{OTHER_CALLS} health watches and reflection calls are in flight"),
            ),
        };
        slots.clone().try_acquire_owned().map_err(|_| {
            let status =
                tonic::Status::resource_exhausted(format!("{OVERLOADED}{cap}; retry with backoff"));
            match rpc {
                Some(rpc) => self.metrics.call_shed(rpc),
                None => {
                    if let Some(suppressed) = REFUSED_LOG.check() {
                        tracing::warn!(
                            health_check,
                            suppressed,
                            "call refused: too many calls in flight"
                        );
                    }
                }
            }
            status
        })
    }

    /// Gives a request that tonic refused before any handler ran this
    /// service's status (the caller counts the call's end from it). Only a
    /// trailers-only response has `grpc-status` in its headers; tonic's own
    /// refusals are known by their wording (see
    /// [`ServiceError::from_inbound_status`]), and a sudoku call's by its
    /// handler not having run (`refused_by`): one this service has no code
    /// of its own for (a frame with a bad compression flag, say: INTERNAL)
    /// keeps tonic's, and one whose request body failed under it (the
    /// client's connection dropped) is CANCELLED, as a client that went
    /// away is.
    fn rewrite_refusal(
        &self,
        rpc: Option<Rpc>,
        response: Response<Body>,
        refused_by: RefusedBy,
    ) -> Response<Body> {
        let Some(status) = tonic::Status::from_header_map(response.headers()) else {
            return response;
        };
        let limit = rpc.map_or("--max-message-bytes", Rpc::message_limit);
        let rewritten = match ServiceError::from_inbound_status(&status, limit) {
            Some(error) => tonic::Status::from(error),
            None if rpc.is_some() && is_client_reset(&status) => {
                tonic::Status::cancelled("the client reset the call")
            }
            None if refused_by == RefusedBy::Transport => {
                tonic::Status::cancelled("the client's connection failed before its request came")
            }
            None if refused_by == RefusedBy::Tonic => status,
            None => return response,
        };
        if rpc.is_none()
            && let Some(suppressed) = INBOUND_LOG.check()
        {
            tracing::info!(
                code = ?rewritten.code(),
                detail = rewritten.message(),
                suppressed,
                "request refused before its handler"
            );
        }
        rewritten.into_http()
    }
}
