//! Singles (full house, hidden singles in a box or a line, naked
//! singles) and intersections (pointing and claiming, and their direct
//! forms).

use super::*;

// Singles.

#[test]
fn a_full_house_fills_the_last_empty_cell_of_a_box() {
    let mut cells = *board(SOLUTION).cells();
    cells[cell("r5c5")] = 0;
    let grid = Grid::new(&Board::from_cells(cells).unwrap());
    let step = found(&grid, Technique::FullHouse);
    assert_eq!(step.placements, marks("r5c5=5"));
    assert_eq!(step.rating, Rating(10));
    assert_eq!(
        step.explanation(),
        "r5c5 is the last empty cell of box 5; place 5 in r5c5."
    );
}

#[test]
fn the_first_hidden_single_in_a_box_of_the_classic_puzzle_is_8_in_box_2() {
    let step = found(&Grid::new(&board(CLASSIC)), Technique::HiddenSingleBox);
    assert_eq!(step.placements, marks("r1c6=8"));
    assert_true_to(&step, SOLUTION);
    // Box 2's other blanks are r1c4 and r3c4 (column 4, which holds the
    // 8 at r5c4) and r3c5 and r3c6 (row 3, which holds the 8 at r3c3).
    assert_eq!(step.unit_names(), vec![crate::Unit::Box(2)]);
    assert_eq!(sorted(&step.witnesses), marks("r3c3=8 r5c4=8"));
    assert_eq!(
        step.explanation(),
        "8 has only one place left in box 2: r1c6, since the 8 at r5c4 and the 8 at r3c3 \
         rule out its other blank cells; place 8 in r1c6."
    );
}

#[test]
fn the_first_hidden_single_in_a_line_of_the_classic_puzzle_is_5_in_row_3() {
    let step = found(&Grid::new(&board(CLASSIC)), Technique::HiddenSingleLine);
    assert_eq!(step.placements, marks("r3c7=5"));
    assert_eq!(step.rating, Rating(15));
    assert_eq!(
        step.explanation(),
        "5 has only one place left in row 3: r3c7, since the 5 at r1c1, the 5 at r2c6 and \
         the 5 at r8c9 rule out its other blank cells; place 5 in r3c7."
    );
}

#[test]
fn the_centre_of_the_classic_puzzle_is_a_naked_single() {
    let step = found(&Grid::new(&board(CLASSIC)), Technique::NakedSingle);
    assert_eq!(step.placements, marks("r5c5=5"));
    assert_eq!(
        step.explanation(),
        "r5c5 has no candidate left but 5, since it sees the 1 at r5c9, the 2 at r6c5, the 3 \
         at r5c6, the 4 at r5c1, the 6 at r4c5, the 7 at r1c5, the 8 at r5c4 and the 9 at \
         r2c5; place 5 in r5c5."
    );
}

// Intersections.

/// 5 in box 1 only in row 1 (r1c1, r1c2); r1c9 holds 5 too.
const POINTING: &str = "r1c1=5 r1c2=35 r1c9=25 r4c2=5 r8c9=5 r3c7=5";

#[test]
fn pointing_removes_a_digit_confined_to_one_row_of_a_box_from_the_rest_of_the_row() {
    let step = found(&position(POINTING), Technique::Pointing);
    assert_eq!(step.pattern, marks("r1c1=5 r1c2=5"));
    assert_eq!(sorted(&step.eliminations), marks("r1c9=5"));
    assert_true_to(&step, SOLUTION);
}

#[test]
fn direct_pointing_places_the_hidden_single_its_elimination_leaves() {
    // Without 5 in r1c9, box 3 has one place left for it.
    let step = found(&position(POINTING), Technique::DirectPointing);
    assert_eq!(step.placements, marks("r3c7=5"));
    assert!(step.eliminations.is_empty());
    assert_true_to(&step, SOLUTION);
}

#[test]
fn claiming_removes_a_digit_confined_to_one_box_of_a_row_from_the_rest_of_the_box() {
    // Row 1 has 5 only in r1c1 and r1c2, both in box 1; r2c3 holds 5 too.
    let grid = position("r1c1=5 r1c2=35 r2c3=25 r4c2=5 r9c3=5 r2c6=5");
    let step = found(&grid, Technique::Claiming);
    assert_eq!(sorted(&step.eliminations), marks("r2c3=5"));
    assert_true_to(&step, SOLUTION);
}

#[test]
fn direct_claiming_places_the_hidden_single_its_elimination_leaves() {
    // Claiming takes 5 out of r2c3, which leaves row 2 one place for it.
    let grid = position("r1c1=5 r1c2=35 r2c3=25 r4c2=5 r9c3=5 r2c6=5");
    let step = found(&grid, Technique::DirectClaiming);
    assert_eq!(step.placements, marks("r2c6=5"));
    assert_true_to(&step, SOLUTION);
    assert!(
        step.explanation()
            .ends_with("that leaves 5 one place in its unit, r2c6; place 5 in r2c6."),
        "{}",
        step.explanation()
    );
}
