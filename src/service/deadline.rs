//! The deadline a client set with the `grpc-timeout` header.
//!
//! tonic enforces that header itself, but answers CANCELLED when it expires.
//! A client that set a deadline should hear DEADLINE_EXCEEDED, so the handler
//! keeps its own deadline, one timer tick earlier than tonic's: when both are
//! due, the handler answers first.

use std::time::Duration;

use tokio::time::Instant;
use tonic::metadata::MetadataMap;

/// How much earlier than the client's deadline the handler gives up: the
/// resolution of tokio's timer.
const TIMER_TICK: Duration = Duration::from_millis(1);

/// The instant at which the handler should give up, if the client set a
/// deadline (`received` is when the call arrived).
pub fn from_metadata(metadata: &MetadataMap, received: Instant) -> Option<Instant> {
    let timeout = parse_grpc_timeout(metadata.get("grpc-timeout")?.to_str().ok()?)?;
    Some(received + timeout.saturating_sub(TIMER_TICK))
}

/// Parses a `grpc-timeout` value: up to eight digits and a unit (`H`, `M`,
/// `S`, `m`, `u` or `n`), per the gRPC over HTTP/2 spec.
fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount * 3600),
        "M" => Duration::from_secs(amount * 60),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_unit() {
        assert_eq!(parse_grpc_timeout("2H"), Some(Duration::from_secs(7200)));
        assert_eq!(parse_grpc_timeout("3M"), Some(Duration::from_secs(180)));
        assert_eq!(parse_grpc_timeout("4S"), Some(Duration::from_secs(4)));
        assert_eq!(parse_grpc_timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(
            parse_grpc_timeout("99999u"),
            Some(Duration::from_micros(99999))
        );
        assert_eq!(parse_grpc_timeout("1n"), Some(Duration::from_nanos(1)));
    }

    #[test]
    fn rejects_malformed_values() {
        for value in ["", "S", "10", "10x", "123456789S", "-1S", "1.5S"] {
            assert_eq!(parse_grpc_timeout(value), None, "{value:?}");
        }
    }

    #[test]
    fn the_deadline_is_one_tick_early() {
        let mut metadata = MetadataMap::new();
        metadata.insert("grpc-timeout", "100m".parse().unwrap());
        let now = Instant::now();
        assert_eq!(
            from_metadata(&metadata, now),
            Some(now + Duration::from_millis(99))
        );
        assert_eq!(from_metadata(&MetadataMap::new(), now), None);
    }
}
