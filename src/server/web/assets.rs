//! The web page's files, held in memory: compiled into the binary from
//! `web/dist/`, or read once at startup from `--web-dir` while the page
//! is being worked on. Each file keeps its gzip form (when smaller) and an
//! ETag, so a request costs a map lookup and no disk or compression.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::Path;

use http::HeaderValue;
use tonic::codegen::Bytes;

/// Every file of `web/dist/` at build time, by name.
const EMBEDDED: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));

/// The most bytes `--web-dir` may hold in all: the page is far smaller, and
/// the files stay in memory for the server's life.
pub const MAX_WEB_DIR_BYTES: u64 = 8 << 20;

/// One file as it is served.
#[derive(Debug)]
pub struct Asset {
    /// Its media type.
    pub content_type: HeaderValue,
    /// Its bytes as they are.
    pub identity: Bytes,
    /// Its gzip form, if that is smaller.
    pub gzip: Option<Bytes>,
    /// A strong validator of `identity` (quoted).
    pub etag: HeaderValue,
    /// The validator of the gzip form.
    pub gzip_etag: HeaderValue,
}

/// The page's files by URL path (`/` is `index.html`).
#[derive(Debug, Default)]
pub struct WebAssets {
    files: HashMap<String, Asset>,
}

/// Why `--web-dir` could not be served.
#[derive(Debug, thiserror::Error)]
pub enum WebDirError {
    /// The directory or one of its files could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// What could not be read.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// The files are larger than [`MAX_WEB_DIR_BYTES`] in all.
    #[error("{path} holds more than {MAX_WEB_DIR_BYTES} bytes of files")]
    TooLarge {
        /// The directory.
        path: String,
    },
}

impl WebAssets {
    /// The files compiled into this binary.
    pub fn embedded() -> WebAssets {
        Self::from_files(
            EMBEDDED
                .iter()
                .map(|(name, bytes)| (name.to_string(), Bytes::from_static(bytes))),
        )
    }

    /// The files directly inside `dir` (not its subdirectories, nor files
    /// whose name starts with a dot), read now.
    pub fn from_dir(dir: &Path) -> Result<WebAssets, WebDirError> {
        let read_error = |path: &Path| {
            let path = path.display().to_string();
            move |source| WebDirError::Read { path, source }
        };
        let mut files = Vec::new();
        let mut total = 0u64;
        for entry in std::fs::read_dir(dir).map_err(read_error(dir))? {
            let entry = entry.map_err(read_error(dir))?;
            let path = entry.path();
            let (Ok(kind), Some(name)) =
                (entry.file_type(), path.file_name().and_then(|n| n.to_str()))
            else {
                continue;
            };
            if !kind.is_file() || name.starts_with('.') {
                continue;
            }
            total += entry.metadata().map_err(read_error(&path))?.len();
            if total > MAX_WEB_DIR_BYTES {
                return Err(WebDirError::TooLarge {
                    path: dir.display().to_string(),
                });
            }
            let bytes = std::fs::read(&path).map_err(read_error(&path))?;
            files.push((name.to_string(), Bytes::from(bytes)));
        }
        Ok(Self::from_files(files.into_iter()))
    }

    fn from_files(files: impl Iterator<Item = (String, Bytes)>) -> WebAssets {
        let files = files
            .map(|(name, bytes)| {
                let path = if name == "index.html" {
                    "/".to_string()
                } else {
                    format!("/{name}")
                };
                (path, Asset::new(&name, bytes))
            })
            .collect();
        WebAssets { files }
    }

    /// The file served at `path`, if any.
    pub fn get(&self, path: &str) -> Option<&Asset> {
        let path = if path == "/index.html" { "/" } else { path };
        self.files.get(path)
    }

    /// Whether there is a page to serve at `/`.
    pub fn has_page(&self) -> bool {
        self.files.contains_key("/")
    }

    /// Every file's bytes, as served without compression.
    pub fn total_bytes(&self) -> usize {
        self.files.values().map(|asset| asset.identity.len()).sum()
    }
}

impl Asset {
    fn new(name: &str, bytes: Bytes) -> Asset {
        let kind = content_type(name);
        let gzip = compressible(kind)
            .then(|| gzip(&bytes))
            .filter(|compressed| compressed.len() < bytes.len())
            .map(Bytes::from);
        let tag = fingerprint(&bytes);
        Asset {
            content_type: HeaderValue::from_static(kind),
            identity: bytes,
            gzip,
            etag: etag(&format!("\"{tag:016x}\"")),
            gzip_etag: etag(&format!("\"{tag:016x}-gz\"")),
        }
    }
}

fn etag(text: &str) -> HeaderValue {
    HeaderValue::from_str(text).expect("hex digits and quotes make a valid header")
}

/// The media type of a file, by its extension.
fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, extension)| extension) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json" | "webmanifest") => "application/json",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("txt" | "map") => "text/plain; charset=utf-8",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn compressible(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || content_type.contains("svg")
        || content_type.contains("json")
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder
        .write_all(bytes)
        .expect("writing to memory cannot fail");
    encoder.finish().expect("writing to memory cannot fail")
}

/// FNV-1a over the bytes: stable across builds and machines, which is all
/// an ETag needs.
fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assets(files: &[(&str, &str)]) -> WebAssets {
        WebAssets::from_files(
            files
                .iter()
                .map(|(name, text)| (name.to_string(), Bytes::from(text.to_string()))),
        )
    }

    #[test]
    fn index_html_is_served_at_the_root_and_at_its_name() {
        let assets = assets(&[("index.html", "<p>hi</p>"), ("app.js", "1")]);
        assert_eq!(assets.get("/").unwrap().identity, "<p>hi</p>");
        assert_eq!(assets.get("/index.html").unwrap().identity, "<p>hi</p>");
        assert_eq!(assets.get("/app.js").unwrap().identity, "1");
        assert!(assets.get("/app.css").is_none());
        assert!(assets.has_page());
    }

    #[test]
    fn media_types_follow_the_extension() {
        assert_eq!(content_type("a.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("a.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("a.svg"), "image/svg+xml");
        assert_eq!(content_type("a"), "application/octet-stream");
    }

    #[test]
    fn gzip_is_kept_only_when_smaller_and_etags_follow_the_bytes() {
        let long = "let x = 1;\n".repeat(200);
        let assets = assets(&[("a.js", &long), ("b.js", "1"), ("c.js", "2")]);
        let a = assets.get("/a.js").unwrap();
        let compressed = a.gzip.as_ref().expect("repetitive text compresses");
        let mut decoded = String::new();
        io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(&compressed[..]),
            &mut decoded,
        )
        .unwrap();
        assert_eq!(decoded, long);
        assert!(assets.get("/b.js").unwrap().gzip.is_none());
        assert_ne!(
            assets.get("/b.js").unwrap().etag,
            assets.get("/c.js").unwrap().etag
        );
        assert_ne!(a.etag, a.gzip_etag);
    }

    #[test]
    fn a_directory_is_read_once_and_its_subdirectories_skipped() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "page").unwrap();
        std::fs::write(dir.path().join(".secret"), "no").unwrap();
        std::fs::create_dir(dir.path().join("nested")).unwrap();
        std::fs::write(dir.path().join("nested/x.js"), "x").unwrap();
        let assets = WebAssets::from_dir(dir.path()).unwrap();
        assert_eq!(assets.get("/").unwrap().identity, "page");
        assert!(assets.get("/nested/x.js").is_none() && assets.get("/nested").is_none());
        assert!(assets.get("/.secret").is_none());
        assert_eq!(assets.total_bytes(), 4);
        let missing = WebAssets::from_dir(&dir.path().join("absent")).unwrap_err();
        assert!(missing.to_string().contains("absent"), "{missing}");
    }
}
