//! Hints on a player's position, the pencil marks a position is read
//! from, and the sentences steps are explained with.

use super::*;

// The grid.

#[test]
fn pencil_marks_read_back_as_the_same_grid_and_bad_marks_are_refused() {
    let grid = position(XY_WING);
    let text = grid.marks_text();
    assert_eq!(Grid::with_marks(&grid.board(), &text), Ok(grid.clone()));
    assert_eq!(
        Grid::with_marks(&grid.board(), "123"),
        Err(MarksError::Length(3))
    );
    let mut wrong = text.clone();
    wrong.replace_range(10..11, "x");
    let refused = Grid::with_marks(&grid.board(), &wrong);
    assert_eq!(
        refused,
        Err(MarksError::Character {
            position: 10,
            found: 'x',
            expected: 2
        })
    );
    assert_eq!(
        refused.unwrap_err().to_string(),
        "character 11 of the marks, digit 2 of r1c2, is 'x': it must be 2 while a candidate, \
         or '.' (or '0') where crossed out"
    );
    // Characters, not bytes: 729 characters with one of two bytes are
    // the right length, and the one out of place is named.
    let mut accented = text.clone();
    accented.replace_range(728..729, "é");
    assert_eq!(
        Grid::with_marks(&grid.board(), &accented),
        Err(MarksError::Character {
            position: 728,
            found: 'é',
            expected: 9
        })
    );
    assert_eq!(
        Grid::with_marks(&grid.board(), &format!("{}é", &text[..727])),
        Err(MarksError::Length(728))
    );
}

// Hints.

fn classic_with(index: usize, digit: u8) -> Board {
    let mut cells = *board(CLASSIC).cells();
    cells[index] = digit;
    Board::from_cells(cells).expect("digits")
}

#[test]
fn a_wrong_digit_in_the_progress_is_the_mistake_the_hint_names() {
    let (givens, solution) = (board(CLASSIC), board(SOLUTION));
    let progress = classic_with(cell("r1c3"), 1);
    let answer = hint(&givens, &solution, Some(&progress), None, &never);
    assert_eq!(answer, Ok(Hint::Mistake(Mark::new(cell("r1c3"), 1))));
}

#[test]
fn a_crossed_out_solution_digit_is_the_mistake_the_hint_names() {
    let (givens, solution) = (board(CLASSIC), board(SOLUTION));
    let mut marks = Grid::new(&givens).marks_text().into_bytes();
    marks[cell("r1c3") * 9 + 3] = b'.'; // the 4 the solution puts there
    let marks = String::from_utf8(marks).expect("ASCII");
    let answer = hint(&givens, &solution, None, Some(marks.as_str()), &never);
    assert_eq!(answer, Ok(Hint::Mistake(Mark::new(cell("r1c3"), 4))));
}

#[test]
fn progress_that_changes_or_clears_a_given_is_refused() {
    let (givens, solution) = (board(CLASSIC), board(SOLUTION));
    let refused = Err(PositionError::GivenChanged {
        cell: Cell::new(0).unwrap(),
        given: 5,
    });
    for value in [6, 0] {
        let progress = classic_with(0, value);
        assert_eq!(
            hint(&givens, &solution, Some(&progress), None, &never),
            refused
        );
    }
    let short = hint(&givens, &solution, None, Some("123"), &never);
    assert_eq!(short, Err(PositionError::Marks(MarksError::Length(3))));
}

#[test]
fn a_solved_position_needs_no_hint_and_one_out_of_time_gets_none() {
    let (givens, solution) = (board(CLASSIC), board(SOLUTION));
    assert_eq!(
        hint(&givens, &solution, Some(&solution), None, &never),
        Ok(Hint::Solved)
    );
    let inkala = board(INKALA);
    let answer = hint(&inkala, &solution_of(&inkala), None, None, &|| true);
    assert_eq!(answer, Ok(Hint::Stalled));
}

#[test]
fn following_each_hint_with_its_marks_solves_the_puzzle() {
    let givens = board(WINGS);
    let solution = solution_of(&givens);
    let mut grid = Grid::new(&givens);
    for _ in 0..81 * 2 {
        let (progress, marks) = (grid.board(), grid.marks_text());
        match hint(
            &givens,
            &solution,
            Some(&progress),
            Some(marks.as_str()),
            &never,
        ) {
            Ok(Hint::Solved) => {
                assert_eq!(progress, solution);
                return;
            }
            Ok(Hint::Step(step)) => {
                grid = Grid::with_marks(&progress, &marks).expect("marks read back");
                step.apply(&mut grid);
            }
            other => panic!("{} gave {other:?}", grid.board()),
        }
    }
    panic!("the hints did not reach the solution");
}

// Found while writing these tests; each pins a bug described in its
// comment, and fails until it is fixed.

#[test]
fn a_single_s_witnesses_leave_out_the_places_crossed_out_earlier() {
    // Box 1's 4 goes in r1c3: the 4 at r5c1 rules out r3c1, and the
    // player crossed 4 out of r2c2 and r2c3, which no placed 4 sees.
    let mut text = "123456789".repeat(81).into_bytes();
    for name in ["r2c2", "r2c3", "r3c1"] {
        text[cell(name) * 9 + 3] = b'.';
    }
    let text = String::from_utf8(text).unwrap();
    let (givens, solution) = (board(CLASSIC), board(SOLUTION));
    let Ok(Hint::Step(step)) = hint(&givens, &solution, None, Some(&text), &never) else {
        panic!("a step");
    };
    assert_eq!(step.witnesses, marks("r5c1=4"));
    assert_eq!(
        step.explanation(),
        "4 has only one place left in box 1: r1c3, since the 4 at r5c1 rules out some of its \
         other blank cells and r2c2 and r2c3 lost 4 earlier; place 4 in r1c3."
    );
}

#[test]
fn a_wrong_digit_is_named_even_where_it_crosses_out_an_earlier_cell_s_digit() {
    // 4 in r2c3 is wrong (the solution has 2) and crosses out r1c3's 4,
    // the solution's digit there: the hint should name the placement the
    // player made, not a mark they never touched.
    let (givens, solution) = (board(CLASSIC), board(SOLUTION));
    let progress = classic_with(cell("r2c3"), 4);
    let answer = hint(&givens, &solution, Some(&progress), None, &never);
    assert_eq!(answer, Ok(Hint::Mistake(Mark::new(cell("r2c3"), 4))));
}

#[test]
fn an_xy_wing_explanation_names_the_pivot_apart_from_the_wings() {
    // The pattern lists the pivot's two candidates first, so slicing off
    // one mark leaves the pivot among the wings.
    let step = found(&position(XY_WING), Technique::XYWing);
    assert_eq!(
        step.explanation(),
        "whichever digit the pivot r1c1 takes, one of the wings r1c5 and r5c1 holds 7: \
         (7)r1c5=(5)r1c5-(5)r1c1=(4)r1c1-(4)r5c1=(7)r5c1; remove 7 from r5c5."
    );
}
