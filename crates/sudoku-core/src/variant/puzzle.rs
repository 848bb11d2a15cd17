//! A variant puzzle as the domain holds it: a shape, givens, regions and a
//! list of typed constraints, checked once when it is made.
//!
//! Whatever format a puzzle arrives in (f-puzzles JSON, the protobuf
//! message), it becomes a [`VariantPuzzle`] through [`VariantPuzzle::new`],
//! so that every check lives here once: cells on the grid, regions that
//! tile it, cages whose sums digits can make, givens that do not repeat.

use super::constraints::Constraint;
use super::error::{Place, VariantError};
use super::geometry::{Shape, char_digit, digit_char};

/// A checked variant puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantPuzzle {
    shape: Shape,
    givens: Vec<u8>,
    regions: Vec<u8>,
    irregular: bool,
    constraints: Vec<Constraint>,
}

/// The parts of a puzzle before they are checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PuzzleParts {
    /// Cells a row.
    pub size: usize,
    /// One digit a cell, row-major, 0 for a blank. Empty: no givens.
    pub givens: Vec<u8>,
    /// The 0-based region of each cell, row-major. Empty: standard boxes.
    pub regions: Vec<u8>,
    /// The constraints, in the order a reader met them.
    pub constraints: Vec<Constraint>,
}

impl PuzzleParts {
    /// Reads a line of givens, one character a cell in row-major order:
    /// `1`-`9`, then `A`-`P` (or `a`-`p`) for 10 to 25, and `.` or `0` for
    /// a blank. Whether the line fits the grid is checked with the rest
    /// of the puzzle ([`VariantPuzzle::new`]).
    pub fn givens_from_line(shape: Shape, line: &str) -> Result<Vec<u8>, VariantError> {
        line.chars()
            .enumerate()
            .map(|(cell, character)| match character {
                '.' | '0' => Ok(0),
                _ => char_digit(character).ok_or_else(|| {
                    let at = if cell < shape.cell_count() {
                        format!("at {}", shape.cell_name(cell))
                    } else {
                        format!("past the grid's {} cells", shape.cell_count())
                    };
                    VariantError::malformed(
                        Place::Givens,
                        format!(
                            "{character:?} {at} is not a digit (1-9, then A-P) or a blank (. or 0)"
                        ),
                    )
                }),
            })
            .collect()
    }
}

impl VariantPuzzle {
    /// Checks `parts` and makes the puzzle, or says what is wrong and where.
    pub fn new(parts: PuzzleParts) -> Result<VariantPuzzle, VariantError> {
        let shape = Shape::new(parts.size).ok_or(VariantError::UnsupportedSize {
            place: Place::Size,
            size: parts.size,
        })?;
        let givens = checked_givens(shape, parts.givens)?;
        let irregular = !parts.regions.is_empty() && parts.regions != shape.standard_regions();
        let regions = checked_regions(shape, parts.regions)?;
        for (index, constraint) in parts.constraints.iter().enumerate() {
            constraint.check(shape).map_err(|problem| {
                VariantError::malformed(
                    Place::Constraint {
                        index,
                        kind: constraint.kind_name(),
                    },
                    problem,
                )
            })?;
        }
        let puzzle = VariantPuzzle {
            shape,
            givens,
            regions,
            irregular,
            constraints: without_repeated_grid_rules(parts.constraints),
        };
        puzzle.check_givens_repeat()?;
        Ok(puzzle)
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The givens, one a cell, 0 for a blank.
    pub fn givens(&self) -> &[u8] {
        &self.givens
    }

    /// The region of each cell: its standard box unless the puzzle has
    /// irregular regions.
    pub fn regions(&self) -> &[u8] {
        &self.regions
    }

    /// True when the regions are not the standard boxes (a jigsaw).
    pub fn has_irregular_regions(&self) -> bool {
        self.irregular
    }

    /// The constraints beyond rows, columns and regions.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// True for a classic puzzle: 9×9, standard boxes, no constraint.
    pub fn is_classic(&self) -> bool {
        self.shape == Shape::CLASSIC && !self.irregular && self.constraints.is_empty()
    }

    /// The rows, then the columns, then the regions, each as its cells in
    /// reading order.
    pub fn houses(&self) -> Vec<Vec<usize>> {
        let size = self.shape.size();
        let mut houses = vec![Vec::with_capacity(size); 3 * size];
        for cell in 0..self.shape.cell_count() {
            houses[self.shape.row(cell)].push(cell);
            houses[size + self.shape.column(cell)].push(cell);
            houses[2 * size + usize::from(self.regions[cell])].push(cell);
        }
        houses
    }

    /// A house of [`VariantPuzzle::houses`] in words, for messages.
    fn house_name(&self, index: usize) -> String {
        let size = self.shape.size();
        let kind = ["row", "column", "region"][index / size];
        format!("{kind} {}", index % size + 1)
    }

    /// Refuses givens that repeat a digit in a row, column or region.
    fn check_givens_repeat(&self) -> Result<(), VariantError> {
        for (index, cells) in self.houses().into_iter().enumerate() {
            let mut seen = [None::<usize>; 26];
            for cell in cells {
                let digit = usize::from(self.givens[cell]);
                if digit == 0 {
                    continue;
                }
                if let Some(first) = seen[digit] {
                    return Err(VariantError::ConflictingGivens {
                        digit: digit_char(digit as u8),
                        first: self.shape.cell_name(first.min(cell)),
                        second: self.shape.cell_name(first.max(cell)),
                        unit: self.house_name(index),
                    });
                }
                seen[digit] = Some(cell);
            }
        }
        Ok(())
    }
}

/// The constraints with each whole-grid rule (a diagonal, anti-knight, a
/// negative rule …) kept once: a copy says nothing more, and each would
/// cost a pass over the grid when the puzzle is compiled.
fn without_repeated_grid_rules(constraints: Vec<Constraint>) -> Vec<Constraint> {
    let mut seen: Vec<Constraint> = Vec::new();
    constraints
        .into_iter()
        .filter(|constraint| {
            let grid_rule = matches!(
                constraint,
                Constraint::Diagonal(_)
                    | Constraint::DisjointGroups(_)
                    | Constraint::AntiKnight(_)
                    | Constraint::AntiKing(_)
                    | Constraint::NonConsecutive(_)
                    | Constraint::NegativeRatio(_)
                    | Constraint::NegativeXv(_)
            );
            if !grid_rule || !seen.contains(constraint) {
                if grid_rule {
                    seen.push(constraint.clone());
                }
                return true;
            }
            false
        })
        .collect()
}

/// The givens, or all blanks for none; each at most the size.
fn checked_givens(shape: Shape, givens: Vec<u8>) -> Result<Vec<u8>, VariantError> {
    if givens.is_empty() {
        return Ok(vec![0; shape.cell_count()]);
    }
    if givens.len() != shape.cell_count() {
        return Err(VariantError::malformed(
            Place::Givens,
            format!(
                "expected {} cells for a {size}×{size} grid, found {}",
                shape.cell_count(),
                givens.len(),
                size = shape.size()
            ),
        ));
    }
    if let Some(cell) = givens.iter().position(|&d| usize::from(d) > shape.size()) {
        return Err(VariantError::malformed(
            Place::Givens,
            format!(
                "{} holds {}, past the largest digit {} of a {size}×{size} grid",
                shape.cell_name(cell),
                givens[cell],
                shape.size(),
                size = shape.size()
            ),
        ));
    }
    Ok(givens)
}

/// The regions, or the standard boxes for none; they must tile the grid
/// with `size` regions of `size` cells each.
fn checked_regions(shape: Shape, regions: Vec<u8>) -> Result<Vec<u8>, VariantError> {
    if regions.is_empty() {
        return Ok(shape.standard_regions());
    }
    let size = shape.size();
    let wrong = |problem: String| Err(VariantError::malformed(Place::Regions, problem));
    if regions.len() != shape.cell_count() {
        return wrong(format!(
            "expected a region for each of the {} cells, found {}",
            shape.cell_count(),
            regions.len()
        ));
    }
    if let Some(cell) = regions.iter().position(|&r| usize::from(r) >= size) {
        return wrong(format!(
            "{} is in region {}, but a {size}×{size} grid has regions 0 to {}",
            shape.cell_name(cell),
            regions[cell],
            size - 1
        ));
    }
    let mut counts = vec![0usize; size];
    for &region in &regions {
        counts[usize::from(region)] += 1;
    }
    if let Some(region) = counts.iter().position(|&count| count != size) {
        return wrong(format!(
            "region {region} has {} cells; each of the {size} regions must have {size}",
            counts[region]
        ));
    }
    Ok(regions)
}
