//! The f-puzzles reader: each key read as f-puzzles means it, every
//! unknown key refused by name, every error naming its field.

use super::{MAX_FPUZZLES_BYTES, read, read_json};
use crate::variant::constraints::*;
use crate::variant::{Constraint, VariantError, VariantPuzzle};

/// A 9×9 f-puzzles document with an empty grid plus `extra` keys.
fn document(extra: &str) -> String {
    let row = format!("[{}]", ["{}"; 9].join(","));
    let grid = vec![row; 9].join(",");
    let comma = if extra.is_empty() { "" } else { "," };
    format!(r#"{{"size":9,"grid":[{grid}]{comma}{extra}}}"#)
}

fn constraints(extra: &str) -> Vec<Constraint> {
    read_json(&document(extra)).unwrap().constraints().to_vec()
}

fn error(text: &str) -> String {
    read(text).unwrap_err().to_string()
}

#[test]
fn each_rule_key_reads_as_its_constraint() {
    let read = constraints(
        r#""killercage":[{"cells":["R1C1","R1C2"],"value":"10"},{"cells":["R2C1"]}],
           "thermometer":[{"lines":[["R3C1","R3C2"],["R3C1","R4C1"]]}],
           "arrow":[{"cells":["R5C5"],"lines":[["R5C5","R5C6","R5C7"]]},{"cells":["R9C1"],"lines":[]}],
           "diagonal+":true,"diagonal-":false,"antiknight":true,"antiking":true,
           "disjointgroups":true,"nonconsecutive":true,
           "extraregion":[{"cells":["R7C7","R8C8"]}],
           "odd":[{"cell":"R1C9"}],"even":[{"cell":"R2C9"}],
           "difference":[{"cells":["R6C1","R6C2"]},{"cells":["R6C3","R6C4"],"value":"3"}],
           "ratio":[{"cells":["R7C1","R7C2"],"value":""}],
           "xv":[{"cells":["R8C1","R8C2"],"value":"X"},{"cells":["R8C3","R8C4"],"value":"v"},{"cells":["R8C5","R8C6"]}],
           "negative":["ratio","xv"],
           "title":"t","author":"a","ruleset":"r","line":[{"lines":[["R1C1","R2C2"]]}],"solution":[1]"#,
    );
    let expected: Vec<Constraint> = vec![
        Cage {
            cells: vec![0, 1],
            sum: Some(10),
        }
        .into(),
        Cage {
            cells: vec![9],
            sum: None,
        }
        .into(),
        Thermometer {
            cells: vec![18, 19],
        }
        .into(),
        Thermometer {
            cells: vec![18, 27],
        }
        .into(),
        // The line starts at the bulb, which is not summed.
        Arrow {
            bulb: vec![40],
            line: vec![41, 42],
        }
        .into(),
        Diagonal::Positive.into(),
        AntiKnight.into(),
        AntiKing.into(),
        DisjointGroups.into(),
        NonConsecutive.into(),
        ExtraRegion {
            cells: vec![60, 70],
        }
        .into(),
        Parity { cell: 8, odd: true }.into(),
        Parity {
            cell: 17,
            odd: false,
        }
        .into(),
        Difference {
            cells: [45, 46],
            difference: 1,
        }
        .into(),
        Difference {
            cells: [47, 48],
            difference: 3,
        }
        .into(),
        Ratio {
            cells: [54, 55],
            ratio: 2,
        }
        .into(),
        XvSum {
            cells: [63, 64],
            sum: 10,
        }
        .into(),
        XvSum {
            cells: [65, 66],
            sum: 5,
        }
        .into(),
        NegativeRatio.into(),
        NegativeXv.into(),
    ];
    let mut sorted_read = read.iter().map(|c| format!("{c:?}")).collect::<Vec<_>>();
    let mut sorted_expected = expected
        .iter()
        .map(|c| format!("{c:?}"))
        .collect::<Vec<_>>();
    sorted_read.sort();
    sorted_expected.sort();
    assert_eq!(sorted_read, sorted_expected);
}

#[test]
fn givens_are_only_the_given_values_and_regions_count_from_zero() {
    let mut rows: Vec<String> = Vec::new();
    for row in 0..4 {
        let cells: Vec<&str> = (0..4)
            .map(|column| match (row, column) {
                (0, 0) => r#"{"value":3,"given":true}"#,
                (0, 1) => r#"{"value":2}"#,
                (1, 1) => r#"{"value":"4","given":true,"centerPencilMarks":[1,2],"c":"red"}"#,
                _ => "{}",
            })
            .collect();
        rows.push(format!("[{}]", cells.join(",")));
    }
    let json = format!(r#"{{"size":4,"grid":[{}]}}"#, rows.join(","));
    let puzzle: VariantPuzzle = read_json(&json).unwrap();
    assert_eq!(&puzzle.givens()[..6], &[3, 0, 0, 0, 0, 4]);
    assert!(!puzzle.has_irregular_regions());
    // Swap R2C2 (box 0) with R1C3 (box 1): the regions are a jigsaw.
    let jigsaw = json
        .replacen(r#""c":"red"}"#, r#""region":1}"#, 1)
        .replacen(
            "[{\"value\":3,\"given\":true},{\"value\":2},{}",
            "[{\"value\":3,\"given\":true},{\"value\":2},{\"region\":0}",
            1,
        );
    let puzzle = read_json(&jigsaw).unwrap();
    assert!(puzzle.has_irregular_regions());
    assert_eq!(puzzle.regions()[2], 0);
    assert_eq!(puzzle.regions()[5], 1);
}

#[test]
fn errors_name_the_field_and_the_cell() {
    let cases = [
        (
            document(r#""killercage":[{"cells":["R1C1","R10C1"]}]"#),
            "killercage[0].cells[1]: R10C1 is outside the 9×9 grid",
        ),
        (
            document(r#""killercage":[{"cells":["R1C1","R1C2"],"value":"30"}]"#),
            "killercage[0]: no 2 distinct digits from 1 to 9 sum to 30",
        ),
        (
            document(r#""killercage":[{"cells":["R1C1"],"value":"1.5"}]"#),
            "killercage[0].value: expected a whole number",
        ),
        (
            document(r#""thermometer":[{"lines":[["R1C1","R1C1"]]}]"#),
            "thermometer[0].lines[0]: the thermometer lists R1C1 twice",
        ),
        (
            document(r#""arrow":[{"cells":["R1C1"],"lines":[["R1C1"]]}]"#),
            "arrow[0].lines[0]: the arrow's line has no cell past its start",
        ),
        (
            document(r#""xv":[{"cells":["R1C1","R1C2"],"value":"Y"}]"#),
            "xv[0].value: expected \"X\" or \"V\"",
        ),
        (
            document(r#""xv":[{"cells":["R1C1","R1C2"],"value":10}]"#),
            "xv[0].value: expected \"X\" or \"V\", not 10",
        ),
        (
            document(r#""arrow":[{"cells":["R1C1"],"lines":[["R1C2","R1C3"]]}]"#),
            "arrow[0].lines[0]: the arrow's line starts at R1C2, outside its bulb",
        ),
        (
            document(r#""ratio":[{"cells":["R1C1"]}]"#),
            "ratio[0].cells: expected 2 cells, found 1",
        ),
        (
            document(r#""negative":["difference"]"#),
            "negative[0]: the negative rule \"difference\" is not supported",
        ),
        (
            document(r#""littlekillersum":[{"cell":"R0C1","value":"5"}]"#),
            "littlekillersum: this constraint is not supported",
        ),
        (
            document(r#""cage":[{"cells":["R1C1"],"value":"DR5"}]"#),
            "cage[0].value: the digital-root cage \"DR5\" is not supported",
        ),
        // A label that starts with a character of several bytes is only
        // drawn (and once read a panic).
        (
            document(r#""cage":[{"cells":["R1C1"],"value":"€R5"}],"x":1"#),
            "x: this constraint is not supported",
        ),
        (
            document("").replacen("{}", r#"{"region":null}"#, 1),
            "grid[0][0].region: R1C1 is in no region",
        ),
        (
            document("").replacen("{}", r#"{"givenPencilMarks":[1]}"#, 1),
            "grid[0][0].givenPencilMarks: R1C1: the cell key \"givenPencilMarks\" is not supported",
        ),
        (
            document("").replacen("{}", r#"{"region":1}"#, 1),
            "regions: region 0 has 8 cells; each of the 9 regions must have 9",
        ),
        (
            document("").replacen("{}", r#"{"value":12,"given":true}"#, 1),
            "grid[0][0].value: R1C1: a given must be a digit from 1 to 9, not 12",
        ),
        (
            document("").replacen(r#""size":9"#, r#""size":1000"#, 1),
            "size: says 1000, but the grid has 9 rows",
        ),
        (
            r#"{"grid":[[{},{}],[{},{}]]}"#.to_string(),
            "grid: a grid 2 cells wide is not supported",
        ),
        (
            r#"{"size":9,"grid":[[{"#.to_string(),
            "JSON: not valid JSON",
        ),
        ("[1,2]".to_string(), "JSON: expected an object"),
    ];
    for (text, expected) in cases {
        let message = error(&text);
        assert!(
            message.starts_with(expected),
            "{message}\nexpected: {expected}"
        );
    }
}

#[test]
fn givens_that_repeat_a_digit_are_refused() {
    let json = document("").replacen("{}", r#"{"value":5,"given":true}"#, 2);
    assert_eq!(
        error(&json),
        "conflicting givens: 5 at R1C1 and at R1C2, both in row 1"
    );
}

#[test]
fn empty_keys_say_nothing_and_unknown_ones_are_refused() {
    assert!(
        constraints(r#""renban":[],"palindrome":null,"killercage":[],"antiknight":false"#)
            .is_empty()
    );
    assert!(
        error(&document(r#""renban":[{"lines":[["R1C1","R1C2"]]}]"#))
            .starts_with("renban: this constraint is not supported")
    );
}

#[test]
fn a_link_reads_as_its_json() {
    // From the lz-string package: a 4×4 with two givens, a cage of 5 on
    // R1C2-R1C3 and the negative diagonal.
    let payload = "N4IgzglgXgpiBcAWANCALhNAbO8QB2A7Ae4GMB7AExgAI0Yw0bBkchFQHMAnCShAbT6gAbgEMsAV1wBGDhCExCCNJ0kBfZMHWaNqgLrJBWozv2Gd5zae3WtIURNwoQ7OQqUqYe/SADWELDicpCLsuIIgpDABYPwgAEpSAMIATGzxSQDMIN72kgggAKwgeqiUECHkhGIAtO5qQA==";
    let from_link = read(&format!("https://f-puzzles.com/?load={payload}")).unwrap();
    assert_eq!(from_link.shape().size(), 4);
    assert_eq!(from_link.givens()[0], 1);
    assert_eq!(from_link.givens()[15], 4);
    // Keys are read in name order.
    assert_eq!(
        from_link.constraints(),
        &[
            Diagonal::Negative.into(),
            Cage {
                cells: vec![1, 2],
                sum: Some(5)
            }
            .into()
        ]
    );
    let encoded = payload.replace('+', "%2B").replace('/', "%2F");
    assert_eq!(
        read(&format!("https://sudokupad.app/fpuzzles{encoded}")).unwrap(),
        from_link
    );
    assert!(
        error("https://f-puzzles.com/?load=N4IgzglgXgpiBcAWANCAL@@@@@@@@@@")
            .starts_with("link: the link's payload does not decode")
    );
}

#[test]
fn oversized_text_is_refused_before_it_is_read() {
    let huge = document(&format!(
        r#""killercage":[{}]"#,
        vec![r#"{"cells":["R1C1"]}"#; 600_000].join(",")
    ));
    assert!(huge.len() > 10_000_000);
    assert!(matches!(
        read(&huge),
        Err(VariantError::TooLong {
            limit: MAX_FPUZZLES_BYTES,
            ..
        })
    ));
}

#[test]
fn text_from_the_puzzle_is_cut_short_in_errors() {
    let key = "k".repeat(60_000);
    let message = error(&document(&format!(r#""{key}":[1]"#)));
    assert!(message.len() < 500, "{} bytes", message.len());
    assert!(message.starts_with("kkkk"), "{message}");
    assert!(
        message.contains("…: this constraint is not supported"),
        "{message}"
    );
    let value = "v".repeat(60_000);
    let message = error(&document(&format!(
        r#""killercage":[{{"cells":["{value}"]}}]"#
    )));
    assert!(message.len() < 500, "{} bytes", message.len());
    assert!(message.contains("is not a cell name"), "{message}");
}
