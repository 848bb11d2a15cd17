//! Values the server's call layer puts in a call's extensions for the
//! handlers: the slot a call holds under its cap, and the signal that its
//! request message has arrived.

use std::sync::Arc;

/// A call's slot under its cap, put in its extensions by the server's call
/// layer, which holds it until the response is done; a stream's driver
/// holds it too (see [`crate::streaming::StreamSlot`]).
#[derive(Debug, Clone)]
pub struct CallSlot(pub Arc<tokio::sync::OwnedSemaphorePermit>);

/// Put in a unary call's extensions by the server's call layer, which gives
/// up on a call whose request message does not come in time; the handler
/// signals it as soon as it runs, that is once the message has arrived.
#[derive(Debug, Clone, Default)]
pub struct RequestArrived(Arc<tokio::sync::Notify>);

impl RequestArrived {
    /// Marks the request as arrived.
    pub fn signal(&self) {
        // `notify_one` keeps the signal for a waiter that is not yet waiting.
        self.0.notify_one();
    }

    /// Signals the arrival of `request`'s message, if the call layer waits
    /// for it (a handler calls this first thing: tonic runs a unary
    /// handler once it has decoded the message).
    pub fn signal_in<T>(request: &tonic::Request<T>) {
        if let Some(arrived) = request.extensions().get::<RequestArrived>() {
            arrived.signal();
        }
    }

    /// Completes once the request has arrived.
    pub async fn wait(&self) {
        self.0.notified().await;
    }
}
