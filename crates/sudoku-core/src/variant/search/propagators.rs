//! The propagators a model compiles to, one file each, behind one enum so
//! that the search dispatches without a virtual call.
//!
//! A propagator reads the masks of its cells and narrows them through a
//! [`Narrowing`], which queues every cell it changes; it fails with
//! [`Contradiction`] when a cell is left with no digit or its rule can no
//! longer hold. [`Propagator::accepts`] checks a full grid against the rule.

pub(crate) use super::cage::{CageSum, MOST_CAGE_CELLS};
pub(crate) use super::house::House;
pub(crate) use super::linear::Linear;
pub(crate) use super::pair::{Pair, SupportCache};

use super::narrowing::{Contradiction, Narrowing};

/// One compiled rule.
#[derive(Debug, Clone)]
pub(crate) enum Propagator {
    /// `size` distinct cells: every digit once.
    House(House),
    /// A table of the digit pairs two cells may hold.
    Pair(Pair),
    /// A weighted sum with a fixed total.
    Linear(Linear),
    /// Distinct digits with a fixed sum, by the digit sets that make it.
    Cage(CageSum),
}

impl Propagator {
    /// The cells it reads.
    pub fn cells(&self) -> &[u16] {
        match self {
            Propagator::House(house) => house.cells(),
            Propagator::Pair(pair) => pair.cells(),
            Propagator::Linear(linear) => linear.cells(),
            Propagator::Cage(cage) => cage.cells(),
        }
    }

    /// How many of [`Self::cells`], from the first, wake it whenever they
    /// narrow; the rest wake it only when left one digit.
    pub fn woken_by(&self) -> usize {
        match self {
            // The rest of the cage's house matters to the cage when a
            // digit leaves all of it, which is rare: waking the cage on
            // every change there cost TAREK_ALL#21 15 % more instructions.
            Propagator::Cage(cage) => cage.cage().len(),
            other => other.cells().len(),
        }
    }

    /// True for a rule that runs only when no other waits. A sum's bounds
    /// cost a pass over all its cells and rarely narrow, and the sums
    /// derived from a killer's houses are long and many: read once the
    /// cheaper rules have settled their cells, they run less often for
    /// the same fixed point (docs/variants.md has the figures).
    pub fn runs_late(&self) -> bool {
        matches!(self, Propagator::Linear(_))
    }

    /// True for a rule that its own changes need not wake again, unless a
    /// run says otherwise ([`Narrowing::disown`]): a cage. A house's hidden
    /// single leaves it more to do (its other digits leave that cell),
    /// and a sum's bounds tighten as it narrows. On
    /// MATHEMAGIC_KILLERS#0 a fifth of the cages' runs were of this kind.
    pub fn settles_itself(&self) -> bool {
        matches!(self, Propagator::Cage(_))
    }

    /// Narrows its cells' masks as far as its rule allows by itself.
    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        match self {
            Propagator::House(house) => house.propagate(grid),
            Propagator::Pair(pair) => pair.propagate(grid),
            Propagator::Linear(linear) => linear.propagate(grid),
            Propagator::Cage(cage) => cage.propagate(grid),
        }
    }

    /// True when a full grid (one bit a mask) keeps the rule.
    pub fn accepts(&self, masks: &[u32]) -> bool {
        match self {
            Propagator::House(house) => house.accepts(masks),
            Propagator::Pair(pair) => pair.accepts(masks),
            Propagator::Linear(linear) => linear.accepts(masks),
            Propagator::Cage(cage) => cage.accepts(masks),
        }
    }
}
