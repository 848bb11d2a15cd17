//! Writing a batch run's answers, chunk by chunk, in input order: the answer
//! lines to the output, the first invalid lines (by input line number) to
//! the error output, and a tally. Shared by the local and remote runs.

use std::io::{self, Write};

use crate::report::Tally;

/// How many invalid lines are named on the error output; the rest are
/// counted.
pub const INVALID_LINES_SHOWN: usize = 10;

/// The answers to one chunk, formatted.
#[derive(Debug, Default)]
pub struct ChunkAnswers {
    /// The answer lines.
    pub output: Vec<u8>,
    /// Their verdicts.
    pub tally: Tally,
    /// Invalid lines: input line number and the error.
    pub invalid: Vec<(u64, String)>,
    /// The input bytes the chunk covered (for progress).
    pub input_bytes: u64,
}

/// Writes chunks' answers as they come, in the order given.
pub struct AnswerWriter<O, E> {
    output: O,
    errors: E,
    tally: Tally,
    invalid_seen: usize,
}

impl<O: Write, E: Write> AnswerWriter<O, E> {
    /// A writer to `output`, naming invalid lines on `errors`.
    pub fn new(output: O, errors: E) -> Self {
        AnswerWriter {
            output,
            errors,
            tally: Tally::default(),
            invalid_seen: 0,
        }
    }

    /// Writes the next chunk's answers.
    pub fn write(&mut self, answers: ChunkAnswers) -> io::Result<()> {
        self.output.write_all(&answers.output)?;
        self.tally.merge(&answers.tally);
        for (line, message) in answers.invalid {
            if self.invalid_seen < INVALID_LINES_SHOWN {
                writeln!(self.errors, "sudoku: line {line}: {message}")?;
            }
            self.invalid_seen += 1;
        }
        Ok(())
    }

    /// The verdicts written so far.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Flushes the output, counts the invalid lines not named, and returns
    /// the tally.
    pub fn finish(mut self) -> io::Result<Tally> {
        self.output.flush()?;
        if self.invalid_seen > INVALID_LINES_SHOWN {
            writeln!(
                self.errors,
                "sudoku: ... and {} more invalid lines",
                self.invalid_seen - INVALID_LINES_SHOWN
            )?;
        }
        Ok(self.tally)
    }

    /// Flushes what was written, when the run stops short.
    pub fn flush(&mut self) -> io::Result<()> {
        self.output.flush()
    }
}
