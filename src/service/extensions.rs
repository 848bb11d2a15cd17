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

    /// Completes once the request has arrived.
    pub async fn wait(&self) {
        self.0.notified().await;
    }
}
