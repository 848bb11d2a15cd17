//! The solver alone, per benchmark puzzle set: `cargo bench --bench solver`.
//!
//! Each benchmark certifies (searches for up to two solutions, as the service
//! does) a fixed sample of one set's puzzles, already parsed, and reports
//! puzzles per second. The standard sets are read from `puzzles/` in the
//! checkout (`scripts/fetch-puzzles.sh` fetches them there), or from the
//! directory in `SUDOKU_PUZZLES`; when they are absent the run says so and
//! benchmarks only the puzzles shipped in `tests/data/`. Whole-process timing against the reference solver is
//! described in docs/cli.md and docs/performance.md (`sudoku solve --local`).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudoku_core::{Board, parse_board, solver};

/// The standard sets, with how many of their puzzles each benchmark
/// iteration solves (enough to average over, few enough to keep an
/// iteration well under a second on the hardest set).
const STANDARD_SETS: [(&str, usize); 5] = [
    ("kaggle_like.txt", 2_571),
    ("kaggle.txt", 2_571),
    ("17_clue.txt", 5_000),
    ("top1465.txt", 1_465),
    ("hardest_1905_11plus.txt", 1_000),
];

/// Where the standard sets are, if anywhere.
fn standard_set_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("SUDOKU_PUZZLES") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("puzzles"),
    };
    dir.is_dir().then_some(dir)
}

/// The checkout's root, which holds `puzzles/` and `tests/data/`.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Up to `limit` puzzles of a file: one per line, `#` comments and blank
/// lines skipped (the rule for puzzle files).
fn load(path: &Path, limit: usize) -> Vec<Board> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .take(limit)
        .map(|line| {
            parse_board(line).unwrap_or_else(|error| panic!("{}: {line}: {error}", path.display()))
        })
        .collect()
}

/// Benchmarks certifying every board of `boards` as one iteration.
fn bench_set(criterion: &mut Criterion, name: &str, boards: &[Board]) {
    let mut group = criterion.benchmark_group("certify");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function(name, |bencher| {
        bencher.iter(|| {
            for board in boards {
                black_box(solver::solve(black_box(board), || false).expect("never cancelled"));
            }
        })
    });
    group.finish();
}

fn benches(criterion: &mut Criterion) {
    match standard_set_dir() {
        Some(dir) => {
            for (file, limit) in STANDARD_SETS {
                let path = dir.join(file);
                if !path.is_file() {
                    eprintln!("note: {} is missing; skipping it", path.display());
                    continue;
                }
                let name = file.trim_end_matches(".txt");
                bench_set(criterion, name, &load(&path, limit));
            }
        }
        None => eprintln!(
            "note: the standard puzzle sets were not found (puzzles/ in the checkout, from \
             scripts/fetch-puzzles.sh, or set SUDOKU_PUZZLES=DIR); benchmarking only tests/data"
        ),
    }
    let shipped = workspace_root().join("tests/data/unique.txt");
    bench_set(criterion, "tests_data_unique", &load(&shipped, usize::MAX));
    for (name, puzzle) in ADVERSARIAL {
        let board = parse_board(puzzle).expect("a valid puzzle");
        bench_set(criterion, &format!("adversarial_{name}"), &[board]);
    }
}

/// Single puzzles made to be slow for some kind of solver (the same ones
/// tests/suite/hostile.rs checks for their guess counts): each is one benchmark.
const ADVERSARIAL: [(&str, &str); 4] = [
    // Against naive backtracking: the solution starts 987654321.
    (
        "anti_backtracking",
        "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
    ),
    // "Easter Monster", hard for human-style techniques.
    (
        "easter_monster",
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    ),
    // The puzzle of hardest_1905_11plus that takes this solver most guesses.
    (
        "most_guesses",
        "98.7..6..7..6..8....5....4.8..9..3...3..7...2....3....1....9....9..671.....1....8",
    ),
    // An empty board: certifying it means finding two solutions.
    (
        "empty_board",
        ".................................................................................",
    ),
];

criterion_group!(solver_benches, benches);
criterion_main!(solver_benches);
