//! Hand-made cases, one or more a constraint kind: a small grid, a few
//! givens, the rule, and the true candidates worked out by hand; each case
//! also shows that without the rule the answer differs.

use crate::variant::constraints::*;
use crate::variant::{Constraint, PuzzleParts, Shape, VariantPuzzle, true_candidates};

use super::random::JIGSAW_4;

/// A cell by its name, `R2C3`.
fn at(size: usize, name: &str) -> usize {
    let (row, column) = name[1..].split_once('C').unwrap();
    (row.parse::<usize>().unwrap() - 1) * size + column.parse::<usize>().unwrap() - 1
}

/// A puzzle of `size` with givens by name and constraints.
fn puzzle(size: usize, givens: &[(&str, u8)], constraints: Vec<Constraint>) -> VariantPuzzle {
    let mut digits = vec![0; size * size];
    for &(name, digit) in givens {
        digits[at(size, name)] = digit;
    }
    VariantPuzzle::new(PuzzleParts {
        size,
        givens: digits,
        regions: Vec::new(),
        constraints,
    })
    .unwrap()
}

/// The true candidates of the named cells, as digit lists.
fn candidates(puzzle: &VariantPuzzle, names: &[&str]) -> Vec<Vec<u8>> {
    let found = true_candidates(puzzle, usize::MAX, || false).unwrap();
    let size = puzzle.shape().size();
    names
        .iter()
        .map(|name| {
            let mask = found.possible[at(size, name)];
            (1..=size as u8).filter(|&d| mask & 1 << d != 0).collect()
        })
        .collect()
}

/// The candidates of `names` with the rules, and without them.
fn with_and_without(
    size: usize,
    givens: &[(&str, u8)],
    rules: Vec<Constraint>,
    names: &[&str],
) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    (
        candidates(&puzzle(size, givens, rules), names),
        candidates(&puzzle(size, givens, Vec::new()), names),
    )
}

#[test]
fn a_cage_sum_limits_its_cells_and_a_cage_without_one_forbids_repeats() {
    let cage = Cage {
        cells: vec![at(4, "R1C1"), at(4, "R1C2")],
        sum: Some(3),
    };
    let (with, _) = with_and_without(4, &[], vec![cage.into()], &["R1C1", "R1C2", "R1C3"]);
    assert_eq!(with, [vec![1, 2], vec![1, 2], vec![3, 4]]);
    let unsummed = Cage {
        cells: vec![at(4, "R1C1"), at(4, "R3C3")],
        sum: None,
    };
    let (with, without) = with_and_without(4, &[("R1C1", 1)], vec![unsummed.into()], &["R3C3"]);
    assert_eq!(
        (with, without),
        (vec![vec![2, 3, 4]], vec![vec![1, 2, 3, 4]])
    );
}

#[test]
fn a_thermometer_rises_from_its_bulb() {
    let cells = ["R1C1", "R1C2", "R1C3"].map(|n| at(4, n)).to_vec();
    let (with, _) = with_and_without(
        4,
        &[],
        vec![Thermometer { cells }.into()],
        &["R1C1", "R1C2", "R1C3", "R1C4"],
    );
    assert_eq!(with, [vec![1, 2], vec![2, 3], vec![3, 4], vec![1, 2, 3, 4]]);
}

#[test]
fn an_arrow_sums_its_line_into_its_bulb_not_counting_the_bulb() {
    let arrow = Arrow {
        bulb: vec![at(4, "R1C1")],
        line: vec![at(4, "R2C3"), at(4, "R3C4")],
    };
    let (with, without) = with_and_without(4, &[], vec![arrow.into()], &["R1C1", "R2C3"]);
    assert_eq!(with, [vec![2, 3, 4], vec![1, 2, 3]]);
    assert_eq!(without[0], [1, 2, 3, 4]);
}

#[test]
fn a_pill_spells_a_number_in_its_cells_order() {
    // Two distinct digits in one box sum to 17 at most: the pill reads 1x.
    let arrow = Arrow {
        bulb: vec![at(9, "R1C1"), at(9, "R1C2")],
        line: vec![at(9, "R5C5"), at(9, "R6C6")],
    };
    let found = candidates(&puzzle(9, &[], vec![arrow.into()]), &["R1C1", "R1C2"]);
    assert_eq!(found, [vec![1], vec![2, 3, 4, 5, 6, 7]]);
}

#[test]
fn a_diagonal_holds_distinct_digits_each_way() {
    let (with, without) = with_and_without(
        4,
        &[("R1C1", 1)],
        vec![Diagonal::Negative.into()],
        &["R3C3"],
    );
    assert_eq!(
        (with, without),
        (vec![vec![2, 3, 4]], vec![vec![1, 2, 3, 4]])
    );
    // The positive diagonal runs from R4C1 up to R1C4.
    let (with, _) = with_and_without(
        4,
        &[("R4C1", 1)],
        vec![Diagonal::Positive.into()],
        &["R2C3", "R3C3"],
    );
    assert_eq!(with, [vec![2, 3, 4], vec![1, 2, 3, 4]]);
}

#[test]
fn an_extra_region_holds_distinct_digits() {
    let region = ExtraRegion {
        cells: vec![at(4, "R1C1"), at(4, "R4C4")],
    };
    let (with, without) = with_and_without(4, &[("R1C1", 1)], vec![region.into()], &["R4C4"]);
    assert_eq!(
        (with, without),
        (vec![vec![2, 3, 4]], vec![vec![1, 2, 3, 4]])
    );
}

#[test]
fn disjoint_groups_follow_the_place_in_each_two_by_three_box() {
    // R1C1 and R3C4 are both first in their 2×3 boxes.
    let (with, without) = with_and_without(
        6,
        &[("R1C1", 1)],
        vec![DisjointGroups.into()],
        &["R3C4", "R3C5"],
    );
    assert_eq!(with, [vec![2, 3, 4, 5, 6], vec![1, 2, 3, 4, 5, 6]]);
    assert_eq!(without[0], [1, 2, 3, 4, 5, 6]);
}

#[test]
fn six_by_six_boxes_are_two_rows_tall_and_three_wide() {
    let found = candidates(
        &puzzle(6, &[("R1C1", 1)], Vec::new()),
        &["R2C3", "R2C4", "R3C2"],
    );
    assert_eq!(
        found,
        [
            vec![2, 3, 4, 5, 6],
            vec![1, 2, 3, 4, 5, 6],
            vec![1, 2, 3, 4, 5, 6]
        ]
    );
}

#[test]
fn jigsaw_regions_replace_the_boxes() {
    let mut givens = vec![0; 16];
    givens[at(4, "R2C1")] = 1;
    let jigsaw = VariantPuzzle::new(PuzzleParts {
        size: 4,
        givens,
        regions: JIGSAW_4.to_vec(),
        constraints: Vec::new(),
    })
    .unwrap();
    assert!(jigsaw.has_irregular_regions());
    // R2C1 shares a region with R3C2 in the jigsaw, with R1C2 in boxes.
    assert_eq!(
        candidates(&jigsaw, &["R1C2", "R3C2"]),
        [vec![1, 2, 3, 4], vec![2, 3, 4]]
    );
    let boxes = puzzle(4, &[("R2C1", 1)], Vec::new());
    assert_eq!(
        candidates(&boxes, &["R1C2", "R3C2"]),
        [vec![2, 3, 4], vec![1, 2, 3, 4]]
    );
}

// The whole-grid rules also act far from the cells tested, so these cases
// check the near effect: the digit the rule forbids is gone, and it is
// there without the rule.

#[test]
fn the_chess_rules_keep_a_knight_and_a_king_apart() {
    let (with, without) = with_and_without(
        4,
        &[("R1C1", 1)],
        vec![AntiKnight.into()],
        &["R2C3", "R3C2"],
    );
    assert!(!with[0].contains(&1) && !with[1].contains(&1), "{with:?}");
    assert!(without[0].contains(&1) && without[1].contains(&1));
    let (with, without) =
        with_and_without(6, &[("R2C3", 1)], vec![AntiKing.into()], &["R3C4", "R3C5"]);
    assert!(!with[0].contains(&1) && with[1].contains(&1), "{with:?}");
    assert!(without[0].contains(&1));
}

#[test]
fn non_consecutive_spares_a_pair_with_a_dot() {
    let rules = vec![NonConsecutive.into()];
    let (with, without) = with_and_without(6, &[("R1C1", 1)], rules, &["R1C2", "R2C1"]);
    assert!(!with[0].contains(&2) && !with[1].contains(&2), "{with:?}");
    assert!(without[0].contains(&2));
    // A white dot, or a black one, exempts its pair: 2 beside 1 or 3, and
    // beside 1 or 4. Without the exemption neither pair could be filled.
    let white = Difference {
        cells: [at(9, "R1C1"), at(9, "R1C2")],
        difference: 1,
    };
    let black = Ratio {
        cells: [at(9, "R1C1"), at(9, "R2C1")],
        ratio: 2,
    };
    let rules = vec![NonConsecutive.into(), white.into(), black.into()];
    let found = candidates(&puzzle(9, &[("R1C1", 2)], rules), &["R1C2", "R2C1"]);
    assert!(
        !found[0].is_empty() && found[0].iter().all(|d| [1, 3].contains(d)),
        "{found:?}"
    );
    assert!(
        !found[1].is_empty() && found[1].iter().all(|d| [1, 4].contains(d)),
        "{found:?}"
    );
}

#[test]
fn odd_and_even_cells() {
    let rules = vec![
        Parity { cell: 0, odd: true }.into(),
        Parity {
            cell: 1,
            odd: false,
        }
        .into(),
    ];
    assert_eq!(
        candidates(&puzzle(6, &[], rules), &["R1C1", "R1C2"]),
        [vec![1, 3, 5], vec![2, 4, 6]]
    );
}

#[test]
fn kropki_dots_with_and_without_a_label() {
    let pair = [at(4, "R1C1"), at(4, "R1C2")];
    let three = Difference {
        cells: pair,
        difference: 3,
    };
    assert_eq!(
        candidates(&puzzle(4, &[], vec![three.into()]), &["R1C1"]),
        [vec![1, 4]]
    );
    let two = Ratio {
        cells: pair,
        ratio: 2,
    };
    assert_eq!(
        candidates(&puzzle(4, &[], vec![two.into()]), &["R1C1"]),
        [vec![1, 2, 4]]
    );
    let three = Ratio {
        cells: pair,
        ratio: 3,
    };
    assert_eq!(
        candidates(&puzzle(4, &[], vec![three.into()]), &["R1C1"]),
        [vec![1, 3]]
    );
}

#[test]
fn x_and_v() {
    let pair = [at(6, "R1C1"), at(6, "R1C2")];
    let x = XvSum {
        cells: pair,
        sum: 10,
    };
    assert_eq!(
        candidates(&puzzle(6, &[], vec![x.into()]), &["R1C1"]),
        [vec![4, 6]]
    );
    let v = XvSum {
        cells: pair,
        sum: 5,
    };
    assert_eq!(
        candidates(&puzzle(6, &[], vec![v.into()]), &["R1C1"]),
        [vec![1, 2, 3, 4]]
    );
}

#[test]
fn negative_ratio_forbids_the_ratios_the_dots_use() {
    let (with, without) =
        with_and_without(6, &[("R1C1", 1)], vec![NegativeRatio.into()], &["R1C2"]);
    assert!(!with[0].contains(&2) && with[0].contains(&3), "{with:?}");
    assert!(without[0].contains(&2));
    // With every black dot labelled 3, only ratio 3 is forbidden elsewhere.
    let three = Ratio {
        cells: [at(6, "R6C5"), at(6, "R6C6")],
        ratio: 3,
    };
    let found = candidates(
        &puzzle(6, &[("R1C1", 1)], vec![NegativeRatio.into(), three.into()]),
        &["R1C2"],
    );
    assert!(found[0].contains(&2) && !found[0].contains(&3), "{found:?}");
}

#[test]
fn negative_xv_forbids_fives_and_tens_without_a_letter() {
    let (with, without) = with_and_without(6, &[("R1C1", 4)], vec![NegativeXv.into()], &["R1C2"]);
    assert_eq!(with, [vec![2, 3, 5]]);
    assert_eq!(without, [vec![1, 2, 3, 5, 6]]);
    // A V on the pair exempts it; a kropki dot does not.
    let v = XvSum {
        cells: [at(6, "R1C1"), at(6, "R1C2")],
        sum: 5,
    };
    let dot = Difference {
        cells: [at(6, "R1C1"), at(6, "R2C1")],
        difference: 2,
    };
    let found = candidates(
        &puzzle(
            6,
            &[("R1C1", 4)],
            vec![NegativeXv.into(), v.into(), dot.into()],
        ),
        &["R1C2", "R2C1"],
    );
    assert_eq!(found, [vec![1], vec![2]]);
}

#[test]
fn large_grids_have_their_boxes() {
    for (size, box_rows, box_columns) in [
        (8, 2, 4),
        (10, 2, 5),
        (12, 3, 4),
        (15, 3, 5),
        (16, 4, 4),
        (25, 5, 5),
    ] {
        assert_eq!(
            Shape::new(size).unwrap().box_dims(),
            (box_rows, box_columns)
        );
    }
}

#[test]
fn a_solution_keeps_the_rules_and_a_changed_one_does_not() {
    let thermo = Thermometer {
        cells: vec![at(4, "R1C1"), at(4, "R1C2"), at(4, "R1C3")],
    };
    let puzzle = puzzle(4, &[("R4C4", 1)], vec![thermo.into()]);
    let report = crate::variant::solve_variant(&puzzle, || false).unwrap();
    let solution = &report.solutions[0];
    assert!(crate::variant::keeps_rules(&puzzle, solution));
    // Swapping the thermometer's first two cells breaks it and nothing
    // else (both stay in row 1 and box 1; their columns swap digits, so
    // the columns break too unless checked): the check says no.
    let mut swapped = solution.clone();
    swapped.swap(0, 1);
    assert!(!crate::variant::keeps_rules(&puzzle, &swapped));
    let mut given_moved = solution.clone();
    given_moved[15] = 0;
    assert!(!crate::variant::keeps_rules(&puzzle, &given_moved));
    assert!(!crate::variant::keeps_rules(&puzzle, &solution[..15]));
    let past_the_grid: Vec<u8> = solution.iter().map(|&d| d + 4).collect();
    assert!(!crate::variant::keeps_rules(&puzzle, &past_the_grid));
}
