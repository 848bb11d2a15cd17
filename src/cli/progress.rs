//! What a file run shows on stderr while it runs and when it ends: a
//! progress bar on a terminal, the first lines that got an error, and a
//! summary.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::output::{escaped, summary};
use crate::domain::Tally;
use crate::file::Progress;
use crate::wording::count_of;

/// How many lines that got an error are named; the rest are counted.
pub const ERRORS_SHOWN: u64 = 10;

/// Which progress display a run gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgressKind {
    /// None (stderr is not a terminal, or `--quiet`).
    Hidden,
    /// A bar with an ETA, for an input of this many bytes.
    Bar {
        /// The input's size in bytes.
        total_bytes: u64,
    },
    /// A count and a rate, for an input of unknown size (stdin).
    Counter,
}

/// A run's display on stderr.
pub struct RunDisplay {
    bar: ProgressBar,
    quiet: bool,
    errors_seen: u64,
    started: Instant,
}

impl RunDisplay {
    /// A display of `kind`; with `quiet`, nothing at all is shown.
    pub fn new(kind: ProgressKind, quiet: bool) -> RunDisplay {
        let kind = if quiet { ProgressKind::Hidden } else { kind };
        let bar = progress_bar(kind);
        bar.set_message("0 puzzles");
        RunDisplay {
            bar,
            quiet,
            errors_seen: 0,
            started: Instant::now(),
        }
    }

    /// Takes in a chunk's progress: names its errors while fewer than
    /// [`ERRORS_SHOWN`] have been, and moves the bar.
    pub fn report(&mut self, progress: Progress<'_>) {
        for (line, message) in progress.errors {
            if !self.quiet && self.errors_seen < ERRORS_SHOWN {
                let note = format!("sudoku: line {line}: {}", escaped(message));
                self.bar.suspend(|| super::note(&note));
            }
            self.errors_seen += 1;
        }
        self.bar.inc(progress.input_bytes);
        let seconds = self.started.elapsed().as_secs_f64().max(1e-3);
        self.bar.set_message(format!(
            "{}, {:.0}/s",
            count_of(progress.answered, "puzzle"),
            progress.answered as f64 / seconds
        ));
    }

    /// Clears the bar and counts the errors not named; with a run's tally,
    /// prints its summary too.
    pub fn finish(self, run: Option<(&Tally, Duration)>) {
        self.bar.finish_and_clear();
        if self.quiet {
            return;
        }
        if self.errors_seen > ERRORS_SHOWN {
            super::note(format_args!(
                "sudoku: ... and {} more lines with errors",
                self.errors_seen - ERRORS_SHOWN
            ));
        }
        if let Some((tally, elapsed)) = run {
            super::note(summary(tally, elapsed));
        }
    }
}

/// The progress bar for `kind`.
fn progress_bar(kind: ProgressKind) -> ProgressBar {
    let bar = match kind {
        ProgressKind::Hidden => return ProgressBar::hidden(),
        ProgressKind::Bar { total_bytes } => {
            let bar = ProgressBar::with_draw_target(
                Some(total_bytes),
                ProgressDrawTarget::stderr_with_hz(4),
            );
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {percent:>3}% {msg}, ETA {eta}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar
        }
        ProgressKind::Counter => {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("a valid template"),
            );
            bar
        }
    };
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
