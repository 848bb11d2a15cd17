//! Solving a puzzle file in this process, on the same worker pool the
//! server uses.
//!
//! The calling thread reads chunks and writes answers; the pool's threads
//! solve. At most a few chunks per thread are in flight, so memory stays
//! flat however long the input is, and answers are written strictly in
//! input order.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Instant;

use super::read::{Chunk, ChunkReader, PuzzleLine, too_long_message};
use super::write::{AnswerWriter, ChunkAnswers};
use super::{LineFormat, Progress, Run};
use crate::domain::{
    Answer, Outcome, SolvePuzzleError, TimeLimits, parse_board_bytes, solve_and_grade_board,
};
use crate::pool::{JobHandle, WorkerPool};

/// Chunks in flight per solver thread: one being solved, one waiting.
const CHUNKS_PER_THREAD: usize = 2;

/// About how many bytes of input go into a chunk to grade: about 50
/// puzzles. Grading a hard puzzle takes milliseconds, so a solving-sized
/// chunk (some 800 puzzles) left one thread grading alone for seconds
/// (top1465 on 2 threads: 18.6 s, against 25.5 s on one; 13.2 s now). On
/// a million easy puzzles, 4 and 64 KiB chunks were within this machine's
/// noise of each other (3.4-3.9 s either way).
const GRADED_CHUNK_BYTES: usize = 4 * 1024;

/// Solves (and with `grade`, grades) every puzzle of `input` on `threads`
/// solver threads and writes one line per puzzle to `output`, formatted by
/// `format`, in input order; `progress` hears of each chunk written.
pub fn solve_local(
    input: impl BufRead,
    output: impl Write,
    format: Arc<dyn LineFormat>,
    threads: usize,
    grade: bool,
    progress: &mut (dyn FnMut(Progress<'_>) + Send),
) -> io::Result<Run> {
    let started = Instant::now();
    let window = threads.max(1) * CHUNKS_PER_THREAD;
    let pool = WorkerPool::new(threads, window);
    let mut reader = if grade {
        ChunkReader::with_chunk_bytes(input, GRADED_CHUNK_BYTES)
    } else {
        ChunkReader::new(input)
    };
    let mut pending = VecDeque::with_capacity(window);
    let mut writer = AnswerWriter::new(output, progress);
    while let Some(chunk) = reader.next_chunk()? {
        if pending.len() == window {
            let handle: JobHandle<ChunkAnswers> = pending.pop_front().expect("window is not empty");
            writer.write(handle.wait().map_err(io::Error::other)?)?;
        }
        let format = format.clone();
        let job = pool
            .try_submit(move |_| solve_chunk(&chunk, &*format, grade))
            .expect("the pool's queue holds the whole window");
        pending.push_back(job);
    }
    for handle in pending {
        writer.write(handle.wait().map_err(io::Error::other)?)?;
    }
    let tally = writer.finish()?;
    Ok(Run {
        tally,
        elapsed: started.elapsed(),
    })
}

/// Solves every puzzle of a chunk: a worker's job.
fn solve_chunk(chunk: &Chunk, format: &dyn LineFormat, grade: bool) -> ChunkAnswers {
    let mut answers = ChunkAnswers::with_capacity(chunk.len(), chunk.input_bytes());
    for (line, puzzle) in chunk.puzzles() {
        let answer = match puzzle {
            PuzzleLine::TooLong => Answer::refused(Outcome::Invalid, too_long_message()),
            PuzzleLine::Text(bytes) => solve_line(bytes, grade),
        };
        answers.add(format, line, &answer);
    }
    answers
}

/// The answer to one puzzle line: solved (and graded) here, with no time
/// limit (the user's own machine is not shared).
fn solve_line(bytes: &[u8], grade: bool) -> Answer {
    parse_board_bytes(bytes)
        .map_err(SolvePuzzleError::from)
        .and_then(|board| {
            solve_and_grade_board(&board, grade, Instant::now(), TimeLimits::NONE, &|| false)
        })
        .into()
}

#[cfg(test)]
mod tests {
    use super::super::read::MAX_LINE_BYTES;
    use super::*;
    use crate::domain::Tally;

    const CLASSIC: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    /// Runs `input` on `threads` threads: the output, the errors reported
    /// through progress, and the tally.
    fn run(input: &str, threads: usize) -> (String, Vec<(u64, String)>, Tally) {
        let mut out = Vec::new();
        let mut errors = Vec::new();
        let mut answered = 0;
        let mut progress = |progress: Progress<'_>| {
            errors.extend_from_slice(progress.errors);
            assert!(progress.answered > answered, "answered only grows");
            answered = progress.answered;
        };
        let run = solve_local(
            input.as_bytes(),
            &mut out,
            Arc::new(super::super::PlainFormat),
            threads,
            false,
            &mut progress,
        )
        .unwrap();
        assert_eq!(answered, run.tally.total());
        (String::from_utf8(out).unwrap(), errors, run.tally)
    }

    #[test]
    fn every_puzzle_line_gets_one_answer_in_order() {
        let input = format!(
            "# header\n{CLASSIC}\n\n{}\nnot a puzzle\n{}\n",
            ".".repeat(81),
            CLASSIC.replace('.', "0")
        );
        let (out, errors, tally) = run(&input, 2);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], format!("2 Solved {SOLUTION}"));
        assert!(lines[1].starts_with("4 MultipleSolutions "));
        let message = "invalid character 'n' at column 1: expected a digit 1-9";
        assert!(
            lines[2].starts_with(&format!("5 Invalid {message}")),
            "{}",
            lines[2]
        );
        assert_eq!(lines[3], format!("6 Solved {SOLUTION}"));
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].0, 5);
        assert!(errors[0].1.starts_with(message));
        assert_eq!(tally.count(Outcome::Solved), 2);
        assert_eq!(tally.count(Outcome::MultipleSolutions), 1);
        assert_eq!(tally.count(Outcome::Invalid), 1);
    }

    #[test]
    fn order_is_kept_across_many_chunks_and_threads() {
        let puzzles = [CLASSIC, &".".repeat(81), "bad"];
        let input: String = (0..30_000)
            .map(|i| format!("{}\n", puzzles[i % 3]))
            .collect();
        let (out, errors, tally) = run(&input, 3);
        for (i, line) in out.lines().enumerate() {
            let expected = ["Solved ", "MultipleSolutions ", "Invalid "][i % 3];
            assert!(
                line.starts_with(&format!("{} {expected}", i + 1)),
                "line {i}: {line}"
            );
        }
        assert_eq!(tally.total(), 30_000);
        let lines: Vec<u64> = errors.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, (1..=10_000).map(|i| 3 * i).collect::<Vec<_>>());
    }

    #[test]
    fn an_overlong_line_is_one_invalid_answer() {
        let input = format!(
            "{CLASSIC}\n{}\n{CLASSIC}\n",
            ".".repeat(MAX_LINE_BYTES + 10)
        );
        let (out, _, tally) = run(&input, 1);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[1],
            "2 Invalid the line is longer than 2048 bytes, the limit for puzzle text"
        );
        assert_eq!(tally.count(Outcome::Solved), 2);
        assert_eq!(tally.count(Outcome::Invalid), 1);
    }
}
