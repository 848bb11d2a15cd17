//! Checks each technique of the logical solver against HoDoKu's regression
//! library, `hodoku-reglib-1.4.txt`: one line per case, a pencil-mark grid
//! and the eliminations or placements one technique must make in it (or,
//! for a `-x` case, a grid where it must find nothing).
//!
//! The library is GPL-3.0, so it is read at run time from the grading data
//! folder (normally `../shared/grading`) and never copied into this
//! MIT/Apache project; nothing of its content is written into the source.
//!
//! A HoDoKu code maps to one or more of our techniques. A case passes when
//! one of them finds an instance with exactly the expected effect. The
//! library only promises that no *other* instance has a different effect
//! on the digits it names, so an instance of another digit (or a shorter
//! chain) may come first: for subsets and wings every instance on the
//! case's grid is looked at; otherwise each instance that does not match
//! is applied and the search run again, and the report says how many
//! cases matched on the first instance. Steps with the same pattern are one instance
//! (HoDoKu's Locked Pair is our naked pair in its box and in its line),
//! and a placement equals crossing out the cell's other candidates
//! (HoDoKu writes some loops and BUG+1 that way): such passes are counted
//! as "equivalent". A chain case names one chain among the many that make
//! the same eliminations (a loop makes several), and ours searches for the
//! shortest: a chain case that no instance matches passes "by effect"
//! when each of its eliminations and placements is made by some chain of
//! the kind the case maps to, and the report counts those apart.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};

use sudoku_grpc::domain::logic::Technique as T;
use sudoku_grpc::domain::logic::{
    Grid, Mark, Step, Technique, all_instances, chain_making, find_technique, reasoning_faults,
};
use sudoku_grpc::domain::parse_board;

use crate::effects::{Effects, percent, sort_marks};

/// The file read from the grading data folder.
const LIBRARY: &str = "hodoku-reglib-1.4.txt";

/// The families reported, in order.
const FAMILIES: [&str; 9] = [
    "singles",
    "intersections",
    "subsets",
    "basic fish",
    "single-digit patterns",
    "wings",
    "uniqueness",
    "BUG",
    "chains",
];

/// A HoDoKu code (with a variant when only that variant maps), its family,
/// and the techniques of ours that may find it.
type Mapping = (&'static str, &'static str, &'static [Technique]);

/// Chains HoDoKu names by their shape (loops and AICs): any of ours.
const ANY_CHAIN: &[Technique] = &[T::XChain, T::XYChain, T::Aic];

const MAPPINGS: &[Mapping] = &[
    ("0000", "singles", &[T::FullHouse]),
    (
        "0002",
        "singles",
        &[T::HiddenSingleBox, T::HiddenSingleLine],
    ),
    ("0003", "singles", &[T::NakedSingle]),
    ("0100", "intersections", &[T::Pointing]),
    ("0101", "intersections", &[T::Claiming]),
    // Locked Pair and Triple: a naked subset in a box and a line at once.
    ("0110", "subsets", &[T::NakedPair]),
    ("0111", "subsets", &[T::NakedTriple]),
    ("0200", "subsets", &[T::NakedPair]),
    ("0201", "subsets", &[T::NakedTriple]),
    ("0202", "subsets", &[T::NakedQuad]),
    ("0210", "subsets", &[T::HiddenPair]),
    ("0211", "subsets", &[T::HiddenTriple]),
    ("0212", "subsets", &[T::HiddenQuad]),
    ("0300", "basic fish", &[T::XWing]),
    ("0301", "basic fish", &[T::Swordfish]),
    ("0302", "basic fish", &[T::Jellyfish]),
    ("0400", "single-digit patterns", &[T::Skyscraper]),
    ("0401", "single-digit patterns", &[T::TwoStringKite]),
    // An empty rectangle with two candidates in its box is a box link and
    // a line link: our Turbot Fish. HoDoKu's Turbot Fish is any of the
    // three four-candidate patterns.
    ("0402-1", "single-digit patterns", &[T::TurbotFish]),
    (
        "0403",
        "single-digit patterns",
        &[T::TurbotFish, T::Skyscraper, T::TwoStringKite],
    ),
    ("0600", "uniqueness", &[T::UniqueRectangle1]),
    ("0601", "uniqueness", &[T::UniqueRectangle2]),
    ("0602", "uniqueness", &[T::UniqueRectangle3]),
    ("0603", "uniqueness", &[T::UniqueRectangle4]),
    ("0610", "BUG", &[T::Bug1]),
    ("0701", "chains", &[T::XChain]),
    ("0702", "chains", &[T::XYChain]),
    ("0706", "chains", ANY_CHAIN),
    ("0707", "chains", ANY_CHAIN),
    ("0708", "chains", ANY_CHAIN),
    ("0800", "wings", &[T::XYWing]),
    ("0801", "wings", &[T::XYZWing]),
];

/// Failing lines listed per code.
const FAILURES_SHOWN: usize = 3;

/// Checks every case of the library in `dir` and prints the report.
pub fn run(dir: &str) {
    let path = format!("{dir}/{LIBRARY}");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("cannot read {path}: {error} (is the grading data folder there?)");
            std::process::exit(2);
        }
    };
    let mut report = Report::default();
    let mut reasoning = Reasoning::default();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.starts_with(':') {
            report.add(line, index + 1);
            reasoning.add(line, index + 1);
        }
    }
    report.print(&technique_names(&text));
    reasoning.print();
}

/// Each case's step, for every technique its code maps to, held to the
/// rules of links on the case's grid (`logic::reasoning_faults`): the
/// library's hand-made positions reach techniques no walk of ours does.
#[derive(Default)]
struct Reasoning {
    checked: BTreeMap<&'static str, usize>,
    faults: Vec<String>,
}

impl Reasoning {
    fn add(&mut self, line: &str, number: usize) {
        let code = line.split(':').nth(1).unwrap_or("").trim();
        let (Some(&(_, _, techniques)), Some(case)) = (mapping_for(code), parse_case(line)) else {
            return;
        };
        for &technique in techniques {
            let Some(step) = find_technique(&case.grid, technique) else {
                continue;
            };
            let step = step.with_witnesses(&case.grid);
            *self.checked.entry(technique.name()).or_default() += 1;
            for fault in reasoning_faults(&step, &case.grid) {
                self.faults
                    .push(format!("line {number} ({technique}): {fault}"));
            }
        }
    }

    fn print(&self) {
        let steps: usize = self.checked.values().sum();
        println!(
            "reasoning: {steps} steps of {} techniques checked, {} faults",
            self.checked.len(),
            self.faults.len()
        );
        for (technique, count) in &self.checked {
            println!("    {technique}: {count}");
        }
        for fault in self.faults.iter().take(20) {
            println!("    FAULT {fault}");
        }
    }
}

/// HoDoKu's names for its codes, read from the library's header comments
/// (`#0300: X-Wing`), so that the report names them without this file
/// repeating the library.
fn technique_names(text: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.trim_end_matches('\r').strip_prefix('#') else {
            continue;
        };
        let Some((code, name)) = rest.split_once(':') else {
            continue;
        };
        let is_code = code.len() >= 4
            && code.starts_with(|c: char| c.is_ascii_digit())
            && code.chars().all(|c| c.is_ascii_digit() || c == '-');
        if is_code {
            names
                .entry(code.to_string())
                .or_insert_with(|| name.trim().to_string());
        }
    }
    names
}

fn mapping_for(code: &str) -> Option<&'static Mapping> {
    let base = code.split('-').next().unwrap_or(code);
    MAPPINGS
        .iter()
        .find(|mapping| mapping.0 == code)
        .or_else(|| MAPPINGS.iter().find(|mapping| mapping.0 == base))
}

/// One case: the grid to search, what must be found, or that nothing
/// must be.
struct Case {
    grid: Grid,
    expected: Effects,
    must_find_nothing: bool,
}

/// Reads `:CODE:DIGITS:GRID:DELETED:ELIMINATIONS:PLACEMENTS:EXTRA`.
/// `None` when the line is malformed.
fn parse_case(line: &str) -> Option<Case> {
    let fields: Vec<&str> = line.split(':').collect();
    let field = |index: usize| fields.get(index).copied().unwrap_or("");
    // `parse_board` skips `+` as layout, which is what HoDoKu's "placed,
    // not given" marker needs here: placed and given cells are both set.
    let board = parse_board(field(3)).ok()?;
    let mut grid = Grid::new(&board);
    for mark in parse_marks(field(4))? {
        grid.eliminate(usize::from(mark.cell), mark.digit);
    }
    let must_find_nothing = field(1).trim().ends_with("-x");
    let expected = if must_find_nothing {
        Effects::default()
    } else {
        Effects {
            eliminations: parse_marks(field(5))?,
            placements: parse_marks(field(6))?,
        }
    };
    Some(Case {
        grid,
        expected,
        must_find_nothing,
    })
}

/// Candidates written `DRC` (digit, row, column, each 1-9) and separated
/// by blanks; `None` if any is not.
fn parse_marks(text: &str) -> Option<Vec<Mark>> {
    let mut marks = Vec::new();
    for token in text.split_whitespace() {
        let bytes = token.as_bytes();
        if bytes.len() != 3 || !bytes.iter().all(|b| (b'1'..=b'9').contains(b)) {
            return None;
        }
        let (digit, row, column) = (bytes[0] - b'0', bytes[1] - b'1', bytes[2] - b'1');
        marks.push(Mark::new(usize::from(row) * 9 + usize::from(column), digit));
    }
    sort_marks(&mut marks);
    Some(marks)
}

/// What checking one case gave.
#[derive(Debug, Clone, Copy)]
enum Verdict {
    /// Passed: on the first instance found or a later one; exactly, or
    /// with a placement written as eliminations.
    Passed {
        first: bool,
        equivalent: bool,
        by_effect: bool,
    },
    /// Failed, and why.
    Failed(&'static str),
}

fn check(case: &Case, techniques: &[Technique]) -> Verdict {
    if case.must_find_nothing {
        let found = techniques
            .iter()
            .any(|&t| find_technique(&case.grid, t).is_some());
        return if found {
            Verdict::Failed("found a step where none exists")
        } else {
            Verdict::Passed {
                first: true,
                equivalent: false,
                by_effect: false,
            }
        };
    }
    let (mut later, mut reason) = (None, "found nothing");
    for &technique in techniques {
        match search(case, technique) {
            Search::Match {
                first: true,
                equivalent,
            } => {
                return Verdict::Passed {
                    first: true,
                    equivalent,
                    by_effect: false,
                };
            }
            Search::Match { equivalent, .. } => {
                later = later.or(Some(Verdict::Passed {
                    first: false,
                    equivalent,
                    by_effect: false,
                }));
            }
            Search::OnlyOthers => reason = "found only other instances",
            Search::Nothing => {}
        }
    }
    if later.is_none() && every_effect_by_a_chain(case, techniques) {
        return Verdict::Passed {
            first: false,
            equivalent: false,
            by_effect: true,
        };
    }
    later.unwrap_or(Verdict::Failed(reason))
}

/// For a chain case: whether each expected elimination and placement is
/// made by some chain of one of `techniques`.
fn every_effect_by_a_chain(case: &Case, techniques: &[Technique]) -> bool {
    let chains = [T::XChain, T::XYChain, T::Aic];
    if !techniques.iter().all(|t| chains.contains(t)) {
        return false;
    }
    let made = |effect: Mark, placement: bool| {
        techniques
            .iter()
            .any(|&t| chain_making(&case.grid, t, effect, placement).is_some())
    };
    let effects = &case.expected;
    let crossed_out =
        |e: &Mark| made(*e, false) || placement_left(case, e.cell).is_some_and(|p| made(p, true));
    !(effects.eliminations.is_empty() && effects.placements.is_empty())
        && effects.eliminations.iter().all(crossed_out)
        && effects.placements.iter().all(|&p| made(p, true))
}

/// The one candidate of `cell` that the case's eliminations leave, when
/// they cross out every other: HoDoKu's way of writing a placement.
fn placement_left(case: &Case, cell: u8) -> Option<Mark> {
    let cell = usize::from(cell);
    let crossed: u16 = case
        .expected
        .eliminations
        .iter()
        .filter(|e| usize::from(e.cell) == cell)
        .fold(0, |mask, e| mask | 1 << (e.digit - 1));
    let left = case.grid.marks(cell) & !crossed;
    (crossed != 0 && left.count_ones() == 1)
        .then(|| Mark::new(cell, left.trailing_zeros() as u8 + 1))
}

/// What searching one technique in a case found.
enum Search {
    Match { first: bool, equivalent: bool },
    OnlyOthers,
    Nothing,
}

/// Steps with the same pattern, merged into one instance.
struct Instance {
    technique: Technique,
    pattern: Vec<Mark>,
    effects: Effects,
}

/// Searches `technique`, applying each instance that does not match and
/// searching again, a bounded number of times.
fn search(case: &Case, technique: Technique) -> Search {
    if let Some(found) = among_all_instances(case, technique) {
        return found;
    }
    let mut grid = case.grid.clone();
    let mut instances: Vec<Instance> = Vec::new();
    for _ in 0..attempts(technique) {
        let Some(step) = find_technique(&grid, technique) else {
            break;
        };
        let index = merge(&mut instances, &step);
        if let Some(equivalent) = agreement(case, &instances[index].effects) {
            return Search::Match {
                first: index == 0,
                equivalent,
            };
        }
        step.apply(&mut grid);
    }
    if instances.is_empty() {
        Search::Nothing
    } else {
        Search::OnlyOthers
    }
}

/// For a technique whose instances can all be listed: whether one of
/// them, on the case's own grid, has the expected effect.
fn among_all_instances(case: &Case, technique: Technique) -> Option<Search> {
    let steps = all_instances(&case.grid, technique);
    if steps.len() < 2 {
        return None;
    }
    let mut instances: Vec<Instance> = Vec::new();
    for step in &steps {
        merge(&mut instances, step);
    }
    instances.iter().enumerate().find_map(|(index, instance)| {
        agreement(case, &instance.effects).map(|equivalent| Search::Match {
            first: index == 0,
            equivalent,
        })
    })
}

/// How many instances to look through: chains search the whole grid each
/// time, so fewer of them.
fn attempts(technique: Technique) -> usize {
    match technique {
        T::XChain | T::XYChain | T::Aic => 6,
        _ => 40,
    }
}

/// Adds a step to the instance with its pattern (a new one if none has
/// it) and returns that instance's index.
fn merge(instances: &mut Vec<Instance>, step: &Step) -> usize {
    let mut pattern = step.pattern.clone();
    sort_marks(&mut pattern);
    let known = instances
        .iter()
        .position(|i| i.technique == step.technique && i.pattern == pattern);
    let index = known.unwrap_or_else(|| {
        instances.push(Instance {
            technique: step.technique,
            pattern,
            effects: Effects::default(),
        });
        instances.len() - 1
    });
    instances[index].effects.add(step);
    index
}

/// `Some(false)` when the effects are exactly the expected ones,
/// `Some(true)` when they are the same written differently (a placement
/// as the eliminations of the cell's other candidates), else `None`.
fn agreement(case: &Case, effects: &Effects) -> Option<bool> {
    if *effects == case.expected {
        return Some(false);
    }
    effects.same_as(&case.expected, &case.grid).then_some(true)
}

/// The cases of one code and how they went.
struct CodeTally {
    family: &'static str,
    techniques: &'static [Technique],
    cases: usize,
    passed: usize,
    first: usize,
    equivalent: usize,
    by_effect: usize,
    /// The first few failing cases: line number and reason.
    failures: Vec<(usize, &'static str)>,
}

impl CodeTally {
    fn new(family: &'static str, techniques: &'static [Technique]) -> CodeTally {
        CodeTally {
            family,
            techniques,
            cases: 0,
            passed: 0,
            first: 0,
            equivalent: 0,
            by_effect: 0,
            failures: Vec::new(),
        }
    }

    fn record(&mut self, line: usize, verdict: Verdict) {
        self.cases += 1;
        match verdict {
            Verdict::Passed {
                first,
                equivalent,
                by_effect,
            } => {
                self.passed += 1;
                self.first += usize::from(first);
                self.equivalent += usize::from(equivalent);
                self.by_effect += usize::from(by_effect);
            }
            Verdict::Failed(reason) if self.failures.len() < FAILURES_SHOWN => {
                self.failures.push((line, reason));
            }
            Verdict::Failed(_) => {}
        }
    }
}

/// Every case read, by code.
#[derive(Default)]
struct Report {
    codes: BTreeMap<String, CodeTally>,
    skipped: BTreeMap<String, usize>,
    malformed: Vec<usize>,
}

impl Report {
    /// Checks the case on line `number`, or counts it as skipped or
    /// malformed.
    fn add(&mut self, line: &str, number: usize) {
        let code = line.split(':').nth(1).unwrap_or("").trim().to_string();
        let Some(&(_, family, techniques)) = mapping_for(&code) else {
            *self.skipped.entry(code).or_default() += 1;
            return;
        };
        let Some(case) = parse_case(line) else {
            self.malformed.push(number);
            return;
        };
        let verdict = panic::catch_unwind(AssertUnwindSafe(|| check(&case, techniques)))
            .unwrap_or(Verdict::Failed("panicked"));
        self.codes
            .entry(code)
            .or_insert_with(|| CodeTally::new(family, techniques))
            .record(number, verdict);
    }

    fn print(&self, names: &BTreeMap<String, String>) {
        println!("HoDoKu regression library ({LIBRARY})");
        println!(
            "  {:<54} {:>5} {:>6} {:>6} {:>6} {:>6} {:>6}",
            "family / code", "cases", "passed", "failed", "first", "equiv", "effect"
        );
        for family in FAMILIES {
            self.print_family(family, names);
        }
        self.print_skipped(names);
        self.print_total();
    }

    fn print_family(&self, family: &str, names: &BTreeMap<String, String>) {
        let codes: Vec<(&String, &CodeTally)> = self
            .codes
            .iter()
            .filter(|(_, t)| t.family == family)
            .collect();
        let sum = |f: fn(&CodeTally) -> usize| codes.iter().map(|(_, t)| f(t)).sum::<usize>();
        let (cases, passed) = (sum(|t| t.cases), sum(|t| t.passed));
        println!(
            "  {:<54} {cases:>5} {passed:>6} {:>6} {:>6} {:>6} {:>6}  {}",
            family,
            cases - passed,
            sum(|t| t.first),
            sum(|t| t.equivalent),
            sum(|t| t.by_effect),
            percent(passed, cases)
        );
        for (code, tally) in codes {
            print_code(code, tally, names);
        }
    }

    fn print_skipped(&self, names: &BTreeMap<String, String>) {
        let total: usize = self.skipped.values().sum();
        println!("  skipped, no technique of ours maps to them: {total} cases");
        for (code, count) in &self.skipped {
            println!("    {code:<7} {:<44} {count:>5}", name_of(names, code));
        }
        if !self.malformed.is_empty() {
            let shown: Vec<String> = self
                .malformed
                .iter()
                .take(5)
                .map(|n| n.to_string())
                .collect();
            println!(
                "  malformed lines skipped: {} (lines {})",
                self.malformed.len(),
                shown.join(", ")
            );
        }
    }

    fn print_total(&self) {
        let cases: usize = self.codes.values().map(|t| t.cases).sum();
        let passed: usize = self.codes.values().map(|t| t.passed).sum();
        let first: usize = self.codes.values().map(|t| t.first).sum();
        let skipped: usize = self.skipped.values().sum();
        println!(
            "  total: {cases} cases checked, {passed} passed {}, {first} on the first instance; {} failed; {skipped} skipped; {} malformed",
            percent(passed, cases),
            cases - passed,
            self.malformed.len()
        );
    }
}

fn print_code(code: &str, tally: &CodeTally, names: &BTreeMap<String, String>) {
    let ours: Vec<&str> = tally.techniques.iter().map(|t| t.name()).collect();
    let label = format!("{code:<7} {} -> {}", name_of(names, code), ours.join(" | "));
    println!(
        "    {label:<52} {:>5} {:>6} {:>6} {:>6} {:>6} {:>6}",
        tally.cases,
        tally.passed,
        tally.cases - tally.passed,
        tally.first,
        tally.equivalent,
        tally.by_effect
    );
    if !tally.failures.is_empty() {
        let failures: Vec<String> = tally
            .failures
            .iter()
            .map(|(line, reason)| format!("{code} line {line} ({reason})"))
            .collect();
        println!("        failing: {}", failures.join("; "));
    }
}

/// HoDoKu's name for a code, or for its base code without the variant.
fn name_of<'a>(names: &'a BTreeMap<String, String>, code: &str) -> &'a str {
    let base = code.split('-').next().unwrap_or(code);
    names
        .get(code)
        .or_else(|| names.get(base))
        .map_or("?", String::as_str)
}
