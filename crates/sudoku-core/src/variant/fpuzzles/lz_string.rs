//! A decoder for lz-string's base64 form (`compressToBase64`), the payload
//! of an f-puzzles `?load=` link, written here so that its output has a cap.
//!
//! lz-string is LZ78-like: each code names a dictionary entry, and every
//! step adds the previous entry plus the first unit of the next as a new
//! one, so output can grow with the square of the input. A few kilobytes
//! of hostile base64 could expand to gigabytes; this decoder stops at
//! `max_units` UTF-16 units instead. Since each new entry is the previous
//! output segment and the unit after it, entries are kept as ranges of the
//! output, never copied.

/// Why a payload could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LzError {
    /// A character outside the base64 alphabet.
    #[error("{0:?} at position {1} is not a base64 character")]
    NotBase64(char, usize),
    /// The codes do not form a valid lz-string stream.
    #[error("the payload is not lz-string data (it breaks off or names no entry)")]
    Corrupt,
    /// The text it decodes to is over the cap.
    #[error("the payload decodes to more than {0} characters")]
    TooLong(usize),
    /// The decoded units are not valid UTF-16.
    #[error("the payload decodes to text that is not valid UTF-16")]
    NotText,
}

const ALPHABET: &[u8; 65] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";

/// Reads the payload's bits, six a character, high bit first.
struct Bits<'a> {
    values: &'a [u8],
    index: usize,
    /// The bit of `values[index]` to read next (32 down to 1), 0 past the end.
    bit: u8,
}

impl Bits<'_> {
    fn read(&mut self, count: u32) -> Result<u32, LzError> {
        let mut value = 0;
        for power in 0..count {
            let Some(&current) = self.values.get(self.index) else {
                return Err(LzError::Corrupt);
            };
            if current & self.bit != 0 {
                value |= 1 << power;
            }
            self.bit >>= 1;
            if self.bit == 0 {
                self.bit = 32;
                self.index += 1;
            }
        }
        Ok(value)
    }
}

/// A dictionary entry: a range of the output.
#[derive(Clone, Copy)]
struct Entry {
    start: usize,
    len: usize,
}

/// Decodes `input` (lz-string base64) to text of at most `max_units`
/// UTF-16 units.
pub fn decompress_from_base64(input: &str, max_units: usize) -> Result<String, LzError> {
    let values = input
        .chars()
        .enumerate()
        .map(|(position, character)| {
            ALPHABET
                .iter()
                .position(|&a| char::from(a) == character)
                .map(|value| value as u8 % 64)
                .ok_or(LzError::NotBase64(character, position))
        })
        .collect::<Result<Vec<u8>, LzError>>()?;
    let units = decompress(&values, max_units)?;
    String::from_utf16(&units).map_err(|_| LzError::NotText)
}

fn decompress(values: &[u8], max_units: usize) -> Result<Vec<u16>, LzError> {
    let mut bits = Bits {
        values,
        index: 0,
        bit: 32,
    };
    let mut output: Vec<u16> = Vec::new();
    // The first code is two bits wide, and must be a literal.
    let first = match bits.read(2)? {
        0 => bits.read(8)?,
        1 => bits.read(16)?,
        2 => return Ok(output),
        _ => return Err(LzError::Corrupt),
    };
    push_units(&mut output, &[first as u16], max_units)?;
    // Codes 0-2 are the literal and end markers; entry 3 is the first unit.
    let mut dictionary = vec![Entry { start: 0, len: 0 }; 3];
    dictionary.push(Entry { start: 0, len: 1 });
    let mut previous = Entry { start: 0, len: 1 };
    let mut width = 3u32;
    let mut enlarge_in = 4u64;
    loop {
        // Codes this wide would need more entries than any capped output
        // has; a payload that gets here is not lz-string data.
        if width > 30 {
            return Err(LzError::Corrupt);
        }
        let code = bits.read(width)? as usize;
        let start = output.len();
        match code {
            0 | 1 => {
                let unit = bits.read(if code == 0 { 8 } else { 16 })? as u16;
                push_units(&mut output, &[unit], max_units)?;
                dictionary.push(Entry { start, len: 1 });
                count_entry(&mut enlarge_in, &mut width);
            }
            2 => return Ok(output),
            code if code >= 3 && code < dictionary.len() => {
                let Entry { start: from, len } = dictionary[code];
                copy_within(&mut output, from, len, max_units)?;
            }
            code if code == dictionary.len() => {
                // The entry being defined: the previous one and its own
                // first unit.
                copy_within(&mut output, previous.start, previous.len, max_units)?;
                let first = output[previous.start];
                push_units(&mut output, &[first], max_units)?;
            }
            _ => return Err(LzError::Corrupt),
        }
        // The previous segment and the first unit of this one lie side by
        // side in the output: together they are the next entry.
        dictionary.push(Entry {
            start: previous.start,
            len: previous.len + 1,
        });
        count_entry(&mut enlarge_in, &mut width);
        previous = Entry {
            start,
            len: output.len() - start,
        };
    }
}

/// Counts a new dictionary entry: codes widen by a bit each time the
/// entries reach a power of two.
fn count_entry(enlarge_in: &mut u64, width: &mut u32) {
    *enlarge_in -= 1;
    if *enlarge_in == 0 {
        *enlarge_in = 1 << *width;
        *width += 1;
    }
}

fn push_units(output: &mut Vec<u16>, units: &[u16], max_units: usize) -> Result<(), LzError> {
    if output.len() + units.len() > max_units {
        return Err(LzError::TooLong(max_units));
    }
    output.extend_from_slice(units);
    Ok(())
}

fn copy_within(
    output: &mut Vec<u16>,
    from: usize,
    len: usize,
    max_units: usize,
) -> Result<(), LzError> {
    if output.len() + len > max_units {
        return Err(LzError::TooLong(max_units));
    }
    output.extend_from_within(from..from + len);
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// JSON of our own, and what the lz-string package (1.5.0, the library
    /// f-puzzles links are made with) wrote for it with `compressToBase64`.
    const JSON: &str = r#"{"size":4,"title":"Ünïcode test ✓","grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{"value":4,"given":true}]],"killercage":[{"cells":["R1C2","R1C3"],"value":"5"}],"diagonal-":true}"#;
    const PAYLOAD: &str = "N4IgzglgXgpiBcAWANCALhNAbO8QB2A7Ae4GMB7AExgAI0Yw0bBkchFQHMAnCShAbT6gAbgEMsAV1wBGDhCExCCNJ0kBfZMHWaNqgLrJBWozv2Gd5zae3WtIURNwoQ7OQqUqYe/SADWELDicpCLsuIIgpDABYPwgAEpSAMIATGzxSQDMIN72kgggAKwgeqiUECHkhGIAtO5qQA==";
    /// `{"size":9,"text":"abab…"}` with 300 "ab"s, from the same package.
    const REPETITIVE: &str =
        "N4IgzglgXgpiBcBOANCALjAHmhICGARocUaSeWZRdVbTfXYw806y+25x917z/30EDhQ0SPFjJE6VNkyZIAL5A===";

    #[test]
    fn decodes_what_the_lz_string_package_wrote() {
        assert_eq!(decompress_from_base64(PAYLOAD, 10_000).unwrap(), JSON);
        let repetitive = decompress_from_base64(REPETITIVE, 10_000).unwrap();
        assert_eq!(
            repetitive,
            format!(r#"{{"size":9,"text":"{}"}}"#, "ab".repeat(300))
        );
    }

    #[test]
    fn output_past_the_cap_is_refused_before_it_is_made() {
        assert_eq!(
            decompress_from_base64(REPETITIVE, 100),
            Err(LzError::TooLong(100))
        );
        // Half a megabyte of one letter compresses to a few kilobytes.
        let bomb = lz_str::compress_to_base64(&"a".repeat(500_000));
        assert!(bomb.len() < 5_000, "{}", bomb.len());
        assert_eq!(
            decompress_from_base64(&bomb, 4096),
            Err(LzError::TooLong(4096))
        );
    }

    #[test]
    fn foreign_characters_and_cut_payloads_are_refused() {
        assert_eq!(
            decompress_from_base64("N4Ig!", 100),
            Err(LzError::NotBase64('!', 4))
        );
        assert_eq!(
            decompress_from_base64(&PAYLOAD[..40], 10_000),
            Err(LzError::Corrupt)
        );
        assert_eq!(decompress_from_base64("", 10), Err(LzError::Corrupt));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn agrees_with_another_implementation(text in "\\PC{0,300}") {
            let payload = lz_str::compress_to_base64(&text);
            prop_assert_eq!(decompress_from_base64(&payload, 100_000).unwrap(), text);
        }

        #[test]
        fn any_base64_decodes_or_is_refused_within_the_cap(payload in "[A-Za-z0-9+/=]{0,400}") {
            if let Ok(text) = decompress_from_base64(&payload, 2_000) {
                prop_assert!(text.encode_utf16().count() <= 2_000);
            }
        }
    }
}
