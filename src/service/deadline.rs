//! Deadlines: when a call's `grpc-timeout` (gRPC over HTTP/2) passes.
//!
//! The server's call layer answers a unary call DEADLINE_EXCEEDED at its
//! deadline (tonic enforces the header itself, but answers CANCELLED); a
//! SolveStream's driver ends the stream then, after the answers already
//! computed. Both start the clock when the request headers arrive.

use std::time::Duration;

use http::HeaderMap;
use tokio::time::Instant;

/// How much earlier than the client's deadline the server gives up: the
/// resolution of tokio's timer, so that the server's answer arrives before
/// the client's own clock runs out.
const TIMER_TICK: Duration = Duration::from_millis(1);

/// The instant at which to give up on a request that arrived at `arrival`,
/// if it carries a valid `grpc-timeout`.
pub fn deadline_of(headers: &HeaderMap, arrival: Instant) -> Option<Instant> {
    let timeout = parse_grpc_timeout(headers.get("grpc-timeout")?.to_str().ok()?)?;
    // A deadline past what the clock can hold is no deadline.
    arrival.checked_add(timeout.saturating_sub(TIMER_TICK))
}

/// Parses a `grpc-timeout` value: up to eight digits and a unit (`H`, `M`,
/// `S`, `m`, `u` or `n`), per the gRPC over HTTP/2 spec.
pub fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    // Bytes, not chars: the unit is one ASCII byte, and anything else (a
    // multi-byte character included) is refused, never split.
    let (&unit, digits) = value.as_bytes().split_last()?;
    if digits.is_empty() || digits.len() > 8 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let amount = digits
        .iter()
        .fold(0u64, |amount, digit| amount * 10 + u64::from(digit - b'0'));
    Some(match unit {
        b'H' => Duration::from_secs(amount * 3600),
        b'M' => Duration::from_secs(amount * 60),
        b'S' => Duration::from_secs(amount),
        b'm' => Duration::from_millis(amount),
        b'u' => Duration::from_micros(amount),
        b'n' => Duration::from_nanos(amount),
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
        assert_eq!(
            parse_grpc_timeout("99999999H"),
            Some(Duration::from_secs(99_999_999 * 3600))
        );
    }

    #[test]
    fn rejects_malformed_values() {
        for value in [
            "",
            "S",
            "10",
            "10x",
            "123456789S",
            "-1S",
            "1.5S",
            "1é",
            "é",
            "1\u{2028}",
        ] {
            assert_eq!(parse_grpc_timeout(value), None, "{value:?}");
        }
    }

    #[test]
    fn the_deadline_is_one_tick_before_the_clients() {
        let mut headers = HeaderMap::new();
        headers.insert("grpc-timeout", "100m".parse().unwrap());
        let now = Instant::now();
        assert_eq!(
            deadline_of(&headers, now),
            Some(now + Duration::from_millis(99))
        );
        assert_eq!(deadline_of(&HeaderMap::new(), now), None);
    }
}
