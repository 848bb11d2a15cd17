//! `sudoku generate`: fresh puzzles with one solution, at the level,
//! rating and symmetry asked for, reproducible from a seed.
//!
//! On a server by default (the Generate call, every puzzle checked before
//! it is printed: [`crate::client::generate`]), or with `--local` in this
//! process on `--threads` solver threads. Locally, attempts run on the
//! seeds `seed`, `next_seed(seed)`, ... in rounds, several at once, and
//! their puzzles are kept in seed order, as the server does, so the same
//! flags and seed print the same puzzles either way and whatever the
//! thread count. A target that too few attempts meet stops, locally after
//! `--max-attempts`, on a server after its `--max-generate-wait`, and says
//! how far it got.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::time::Instant;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::TargetArgs;
use super::output::{ExitCode, Format};
use super::{Failure, with_runtime};
use crate::client::{self, generate::CheckedPuzzle};
use crate::domain::GradeSummary;
use crate::domain::generate::{
    BoundError, Generated, Request, Seeds, Symmetry, attempt_each, clock_seed, rating_bounds,
};
use crate::domain::logic::{Level, Rating};
use crate::pool::{WorkerPool, available_cores};
use crate::wording::{count_of, counted};

/// Flags of `sudoku generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Puzzles to print.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub count: u32,
    /// Only puzzles of this level.
    #[arg(long, value_enum)]
    pub level: Option<LevelArg>,
    /// Only puzzles rated within MIN..MAX on Sudoku Explainer's scale
    /// (e.g. 7.0..8.5; either end may be left out). Ratings come in
    /// tenths: ..1.45 admits 1.4 and below.
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_rating_range)]
    pub rating: Option<(Option<Rating>, Option<Rating>)>,
    /// The symmetry of the givens.
    #[arg(long, value_enum, default_value_t = SymmetryArg::None)]
    pub symmetry: SymmetryArg,
    /// Only minimal puzzles: no given (with its symmetric partners) can
    /// go without a second solution.
    #[arg(long)]
    pub minimal: bool,
    /// The seed, 1 or more [default: a random one]; the same flags and
    /// seed print the same puzzles (on the same version). A server takes
    /// 0 for "pick one at random", so 0 is refused here.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub seed: Option<u64>,
    /// Make the puzzles without grading them, which is most of the cost of
    /// a minimal puzzle: the same puzzles (bar the rare one the grader
    /// cannot finish, which a graded run drops), many times as fast, with
    /// no rating or level (so not with --level or --rating).
    #[arg(long, conflicts_with_all = ["level", "rating"])]
    pub skip_grade: bool,
    /// Where to generate: a server (the default) or this process.
    #[command(flatten)]
    pub target: TargetArgs,
    /// Solver threads with --local [default: the number of available cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Attempts to make with --local before giving up on a target too few
    /// puzzles meet (a server stops after its --max-generate-wait, or
    /// --max-climb-wait for a target of 9.2 or more, where each attempt is
    /// a climb of seconds).
    #[arg(long, default_value_t = 1_000_000)]
    pub max_attempts: u64,
    /// `PUZZLE` lines, or one JSON object per line with the solution, the
    /// grade, the givens and the seed that makes that puzzle.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// No progress and no summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--level`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// Rated below 1.5.
    Easy,
    /// Below 2.5.
    Medium,
    /// Below 5.0.
    Hard,
    /// Below 9.0.
    Diabolical,
    /// 9.0 and up (ask a server for a longer --timeout and a longer wait:
    /// see docs/generation.md).
    Extreme,
}

/// `--symmetry`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SymmetryArg {
    /// No symmetry.
    None,
    /// A half turn.
    #[value(name = "rotate-180")]
    Rotate180,
    /// A quarter turn.
    #[value(name = "rotate-90")]
    Rotate90,
    /// Left and right.
    Mirror,
    /// Top and bottom.
    Flip,
    /// The main diagonal.
    Diagonal,
    /// The other diagonal.
    Antidiagonal,
}

/// A puzzle made here or on a server, as it is printed.
#[derive(Debug, Clone)]
struct Made {
    puzzle: crate::domain::Board,
    solution: crate::domain::Board,
    grade: Option<GradeSummary>,
    seed: u64,
}

impl From<&Generated> for Made {
    fn from(generated: &Generated) -> Made {
        Made {
            puzzle: generated.puzzle,
            solution: generated.solution,
            grade: generated.grade.as_ref().map(GradeSummary::from),
            seed: generated.seed,
        }
    }
}

impl From<CheckedPuzzle> for Made {
    fn from(checked: CheckedPuzzle) -> Made {
        Made {
            puzzle: checked.puzzle,
            solution: checked.solution,
            grade: checked.grade,
            seed: checked.seed,
        }
    }
}

/// Runs `sudoku generate`.
pub fn run(args: GenerateArgs) -> Result<ExitCode, Failure> {
    let request = request_of(&args);
    // Refused before any work: here it would spend --max-attempts, and a
    // server refuses it too.
    request
        .check()
        .map_err(|error| Failure::usage(format!("no puzzle can meet the target: {error}")))?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let count = args.count as usize;
    let bar = progress_bar(count, args.quiet);
    let started = Instant::now();
    let mut summary = Summary::default();
    let mut out = io::stdout().lock();
    let mut emit = |made: Made| {
        summary.count(&made);
        bar.inc(1);
        writeln!(out, "{}", line_of(&made, args.format))
    };
    let outcome = if args.target.local {
        let threads = args.threads.map_or_else(available_cores, usize::from);
        generate_in_rounds(&request, seed, count, threads, args.max_attempts, |made| {
            emit(Made::from(made))
        })
        .map(|attempts| count_of(attempts, "attempt"))
        .map_err(Failure::io)
    } else {
        generate_on_server(&args, &request, seed, &mut emit).map(|()| "on the server".to_string())
    };
    bar.finish_and_clear();
    out.flush().map_err(Failure::io)?;
    let how = outcome?;
    if !args.quiet {
        super::note(summary.report(&how, started.elapsed().as_secs_f64()));
    }
    if summary.made < count && args.target.local {
        return Err(Failure::error(format!(
            "found {} of the {} asked for in {how} (--max-attempts); the target is rarely met",
            summary.made,
            counted(count as u64, "puzzle", "puzzles")
        )));
    }
    if summary.made < count {
        return Err(Failure::error(format!(
            "protocol error: the server ended the stream after {} of the {} asked for, \
             without an error",
            summary.made,
            counted(count as u64, "puzzle", "puzzles")
        )));
    }
    Ok(ExitCode::Success)
}

/// Runs the Generate call on the first server, printing each puzzle as it
/// comes, once checked.
fn generate_on_server(
    args: &GenerateArgs,
    target: &Request,
    seed: u64,
    emit: &mut dyn FnMut(Made) -> io::Result<()>,
) -> Result<(), Failure> {
    let connect = args.target.options()?;
    let server = args.target.servers.servers()?[0].clone();
    let request = client::generate::pb_request(target, args.count, seed);
    with_runtime(async {
        let channel = client::connect(&server, &connect).await?;
        let made = client::generate::generate(channel, &connect, request, target, |checked| {
            emit(Made::from(checked))
        });
        // The server's limits may refuse what this command line asked
        // for (a count over its --max-generate-count, say).
        made.await.map_err(Failure::refused_as_usage)?;
        Ok(())
    })
}

fn request_of(args: &GenerateArgs) -> Request {
    let (min_rating, max_rating) = args.rating.unwrap_or((None, None));
    Request {
        symmetry: match args.symmetry {
            SymmetryArg::None => Symmetry::None,
            SymmetryArg::Rotate180 => Symmetry::Rotate180,
            SymmetryArg::Rotate90 => Symmetry::Rotate90,
            SymmetryArg::Mirror => Symmetry::Mirror,
            SymmetryArg::Flip => Symmetry::Flip,
            SymmetryArg::Diagonal => Symmetry::Diagonal,
            SymmetryArg::Antidiagonal => Symmetry::Antidiagonal,
        },
        minimal: args.minimal,
        level: args.level.map(|level| match level {
            LevelArg::Easy => Level::Easy,
            LevelArg::Medium => Level::Medium,
            LevelArg::Hard => Level::Hard,
            LevelArg::Diabolical => Level::Diabolical,
            LevelArg::Extreme => Level::Extreme,
        }),
        min_rating,
        max_rating,
        skip_grade: args.skip_grade,
    }
}

/// Runs attempts in rounds of one job per thread, the jobs cut by the
/// domain's [`Seeds`] as the server cuts them (one attempt, then twice as
/// many per job, up to sixteen, so that a few puzzles of a common level
/// cost few wasted attempts; one climb a job), and hands each puzzle that
/// meets `request` to `emit`, in seed order, until `count` are made or
/// `max_attempts` are spent; returns the attempts made.
fn generate_in_rounds(
    request: &Request,
    seed: u64,
    count: usize,
    threads: usize,
    max_attempts: u64,
    mut emit: impl FnMut(&Generated) -> io::Result<()>,
) -> io::Result<u64> {
    let pool = WorkerPool::new(threads, threads);
    let mut seeds = Seeds::new(request, seed);
    let (mut made, mut attempts) = (0, 0u64);
    while made < count && attempts < max_attempts {
        let mut left = max_attempts - attempts;
        let mut jobs = Vec::with_capacity(threads);
        while jobs.len() < threads && left > 0 {
            let mut job = seeds.next_job();
            job.truncate(usize::try_from(left).unwrap_or(usize::MAX));
            left -= job.len() as u64;
            let request = *request;
            let handle = pool
                .try_submit(move |_| attempt_each(&request, &job, None, &|| false))
                .expect("the queue holds a round");
            jobs.push(handle);
        }
        for job in jobs {
            for found in job.wait().map_err(io::Error::other)? {
                attempts += 1;
                if let Some(generated) = found.filter(|_| made < count) {
                    emit(&generated)?;
                    made += 1;
                }
            }
        }
    }
    Ok(attempts)
}

fn line_of(made: &Made, format: Format) -> String {
    let puzzle = made.puzzle.to_line();
    let hardest = |grade: &GradeSummary| grade.hardest.map_or("none", |technique| technique.name());
    match format {
        Format::Text => puzzle,
        Format::Json => serde_json::json!({
            "puzzle": puzzle,
            "solution": made.solution.to_line(),
            "rating": made.grade.as_ref().map(|grade| grade.rating.value()),
            "pearl": made.grade.as_ref().map(|grade| grade.pearl.value()),
            "diamond": made.grade.as_ref().map(|grade| grade.diamond.value()),
            "level": made.grade.as_ref().map(|grade| grade.level().name()),
            "hardest_technique": made.grade.as_ref().map(hardest),
            "clues": made.puzzle.given_count(),
            // A string, as protobuf's JSON writes a uint64: most JSON
            // readers (jq, JavaScript) hold numbers as doubles and would
            // round a seed above 2^53 to one that makes another puzzle.
            "seed": made.seed.to_string(),
        })
        .to_string(),
    }
}

/// `MIN..MAX`, `MIN..` or `..MAX`, ratings such as `7.5`, as the tenths
/// they admit.
fn parse_rating_range(text: &str) -> Result<(Option<Rating>, Option<Rating>), String> {
    let (min, max) = text
        .split_once("..")
        .ok_or_else(|| format!("expected MIN..MAX, e.g. 7.0..8.5, not {text:?}"))?;
    let number = |part: &str| -> Result<Option<f64>, String> {
        if part.is_empty() {
            return Ok(None);
        }
        let value = part
            .parse()
            .map_err(|_| format!("{part:?} is not a rating such as 7.5"))?;
        Ok(Some(value))
    };
    rating_bounds(number(min)?, number(max)?).map_err(|error| match error {
        BoundError::MinAboveMax { min, max } => {
            format!("the lowest rating {min:?} is above the highest {max:?}")
        }
        BoundError::MaxBelowEasiest { .. } => format!("the highest rating {error}"),
        _ => error.to_string(),
    })
}

fn progress_bar(count: usize, quiet: bool) -> ProgressBar {
    if quiet || count < 1000 || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar =
        ProgressBar::with_draw_target(Some(count as u64), ProgressDrawTarget::stderr_with_hz(4));
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, ETA {eta}")
    {
        bar.set_style(style);
    }
    bar
}

/// What a run made: levels (the last entry for puzzles without a grade)
/// and givens.
#[derive(Debug, Default)]
struct Summary {
    made: usize,
    levels: [usize; Level::ALL.len() + 1],
    givens: BTreeMap<usize, usize>,
}

impl Summary {
    fn count(&mut self, made: &Made) {
        self.made += 1;
        let level = made.grade.as_ref().map(GradeSummary::level);
        self.levels[level.map_or(Level::ALL.len(), |level| level as usize)] += 1;
        *self.givens.entry(made.puzzle.given_count()).or_default() += 1;
    }

    fn report(&self, how: &str, seconds: f64) -> String {
        let ungraded = self.levels[Level::ALL.len()];
        let levels = if ungraded > 0 {
            format!("{ungraded} ungraded")
        } else {
            Level::ALL
                .iter()
                .zip(self.levels)
                .map(|(level, n)| format!("{n} {level}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let givens = self
            .givens
            .iter()
            .map(|(givens, n)| format!("{givens}:{n}"))
            .collect::<Vec<_>>()
            .join(" ");
        let givens = match givens.is_empty() {
            true => String::new(),
            false => format!("; givens {givens}"),
        };
        format!(
            "generated {} in {seconds:.2}s ({:.0}/s, {how}): {levels}{givens}",
            count_of(self.made as u64, "puzzle"),
            self.made as f64 / seconds.max(1e-9)
        )
    }
}
