//! SolveVariant, SolveVariantStream and VariantCandidates over a real
//! connection: typed and f-puzzles puzzles give the same certified answer,
//! malformed ones are INVALID_ARGUMENT naming the field, a stream answers
//! each request once and in order, the candidates' cap, and the variant
//! message size limit.

use crate::common::{TestServer, drain};
use sudoku_grpc::pb::{
    self, Outcome, SolveVariantRequest, SolveVariantResponse, VariantCandidatesRequest,
    VariantConstraint, VariantPuzzle, VariantSource, variant_constraint::Kind,
    variant_source::Source,
};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Code, Status};
use tonic_types::{RpcStatusExt, StatusExt};

/// A 6×6 grid (boxes 2 rows by 3 columns) and the one solution of
/// [`six_by_six`].
const SOLUTION_6: &str = "123456456123231564564231312645645312";

/// A 6×6 puzzle with one solution, [`SOLUTION_6`]: a few givens, a killer
/// cage, a thermometer, a white dot and a V.
fn six_by_six() -> VariantPuzzle {
    VariantPuzzle {
        size: 6,
        givens: "1....6...1..2.1.6.56.2......4.6....2".to_string(),
        regions: Vec::new(),
        constraints: vec![
            kind(Kind::KillerCage(pb::KillerCage {
                cells: vec![6, 7],
                sum: Some(9),
            })),
            kind(Kind::Thermometer(pb::Thermometer {
                cells: vec![25, 26, 27],
            })),
            kind(Kind::DifferenceDot(pb::DifferenceDot {
                cells: vec![34, 35],
                difference: 0,
            })),
            kind(Kind::Xv(pb::XvClue {
                cells: vec![12, 13],
                sum: 5,
            })),
        ],
    }
}

/// The same puzzle as f-puzzles JSON.
fn six_by_six_fpuzzles() -> String {
    let givens = six_by_six().givens;
    let rows: Vec<String> = givens
        .as_bytes()
        .chunks(6)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|&c| match c {
                    b'.' => "{}".to_string(),
                    digit => format!(r#"{{"value":{},"given":true}}"#, digit - b'0'),
                })
                .collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    format!(
        r#"{{"size":6,"grid":[{}],
           "killercage":[{{"cells":["R2C1","R2C2"],"value":"9"}}],
           "thermometer":[{{"lines":[["R5C2","R5C3","R5C4"]]}}],
           "difference":[{{"cells":["R6C5","R6C6"]}}],
           "xv":[{{"cells":["R3C1","R3C2"],"value":"V"}}]}}"#,
        rows.join(",")
    )
}

/// An empty 4×4 grid in f-puzzles JSON.
const EMPTY_GRID_4: &str = "[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]";

fn kind(kind: Kind) -> VariantConstraint {
    VariantConstraint { kind: Some(kind) }
}

fn typed(puzzle: VariantPuzzle) -> Option<VariantSource> {
    Some(VariantSource {
        source: Some(Source::Typed(puzzle)),
    })
}

fn fpuzzles(text: &str) -> Option<VariantSource> {
    Some(VariantSource {
        source: Some(Source::Fpuzzles(text.to_string())),
    })
}

fn request(id: &str, puzzle: Option<VariantSource>) -> SolveVariantRequest {
    SolveVariantRequest {
        id: id.to_string(),
        puzzle,
    }
}

async fn solve_variant(
    server: &TestServer,
    puzzle: Option<VariantSource>,
) -> Result<SolveVariantResponse, Status> {
    let mut client = server.client().await;
    Ok(client
        .solve_variant(request("unary", puzzle))
        .await?
        .into_inner())
}

/// Checks that `status` is INVALID_ARGUMENT with a BadRequest violation
/// on `field` whose message contains `words`.
fn assert_invalid(status: &Status, field: &str, words: &str) {
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert!(status.message().contains(words), "{status:?}");
    let violations = status.get_details_bad_request().unwrap().field_violations;
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].field, field, "{status:?}");
}

/// A 4×4 grid with no givens and the anti-knight rule: many solutions.
fn open_four_by_four() -> VariantPuzzle {
    VariantPuzzle {
        size: 4,
        constraints: vec![kind(Kind::AntiKnight(pb::AntiKnight {}))],
        ..VariantPuzzle::default()
    }
}

/// True when `line` is a Latin square of `size` with the standard boxes
/// of a 4×4 (2×2) that keeps the anti-knight rule.
fn is_anti_knight_four(line: &str) -> bool {
    let digits: Vec<u8> = line.bytes().map(|b| b - b'0').collect();
    let at = |r: usize, c: usize| digits[r * 4 + c];
    let houses_distinct = (0..4).all(|i| {
        let row: std::collections::HashSet<u8> = (0..4).map(|c| at(i, c)).collect();
        let column: std::collections::HashSet<u8> = (0..4).map(|r| at(r, i)).collect();
        let boxed: std::collections::HashSet<u8> = (0..4)
            .map(|k| at(i / 2 * 2 + k / 2, i % 2 * 2 + k % 2))
            .collect();
        row.len() == 4 && column.len() == 4 && boxed.len() == 4
    });
    let knights_differ = (0..16).all(|cell| {
        let (r, c) = (cell / 4, cell % 4);
        [(1, 2), (2, 1), (-1, 2), (-2, 1)].iter().all(|&(dr, dc)| {
            let (r2, c2) = (r as i32 + dr, c as i32 + dc);
            !(0..4).contains(&r2)
                || !(0..4).contains(&c2)
                || at(r2 as usize, c2 as usize) != at(r, c)
        })
    });
    digits.len() == 16 && houses_distinct && knights_differ
}

#[tokio::test]
async fn a_typed_puzzle_and_its_fpuzzles_json_get_the_same_certified_solution() {
    let server = TestServer::default().await;
    let from_typed = solve_variant(&server, typed(six_by_six())).await.unwrap();
    assert_eq!(from_typed.id, "unary");
    assert_eq!(from_typed.outcome(), Outcome::Solved, "{from_typed:?}");
    assert_eq!(from_typed.solutions, vec![SOLUTION_6.to_string()]);
    assert!(from_typed.error.is_none());
    assert!(from_typed.stats.is_some());
    let from_json = solve_variant(&server, fpuzzles(&six_by_six_fpuzzles()))
        .await
        .unwrap();
    assert_eq!(from_json.outcome(), Outcome::Solved);
    assert_eq!(from_json.solutions, from_typed.solutions);
}

#[tokio::test]
async fn several_solutions_come_with_two_that_keep_the_rules_and_none_with_none() {
    let server = TestServer::default().await;
    let several = solve_variant(&server, typed(open_four_by_four()))
        .await
        .unwrap();
    assert_eq!(several.outcome(), Outcome::MultipleSolutions);
    assert_eq!(several.solutions.len(), 2);
    assert_ne!(several.solutions[0], several.solutions[1]);
    for solution in &several.solutions {
        assert!(is_anti_knight_four(solution), "{solution}");
    }
    // A cage of two cells summing to 7 on a 4×4 grid: no two digits do.
    let mut none = open_four_by_four();
    none.constraints = vec![kind(Kind::KillerCage(pb::KillerCage {
        cells: vec![0, 1],
        sum: Some(7),
    }))];
    none.givens = "12..............".to_string();
    let answer = solve_variant(&server, typed(none)).await.unwrap();
    assert_eq!(answer.outcome(), Outcome::NoSolution);
    assert!(answer.solutions.is_empty());
}

#[tokio::test]
async fn large_grids_print_digits_past_nine_as_letters() {
    let server = TestServer::default().await;
    let puzzle = VariantPuzzle {
        size: 16,
        givens: "G".to_string() + &".".repeat(255),
        ..VariantPuzzle::default()
    };
    let answer = solve_variant(&server, typed(puzzle)).await.unwrap();
    assert_eq!(answer.outcome(), Outcome::MultipleSolutions);
    let first = &answer.solutions[0];
    assert_eq!(first.len(), 256);
    assert!(first.starts_with('G'), "{first}");
    let row: std::collections::BTreeSet<char> = first[..16].chars().collect();
    assert_eq!(row.into_iter().collect::<String>(), "123456789ABCDEFG");
}

#[tokio::test]
async fn malformed_puzzles_are_invalid_argument_naming_the_field() {
    let server = TestServer::default().await;
    let off_grid = VariantPuzzle {
        size: 4,
        constraints: vec![kind(Kind::Thermometer(pb::Thermometer {
            cells: vec![0, 16],
        }))],
        ..VariantPuzzle::default()
    };
    let huge = VariantPuzzle {
        size: 1000,
        ..VariantPuzzle::default()
    };
    let bad_given = VariantPuzzle {
        size: 4,
        givens: "12x.............".to_string(),
        ..VariantPuzzle::default()
    };
    let unset_direction = VariantPuzzle {
        size: 4,
        constraints: vec![
            kind(Kind::AntiKing(pb::AntiKing {})),
            kind(Kind::Diagonal(pb::Diagonal { direction: 0 })),
        ],
        ..VariantPuzzle::default()
    };
    let impossible_sum = VariantPuzzle {
        size: 4,
        constraints: vec![kind(Kind::KillerCage(pb::KillerCage {
            cells: vec![0, 1],
            sum: Some(99),
        }))],
        ..VariantPuzzle::default()
    };
    let cases = [
        (
            typed(off_grid),
            "puzzle.typed.constraints[0]",
            "cell 16 is outside the 4×4 grid",
        ),
        (typed(huge), "puzzle.typed.size", "1000 cells wide"),
        (typed(bad_given), "puzzle.typed.givens", "'x' at R1C3"),
        (
            typed(unset_direction),
            "puzzle.typed.constraints[1]",
            "`direction` is 0",
        ),
        (typed(impossible_sum), "puzzle.typed.constraints[0]", "99"),
        (fpuzzles("{\"size\":4,"), "puzzle.fpuzzles", "JSON"),
        (
            fpuzzles(&format!(
                r#"{{"size":4,"grid":{EMPTY_GRID_4},"littlekillersum":[{{"cell":"R0C1","cells":["R1C1"],"value":"1"}}]}}"#
            )),
            "puzzle.fpuzzles",
            "littlekillersum: this constraint is not supported",
        ),
        (None, "puzzle", "no puzzle"),
    ];
    for (puzzle, field, words) in cases {
        let answer = solve_variant(&server, puzzle).await;
        let status = answer.expect_err(field);
        assert_invalid(&status, field, words);
    }
}

#[tokio::test]
async fn a_request_over_the_variant_message_limit_is_resource_exhausted() {
    let server = TestServer::default().await;
    let text = format!(
        r#"{{"size":4,"grid":{EMPTY_GRID_4},"title":"{}"}}"#,
        "x".repeat(64 << 10)
    );
    let status = solve_variant(&server, fpuzzles(&text)).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(
        status.message().contains("64 KiB for a variant puzzle"),
        "{status:?}"
    );
    // Just under the limit, the same text is read and its puzzle solved.
    let text = format!(
        r#"{{"size":4,"grid":{EMPTY_GRID_4},"title":"{}"}}"#,
        "x".repeat(60 << 10)
    );
    let answer = solve_variant(&server, fpuzzles(&text)).await.unwrap();
    assert_eq!(answer.outcome(), Outcome::MultipleSolutions);
}

#[tokio::test]
async fn a_stream_answers_each_puzzle_once_in_order_and_goes_on_after_a_bad_one() {
    let server = TestServer::default().await;
    let (sender, receiver) = mpsc::channel(16);
    let mut client = server.client().await;
    let requests = [
        request("typed", typed(six_by_six())),
        request(
            "bad",
            typed(VariantPuzzle {
                size: 7,
                ..VariantPuzzle::default()
            }),
        ),
        request("long-id".repeat(40).as_str(), typed(six_by_six())),
        request("json", fpuzzles(&six_by_six_fpuzzles())),
        request("several", typed(open_four_by_four())),
    ];
    for request in requests {
        sender.send(request).await.unwrap();
    }
    drop(sender);
    let mut responses = client
        .solve_variant_stream(ReceiverStream::new(receiver))
        .await
        .unwrap()
        .into_inner();
    let (responses, end) = drain(&mut responses).await;
    assert!(end.is_none(), "{end:?}");
    let ids: Vec<&str> = responses.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["typed", "bad", "", "json", "several"]);
    let outcomes: Vec<Outcome> = responses.iter().map(|r| r.outcome()).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Solved,
            Outcome::Invalid,
            Outcome::Invalid,
            Outcome::Solved,
            Outcome::MultipleSolutions
        ]
    );
    assert_eq!(responses[0].solutions, [SOLUTION_6]);
    assert_eq!(responses[3].solutions, [SOLUTION_6]);
    let error = responses[1].error.as_ref().unwrap();
    assert_eq!(error.code, Code::InvalidArgument as i32);
    assert!(error.message.contains("7 cells wide"), "{error:?}");
    let violations = error.get_details_bad_request().unwrap().field_violations;
    assert_eq!(violations[0].field, "puzzle.typed.size");
    let error = responses[2].error.as_ref().unwrap();
    assert!(
        error.message.starts_with("id is 280 bytes long"),
        "{error:?}"
    );
}

#[tokio::test]
async fn true_candidates_list_each_cell_s_digits_and_say_when_the_cap_was_reached() {
    let server = TestServer::default().await;
    let mut client = server.client().await;
    let ask = |puzzle: VariantPuzzle, max_solutions: u32| VariantCandidatesRequest {
        puzzle: typed(puzzle),
        max_solutions,
    };
    let unique = client
        .variant_candidates(ask(six_by_six(), 0))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(unique.outcome(), Outcome::Solved);
    let single: Vec<String> = SOLUTION_6.chars().map(String::from).collect();
    assert_eq!(unique.candidates, single);
    assert!(!unique.cap_reached);
    assert_eq!(unique.solutions_found, 1);

    // Given R1C1 = 1 and anti-knight on a 4×4: R1C1's knight cells
    // (R2C3, R3C2) cannot be 1, nor its row, column and box; every other
    // digit turns up somewhere.
    let mut open = open_four_by_four();
    open.givens = "1...............".to_string();
    let all = client
        .variant_candidates(ask(open.clone(), 0))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(all.outcome(), Outcome::MultipleSolutions);
    assert!(!all.cap_reached);
    assert_eq!(all.candidates[0], "1");
    assert!(!all.candidates[6].contains('1'), "{:?}", all.candidates);
    assert!(!all.candidates[9].contains('1'), "{:?}", all.candidates);
    assert!(all.undecided.iter().all(String::is_empty));
    let capped = client
        .variant_candidates(ask(open.clone(), 2))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(capped.outcome(), Outcome::MultipleSolutions);
    assert_eq!(capped.solutions_found, 2);
    if capped.cap_reached {
        assert!(capped.undecided.iter().any(|digits| !digits.is_empty()));
    } else {
        assert_eq!(capped.candidates, all.candidates);
    }
    assert!(all.solutions_found > 2, "{}", all.solutions_found);
    assert!(capped.cap_reached, "two solutions cannot show every digit");
    let status = client.variant_candidates(ask(open, 1)).await.unwrap_err();
    assert_invalid(&status, "max_solutions", "at least 2");
}
