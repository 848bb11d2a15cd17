//! The chunks a stream task has taken, and the answers they have so far.

use std::sync::Arc;

use tokio::sync::oneshot;

use super::super::LineFormat;
use super::super::read::{Chunk, PuzzleLine, too_long_message};
use super::super::write::ChunkAnswers;
use crate::client::check;
use crate::domain::{Answer, Outcome};
use crate::wording::count_of;
use prost::bytes::Bytes;

use crate::pb::{
    SharedText, SolveBatchRequest, SolveBatchResponse, SolveStreamRequest, SolveStreamResponse,
};

/// A chunk on its way to a server. Its puzzles' line numbers are their
/// request ids; overlong lines are answered here, never sent.
pub(super) struct ChunkJob {
    pub chunk: Chunk,
    /// Whether its puzzles are to be graded too.
    pub grade: bool,
    pub done: oneshot::Sender<ChunkAnswers>,
}

/// A chunk taken by a stream task, with the answers received so far.
pub(super) struct InFlight {
    job: ChunkJob,
    answers: Vec<Answer>,
    /// The chunk's bytes in a buffer that requests share, so that a batch
    /// costs no allocation or copy per puzzle.
    shared: Bytes,
}

impl InFlight {
    pub fn new(job: ChunkJob) -> InFlight {
        let mut chunk = InFlight {
            answers: Vec::with_capacity(job.chunk.len()),
            shared: Bytes::copy_from_slice(job.chunk.data()),
            job,
        };
        chunk.answer_local_lines();
        chunk
    }

    pub fn is_complete(&self) -> bool {
        self.answers.len() == self.job.chunk.len()
    }

    /// Answers the overlong lines due next, which never go to a server.
    fn answer_local_lines(&mut self) {
        while let Some((_, PuzzleLine::TooLong)) = self.job.chunk.get(self.answers.len()) {
            self.answers
                .push(Answer::refused(Outcome::Invalid, too_long_message()));
        }
    }

    /// Requests for the puzzles that still lack an answer.
    pub fn unanswered_requests(&self) -> impl Iterator<Item = SolveStreamRequest> + '_ {
        (self.answers.len()..self.job.chunk.len()).filter_map(|index| {
            match self.job.chunk.get(index).expect("in range") {
                (line, PuzzleLine::Text(bytes)) => Some(SolveStreamRequest {
                    id: itoa::Buffer::new().format(line).to_string(),
                    puzzle: puzzle_text(bytes),
                    grade: self.job.grade,
                }),
                (_, PuzzleLine::TooLong) => None,
            }
        })
    }

    /// Requests for the puzzles that still lack an answer, in batches of at
    /// most `size`, each with its puzzle count; a batch's id is the line
    /// number of its first puzzle.
    pub fn unanswered_batches(&self, size: usize) -> Vec<(SolveBatchRequest, usize)> {
        let mut batches = Vec::new();
        let mut current: Option<(u64, Vec<SharedText>)> = None;
        for index in self.answers.len()..self.job.chunk.len() {
            let Some(range) = self.job.chunk.text_range(index) else {
                continue;
            };
            let (line, _) = self.job.chunk.get(index).expect("in range");
            let (_, puzzles) = current.get_or_insert_with(|| (line, Vec::with_capacity(size)));
            let text = SharedText::from_utf8(self.shared.slice(range)).unwrap_or_else(|text| {
                SharedText::from(String::from_utf8_lossy(&text).into_owned())
            });
            puzzles.push(text);
            if puzzles.len() == size {
                batches.push(batch_request(
                    current.take().expect("just filled"),
                    self.job.grade,
                ));
            }
        }
        batches.extend(current.map(|batch| batch_request(batch, self.job.grade)));
        batches
    }

    /// Files `response` as the answers to the next `expected` puzzles due,
    /// which it must name by the first one's line number and answer one
    /// result each, in a way that can be trusted; `Err` says what the
    /// server sent instead.
    pub fn accept_batch(
        &mut self,
        response: &SolveBatchResponse,
        expected: usize,
    ) -> Result<(), String> {
        let Some((first, PuzzleLine::Text(_))) = self.job.chunk.get(self.answers.len()) else {
            unreachable!("only an incomplete chunk is given answers, and its next line is sent");
        };
        if response.id != itoa::Buffer::new().format(first) {
            return Err(format!(
                "an answer with id {} where the batch from line {first} was due",
                check::quoted(&response.id)
            ));
        }
        if let Some(error) = &response.error {
            return Err(format!(
                "the server refused the batch of {} from line {first}: {} \
                 (a smaller --batch may pass)",
                count_of(expected as u64, "puzzle"),
                check::shown(&error.message)
            ));
        }
        if response.result_count() != expected {
            return Err(format!(
                "{} for the batch of {} from line {first}",
                count_of(response.result_count() as u64, "result"),
                count_of(expected as u64, "puzzle")
            ));
        }
        for result in &response.results {
            let Some((line, PuzzleLine::Text(puzzle))) = self.job.chunk.get(self.answers.len())
            else {
                unreachable!("a batch covers only lines that are sent");
            };
            let answer = check::batch_result(puzzle, result, self.job.grade)
                .map_err(|error| format!("the answer to line {line}: {error}"))?;
            self.answers.push(answer);
            self.answer_local_lines();
        }
        Ok(())
    }

    /// Files `response` as the answer to the next puzzle due, which it must
    /// name by id and answer in a way that can be trusted; `Err` says what
    /// the server sent instead.
    pub fn accept(&mut self, response: &SolveStreamResponse) -> Result<(), String> {
        let Some((line, PuzzleLine::Text(puzzle))) = self.job.chunk.get(self.answers.len()) else {
            unreachable!("only an incomplete chunk is given answers, and its next line is sent");
        };
        if response.id != itoa::Buffer::new().format(line) {
            return Err(format!(
                "an answer with id {} where {line} was due",
                check::quoted(&response.id)
            ));
        }
        let answer = check::stream_answer(puzzle, response, self.job.grade)
            .map_err(|error| format!("the answer to line {line}: {error}"))?;
        self.answers.push(answer);
        self.answer_local_lines();
        Ok(())
    }

    /// Formats the answers and hands them to the writer.
    pub fn finish(self, format: &Arc<dyn LineFormat>) {
        let chunk = &self.job.chunk;
        let mut answers = ChunkAnswers::with_capacity(chunk.len(), chunk.input_bytes());
        for ((line, _), answer) in chunk.puzzles().zip(&self.answers) {
            answers.add(&**format, line, answer);
        }
        // The writer is gone only when the run is being torn down.
        let _ = self.job.done.send(answers);
    }
}

/// A batch request from its first line number and puzzles (asking for
/// their grades with `grade`), with its count.
fn batch_request(
    (first, puzzles): (u64, Vec<SharedText>),
    grade: bool,
) -> (SolveBatchRequest, usize) {
    let count = puzzles.len();
    let id = itoa::Buffer::new().format(first).to_string();
    (
        SolveBatchRequest::from_texts(id, puzzles).graded(grade),
        count,
    )
}

/// A line's text as a request carries it: as it is when it is UTF-8 (the
/// fast, usual case), else with each bad sequence replaced, which the
/// server then refuses as a bad puzzle.
fn puzzle_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}
