//! Look-up tables for the band bitboards, computed at compile time.
//!
//! A band is three rows of the grid. For one digit, its candidates in a band
//! are a 27-bit mask: bit `row_in_band * 9 + column`. Box `k` of the band is
//! columns `3k..3k+3`; column `c` is bits `c`, `c + 9` and `c + 18`.

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// The three bits of column 0 in a band; shift left by `c` for column `c`.
pub(super) const COLUMN_0: u32 = 1 | 1 << 9 | 1 << 18;

/// For the nine bits of one row of a band: which of the three boxes (bits
/// 0-2) the row still has a candidate in.
pub(super) const ROW_BOXES: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut row = 0;
    while row < 512 {
        let mut k = 0;
        while k < 3 {
            if (row >> (3 * k)) & 7 != 0 {
                table[row] |= 1 << k;
            }
            k += 1;
        }
        row += 1;
    }
    table
};

/// The six ways a digit can sit in a band: row `r` takes box `PERMUTATIONS[p][r]`.
const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// For a 3×3 matrix of which rows still reach which boxes (bit `row * 3 +
/// box`), the cells of the band that some consistent placement can use: a
/// digit takes one box per row and one row per box. Zero when no placement
/// fits. Masking a digit's band with this entry applies hidden singles and
/// locked candidates between the rows and boxes of the band.
pub(super) const PERMUTATION_MASK: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut matrix = 0;
    while matrix < 512 {
        let mut p = 0;
        while p < 6 {
            let boxes = PERMUTATIONS[p];
            let mut fits = true;
            let mut cells = 0u32;
            let mut row = 0;
            while row < 3 {
                if matrix & (1 << (row * 3 + boxes[row])) == 0 {
                    fits = false;
                }
                cells |= 7 << (row * 9 + boxes[row] * 3);
                row += 1;
            }
            if fits {
                table[matrix] |= cells;
            }
            p += 1;
        }
        matrix += 1;
    }
    table
};

/// For a row/box reachability matrix (as for [`PERMUTATION_MASK`], bit
/// `row * 3 + box`) and the stacks where the band uses a single column (bits
/// 0-2), indexed `matrix << 3 | stacks`: the rows (bits 0-2) left with one
/// cell once the permutation mask is applied. Such a row reaches one box,
/// and that box's stack is down to one column.
pub(super) const SINGLE_CELL_ROWS: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut matrix = 0;
    while matrix < 512 {
        // Reachability after the permutation mask: the fitting permutations.
        let mut after: usize = 0;
        let mut p = 0;
        while p < 6 {
            let boxes = PERMUTATIONS[p];
            let mut bits = 0;
            let mut row = 0;
            while row < 3 {
                bits |= 1 << (row * 3 + boxes[row]);
                row += 1;
            }
            if matrix & bits == bits {
                after |= bits;
            }
            p += 1;
        }
        let mut stacks = 0;
        while stacks < 8 {
            let mut rows = 0u8;
            let mut row = 0;
            while row < 3 {
                let reached = (after >> (row * 3)) & 7;
                if reached.count_ones() == 1 && stacks & reached != 0 {
                    rows |= 1 << row;
                }
                row += 1;
            }
            table[matrix << 3 | stacks] = rows;
            stacks += 1;
        }
        matrix += 1;
    }
    table
};

/// For the nine column bits of a band: the stacks (bits 0-2) where exactly
/// one column is used.
pub(super) const SINGLE_COLUMN_STACKS: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut columns: usize = 0;
    while columns < 512 {
        let mut stack = 0;
        while stack < 3 {
            if ((columns >> (3 * stack)) & 7).count_ones() == 1 {
                table[columns] |= 1 << stack;
            }
            stack += 1;
        }
        columns += 1;
    }
    table
};

/// For three row bits, the cells of those rows in a band.
pub(super) const ROW_CELLS: [u32; 8] = {
    let mut table = [0u32; 8];
    let mut rows = 0;
    while rows < 8 {
        let mut row = 0;
        while row < 3 {
            if rows & (1 << row) != 0 {
                table[rows] |= 0x1FF << (9 * row);
            }
            row += 1;
        }
        rows += 1;
    }
    table
};

/// Builds a table over the nine column bits of a band (the columns a digit
/// can still use there). For each stack of three columns holding exactly
/// `count` of the bits, the entry clears those columns; all else is kept.
const fn stack_clear_table(count: u32) -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut columns = 0;
    while columns < 512 {
        let mut keep = BAND;
        let mut stack = 0;
        while stack < 3 {
            let bits = (columns >> (3 * stack)) & 7;
            if (bits as u32).count_ones() == count {
                let mut c = 0;
                while c < 3 {
                    if bits & (1 << c) != 0 {
                        keep &= !(COLUMN_0 << (3 * stack + c));
                    }
                    c += 1;
                }
            }
            stack += 1;
        }
        table[columns] = keep;
        columns += 1;
    }
    table
}

/// Indexed by the columns a digit can use in one band: the other bands must
/// leave every column that is the band's only choice within its stack.
pub(super) const STACK_SINGLE_CLEAR: [u32; 512] = stack_clear_table(1);

/// Indexed by the union of the columns two bands can use: where that union
/// is exactly two columns of a stack, those two bands fill both, so the third
/// band must leave them.
pub(super) const STACK_PAIR_CLEAR: [u32; 512] = stack_clear_table(2);

/// For a cell of a band (0..27), the band with that cell's other row, box and
/// column cells cleared: placing a digit in the cell keeps only these.
pub(super) const PEERS_CLEAR: [u32; 27] = {
    let mut table = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        let row = cell / 9;
        let column = cell % 9;
        let box_start = column / 3 * 3;
        let box_cells = (7 << box_start) * (1 | 1 << 9 | 1 << 18);
        let peers = (0x1FF << (9 * row)) | box_cells | (COLUMN_0 << column);
        table[cell] = (BAND & !peers) | 1 << cell;
        cell += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_boxes_reports_touched_boxes() {
        assert_eq!(ROW_BOXES[0b000_000_000], 0);
        assert_eq!(ROW_BOXES[0b100_000_001], 0b101);
        assert_eq!(ROW_BOXES[0b010_010_000], 0b110);
    }

    #[test]
    fn permutation_mask_of_a_full_matrix_is_the_whole_band() {
        assert_eq!(PERMUTATION_MASK[0b111_111_111], BAND);
    }

    #[test]
    fn permutation_mask_forces_a_row_that_has_one_box() {
        // Row 0 only reaches box 0, so rows 1 and 2 lose box 0.
        let matrix = 0b111_111_001;
        let expected = 7 | (0o770 << 9) | (0o770 << 18);
        assert_eq!(PERMUTATION_MASK[matrix], expected);
    }

    #[test]
    fn permutation_mask_is_empty_when_two_rows_need_one_box() {
        assert_eq!(PERMUTATION_MASK[0b111_001_001], 0);
        assert_eq!(PERMUTATION_MASK[0b000_111_111], 0);
    }

    #[test]
    fn stack_tables_clear_single_and_paired_columns() {
        // Stack 0 has only column 1; stack 1 columns 3 and 4; stack 2 all three.
        let columns = 0b111_011_010;
        assert_eq!(STACK_SINGLE_CLEAR[columns], BAND & !(COLUMN_0 << 1));
        assert_eq!(
            STACK_PAIR_CLEAR[columns],
            BAND & !(COLUMN_0 << 3 | COLUMN_0 << 4)
        );
    }

    /// The rows of a band mask that hold exactly one cell, the slow way.
    fn single_rows(mask: u32) -> u8 {
        (0..3)
            .filter(|&r| ((mask >> (9 * r)) & 0x1FF).count_ones() == 1)
            .fold(0, |rows, r| rows | 1 << r)
    }

    #[test]
    fn single_cell_rows_agrees_with_counting_on_every_filtered_mask() {
        // Every band mask is too many; a stride through them covers all
        // tables' entries many times over.
        for raw in (0..1u32 << 27).step_by(997) {
            let reach = usize::from(ROW_BOXES[(raw & 0x1FF) as usize])
                | usize::from(ROW_BOXES[((raw >> 9) & 0x1FF) as usize]) << 3
                | usize::from(ROW_BOXES[(raw >> 18) as usize]) << 6;
            let mask = raw & PERMUTATION_MASK[reach];
            if mask == 0 {
                continue;
            }
            let columns = (mask | mask >> 9 | mask >> 18) & 0x1FF;
            let stacks = usize::from(SINGLE_COLUMN_STACKS[columns as usize]);
            assert_eq!(
                SINGLE_CELL_ROWS[reach << 3 | stacks],
                single_rows(mask),
                "mask {mask:#x}"
            );
        }
    }

    #[test]
    fn row_cells_spreads_rows() {
        assert_eq!(ROW_CELLS[0b101], 0x1FF | 0x1FF << 18);
    }

    #[test]
    fn peers_clear_keeps_the_cell_and_non_peers() {
        let keep = PEERS_CLEAR[10]; // row 1, column 1 of the band
        assert_ne!(keep & 1 << 10, 0);
        assert_eq!(keep & 0x1FF << 9, 1 << 10, "row peers go");
        assert_eq!(keep & (COLUMN_0 << 1), 1 << 10, "column peers go");
        assert_eq!(keep & (7 | 7 << 18), 0, "box peers go");
        assert_ne!(keep & 1 << 3, 0, "other boxes stay");
        // 14 peers in the band: 8 in the row, 6 more in the box.
        assert_eq!(keep.count_ones(), 27 - 14);
    }
}
