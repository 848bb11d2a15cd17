//! Variant puzzles on the command line: `sudoku solve` on f-puzzles JSON,
//! a file of one JSON object (or link) per line, or a link; and
//! `sudoku candidates`, which draws a puzzle's true candidates on its grid.
//!
//! `sudoku solve` sends its input here when it looks like f-puzzles
//! ([`is_variant_input`]); each puzzle gets one line, as a classic one
//! does: `solved SOLUTION`, `multiple FIRST SECOND`, `unsolvable`,
//! `invalid WHY`, with digits past 9 as letters. A file is read a chunk at
//! a time and each line to at most the reader's cap, so that memory stays
//! bounded whatever its length. Through a server, the first `--server` is
//! used, with one `SolveVariantStream` (the classic file flags `--rpc`,
//! `--batch`, `--streams` and `--retries` do not apply).

use std::io::{self, BufRead, Read, Write};
use std::path::Path;

use clap::Args;
use tokio::sync::mpsc;

use super::args::TargetArgs;
use super::output::{ExitCode, Format, escaped, outcome_word};
use super::solve::{SolveArgs, open_input};
use super::{Failure, with_runtime};
use crate::client::{self, variant::VariantVerdict};
use crate::domain::variant::{
    TrueCandidates, VariantPuzzle, digit_char, digits_line, fpuzzles, solve_variant,
    true_candidates,
};
use crate::domain::{Outcome, Tally};
use crate::pool::available_cores;

/// Puzzles a local run works on at once, per thread: the chunk of a file
/// it holds.
const CHUNK_PER_THREAD: usize = 16;

/// Puzzles a run through a server sends ahead of their answers.
const STREAM_WINDOW: usize = 256;

/// True when `input` is a variant puzzle (f-puzzles JSON, a link, a
/// payload) or a file whose first puzzle line is one.
pub fn is_variant_input(input: &str) -> bool {
    let first = if input == "-" {
        first_stdin_line()
    } else if Path::new(input).is_file() {
        first_line(input)
    } else {
        return fpuzzles::looks_like_fpuzzles(input);
    };
    first.is_some_and(|line| fpuzzles::looks_like_fpuzzles(&line))
}

/// The first puzzle line of what stdin has buffered, read without taking
/// it: whatever reads stdin next still gets every byte.
fn first_stdin_line() -> Option<String> {
    let mut stdin = io::stdin().lock();
    let buffered = stdin.fill_buf().ok()?;
    String::from_utf8_lossy(buffered)
        .trim_start_matches('\u{feff}')
        .lines()
        .find(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(str::to_string)
}

/// The first line of a file that is neither blank nor a comment.
fn first_line(path: &str) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    io::BufReader::new(file.take(1 << 20))
        .lines()
        .map_while(Result::ok)
        .map(|line| line.trim_start_matches('\u{feff}').to_string())
        .find(|line| !line.trim().is_empty() && !line.starts_with('#'))
}

/// Runs `sudoku solve` on variant input.
pub fn run_solve(args: &SolveArgs) -> Result<ExitCode, Failure> {
    if args.grid {
        return Err(Failure::usage("--grid draws classic grids only"));
    }
    let format = args.format;
    let mut tally = Tally::default();
    let mut out = io::stdout().lock();
    let mut print = |number: u64, verdict: VariantVerdict| -> io::Result<()> {
        let outcome = verdict
            .as_ref()
            .map_or_else(|(o, _)| *o, |report| report.outcome);
        tally.add(outcome);
        if let Err((_, why)) = &verdict
            && !args.run.quiet
        {
            eprintln!("sudoku: line {number}: {}", escaped(why));
        }
        out.write_all(answer_line(number, &verdict, format).as_bytes())
    };
    let puzzles = read_puzzles(&args.input)?;
    if args.run.target.local {
        let threads = args.run.threads.map_or_else(available_cores, usize::from);
        solve_here(puzzles, threads, &mut print)?;
    } else {
        let connect = args.run.target.options()?;
        let server = args.run.target.servers.servers()?[0].clone();
        with_runtime(async {
            let channel = client::connect(&server, &connect).await?;
            let (texts, receiver) = mpsc::channel(STREAM_WINDOW);
            // Off the runtime's one thread, so that the stream runs while
            // it reads, and it ends once the stream drops its receiver.
            let reader = tokio::task::spawn_blocking(move || feed(puzzles, texts));
            let mut failed = None;
            let mut answer = |number, verdict| {
                if let Err(error) = print(number, verdict) {
                    failed.get_or_insert(error);
                }
            };
            let streamed = client::variant::solve_variant_stream(
                channel,
                &connect,
                receiver,
                STREAM_WINDOW,
                &mut answer,
            )
            .await;
            let unread = reader.await.ok().and_then(Result::err);
            streamed?;
            match failed.or(unread) {
                Some(error) => Err(Failure::io(error)),
                None => Ok(()),
            }
        })?;
    }
    if tally.total() == 0 {
        return Err(Failure::usage(format!("{} holds no puzzles", args.input)));
    }
    Ok(ExitCode::of_tally(&tally))
}

/// Numbered puzzle texts: one from the command line, each line of a file
/// of JSON objects or links, or a file that holds one JSON document.
type Puzzles = Box<dyn Iterator<Item = io::Result<(u64, String)>> + Send>;

/// The puzzles of `input` (an argument, or a file, `-` for stdin).
fn read_puzzles(input: &str) -> Result<Puzzles, Failure> {
    if input != "-" && !Path::new(input).is_file() {
        return Ok(Box::new(std::iter::once(Ok((1, input.to_string())))));
    }
    let mut reader = open_input(input)?;
    let mut number = 0u64;
    // The lines before the first puzzle, then the first.
    let first = loop {
        number += 1;
        let Some(line) = capped_line(&mut *reader).map_err(Failure::io)? else {
            return Ok(Box::new(std::iter::empty()));
        };
        let line = line.trim_start_matches('\u{feff}');
        if !line.trim().is_empty() && !line.starts_with('#') {
            break line.to_string();
        }
    };
    let whole_line = serde_json::from_str::<serde_json::Value>(&first).is_ok();
    if first.trim_start().starts_with('{') && !whole_line {
        // One JSON document over many lines: the rest of the file, up to
        // the reader's cap (a longer one is refused by the reader).
        let mut document = first + "\n";
        reader
            .take(fpuzzles::MAX_FPUZZLES_BYTES as u64 + 1)
            .read_to_string(&mut document)
            .map_err(Failure::io)?;
        return Ok(Box::new(std::iter::once(Ok((number, document)))));
    }
    let first = Some(Ok((number, first)));
    let rest = std::iter::from_fn(move || capped_line(&mut reader).transpose())
        .zip(number + 1..)
        .filter_map(|(line, number)| match line {
            Ok(line) if line.trim().is_empty() || line.starts_with('#') => None,
            Ok(line) => Some(Ok((number, line))),
            Err(error) => Some(Err(error)),
        });
    Ok(Box::new(first.into_iter().chain(rest)))
}

/// The next line without its line break, or `None` at the end. A line
/// longer than the f-puzzles reader takes is kept to one byte past its
/// cap (which the reader then refuses with the length it saw) and the
/// rest of it passed over, so that memory stays bounded.
fn capped_line(reader: &mut dyn BufRead) -> io::Result<Option<String>> {
    let cap = fpuzzles::MAX_FPUZZLES_BYTES + 1;
    let mut line = Vec::new();
    let read = (&mut *reader)
        .take(cap as u64)
        .read_until(b'\n', &mut line)?;
    if read == 0 {
        return Ok(None);
    }
    if line.len() == cap && line.last() != Some(&b'\n') {
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let passed = (&mut *reader).take(1 << 16).read_until(b'\n', &mut rest)?;
            if passed == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    let text = String::from_utf8(line)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "a line is not UTF-8"))?;
    Ok(Some(text.trim_end_matches(['\r', '\n']).to_string()))
}

/// Sends the puzzles to a stream's sender, from a thread of its own,
/// until the input ends, fails (the error is returned) or the stream
/// stops taking them.
fn feed(puzzles: Puzzles, texts: mpsc::Sender<(u64, String)>) -> io::Result<()> {
    for puzzle in puzzles {
        if texts.blocking_send(puzzle?).is_err() {
            break;
        }
    }
    Ok(())
}

/// Certifies the puzzles in this process, `threads` at a time, calling
/// `print` with each answer in order.
fn solve_here(
    puzzles: Puzzles,
    threads: usize,
    print: &mut dyn FnMut(u64, VariantVerdict) -> io::Result<()>,
) -> Result<(), Failure> {
    let chunk_size = threads.max(1) * CHUNK_PER_THREAD;
    let mut puzzles = puzzles.peekable();
    while puzzles.peek().is_some() {
        let chunk: Vec<(u64, String)> = puzzles
            .by_ref()
            .take(chunk_size)
            .collect::<io::Result<_>>()
            .map_err(Failure::io)?;
        let verdicts = solve_chunk(&chunk, threads);
        for ((number, _), verdict) in chunk.iter().zip(verdicts) {
            print(*number, verdict).map_err(Failure::io)?;
        }
    }
    Ok(())
}

/// One chunk's answers, in order, worked out on `threads` threads.
fn solve_chunk(chunk: &[(u64, String)], threads: usize) -> Vec<VariantVerdict> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let answers: Vec<std::sync::Mutex<Option<VariantVerdict>>> =
        chunk.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, chunk.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((_, text)) = chunk.get(index) else {
                        return;
                    };
                    *answers[index].lock().unwrap() = Some(solve_text(text));
                }
            });
        }
    });
    answers
        .into_iter()
        .map(|answer| answer.into_inner().unwrap().expect("every puzzle answered"))
        .collect()
}

/// Reads and certifies one puzzle, with no time limit.
fn solve_text(text: &str) -> VariantVerdict {
    let puzzle = fpuzzles::read(text).map_err(|error| (Outcome::Invalid, error.to_string()))?;
    Ok(solve_variant(&puzzle, || false).expect("a search with no stop check finishes"))
}

/// One answer's line of output.
fn answer_line(number: u64, verdict: &VariantVerdict, format: Format) -> String {
    let (outcome, solutions, error) = match verdict {
        Ok(report) => {
            let lines: Vec<String> = report.solutions.iter().map(|d| digits_line(d)).collect();
            (report.outcome, lines, None)
        }
        Err((outcome, why)) => (*outcome, Vec::new(), Some(escaped(why))),
    };
    let word = outcome_word(outcome);
    match format {
        Format::Json => {
            let mut object = format!(r#"{{"line":{number},"outcome":"{word}""#);
            if !solutions.is_empty() {
                object += &format!(r#","solutions":{}"#, serde_json::json!(solutions));
            }
            if let Some(error) = &error {
                object += &format!(r#","error":{}"#, serde_json::json!(error));
            }
            object + "}\n"
        }
        Format::Text => {
            let mut line = word.to_string();
            for part in solutions.iter().map(String::as_str).chain(error.as_deref()) {
                line.push(' ');
                line.push_str(part);
            }
            line + "\n"
        }
    }
}

/// Flags of `sudoku candidates`.
#[derive(Debug, Args)]
pub struct CandidatesArgs {
    /// A variant puzzle: f-puzzles JSON, a link that carries it, or a file
    /// that holds one (`-` for stdin).
    pub input: String,
    /// The most solutions the searches may find before the digits still
    /// unsettled are shown as undecided (0: no cap; otherwise at least 2).
    #[arg(long, default_value_t = 0)]
    pub max_solutions: u32,
    #[command(flatten)]
    pub target: TargetArgs,
}

/// Runs `sudoku candidates`: the grid of true candidates, then a line
/// that says what they show.
pub fn run_candidates(args: CandidatesArgs) -> Result<ExitCode, Failure> {
    if args.max_solutions == 1 {
        return Err(Failure::usage(
            "--max-solutions must be 0 (no cap) or at least 2",
        ));
    }
    let text = match read_puzzles(&args.input)?.next() {
        Some(puzzle) => puzzle.map_err(Failure::io)?.1,
        None => return Err(Failure::usage(format!("{} holds no puzzle", args.input))),
    };
    let puzzle = match fpuzzles::read(&text) {
        Ok(puzzle) => puzzle,
        Err(error) => {
            println!("invalid {}", escaped(&error.to_string()));
            return Ok(ExitCode::Invalid);
        }
    };
    let found = if args.target.local {
        let cap = match args.max_solutions {
            0 => usize::MAX,
            cap => cap as usize,
        };
        let found = true_candidates(&puzzle, cap, || false).expect("no stop check");
        Ok((found.outcome().unwrap_or(Outcome::MultipleSolutions), found))
    } else {
        let connect = args.target.options()?;
        let server = args.target.servers.servers()?[0].clone();
        with_runtime(async {
            let channel = client::connect(&server, &connect).await?;
            Ok(
                client::variant::variant_candidates(channel, &connect, &text, args.max_solutions)
                    .await?,
            )
        })?
    };
    let (outcome, found) = match found {
        Ok(found) => found,
        Err((outcome, why)) => {
            println!("{} {}", outcome_word(outcome), escaped(&why));
            return Ok(ExitCode::of(outcome));
        }
    };
    let mut out = io::stdout().lock();
    out.write_all(candidates_grid(&puzzle, &found).as_bytes())
        .and_then(|()| writeln!(out, "{}", candidates_summary(outcome, &found)))
        .map_err(Failure::io)?;
    Ok(ExitCode::of(outcome))
}

/// The candidates on the grid: each cell's digits, then `?` and the
/// undecided ones when the cap left some; boxes apart with `|` and rows
/// of `-` when the regions are the standard boxes.
fn candidates_grid(puzzle: &VariantPuzzle, found: &TrueCandidates) -> String {
    let shape = puzzle.shape();
    let size = shape.size();
    let text = |cell: usize| {
        let digits = |mask: u32| -> String {
            (1..=size as u8)
                .filter(|&d| mask & 1 << d != 0)
                .map(digit_char)
                .collect()
        };
        match found.undecided[cell] {
            0 => digits(found.possible[cell]),
            undecided => format!("{}?{}", digits(found.possible[cell]), digits(undecided)),
        }
    };
    let cells: Vec<String> = (0..shape.cell_count()).map(text).collect();
    let width = cells
        .iter()
        .map(|cell| cell.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let (box_rows, box_columns) = if puzzle.has_irregular_regions() {
        (size, size)
    } else {
        shape.box_dims()
    };
    let mut grid = String::new();
    for row in 0..size {
        if row > 0 && row % box_rows == 0 {
            let across = size * (width + 1) + 2 * (size / box_columns - 1) - 1;
            grid.push_str(&"-".repeat(across));
            grid.push('\n');
        }
        let line: Vec<String> = (0..size)
            .map(|column| {
                let bar = if column > 0 && column % box_columns == 0 {
                    "| "
                } else {
                    ""
                };
                format!("{bar}{:<width$}", cells[row * size + column])
            })
            .collect();
        grid.push_str(line.join(" ").trim_end());
        grid.push('\n');
    }
    grid
}

/// What the candidates say: the outcome, the solutions found and the cap.
fn candidates_summary(outcome: Outcome, found: &TrueCandidates) -> String {
    let mut summary = format!(
        "{}: {} found",
        outcome_word(outcome),
        crate::wording::counted(found.solutions_found as u64, "solution", "solutions")
    );
    if found.cap_reached {
        summary.push_str("; the cap was reached: digits after ? are undecided");
    }
    summary
}
