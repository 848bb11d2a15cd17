//! The values flags take: durations and sizes in the units people write,
//! and parsers that check a flag's range as it is read.
//!
//! Every bound a flag has on its own is checked here, by the parser its
//! declaration names, so that clap refuses a bad value with the flag named
//! (from the command line or the environment alike) and the settings hold
//! only values that work. Checks that weigh one flag against another run
//! after parsing, beside the flags they weigh (`Limits::validate`,
//! `Settings::validate`).

use std::time::Duration;

use clap::builder::{RangedU64ValueParser, TypedValueParser};

/// The longest any duration flag may be: a day is far past any use, and
/// keeps the timers' arithmetic far from overflow.
pub const MAX_DURATION: Duration = Duration::from_secs(24 * 60 * 60);

/// The shortest a timer may be (besides 0 where 0 means off): the
/// runtime's timers keep nothing finer, and a `--first-call-timeout` of
/// `0.0001ms` is a typo that would close every connection before its
/// first call.
pub const MIN_TIMER: Duration = Duration::from_millis(1);

/// Parses `250ms`, `30s`, `2m` or a bare number of seconds (and `µs`
/// or `ns`, as durations print).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix("µs").or_else(|| text.strip_suffix("us")) {
        (n, 1e-6)
    } else if let Some(n) = text.strip_suffix("ns") {
        (n, 1e-9)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a duration such as 500ms, 30s or 2m"))?;
    Duration::try_from_secs_f64(value * scale).map_err(|error| format!("{text:?}: {error}"))
}

/// A duration as [`parse_duration`] reads it: `30s`, `500ms`.
pub fn format_duration(duration: Duration) -> String {
    if duration.subsec_nanos() == 0 {
        format!("{}s", duration.as_secs())
    } else {
        format!("{}ms", duration.as_millis())
    }
}

/// A budget of work: more than 0, at most [`MAX_DURATION`]. Work may be
/// given far less than a millisecond: an easy solve takes microseconds.
pub fn parse_budget(text: &str) -> Result<Duration, String> {
    duration_within(parse_duration(text)?, Duration::ZERO, false)
}

/// A timer: from [`MIN_TIMER`] to [`MAX_DURATION`].
pub fn parse_timer(text: &str) -> Result<Duration, String> {
    check_timer(parse_duration(text)?)
}

/// A timer that 0 turns off: 0, or from [`MIN_TIMER`] to [`MAX_DURATION`].
pub fn parse_timer_or_off(text: &str) -> Result<Duration, String> {
    check_timer_or_off(parse_duration(text)?)
}

/// [`parse_timer`]'s check, on a duration already made.
pub fn check_timer(duration: Duration) -> Result<Duration, String> {
    duration_within(duration, MIN_TIMER, false)
}

/// [`parse_timer_or_off`]'s check, on a duration already made.
pub fn check_timer_or_off(duration: Duration) -> Result<Duration, String> {
    duration_within(duration, MIN_TIMER, true)
}

/// `duration`, if it is not zero unless `zero_is_off`, and otherwise from
/// `least` to [`MAX_DURATION`].
fn duration_within(
    duration: Duration,
    least: Duration,
    zero_is_off: bool,
) -> Result<Duration, String> {
    if duration.is_zero() {
        return if zero_is_off {
            Ok(duration)
        } else {
            Err("must be more than 0".to_string())
        };
    }
    if duration < least {
        let or_off = if zero_is_off { ", or 0" } else { "" };
        return Err(format!(
            "{duration:?} must be at least {}{or_off}",
            format_duration(least)
        ));
    }
    if duration > MAX_DURATION {
        return Err(format!(
            "{} must be at most {}",
            format_duration(duration),
            format_duration(MAX_DURATION)
        ));
    }
    Ok(duration)
}

/// Parses a size: `64KiB`, `32MiB`, `1GiB` (or `KB`, `MB`, `GB`, also
/// powers of 1024) or a bare number of bytes.
pub fn parse_bytes(text: &str) -> Result<usize, String> {
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let not_a_size = || format!("{text:?} is not a size such as 4096, 64KiB or 32MiB");
    let scale: usize = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return Err(not_a_size()),
    };
    number
        .parse::<usize>()
        .ok()
        .and_then(|number| number.checked_mul(scale))
        .ok_or_else(not_a_size)
}

/// A parser of sizes from `least` to `most` bytes; `least_is` says why
/// the least is what it is.
pub fn bytes_within(
    least: usize,
    most: usize,
    least_is: &'static str,
) -> impl TypedValueParser<Value = usize> {
    move |text: &str| {
        let bytes = parse_bytes(text)?;
        if (least..=most).contains(&bytes) {
            Ok(bytes)
        } else {
            Err(format!(
                "{bytes} must be from {least} ({least_is}) to {most}"
            ))
        }
    }
}

/// A parser of counts from 1 to `most`.
pub fn count_within(most: u64) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::<usize>::new().range(1..=most)
}

/// Checks a group of flags made in code (not parsed from a command line)
/// with the parsers their declarations name: each field is written back
/// as its flag (`--a 1 --b 2s`, from its `Debug` text, so the group must
/// hold plain numbers and durations) and parsed again. Refuses the first
/// value out of range as clap would have, with the flag named, so a
/// group made in code meets every check a command line does, with no list
/// of its fields to keep.
pub fn check_flags<A: clap::Args + std::fmt::Debug>(flags: &A) -> Result<(), String> {
    let debug = format!("{flags:?}");
    let args = debug_fields(&debug)
        .flat_map(|(name, value)| [format!("--{}", name.replace('_', "-")), value.to_string()])
        .collect::<Vec<_>>();
    let command = A::augment_args(clap::Command::new("flags").no_binary_name(true));
    match command.try_get_matches_from(args) {
        Ok(_) => Ok(()),
        Err(error) => {
            let text = error.to_string();
            let first = text.lines().next().unwrap_or_default();
            Err(first.trim_start_matches("error: ").to_string())
        }
    }
}

/// A value's `Debug` text (`Name { a: 1, b: 2s }`) as log fields
/// (`a=1 b=2s`), for a struct of plain numbers and durations: one field
/// added to the struct is one more in the log, with nothing to list.
pub fn as_log_fields(debug: &str) -> String {
    debug_fields(debug)
        .map(|(name, value)| format!("{name}={value}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The fields of a struct's `Debug` text (`Name { a: 1, b: 2s }`), as
/// names and values, for a struct of plain numbers and durations.
fn debug_fields(debug: &str) -> impl Iterator<Item = (&str, &str)> {
    let inner = debug
        .split_once('{')
        .and_then(|(_, rest)| rest.rsplit_once('}'))
        .map_or(debug, |(inner, _)| inner);
    inner
        .split(',')
        .filter_map(|field| field.split_once(':'))
        .map(|(name, value)| (name.trim(), value.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_sizes_parse_in_common_units() {
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("-1s").is_err());
        for duration in [Duration::from_secs(30), Duration::from_millis(250)] {
            assert_eq!(parse_duration(&format_duration(duration)), Ok(duration));
        }
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("64KiB"), Ok(65536));
        assert_eq!(parse_bytes("32 MiB"), Ok(32 << 20));
        assert_eq!(parse_bytes("1g"), Ok(1 << 30));
        assert!(parse_bytes("-1").is_err());
        assert!(parse_bytes("12 parsecs").is_err());
        assert!(parse_bytes("99999999999999999999").is_err());
    }

    #[test]
    fn durations_parse_as_they_print() {
        for duration in [
            Duration::from_nanos(100),
            Duration::from_micros(500),
            Duration::from_millis(1500),
            Duration::from_secs(86_400),
        ] {
            assert_eq!(parse_duration(&format!("{duration:?}")), Ok(duration));
        }
        assert_eq!(parse_duration("2us"), Ok(Duration::from_micros(2)));
    }

    #[derive(Debug, clap::Args)]
    struct Two {
        #[arg(long, value_parser = count_within(10))]
        count: usize,
        #[arg(long, value_parser = parse_timer)]
        wait: Duration,
    }

    #[test]
    fn flags_made_in_code_are_checked_by_their_parsers() {
        let fine = Two {
            count: 10,
            wait: Duration::from_millis(1500),
        };
        assert_eq!(check_flags(&fine), Ok(()));
        let over = Two { count: 11, ..fine };
        assert_eq!(
            check_flags(&over),
            Err("invalid value '11' for '--count <COUNT>': 11 is not in 1..=10".to_string())
        );
        let quick = Two {
            count: 1,
            wait: Duration::from_micros(5),
        };
        assert_eq!(
            check_flags(&quick),
            Err("invalid value '5µs' for '--wait <WAIT>': 5µs must be at least 1ms".to_string())
        );
    }

    #[test]
    fn duration_kinds_keep_their_bounds() {
        assert_eq!(parse_budget("0.01ms"), Ok(Duration::from_micros(10)));
        assert_eq!(parse_budget("0").unwrap_err(), "must be more than 0");
        assert_eq!(parse_timer("0s").unwrap_err(), "must be more than 0");
        assert_eq!(
            parse_timer("0.0001ms").unwrap_err(),
            "100ns must be at least 1ms"
        );
        assert_eq!(parse_timer("1ms"), Ok(MIN_TIMER));
        assert_eq!(parse_timer_or_off("0"), Ok(Duration::ZERO));
        assert_eq!(
            parse_timer_or_off("0.5ms").unwrap_err(),
            "500µs must be at least 1ms, or 0"
        );
        assert_eq!(
            parse_timer_or_off("24h").unwrap_err(),
            "\"24h\" is not a duration such as 500ms, 30s or 2m"
        );
        assert_eq!(
            parse_budget("1e9").unwrap_err(),
            "1000000000s must be at most 86400s"
        );
        assert_eq!(parse_timer("1440m"), Ok(MAX_DURATION));
    }

    #[test]
    fn log_fields_come_from_the_debug_text() {
        #[derive(Debug)]
        #[allow(dead_code)]
        struct Two {
            count: usize,
            wait: Duration,
        }
        let two = Two {
            count: 3,
            wait: Duration::from_millis(1500),
        };
        assert_eq!(as_log_fields(&format!("{two:?}")), "count=3 wait=1.5s");
    }
}
