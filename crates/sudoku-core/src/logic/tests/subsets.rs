//! Subsets: naked and hidden pairs and triples in a unit, and fish
//! (X-Wing, Swordfish), the same locking for one digit across lines.

use super::*;

// Subsets.

#[test]
fn a_naked_pair_removes_its_digits_from_the_rest_of_the_row() {
    let grid = position("r1c1=56 r1c4=56 r1c9=25 r2c1=6 r2c6=5 r7c4=5 r8c9=5 r3c7=5");
    let step = found(&grid, Technique::NakedPair);
    assert_eq!(step.pattern, marks("r1c1=0 r1c4=0"));
    assert_eq!(sorted(&step.eliminations), marks("r1c9=5"));
    assert_true_to(&step, SOLUTION);
    assert_eq!(
        step.explanation(),
        "r1c1 and r1c4 hold only 5 and 6 between them, so no other cell of row 1 can; \
         remove 5 from r1c9."
    );
}

#[test]
fn a_naked_triple_spread_over_three_boxes_clears_its_row() {
    // {5,6}, {6,9}, {5,9} in r1c1, r1c4, r1c7; r1c9 also holds 9.
    let grid = position("r1c1=56 r1c4=69 r1c7=59 r2c1=6 r6c4=9 r2c5=9 r3c7=5 r1c9=29 r9c9=9");
    let step = found(&grid, Technique::NakedTriple);
    assert_eq!(sorted(&step.eliminations), marks("r1c9=9"));
    assert_true_to(&step, SOLUTION);
}

#[test]
fn a_hidden_pair_strips_its_two_cells_of_other_digits() {
    // In box 1, 5 and 7 fit only r1c1 and r2c2.
    let grid =
        position("r1c1=357 r2c2=257 r1c2=3 r9c1=3 r6c1=7 r1c5=7 r2c3=2 r5c2=2 r2c6=5 r4c2=5");
    let step = found(&grid, Technique::HiddenPair);
    assert_eq!(sorted(&step.eliminations), marks("r1c1=3 r2c2=2"));
    assert_true_to(&step, SOLUTION);
}

#[test]
fn a_hidden_triple_strips_its_three_cells_of_other_digits() {
    // In box 1, 5, 7 and 8 fit only r1c1, r2c2 and r3c3, two of them each.
    let grid = position(
        "r1c1=357 r1c2=3 r1c5=7 r2c2=278 r2c3=2 r2c9=8 r3c2=9 r3c3=589 r3c7=5 r4c3=9 \
         r5c2=2 r6c1=7 r8c2=8 r9c1=3 r9c3=5",
    );
    let step = found(&grid, Technique::HiddenTriple);
    assert_eq!(sorted(&step.eliminations), marks("r1c1=3 r2c2=2 r3c3=9"));
    assert_true_to(&step, SOLUTION);
}

// Fish.

#[test]
fn an_x_wing_removes_its_digit_from_the_rest_of_both_columns() {
    // Rows 1 and 4 hold 4 only in columns 3 and 7.
    let grid = position(
        "r1c3=4 r1c7=49 r2c8=4 r4c3=49 r4c7=4 r5c1=4 r7c3=14 r7c9=4 r8c4=4 r8c7=46 r9c2=4",
    );
    let step = found(&grid, Technique::XWing);
    assert_eq!(sorted(&step.pattern), marks("r1c3=4 r1c7=4 r4c3=4 r4c7=4"));
    assert_eq!(sorted(&step.eliminations), marks("r7c3=4 r8c7=4"));
    assert_eq!(step.rating, Technique::XWing.base_rating());
    assert_true_to(&step, SOLUTION);
}

#[test]
fn a_swordfish_removes_its_digit_from_the_rest_of_three_columns() {
    let step = found(&position(SWORDFISH), Technique::Swordfish);
    assert_eq!(
        sorted(&step.pattern),
        marks("r1c3=4 r1c7=4 r4c4=4 r4c7=4 r8c3=4 r8c4=4")
    );
    assert_eq!(sorted(&step.eliminations), marks("r6c4=4"));
    assert_true_to(&step, SOLUTION);
}

#[test]
fn a_swordfish_with_no_two_rows_alike_is_no_x_wing() {
    assert_eq!(find_technique(&position(SWORDFISH), Technique::XWing), None);
}
