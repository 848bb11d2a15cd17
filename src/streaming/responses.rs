//! The response side of a stream: the channel from the driver to the
//! transport, and the slot the stream holds under its cap until both are
//! done with it.
//!
//! Answers travel in groups (one per batch of requests taken in together,
//! see [`crate::grouped_channel`]), each with the [`Admission`] that keeps
//! its room counted until the transport has taken the group's last answer.
//! The stream's final error is not a message in the channel: the driver
//! sets it with [`ResponseSender::end`], which never waits, and the
//! transport reads it after the last group.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio_stream::Stream;

use super::budget::Admission;
use crate::grouped_channel::{self, GroupSender, GroupStream};

/// Groups of responses (one per batch of requests) buffered between the
/// driver and the transport. Small on purpose: backpressure should reach
/// the request side quickly.
pub const RESPONSE_BUFFER: usize = 4;

/// Responses to requests taken in together, with the admission that keeps
/// them counted until the transport has taken them all.
pub(super) type Group<R, E> = (Vec<Result<R, E>>, Option<Admission>);

/// The driver's end of the responses.
pub struct ResponseSender<R, E> {
    pub(super) groups: GroupSender<Result<R, E>, Option<Admission>>,
    end: Arc<Mutex<Option<E>>>,
}

/// What the transport reads, one response at a time: the groups the driver
/// sent, then the error the stream ended with, if it failed. It shares the
/// stream's [`StreamSlot`] with the driver, so the slot is held until the
/// transport is done with the stream, answers still buffered included.
pub struct ResponseStream<R, E> {
    groups: GroupStream<Result<R, E>, Option<Admission>>,
    end: Arc<Mutex<Option<E>>>,
    _slot: Arc<StreamSlot>,
}

/// A stream's slot under its cap, and whatever else counts it as open
/// (a metrics gauge): shared by the driver and the transport, and given
/// back once both are done with the stream. The driver may outlive the
/// responses (it reads what a client still sends for a while after the
/// stream ended), and the transport the driver (answers waiting for a slow
/// client); either way the stream still counts.
pub struct StreamSlot {
    _held: Box<dyn Send + Sync>,
}

impl StreamSlot {
    /// A slot that holds `held` (a permit, a gauge's guard) until dropped.
    pub fn new(held: impl Send + Sync + 'static) -> Arc<StreamSlot> {
        Arc::new(StreamSlot {
            _held: Box::new(held),
        })
    }
}

/// A stream's response channel, holding `slot` until the transport drops
/// it.
pub fn response_channel<R, E>(
    slot: Arc<StreamSlot>,
) -> (ResponseSender<R, E>, ResponseStream<R, E>) {
    let (groups, stream) = grouped_channel::channel(RESPONSE_BUFFER);
    let end = Arc::new(Mutex::new(None));
    let sender = ResponseSender {
        groups,
        end: end.clone(),
    };
    let stream = ResponseStream {
        groups: stream,
        end,
        _slot: slot,
    };
    (sender, stream)
}

impl<R, E> ResponseSender<R, E> {
    /// Ends the stream with `error`, after every group already sent,
    /// without waiting for the client to take them.
    pub(super) fn end(self, error: E) {
        *self
            .end
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(error);
    }
}

impl<R, E> Stream for ResponseStream<R, E> {
    type Item = Result<R, E>;

    fn poll_next(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        match Pin::new(&mut self.groups).poll_next(context) {
            Poll::Ready(None) => {
                let mut end = self
                    .end
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                Poll::Ready(end.take().map(Err))
            }
            other => other,
        }
    }
}
