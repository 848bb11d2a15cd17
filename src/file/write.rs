//! Writing a run's answers, chunk by chunk, in input order: the answer
//! lines to the output, the chunk's progress (and the lines that got an
//! error) to the caller, and a tally. Shared by the local and remote runs.

use std::io::{self, Write};

use super::{LineFormat, Progress};
use crate::domain::{Answer, Tally};

/// The answers to one chunk, formatted.
#[derive(Debug, Default)]
pub struct ChunkAnswers {
    /// The answer lines.
    pub output: Vec<u8>,
    /// Their outcomes.
    pub tally: Tally,
    /// Lines whose puzzle got an error instead of a verdict: input line
    /// number and the message.
    pub errors: Vec<(u64, String)>,
    /// The input bytes the chunk covered (for progress).
    pub input_bytes: u64,
}

impl ChunkAnswers {
    /// An empty set of answers for a chunk of `puzzles` puzzles covering
    /// `input_bytes` of input.
    pub fn with_capacity(puzzles: usize, input_bytes: usize) -> ChunkAnswers {
        ChunkAnswers {
            output: Vec::with_capacity(puzzles * 96),
            input_bytes: input_bytes as u64,
            ..ChunkAnswers::default()
        }
    }

    /// Formats and counts the answer to the puzzle on input line `line`.
    pub fn add(&mut self, format: &dyn LineFormat, line: u64, answer: &Answer) {
        self.tally.add(answer.outcome);
        format.write_line(&mut self.output, line, answer);
        if let Some(error) = &answer.error {
            self.errors.push((line, error.clone()));
        }
    }
}

/// Writes chunks' answers as they come, in the order given.
pub struct AnswerWriter<'p, O> {
    output: O,
    progress: &'p mut (dyn FnMut(Progress<'_>) + Send),
    tally: Tally,
}

impl<'p, O: Write> AnswerWriter<'p, O> {
    /// A writer to `output` that reports each chunk to `progress`.
    pub fn new(output: O, progress: &'p mut (dyn FnMut(Progress<'_>) + Send)) -> Self {
        AnswerWriter {
            output,
            progress,
            tally: Tally::default(),
        }
    }

    /// Writes the next chunk's answers.
    pub fn write(&mut self, answers: ChunkAnswers) -> io::Result<()> {
        self.output.write_all(&answers.output)?;
        self.tally.merge(&answers.tally);
        (self.progress)(Progress {
            errors: &answers.errors,
            answered: self.tally.total(),
            input_bytes: answers.input_bytes,
        });
        Ok(())
    }

    /// The outcomes written so far.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Flushes the output and returns the tally.
    pub fn finish(mut self) -> io::Result<Tally> {
        self.output.flush()?;
        Ok(self.tally)
    }

    /// Flushes what was written, when the run stops short.
    pub fn flush(&mut self) -> io::Result<()> {
        self.output.flush()
    }
}
