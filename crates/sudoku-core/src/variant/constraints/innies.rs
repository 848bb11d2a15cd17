//! What summed killer cages imply about the houses they lie in, as extra
//! sums for the model: a solver's "innies" and "outies".
//!
//! Every row, column and region holds each digit once, so its digits sum
//! to `size × (size + 1) / 2`. In one house, the cells no summed cage
//! inside it covers sum to what the cages leave of that total, once the
//! cages cover two cells or more ([`HouseSums::remainders`]). Across a run
//! of houses (the first k rows, from the top or the bottom; the first k
//! columns, either way; the first k regions), a cage that lies mostly
//! inside counts whole: the cells inside that no such cage covers, less
//! the cells of those cages that stick out, make up the difference between
//! the houses' total and the cages' sums ([`HouseSums::unions`]).
//! Measured on the Interactive Sudoku Solver, whose optimizer derives the
//! same sums, they cut hard killers' searches by tens of times.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use super::{Cage, Constraint};
use crate::variant::puzzle::VariantPuzzle;

/// The most cells a derived sum over a run of houses may have: larger
/// ones narrow little and cost a propagation each.
const MOST_DERIVED_CELLS: usize = 9;

/// The most cells such a sum may have when every one of them lies in a
/// summed cage already, as the Interactive Sudoku Solver caps its own:
/// those cells have a sum's help anyway, and a sum of seven to nine of
/// them costs more than it narrows (on the ISS's hardest killers,
/// TAREK_ALL, they made a guess half as dear again and the search no
/// shorter).
const MOST_CAGED_CELLS: usize = 6;

/// The summed cages that overlap no summed cage before them.
fn disjoint_cages(puzzle: &VariantPuzzle) -> Vec<(&[usize], u32)> {
    let mut taken = vec![false; puzzle.shape().cell_count()];
    let mut cages = Vec::new();
    for constraint in puzzle.constraints() {
        if let Constraint::Cage(Cage {
            cells,
            sum: Some(sum),
        }) = constraint
            && cells.iter().all(|&cell| !taken[cell])
        {
            cells.iter().for_each(|&cell| taken[cell] = true);
            cages.push((cells.as_slice(), *sum));
        }
    }
    cages
}

/// What the summed cages imply of the houses they lie in.
pub(crate) struct HouseSums {
    /// For each row, column and region with summed cages inside covering
    /// two cells or more, the cells no such cage covers and the sum they
    /// hold: distinct digits, since they share a house.
    pub remainders: Vec<(Vec<usize>, u32)>,
    /// The sums over runs of houses, each at most [`MOST_DERIVED_CELLS`]
    /// cells ([`MOST_CAGED_CELLS`] if all lie in cages), without repeats:
    /// a sum found both as it is and negated is kept once, with 2 (else
    /// 1), the weight it carries in the search (see [`merge_twins`]).
    pub unions: Vec<(UnionSum, u32)>,
    /// For each house that the summed cages crossing it cover, the cells
    /// of those cages outside it and their sum; worth a propagator only
    /// if tight (the builder's test).
    pub overhangs: Vec<(Vec<usize>, i64)>,
}

/// The sums `puzzle`'s summed cages imply of its `houses` (rows, then
/// columns, then regions, as [`VariantPuzzle::houses`] lists them).
pub(crate) fn house_sums(puzzle: &VariantPuzzle, houses: &[Vec<usize>]) -> HouseSums {
    let cages = disjoint_cages(puzzle);
    let mut unions = union_sums(puzzle, houses, &cages);
    unions.extend(
        houses
            .iter()
            .flat_map(|house| one_cell_outies(puzzle, house, &cages)),
    );
    unions.sort();
    unions.dedup();
    let unions = merge_twins(unions);
    HouseSums {
        remainders: house_remainders(puzzle, houses, &cages),
        unions,
        overhangs: houses
            .iter()
            .filter_map(|house| overhang(puzzle, house, &cages))
            .collect(),
    }
}

/// `unions` (sorted, without repeats) with each sum that also comes
/// negated kept once, in its first form, and counted 2; the others 1.
///
/// The runs from either edge meet: k rows from the top imply what the
/// other rows from the bottom do, negated (12 of the 44 derived sums of a
/// fully caged MATHEMAGIC killer). The twin runs once but weighs twice, as
/// when both ran: with one weight the MATHEMAGIC killers took 4.20M
/// guesses against 3.22M.
fn merge_twins(unions: Vec<UnionSum>) -> Vec<(UnionSum, u32)> {
    let mut merged: Vec<(UnionSum, u32)> = Vec::with_capacity(unions.len());
    let mut index_of: BTreeMap<UnionSum, usize> = BTreeMap::new();
    for union in unions {
        match index_of.entry(union.canonical()) {
            Entry::Occupied(at) => merged[*at.get()].1 += 1,
            Entry::Vacant(slot) => {
                slot.insert(merged.len());
                merged.push((union, 1));
            }
        }
    }
    merged
}

/// The cells of the summed cages crossing `house` that lie outside it, and
/// their sum, when those cages cover the house and stick out of it.
fn overhang(
    puzzle: &VariantPuzzle,
    house: &[usize],
    cages: &[(&[usize], u32)],
) -> Option<(Vec<usize>, i64)> {
    let size = puzzle.shape().size() as i64;
    let mut covered = vec![false; puzzle.shape().cell_count()];
    let mut outside = Vec::new();
    let mut total = -size * (size + 1) / 2;
    for &(cells, sum) in cages {
        if cells.iter().any(|cell| house.contains(cell)) {
            total += i64::from(sum);
            for &cell in cells {
                covered[cell] = true;
                if !house.contains(&cell) {
                    outside.push(cell);
                }
            }
        }
    }
    let whole = house.iter().all(|&cell| covered[cell]);
    (whole && !outside.is_empty()).then(|| {
        outside.sort_unstable();
        (outside, total)
    })
}

/// Most cells a house's one-cell outie sum may have, the outie included.
const MOST_OUTIE_CELLS: usize = 6;

/// For each summed cage with all its cells but one in `house`: the house's
/// cells that neither it nor a cage inside covers, less the one cell
/// outside, make up what the house's total leaves of the cages' sums.
/// Like an arrow whose bulb is the cell that sticks out.
fn one_cell_outies(
    puzzle: &VariantPuzzle,
    house: &[usize],
    cages: &[(&[usize], u32)],
) -> Vec<UnionSum> {
    let size = puzzle.shape().size() as i64;
    let inside = |cell: &usize| house.contains(cell);
    let (covered, caged) = caged_within(puzzle, house, cages);
    let caged_total = i64::from(caged);
    let mut sums = Vec::new();
    for &(cells, sum) in cages {
        let outside: Vec<usize> = cells.iter().copied().filter(|c| !inside(c)).collect();
        if outside.len() != 1 || cells.len() < 2 {
            continue;
        }
        let mut rest: Vec<usize> = house
            .iter()
            .copied()
            .filter(|&cell| !covered[cell] && !cells.contains(&cell))
            .collect();
        if rest.is_empty() || rest.len() + 1 > MOST_OUTIE_CELLS {
            continue;
        }
        rest.sort_unstable();
        sums.push(UnionSum {
            inside: rest,
            outside,
            total: size * (size + 1) / 2 - caged_total - i64::from(sum),
        });
    }
    sums
}

/// The cells of `house` that summed cages lying wholly in it cover (a
/// flag a cell of the grid), and those cages' sums added up.
fn caged_within(
    puzzle: &VariantPuzzle,
    house: &[usize],
    cages: &[(&[usize], u32)],
) -> (Vec<bool>, u32) {
    let mut covered = vec![false; puzzle.shape().cell_count()];
    let mut caged = 0;
    for &(cells, sum) in cages {
        if cells.iter().all(|cell| house.contains(cell)) {
            cells.iter().for_each(|&cell| covered[cell] = true);
            caged += sum;
        }
    }
    (covered, caged)
}

/// For each house whose summed cages inside cover two cells or more, the
/// rest of its cells and what they sum to.
fn house_remainders(
    puzzle: &VariantPuzzle,
    houses: &[Vec<usize>],
    cages: &[(&[usize], u32)],
) -> Vec<(Vec<usize>, u32)> {
    let size = puzzle.shape().size() as u32;
    let total = size * (size + 1) / 2;
    let mut remainders = Vec::new();
    for house in houses {
        let (covered, caged) = caged_within(puzzle, house, cages);
        let rest: Vec<usize> = house
            .iter()
            .copied()
            .filter(|&cell| !covered[cell])
            .collect();
        // One caged cell is a given in all but name: the house leaves its
        // rest the other digits, so a sum of them narrows the house's
        // cells no further. It would cost a propagation each time one
        // narrows, for one deduction of its own, rare and narrow: a digit
        // of the rest confined to cells that a cell outside sees by
        // another rule (a knight's move) leaves that cell, which a house's
        // pointing does only for the houses it meets. The ISS's optimizer
        // skips this sum too.
        if !rest.is_empty() && rest.len() + 1 < house.len() {
            remainders.push((rest, total.saturating_sub(caged)));
        }
    }
    remainders
}

/// A derived sum: `sum(inside) - sum(outside) == total`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct UnionSum {
    /// Cells counted in (innies).
    pub inside: Vec<usize>,
    /// Cells counted out (outies).
    pub outside: Vec<usize>,
    /// What the innies less the outies come to.
    pub total: i64,
}

impl UnionSum {
    /// The sum or its negation (innies and outies swapped), whichever
    /// orders first: one form for a sum found either way.
    fn canonical(&self) -> UnionSum {
        let negated = (&self.outside, &self.inside, -self.total);
        match negated < (&self.inside, &self.outside, self.total) {
            true => UnionSum {
                inside: self.outside.clone(),
                outside: self.inside.clone(),
                total: -self.total,
            },
            false => self.clone(),
        }
    }
}

/// The runs of houses the unions grow along: rows from the top and from
/// the bottom, columns from the left and from the right, regions in order.
fn house_runs(houses: &[Vec<usize>], size: usize) -> [Vec<&Vec<usize>>; 5] {
    let (rows, rest) = houses.split_at(size);
    let (columns, regions) = rest.split_at(size);
    [
        regions.iter().collect(),
        columns.iter().collect(),
        columns.iter().rev().collect(),
        rows.iter().collect(),
        rows.iter().rev().collect(),
    ]
}

fn union_sums(
    puzzle: &VariantPuzzle,
    houses: &[Vec<usize>],
    cages: &[(&[usize], u32)],
) -> Vec<UnionSum> {
    let size = puzzle.shape().size();
    let house_total = (size * (size + 1) / 2) as i64;
    let mut in_any_cage = vec![false; puzzle.shape().cell_count()];
    for &(cells, _) in cages {
        cells.iter().for_each(|&cell| in_any_cage[cell] = true);
    }
    let mut sums = Vec::new();
    for run in house_runs(houses, size) {
        let mut inside = vec![false; puzzle.shape().cell_count()];
        let mut joined = vec![false; cages.len()];
        for (k, house) in run.iter().enumerate().take(size - 1) {
            house.iter().for_each(|&cell| inside[cell] = true);
            for (index, &(cells, _)) in cages.iter().enumerate() {
                let within = cells.iter().filter(|&&cell| inside[cell]).count();
                if 2 * within > cells.len() {
                    joined[index] = true;
                }
            }
            if let Some(sum) = union_sum(
                cages,
                &joined,
                &inside,
                &in_any_cage,
                house_total * (k as i64 + 1),
            ) {
                sums.push(sum);
            }
        }
    }
    sums.sort();
    sums.dedup();
    sums
}

/// The sum a union of houses (`inside`) and the cages joined to it make,
/// if it is small enough to be worth a propagator.
fn union_sum(
    cages: &[(&[usize], u32)],
    joined: &[bool],
    inside: &[bool],
    in_any_cage: &[bool],
    houses_total: i64,
) -> Option<UnionSum> {
    let mut caged = vec![false; inside.len()];
    let mut outside = Vec::new();
    let mut joined_total = 0i64;
    for (&(cells, sum), _) in cages.iter().zip(joined).filter(|(_, joined)| **joined) {
        joined_total += i64::from(sum);
        for &cell in cells {
            caged[cell] = true;
            if !inside[cell] {
                outside.push(cell);
            }
        }
    }
    if joined_total == 0 {
        return None;
    }
    let innies: Vec<usize> = (0..inside.len())
        .filter(|&cell| inside[cell] && !caged[cell])
        .collect();
    let cells = innies.len() + outside.len();
    // Outies lie in cages; innies may lie in cages not joined.
    let most = match innies.iter().all(|&cell| in_any_cage[cell]) {
        true => MOST_CAGED_CELLS,
        false => MOST_DERIVED_CELLS,
    };
    let small = cells > 0 && cells <= most && (innies.len() <= 2 || outside.len() <= 2);
    small.then(|| {
        outside.sort_unstable();
        UnionSum {
            inside: innies,
            outside,
            total: houses_total - joined_total,
        }
    })
}

/// A 4×4 covered by summed cages. Row 1 with its cage R1C1-R1C3 + R2C1
/// (10) gives R1C4 - R2C1 = 0; rows 2-4 with theirs give R2C1 - R1C4 = 0,
/// the same sum negated.
#[cfg(test)]
pub(crate) const TWIN_CAGES: &[(&[usize], u32)] = &[
    (&[0, 1, 2, 4], 10),
    (&[3, 7, 11], 7),
    (&[5, 6], 5),
    (&[8, 9, 10], 8),
    (&[12, 13, 14, 15], 10),
];

/// A grid of `size` with these summed cages (cells row-major).
#[cfg(test)]
pub(crate) fn caged_puzzle(size: usize, cages: &[(&[usize], u32)]) -> VariantPuzzle {
    let constraints = (cages.iter())
        .map(|&(cells, sum)| {
            let cells = cells.to_vec();
            Cage {
                cells,
                sum: Some(sum),
            }
            .into()
        })
        .collect();
    let parts = crate::variant::PuzzleParts {
        size,
        constraints,
        ..Default::default()
    };
    VariantPuzzle::new(parts).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sums a 9×9 with these summed cages (cells row-major) implies.
    fn sums_of(cages: &[(&[usize], u32)]) -> HouseSums {
        let puzzle = caged_puzzle(9, cages);
        house_sums(&puzzle, &puzzle.houses())
    }

    #[test]
    fn a_cage_sticking_out_of_a_house_by_one_cell_links_that_cell_to_the_rest() {
        // Row 5 (a middle row, apart from the runs from either edge):
        // R5C1, R5C2 and R6C1 sum to 20; R5C3 to R5C7 to 25. So R5C8 +
        // R5C9 = 45 - 25 - (20 - R6C1): R5C8 + R5C9 - R6C1 = 0.
        let sums = sums_of(&[(&[36, 37, 45], 20), (&[38, 39, 40, 41, 42], 25)]);
        let outie = UnionSum {
            inside: vec![43, 44],
            outside: vec![45],
            total: 0,
        };
        assert!(sums.unions.contains(&(outie, 1)), "{:?}", sums.unions);
    }

    #[test]
    fn a_derived_sum_of_caged_cells_stops_at_six_and_one_with_a_free_cell_at_nine() {
        // R1C1-R1C3 and R2C1 sum to 20: R1C4-R1C9 less R2C1 make 25,
        // seven cells; kept while R1C4-R1C9 lie in no cage.
        let cage = (&[0, 1, 2, 9][..], 20);
        let seven = UnionSum {
            inside: (3..9).collect(),
            outside: vec![9],
            total: 25,
        };
        let has = |sums: HouseSums, union: &UnionSum| sums.unions.iter().any(|(u, _)| u == union);
        assert!(has(sums_of(&[cage]), &seven));
        // With R1C4-R1C9 each in a cage of two that hangs below row 1
        // (so not joined to it), all seven are caged: too many.
        let pairs: Vec<[usize; 2]> = (3..9).map(|c| [c, c + 9]).collect();
        let mut cages = vec![cage];
        cages.extend(pairs.iter().map(|pair| (&pair[..], 10)));
        assert!(!has(sums_of(&cages), &seven));
        // R1C1-R1C3, R2C1 and R2C2 sum to 25 and R1C4-R1C5 to 9: R1C6-R1C9
        // less R2C1 and R2C2 make 11, six caged cells: kept.
        let mut cages = vec![(&[0, 1, 2, 9, 10][..], 25), (&[3, 4][..], 9)];
        cages.extend(pairs[2..].iter().map(|pair| (&pair[..], 10)));
        let six = UnionSum {
            inside: (5..9).collect(),
            outside: vec![9, 10],
            total: 11,
        };
        assert!(has(sums_of(&cages), &six));
    }

    #[test]
    fn a_house_whose_cages_cover_one_cell_gets_no_sum_of_its_rest() {
        // R5C5 alone makes 5: a given, which leaves rows, columns and box
        // nothing a sum of their rest would add.
        let given = (&[40][..], 5);
        let sums = sums_of(&[given]);
        assert!(sums.remainders.is_empty(), "{:?}", sums.remainders);
        // R5C4 and R5C5 make 3: row 5 and box 5 less them make 42.
        let sums = sums_of(&[(&[39, 40][..], 3)]);
        let row_rest: Vec<usize> = (36..45).filter(|&c| c != 39 && c != 40).collect();
        let box_rest = vec![30, 31, 32, 41, 48, 49, 50];
        assert_eq!(sums.remainders, vec![(row_rest, 42), (box_rest, 42)]);
    }

    #[test]
    fn a_sum_found_from_both_edges_is_kept_once_and_counted_twice() {
        let puzzle = caged_puzzle(4, TWIN_CAGES);
        let sums = house_sums(&puzzle, &puzzle.houses());
        let twins: Vec<&(UnionSum, u32)> = (sums.unions.iter())
            .filter(|(union, _)| {
                let cells = [union.inside.as_slice(), union.outside.as_slice()];
                cells == [&[3], &[4]] || cells == [&[4], &[3]]
            })
            .collect();
        assert_eq!(twins.len(), 1, "{:?}", sums.unions);
        assert_eq!((twins[0].0.total, twins[0].1), (0, 2));
    }

    #[test]
    fn cages_covering_a_house_give_the_sum_of_what_sticks_out() {
        // Row 1 is covered by R1C1-R1C4 + R2C1 (30) and R1C5-R1C9 + R2C9
        // (25): R2C1 + R2C9 = 30 + 25 - 45 = 10.
        let sums = sums_of(&[(&[0, 1, 2, 3, 9], 30), (&[4, 5, 6, 7, 8, 17], 25)]);
        assert!(
            sums.overhangs.contains(&(vec![9, 17], 10)),
            "{:?}",
            sums.overhangs
        );
    }
}
