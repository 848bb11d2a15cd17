//! Chains and cycles: the X-Chain and the XY-Chain, the X-Cycle, and the
//! cycles and forcing chains of Sudoku Explainer's 6.5-7.x step.

use super::*;

// Chains.

#[test]
fn an_x_chain_of_three_strong_links_clears_a_cell_seeing_both_ends() {
    // On 7: r4c3=r4c4 - r9c4=r9c8 - r8c8=r8c3, so r4c3 or r8c3 is 7, and
    // r5c3 sees both.
    let grid =
        position("r4c3=79 r4c4=7 r5c3=67 r5c7=7 r6c1=7 r7c6=7 r8c3=7 r8c8=37 r9c4=27 r9c8=7");
    let step = found(&grid, Technique::XChain);
    assert_eq!(step.pattern.len(), 6);
    assert_eq!(sorted(&step.eliminations), marks("r5c3=7"));
    assert_eq!(step.rating, Rating(54), "three strong links, all in rows");
    assert_eq!(step.digits, 1 << 6);
    assert_true_to(&step, SOLUTION);
}

#[test]
fn an_xy_chain_of_four_cells_clears_a_cell_seeing_both_ends() {
    // r2c1 {1,6} - r2c4 {1,8} - r5c4 {5,8} - r5c5 {5,6}: r2c1 or r5c5 is 6.
    let grid = position(
        "r1c6=8 r2c1=16 r2c4=18 r2c9=8 r3c1=1 r4c5=6 r5c1=46 r5c3=6 r5c4=58 r5c5=56 r7c4=5",
    );
    let step = found(&grid, Technique::XYChain);
    assert_eq!(step.pattern.len(), 8);
    assert_eq!(sorted(&step.eliminations), marks("r5c1=6"));
    assert_true_to(&step, SOLUTION);
}

// Cycles and forcing chains (Sudoku Explainer's 6.5-7.x step).

#[test]
fn an_x_cycle_removes_a_digit_that_sees_both_an_on_and_an_off_of_its_loop() {
    // The swordfish's loop on 4 through rows 1, 4 and 8: r6c4 sees r4c4,
    // and r8c4, one of which is 4 whichever way round the loop holds.
    let step = found(&position(SWORDFISH), Technique::XCycle);
    assert_eq!(step.pattern.len(), 6);
    assert_eq!(step.rating, Rating(65));
    assert_eq!(sorted(&step.eliminations), marks("r6c4=4"));
    assert_true_to(&step, SOLUTION);
}

/// Puzzles made by our generator whose hardest step is a cycle or a
/// forcing chain, with Sukaku Explainer's ER/EP/ED (se-rate.sh, default
/// settings) and the name it gives that step.
pub(crate) const CYCLES_AND_CHAINS: [(&str, [u16; 3], Technique); 5] = [
    (
        ".....47.1.7.38.59.5...9..8....14..5..8.......12......96.1.5.9.4...........2.....7",
        [66, 12, 12],
        Technique::YCycle, // Bidirectional Y-Cycle
    ),
    (
        ".1...4..637.5....18.6.....5.89.........92..3...7...2.8.2.3...8..6...9.......8.5..",
        [67, 12, 12],
        Technique::YCycle, // Bidirectional Y-Cycle
    ),
    (
        "82....45..7....8...54.9..3754.....1......73...8.3..5....65........2.3.......69...",
        [70, 12, 12],
        Technique::XYCycle, // Bidirectional Cycle
    ),
    (
        "...2..36......9.2.8....7.....5...73...4......79..45..1.5...46.....1...9...9....43",
        [71, 12, 12],
        Technique::ForcingChain, // Forcing Chain
    ),
    (
        "...3....4.....4...7.39..62...8.657..9.........16......42...7.3.........8.9....5.7",
        [72, 12, 12],
        Technique::ForcingChain, // Forcing Chain
    ),
];

#[test]
fn cycles_and_forcing_chains_rate_as_sukaku_explainer_rates_them() {
    assert_rated_as_sukaku_explainer_rates(&CYCLES_AND_CHAINS);
}

// Found while writing these tests; it pins a bug described in its
// comment, and fails until it is fixed.

#[test]
fn every_chain_the_ladder_calls_an_x_chain_is_about_one_digit() {
    // The search over every kind of link classifies a chain by its strong
    // links only, so one whose strong links all lie in units but whose weak
    // links change digit inside a cell is called an X-Chain and rated as
    // one (5.5 here, where an AIC rates 7.0 and up).
    let (steps, _) = explain_until(&board(MIXED_CHAINS), &never, &|| Duration::ZERO);
    for step in steps.iter().filter(|s| s.technique == Technique::XChain) {
        assert_eq!(step.digits.count_ones(), 1, "{}", step.explanation());
    }
}
