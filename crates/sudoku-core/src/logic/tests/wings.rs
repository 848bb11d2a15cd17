//! Wings (XY-, XYZ- and WXYZ-Wing) and aligned pair and triple
//! exclusions: patterns of a few cells that see one another.

use super::*;

// Wings.

#[test]
fn an_xy_wing_removes_the_shared_digit_from_cells_seeing_both_wings() {
    let step = found(&position(XY_WING), Technique::XYWing);
    assert_eq!(
        step.pattern[0].cell,
        cell("r1c1") as u8,
        "the pivot comes first"
    );
    assert_eq!(sorted(&step.eliminations), marks("r5c5=7"));
    assert_true_to(&step, SOLUTION);
}

#[test]
fn an_xyz_wing_removes_the_shared_digit_from_cells_seeing_all_three() {
    // Pivot r1c2 {3,6,7}, wings r2c1 {3,6} and r1c5 {6,7}; r1c3 sees all three.
    let grid = position(
        "r1c2=367 r2c1=36 r1c5=67 r1c3=46 r1c4=6 r7c2=6 r2c2=7 r2c7=3 r9c1=3 r4c5=6 r5c3=6",
    );
    let step = found(&grid, Technique::XYZWing);
    assert_eq!(
        step.pattern[0].cell,
        cell("r1c2") as u8,
        "the pivot comes first"
    );
    assert_eq!(sorted(&step.eliminations), marks("r1c3=6"));
    assert_true_to(&step, SOLUTION);
}

#[test]
fn a_wxyz_wing_removes_the_unrestricted_digit_from_cells_seeing_all_its_places() {
    // r1c1 {5,9}, r1c2 {3,9} and r1c3 {4,9} hold four digits; r4c2 {3,5}
    // sees the only 3 among them (r1c2). If r4c2 is 3, row 1 holds 5, 9
    // and 4 in its three cells, so r1c1 is 5; else r4c2 is 5. Either way
    // a cell seeing r1c1 and r4c2 is not 5.
    let grid = position(
        "r1c1=59 r1c2=39 r1c3=49 r2c2=57 r4c1=58 r4c2=35 r1c7=9 r2c6=5 r3c2=9 r4c3=9 r4c9=3 \
         r6c3=3 r7c1=9",
    );
    let step = found(&grid, Technique::WxyzWing);
    assert_eq!(sorted(&step.eliminations), marks("r2c2=5 r4c1=5"));
    assert_eq!(step.rating, Rating(55));
    assert_true_to(&step, SOLUTION);
}

// Aligned exclusions.

/// Puzzles made by our generator whose hardest step is an aligned pair
/// exclusion, with Sukaku Explainer's ER/EP/ED (se-rate.sh).
pub(super) const ALIGNED_PAIRS: [(&str, [u16; 3], Technique); 3] = [
    (
        "........4.78...1.........86..5.1.........691.29.4....3.4.2.3...836..7...9..6.14..",
        [62, 12, 12],
        Technique::AlignedPairExclusion,
    ),
    (
        ".5...1..6..4.7..8.1....2..7....5.7.......46....7...5.4..1......6..3.....42..9..1.",
        [62, 12, 12],
        Technique::AlignedPairExclusion,
    ),
    (
        ".3..8.5...1.....38..9....7......5.....276.9....59...6.7...4........3..2.82.....53",
        [62, 12, 12],
        Technique::AlignedPairExclusion,
    ),
];

#[test]
fn aligned_pair_exclusion_rates_as_sukaku_explainer_rates_it() {
    assert_rated_as_sukaku_explainer_rates(&ALIGNED_PAIRS);
}

/// Sudoku Exchange puzzles whose hardest step is an aligned triple
/// exclusion, with Sukaku Explainer's ER/EP/ED ("Aligned Triplet
/// Exclusion" for it).
pub(super) const ALIGNED_TRIPLES: [(&str, [u16; 3], Technique); 2] = [
    (
        "...5...4.126....5...8..731...19.6..7....4....4..7.31...743..5...1....836.6...5...",
        [75, 12, 12],
        Technique::AlignedTripleExclusion,
    ),
    (
        "..5.1.7.....8.9..332......4..4..1...6...3...5...7..4..4......989..2.8.....8.6.5..",
        [75, 12, 12],
        Technique::AlignedTripleExclusion,
    ),
];

#[test]
fn aligned_triple_exclusion_rates_as_sukaku_explainer_rates_it() {
    assert_rated_as_sukaku_explainer_rates(&ALIGNED_TRIPLES);
}
