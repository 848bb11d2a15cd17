//! Strong links on one digit: the Skyscraper and the Two-String Kite,
//! and the grouped patterns of two and three strong links.

use super::*;

// Two strong links.

#[test]
fn a_skyscraper_clears_the_cells_that_see_both_of_its_far_ends() {
    // Rows 1 and 4 share column 7; r1c3 or r4c1 is 4, and r2c1 sees both.
    let step = found(&position(STRONG_LINKS), Technique::Skyscraper);
    assert_eq!(sorted(&step.pattern), marks("r1c3=4 r1c7=4 r4c1=4 r4c7=4"));
    assert_eq!(sorted(&step.eliminations), marks("r2c1=4"));
    // The strong links of rows 1 and 4, joined in column 7; the far ends
    // are named.
    assert!(
        step.explanation()
            .contains("(4)r1c3=(4)r1c7-(4)r4c7=(4)r4c1, whose ends are (4)r1c3 and (4)r4c1"),
        "{}",
        step.explanation()
    );
    assert_true_to(&step, SOLUTION);
}

#[test]
fn a_two_string_kite_joins_a_row_and_a_column_in_a_box() {
    // Row 2 and column 7 meet in box 3; r2c1 or r4c7 is 4, and r4c1 sees both.
    let step = found(&position(STRONG_LINKS), Technique::TwoStringKite);
    assert_eq!(sorted(&step.pattern), marks("r1c7=4 r2c1=4 r2c8=4 r4c7=4"));
    assert_eq!(sorted(&step.eliminations), marks("r4c1=4"));
    assert_true_to(&step, SOLUTION);
}

/// Sudoku Exchange puzzles whose hardest step is a grouped two-strong-link
/// pattern, with Sukaku Explainer's ER/EP/ED and its names for them:
/// "Grouped 2 Strong links 101" (a box and a line), "Grouped 2-String
/// Kite 112", "Grouped Skyscraper 111".
pub(super) const GROUPED_STRONG_LINKS: [(&str, [u16; 3], Technique); 6] = [
    (
        ".9......6..689....2.37.6.9.1...2.....549.832.....7...4.2.6.78.9....356..3......5.",
        [43, 12, 12],
        Technique::GroupedTurbotFish,
    ),
    (
        ".........3.59.46.1.4..1..3.2.......7..71634.....2.7....2.8.1.7.8.6...3.2..9...1..",
        [43, 12, 12],
        Technique::GroupedTwoStringKite,
    ),
    (
        ".31.2.96.....6....6..3.1..496.....83............953...4.5...6.9.8.2.4.3..2.5.6.4.",
        [43, 12, 12],
        Technique::GroupedSkyscraper,
    ),
    (
        ".8.926..45.9..8...........3..6.1.....7.4.9.8.....8.1..6...........2..6.19..361.7.",
        [43, 12, 12],
        Technique::GroupedTwoStringKite,
    ),
    (
        "7.9.2.....3.9.6...2...4...317....5...9.7.5.8...6....249...7...2...2.1.9.....5.4.6",
        [43, 12, 12],
        Technique::GroupedSkyscraper,
    ),
    (
        "..1573.9.9..8.........91..76.4....737.8...5.139....6.24..36.........2..4.3.1497..",
        [43, 12, 12],
        Technique::GroupedTurbotFish,
    ),
];

#[test]
fn grouped_strong_links_rate_as_sukaku_explainer_rates_them() {
    assert_rated_as_sukaku_explainer_rates(&GROUPED_STRONG_LINKS);
}

/// Sudoku Exchange puzzles whose hardest step is a grouped pattern of
/// three strong links, with Sukaku Explainer's ER/EP/ED and its names:
/// "Grouped 3-String Kite 1112", "Grouped 3 Strong links 1001" and
/// "Grouped 3 Strong links 2011" (two grouped links).
pub(super) const GROUPED_THREE_LINKS: [(&str, [u16; 3], Technique); 3] = [
    (
        ".9.8..6....7.4...54...63.7...8.....9.59...34.7.....8...7.15...39...7.2....5..6.9.",
        [57, 12, 12],
        Technique::XChain,
    ),
    (
        "5.2...8.7.9..7..1....812......943....39...72..8.....4...84291...........97.....54",
        [57, 12, 12],
        Technique::XChain,
    ),
    (
        "3...5.2.629.3.......6.4.......29..67..2.3.1..48..17.......2.6.......5.749.8.7...3",
        [57, 12, 12],
        Technique::XChain,
    ),
];

#[test]
fn grouped_three_strong_links_rate_as_sukaku_explainer_rates_them() {
    assert_rated_as_sukaku_explainer_rates(&GROUPED_THREE_LINKS);
}
