//! Client connections: how many may be open, how long one may wait before
//! its first call, and their TLS handshakes.
//!
//! The accept loop (as in mini-redis) takes a slot from a semaphore of
//! `--max-connections` for every connection it accepts, and the slot goes
//! with the connection until it closes. A connection over the cap is
//! refused as soon as it is accepted. On a plaintext port the server first
//! says why in HTTP/2's own words: its SETTINGS, then a GOAWAY that
//! processed no stream, with REFUSED_STREAM and a note, so that clients
//! report UNAVAILABLE (safe to retry: nothing was done) rather than the
//! CANCELLED a bare close gives. On a TLS port it just closes (there is no
//! HTTP/2 before the handshake). Every refusal is counted, and logged at
//! most once a second.
//!
//! A connection that opens no call within `--first-call-timeout` of being
//! accepted (its TLS handshake included) is closed too: an idle HTTP/2
//! connection holds some 17 KiB and a slot, and a client that wants the
//! service calls at once. Its IO reports an error once the clock runs out,
//! unless a call ([`super::calls`]) or a page load ([`super::web`]) has
//! marked it called first, and hyper closes it.
//!
//! Each admitted connection is sorted by the protocol it speaks: HTTP/2
//! (gRPC) goes to tonic, HTTP/1.1 (browsers: the page and gRPC-Web) to
//! [`super::http1`], which bounds its buffers. A plaintext client is known
//! by its first bytes, which it sends at once (HTTP/2's preface, or a
//! request line): up to four are read, within the first-call clock, and
//! replayed to the server; a TLS client is known by ALPN. A
//! refusal at the cap is written in the client's protocol too: HTTP/1.1
//! clients get a `503` instead of HTTP/2 frames they cannot read.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::time::{Instant, Sleep};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::server::Connected;

use super::tls::log_refused_handshake;
use crate::log_limit::LogLimit;
use crate::service::{ConnectionGauge, Metrics};

/// At most one log line a second about connections refused at the cap.
static REFUSED_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// At most one log line a second about failed accepts (out of file
/// descriptors, say).
static ACCEPT_LOG: LogLimit = LogLimit::new(Duration::from_secs(1));

/// How long the accept loop rests after a failed accept, so that running
/// out of file descriptors does not make it spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Accepted connections waiting for tonic to take them.
const ACCEPTED_BUFFER: usize = 16;

/// How connections are admitted.
#[derive(Clone)]
pub struct ConnectionOptions {
    /// Most connections open at once.
    pub max_connections: usize,
    /// How long a connection may wait for its first call.
    pub first_call_timeout: Duration,
    /// TLS, if the server serves it.
    pub tls: Option<TlsAcceptor>,
}

/// The connections accepted on `listener`: those that speak HTTP/2, as
/// tonic takes them, and those that speak HTTP/1.1. The accept loop stops,
/// and the listening socket closes, once tonic drops its stream (when the
/// server starts draining).
pub fn incoming(
    listener: TcpListener,
    options: ConnectionOptions,
    metrics: Arc<Metrics>,
) -> (
    ReceiverStream<io::Result<Connection>>,
    mpsc::Receiver<Connection>,
) {
    let (accepted, incoming) = mpsc::channel(ACCEPTED_BUFFER);
    let (http1, http1_incoming) = mpsc::channel(ACCEPTED_BUFFER);
    let sorted = Sorted {
        http2: accepted,
        http1,
    };
    tokio::spawn(accept_loop(listener, options, metrics, sorted));
    (ReceiverStream::new(incoming), http1_incoming)
}

/// Where admitted connections go, by protocol.
#[derive(Clone)]
struct Sorted {
    http2: mpsc::Sender<io::Result<Connection>>,
    http1: mpsc::Sender<Connection>,
}

impl Sorted {
    async fn send(&self, protocol: Protocol, connection: Connection) {
        match protocol {
            Protocol::Http2 => {
                let _ = self.http2.send(Ok(connection)).await;
            }
            Protocol::Http1 => {
                let _ = self.http1.send(connection).await;
            }
        }
    }
}

/// What a client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Http2,
    Http1,
}

/// What every HTTP/2 client sends first.
const HTTP2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// What became of a plaintext client's first bytes.
enum Sniffed {
    /// It speaks this protocol; `first` are the bytes read to tell, which
    /// the connection replays before reading on.
    Speaks { protocol: Protocol, first: Vec<u8> },
    /// It sent nothing telling by the deadline.
    Silent,
    /// It closed (or its socket failed) first.
    Closed,
}

/// Reads a plaintext client's first bytes, as many as it takes to tell
/// HTTP/2's preface from an HTTP/1.1 request line (at most 4), until
/// `deadline`.
async fn sniff(stream: &mut TcpStream, deadline: Instant) -> Sniffed {
    use tokio::io::AsyncReadExt;
    let mut first = Vec::with_capacity(4);
    while first.len() < 4 {
        let mut byte = [0u8; 4];
        let wanted = 4 - first.len();
        match tokio::time::timeout_at(deadline, stream.read(&mut byte[..wanted])).await {
            Err(_) => return Sniffed::Silent,
            Ok(Ok(0) | Err(_)) => return Sniffed::Closed,
            Ok(Ok(read)) => first.extend_from_slice(&byte[..read]),
        }
        if !HTTP2_PREFACE.starts_with(&first) {
            return Sniffed::Speaks {
                protocol: Protocol::Http1,
                first,
            };
        }
    }
    Sniffed::Speaks {
        protocol: Protocol::Http2,
        first,
    }
}

async fn accept_loop(
    listener: TcpListener,
    options: ConnectionOptions,
    metrics: Arc<Metrics>,
    sorted: Sorted,
) {
    let accepted = &sorted.http2;
    let slots = Arc::new(Semaphore::new(options.max_connections));
    let refusals = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    while let Some((stream, peer)) = accept(&listener, accepted).await {
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            metrics.connection_refused();
            if let Some(suppressed) = REFUSED_LOG.check() {
                tracing::warn!(%peer, suppressed, max = options.max_connections,
                    "connection refused: --max-connections are open");
            }
            if options.tls.is_none() {
                refuse(stream, &refusals);
            }
            continue;
        };
        let _ = stream.set_nodelay(true);
        let admitted = Admitted {
            peer,
            slot,
            first_call_by: Instant::now() + options.first_call_timeout,
            gauge: metrics.connection_opened(),
        };
        let sorted = sorted.clone();
        let metrics = metrics.clone();
        match &options.tls {
            None => {
                tokio::spawn(async move {
                    let mut stream = stream;
                    match sniff(&mut stream, admitted.first_call_by).await {
                        Sniffed::Speaks { protocol, first } => {
                            let mut connection =
                                admitted.into_connection(Io::Plain(stream), &metrics);
                            connection.replay = first;
                            sorted.send(protocol, connection).await;
                        }
                        Sniffed::Silent => {
                            metrics.connection_idle_closed();
                            tracing::debug!(peer = %admitted.peer, "connection closed: no call in time");
                        }
                        Sniffed::Closed => {}
                    }
                });
            }
            Some(tls) => {
                let handshake = handshake(tls.clone(), stream, admitted, metrics);
                tokio::spawn(async move {
                    if let Some((protocol, connection)) = handshake.await {
                        sorted.send(protocol, connection).await;
                    }
                });
            }
        }
    }
}

/// The next connection, or `None` once tonic has stopped taking them. A
/// failed accept (out of file descriptors, say) is logged at most once a
/// second and retried after a pause.
async fn accept(
    listener: &TcpListener,
    accepted: &mpsc::Sender<io::Result<Connection>>,
) -> Option<(TcpStream, SocketAddr)> {
    loop {
        tokio::select! {
            () = accepted.closed() => return None,
            result = listener.accept() => match result {
                Ok(connection) => return Some(connection),
                Err(error) => {
                    if let Some(suppressed) = ACCEPT_LOG.check() {
                        tracing::warn!(%error, suppressed, "cannot accept a connection");
                    }
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                }
            },
        }
    }
}

/// Refusals being written at once; past this a refused connection is just
/// closed, so that a flood of connections cannot make refusing them cost.
const REFUSALS_AT_ONCE: usize = 32;

/// How long a refused connection is read from, and its data dropped,
/// before it closes: long enough for the client to read the GOAWAY before
/// a close with unread data turns into a TCP reset that would destroy it.
const REFUSAL_LINGER: Duration = Duration::from_millis(200);

/// The server's side of an HTTP/2 connection that it refuses: an empty
/// SETTINGS frame (the preface a server must send), then a GOAWAY frame
/// with last stream 0 (no stream was processed), error REFUSED_STREAM and
/// a note in its debug data.
const REFUSAL: &[u8] = &{
    const NOTE: &[u8] = b"sudoku-server: --max-connections are open; retry with backoff";
    const GOAWAY_LENGTH: usize = 8 + NOTE.len();
    let mut frames = [0u8; 9 + 9 + GOAWAY_LENGTH];
    // SETTINGS: length 0, type 4, no flags, stream 0.
    frames[3] = 4;
    // GOAWAY: length, type 7, no flags, stream 0; last stream id 0, error
    // code REFUSED_STREAM (7), then the note.
    frames[9] = (GOAWAY_LENGTH >> 16) as u8;
    frames[10] = (GOAWAY_LENGTH >> 8) as u8;
    frames[11] = GOAWAY_LENGTH as u8;
    frames[12] = 7;
    frames[9 + 9 + 7] = 7;
    let mut i = 0;
    while i < NOTE.len() {
        frames[9 + 9 + 8 + i] = NOTE[i];
        i += 1;
    }
    frames
};

/// The same refusal for an HTTP/1.1 client: `503`, which a gRPC-Web
/// client reads as UNAVAILABLE.
const HTTP1_REFUSAL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\n\
content-type: text/plain; charset=utf-8\r\n\
retry-after: 1\r\n\
connection: close\r\n\
content-length: 63\r\n\r\n\
sudoku-server: --max-connections are open; retry with backoff\r\n";

/// How long a refused connection's first bytes are waited for, to tell
/// an HTTP/1.1 client (which gets [`HTTP1_REFUSAL`]) from an HTTP/2 one.
const REFUSAL_SNIFF: Duration = Duration::from_millis(200);

/// Says why a plaintext connection over the cap is refused, in its
/// protocol, then closes it, on a task of its own (if fewer than
/// [`REFUSALS_AT_ONCE`] are running; else it just closes it).
fn refuse(stream: TcpStream, refusals: &Arc<Semaphore>) {
    let Ok(permit) = refusals.clone().try_acquire_owned() else {
        return;
    };
    tokio::spawn(async move {
        let _permit = permit;
        let mut stream = stream;
        let refusal = match sniff(&mut stream, Instant::now() + REFUSAL_SNIFF).await {
            Sniffed::Speaks {
                protocol: Protocol::Http1,
                ..
            } => HTTP1_REFUSAL,
            _ => REFUSAL,
        };
        let write_and_drain = async {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            stream.write_all(refusal).await?;
            stream.shutdown().await?;
            let mut discard = [0u8; 1024];
            while stream.read(&mut discard).await? > 0 {}
            io::Result::Ok(())
        };
        let _ = tokio::time::timeout(REFUSAL_LINGER, write_and_drain).await;
    });
}

/// A TLS handshake, within the connection's first-call clock, and the
/// protocol ALPN chose (HTTP/2 unless the client asked for HTTP/1.1); a
/// failure is counted and logged with its reason.
async fn handshake(
    tls: TlsAcceptor,
    stream: TcpStream,
    admitted: Admitted,
    metrics: Arc<Metrics>,
) -> Option<(Protocol, Connection)> {
    let reason = match tokio::time::timeout_at(admitted.first_call_by, tls.accept(stream)).await {
        Ok(Ok(stream)) => {
            let protocol = match stream.get_ref().1.alpn_protocol() {
                Some(b"http/1.1") => Protocol::Http1,
                _ => Protocol::Http2,
            };
            let connection = admitted.into_connection(Io::Tls(Box::new(stream)), &metrics);
            return Some((protocol, connection));
        }
        Ok(Err(error)) => error.to_string(),
        Err(_) => "the handshake did not finish within --first-call-timeout".to_string(),
    };
    metrics.tls_handshake_failed();
    log_refused_handshake(admitted.peer, &reason);
    None
}

/// A connection that has its slot, before its IO is ready.
struct Admitted {
    peer: SocketAddr,
    slot: OwnedSemaphorePermit,
    first_call_by: Instant,
    gauge: ConnectionGauge,
}

impl Admitted {
    fn into_connection(self, io: Io, metrics: &Arc<Metrics>) -> Connection {
        Connection {
            io,
            replay: Vec::new(),
            info: ConnectionInfo {
                remote_addr: self.peer,
                called: Arc::new(AtomicBool::new(false)),
            },
            first_call: Some(Box::pin(tokio::time::sleep_until(self.first_call_by))),
            metrics: metrics.clone(),
            _slot: self.slot,
            _gauge: self.gauge,
        }
    }
}

enum Io {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

/// An accepted connection, as tonic serves it: its IO, with its slot under
/// the cap and its first-call clock.
pub struct Connection {
    io: Io,
    /// Bytes read to tell the protocol, given back before the socket's.
    replay: Vec<u8>,
    info: ConnectionInfo,
    /// Running until the first call; `None` after it.
    first_call: Option<Pin<Box<Sleep>>>,
    metrics: Arc<Metrics>,
    _slot: OwnedSemaphorePermit,
    _gauge: ConnectionGauge,
}

/// What calls know of their connection (tonic puts it in every request's
/// extensions).
#[derive(Debug, Clone)]
pub struct ConnectionInfo {
    /// The client's address.
    pub remote_addr: SocketAddr,
    called: Arc<AtomicBool>,
}

impl ConnectionInfo {
    /// Notes that the connection has had a call, which stops its
    /// first-call clock.
    pub fn mark_called(&self) {
        self.called.store(true, Ordering::Relaxed);
    }
}

impl Connected for Connection {
    type ConnectInfo = ConnectionInfo;

    fn connect_info(&self) -> ConnectionInfo {
        self.info.clone()
    }
}

impl Connection {
    /// An error once the first-call clock has run out without a call; the
    /// clock is dropped once a call has come. Polled with every read, which
    /// hyper always has pending on an open connection.
    fn check_first_call(&mut self, cx: &mut Context<'_>) -> io::Result<()> {
        let Some(clock) = &mut self.first_call else {
            return Ok(());
        };
        if self.info.called.load(Ordering::Relaxed) {
            self.first_call = None;
            return Ok(());
        }
        if clock.as_mut().poll(cx).is_pending() {
            return Ok(());
        }
        self.first_call = None;
        self.metrics.connection_idle_closed();
        tracing::debug!(peer = %self.info.remote_addr, "connection closed: no call in time");
        Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "no call within --first-call-timeout",
        ))
    }
}

impl Connection {
    /// Counts what a write wrote in `sudoku_connection_sent_bytes_total`.
    fn count_sent(&self, written: &Poll<io::Result<usize>>) {
        if let Poll::Ready(Ok(bytes)) = written {
            self.metrics.connection_sent(*bytes);
        }
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if let Err(error) = self.check_first_call(cx) {
            return Poll::Ready(Err(error));
        }
        if !self.replay.is_empty() {
            let length = self.replay.len().min(buf.remaining());
            buf.put_slice(&self.replay[..length]);
            self.replay.drain(..length);
            self.metrics.connection_received(length);
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        let read = match &mut self.io {
            Io::Plain(stream) => Pin::new(stream).poll_read(cx, buf),
            Io::Tls(stream) => Pin::new(stream.as_mut()).poll_read(cx, buf),
        };
        if let Poll::Ready(Ok(())) = read {
            self.metrics
                .connection_received(buf.filled().len() - before);
        }
        read
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let written = match &mut self.io {
            Io::Plain(stream) => Pin::new(stream).poll_write(cx, buf),
            Io::Tls(stream) => Pin::new(stream.as_mut()).poll_write(cx, buf),
        };
        self.count_sent(&written);
        written
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let written = match &mut self.io {
            Io::Plain(stream) => Pin::new(stream).poll_write_vectored(cx, bufs),
            Io::Tls(stream) => Pin::new(stream.as_mut()).poll_write_vectored(cx, bufs),
        };
        self.count_sent(&written);
        written
    }

    fn is_write_vectored(&self) -> bool {
        match &self.io {
            Io::Plain(stream) => stream.is_write_vectored(),
            Io::Tls(stream) => stream.is_write_vectored(),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.io {
            Io::Plain(stream) => Pin::new(stream).poll_flush(cx),
            Io::Tls(stream) => Pin::new(stream.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.io {
            Io::Plain(stream) => Pin::new(stream).poll_shutdown(cx),
            Io::Tls(stream) => Pin::new(stream.as_mut()).poll_shutdown(cx),
        }
    }
}
