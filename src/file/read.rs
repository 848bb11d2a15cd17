//! Cutting a puzzle file into chunks of whole lines, and the rule for
//! which lines are puzzles.

use std::io::{self, BufRead};

/// True when a line of a puzzle file holds a puzzle: it has a character
/// that is not whitespace, and the first such is not `#`. Blank lines and
/// comments are skipped (but counted, so that line numbers match the file).
pub fn is_puzzle_line(line: &[u8]) -> bool {
    starts_a_puzzle(first_printed(line))
}

/// The first byte of `text` that is not whitespace, where whitespace is
/// what the puzzle parser skips as layout: ASCII's, and the rest of
/// Unicode's (a no-break space, say), so that a line the parser would find
/// empty is blank here too.
fn first_printed(text: &[u8]) -> Option<u8> {
    let mut rest = text;
    loop {
        let &first = rest.first()?;
        // The vertical tab is whitespace to the parser, not to `u8`.
        let width = if first.is_ascii_whitespace() || first == 0x0B {
            1
        } else if first.is_ascii() {
            return Some(first);
        } else {
            match unicode_whitespace_width(rest) {
                Some(width) => width,
                None => return Some(first),
            }
        };
        rest = &rest[width..];
    }
}

/// The length in bytes of the Unicode whitespace character `text` starts
/// with, if it starts with one (a character cut off by the end of `text`
/// does not count).
fn unicode_whitespace_width(text: &[u8]) -> Option<usize> {
    let width = match text[0] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return None,
    };
    let character = std::str::from_utf8(text.get(..width)?)
        .ok()?
        .chars()
        .next()?;
    character.is_whitespace().then_some(width)
}

/// Whether a line whose first byte that is not whitespace is `first`
/// holds a puzzle: it is not blank and not a comment.
fn starts_a_puzzle(first: Option<u8>) -> bool {
    first.is_some_and(|first| first != b'#')
}

/// The UTF-8 byte-order mark some editors put at the start of a file: not
/// part of its first line.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// Skips the rest of a line (through its line break, or to the end of the
/// input), and returns its first byte that is not whitespace.
fn skip_rest_of_line(input: &mut impl BufRead) -> io::Result<Option<u8>> {
    let mut first = None;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(first);
        }
        let line_end = buffer.iter().position(|&byte| byte == b'\n');
        let used = line_end.map_or(buffer.len(), |end| end + 1);
        first = first.or_else(|| first_printed(&buffer[..used]));
        input.consume(used);
        if line_end.is_some() {
            return Ok(first);
        }
    }
}

/// Every puzzle line of `input` (see [`is_puzzle_line`]), without its line
/// break, decoded as UTF-8 with invalid bytes replaced: for tools that want
/// a whole (small) file in memory, such as the load generator.
pub fn read_puzzle_lines(input: impl BufRead) -> io::Result<Vec<String>> {
    let mut puzzles = Vec::new();
    for (index, line) in input.split(b'\n').enumerate() {
        let mut line = line?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if index == 0 && line.starts_with(BYTE_ORDER_MARK) {
            line.drain(..BYTE_ORDER_MARK.len());
        }
        if is_puzzle_line(&line) {
            puzzles.push(String::from_utf8_lossy(&line).into_owned());
        }
    }
    Ok(puzzles)
}

/// The longest line read as a puzzle: the longest puzzle text accepted
/// anywhere. A longer line is reported invalid without being held in
/// memory.
pub const MAX_LINE_BYTES: usize = crate::domain::MAX_PUZZLE_BYTES;

/// The error for a line longer than [`MAX_LINE_BYTES`].
pub fn too_long_message() -> String {
    format!("the line is longer than {MAX_LINE_BYTES} bytes, the limit for puzzle text")
}

/// About how many bytes of input go into one chunk: enough to make handing a
/// chunk to a worker cheap next to solving it, small enough to keep every
/// worker busy on short files.
const CHUNK_BYTES: usize = 64 * 1024;

/// A run of whole input lines, with the puzzle lines picked out.
#[derive(Debug, Default)]
pub struct Chunk {
    data: Vec<u8>,
    lines: Vec<LineRecord>,
}

#[derive(Debug, Clone, Copy)]
struct LineRecord {
    number: u64,
    start: usize,
    end: usize,
    overlong: bool,
}

/// One puzzle line of a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuzzleLine<'a> {
    /// The line's text (without its line break).
    Text(&'a [u8]),
    /// The line was longer than [`MAX_LINE_BYTES`].
    TooLong,
}

impl Chunk {
    /// The puzzle lines, with their 1-based line numbers in the input.
    pub fn puzzles(&self) -> impl ExactSizeIterator<Item = (u64, PuzzleLine<'_>)> {
        (0..self.lines.len()).map(|index| self.get(index).expect("in range"))
    }

    /// The puzzle line at `index` (0-based within the chunk), with its line
    /// number in the input.
    pub fn get(&self, index: usize) -> Option<(u64, PuzzleLine<'_>)> {
        self.lines.get(index).map(|record| {
            let line = if record.overlong {
                PuzzleLine::TooLong
            } else {
                PuzzleLine::Text(&self.data[record.start..record.end])
            };
            (record.number, line)
        })
    }

    /// Where the text of the puzzle line at `index` lies in
    /// [`Chunk::data`]; `None` for an overlong line, whose text is not
    /// kept, or past the end.
    pub fn text_range(&self, index: usize) -> Option<std::ops::Range<usize>> {
        let record = self.lines.get(index)?;
        (!record.overlong).then_some(record.start..record.end)
    }

    /// The bytes of the chunk's puzzle lines (the text of the others is
    /// not kept), which [`Chunk::text_range`] indexes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// How many puzzle lines the chunk holds.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// The input bytes the chunk covers, comments and line breaks included.
    pub fn input_bytes(&self) -> usize {
        self.data.len()
    }

    /// True when the chunk holds no puzzle lines.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// Reads a puzzle file chunk by chunk.
pub struct ChunkReader<R> {
    input: R,
    chunk_bytes: usize,
    line_number: u64,
    finished: bool,
}

impl<R: BufRead> ChunkReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        Self::with_chunk_bytes(input, CHUNK_BYTES)
    }

    /// A reader over `input` whose chunks hold about `chunk_bytes` of it
    /// (at least one line), for work that costs far more per puzzle than
    /// solving.
    pub fn with_chunk_bytes(input: R, chunk_bytes: usize) -> Self {
        ChunkReader {
            input,
            chunk_bytes,
            line_number: 0,
            finished: false,
        }
    }

    /// The next chunk with at least one puzzle line, or `None` at the end.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let mut chunk = Chunk::default();
        while !self.finished && chunk.data.len() < self.chunk_bytes {
            self.read_line(&mut chunk)?;
        }
        Ok((!chunk.is_empty()).then_some(chunk))
    }

    /// Reads one line into the chunk, recording it if it is a puzzle.
    fn read_line(&mut self, chunk: &mut Chunk) -> io::Result<()> {
        if self.line_number == 0 && self.input.fill_buf()?.starts_with(BYTE_ORDER_MARK) {
            self.input.consume(BYTE_ORDER_MARK.len());
        }
        let start = chunk.data.len();
        // Room for the longest line and its break, `\r\n` included.
        let limit = MAX_LINE_BYTES as u64 + 2;
        let read = io::Read::take(&mut self.input, limit).read_until(b'\n', &mut chunk.data)?;
        if read == 0 {
            self.finished = true;
            return Ok(());
        }
        self.line_number += 1;
        let mut end = chunk.data.len();
        let ended = chunk.data[end - 1] == b'\n';
        let unfinished = !ended && read as u64 == limit;
        end -= usize::from(ended);
        end -= usize::from(end > start && chunk.data[end - 1] == b'\r');
        let overlong = unfinished || end - start > MAX_LINE_BYTES;
        let mut first = first_printed(&chunk.data[start..end]);
        if unfinished {
            // Skip the rest of the line without keeping it: a comment or
            // a blank line of any length is skipped, and anything else is
            // a puzzle line too long to read.
            first = first.or(skip_rest_of_line(&mut self.input)?);
        }
        if overlong {
            chunk.data.truncate(start);
            end = start;
        }
        if starts_a_puzzle(first) {
            chunk.lines.push(LineRecord {
                number: self.line_number,
                start,
                end,
                overlong,
            });
        } else {
            chunk.data.truncate(start);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(input: &[u8]) -> Vec<Vec<(u64, PuzzleLine<'static>)>> {
        let mut reader = ChunkReader::new(input);
        let mut all = Vec::new();
        while let Some(chunk) = reader.next_chunk().unwrap() {
            let lines = chunk
                .puzzles()
                .map(|(n, line)| match line {
                    PuzzleLine::Text(text) => (n, PuzzleLine::Text(text.to_vec().leak())),
                    PuzzleLine::TooLong => (n, PuzzleLine::TooLong),
                })
                .collect();
            all.push(lines);
        }
        all
    }

    #[test]
    fn comments_and_blank_lines_of_any_length_are_skipped_and_a_byte_order_mark_ignored() {
        let long = MAX_LINE_BYTES + 10;
        let input = [
            b"\xEF\xBB\xBF".to_vec(),
            format!("{}\n", "1".repeat(MAX_LINE_BYTES)).into_bytes(),
            format!("# {}\n", "x".repeat(long)).into_bytes(),
            format!("{}\n", " ".repeat(long)).into_bytes(),
            format!("{}# late comment\n", " ".repeat(long)).into_bytes(),
            format!("{}222\n", " ".repeat(long)).into_bytes(),
            b"\xEF\xBB\xBF333\n".to_vec(),
            " ".repeat(long).into_bytes(),
        ]
        .concat();
        assert_eq!(
            chunks(&input).concat(),
            [
                (
                    1,
                    PuzzleLine::Text("1".repeat(MAX_LINE_BYTES).leak().as_bytes())
                ),
                (5, PuzzleLine::TooLong),
                (6, PuzzleLine::Text(b"\xEF\xBB\xBF333")),
            ]
        );
        let lines = read_puzzle_lines(&b"\xEF\xBB\xBF# comment\n111\n"[..]).unwrap();
        assert_eq!(lines, ["111"]);
    }

    #[test]
    fn the_longest_line_fits_whatever_its_line_break_and_one_byte_more_does_not() {
        let longest = "1".repeat(MAX_LINE_BYTES);
        let input = format!("{longest}\r\n{longest}\n{longest}1\r\n{longest}1\n{longest}\r");
        assert_eq!(
            chunks(input.as_bytes()).concat(),
            [
                (1, PuzzleLine::Text(longest.clone().leak().as_bytes())),
                (2, PuzzleLine::Text(longest.clone().leak().as_bytes())),
                (3, PuzzleLine::TooLong),
                (4, PuzzleLine::TooLong),
                (5, PuzzleLine::Text(longest.leak().as_bytes())),
            ]
        );
    }

    #[test]
    fn a_line_of_unicode_whitespace_is_blank_as_the_parser_would_find_it() {
        let input =
            "\u{a0}\u{a0}\n\u{b}\n\u{3000}# a comment\n\u{a0}111\n\u{ff15}\n\u{2003}\t\u{85}\n";
        assert_eq!(
            chunks(input.as_bytes()).concat(),
            [
                (4, PuzzleLine::Text("\u{a0}111".as_bytes())),
                (5, PuzzleLine::Text("\u{ff15}".as_bytes())),
            ]
        );
        // Not whitespace: a bare lead byte, a cut-off character, U+FEFF.
        for line in [&b"\xC2"[..], b"\xE3\x80", b"\xEF\xBB\xBF", b" \xFF"] {
            assert!(is_puzzle_line(line), "{line:?}");
        }
        assert!(!is_puzzle_line("\u{2028} \u{a0}".as_bytes()));
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_but_counted() {
        let input = b"# a comment\n111\n\n   \n  # indented comment\n222\r\n333";
        let lines = chunks(input).concat();
        assert_eq!(
            lines,
            [
                (2, PuzzleLine::Text(b"111")),
                (6, PuzzleLine::Text(b"222")),
                (7, PuzzleLine::Text(b"333")),
            ]
        );
    }

    #[test]
    fn large_inputs_are_cut_into_chunks_of_whole_lines() {
        let line = [b'.'; 81];
        let mut input = Vec::new();
        for _ in 0..5000 {
            input.extend_from_slice(&line);
            input.push(b'\n');
        }
        let all = chunks(&input);
        assert!(all.len() > 2, "{} chunks", all.len());
        let lines = all.concat();
        assert_eq!(lines.len(), 5000);
        assert!(
            lines
                .iter()
                .enumerate()
                .all(|(i, (n, l))| *n == i as u64 + 1 && *l == PuzzleLine::Text(&line))
        );
    }

    #[test]
    fn a_smaller_chunk_size_cuts_after_that_many_bytes() {
        let input = format!("{}\n", ".".repeat(81)).repeat(200);
        let mut reader = ChunkReader::with_chunk_bytes(input.as_bytes(), 4096);
        let mut sizes = Vec::new();
        while let Some(chunk) = reader.next_chunk().unwrap() {
            sizes.push(chunk.len());
        }
        // 4096 bytes are 49.95 lines of 82: the 50th line ends a chunk.
        assert_eq!(sizes, [50, 50, 50, 50]);
    }

    #[test]
    fn an_overlong_line_is_reported_not_kept() {
        let mut input = b"111\n".to_vec();
        input.extend(std::iter::repeat_n(b'.', MAX_LINE_BYTES * 3));
        input.extend_from_slice(b"\n222\n");
        let lines = chunks(&input).concat();
        assert_eq!(
            lines,
            [
                (1, PuzzleLine::Text(b"111")),
                (2, PuzzleLine::TooLong),
                (3, PuzzleLine::Text(b"222"))
            ]
        );
        let exactly_max = vec![b'.'; MAX_LINE_BYTES];
        let lines = chunks(&exactly_max).concat();
        assert_eq!(lines, [(1, PuzzleLine::Text(exactly_max.leak()))]);
    }

    #[test]
    fn puzzle_lines_are_those_with_a_first_character_other_than_hash() {
        for line in [&b"1.3"[..], b"  5", b"\t.#"] {
            assert!(is_puzzle_line(line), "{line:?}");
        }
        for line in [&b""[..], b"   ", b"#x", b"  # indented", b"\r"] {
            assert!(!is_puzzle_line(line), "{line:?}");
        }
        let lines = read_puzzle_lines(&b"# c\n111\r\n\n 222\n#\n333"[..]).unwrap();
        assert_eq!(lines, ["111", " 222", "333"]);
    }

    #[test]
    fn an_empty_input_has_no_chunks() {
        assert!(chunks(b"").is_empty());
        assert!(chunks(b"# only a comment\n\n").is_empty());
    }
}
