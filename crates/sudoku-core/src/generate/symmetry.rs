//! The symmetries a generated puzzle's givens may have, and the orbits
//! (sets of cells each symmetry maps onto one another) that generation
//! empties together, so that every puzzle it makes keeps the symmetry.

use std::sync::OnceLock;

/// A symmetry of the pattern of givens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// No symmetry required.
    #[default]
    None,
    /// Unchanged by a half turn about the centre.
    Rotate180,
    /// Unchanged by a quarter turn.
    Rotate90,
    /// Unchanged by swapping left and right.
    Mirror,
    /// Unchanged by swapping top and bottom.
    Flip,
    /// Unchanged by reflection in the main diagonal (r1c1 to r9c9).
    Diagonal,
    /// Unchanged by reflection in the other diagonal (r1c9 to r9c1).
    Antidiagonal,
}

impl Symmetry {
    /// Every symmetry, in the order of the proto's enum.
    pub const ALL: [Symmetry; 7] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::Antidiagonal,
    ];

    /// The cells the symmetry's generating move takes `cell` to.
    fn image(self, cell: usize) -> usize {
        let (row, column) = (cell / 9, cell % 9);
        let (row, column) = match self {
            Symmetry::None => (row, column),
            Symmetry::Rotate180 => (8 - row, 8 - column),
            Symmetry::Rotate90 => (column, 8 - row),
            Symmetry::Mirror => (row, 8 - column),
            Symmetry::Flip => (8 - row, column),
            Symmetry::Diagonal => (column, row),
            Symmetry::Antidiagonal => (8 - column, 8 - row),
        };
        row * 9 + column
    }

    /// The orbits of the 81 cells, each in increasing order, listed by
    /// their first cell.
    pub fn orbits(self) -> Vec<Vec<usize>> {
        let mut seen = [false; 81];
        let mut orbits = Vec::new();
        for start in 0..81 {
            if seen[start] {
                continue;
            }
            let mut orbit = vec![start];
            seen[start] = true;
            let mut next = self.image(start);
            while !seen[next] {
                seen[next] = true;
                orbit.push(next);
                next = self.image(next);
            }
            orbit.sort_unstable();
            orbits.push(orbit);
        }
        orbits
    }

    /// The orbits of [`Symmetry::orbits`] as masks of cells (bit `cell`),
    /// worked out once: what generation empties, orbit by orbit.
    pub fn orbit_masks(self) -> &'static [u128] {
        static MASKS: [OnceLock<Vec<u128>>; Symmetry::ALL.len()] =
            [const { OnceLock::new() }; Symmetry::ALL.len()];
        MASKS[self as usize].get_or_init(|| {
            self.orbits()
                .iter()
                .map(|orbit| orbit.iter().fold(0, |mask, &cell| mask | 1 << cell))
                .collect()
        })
    }

    /// True when the pattern of `cells` that are non-zero has this
    /// symmetry.
    pub fn holds_for(self, cells: &[u8; 81]) -> bool {
        (0..81).all(|cell| (cells[cell] != 0) == (cells[self.image(cell)] != 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_cover_every_cell_once_with_the_sizes_each_symmetry_gives() {
        let sizes = [
            (Symmetry::None, 81),
            (Symmetry::Rotate180, 41),
            (Symmetry::Rotate90, 21),
            (Symmetry::Mirror, 45),
            (Symmetry::Flip, 45),
            (Symmetry::Diagonal, 45),
            (Symmetry::Antidiagonal, 45),
        ];
        for (symmetry, count) in sizes {
            let orbits = symmetry.orbits();
            assert_eq!(orbits.len(), count, "{symmetry:?}");
            let mut cells: Vec<usize> = orbits.concat();
            cells.sort_unstable();
            assert_eq!(cells, (0..81).collect::<Vec<_>>(), "{symmetry:?}");
            let masks = symmetry.orbit_masks();
            assert_eq!(masks.len(), count, "{symmetry:?}");
            for (orbit, &mask) in orbits.iter().zip(masks) {
                let cells: Vec<usize> = (0..81).filter(|&cell| mask & 1 << cell != 0).collect();
                assert_eq!(&cells, orbit, "{symmetry:?}");
            }
        }
    }

    #[test]
    fn a_pattern_of_whole_orbits_has_the_symmetry_and_half_an_orbit_breaks_it() {
        for symmetry in Symmetry::ALL.into_iter().skip(1) {
            let orbit = symmetry
                .orbits()
                .into_iter()
                .find(|orbit| orbit.len() > 1)
                .expect("a symmetry moves some cell");
            let mut cells = [0u8; 81];
            for &cell in &orbit {
                cells[cell] = 5;
            }
            assert!(symmetry.holds_for(&cells), "{symmetry:?}");
            cells[orbit[0]] = 0;
            assert!(!symmetry.holds_for(&cells), "{symmetry:?}");
        }
    }
}
