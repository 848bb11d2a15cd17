//! Regions beyond the rows, columns and boxes: extra regions (windoku,
//! hyper) and disjoint groups.

use super::{Rule, check_cells};
use crate::variant::geometry::Shape;
use crate::variant::model::Builder;

/// Cells that hold distinct digits, like a box (a windoku window).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraRegion {
    /// The region's cells.
    pub cells: Vec<usize>,
}

impl Rule for ExtraRegion {
    fn check(&self, shape: Shape) -> Result<(), String> {
        check_cells(shape, &self.cells, "the region")?;
        if self.cells.len() > shape.size() {
            return Err(format!(
                "the region has {} cells, but only {} distinct digits exist",
                self.cells.len(),
                shape.size()
            ));
        }
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        builder.distinct(&self.cells);
    }
}

/// Cells in the same place of their regions hold distinct digits: the
/// k-th cell of each region, its cells read row by row. For standard boxes
/// that is the same place in each box; it holds for jigsaw regions too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisjointGroups;

impl DisjointGroups {
    /// The groups, given each cell's region.
    pub fn groups(regions: &[u8]) -> Vec<Vec<usize>> {
        let size = regions
            .iter()
            .map(|&r| usize::from(r) + 1)
            .max()
            .unwrap_or(0);
        let mut seen = vec![0usize; size];
        let mut groups = vec![Vec::new(); size];
        for (cell, &region) in regions.iter().enumerate() {
            let place = &mut seen[usize::from(region)];
            groups[*place].push(cell);
            *place += 1;
        }
        groups
    }
}

impl Rule for DisjointGroups {
    fn check(&self, _shape: Shape) -> Result<(), String> {
        Ok(())
    }

    fn compile(&self, builder: &mut Builder<'_>) {
        for group in DisjointGroups::groups(builder.puzzle().regions()) {
            builder.distinct(&group);
        }
    }
}
