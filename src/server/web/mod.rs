//! The browser's way in, on the gRPC port: the page's files, gRPC-Web
//! (tonic-web translates it into gRPC for the services), and CORS for
//! pages on other origins.
//!
//! All three are tower layers in front of the call policy, so a gRPC-Web
//! call meets the same limits as any call: it is admitted, timed and
//! counted by the call policy (`server::calls`) once tonic-web has turned
//! it into gRPC, and its HTTP/1.1 connection is one of `--max-connections`
//! (`server::connections`).

mod assets;
mod cors;
mod either;
mod page;

pub use assets::{MAX_WEB_DIR_BYTES, WebAssets, WebDirError};
pub use cors::{CorsGateLayer, parse_origin};
pub use page::WebPageLayer;
