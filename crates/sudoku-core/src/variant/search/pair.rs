//! A relation between two cells, as a table: for each digit one cell may
//! hold, the digits the other may hold beside it. Kropki dots, XV, thermo
//! steps and the negative rules all compile to these; two relations on one
//! pair are merged into one table by the builder.

use super::narrowing::{Contradiction, Narrowing, digits_of};

/// Two cells and the digit pairs they may hold.
#[derive(Debug, Clone)]
pub(crate) struct Pair {
    cells: [u16; 2],
    /// `forward[x]`: the digits the second cell may hold when the first
    /// holds `x`.
    forward: Box<[u32]>,
    /// `backward[y]`: the digits the first may hold when the second holds `y`.
    backward: Box<[u32]>,
}

impl Pair {
    pub fn new(first: u16, second: u16, forward: Vec<u32>) -> Pair {
        let mut backward = vec![0u32; forward.len()];
        for (x, &mask) in forward.iter().enumerate().skip(1) {
            for (y, slot) in backward.iter_mut().enumerate().skip(1) {
                if mask & (1 << y) != 0 {
                    *slot |= 1 << x;
                }
            }
        }
        Pair {
            cells: [first, second],
            forward: forward.into(),
            backward: backward.into(),
        }
    }

    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub fn propagate(&self, grid: &mut Narrowing<'_>) -> Result<(), Contradiction> {
        let [first, second] = self.cells;
        grid.narrow(second, supported(&self.forward, grid.mask(first)))?;
        grid.narrow(first, supported(&self.backward, grid.mask(second)))
    }

    pub fn accepts(&self, masks: &[u32]) -> bool {
        let [first, second] = self.cells.map(usize::from);
        let x = masks[first].trailing_zeros() as usize;
        self.forward
            .get(x)
            .is_some_and(|&allowed| allowed & masks[second] != 0)
    }
}

/// The digits `table` allows beside any digit of `mask`.
fn supported(table: &[u32], mask: u32) -> u32 {
    digits_of(mask).fold(0, |allowed, digit| allowed | table[digit as usize])
}
