//! The grader on whole puzzles: ratings in tenths, levels, the hardest
//! technique, pearl and diamond (EP/ED), stopping when told to, ceilings.

use super::*;

// The grader.

#[test]
fn puzzles_of_box_singles_grade_1_2_and_easy() {
    for text in [CLASSIC, BOX_SINGLES] {
        let puzzle = board(text);
        let grade = grade(&puzzle);
        assert_eq!(grade.rating, Rating(12), "{text}");
        assert_eq!(grade.hardest, Some(Technique::HiddenSingleBox));
        assert_eq!(grade.level(), Level::Easy);
        assert_eq!(grade.stalled, None);
        let used: Vec<Technique> = grade.techniques.iter().map(|(t, _)| t).collect();
        assert_eq!(used, [Technique::FullHouse, Technique::HiddenSingleBox]);
        let steps: u32 = grade.techniques.iter().map(|(_, count)| count).sum();
        assert_eq!(
            steps as usize,
            81 - puzzle.given_count(),
            "one single per blank cell"
        );
    }
}

#[test]
fn a_puzzle_that_needs_a_hidden_single_in_a_line_is_medium() {
    let grade = grade(&board(LINE_SINGLES));
    assert_eq!(grade.rating, Rating(15));
    assert_eq!(grade.hardest, Some(Technique::HiddenSingleLine));
    assert_eq!(grade.level(), Level::Medium);
}

#[test]
fn a_puzzle_that_needs_an_xy_wing_is_hard_and_rated_by_it() {
    let grade = grade(&board(WINGS));
    assert_eq!(grade.rating, Technique::XYWing.base_rating());
    assert_eq!(grade.hardest, Some(Technique::XYWing));
    assert_eq!(grade.level(), Level::Hard);
    assert_eq!(grade.stalled, None);
    for technique in [Technique::XWing, Technique::NakedTriple, Technique::XYWing] {
        assert!(
            grade.techniques.get(technique) > 0,
            "{technique} is on the path: {:?}",
            grade.techniques
        );
    }
}

/// Puzzles of the Sudoku Exchange bank (public domain), each with the
/// ER/EP/ED Sukaku Explainer gives it (in tenths) and the technique of our
/// hardest step, written with 0 for a blank as the bank writes them.
pub(super) const RATED: [(&str, [u16; 3], Technique); 6] = [
    (
        "000310000060097040001420300030000502786000139502000060003059700020680010000074000",
        [56, 12, 12],
        Technique::WxyzWing,
    ),
    (
        "000000000007010200800603001005908300000040000020000050001762500500000008060000020",
        [64, 12, 12],
        Technique::VwxyzWing,
    ),
    (
        "040901050600000001150000027004708500071000230003000600000216000000803000010070060",
        [66, 12, 12],
        Technique::UvwxyzWing,
    ),
    (
        "502070430000400050000020700400502073000010000970603001008050000010004000059030807",
        [78, 12, 12],
        Technique::NishioForcingChain,
    ),
    (
        "003010800900050006700040003000104000070000050090578020040000080107000905502090407",
        [83, 12, 12],
        Technique::StaticCellForcingChain,
    ),
    (
        "009107300704000908030000060078000530000308000400000009500409003800070005001000400",
        [84, 12, 12],
        Technique::StaticCellForcingChain,
    ),
];

#[test]
fn wings_of_almost_locked_sets_and_nishio_and_static_chains_rate_as_sukaku_explainer() {
    assert_rated_as_sukaku_explainer_rates(&RATED);
}

/// Puzzles of top1465 whose first step is not a single, with Sukaku
/// Explainer's ER/EP/ED for them (`se-rate.sh`, default settings), in
/// tenths; and a singles-only puzzle.
const PEARLS_AND_DIAMONDS: [(&str, [u16; 3]); 4] = [
    (
        ".2.4....94..189.......62.5......63..3..94.5.......8.1..........8.2..4...964.....7",
        [56, 50, 26],
    ),
    (
        "..1...5.....2.9......8..3..53..4...........726.........2.1...894...3.............",
        [40, 34, 26],
    ),
    (
        "7...3........5.6....4....9.2.....7.1...9.8......4.....53....2.....1...8..6.......",
        [40, 20, 20],
    ),
    (CLASSIC, [12, 12, 12]),
];

#[test]
fn pearl_and_diamond_are_sukaku_explainer_s() {
    for (text, [rating, pearl, diamond]) in PEARLS_AND_DIAMONDS {
        let grade = grade(&board(text));
        assert_eq!(
            [grade.rating, grade.pearl, grade.diamond],
            [rating, pearl, diamond].map(Rating),
            "{text}"
        );
    }
}

#[test]
fn a_stall_before_any_step_gives_pearl_and_diamond_the_rating() {
    let grade = grade_until(&board(INKALA), &|| true, &|| Duration::ZERO);
    assert!(grade.stalled.is_some());
    assert_eq!([grade.pearl, grade.diamond], [grade.rating; 2]);
}

#[test]
fn a_full_board_grades_zero_with_no_hardest_technique() {
    let grade = grade(&board(SOLUTION));
    assert_eq!(
        (grade.rating, grade.hardest, grade.stalled),
        (Rating(0), None, None)
    );
    assert_eq!(grade.techniques.iter().count(), 0);
    assert_eq!(grade.level(), Level::Easy);
}

#[test]
fn grading_stops_at_the_first_hard_step_once_told_to() {
    let elapsed = Duration::from_millis(7);
    let grade = grade_until(&board(INKALA), &|| true, &|| elapsed);
    assert_eq!(grade.stalled, Some(Stall::OutOfTime { elapsed }));
    assert_eq!((grade.rating, grade.hardest), (Rating(0), None));
    // Singles need no time check: a singles-only puzzle still finishes.
    let grade = grade_until(&board(CLASSIC), &|| true, &|| elapsed);
    assert_eq!((grade.rating, grade.stalled), (Rating(12), None));
}

#[test]
fn grading_within_a_ceiling_gives_up_exactly_on_puzzles_rated_above_it() {
    let puzzles = [CLASSIC, BOX_SINGLES, LINE_SINGLES, WINGS, MIXED_CHAINS];
    for puzzle in puzzles.into_iter().chain(MADE) {
        let whole = grade(&board(puzzle));
        assert_eq!(whole.stalled, None, "{puzzle}");
        for ceiling in [10, 12, 14, 15, 24, 30, 42, 49, 70, 100].map(Rating) {
            let within = grade_within(&board(puzzle), ceiling, &|| false);
            if whole.rating > ceiling {
                assert_eq!(within, None, "{puzzle} under {ceiling}");
            } else {
                assert_eq!(within, Some(whole), "{puzzle} under {ceiling}");
            }
        }
    }
}

#[test]
fn ratings_are_sudoku_explainer_s_in_tenths() {
    let ratings = [
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::NakedSingle,
        Technique::XWing,
        Technique::XYWing,
        Technique::Bug1,
    ]
    .map(|t| t.base_rating());
    assert_eq!(ratings, [10, 12, 23, 32, 42, 56].map(Rating));
    assert_eq!(Rating(32).to_string(), "3.2");
    assert!((Rating(32).value() - 3.2).abs() < 1e-9);
}

#[test]
fn a_solved_grid_offers_no_step_of_any_technique() {
    let grid = Grid::new(&board(SOLUTION));
    for &technique in Technique::ALL {
        assert_eq!(find_technique(&grid, technique), None, "{technique}");
    }
}
