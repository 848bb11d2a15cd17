//! What a step changes, in a form two writers of the same step compare
//! equal in: HoDoKu's regression cases and Sukaku Explainer's paths both
//! check our steps against theirs this way.

use sudoku_grpc::domain::logic::{Grid, Mark, Step};

/// What a step changes: eliminations and placements, each sorted and
/// without repeats.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects {
    pub eliminations: Vec<Mark>,
    pub placements: Vec<Mark>,
}

impl Effects {
    /// The effects of one step.
    pub fn of(step: &Step) -> Effects {
        let mut effects = Effects::default();
        effects.add(step);
        effects
    }

    /// Adds a step's effects (to merge the steps of one instance).
    pub fn add(&mut self, step: &Step) {
        self.eliminations.extend_from_slice(&step.eliminations);
        self.placements.extend_from_slice(&step.placements);
        sort_marks(&mut self.eliminations);
        sort_marks(&mut self.placements);
    }

    /// The effects as eliminations only: a placement crosses out the
    /// other candidates of its cell in `grid` (HoDoKu and Sukaku
    /// Explainer write BUG+1 and some loops that way).
    pub fn as_eliminations(&self, grid: &Grid) -> Vec<Mark> {
        let mut marks = self.eliminations.clone();
        for placement in &self.placements {
            let cell = usize::from(placement.cell);
            let others = (1..=9u8).filter(|&d| d != placement.digit && grid.has(cell, d));
            marks.extend(others.map(|digit| Mark::new(cell, digit)));
        }
        sort_marks(&mut marks);
        marks
    }

    /// True when both change `grid` the same way, however written.
    pub fn same_as(&self, other: &Effects, grid: &Grid) -> bool {
        if self == other {
            return true;
        }
        let ours = self.as_eliminations(grid);
        !ours.is_empty() && ours == other.as_eliminations(grid)
    }
}

/// Sorts marks and drops repeats.
pub fn sort_marks(marks: &mut Vec<Mark>) {
    marks.sort();
    marks.dedup();
}

/// "(12.5%)" of a part of a whole; "(-)" of nothing.
pub fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "(-)".to_string();
    }
    format!("({:.1}%)", 100.0 * part as f64 / whole as f64)
}
