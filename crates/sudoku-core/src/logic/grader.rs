//! The grader: apply the simplest step, again and again, and rate the
//! puzzle by the hardest step it took.
//!
//! One walk serves grading, explaining and checking: [`walk`] applies
//! steps and reports each to an [`Observer`]. Grading counts techniques
//! and keeps the highest rating without building a step for each single;
//! explaining keeps every step; the soundness checks compare every step
//! with the solution. Singles found in one scan are applied together
//! (each stays true once the others are placed), which keeps a
//! singles-only puzzle at a few microseconds. The walk keeps one
//! [`Ladder`], which remembers what its techniques found nothing in.

use std::cell::Cell;
use std::time::Duration;

use super::grid::Grid;
use super::ladder::{Ladder, easy_singles};
use super::singles::Single;
use super::step::{Mark, Step};
use super::technique::{Level, Rating, Technique};
use crate::Board;

/// Why a logical solve stopped before the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Stall {
    /// No technique applies to the position reached.
    #[error(
        "no technique the grader knows applies after {placed} of {blanks} blank cells were filled"
    )]
    NoTechnique {
        /// Blank cells filled by then.
        placed: usize,
        /// Blank cells at the start.
        blanks: usize,
    },
    /// The caller's stop check said stop (the time budget ran out).
    #[error("grading ran out of its time budget after {:.3}s", elapsed.as_secs_f64())]
    OutOfTime {
        /// How long it ran.
        elapsed: Duration,
    },
}

/// How many times each technique was used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TechniqueCounts([u32; Technique::ALL.len()]);

impl TechniqueCounts {
    /// The techniques used, with their counts, in ladder order.
    pub fn iter(&self) -> impl Iterator<Item = (Technique, u32)> + '_ {
        Technique::ALL
            .iter()
            .zip(self.0)
            .filter(|&(_, count)| count > 0)
            .map(|(&technique, count)| (technique, count))
    }

    /// How many times `technique` was used.
    pub fn get(&self, technique: Technique) -> u32 {
        self.0[technique as usize]
    }
}

/// How hard a puzzle is for a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grade {
    /// The highest-rated step of the path: Sudoku Explainer's ER. When
    /// the path stalled, the highest reached so far: a lower bound.
    pub rating: Rating,
    /// The highest-rated step up to the first that places a digit: SE's
    /// EP (pearl). The rating, when the path stalled before placing one.
    pub pearl: Rating,
    /// The rating of the first step: SE's ED (diamond), the hardest step
    /// needed before anything at all can be placed or crossed out. The
    /// rating, when the path stalled before its first step.
    pub diamond: Rating,
    /// The technique of that step; `None` for a puzzle with no blanks,
    /// or one that stalled before its first step.
    pub hardest: Option<Technique>,
    /// How many times each technique was used.
    pub techniques: TechniqueCounts,
    /// Why the path stopped short, if it did.
    pub stalled: Option<Stall>,
}

impl Grade {
    /// The level the rating falls in.
    pub fn level(&self) -> Level {
        self.rating.level()
    }
}

/// Sees each step of a walk, with the grid before it.
pub trait Observer {
    /// A single, applied after this call.
    fn single(&mut self, before: &Grid, single: Single);
    /// A harder step, applied after this call.
    fn step(&mut self, before: &Grid, step: &Step);
}

/// Ignores the steps: grading only counts them.
struct Tally;

impl Observer for Tally {
    fn single(&mut self, _: &Grid, _: Single) {}
    fn step(&mut self, _: &Grid, _: &Step) {}
}

/// Walks the logical path from `grid` to the end (or a stall), reporting
/// each step to `observer`, and grades it.
pub fn walk(
    mut grid: Grid,
    should_stop: &dyn Fn() -> bool,
    elapsed: &dyn Fn() -> Duration,
    observer: &mut dyn Observer,
) -> Grade {
    let blanks = grid.blanks().len() as usize;
    let mut path = PathRatings::new();
    let mut found = Vec::with_capacity(32);
    let mut stalled = None;
    let mut ladder = Ladder::new();
    while !grid.is_solved() {
        easy_singles(&grid, &mut found);
        if !found.is_empty() {
            for &single in &found {
                if grid.has(single.cell, single.digit) {
                    observer.single(&grid, single);
                    path.note(single.technique.base_rating(), single.technique, true);
                    grid.place(single.cell, single.digit);
                }
            }
            continue;
        }
        if should_stop() {
            stalled = Some(Stall::OutOfTime { elapsed: elapsed() });
            break;
        }
        match ladder.harder_step(&grid, should_stop) {
            Some(step) => {
                observer.step(&grid, &step);
                path.note(step.rating, step.technique, !step.placements.is_empty());
                step.apply(&mut grid);
            }
            None if should_stop() => {
                stalled = Some(Stall::OutOfTime { elapsed: elapsed() });
                break;
            }
            None => {
                let placed = blanks - grid.blanks().len() as usize;
                stalled = Some(Stall::NoTechnique { placed, blanks });
                break;
            }
        }
    }
    path.grade(stalled)
}

/// The ratings of a path so far: each technique's count, the hardest step,
/// and the hardest up to the first step and up to the first placement.
struct PathRatings {
    counts: [u32; Technique::ALL.len()],
    hardest: Option<(Rating, Technique)>,
    pearl: Option<Rating>,
    diamond: Option<Rating>,
}

impl PathRatings {
    fn new() -> PathRatings {
        PathRatings {
            counts: [0; Technique::ALL.len()],
            hardest: None,
            pearl: None,
            diamond: None,
        }
    }

    /// A step rated `rating`, found by `technique`, that `places` a digit
    /// or not.
    fn note(&mut self, rating: Rating, technique: Technique, places: bool) {
        self.counts[technique as usize] += 1;
        if self.hardest.is_none_or(|(hardest, _)| rating > hardest) {
            self.hardest = Some((rating, technique));
        }
        let so_far = self.hardest.map_or(rating, |(hardest, _)| hardest);
        self.diamond.get_or_insert(so_far);
        if places {
            self.pearl.get_or_insert(so_far);
        }
    }

    /// The grade of the path, which ended here, stalled or not.
    fn grade(self, stalled: Option<Stall>) -> Grade {
        let (rating, hardest) = self
            .hardest
            .map_or((Rating(0), None), |(rating, technique)| {
                (rating, Some(technique))
            });
        Grade {
            rating,
            pearl: self.pearl.unwrap_or(rating),
            diamond: self.diamond.unwrap_or(rating),
            hardest,
            techniques: TechniqueCounts(self.counts),
            stalled,
        }
    }
}

/// Grades a board whose solution is unique, with no time limit.
pub fn grade(board: &Board) -> Grade {
    grade_until(board, &|| false, &|| Duration::ZERO)
}

/// Grades a board, stopping (as stalled) once `should_stop` says so.
pub fn grade_until(
    board: &Board,
    should_stop: &dyn Fn() -> bool,
    elapsed: &dyn Fn() -> Duration,
) -> Grade {
    walk(Grid::new(board), should_stop, elapsed, &mut Tally)
}

/// Grades a board as [`grade_until`] does, but gives up, with `None`,
/// once a step rated above `ceiling` is on the path: the rating is then
/// above it whatever follows, which is all a search for puzzles rated at
/// most `ceiling` needs to know, and the costly chains that follow are
/// never searched.
pub fn grade_within(
    board: &Board,
    ceiling: Rating,
    should_stop: &dyn Fn() -> bool,
) -> Option<Grade> {
    let passed = Cell::new(false);
    let mut watch = CeilingWatch {
        ceiling,
        passed: &passed,
    };
    let grade = walk(
        Grid::new(board),
        &|| passed.get() || should_stop(),
        &|| Duration::ZERO,
        &mut watch,
    );
    (!passed.get()).then_some(grade)
}

/// The grid the techniques rated `ceiling` or less (before any length
/// bonus) leave: the path's steps applied, simplest first, until none of
/// them applies. `None` when they solve the puzzle, or when `should_stop`
/// says stop first.
pub fn worked_within(
    board: &Board,
    ceiling: Rating,
    should_stop: &dyn Fn() -> bool,
) -> Option<Grid> {
    let mut grid = Grid::new(board);
    let mut ladder = Ladder::new();
    let mut found = Vec::with_capacity(32);
    while !grid.is_solved() {
        easy_singles(&grid, &mut found);
        if !found.is_empty() {
            for single in found.drain(..) {
                if grid.has(single.cell, single.digit) {
                    grid.place(single.cell, single.digit);
                }
            }
            continue;
        }
        match ladder.step_within(&grid, ceiling, should_stop) {
            Some(step) => step.apply(&mut grid),
            None if should_stop() => return None,
            None => return Some(grid),
        }
    }
    None
}

/// Notes whether a step of the walk is rated above a ceiling.
struct CeilingWatch<'a> {
    ceiling: Rating,
    passed: &'a Cell<bool>,
}

impl Observer for CeilingWatch<'_> {
    fn single(&mut self, _: &Grid, single: Single) {
        if single.technique.base_rating() > self.ceiling {
            self.passed.set(true);
        }
    }
    fn step(&mut self, _: &Grid, step: &Step) {
        if step.rating > self.ceiling {
            self.passed.set(true);
        }
    }
}

/// Keeps every step of the path.
#[derive(Default)]
struct Recorder(Vec<Step>);

impl Observer for Recorder {
    fn single(&mut self, before: &Grid, single: Single) {
        self.0.push(single.to_step().with_witnesses(before));
    }
    fn step(&mut self, before: &Grid, step: &Step) {
        self.0.push(step.clone().with_witnesses(before));
    }
}

/// The whole logical path from the givens, and its grade.
pub fn explain_until(
    board: &Board,
    should_stop: &dyn Fn() -> bool,
    elapsed: &dyn Fn() -> Duration,
) -> (Vec<Step>, Grade) {
    let mut recorder = Recorder::default();
    let grade = walk(Grid::new(board), should_stop, elapsed, &mut recorder);
    (recorder.0, grade)
}

/// The logical path from a player's position (see [`super::position`])
/// and its grade, or the position's first mistake against the puzzle's
/// unique `solution`.
pub fn explain_from(
    grid: &Grid,
    solution: &Board,
    should_stop: &dyn Fn() -> bool,
    elapsed: &dyn Fn() -> Duration,
) -> Result<(Vec<Step>, Grade), Mark> {
    if let Some(mistake) = super::hint::first_mistake(grid, solution) {
        return Err(mistake);
    }
    let mut recorder = Recorder::default();
    let grade = walk(grid.clone(), should_stop, elapsed, &mut recorder);
    Ok((recorder.0, grade))
}
