//! Checks the logical solver against the reference data in
//! `../shared/grading` (or the folder given), and checks every step of
//! every puzzle of the benchmark sets against their solutions, and its
//! reasoning (links, branches, witnesses) against the grid it was found
//! on.
//!
//! The reference files are GPL and LGPL, so they are read from where they
//! are and never copied into this project; this is why the check is an
//! example run by `scripts/grading-conformance.sh` and not a test.
//!
//! ```text
//! cargo run --release --example grading_conformance -- exchange DIR
//! cargo run --release --example grading_conformance -- reglib DIR
//! cargo run --release --example grading_conformance -- se-paths DIR
//! cargo run --release --example grading_conformance -- soundness FILE...
//! cargo run --release --example grading_conformance -- speed FILE [REPEAT]
//! cargo run --release --example grading_conformance -- hardest FILE
//! cargo run --release --example grading_conformance -- memory FILE...
//! ```

mod effects;
mod reglib;
mod se_paths;

use std::time::{Duration, Instant};

use sudoku_grpc::domain::logic::{self, Grade, Grid, Level, Observer, Rating, Single, Step};
use sudoku_grpc::domain::{Board, Outcome, parse_board, solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("exchange") if args.len() == 2 => exchange(&args[1]),
        Some("reglib") if args.len() == 2 => reglib::run(&args[1]),
        Some("se-paths") if args.len() == 2 => se_paths::run(&args[1]),
        Some("hardest") if args.len() == 2 => hardest(&args[1]),
        Some("memory") if args.len() >= 2 => args[1..].iter().for_each(|file| memory(file)),
        Some("speed") if args.len() >= 2 => {
            speed(&args[1], args.get(2).map_or(1, |n| n.parse().unwrap_or(1)))
        }
        Some("soundness") => {
            for file in &args[1..] {
                soundness(file);
            }
        }
        _ => {
            eprintln!(
                "usage: grading_conformance exchange|reglib|se-paths DIR | soundness FILE... | speed FILE [REPEAT] | hardest FILE"
            );
            std::process::exit(2);
        }
    }
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| {
        eprintln!("cannot read {path}: {error}");
        std::process::exit(2);
    })
}

/// The puzzles of a benchmark set: the first 81 characters of each line
/// that is not a `#` comment (the sets' README gives that rule).
fn puzzles_of(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.get(..81))
}

fn solve(board: &Board) -> Option<Board> {
    let report = solver::solve(board, || false).ok()?;
    (report.outcome == Outcome::Solved).then_some(report.solution?)
}

fn timed_grade(board: &Board) -> (Grade, Duration) {
    let started = Instant::now();
    let grade = logic::grade(board);
    (grade, started.elapsed())
}

fn exchange(dir: &str) {
    let text = read(&format!("{dir}/exchange-rated.txt"));
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let board = parse_board(fields[1]).expect("exchange puzzles parse");
        let expected: f64 = fields[2].parse().expect("exchange ratings are numbers");
        let (grade, time) = timed_grade(&board);
        rows.push((expected, grade, time));
    }
    let within = |rows: &[&(f64, Grade, Duration)], tolerance: f64| {
        rows.iter()
            .filter(|(e, g, _)| (g.rating.value() - e).abs() <= tolerance + 1e-9)
            .count()
    };
    let all: Vec<_> = rows.iter().collect();
    let simple: Vec<_> = rows.iter().filter(|(e, _, _)| *e <= 4.4 + 1e-9).collect();
    println!("exchange-rated: {} puzzles", all.len());
    println!(
        "  rated <= 4.4: {}/{} exact ({:.1}%)",
        within(&simple, 0.05),
        simple.len(),
        100.0 * within(&simple, 0.05) as f64 / simple.len() as f64
    );
    println!(
        "  all: {}/{} within 0.5 ({:.1}%), exact {}",
        within(&all, 0.5),
        all.len(),
        100.0 * within(&all, 0.5) as f64 / all.len() as f64,
        within(&all, 0.05)
    );
    let ours: Vec<f64> = rows.iter().map(|(_, g, _)| g.rating.value()).collect();
    let theirs: Vec<f64> = rows.iter().map(|(e, _, _)| *e).collect();
    println!(
        "  Spearman rank correlation: {:.3}",
        spearman(&ours, &theirs)
    );
    let stalled = rows.iter().filter(|(_, g, _)| g.stalled.is_some()).count();
    let slowest = rows.iter().map(|(_, _, t)| *t).max().unwrap_or_default();
    println!(
        "  stalled: {stalled}; slowest grade {:.1} ms",
        slowest.as_secs_f64() * 1e3
    );
    print_level_confusion(&rows);
    println!("  by SE rating: count, exact, within 0.5, mean of ours, time spent (ms)");
    let mut ratings: Vec<f64> = theirs.clone();
    ratings.sort_by(f64::total_cmp);
    ratings.dedup();
    for rating in ratings {
        let group: Vec<_> = rows.iter().filter(|(e, _, _)| *e == rating).collect();
        let mean = group.iter().map(|(_, g, _)| g.rating.value()).sum::<f64>() / group.len() as f64;
        let spent: Duration = group.iter().map(|(_, _, t)| *t).sum();
        println!(
            "    {rating:.1}: {:3} {:3} {:3}  {mean:.2}  {:7.1}",
            group.len(),
            within(&group, 0.05),
            within(&group, 0.5),
            spent.as_secs_f64() * 1e3
        );
    }
}

/// Sukaku Explainer's ER/EP/ED of a file of `PUZZLE ER/EP/ED SECONDS
/// TECHNIQUE` lines (as `hardest-se40.txt`) against ours, with the time
/// each took both programs.
fn hardest(path: &str) {
    let text = read(path);
    let (mut exact, mut times, mut rows) = ([0; 3], Vec::new(), 0);
    println!(
        "puzzle                                                                             SE ER/EP/ED    ours ER/EP/ED  SE s    ours s"
    );
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let board = parse_board(fields[0]).expect("hardest puzzles parse");
        let theirs: Vec<f64> = fields[1]
            .split('/')
            .map(|r| r.parse().expect("ratings"))
            .collect();
        let (grade, time) = timed_grade(&board);
        let ours = [grade.rating, grade.pearl, grade.diamond].map(Rating::value);
        for (count, (a, b)) in exact.iter_mut().zip(ours.iter().zip(&theirs)) {
            *count += usize::from((a - b).abs() < 0.05);
        }
        let mark = if (ours[0] - theirs[0]).abs() < 0.05 {
            ' '
        } else {
            '*'
        };
        println!(
            "{} {:>13}{mark} {:>4.1}/{:.1}/{:.1} {:>6} {:>8.2}{}",
            fields[0],
            fields[1],
            ours[0],
            ours[1],
            ours[2],
            fields[2],
            time.as_secs_f64(),
            grade
                .stalled
                .as_ref()
                .map_or(String::new(), |s| format!("  stalled: {s}")),
        );
        times.push((time, fields[0].to_string()));
        rows += 1;
    }
    times.sort();
    let median = times.get(rows / 2).map_or(0.0, |(t, _)| t.as_secs_f64());
    println!(
        "{rows} puzzles: ER exact {}, EP exact {}, ED exact {}; median {median:.2} s, slowest {:.2} s ({})",
        exact[0],
        exact[1],
        exact[2],
        times.last().map_or(0.0, |(t, _)| t.as_secs_f64()),
        times.last().map_or("", |(_, p)| p.as_str()),
    );
}

/// How many puzzles of each of Sukaku Explainer's levels (rows) got each
/// of ours (columns).
fn print_level_confusion(rows: &[(f64, Grade, Duration)]) {
    let mut counts = [[0usize; Level::ALL.len()]; Level::ALL.len()];
    for (expected, grade, _) in rows {
        let theirs = Rating((expected * 10.0).round() as u16).level();
        counts[theirs as usize][grade.level() as usize] += 1;
    }
    let names = Level::ALL.map(Level::name);
    println!(
        "  levels, SE (rows) against ours (columns): {}",
        names.join(" ")
    );
    for (level, row) in names.iter().zip(counts) {
        if row.iter().any(|&n| n > 0) {
            println!("    {level:>10}: {row:?}");
        }
    }
}

/// Spearman's rank correlation, with ties given their mean rank.
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let mean = (n + 1.0) / 2.0;
    let cov: f64 = ra
        .iter()
        .zip(&rb)
        .map(|(x, y)| (x - mean) * (y - mean))
        .sum();
    let var = |r: &[f64]| r.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
    cov / (var(&ra) * var(&rb)).sqrt()
}

fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start;
        while end + 1 < order.len() && values[order[end + 1]] == values[order[start]] {
            end += 1;
        }
        let rank = (start + end) as f64 / 2.0 + 1.0;
        for &i in &order[start..=end] {
            ranks[i] = rank;
        }
        start = end + 1;
    }
    ranks
}

/// Checks every step against the solution.
struct Checker<'a> {
    solution: &'a Board,
    steps: u64,
    wrong: Vec<String>,
    /// Steps whose reasoning was checked, by technique.
    reasoned: &'a mut std::collections::BTreeMap<&'static str, u64>,
}

impl Checker<'_> {
    /// Holds the step's units, links, branches and witnesses to the rules
    /// of links on the grid it was found on.
    fn check_reasoning(&mut self, before: &Grid, step: &Step) {
        let shown = step.clone().with_witnesses(before);
        *self.reasoned.entry(step.technique.name()).or_default() += 1;
        for fault in logic::reasoning_faults(&shown, before) {
            self.wrong
                .push(format!("{}: reasoning: {fault}", step.technique.name()));
        }
    }

    fn check(&mut self, what: &str, placements: &[(usize, u8)], eliminations: &[(usize, u8)]) {
        self.steps += 1;
        let cells = self.solution.cells();
        for &(cell, digit) in placements {
            if cells[cell] != digit {
                self.wrong
                    .push(format!("{what} placed {digit} in cell {cell}"));
            }
        }
        for &(cell, digit) in eliminations {
            if cells[cell] == digit {
                self.wrong
                    .push(format!("{what} removed {digit} from cell {cell}"));
            }
        }
    }
}

impl Observer for Checker<'_> {
    fn single(&mut self, before: &Grid, single: Single) {
        self.check(single.technique.name(), &[(single.cell, single.digit)], &[]);
        self.check_reasoning(before, &single.to_step());
    }

    fn step(&mut self, before: &Grid, step: &Step) {
        self.check_reasoning(before, step);
        let pairs = |marks: &[logic::Mark]| -> Vec<(usize, u8)> {
            marks
                .iter()
                .map(|m| (usize::from(m.cell), m.digit))
                .collect()
        };
        self.check(
            step.technique.name(),
            &pairs(&step.placements),
            &pairs(&step.eliminations),
        );
    }
}

fn soundness(file: &str) {
    let text = read(file);
    let (mut puzzles, mut steps, mut stalled, mut wrong) = (0, 0, 0, 0);
    let mut slowest = (Duration::ZERO, String::new());
    let mut reasoned = std::collections::BTreeMap::new();
    let started = Instant::now();
    for line in puzzles_of(&text) {
        let Ok(board) = parse_board(line) else {
            continue;
        };
        let Some(solution) = solve(&board) else {
            continue;
        };
        let mut checker = Checker {
            solution: &solution,
            steps: 0,
            wrong: Vec::new(),
            reasoned: &mut reasoned,
        };
        let one = Instant::now();
        let grade = logic::walk(
            Grid::new(&board),
            &|| false,
            &|| Duration::ZERO,
            &mut checker,
        );
        let time = one.elapsed();
        if time > slowest.0 {
            slowest = (time, line.to_string());
        }
        puzzles += 1;
        steps += checker.steps;
        stalled += usize::from(grade.stalled.is_some());
        if !checker.wrong.is_empty() {
            wrong += 1;
            eprintln!("UNSOUND {}: {}", line, checker.wrong.join("; "));
        }
    }
    println!(
        "{file}: {puzzles} puzzles, {steps} steps checked, {wrong} puzzles with a wrong step, {stalled} stalled, {:.1} s, slowest {:.1} ms ({})",
        started.elapsed().as_secs_f64(),
        slowest.0.as_secs_f64() * 1e3,
        slowest.1
    );
    let techniques: Vec<String> = reasoned.iter().map(|(t, n)| format!("{t} {n}")).collect();
    println!(
        "  reasoning checked by technique: {}",
        techniques.join(", ")
    );
}

/// Sees that every harder step of a walk is the step a ladder with no
/// memory of earlier grids finds.
struct Fresh {
    steps: usize,
    first_difference: Option<String>,
}

impl Observer for Fresh {
    fn single(&mut self, _: &Grid, _: Single) {}

    fn step(&mut self, before: &Grid, step: &Step) {
        self.steps += 1;
        let fresh = logic::simplest_step(before, &|| false);
        if self.first_difference.is_none() && fresh.as_ref() != Some(step) {
            self.first_difference = Some(format!(
                "step {}: the walk took {step:?}, a fresh ladder {fresh:?}",
                self.steps
            ));
        }
    }
}

/// Walks every puzzle of the files and checks each harder step against
/// a ladder with no memory (the walk's ladder searches only what changed
/// below the rung that found its last step).
fn memory(file: &str) {
    let text = read(file);
    let (mut puzzles, mut steps, mut differ) = (0, 0, 0);
    for line in puzzles_of(&text) {
        let Some(board) = parse_board(line).ok().filter(|b| solve(b).is_some()) else {
            continue;
        };
        let mut fresh = Fresh {
            steps: 0,
            first_difference: None,
        };
        logic::walk(Grid::new(&board), &|| false, &|| Duration::ZERO, &mut fresh);
        puzzles += 1;
        steps += fresh.steps;
        if let Some(difference) = fresh.first_difference {
            differ += 1;
            eprintln!("DIFFERENT {line}: {difference}");
        }
    }
    println!("{file}: {puzzles} puzzles, {steps} harder steps compared, {differ} puzzles differ");
}

/// Grades every puzzle of a file `repeat` times on one thread and prints
/// the rate; the certifying solve is not timed.
fn speed(file: &str, repeat: usize) {
    let text = read(file);
    let boards: Vec<Board> = puzzles_of(&text)
        .filter_map(|l| parse_board(l).ok())
        .filter(|b| solve(b).is_some())
        .collect();
    let mut slowest = Duration::ZERO;
    let mut checksum = 0u64;
    let started = Instant::now();
    for _ in 0..repeat {
        for board in &boards {
            let (grade, time) = timed_grade(board);
            slowest = slowest.max(time);
            checksum += u64::from(grade.rating.0);
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    let graded = boards.len() * repeat;
    println!(
        "{file}: graded {graded} puzzles in {elapsed:.3} s on one thread: {:.0} puzzles/s, slowest {:.2} ms (rating sum {checksum})",
        graded as f64 / elapsed,
        slowest.as_secs_f64() * 1e3
    );
}
