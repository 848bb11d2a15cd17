//! A bounded channel that carries messages in batches and reads as a stream
//! of single messages.
//!
//! Both ends of a SolveStream move hundreds of thousands of small messages
//! per second. Sending each through its own channel operation (a lock, a
//! wake-up) costs about as much as encoding it, so the producer hands over
//! a batch at a time and the transport reads the batch's messages one by
//! one. The channel is bounded in batches, and batches are bounded by their
//! producers, so backpressure is unchanged.

use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::mpsc;
use tokio_stream::Stream;

/// The sending end: one `send` per batch.
pub type BatchSender<T> = mpsc::Sender<Vec<T>>;

/// The receiving end, as a stream of single items.
pub struct BatchStream<T> {
    batches: mpsc::Receiver<Vec<T>>,
    current: std::vec::IntoIter<T>,
}

/// A channel holding at most `batches` batches.
pub fn channel<T>(batches: usize) -> (BatchSender<T>, BatchStream<T>) {
    let (sender, receiver) = mpsc::channel(batches);
    let stream = BatchStream {
        batches: receiver,
        current: Vec::new().into_iter(),
    };
    (sender, stream)
}

impl<T> Stream for BatchStream<T> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Option<T>> {
        loop {
            if let Some(item) = self.current.next() {
                return Poll::Ready(Some(item));
            }
            match self.batches.poll_recv(context) {
                Poll::Ready(Some(batch)) => self.current = batch.into_iter(),
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

impl<T> Unpin for BatchStream<T> {}

#[cfg(test)]
mod tests {
    use tokio_stream::StreamExt;

    use super::*;

    #[tokio::test]
    async fn batches_arrive_as_single_items_in_order_and_the_stream_ends() {
        let (sender, stream) = channel(2);
        let producer = tokio::spawn(async move {
            for batch in [vec![1, 2, 3], vec![], vec![4], vec![5, 6]] {
                sender.send(batch).await.unwrap();
            }
        });
        let items: Vec<i32> = stream.collect().await;
        producer.await.unwrap();
        assert_eq!(items, [1, 2, 3, 4, 5, 6]);
    }
}
