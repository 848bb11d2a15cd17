//! A house: `size` cells that hold every digit once. Naked singles are the
//! peers' business (the engine strikes a placed digit from every peer);
//! the house finds hidden singles, a digit with one place left, and fails
//! when a digit has none.
//!
//! A house also knows the houses it meets in two cells or more (a row and
//! a box, a diagonal and a box, a window and a column). A digit whose
//! places left in this house all lie where the two meet must stand there,
//! so it leaves the rest of the other house: pointing and claiming, each
//! house doing its own side. Done here rather than by a propagator of its
//! own, it runs exactly when this house's cells change, and a cell does
//! not queue a dozen meetings each time it narrows.
//!
//! The meetings are kept in families whose shared cells do not overlap
//! (a row's boxes; a box's rows, and its columns). Within a family a digit
//! is confined to one meeting when it lies in that meeting's cells and in
//! no other cell of the house, which one pass over the house tells for
//! every meeting at once, rather than a pass per meeting. Only digits
//! struck from the house's cells since it last ran are pointed: a digit
//! confined before then was pointed then, and the cells beyond can only
//! have lost digits since. On 25×25 grids most of a house's time went to
//! striking digits the cells beyond already lacked.

use super::narrowing::{Contradiction, Narrowing, digits_of, is_single};

/// Most cells a house may have: one bit each in a position mask (grids
/// go to 25).
const MOST_HOUSE_CELLS: usize = 32;

/// `size` distinct cells, so each digit exactly once.
#[derive(Debug, Clone)]
pub(crate) struct House {
    cells: Box<[u16]>,
    families: Vec<Family>,
}

/// Meetings whose shared cells do not overlap, and the positions of the
/// house that none of them covers.
#[derive(Debug, Clone)]
struct Family {
    meetings: Vec<Meeting>,
    uncovered: u32,
}

/// Where this house meets another: the positions (in this house) of the
/// shared cells, and the other house's cells outside this one.
#[derive(Debug, Clone)]
struct Meeting {
    shared: u32,
    beyond: Box<[u16]>,
}

/// Most meetings in a family: their shared cells do not overlap and
/// number two or more each.
const MOST_FAMILY_MEETINGS: usize = MOST_HOUSE_CELLS / 2;

impl Family {
    /// The digits of `open` that lie in exactly one meeting's cells and in
    /// no cell the family leaves uncovered; and in `inside`, each
    /// meeting's digits (the union of its shared cells), for the caller
    /// to strike with rather than gather again.
    fn confined(
        &self,
        masks: &[u32; MOST_HOUSE_CELLS],
        open: u32,
        inside: &mut [u32; MOST_FAMILY_MEETINGS],
    ) -> u32 {
        let (mut once, mut twice) = (0u32, 0u32);
        for (meeting, inside) in self.meetings.iter().zip(inside.iter_mut()) {
            *inside = union_at(masks, meeting.shared);
            twice |= once & *inside;
            once |= *inside;
        }
        once & !twice & !union_at(masks, self.uncovered) & open
    }
}

/// The union of the masks at the positions set in `positions` (in a
/// house's padded array, so that no position needs a bounds check). A
/// plain loop over the bits: folding `digits_of` over a slice, checked
/// at each position, took 4 % more instructions on a thermometer puzzle.
#[inline]
fn union_at(masks: &[u32; MOST_HOUSE_CELLS], mut positions: u32) -> u32 {
    let mut union = 0;
    while positions != 0 {
        union |= masks[positions.trailing_zeros() as usize];
        positions &= positions - 1;
    }
    union
}

impl House {
    pub fn new(cells: Box<[u16]>) -> House {
        assert!(
            cells.len() <= MOST_HOUSE_CELLS,
            "a house of distinct digits"
        );
        House {
            cells,
            families: Vec::new(),
        }
    }

    /// Learns that this house meets `other` (a house sharing at least
    /// two of its cells, but not all).
    pub fn meet(&mut self, other: &[u16]) {
        let shared = self
            .cells
            .iter()
            .enumerate()
            .filter(|(_, cell)| other.contains(cell))
            .fold(0u32, |mask, (position, _)| mask | 1 << position);
        let beyond = other
            .iter()
            .copied()
            .filter(|cell| !self.cells.contains(cell))
            .collect();
        // Two shared cells or more, so that a family (its meetings'
        // shared cells apart) holds at most MOST_FAMILY_MEETINGS.
        assert!(shared.count_ones() >= 2, "a meeting of two cells or more");
        let meeting = Meeting { shared, beyond };
        let disjoint = |family: &&mut Family| {
            family
                .meetings
                .iter()
                .all(|other| other.shared & shared == 0)
        };
        match self.families.iter_mut().find(disjoint) {
            Some(family) => {
                family.uncovered &= !shared;
                family.meetings.push(meeting);
            }
            None => {
                let all = u32::MAX >> (32 - self.cells.len());
                self.families.push(Family {
                    meetings: vec![meeting],
                    uncovered: all & !shared,
                });
            }
        }
    }

    /// How many houses this one meets.
    #[cfg(test)]
    pub fn meeting_count(&self) -> usize {
        self.families
            .iter()
            .map(|family| family.meetings.len())
            .sum()
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let mut masks = [0u32; MOST_HOUSE_CELLS];
        let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
        for (mask, &cell) in masks.iter_mut().zip(self.cells.iter()) {
            *mask = grid.mask(cell);
            twice |= once & *mask;
            once |= *mask;
            if is_single(*mask) {
                placed |= *mask;
            }
        }
        if once != grid.all_digits() {
            return Err(Contradiction);
        }
        // Hidden singles: digits with one place, not yet placed there.
        let padded = &masks;
        let masks = &masks[..self.cells.len()];
        for digit in digits_of(once & !twice & !placed).map(|d| 1 << d) {
            if let Some(position) = masks.iter().position(|&mask| mask & digit != 0) {
                grid.narrow(self.cells[position], digit)?;
            }
        }
        // Digits with two places or more (one place is a hidden single,
        // whose peers the engine strikes), and struck from a cell here
        // since this house last ran: one confined before then was
        // pointed then, and the cells beyond only lose digits.
        let open = twice & !placed & grid.dirty();
        if open != 0 {
            self.point(grid, padded, open)?;
        }
        Ok(())
    }

    /// For each house met, strikes from its cells beyond this one the
    /// `open` digits whose places here (`masks`) all lie in the meeting.
    fn point(
        &self,
        grid: &mut Narrowing<'_>,
        masks: &[u32; MOST_HOUSE_CELLS],
        open: u32,
    ) -> Result<(), Contradiction> {
        let mut inside = [0u32; MOST_FAMILY_MEETINGS];
        for family in &self.families {
            let unique = family.confined(masks, open, &mut inside);
            if unique == 0 {
                continue;
            }
            for (meeting, &inside) in family.meetings.iter().zip(inside.iter()) {
                let confined = inside & unique;
                if confined != 0 {
                    for &cell in meeting.beyond.iter() {
                        grid.narrow(cell, !confined)?;
                    }
                }
            }
        }
        Ok(())
    }

    pub fn accepts(&self, masks: &[u32]) -> bool {
        let all = self
            .cells
            .iter()
            .fold(0, |seen, &c| seen | masks[usize::from(c)]);
        all.count_ones() as usize == self.cells.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::search::narrowing::testing;

    const ALL: u32 = 0b11110;

    /// `masks` narrowed by `house`, or `None` on a contradiction.
    fn narrowed(house: &House, masks: Vec<u32>) -> Option<Vec<u32>> {
        testing::narrowed(masks, ALL, |grid| house.propagate(grid))
    }

    #[test]
    fn a_digit_confined_to_where_two_houses_meet_leaves_the_other_house() {
        // A 4×4's first row (cells 0 to 3) meets its first box (0, 1, 4, 5).
        let mut row = House::new(vec![0, 1, 2, 3].into());
        row.meet(&[0, 1, 4, 5]);
        assert_eq!(row.meeting_count(), 1);
        // In the row, 1 can stand only in cells 0 and 1, within the box;
        // 2 also in cell 2, outside it.
        let mut masks = vec![ALL; 16];
        masks[2] = 0b11100;
        masks[3] = 0b11000;
        let masks = narrowed(&row, masks).unwrap();
        assert_eq!(masks[4], ALL & !0b10);
        assert_eq!(masks[5], ALL & !0b10);
        // Nothing else moves: not the row, nor the box's 2.
        assert_eq!(masks[0], ALL);
        assert_eq!(masks[6], ALL);
    }

    #[test]
    fn a_box_points_along_its_rows_and_its_columns_alike() {
        // A 4×4's first box meets two rows and two columns: overlapping
        // meetings, kept in two families.
        let mut square = House::new(vec![0, 1, 4, 5].into());
        for line in [[0, 1, 2, 3], [4, 5, 6, 7], [0, 4, 8, 12], [1, 5, 9, 13]] {
            square.meet(&line);
        }
        assert_eq!(square.families.len(), 2);
        // In the box, 1 stands only in the first row (cells 0 and 1), 2
        // only in the first column (cells 0 and 4); 3 and 4 anywhere.
        let mut masks = vec![ALL; 16];
        masks[0] = ALL;
        masks[1] = ALL & !0b100;
        masks[4] = ALL & !0b10;
        masks[5] = 0b11000;
        let masks = narrowed(&square, masks).unwrap();
        for cell in [2, 3] {
            assert_eq!(masks[cell], ALL & !0b10, "cell {cell}");
        }
        for cell in [8, 12] {
            assert_eq!(masks[cell], ALL & !0b100, "cell {cell}");
        }
        for cell in [6, 7, 9, 13] {
            assert_eq!(masks[cell], ALL, "cell {cell}");
        }
    }

    #[test]
    fn a_digit_also_in_a_cell_no_meeting_of_the_family_covers_is_not_confined() {
        // A 4×4's first row meets its box (cells 0, 1) and an extra
        // region (1, 2, 5, 6) that overlaps the box's meeting, so the
        // region's family leaves the row's cells 0 and 3 uncovered.
        let mut row = House::new(vec![0, 1, 2, 3].into());
        row.meet(&[0, 1, 4, 5]);
        row.meet(&[1, 2, 5, 6]);
        assert_eq!(row.families.len(), 2);
        // 1 stands only in cells 1 and 2, within the region; 2 also in
        // cell 0, which the region's family does not cover; 3 and 4
        // anywhere.
        let mut masks = vec![ALL; 16];
        masks[0] = ALL & !0b10;
        masks[3] = 0b11000;
        let masks = narrowed(&row, masks).unwrap();
        assert_eq!(masks[4], ALL);
        assert_eq!(masks[5], ALL & !0b10);
        assert_eq!(masks[6], ALL & !0b10);
    }

    #[test]
    fn a_digit_with_one_place_left_is_placed_there() {
        let row = House::new(vec![0, 1, 2, 3].into());
        // 1 is placed in cell 0; 4 can stand only in cell 2.
        let (one, two, three, four) = (0b10, 0b100, 0b1000, 0b10000);
        let masks = vec![one, two | three, two | three | four, two | three];
        let masks = narrowed(&row, masks).unwrap();
        assert_eq!(masks, [one, two | three, four, two | three]);
        // 3 and 4 both have only cell 2 left: it cannot hold both.
        let masks = vec![one, two, two | three | four, two];
        assert_eq!(narrowed(&row, masks), None);
    }
}
