//! Sets of cells as 81-bit masks, and the unit tables built on them.
//!
//! Every technique asks the same questions: where can digit `d` go in this
//! row, which cells see both of these cells, how many cells of this box
//! still hold a candidate. Answering them with one `u128` per digit turns
//! each question into a few AND and popcount instructions, which is what
//! keeps grading a singles-only puzzle at a few microseconds.

/// A set of cells: bit `i` stands for the cell with row-major index `i`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Cells(pub u128);

impl Cells {
    /// No cells.
    pub const EMPTY: Cells = Cells(0);
    /// All 81 cells.
    pub const ALL: Cells = Cells((1 << 81) - 1);

    /// The set holding one cell.
    pub const fn single(index: usize) -> Cells {
        Cells(1 << index)
    }

    /// The cells whose index is below `index`.
    pub const fn below(index: usize) -> Cells {
        Cells((1 << index) - 1)
    }

    /// How many cells the set holds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds no cell.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set holds the cell with this index.
    pub const fn has(self, index: usize) -> bool {
        self.0 >> index & 1 != 0
    }

    /// The lowest cell index in the set, if any.
    pub fn first(self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }

    /// The cells in increasing index order.
    pub fn iter(self) -> CellIter {
        CellIter(self.0)
    }

    /// Cells in both sets.
    pub const fn and(self, other: Cells) -> Cells {
        Cells(self.0 & other.0)
    }

    /// Cells in either set.
    pub const fn or(self, other: Cells) -> Cells {
        Cells(self.0 | other.0)
    }

    /// Cells of `self` that are not in `other`.
    pub const fn minus(self, other: Cells) -> Cells {
        Cells(self.0 & !other.0)
    }

    /// The cells every cell of the set sees (shares a unit with), the
    /// set's own cells excluded.
    pub fn common_peers(self) -> Cells {
        self.iter()
            .fold(Cells::ALL, |seen, index| seen.and(PEERS[index]))
            .minus(self)
    }

    /// The units that hold every cell of the set, as a mask of unit
    /// indices (none for an empty set).
    pub fn units_holding(self) -> u32 {
        let Some(first) = self.first() else {
            return 0;
        };
        units_of(first)
            .into_iter()
            .filter(|&unit| self.minus(UNITS[unit]).is_empty())
            .fold(0, |mask, unit| mask | 1 << unit)
    }
}

/// Up to 128 items (strong links' ends, say) filed by the units that hold
/// them, one bit set per unit, so that the items sharing a unit with any
/// of a few units are an OR of a few sets, in item order, none twice.
#[derive(Debug, Clone, Copy)]
pub struct ByUnit {
    in_unit: [u128; 27],
}

impl ByUnit {
    /// Item `i` filed under the units of the `i`th mask (as
    /// [`Cells::units_holding`] gives); items past the 128th are left out.
    pub fn new(holders: impl IntoIterator<Item = u32>) -> ByUnit {
        let mut in_unit = [0u128; 27];
        for (item, mut units) in holders.into_iter().take(128).enumerate() {
            while units != 0 {
                in_unit[units.trailing_zeros() as usize] |= 1 << item;
                units &= units - 1;
            }
        }
        ByUnit { in_unit }
    }

    /// The items held by any of `units` (a mask of unit indices), as a bit
    /// set of item numbers.
    pub fn in_any(&self, mut units: u32) -> u128 {
        let mut items = 0;
        while units != 0 {
            items |= self.in_unit[units.trailing_zeros() as usize];
            units &= units - 1;
        }
        items
    }
}

impl FromIterator<usize> for Cells {
    /// The set of the cells with these indices.
    fn from_iter<I: IntoIterator<Item = usize>>(indices: I) -> Cells {
        indices
            .into_iter()
            .fold(Cells::EMPTY, |cells, index| cells.or(Cells::single(index)))
    }
}

/// Iterator over the indices of a [`Cells`] set.
pub struct CellIter(u128);

impl Iterator for CellIter {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(index)
    }
}

/// The three kinds of unit, in the order Sudoku Explainer searches them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// A 3×3 box.
    Box,
    /// A row.
    Row,
    /// A column.
    Column,
}

/// The 27 units as indices into [`UNITS`]: boxes 0-8, rows 9-17, columns
/// 18-26.
pub const BOXES: std::ops::Range<usize> = 0..9;
/// Row units, see [`BOXES`].
pub const ROWS: std::ops::Range<usize> = 9..18;
/// Column units, see [`BOXES`].
pub const COLUMNS: std::ops::Range<usize> = 18..27;

/// The kind of a unit index.
pub fn unit_kind(unit: usize) -> UnitKind {
    match unit / 9 {
        0 => UnitKind::Box,
        1 => UnitKind::Row,
        _ => UnitKind::Column,
    }
}

/// The domain's name for a unit index (numbered from 1).
pub fn unit_name(unit: usize) -> crate::Unit {
    let number = (unit % 9 + 1) as u8;
    match unit_kind(unit) {
        UnitKind::Box => crate::Unit::Box(number),
        UnitKind::Row => crate::Unit::Row(number),
        UnitKind::Column => crate::Unit::Column(number),
    }
}

/// Row, column and box units of a cell index, as unit indices.
pub const fn units_of(index: usize) -> [usize; 3] {
    let row = index / 9;
    let column = index % 9;
    [row / 3 * 3 + column / 3, 9 + row, 18 + column]
}

/// The cell at `position` (0..9) of `unit`, in the unit's order: left to
/// right, top to bottom (row-major in a box).
pub const fn cell_at(unit: usize, position: usize) -> usize {
    match unit {
        0..9 => (unit / 3 * 3 + position / 3) * 9 + unit % 3 * 3 + position % 3,
        9..18 => (unit - 9) * 9 + position,
        _ => position * 9 + (unit - 18),
    }
}

/// The cells of each unit, indexed as in [`BOXES`].
pub const UNITS: [Cells; 27] = {
    let mut units = [Cells::EMPTY; 27];
    let mut index = 0;
    while index < 81 {
        let [b, r, c] = units_of(index);
        units[b].0 |= 1 << index;
        units[r].0 |= 1 << index;
        units[c].0 |= 1 << index;
        index += 1;
    }
    units
};

/// For each cell, the 20 cells it sees.
pub const PEERS: [Cells; 81] = {
    let mut peers = [Cells::EMPTY; 81];
    let mut index = 0;
    while index < 81 {
        let [b, r, c] = units_of(index);
        peers[index].0 = (UNITS[b].0 | UNITS[r].0 | UNITS[c].0) & !(1 << index);
        index += 1;
    }
    peers
};

/// Iterates the digits (1-9) of a 9-bit mask, bit `d - 1` for digit `d`,
/// in increasing order. It visits the set bits only: candidate masks are
/// read this way everywhere, and most hold two or three digits.
pub fn digits(mask: u16) -> impl Iterator<Item = u8> {
    let mut rest = mask & 0x1ff;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let digit = rest.trailing_zeros() as u8 + 1;
        rest &= rest - 1;
        Some(digit)
    })
}

/// The mask bit of a digit 1-9.
pub const fn bit(digit: u8) -> u16 {
    1 << (digit - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_the_set_bits_in_order() {
        // Every mask, bits above the ninth included: each digit whose bit
        // is set, once, in increasing order.
        for mask in 0..=u16::MAX {
            let expected: Vec<u8> = (1..=9u8).filter(|&d| mask & bit(d) != 0).collect();
            assert_eq!(digits(mask).collect::<Vec<_>>(), expected, "{mask:#x}");
        }
    }

    #[test]
    fn a_unit_s_cells_by_position_are_its_cells_in_order() {
        for (unit, cells) in UNITS.iter().enumerate() {
            let listed: Vec<usize> = (0..9).map(|p| cell_at(unit, p)).collect();
            assert_eq!(listed, cells.iter().collect::<Vec<_>>(), "unit {unit}");
        }
    }

    #[test]
    fn every_unit_has_nine_cells_and_every_cell_twenty_peers() {
        assert!(UNITS.iter().all(|unit| unit.len() == 9));
        assert!(PEERS.iter().all(|peers| peers.len() == 20));
        assert!(PEERS[0].has(80 - 8 * 9) && PEERS[0].has(20) && !PEERS[0].has(30));
    }

    #[test]
    fn items_are_found_by_any_unit_that_holds_them() {
        let pair_in_row = Cells::single(0).or(Cells::single(1));
        assert_eq!(pair_in_row.units_holding(), 1 << 0 | 1 << 9);
        assert_eq!(Cells::EMPTY.units_holding(), 0);
        let far = Cells::single(80);
        let filed = ByUnit::new([pair_in_row.units_holding(), far.units_holding()]);
        assert_eq!(filed.in_any(1 << 9), 0b01);
        assert_eq!(filed.in_any(1 << 26 | 1 << 0), 0b11);
        assert_eq!(filed.in_any(1 << 13), 0);
    }

    #[test]
    fn common_peers_of_two_cells_in_a_row_are_the_rest_of_it() {
        let pair = Cells::single(0).or(Cells::single(8));
        assert_eq!(pair.common_peers(), UNITS[9].minus(pair));
    }
}
