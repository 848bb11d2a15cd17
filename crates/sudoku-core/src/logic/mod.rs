//! The logical solver: how a person solves a puzzle, step by step, and
//! how hard that makes it.
//!
//! The backtracking solver (`domain::solver`) answers whether a puzzle
//! has one solution; this module answers how a person would find it. It
//! works on a [`Grid`] of placed digits and pencil marks, and finds the
//! simplest [`Step`] available with a ladder of techniques ordered as
//! Sukaku Explainer orders them (singles, intersections, subsets, fish,
//! two-strong-link patterns, wings, unique rectangles, BUG+1, chains and
//! forcing chains). The grader applies the simplest step until the
//! puzzle is solved and rates it, on Sudoku Explainer's scale, by the
//! hardest step it needed.
//!
//! Every technique is sound on a puzzle with one solution: it never
//! places a wrong digit nor removes the solution's digit. The uniqueness
//! techniques rely on that one solution, so callers certify it first.

mod aligned;
mod als_wings;
pub(crate) mod bits;
mod bug;
mod chains;
mod cycles;
mod fish;
mod forcing;
mod grader;
mod grid;
mod hint;
mod implications;
mod intersections;
mod ladder;
mod loops;
mod reach;
mod reasoning;
mod reasoning_check;
mod scope;
mod singles;
mod step;
mod strong_links;
mod subsets;
mod technique;
mod uniqueness;
mod wings;
mod words;

#[cfg(test)]
mod reasoning_tests;
#[cfg(test)]
mod tests;

pub use chains::chain_making;
pub use grader::{
    Grade, Observer, Stall, TechniqueCounts, explain_from, explain_until, grade, grade_until,
    grade_within, walk, worked_within,
};
pub use grid::{Grid, MarksError};
pub use hint::{Hint, PositionError, first_mistake, hint, hint_at, position};
pub use ladder::{all_instances, find_technique, simplest_step};
pub use reasoning::{INFERENCE_RULES, eureka, state};
pub use reasoning_check::reasoning_faults;
pub use singles::Single;
pub use step::{Branch, Link, LinkKind, Mark, Step};
pub use technique::{Level, Rating, Technique};
