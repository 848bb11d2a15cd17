//! What became of a puzzle: one type for every layer, and counts of it.
//!
//! The solver, the service, the client and the command line all name a
//! puzzle's fate with [`Outcome`]. Each edge converts it once: the service
//! to the protobuf enum, the client back from it (refusing values it does
//! not know), the command line to the words it prints, the metrics to
//! their labels. Keeping one type means a new outcome is added in one
//! place and every `match` on it points at what still has to handle it.

/// What became of one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Exactly one solution.
    Solved,
    /// More than one solution.
    MultipleSolutions,
    /// The givens are consistent (no digit repeats in a unit) but admit no
    /// solution.
    NoSolution,
    /// The puzzle was refused before solving: malformed text, givens that
    /// repeat a digit, or an item over a size limit.
    Invalid,
    /// The solver ran out of its time budget before it could tell.
    GaveUp,
    /// Dealing with this puzzle failed for a reason that is not the
    /// puzzle's: a bug on the server, say.
    Failed,
}

impl Outcome {
    /// Every outcome, in declaration order (the order of their indices).
    pub const ALL: [Outcome; 6] = [
        Outcome::Solved,
        Outcome::MultipleSolutions,
        Outcome::NoSolution,
        Outcome::Invalid,
        Outcome::GaveUp,
        Outcome::Failed,
    ];

    /// What a certifying search that found `count` solutions (it stops at
    /// two) says about the puzzle.
    pub fn of_solution_count(count: usize) -> Outcome {
        match count {
            0 => Outcome::NoSolution,
            1 => Outcome::Solved,
            _ => Outcome::MultipleSolutions,
        }
    }

    /// True for the outcomes that come with a solution.
    pub fn has_solution(self) -> bool {
        matches!(self, Outcome::Solved | Outcome::MultipleSolutions)
    }

    /// True for the outcomes that come with an error message instead of a
    /// verdict on the puzzle's solutions.
    pub fn has_error(self) -> bool {
        matches!(self, Outcome::Invalid | Outcome::GaveUp | Outcome::Failed)
    }

    /// The outcome's position in [`Outcome::ALL`], for tables indexed by it.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How many puzzles had each outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    counts: [u64; Outcome::ALL.len()],
}

impl Tally {
    /// Counts one puzzle.
    pub fn add(&mut self, outcome: Outcome) {
        self.counts[outcome.index()] += 1;
    }

    /// Adds another tally to this one.
    pub fn merge(&mut self, other: &Tally) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
    }

    /// How many puzzles had `outcome`.
    pub fn count(&self, outcome: Outcome) -> u64 {
        self.counts[outcome.index()]
    }

    /// All puzzles counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_the_order_of_all() {
        for (index, outcome) in Outcome::ALL.into_iter().enumerate() {
            assert_eq!(outcome.index(), index);
        }
    }

    #[test]
    fn a_solution_count_names_its_outcome() {
        assert_eq!(Outcome::of_solution_count(0), Outcome::NoSolution);
        assert_eq!(Outcome::of_solution_count(1), Outcome::Solved);
        assert_eq!(Outcome::of_solution_count(2), Outcome::MultipleSolutions);
    }

    #[test]
    fn tallies_count_and_merge() {
        let mut first = Tally::default();
        first.add(Outcome::Solved);
        first.add(Outcome::Solved);
        first.add(Outcome::GaveUp);
        let mut second = Tally::default();
        second.add(Outcome::Invalid);
        second.merge(&first);
        assert_eq!(second.count(Outcome::Solved), 2);
        assert_eq!(second.count(Outcome::GaveUp), 1);
        assert_eq!(second.count(Outcome::Invalid), 1);
        assert_eq!(second.count(Outcome::Failed), 0);
        assert_eq!(second.total(), 4);
    }
}
