//! Finding the f-puzzles payload in what a user pastes: the JSON itself, a
//! link (f-puzzles `?load=`, SudokuPad `/fpuzzles…`, sudokulab
//! `?fpuzzle=`), or the bare lz-string base64.
//!
//! Links travel through chat apps and forms, so the payload is
//! percent-decoded and a space, which form decoding makes of a `+`, is
//! turned back into one. SudokuPad's short puzzle ids need its web service
//! to resolve and are refused.

use super::lz_string::{LzError, decompress_from_base64};

/// Markers after which a link carries the payload, the longest first.
const PAYLOAD_MARKERS: [&str; 4] = ["?load=", "puzzleid=fpuzzles", "?fpuzzle=", "/fpuzzles"];

/// Payloads this short are SudokuPad ids, not puzzles.
const SHORTEST_PAYLOAD: usize = 21;

/// Why pasted text holds no f-puzzles JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// The payload did not decode.
    #[error("the link's payload does not decode: {0}")]
    Payload(#[from] LzError),
    /// A payload too short to be a puzzle: a SudokuPad id.
    #[error(
        "{0:?} is a short puzzle id, which only SudokuPad can look up; \
         open it there and share it as an f-puzzles link"
    )]
    ShortId(String),
}

/// The f-puzzles JSON in `text`: `text` itself when it is JSON (starts
/// with `{`, or `[` for the reader to refuse), or the decoded payload of a link or of bare base64. The
/// decoded text is at most `max_chars` UTF-16 units long.
pub fn json_text(text: &str, max_chars: usize) -> Result<String, LinkError> {
    let trimmed = text.trim();
    if trimmed.starts_with(['{', '[']) {
        return Ok(trimmed.to_owned());
    }
    let payload = payload(trimmed);
    if payload.len() < SHORTEST_PAYLOAD {
        return Err(LinkError::ShortId(payload));
    }
    Ok(decompress_from_base64(&payload, max_chars)?)
}

/// The base64 payload of a link, percent-decoded, or `text` when it is no
/// link.
fn payload(text: &str) -> String {
    let after_marker = PAYLOAD_MARKERS
        .iter()
        .find_map(|marker| text.find(marker).map(|at| &text[at + marker.len()..]))
        .unwrap_or(text);
    // A link's payload ends at the next parameter or fragment.
    let raw = after_marker
        .split(['&', '#'])
        .next()
        .unwrap_or(after_marker);
    percent_decoded(raw).replace(' ', "+")
}

/// `%2B` and the like turned back into characters; anything malformed is
/// kept as it is, for the decoder to refuse.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_are_found_in_every_link_form() {
        let b64 = "N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSTzKrsA";
        for link in [
            format!("https://www.f-puzzles.com/?load={b64}"),
            format!("https://sudokupad.app/fpuzzles{b64}"),
            format!("https://sudokupad.app/?puzzleid=fpuzzles{b64}&setting=1"),
            format!("https://sudokulab.net/?fpuzzle={b64}#top"),
            b64.to_string(),
        ] {
            assert_eq!(payload(&link), b64, "{link}");
        }
        assert_eq!(payload("abc%2Bdef%2F%3D"), "abc+def/=");
        assert_eq!(payload("abc def"), "abc+def");
        assert_eq!(payload("100%"), "100%");
    }

    #[test]
    fn short_ids_are_refused() {
        assert!(matches!(
            json_text("https://sudokupad.app/fpuzzlesabc", 1000),
            Err(LinkError::ShortId(_))
        ));
        assert_eq!(json_text("  {\"size\":4} ", 10).unwrap(), "{\"size\":4}");
    }
}
