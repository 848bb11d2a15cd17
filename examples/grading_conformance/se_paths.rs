//! Compares the logical solver's path with Sukaku Explainer's on the
//! `se-paths` puzzles: each JSON file holds a puzzle, Sukaku Explainer's
//! rating (ER) and the technique that set it, and its whole solving path.
//! For each puzzle this checks (a) whether our hardest technique is the
//! one Sukaku Explainer's rating came from, (b) whether our rating equals
//! ER, (c) whether our first step is Sukaku Explainer's first step, and
//! (d) whether our pearl and diamond equal its EP and ED; and (e) for each
//! puzzle where ER, EP or ED differ, the first step where the paths part,
//! following Sukaku Explainer's path and asking ours at each of its steps.
//!
//! The files are LGPL-2.1 fixtures of a port of Sukaku Explainer, so they
//! are read at run time from the grading data folder (normally
//! `../shared/grading`) and never copied into this MIT/Apache project.
//! Puzzles rated 0.0 there are invalid or have several solutions, and are
//! skipped.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::Value;
use sudoku_grpc::domain::logic::Technique as T;
use sudoku_grpc::domain::logic::{self, Grid, Mark, Rating, Stall, Step, Technique};
use sudoku_grpc::domain::{Board, parse_board};

use crate::effects::{Effects, percent, sort_marks};

/// Longest a puzzle's path may take before it counts as stalled.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// Compares every puzzle of `dir/se-paths` and prints the report.
pub fn run(dir: &str) {
    let ids = puzzle_ids(dir);
    if ids.is_empty() {
        eprintln!("no puzzles in {dir}/se-paths (is the grading data folder there?)");
        std::process::exit(2);
    }
    let (mut rows, mut invalid, mut unreadable) = (Vec::new(), 0, Vec::new());
    print_header();
    for id in &ids {
        let text = std::fs::read_to_string(format!("{dir}/se-paths/{id}.json"));
        let Some(puzzle) = text.ok().and_then(|text| parse_puzzle(id, &text)) else {
            unreadable.push(id.as_str());
            continue;
        };
        if puzzle.er == Rating(0) {
            invalid += 1;
            continue;
        }
        let row = compare(&puzzle);
        print_row(&row);
        rows.push(row);
    }
    println!();
    println!(
        "SE paths: {} puzzles compared, {invalid} rated 0.0 skipped, {} unreadable {:?}",
        rows.len(),
        unreadable.len(),
        unreadable
    );
    summarise_hardest(&rows);
    summarise_ratings(&rows);
    summarise_first_steps(&rows);
    summarise_pearls_and_diamonds(&rows);
    summarise_partings(&rows);
}

/// The puzzle ids, from `ratings.tsv` (first column, after the header),
/// or from the JSON files present when it is missing.
fn puzzle_ids(dir: &str) -> Vec<String> {
    if let Ok(index) = std::fs::read_to_string(format!("{dir}/se-paths/ratings.tsv")) {
        return index
            .lines()
            .skip(1)
            .filter_map(|line| line.split('\t').next())
            .map(str::trim)
            .filter(|id| !id.is_empty())
            .map(String::from)
            .collect();
    }
    let entries = std::fs::read_dir(format!("{dir}/se-paths"));
    let mut ids: Vec<String> = entries
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.strip_suffix(".json").map(String::from)
        })
        .collect();
    ids.sort();
    ids
}

/// One puzzle as Sukaku Explainer rated it.
struct SePuzzle {
    id: String,
    board: Board,
    er: Rating,
    ep: Rating,
    ed: Rating,
    er_technique: String,
    steps: Vec<SeStep>,
}

/// Sukaku Explainer's step: its technique name, rating and effects.
struct SeStep {
    technique: String,
    rating: Rating,
    effects: Effects,
}

fn parse_puzzle(id: &str, text: &str) -> Option<SePuzzle> {
    let json: Value = serde_json::from_str(text).ok()?;
    let board = parse_board(json.get("puzzle")?.as_str()?).ok()?;
    let rating = json.get("rating")?;
    let steps = json.get("steps").and_then(Value::as_array);
    Some(SePuzzle {
        id: id.to_string(),
        board,
        er: tenths(rating.get("er")?.as_f64()?),
        ep: tenths(rating.get("ep")?.as_f64()?),
        ed: tenths(rating.get("ed")?.as_f64()?),
        er_technique: rating.get("erTechnique")?.as_str()?.to_string(),
        steps: steps.into_iter().flatten().map_while(parse_step).collect(),
    })
}

/// A step: `technique`, `rating`, `cell` and `value` (the placement, when
/// `cell` is 0-80), and `removals` `[{cell, values}]`.
fn parse_step(step: &Value) -> Option<SeStep> {
    let mut effects = Effects::default();
    let cell = step.get("cell").and_then(Value::as_i64).unwrap_or(-1);
    let value = step.get("value").and_then(Value::as_i64).unwrap_or(0);
    if (0..81).contains(&cell) && (1..=9).contains(&value) {
        effects
            .placements
            .push(Mark::new(cell as usize, value as u8));
    }
    for removal in step
        .get("removals")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let cell = removal.get("cell")?.as_u64().filter(|&c| c < 81)? as usize;
        for value in removal.get("values")?.as_array()? {
            let digit = value.as_u64().filter(|d| (1..=9).contains(d))? as u8;
            effects.eliminations.push(Mark::new(cell, digit));
        }
    }
    sort_marks(&mut effects.eliminations);
    Some(SeStep {
        technique: step.get("technique")?.as_str()?.to_string(),
        rating: tenths(step.get("rating")?.as_f64()?),
        effects,
    })
}

/// A rating given as a number, rounded to tenths.
fn tenths(value: f64) -> Rating {
    Rating((value * 10.0).round().clamp(0.0, f64::from(u16::MAX)) as u16)
}

/// Our techniques that are Sukaku Explainer's technique `name` (of a step
/// rated `rating`); empty when we have none. Its hidden singles are told
/// apart by rating: 1.0 is our full house, 1.2 in a box, 1.5 in a line.
fn se_equivalents(name: &str, rating: Rating) -> &'static [Technique] {
    let grouped_two = [
        "Grouped Skyscraper",
        "Grouped 2-String Kite",
        "Grouped 2 Strong links",
    ];
    let is_grouped_two = grouped_two.iter().any(|prefix| name.starts_with(prefix));
    if (name.starts_with("Grouped") && !is_grouped_two) || name.contains("(+ Dynamic") {
        return &[];
    }
    for (suffix, technique) in [
        (
            "(+ Multiple Forcing Chains)",
            &[T::NestedMultipleForcingChain],
        ),
        ("(+ Forcing Chains)", &[T::NestedForcingChain]),
        ("(+)", &[T::DynamicForcingChainPlus]),
    ] {
        if name.ends_with(suffix) {
            return technique;
        }
    }
    match name {
        "Hidden Single" => {
            return match rating.0 {
                0..=10 => &[T::FullHouse],
                11..=12 => &[T::HiddenSingleBox],
                _ => &[T::HiddenSingleLine],
            };
        }
        "Unique Rectangle type 1" => return &[T::UniqueRectangle1],
        "Unique Rectangle type 2" => return &[T::UniqueRectangle2],
        "Unique Rectangle type 3" => return &[T::UniqueRectangle3],
        "Unique Rectangle type 4" => return &[T::UniqueRectangle4],
        "BUG type 1" => return &[T::Bug1],
        _ => {}
    }
    // Names like "Skyscraper 011" end in the pattern's shape.
    let family = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ');
    equivalents_of_family(family)
}

fn equivalents_of_family(family: &str) -> &'static [Technique] {
    match family {
        "Naked Single" => &[T::NakedSingle],
        "Direct Pointing" => &[T::DirectPointing],
        "Direct Claiming" => &[T::DirectClaiming],
        "Direct Hidden Pair" => &[T::DirectHiddenPair],
        "Direct Hidden Triplet" => &[T::DirectHiddenTriple],
        "Pointing" => &[T::Pointing],
        "Claiming" => &[T::Claiming],
        "Naked Pair" => &[T::NakedPair],
        "Naked Triplet" => &[T::NakedTriple],
        "Naked Quad" => &[T::NakedQuad],
        "Hidden Pair" => &[T::HiddenPair],
        "Hidden Triplet" => &[T::HiddenTriple],
        "Hidden Quad" => &[T::HiddenQuad],
        "X-Wing" => &[T::XWing],
        "Swordfish" => &[T::Swordfish],
        "Jellyfish" => &[T::Jellyfish],
        "Skyscraper" => &[T::Skyscraper],
        "2-String Kite" => &[T::TwoStringKite],
        "2 Strong links" => &[T::TurbotFish],
        "Grouped Skyscraper" => &[T::GroupedSkyscraper],
        "Grouped 2-String Kite" => &[T::GroupedTwoStringKite],
        "Grouped 2 Strong links" => &[T::GroupedTurbotFish],
        "XY-Wing" => &[T::XYWing],
        "XYZ-Wing" => &[T::XYZWing],
        // Sukaku Explainer's one-digit patterns of three and four strong
        // links are our X-Chains of that many links.
        "3 Strong links"
        | "3 Skyscrapers"
        | "3-String Kite"
        | "(3 Strong Links) X-Loop"
        | "4 Strong links"
        | "4 Skyscrapers"
        | "4-String Kite"
        | "(4 Strong Links) X-Loop" => &[T::XChain],
        "Bidirectional X-Cycle" | "Generalized X-Wing" => &[T::XCycle],
        "Forcing X-Chain" | "Turbot Fish" => &[T::ForcingXChain],
        "Bidirectional Y-Cycle" => &[T::YCycle],
        "Bidirectional Cycle" => &[T::XYCycle],
        "Forcing Chain" => &[T::ForcingChain],
        "WXYZ-Wing" => &[T::WxyzWing],
        "VWXYZ-Wing" => &[T::VwxyzWing],
        "UVWXYZ-Wing" => &[T::UvwxyzWing],
        "TUVWXYZ-Wing" => &[T::TuvwxyzWing],
        "Cell Forcing Chains" => &[T::StaticCellForcingChain],
        "Region Forcing Chains" => &[T::StaticUnitForcingChain],
        "Nishio Forcing Chains" => &[T::NishioForcingChain],
        "Dynamic Cell Forcing Chains" => &[T::CellForcingChain],
        "Dynamic Region Forcing Chains" => &[T::UnitForcingChain],
        "Dynamic Contradiction Forcing Chains" => &[T::ContradictionForcingChain],
        "Dynamic Double Forcing Chains" => &[T::DoubleForcingChain],
        _ => &[],
    }
}

/// How our hardest technique relates to Sukaku Explainer's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hardest {
    Same,
    Different,
    NoEquivalent,
}

/// One puzzle compared.
struct Row {
    id: String,
    er: Rating,
    ours: Rating,
    /// Sukaku Explainer's EP and ED, and ours.
    pearls: (Rating, Rating),
    diamonds: (Rating, Rating),
    se_hardest: String,
    our_hardest: String,
    hardest: Hardest,
    /// Sukaku Explainer's hardest technique appears on our path.
    on_our_path: bool,
    /// `None` when the first steps are the same, else why not.
    first_step_difference: Option<String>,
    /// The first step where our path leaves Sukaku Explainer's, if it does.
    parting: Option<String>,
    millis: f64,
}

fn compare(puzzle: &SePuzzle) -> Row {
    let started = Instant::now();
    let (path, grade) =
        logic::explain_until(&puzzle.board, &|| started.elapsed() > TIME_LIMIT, &|| {
            started.elapsed()
        });
    let millis = started.elapsed().as_secs_f64() * 1e3;
    let equivalents = se_equivalents(&puzzle.er_technique, puzzle.er);
    let hardest = match grade.hardest {
        _ if equivalents.is_empty() => Hardest::NoEquivalent,
        Some(technique) if equivalents.contains(&technique) => Hardest::Same,
        _ => Hardest::Different,
    };
    let stall = match grade.stalled {
        Some(Stall::OutOfTime { .. }) => " (out of time)",
        Some(Stall::NoTechnique { .. }) => " (stalled)",
        None => "",
    };
    let grid = Grid::new(&puzzle.board);
    let ours_first = logic::simplest_step(&grid, &|| false);
    Row {
        id: puzzle.id.clone(),
        er: puzzle.er,
        ours: grade.rating,
        pearls: (puzzle.ep, grade.pearl),
        diamonds: (puzzle.ed, grade.diamond),
        se_hardest: puzzle.er_technique.clone(),
        our_hardest: format!("{}{stall}", grade.hardest.map_or("-", Technique::name)),
        hardest,
        on_our_path: path
            .iter()
            .any(|step| equivalents.contains(&step.technique)),
        first_step_difference: first_step_difference(
            &grid,
            puzzle.steps.first(),
            ours_first.as_ref(),
        ),
        parting: parting(puzzle),
        millis,
    }
}

/// Why our first step is not Sukaku Explainer's, or `None` when it is:
/// the same technique with the same effect.
fn first_step_difference(
    grid: &Grid,
    theirs: Option<&SeStep>,
    ours: Option<&Step>,
) -> Option<String> {
    let Some(theirs) = theirs else {
        return Some("SE's first step is missing or unreadable".to_string());
    };
    let Some(ours) = ours else {
        return Some(format!("we found no step (SE: {})", theirs.technique));
    };
    let equivalents = se_equivalents(&theirs.technique, theirs.rating);
    let same_technique = equivalents.contains(&ours.technique);
    let same_effect = Effects::of(ours).same_as(&theirs.effects, grid);
    let names = format!("ours: {}, SE: {}", ours.technique.name(), theirs.technique);
    match (same_technique, same_effect) {
        (true, true) => None,
        (true, false) => Some("same technique, different instance (search order)".to_string()),
        (false, true) => Some(format!("same effect, different technique ({names})")),
        (false, false) if equivalents.is_empty() => {
            Some(format!("SE's technique has no equivalent ({names})"))
        }
        (false, false) => Some(format!("different technique ({names})")),
    }
}

/// The first of Sukaku Explainer's steps that ours differs from, on the
/// grid its path reached: a different technique or rating, or (past the
/// singles, whose order may differ) a different effect. `None` when ours
/// agrees at every step.
fn parting(puzzle: &SePuzzle) -> Option<String> {
    let mut grid = Grid::new(&puzzle.board);
    for (index, theirs) in puzzle.steps.iter().enumerate() {
        let ours = logic::simplest_step(&grid, &|| false);
        // Singles may come in another order; other steps must have the
        // same effect (whatever each program calls the pattern).
        let agrees = ours.as_ref().is_some_and(|ours| {
            let single = theirs.technique == "Hidden Single" || theirs.technique == "Naked Single";
            ours.rating == theirs.rating
                && match single {
                    true => {
                        se_equivalents(&theirs.technique, theirs.rating).contains(&ours.technique)
                    }
                    false => Effects::of(ours).same_as(&theirs.effects, &grid),
                }
        });
        if !agrees {
            if std::env::var("PARTING_MARKS").is_ok_and(|id| id == puzzle.id) {
                eprintln!("{}", grid.marks_text());
            }
            let ours = ours.map_or("no step".to_string(), |step| {
                format!(
                    "{} {} {}",
                    step.rating,
                    step.technique,
                    written(&Effects::of(&step))
                )
            });
            return Some(format!(
                "step {} of {}: SE {} {} {}; ours {ours}",
                index + 1,
                puzzle.steps.len(),
                theirs.rating,
                theirs.technique,
                written(&theirs.effects)
            ));
        }
        for mark in &theirs.effects.eliminations {
            grid.eliminate(usize::from(mark.cell), mark.digit);
        }
        for mark in &theirs.effects.placements {
            if grid.value(usize::from(mark.cell)) == 0 {
                grid.place(usize::from(mark.cell), mark.digit);
            }
        }
    }
    None
}

/// Effects as a player writes them: `r7c5-5` removed, `r1c3=4` placed.
fn written(effects: &Effects) -> String {
    let removed = effects
        .eliminations
        .iter()
        .map(|m| format!("{}-{}", m.cell(), m.digit));
    let placed = effects
        .placements
        .iter()
        .map(|m| format!("{}={}", m.cell(), m.digit));
    removed.chain(placed).collect::<Vec<_>>().join(" ")
}

/// (e): where the paths part, for the puzzles whose ratings differ.
fn summarise_partings(rows: &[Row]) {
    let differing: Vec<&Row> = rows
        .iter()
        .filter(|r| r.er != r.ours || r.pearls.0 != r.pearls.1 || r.diamonds.0 != r.diamonds.1)
        .collect();
    let agreeing = rows.iter().filter(|r| r.parting.is_none()).count();
    println!(
        "(e) our path follows SE's at every step on {agreeing}/{} puzzles; ER, EP or ED \
         differ on {}; where the paths part:",
        rows.len(),
        differing.len()
    );
    for row in &differing {
        let parting = row.parting.as_deref().unwrap_or("nowhere: the paths agree");
        println!("      {}: {parting}", row.id);
    }
    println!("    and where the paths part on the others, whose ratings agree:");
    for row in rows
        .iter()
        .filter(|r| !differing.iter().any(|d| d.id == r.id))
    {
        if let Some(parting) = &row.parting {
            println!("      {}: {parting}", row.id);
        }
    }
}

fn print_header() {
    println!(
        "{:<20} {:>5} {:>5} {:<44} {:<36} {:>9}  first step same?",
        "id", "SE er", "ours", "SE hardest", "our hardest", "ms"
    );
}

fn print_row(row: &Row) {
    let hardest = match row.hardest {
        Hardest::Same => "=",
        Hardest::Different => "≠",
        Hardest::NoEquivalent => "~",
    };
    let first = match &row.first_step_difference {
        None => "yes".to_string(),
        Some(reason) => format!("no: {reason}"),
    };
    println!(
        "{:<20} {:>5} {:>5} {:<44} {hardest} {:<34} {:>9.1}  {first}",
        row.id,
        row.er.to_string(),
        row.ours.to_string(),
        row.se_hardest,
        row.our_hardest,
        row.millis
    );
}

/// (a): how often our hardest technique is Sukaku Explainer's.
fn summarise_hardest(rows: &[Row]) {
    let count = |kind: Hardest| rows.iter().filter(|r| r.hardest == kind).count();
    let comparable = rows.len() - count(Hardest::NoEquivalent);
    let on_path = rows
        .iter()
        .filter(|r| r.hardest != Hardest::NoEquivalent && r.on_our_path)
        .count();
    println!(
        "(a) hardest technique (= in the table): same {}/{comparable}, different {} (≠), SE's has no equivalent here {} (~); SE's hardest is on our path in {on_path}/{comparable}",
        count(Hardest::Same),
        count(Hardest::Different),
        count(Hardest::NoEquivalent)
    );
    let mut pairs: BTreeMap<String, usize> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.hardest == Hardest::Different) {
        *pairs
            .entry(format!("SE {} -> ours {}", row.se_hardest, row.our_hardest))
            .or_default() += 1;
    }
    print_counts(&pairs);
}

/// (b): how often our rating is ER, and within half a point of it.
fn summarise_ratings(rows: &[Row]) {
    let within = |group: &[&Row], tolerance: u16| {
        group
            .iter()
            .filter(|r| r.ours.0.abs_diff(r.er.0) <= tolerance)
            .count()
    };
    let all: Vec<&Row> = rows.iter().collect();
    let comparable: Vec<&Row> = rows
        .iter()
        .filter(|r| r.hardest != Hardest::NoEquivalent)
        .collect();
    for (label, group) in [
        ("all", all.as_slice()),
        ("SE's hardest has an equivalent", comparable.as_slice()),
    ] {
        println!(
            "(b) rating, {label}: equal {}/{} {}, within 0.5 {}/{} {}",
            within(group, 0),
            group.len(),
            percent(within(group, 0), group.len()),
            within(group, 5),
            group.len(),
            percent(within(group, 5), group.len())
        );
    }
}

/// (c): how often our first step is Sukaku Explainer's, and why not.
fn summarise_first_steps(rows: &[Row]) {
    let same = rows
        .iter()
        .filter(|r| r.first_step_difference.is_none())
        .count();
    println!(
        "(c) first step: same {same}/{} {}",
        rows.len(),
        percent(same, rows.len())
    );
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for reason in rows.iter().filter_map(|r| r.first_step_difference.as_ref()) {
        *reasons.entry(reason.clone()).or_default() += 1;
    }
    print_counts(&reasons);
}

/// (d): how often our pearl and diamond are Sukaku Explainer's EP and ED.
fn summarise_pearls_and_diamonds(rows: &[Row]) {
    let equal = |pair: fn(&Row) -> (Rating, Rating)| {
        rows.iter()
            .filter(|row| {
                let (theirs, ours) = pair(row);
                theirs == ours
            })
            .count()
    };
    let (pearls, diamonds) = (equal(|r| r.pearls), equal(|r| r.diamonds));
    println!(
        "(d) EP equal {pearls}/{} {}, ED equal {diamonds}/{} {}",
        rows.len(),
        percent(pearls, rows.len()),
        rows.len(),
        percent(diamonds, rows.len())
    );
    let mut differences: BTreeMap<String, usize> = BTreeMap::new();
    for row in rows {
        for (what, (theirs, ours)) in [("EP", row.pearls), ("ED", row.diamonds)] {
            if theirs != ours {
                *differences
                    .entry(format!("{what} SE {theirs} -> ours {ours}"))
                    .or_default() += 1;
            }
        }
    }
    print_counts(&differences);
}

fn print_counts(counts: &BTreeMap<String, usize>) {
    let mut sorted: Vec<(&String, &usize)> = counts.iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (what, count) in sorted {
        println!("      {count:>4}  {what}");
    }
}
