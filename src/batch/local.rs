//! Solving a puzzle file in this process, on the same worker pool the
//! server uses.
//!
//! The calling thread reads chunks and writes answers; the pool's threads
//! solve. At most a few chunks per thread are in flight, so memory stays
//! flat however long the input is, and answers are written strictly in
//! input order.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use super::read::{Chunk, ChunkReader, PuzzleLine, too_long_message};
use super::write::{AnswerWriter, ChunkAnswers};
use crate::domain::{SolvePuzzleError, parse_board_bytes, solve_board};
use crate::pool::{JobHandle, WorkerPool};
use crate::report::{Fields, Format, Tally, Verdict, write_solution};

/// Chunks in flight per solver thread: one being solved, one waiting.
const CHUNKS_PER_THREAD: usize = 2;

/// What a local run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalRun {
    /// Puzzles per verdict.
    pub tally: Tally,
    /// Wall time from the first read to the last write.
    pub elapsed: Duration,
}

/// Solves every puzzle of `input` on `threads` solver threads, writes one
/// line per puzzle to `output` in `format`, and names the first invalid
/// lines on `errors` (with their input line numbers).
pub fn solve_local(
    input: impl BufRead,
    output: impl Write,
    errors: impl Write,
    threads: usize,
    format: Format,
) -> io::Result<LocalRun> {
    let started = Instant::now();
    let window = threads.max(1) * CHUNKS_PER_THREAD;
    let pool = WorkerPool::new(threads, window);
    let mut reader = ChunkReader::new(input);
    let mut pending = VecDeque::with_capacity(window);
    let mut writer = AnswerWriter::new(output, errors);
    while let Some(chunk) = reader.next_chunk()? {
        if pending.len() == window {
            let handle: JobHandle<ChunkAnswers> = pending.pop_front().expect("window is not empty");
            writer.write(handle.wait().map_err(io::Error::other)?)?;
        }
        let job = pool
            .try_submit(move |_| solve_chunk(&chunk, format))
            .expect("the pool's queue holds the whole window");
        pending.push_back(job);
    }
    for handle in pending {
        writer.write(handle.wait().map_err(io::Error::other)?)?;
    }
    let tally = writer.finish()?;
    Ok(LocalRun {
        tally,
        elapsed: started.elapsed(),
    })
}

/// Solves every puzzle of a chunk: a worker's job.
fn solve_chunk(chunk: &Chunk, format: Format) -> ChunkAnswers {
    let mut answers = ChunkAnswers {
        output: Vec::with_capacity(chunk.len() * 96),
        input_bytes: chunk.input_bytes() as u64,
        ..ChunkAnswers::default()
    };
    for (line, puzzle) in chunk.puzzles() {
        let result = match puzzle {
            PuzzleLine::TooLong => Err(too_long_message()),
            PuzzleLine::Text(bytes) => parse_board_bytes(bytes)
                .map_err(SolvePuzzleError::from)
                .and_then(|board| solve_board(&board, || false))
                .map_err(|error| match error {
                    SolvePuzzleError::Puzzle(error) => error.to_string(),
                    SolvePuzzleError::Cancelled(_) => unreachable!("never cancelled"),
                }),
        };
        match result {
            Ok(report) => {
                let verdict = Verdict::from(report.outcome);
                answers.tally.add(verdict);
                write_solution(
                    &mut answers.output,
                    format,
                    line,
                    verdict,
                    report.solution.as_ref(),
                    report.stats.guesses,
                );
            }
            Err(message) => {
                answers.tally.add(Verdict::Invalid);
                let fields = Fields {
                    verdict: Verdict::Invalid,
                    solution: None,
                    error: Some(&message),
                    guesses: None,
                };
                fields.write(&mut answers.output, format, line);
                answers.invalid.push((line, message));
            }
        }
    }
    answers
}

#[cfg(test)]
mod tests {
    use super::super::read::MAX_LINE_BYTES;
    use super::super::write::INVALID_LINES_SHOWN;
    use super::*;

    const CLASSIC: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn run(input: &str, threads: usize, format: Format) -> (String, String, Tally) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let run = solve_local(input.as_bytes(), &mut out, &mut err, threads, format).unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
            run.tally,
        )
    }

    #[test]
    fn every_puzzle_line_gets_one_answer_in_order() {
        let input = format!(
            "# header\n{CLASSIC}\n\n{}\nnot a puzzle\n{}\n",
            ".".repeat(81),
            CLASSIC.replace('.', "0")
        );
        let (out, err, tally) = run(&input, 2, Format::Text);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], format!("solved {SOLUTION}"));
        assert!(lines[1].starts_with("multiple "));
        assert_eq!(
            lines[2],
            "invalid invalid character 'n' at line 1, column 1: expected a digit 1-9, '.' or '0' for a blank, or layout (whitespace, '|', '-', '+')"
        );
        assert_eq!(lines[3], format!("solved {SOLUTION}"));
        assert_eq!(
            err,
            "sudoku: line 5: invalid character 'n' at line 1, column 1: expected a digit 1-9, '.' or '0' for a blank, or layout (whitespace, '|', '-', '+')\n"
        );
        assert_eq!((tally.solved, tally.multiple, tally.invalid), (2, 1, 1));
    }

    #[test]
    fn json_lines_name_the_input_line() {
        let input = format!("\n{CLASSIC}\n");
        let (out, _, _) = run(&input, 1, Format::Json);
        let value: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
        assert_eq!(value["line"], 2);
        assert_eq!(value["outcome"], "solved");
        assert_eq!(value["solution"], SOLUTION);
        assert_eq!(value["guesses"], 0);
    }

    #[test]
    fn order_is_kept_across_many_chunks_and_threads() {
        let puzzles = [CLASSIC, &".".repeat(81), "bad"];
        let input: String = (0..30_000)
            .map(|i| format!("{}\n", puzzles[i % 3]))
            .collect();
        let (out, err, tally) = run(&input, 3, Format::Text);
        for (i, line) in out.lines().enumerate() {
            let expected = ["solved ", "multiple ", "invalid "][i % 3];
            assert!(line.starts_with(expected), "line {i}: {line}");
        }
        assert_eq!(tally.total(), 30_000);
        assert_eq!(err.lines().count(), INVALID_LINES_SHOWN + 1);
        assert!(
            err.ends_with("sudoku: ... and 9990 more invalid lines\n"),
            "{err}"
        );
    }

    #[test]
    fn an_overlong_line_is_one_invalid_answer() {
        let input = format!(
            "{CLASSIC}\n{}\n{CLASSIC}\n",
            ".".repeat(MAX_LINE_BYTES + 10)
        );
        let (out, _, tally) = run(&input, 1, Format::Text);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], "invalid the line is longer than 65536 bytes");
        assert_eq!((tally.solved, tally.invalid), (2, 1));
    }
}
