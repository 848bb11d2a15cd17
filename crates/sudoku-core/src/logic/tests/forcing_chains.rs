//! Forcing chains: the forcing X-Chain and the forcing chain on hand-made
//! positions, and the dynamic and nested forcing chains at the top of the
//! scale.

use super::*;

#[test]
fn a_forcing_x_chain_removes_a_candidate_whose_assumption_turns_it_off() {
    // 4 in r2c1 takes it from r4c1, which leaves r5c1 the last 4 of box
    // 4, which takes it from r2c1 again: four nodes, 6.6.
    let step = found(&position(STRONG_LINKS), Technique::ForcingXChain);
    let chain = ["r2c1", "r4c1", "r5c1", "r2c1"].map(|name| Mark::new(cell(name), 4));
    assert_eq!(step.pattern, chain);
    assert_eq!(
        (step.rating, step.eliminations.clone()),
        (Rating(66), marks("r2c1=4"))
    );
    assert_true_to(&step, SOLUTION);
}

#[test]
fn a_forcing_chain_follows_cell_and_unit_links_and_gains_a_tenth_past_six_links() {
    // 4 in r1c1 leads through the three bivalue cells back to 5 in r1c1:
    // eight nodes, 7.0 plus a tenth.
    let step = found(&position(XY_WING), Technique::ForcingChain);
    assert_eq!(step.pattern.len(), 8);
    assert_eq!(
        (step.rating, step.eliminations.clone()),
        (Rating(71), marks("r1c1=4"))
    );
    assert_true_to(&step, SOLUTION);
}

/// Sudoku Exchange puzzles whose hardest step is each kind of dynamic
/// forcing chain, with Sukaku Explainer's ER/EP/ED (se-rate.sh, default
/// settings) and the kind it names: "Dynamic Cell/Region/Contradiction/
/// Double Forcing Chains". The last has its first placement only at the
/// hardest step.
pub(crate) const DYNAMIC_CHAINS: [(&str, [u16; 3], Technique); 5] = [
    (
        "16.....49.7..1..3...26.57....6...3...8..6..5..4.9.1.2....8.2.......7....6.8...1.2",
        [87, 12, 12],
        Technique::CellForcingChain,
    ),
    (
        "9....15....4..8.6..8..3.9.....87.1..4...5...9..8.69.....9.8..3..5.9..6....23....7",
        [87, 12, 12],
        Technique::UnitForcingChain,
    ),
    (
        "5.4.2.8.77.......3...7.3.....8.3.9....5.9.4.....6.4...8..3.2..1.2..6..5.6...8...9",
        [89, 12, 12],
        Technique::ContradictionForcingChain,
    ),
    (
        ".4.86......9..25..62.53....15....2...9.....5...3....48....25.73..21..9......98.1.",
        [90, 12, 12],
        Technique::DoubleForcingChain,
    ),
    (
        "....9.....69..1...21...39.43....746...........428....19.71...42...9..83.....5....",
        [92, 92, 26],
        Technique::CellForcingChain,
    ),
];

#[test]
fn dynamic_forcing_chains_rate_as_sukaku_explainer_rates_them() {
    assert_rated_as_sukaku_explainer_rates(&DYNAMIC_CHAINS);
}

/// Inkala's and AI Escargot need chains nested with forcing chains
/// ("Dynamic Contradiction Forcing Chains (+ Forcing Chains)" for Sukaku
/// Explainer).
#[test]
fn the_famous_hardest_puzzles_rate_as_sukaku_explainer_rates_them() {
    assert_rated_as_sukaku_explainer_rates(&[
        (INKALA, [107, 107, 97], Technique::NestedForcingChain),
        (ESCARGOT, [105, 12, 12], Technique::NestedForcingChain),
    ]);
}

/// One of `hardest-se40.txt` (from the forum's list of puzzles rated 11
/// and up): chains nested with static cell and region chains, "Dynamic
/// Contradiction Forcing Chains (+ Multiple Forcing Chains)" at 11.0.
#[test]
fn a_puzzle_from_the_top_of_the_scale_rates_as_sukaku_explainer_rates_it() {
    assert_rated_as_sukaku_explainer_rates(&[(
        "........1..2..3.4..5..6.7.......89....8.2...49..43..8...4..2.9..6.7.....1.......5",
        [110, 110, 109],
        Technique::NestedMultipleForcingChain,
    )]);
}

/// Two of `hardest-top.txt`, where the grader used to stall: both need
/// chains nested with dynamic chains (level 4, 10.5 and up) before their
/// first placement. Sukaku Explainer's hardest step is "Dynamic Cell
/// Forcing Chains (+ Dynamic Forcing Chains)" in the first; in the
/// second, whose level-4 step rates 11.4, a later "Dynamic Contradiction
/// Forcing Chains (+ Multiple Forcing Chains)" at 11.5.
#[test]
fn puzzles_that_need_dynamic_chains_nested_rate_as_sukaku_explainer_rates_them() {
    assert_rated_as_sukaku_explainer_rates(&[
        (
            "........1.....234....15......2...43..36...7..8.......9..7..4.6.2....7...5..98....",
            [116, 116, 26],
            Technique::NestedDynamicForcingChain,
        ),
        (
            "98.7.......6.5.9.........4.6...9.5...3.........5..2.1..6..8.3....3..7..1...4....2",
            [115, 115, 26],
            Technique::NestedMultipleForcingChain,
        ),
    ]);
}

/// Puzzles of the forum's hardest list that need level 4 somewhere on
/// their path, with Sukaku Explainer's ER/EP/ED (`testdata/`: rated here
/// with se-rate.sh, which took two to eight minutes on each).
#[test]
fn the_reference_ratings_of_puzzles_that_need_level_four_hold() {
    let data = include_str!("../../../testdata/se-top-ratings.txt");
    let mut rated = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split_whitespace();
        let text = fields.next().expect("a puzzle");
        let ratings: Vec<u16> = fields
            .next()
            .expect("ER/EP/ED")
            .split('/')
            .map(|r| Rating::at_least(r.parse().expect("a rating")).0)
            .collect();
        let grade = grade(&board(text));
        assert_eq!(
            [grade.rating, grade.pearl, grade.diamond].map(|r| r.0),
            [ratings[0], ratings[1], ratings[2]],
            "{text}"
        );
        assert!(
            grade.techniques.get(Technique::NestedDynamicForcingChain) > 0,
            "{text}"
        );
        rated += 1;
    }
    assert!(rated >= 16, "{rated} reference puzzles");
}
