//! A plain HTTP/1.1 client over a TCP socket, as a browser or `curl`
//! talks to the server: the page's files, CORS preflights, and gRPC-Web
//! calls framed by hand, so that the tests check the bytes on the wire
//! and not a library's reading of them.

use std::net::SocketAddr;
use std::time::Duration;

use base64::Engine;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An HTTP/1.1 response, read to the end of the connection.
#[derive(Debug)]
pub struct Http1Response {
    pub status: u16,
    /// Header names lowercased, in order.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub body: Vec<u8>,
}

impl Http1Response {
    /// The first value of `name`, if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header, _)| header == name)
            .map(|(_, value)| value.as_str())
    }

    /// Every header whose name starts with `access-control-`.
    pub fn cors_headers(&self) -> Vec<&(String, String)> {
        self.headers
            .iter()
            .filter(|(name, _)| name.starts_with("access-control-"))
            .collect()
    }
}

/// Sends `method path` with `headers` and `body` on a connection of its
/// own (`connection: close`) and reads the whole response.
pub async fn request(
    address: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Http1Response {
    let mut stream = TcpStream::connect(address).await.unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {address}\r\nconnection: close\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut raw))
        .await
        .expect("the response within 30 s")
        .expect("a readable response");
    parse_response(&raw)
}

/// Parses a response as sent: status line, headers, and a body either
/// chunked or up to the end.
pub fn parse_response(raw: &[u8]) -> Http1Response {
    let split = raw
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of headers in {:?}", String::from_utf8_lossy(raw)));
    let head = std::str::from_utf8(&raw[..split]).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .map(|line| {
            let (name, value) = line.split_once(':').unwrap();
            (name.trim().to_ascii_lowercase(), value.trim().to_string())
        })
        .collect();
    let rest = &raw[split + 4..];
    let chunked = headers
        .iter()
        .any(|(name, value)| name == "transfer-encoding" && value.contains("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_vec()
    };
    Http1Response {
        status,
        headers,
        body,
    }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line_end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size line");
        let size_text = std::str::from_utf8(&raw[..line_end]).unwrap();
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
        raw = &raw[line_end + 2..];
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&raw[..size]);
        raw = &raw[size + 2..];
    }
}

/// The head of a gRPC-Web (binary) call to `method`, with `extra` header
/// lines (its body's length or chunking, say, each ending in CRLF) and,
/// if `padding` is not zero, an `x-padding` header of that many bytes.
pub fn call_head(method: &str, extra: &str, padding: usize) -> String {
    let padding = match padding {
        0 => String::new(),
        bytes => format!("x-padding: {}\r\n", "p".repeat(bytes)),
    };
    format!(
        "POST /sudoku.v1.SudokuService/{method} HTTP/1.1\r\nhost: localhost\r\n\
         content-type: application/grpc-web+proto\r\nx-grpc-web: 1\r\n{padding}{extra}\r\n"
    )
}

/// A gRPC-Web request body: `message` in one data frame.
pub fn frame(message: &impl prost::Message) -> Vec<u8> {
    let message = message.encode_to_vec();
    let mut framed = vec![0u8];
    framed.extend_from_slice(&(message.len() as u32).to_be_bytes());
    framed.extend_from_slice(&message);
    framed
}

/// A gRPC-Web response body, split: its messages and its trailers (the
/// trailer frame's `name:value` lines, names lowercased).
#[derive(Debug, Default)]
pub struct GrpcWebBody {
    pub messages: Vec<Vec<u8>>,
    pub trailers: Vec<(String, String)>,
}

impl GrpcWebBody {
    /// Splits `body` into frames.
    pub fn parse(mut body: &[u8]) -> GrpcWebBody {
        let mut parsed = GrpcWebBody::default();
        while !body.is_empty() {
            let flags = body[0];
            let length = u32::from_be_bytes(body[1..5].try_into().unwrap()) as usize;
            let payload = &body[5..5 + length];
            if flags & 0x80 != 0 {
                let text = std::str::from_utf8(payload).unwrap();
                parsed
                    .trailers
                    .extend(
                        text.split("\r\n")
                            .filter(|line| !line.is_empty())
                            .map(|line| {
                                let (name, value) = line.split_once(':').unwrap();
                                (name.trim().to_ascii_lowercase(), value.trim().to_string())
                            }),
                    );
            } else {
                parsed.messages.push(payload.to_vec());
            }
            body = &body[5 + length..];
        }
        parsed
    }

    /// The `grpc-status` trailer.
    pub fn status(&self) -> Option<&str> {
        self.trailers
            .iter()
            .find(|(name, _)| name == "grpc-status")
            .map(|(_, value)| value.as_str())
    }
}

/// A call's status code and its message, percent-decoded: from the
/// headers of a trailers-only answer, else from the trailers.
pub fn status_of(response: &Http1Response, body: &GrpcWebBody) -> (Option<String>, String) {
    let trailer = |name: &str| {
        body.trailers
            .iter()
            .find(|(trailer, _)| trailer == name)
            .map(|(_, value)| value.as_str())
    };
    let code = response.header("grpc-status").or(body.status());
    let message = response
        .header("grpc-message")
        .or(trailer("grpc-message"))
        .unwrap_or_default();
    (code.map(str::to_string), percent_decoded(message))
}

/// A gRPC-Web call over HTTP/1.1 (binary, or text: base64 both ways):
/// the response and its body split into frames. A trailers-only answer
/// has its status in the headers and an empty body.
pub async fn call(
    address: SocketAddr,
    method: &str,
    message: &impl prost::Message,
    text: bool,
    extra_headers: &[(&str, &str)],
) -> (Http1Response, GrpcWebBody) {
    let path = format!("/sudoku.v1.SudokuService/{method}");
    let (content_type, body) = if text {
        let encoded = base64::engine::general_purpose::STANDARD.encode(frame(message));
        ("application/grpc-web-text", encoded.into_bytes())
    } else {
        ("application/grpc-web+proto", frame(message))
    };
    let mut headers = vec![
        ("content-type", content_type),
        ("accept", content_type),
        ("x-grpc-web", "1"),
    ];
    headers.extend_from_slice(extra_headers);
    let response = request(address, "POST", &path, &headers, &body).await;
    let body = if text {
        base64_frames(&response.body)
    } else {
        response.body.clone()
    };
    let frames = GrpcWebBody::parse(&body);
    (response, frames)
}

/// grpc-web-text bodies are base64 pieces that may each end in padding.
fn base64_frames(text: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(text).unwrap();
    let mut decoded = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest.find('=').map_or(rest.len(), |at| {
            at + rest[at..].chars().take_while(|&c| c == '=').count()
        });
        decoded.extend(
            base64::engine::general_purpose::STANDARD
                .decode(&rest[..end])
                .unwrap(),
        );
        rest = &rest[end..];
    }
    decoded
}

/// A `grpc-message` as sent: percent-encoded.
pub fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let escaped = text
            .get(at + 1..at + 3)
            .filter(|_| bytes[at] == b'%')
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        if let Some(byte) = escaped {
            decoded.push(byte);
            at += 3;
            continue;
        }
        decoded.push(bytes[at]);
        at += 1;
    }
    String::from_utf8(decoded).unwrap()
}
