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

use super::narrowing::{Contradiction, Narrowing, digits_of};

/// Most cells a house may have: one bit each in a position mask (grids
/// go to 25).
const MOST_HOUSE_CELLS: usize = 32;

/// `size` distinct cells, so each digit exactly once.
#[derive(Debug, Clone)]
pub(crate) struct House {
    cells: Box<[u16]>,
    meetings: Vec<Meeting>,
}

/// Where this house meets another: the positions (in this house) of the
/// shared cells, and the other house's cells outside this one.
#[derive(Debug, Clone)]
struct Meeting {
    shared: u32,
    beyond: Box<[u16]>,
}

impl House {
    pub fn new(cells: Box<[u16]>) -> House {
        assert!(
            cells.len() <= MOST_HOUSE_CELLS,
            "a house of distinct digits"
        );
        House {
            cells,
            meetings: Vec::new(),
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
        self.meetings.push(Meeting { shared, beyond });
    }

    /// How many houses this one meets.
    #[cfg(test)]
    pub fn meeting_count(&self) -> usize {
        self.meetings.len()
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
            if mask.is_power_of_two() {
                placed |= *mask;
            }
        }
        if once != grid.all_digits() {
            return Err(Contradiction);
        }
        for digit in digits_of(once & !twice).map(|d| 1 << d) {
            let place = self
                .cells
                .iter()
                .copied()
                .find(|&c| grid.mask(c) & digit != 0);
            if let Some(place) = place {
                grid.narrow(place, digit)?;
            }
        }
        // Digits with two places or more (one place is a hidden single,
        // whose peers the engine strikes).
        let open = twice & !placed;
        if open != 0 {
            self.point(grid, &masks[..self.cells.len()], open)?;
        }
        Ok(())
    }

    /// For each house met, strikes from its cells beyond this one the
    /// `open` digits whose places here (`masks`) all lie in the meeting.
    fn point(
        &self,
        grid: &mut Narrowing<'_>,
        masks: &[u32],
        open: u32,
    ) -> Result<(), Contradiction> {
        for meeting in &self.meetings {
            let (mut inside, mut outside) = (0u32, 0u32);
            for (position, &mask) in masks.iter().enumerate() {
                if meeting.shared & 1 << position != 0 {
                    inside |= mask;
                } else {
                    outside |= mask;
                }
            }
            let confined = inside & !outside & open;
            if confined != 0 {
                for &cell in meeting.beyond.iter() {
                    grid.narrow(cell, !confined)?;
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
}
