//! The future of a layer that either answers at once or passes the call
//! on, without boxing: every HTTP/2 call goes through the web layers, and
//! the call policy keeps a call to one boxed future.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

pin_project_lite::pin_project! {
    /// One of two futures with the same output.
    #[project = EitherProjection]
    pub enum Either<A, B> {
        /// The first.
        Left { #[pin] future: A },
        /// The second.
        Right { #[pin] future: B },
    }
}

impl<A, B> Either<A, B> {
    /// `future`, as the first kind.
    pub fn left(future: A) -> Self {
        Either::Left { future }
    }

    /// `future`, as the second kind.
    pub fn right(future: B) -> Self {
        Either::Right { future }
    }
}

impl<A: Future, B: Future<Output = A::Output>> Future for Either<A, B> {
    type Output = A::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<A::Output> {
        match self.project() {
            EitherProjection::Left { future } => future.poll(cx),
            EitherProjection::Right { future } => future.poll(cx),
        }
    }
}
