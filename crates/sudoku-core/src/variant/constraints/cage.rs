//! Killer cages: distinct digits, and when a sum is given, that sum.

use super::{Constraint, Rule, check_cells};
use crate::variant::geometry::Shape;
use crate::variant::model::Builder;
use crate::variant::puzzle::VariantPuzzle;

/// Cells that hold distinct digits, summing to `sum` when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cage {
    /// The cage's cells.
    pub cells: Vec<usize>,
    /// Its sum, if the setter gave one.
    pub sum: Option<u32>,
}

impl Rule for Cage {
    fn check(&self, shape: Shape) -> Result<(), String> {
        check_cells(shape, &self.cells, "the cage")?;
        let count = self.cells.len() as u32;
        let size = shape.size() as u32;
        if count > size {
            return Err(format!(
                "the cage has {count} cells, but only {size} distinct digits exist"
            ));
        }
        let Some(sum) = self.sum else { return Ok(()) };
        // Distinct digits from 1 to `size` make every sum between these.
        let least = count * (count + 1) / 2;
        let most = count * size - count * (count - 1) / 2;
        if sum < least || sum > most {
            return Err(format!(
                "no {count} distinct digits from 1 to {size} sum to {sum}: \
                 their sums run from {least} to {most}"
            ));
        }
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        builder.distinct(&self.cells);
        if let Some(sum) = self.sum {
            builder.cage_sum(&self.cells, sum);
        }
    }
}

/// What summed cages imply about the houses they lie in: in each row,
/// column and region, the cells no summed cage inside it covers hold
/// distinct digits summing to what the cages leave of the house's total
/// (the killer solver's "innies"). The cages taken are whole in the house
/// and do not overlap each other; a house with none gives nothing.
pub(crate) fn house_remainders(puzzle: &VariantPuzzle) -> Vec<(Vec<usize>, u32)> {
    let size = puzzle.shape().size() as u32;
    let total = size * (size + 1) / 2;
    let cages: Vec<(&[usize], u32)> = puzzle
        .constraints()
        .iter()
        .filter_map(|constraint| match constraint {
            Constraint::Cage(Cage {
                cells,
                sum: Some(sum),
            }) => Some((cells.as_slice(), *sum)),
            _ => None,
        })
        .collect();
    let mut remainders = Vec::new();
    for (_, house) in puzzle.units() {
        let mut covered = vec![false; puzzle.shape().cell_count()];
        let mut caged = 0;
        for &(cells, sum) in &cages {
            let inside = cells.iter().all(|cell| house.contains(cell));
            if inside && cells.iter().all(|&cell| !covered[cell]) {
                cells.iter().for_each(|&cell| covered[cell] = true);
                caged += sum;
            }
        }
        let rest: Vec<usize> = house
            .iter()
            .copied()
            .filter(|&cell| !covered[cell])
            .collect();
        if caged > 0 && !rest.is_empty() && rest.len() < house.len() {
            remainders.push((rest, total.saturating_sub(caged)));
        }
    }
    remainders
}
