//! Values the server's call layer puts in a call's extensions for the
//! handlers: the slot a call holds under its cap, and the signal that its
//! request message has arrived.

use std::sync::Arc;

/// A call's slot under its cap, put in its extensions by the server's call
/// layer, which holds it until the response is done; a stream's driver
/// holds it too (see [`crate::streaming::StreamSlot`]).
#[derive(Debug, Clone)]
pub struct CallSlot(pub Arc<tokio::sync::OwnedSemaphorePermit>);

/// Put in every sudoku call's extensions by the server's call layer; the
/// handler signals it as soon as it runs: for a unary call (or Generate)
/// once its request message has arrived, for a stream once tonic has
/// taken the call. The layer gives up on a unary call whose message does
/// not come in time, and knows from it whether a refusal came from tonic
/// (the handler never ran) or from the handler.
#[derive(Debug, Clone, Default)]
pub struct RequestArrived(Arc<Arrival>);

/// The signal, and whether it was given.
#[derive(Debug, Default)]
struct Arrival {
    notify: tokio::sync::Notify,
    arrived: std::sync::atomic::AtomicBool,
}

impl RequestArrived {
    /// Marks the request as arrived.
    pub fn signal(&self) {
        self.0
            .arrived
            .store(true, std::sync::atomic::Ordering::Release);
        // `notify_one` keeps the signal for a waiter that is not yet waiting.
        self.0.notify.notify_one();
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
        self.0.notify.notified().await;
    }

    /// Whether the request has arrived: false after the call means that
    /// its handler never ran (tonic refused the request, or it never came).
    pub fn has_arrived(&self) -> bool {
        self.0.arrived.load(std::sync::atomic::Ordering::Acquire)
    }
}
