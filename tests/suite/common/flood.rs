//! A hostile client, for the memory-bound tests: connections that say
//! hello and nothing more, streams that send the largest items allowed (or
//! full batches of them) and read no answers, and unary calls whose
//! request never comes; over HTTP/2, and as gRPC-Web clients over
//! HTTP/1.1 that never read.
//!
//! Everything it opens stays open until the [`Flood`] is dropped.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use sudoku_grpc::domain::MAX_PUZZLE_BYTES;
use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::pb::{
    SolveBatchRequest, SolveBatchResponse, SolveRequest, SolveStreamRequest, SolveStreamResponse,
};
use sudoku_grpc::service::limits::MAX_ID_BYTES;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::task::JoinSet;
use tonic::Streaming;
use tonic::transport::{Channel, Endpoint};

use super::CLASSIC;
use super::raw::solve_with_body;
use super::web::{call_head, frame};

/// The HTTP/2 client preface and an empty SETTINGS frame: a connection
/// that says hello and then nothing.
pub const HELLO: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00";

/// The largest item the server accepts: a 256-byte id and the classic
/// puzzle padded with layout to 2 KiB, so it is solved too.
pub fn largest_item(index: u64) -> SolveStreamRequest {
    let id = format!("{index:0>width$}", width = MAX_ID_BYTES);
    let puzzle = format!("{CLASSIC:<width$}", width = MAX_PUZZLE_BYTES);
    SolveStreamRequest {
        id,
        puzzle,
        grade: false,
    }
}

/// A full batch of `size` of the largest items: a 256-byte id and
/// [`largest_item`]'s puzzle each time.
pub fn largest_batch(index: u64, size: usize) -> SolveBatchRequest {
    let id = format!("{index:0>width$}", width = MAX_ID_BYTES);
    SolveBatchRequest::new(id, vec![largest_item(index).puzzle; size])
}

/// What a flood holds open, and what the server refused it.
#[derive(Default)]
pub struct Flood {
    idle: Vec<TcpStream>,
    channels: Vec<Channel>,
    streams: Vec<Streaming<SolveStreamResponse>>,
    batch_streams: Vec<Streaming<SolveBatchResponse>>,
    calls: JoinSet<()>,
    /// gRPC-Web connections over HTTP/1.1: the halves read no further,
    /// and what they send goes on in the background.
    web_readers: Vec<tokio::net::tcp::OwnedReadHalf>,
    web_writers: Vec<tokio::net::tcp::OwnedWriteHalf>,
    web_senders: JoinSet<()>,
    /// gRPC-Web calls the server refused at once.
    pub web_calls_refused: usize,
    /// Unary calls still waiting for an answer.
    calls_waiting: Arc<AtomicUsize>,
    /// Unary calls the server refused.
    calls_refused: Arc<AtomicUsize>,
    /// Reflection streams still waiting for their end.
    reflection_waiting: Arc<AtomicUsize>,
    /// Reflection streams the server refused.
    reflection_refused: Arc<AtomicUsize>,
    /// Connections the server refused (for idle ones, see
    /// [`Flood::closed_idle_connections`]).
    pub connections_refused: usize,
    /// Streams the server refused.
    pub streams_refused: usize,
    /// Batch streams the server refused.
    pub batch_streams_refused: usize,
}

/// A channel on its own connection, with small receive windows so that the
/// flood itself stays small: answers the flood does not read wait in the
/// server's buffers, not in this process.
async fn connection(address: &str) -> Option<Channel> {
    Endpoint::from_shared(format!("http://{address}"))
        .unwrap()
        .initial_stream_window_size(64 * 1024)
        .initial_connection_window_size(1 << 20)
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .ok()
}

/// A connection whose receive buffer is as small as the kernel allows, so
/// that what the server sends and nobody reads stays in the server.
async fn unread_connection(address: &str) -> Option<TcpStream> {
    let address = address.parse().ok()?;
    let socket = TcpSocket::new_v4().ok()?;
    socket.set_recv_buffer_size(4096).ok()?;
    socket.connect(address).await.ok()
}

/// Whether the server answered a call at once with a status in its
/// headers (a refusal); an open call says nothing, or only its head.
async fn refused_at_once(reader: &mut TcpStream) -> bool {
    let mut head = Vec::new();
    let mut buffer = [0u8; 1024];
    let read_head = async {
        while !head.windows(4).any(|window| window == b"\r\n\r\n") {
            match reader.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(read) => head.extend_from_slice(&buffer[..read]),
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_millis(300), read_head).await;
    String::from_utf8_lossy(&head)
        .to_ascii_lowercase()
        .contains("grpc-status: ")
}

impl Flood {
    /// Opens `count` connections that send the HTTP/2 preface and nothing
    /// more.
    pub async fn idle_connections(&mut self, address: &str, count: usize) {
        for _ in 0..count {
            match TcpStream::connect(address).await {
                Ok(mut stream) => {
                    let _ = stream.write_all(HELLO).await;
                    self.idle.push(stream);
                }
                Err(_) => self.connections_refused += 1,
            }
        }
    }

    /// Opens `count` TLS connections (trusting `ca`, a PEM certificate)
    /// that finish their handshake and make no call.
    pub async fn idle_tls_connections(&mut self, address: &str, ca: &str, count: usize) {
        let tls = tonic::transport::ClientTlsConfig::new()
            .ca_certificate(tonic::transport::Certificate::from_pem(ca))
            .domain_name("localhost");
        for _ in 0..count {
            let endpoint = Endpoint::from_shared(format!("https://{address}"))
                .unwrap()
                .tls_config(tls.clone())
                .unwrap();
            match endpoint.connect().await {
                Ok(channel) => self.channels.push(channel),
                Err(_) => self.connections_refused += 1,
            }
        }
    }

    /// Opens `connections` connections with `streams` SolveStream calls
    /// each, every one sending the largest items allowed, endlessly, and
    /// reading nothing.
    pub async fn greedy_streams(&mut self, address: &str, connections: usize, streams: usize) {
        for _ in 0..connections {
            let Some(channel) = connection(address).await else {
                self.connections_refused += 1;
                continue;
            };
            for _ in 0..streams {
                let items = tokio_stream::iter((0u64..).map(largest_item));
                let mut client = SudokuServiceClient::new(channel.clone());
                let call = client.solve_stream(items);
                match tokio::time::timeout(Duration::from_secs(5), call).await {
                    Ok(Ok(response)) => self.streams.push(response.into_inner()),
                    _ => self.streams_refused += 1,
                }
            }
            self.channels.push(channel);
        }
    }

    /// Opens `connections` connections with `streams` SolveBatchStream
    /// calls each, every one sending full batches of `batch` of the
    /// largest items, endlessly, and reading nothing.
    pub async fn greedy_batch_streams(
        &mut self,
        address: &str,
        connections: usize,
        streams: usize,
        batch: usize,
    ) {
        for _ in 0..connections {
            let Some(channel) = connection(address).await else {
                self.connections_refused += 1;
                continue;
            };
            for _ in 0..streams {
                let batches = tokio_stream::iter((0u64..).map(move |i| largest_batch(i, batch)));
                let mut client = SudokuServiceClient::new(channel.clone());
                let call = client.solve_batch_stream(batches);
                match tokio::time::timeout(Duration::from_secs(5), call).await {
                    Ok(Ok(response)) => self.batch_streams.push(response.into_inner()),
                    _ => self.batch_streams_refused += 1,
                }
            }
            self.channels.push(channel);
        }
    }

    /// Opens `connections` connections with `calls` unary Solve calls each
    /// whose request message never comes, each with 7.5 KiB of headers (the
    /// server takes up to 8 KiB).
    pub async fn pending_calls(&mut self, address: &str, connections: usize, calls: usize) {
        for _ in 0..connections {
            let Some(channel) = connection(address).await else {
                self.connections_refused += 1;
                continue;
            };
            for _ in 0..calls {
                let channel = channel.clone();
                let (waiting, refused) = (self.calls_waiting.clone(), self.calls_refused.clone());
                waiting.fetch_add(1, Ordering::SeqCst);
                self.calls.spawn(async move {
                    let request = padded(tokio_stream::pending::<SolveRequest>());
                    let answer = solve_with_body(channel, request).await;
                    waiting.fetch_sub(1, Ordering::SeqCst);
                    if answer.is_err() {
                        refused.fetch_add(1, Ordering::SeqCst);
                    }
                });
            }
            self.channels.push(channel);
        }
    }

    /// Opens one connection with `calls` reflection streams whose first
    /// request never comes, each with 7.5 KiB of headers: they share the
    /// slots of health watches ([`sudoku_grpc::server::OTHER_CALLS`]).
    pub async fn pending_reflection_calls(&mut self, address: &str, calls: usize) {
        let Some(channel) = connection(address).await else {
            self.connections_refused += 1;
            return;
        };
        for _ in 0..calls {
            let channel = channel.clone();
            let waiting = self.reflection_waiting.clone();
            let refused = self.reflection_refused.clone();
            waiting.fetch_add(1, Ordering::SeqCst);
            self.calls.spawn(async move {
                if !reflection_without_request(channel).await {
                    refused.fetch_add(1, Ordering::SeqCst);
                }
                waiting.fetch_sub(1, Ordering::SeqCst);
            });
        }
        self.channels.push(channel);
    }

    /// Opens `count` HTTP/1.1 connections, each with a gRPC-Web SolveStream
    /// whose body (chunked) sends the largest items allowed, endlessly, and
    /// whose answers are never read past their headers.
    pub async fn greedy_web_streams(&mut self, address: &str, count: usize) {
        let head = call_head("SolveStream", "transfer-encoding: chunked\r\n", 0);
        for _ in 0..count {
            let Some(stream) = self.unread_web_call(address, &head, &[]).await else {
                continue;
            };
            let (reader, mut writer) = stream.into_split();
            self.web_senders.spawn(async move {
                for index in 0u64.. {
                    let frame = frame(&largest_item(index));
                    let size = format!("{:x}\r\n", frame.len());
                    let chunk = [size.as_bytes(), &frame, b"\r\n"].concat();
                    if writer.write_all(&chunk).await.is_err() {
                        return;
                    }
                }
            });
            self.web_readers.push(reader);
        }
    }

    /// Opens `count` HTTP/1.1 connections, each with a gRPC-Web Solve whose
    /// message never ends (it says 100 bytes and sends 5), with 7.5 KiB of
    /// headers.
    pub async fn pending_web_calls(&mut self, address: &str, count: usize) {
        let head = call_head("Solve", "content-length: 100\r\n", 7 * 1024 + 512);
        for _ in 0..count {
            let partial_frame = [0, 0, 0, 0, 95];
            let Some(stream) = self.unread_web_call(address, &head, &partial_frame).await else {
                continue;
            };
            let (reader, writer) = stream.into_split();
            self.web_readers.push(reader);
            self.web_writers.push(writer);
        }
    }

    /// A connection that never reads, with a gRPC-Web call's `head` and
    /// the start of its `body` sent; `None` (counted) if the server refused
    /// the connection or the call at once.
    async fn unread_web_call(
        &mut self,
        address: &str,
        head: &str,
        body: &[u8],
    ) -> Option<TcpStream> {
        let Some(mut stream) = unread_connection(address).await else {
            self.connections_refused += 1;
            return None;
        };
        let _ = stream.write_all(head.as_bytes()).await;
        let _ = stream.write_all(body).await;
        if refused_at_once(&mut stream).await {
            self.web_calls_refused += 1;
            return None;
        }
        Some(stream)
    }

    /// How many of the idle connections the server has closed so far:
    /// reading what it sent (its SETTINGS) comes to the end.
    pub async fn closed_idle_connections(&mut self) -> usize {
        let mut closed = 0;
        for stream in &mut self.idle {
            let mut buffer = [0u8; 1024];
            loop {
                match tokio::time::timeout(Duration::from_millis(1), stream.read(&mut buffer)).await
                {
                    Ok(Ok(0)) | Ok(Err(_)) => {
                        closed += 1;
                        break;
                    }
                    Ok(Ok(_)) => continue,
                    Err(_) => break,
                }
            }
        }
        closed
    }

    /// Streams the server took, and unary calls still waiting.
    pub fn open(&self) -> (usize, usize) {
        (
            self.streams.len(),
            self.calls_waiting.load(Ordering::SeqCst),
        )
    }

    /// Batch streams the server took.
    pub fn batch_streams_open(&self) -> usize {
        self.batch_streams.len()
    }

    /// Reflection streams held open, and those the server refused.
    pub fn reflection_calls(&self) -> (usize, usize) {
        (
            self.reflection_waiting.load(Ordering::SeqCst),
            self.reflection_refused.load(Ordering::SeqCst),
        )
    }

    /// Unary calls the server has refused so far.
    pub fn calls_refused(&self) -> usize {
        self.calls_refused.load(Ordering::SeqCst)
    }
}

/// A v1 reflection stream that sends 7.5 KiB of headers and never a
/// request, until the server ends it; false if the server refused it.
async fn reflection_without_request(channel: Channel) -> bool {
    use tonic_reflection::pb::v1::{ServerReflectionRequest, ServerReflectionResponse};
    let mut grpc = tonic::client::Grpc::new(channel);
    if grpc.ready().await.is_err() {
        return false;
    }
    let request = padded(tokio_stream::pending::<ServerReflectionRequest>());
    let codec =
        tonic_prost::ProstCodec::<ServerReflectionRequest, ServerReflectionResponse>::default();
    let path = http::uri::PathAndQuery::from_static(
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    );
    match grpc.streaming(request, path, codec).await {
        Ok(response) => {
            let _ = response.into_inner().message().await;
            true
        }
        Err(_) => false,
    }
}

/// `message` as a request with 7.5 KiB of headers (the server takes up to
/// 8 KiB).
fn padded<T>(message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    let padding = "p"
        .repeat(7 * 1024 + 512)
        .parse()
        .expect("an ASCII header value");
    request.metadata_mut().insert("x-padding", padding);
    request
}
