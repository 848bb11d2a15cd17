//! A bounded channel that carries items in groups and reads as a stream of
//! single items.
//!
//! Both ends of a SolveStream move hundreds of thousands of small messages
//! per second: the service's answers, and the requests of the command
//! line's file runner. Sending each through its own channel operation (a
//! lock, a wake-up) costs about as much as encoding it, so the producer
//! hands over a group at a time and the transport reads the group's items
//! one by one. The channel is bounded in groups, and groups are bounded by
//! their producers, so backpressure is unchanged.
//!
//! A group may carry a ticket, any value, which is dropped once the group's
//! last item has been read. The service puts the stream's admission there:
//! the bytes and puzzles a group of answers counts against the stream's
//! window and the server's budget stay counted until the transport has
//! taken every answer of the group, so a client that stops reading cannot
//! make the server hold more than the window allows.

use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::mpsc;
use tokio_stream::Stream;

/// The sending end: one `send` per group, `(items, ticket)`.
pub type GroupSender<T, K = ()> = mpsc::Sender<(Vec<T>, K)>;

/// The receiving end, as a stream of single items.
pub struct GroupStream<T, K = ()> {
    groups: mpsc::Receiver<(Vec<T>, K)>,
    current: std::vec::IntoIter<T>,
    /// The ticket of the group being read, dropped with its last item.
    ticket: Option<K>,
}

/// A channel holding at most `groups` groups.
pub fn channel<T, K>(groups: usize) -> (GroupSender<T, K>, GroupStream<T, K>) {
    let (sender, receiver) = mpsc::channel(groups);
    let stream = GroupStream {
        groups: receiver,
        current: Vec::new().into_iter(),
        ticket: None,
    };
    (sender, stream)
}

impl<T, K> Stream for GroupStream<T, K> {
    type Item = T;

    fn poll_next(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Option<T>> {
        loop {
            if let Some(item) = self.current.next() {
                if self.current.len() == 0 {
                    self.ticket = None;
                }
                return Poll::Ready(Some(item));
            }
            self.ticket = None;
            match self.groups.poll_recv(context) {
                Poll::Ready(Some((items, ticket))) => {
                    self.current = items.into_iter();
                    self.ticket = Some(ticket);
                }
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

// Nothing inside is ever pinned in place: the stream only moves values out
// of its fields, so it can be moved freely whatever `T` and `K` are.
impl<T, K> Unpin for GroupStream<T, K> {}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use tokio_stream::StreamExt;

    use super::*;

    #[tokio::test]
    async fn groups_arrive_as_single_items_in_order_and_the_stream_ends() {
        let (sender, stream) = channel(2);
        let producer = tokio::spawn(async move {
            for group in [vec![1, 2, 3], vec![], vec![4], vec![5, 6]] {
                sender.send((group, ())).await.unwrap();
            }
        });
        let items: Vec<i32> = stream.collect().await;
        producer.await.unwrap();
        assert_eq!(items, [1, 2, 3, 4, 5, 6]);
    }

    #[tokio::test]
    async fn a_ticket_is_dropped_with_the_last_item_of_its_group() {
        let (sender, mut stream) = channel(2);
        let ticket = Arc::new(());
        sender.send((vec![1, 2], ticket.clone())).await.unwrap();
        assert_eq!(stream.next().await, Some(1));
        assert_eq!(Arc::strong_count(&ticket), 2, "held while an item is left");
        assert_eq!(stream.next().await, Some(2));
        assert_eq!(Arc::strong_count(&ticket), 1, "dropped with the last item");
        sender.send((Vec::new(), ticket.clone())).await.unwrap();
        drop(sender);
        assert_eq!(stream.next().await, None);
        assert_eq!(Arc::strong_count(&ticket), 1, "an empty group's too");
    }
}
