//! Variant puzzles through the service: a request's puzzle (the typed
//! message, or f-puzzles text) made into a domain puzzle, the jobs that
//! certify it or find its true candidates within the time budget, and
//! their answers as messages.
//!
//! A request's puzzle is read on the worker that solves it, not on the
//! async runtime: f-puzzles text may be a compressed link that decodes to
//! 256 KiB of JSON. What a decoded request holds until then is counted by
//! [`held_bytes`], the charge a stream item carries.

use std::time::{Duration, Instant};

use super::error::{ServiceError, rpc_status};
use super::limits::MAX_VARIANT_HELD_BYTES;
use super::logic_messages::pb_outcome;
use crate::domain::variant::constraints::{
    AntiKing, AntiKnight, Arrow, Cage, Diagonal, Difference, DisjointGroups, ExtraRegion,
    NegativeRatio, NegativeXv, NonConsecutive, Parity, Ratio, Thermometer, XvSum,
};
use crate::domain::variant::{
    Constraint, Place, PuzzleParts, Shape, TrueCandidates, VariantError, VariantPuzzle,
    VariantReport, digit_char, digits_line, fpuzzles, solve_variant, true_candidates,
};
use crate::domain::{GaveUp, Outcome, Stopped, TimeLimits};
use crate::pb::{self, variant_constraint::Kind, variant_source::Source};
use crate::pool::CancelCheck;
use tonic::Status;

/// A certified variant puzzle and the time the worker spent on it.
#[derive(Debug, Clone)]
pub struct VariantSolved {
    report: VariantReport,
    elapsed: Duration,
}

impl VariantSolved {
    /// What the search found.
    pub fn outcome(&self) -> Outcome {
        self.report.outcome
    }
}

/// A variant puzzle's true candidates and the time the worker spent.
#[derive(Debug, Clone)]
pub struct VariantCandidates {
    found: TrueCandidates,
    elapsed: Duration,
}

impl VariantCandidates {
    /// What the candidates say of the solutions. The cap is at least two
    /// solutions, so a search stopped at it has found several.
    pub fn outcome(&self) -> Outcome {
        self.found.outcome().unwrap_or(Outcome::MultipleSolutions)
    }
}

/// The job that certifies one variant puzzle: reads it, then searches
/// for two solutions within `limits`' solve budget.
pub fn solve_variant_job(
    source: Option<pb::VariantSource>,
    limits: TimeLimits,
    cancel: &CancelCheck,
) -> Result<VariantSolved, ServiceError> {
    let started = Instant::now();
    let puzzle = read_source(source)?;
    let report = within_budget(started, limits, cancel, |stop| solve_variant(&puzzle, stop))?;
    Ok(VariantSolved {
        report,
        elapsed: started.elapsed(),
    })
}

/// The job that finds a variant puzzle's true candidates, finding at most
/// `max_solutions` solutions on the way (0: no cap), within `limits`'
/// solve budget.
pub fn candidates_job(
    source: Option<pb::VariantSource>,
    max_solutions: u32,
    limits: TimeLimits,
    cancel: &CancelCheck,
) -> Result<VariantCandidates, ServiceError> {
    let started = Instant::now();
    let cap = solutions_cap(max_solutions)?;
    let puzzle = read_source(source)?;
    let found = within_budget(started, limits, cancel, |stop| {
        true_candidates(&puzzle, cap, stop)
    })?;
    Ok(VariantCandidates {
        found,
        elapsed: started.elapsed(),
    })
}

/// The cap on solutions a candidates search may find: none for 0, and at
/// least two, so that a search stopped at the cap knows the puzzle has
/// several.
fn solutions_cap(max_solutions: u32) -> Result<usize, ServiceError> {
    match max_solutions {
        0 => Ok(usize::MAX),
        1 => Err(ServiceError::InvalidVariant {
            field: "max_solutions".to_string(),
            error: VariantError::malformed(
                Place::Field("max_solutions".to_string()),
                "must be 0 (no cap) or at least 2: with one solution found, the cap \
                 could not tell one solution from several",
            ),
        }),
        cap => Ok(cap as usize),
    }
}

/// Runs a search with a stop check that says stop once the job is
/// cancelled or `limits`' solve budget, counted from `started`, is spent;
/// a stopped search is given up (or cancelled).
fn within_budget<T>(
    started: Instant,
    limits: TimeLimits,
    cancel: &CancelCheck,
    search: impl FnOnce(&dyn Fn() -> bool) -> Result<T, Stopped>,
) -> Result<T, ServiceError> {
    let deadline = limits.solve.and_then(|budget| started.checked_add(budget));
    let out_of_time = || deadline.is_some_and(|deadline| Instant::now() >= deadline);
    search(&|| cancel.is_cancelled() || out_of_time()).map_err(|stopped| {
        if cancel.is_cancelled() {
            return ServiceError::Cancelled;
        }
        ServiceError::GaveUp(GaveUp {
            elapsed: started.elapsed(),
            guesses: stopped.guesses,
            budget: limits.solve.unwrap_or_default(),
        })
    })
}

/// The domain puzzle a request carries, or what is wrong with it and in
/// which field.
pub fn read_source(source: Option<pb::VariantSource>) -> Result<VariantPuzzle, ServiceError> {
    match source.and_then(|source| source.source) {
        Some(Source::Typed(typed)) => {
            read_typed(typed).map_err(|error| ServiceError::InvalidVariant {
                field: format!("puzzle.typed.{}", field_of(&error)),
                error,
            })
        }
        Some(Source::Fpuzzles(text)) => {
            fpuzzles::read(&text).map_err(|error| ServiceError::InvalidVariant {
                field: "puzzle.fpuzzles".to_string(),
                error,
            })
        }
        None => Err(ServiceError::InvalidVariant {
            field: "puzzle".to_string(),
            error: VariantError::malformed(
                Place::Field("puzzle".to_string()),
                "no puzzle: set `typed` or `fpuzzles`",
            ),
        }),
    }
}

/// The field of the typed message a domain error points at.
fn field_of(error: &VariantError) -> String {
    let place = match error {
        VariantError::UnsupportedSize { place, .. } | VariantError::Malformed { place, .. } => {
            place
        }
        VariantError::ConflictingGivens { .. } | VariantError::TooLong { .. } => &Place::Givens,
    };
    match place {
        Place::Constraint { index, .. } => format!("constraints[{index}]"),
        other => other.to_string(),
    }
}

/// The typed message as a domain puzzle.
fn read_typed(typed: pb::VariantPuzzle) -> Result<VariantPuzzle, VariantError> {
    let size = match typed.size {
        0 => 9,
        size => size as usize,
    };
    let shape = Shape::new(size).ok_or(VariantError::UnsupportedSize {
        place: Place::Size,
        size,
    })?;
    let givens = PuzzleParts::givens_from_line(shape, &typed.givens)?;
    let regions = typed
        .regions
        .iter()
        .enumerate()
        .map(|(cell, &region)| {
            u8::try_from(region)
                .ok()
                .filter(|&r| usize::from(r) < size)
                .ok_or_else(|| {
                    VariantError::malformed(
                        Place::Regions,
                        format!(
                            "cell {cell} is in region {region}, but a {size}×{size} grid has \
                         regions 0 to {}",
                            size - 1
                        ),
                    )
                })
        })
        .collect::<Result<Vec<u8>, VariantError>>()?;
    let constraints = typed
        .constraints
        .into_iter()
        .enumerate()
        .map(|(index, constraint)| {
            read_constraint(constraint).map_err(|(kind, problem)| {
                VariantError::malformed(Place::Constraint { index, kind }, problem)
            })
        })
        .collect::<Result<Vec<Constraint>, VariantError>>()?;
    VariantPuzzle::new(PuzzleParts {
        size,
        givens,
        regions,
        constraints,
    })
}

/// One typed constraint as the domain's, or its kind's name and what is
/// wrong with it (the domain checks the rest when the puzzle is made).
fn read_constraint(
    constraint: pb::VariantConstraint,
) -> Result<Constraint, (&'static str, String)> {
    let cells = |cells: Vec<u32>| cells.into_iter().map(|cell| cell as usize).collect();
    let kind = constraint
        .kind
        .ok_or(("constraint", "no kind set".to_string()))?;
    Ok(match kind {
        Kind::KillerCage(cage) => Cage {
            cells: cells(cage.cells),
            sum: cage.sum,
        }
        .into(),
        Kind::Thermometer(thermometer) => Thermometer {
            cells: cells(thermometer.cells),
        }
        .into(),
        Kind::Arrow(arrow) => Arrow {
            bulb: cells(arrow.bulb),
            line: cells(arrow.line),
        }
        .into(),
        Kind::Diagonal(diagonal) => match diagonal.direction() {
            pb::DiagonalDirection::Positive => Diagonal::Positive.into(),
            pb::DiagonalDirection::Negative => Diagonal::Negative.into(),
            pb::DiagonalDirection::Unspecified => {
                return Err(("diagonal", unset("direction", diagonal.direction)));
            }
        },
        Kind::ExtraRegion(region) => ExtraRegion {
            cells: cells(region.cells),
        }
        .into(),
        Kind::DisjointGroups(_) => DisjointGroups.into(),
        Kind::AntiKnight(_) => AntiKnight.into(),
        Kind::AntiKing(_) => AntiKing.into(),
        Kind::NonConsecutive(_) => NonConsecutive.into(),
        Kind::Parity(parity) => Parity {
            cell: parity.cell as usize,
            odd: match parity.parity() {
                pb::CellParity::Odd => true,
                pb::CellParity::Even => false,
                pb::CellParity::Unspecified => {
                    return Err(("parity", unset("parity", parity.parity)));
                }
            },
        }
        .into(),
        Kind::DifferenceDot(dot) => Difference {
            cells: pair("difference dot", dot.cells)?,
            difference: nonzero_or(dot.difference, 1),
        }
        .into(),
        Kind::RatioDot(dot) => Ratio {
            cells: pair("ratio dot", dot.cells)?,
            ratio: nonzero_or(dot.ratio, 2),
        }
        .into(),
        Kind::Xv(clue) => XvSum {
            cells: pair("xv", clue.cells)?,
            sum: clue.sum,
        }
        .into(),
        Kind::NegativeRatio(_) => NegativeRatio.into(),
        Kind::NegativeXv(_) => NegativeXv.into(),
    })
}

/// What an enum field left unset (or set to a value this server does not
/// know) says.
fn unset(field: &str, value: i32) -> String {
    format!("`{field}` is {value}, which is not one of its values (it must be set)")
}

/// `value`, or `default` for 0.
fn nonzero_or(value: u32, default: u32) -> u32 {
    if value == 0 { default } else { value }
}

/// The two cells of a clue between two cells.
fn pair(kind: &'static str, cells: Vec<u32>) -> Result<[usize; 2], (&'static str, String)> {
    match cells[..] {
        [a, b] => Ok([a as usize, b as usize]),
        _ => Err((kind, format!("has {} cells; it joins two", cells.len()))),
    }
}

/// The bytes a decoded request's puzzle holds until a worker reads it:
/// its text, or the typed message's strings and lists at their capacity.
/// At most [`MAX_VARIANT_HELD_BYTES`] for any request the server reads.
pub fn held_bytes(source: &Option<pb::VariantSource>) -> usize {
    let held = match source.as_ref().and_then(|source| source.source.as_ref()) {
        None => 0,
        Some(Source::Fpuzzles(text)) => text.capacity(),
        Some(Source::Typed(typed)) => typed_held_bytes(typed),
    };
    held.min(MAX_VARIANT_HELD_BYTES)
}

/// [`held_bytes`] of the typed message.
fn typed_held_bytes(typed: &pb::VariantPuzzle) -> usize {
    let list = |cells: &Vec<u32>| cells.capacity() * size_of::<u32>();
    let inner: usize = typed
        .constraints
        .iter()
        .map(|constraint| match &constraint.kind {
            Some(Kind::KillerCage(cage)) => list(&cage.cells),
            Some(Kind::Thermometer(thermometer)) => list(&thermometer.cells),
            Some(Kind::Arrow(arrow)) => list(&arrow.bulb) + list(&arrow.line),
            Some(Kind::ExtraRegion(region)) => list(&region.cells),
            Some(Kind::DifferenceDot(dot)) => list(&dot.cells),
            Some(Kind::RatioDot(dot)) => list(&dot.cells),
            Some(Kind::Xv(clue)) => list(&clue.cells),
            _ => 0,
        })
        .sum();
    typed.givens.capacity()
        + list(&typed.regions)
        + typed.constraints.capacity() * size_of::<pb::VariantConstraint>()
        + inner
}

/// The stream response (or the unary one, with an empty id) for one
/// puzzle: its answer, or the error that replaced it.
pub fn variant_response(
    id: String,
    answer: Result<VariantSolved, ServiceError>,
) -> pb::SolveVariantResponse {
    match answer {
        Ok(solved) => pb::SolveVariantResponse {
            id,
            outcome: pb_outcome(solved.report.outcome) as i32,
            solutions: solved
                .report
                .solutions
                .iter()
                .map(|digits| digits_line(digits))
                .collect(),
            error: None,
            stats: Some(stats(solved.report.guesses, solved.elapsed)),
        },
        Err(error) => pb::SolveVariantResponse {
            id,
            outcome: pb_outcome(error.outcome()) as i32,
            solutions: Vec::new(),
            error: Some(rpc_status(&Status::from(error))),
            stats: None,
        },
    }
}

impl From<VariantCandidates> for pb::VariantCandidatesResponse {
    fn from(candidates: VariantCandidates) -> Self {
        let outcome = pb_outcome(candidates.outcome()) as i32;
        let found = candidates.found;
        pb::VariantCandidatesResponse {
            outcome,
            candidates: found.possible.iter().map(|&mask| mask_text(mask)).collect(),
            undecided: found
                .undecided
                .iter()
                .map(|&mask| mask_text(mask))
                .collect(),
            solutions_found: found.solutions_found as u64,
            cap_reached: found.cap_reached,
            stats: Some(stats(found.guesses, candidates.elapsed)),
        }
    }
}

/// A cell's digits (bit `d` for digit `d`) as their characters, in order.
fn mask_text(mask: u32) -> String {
    (1..=25u8)
        .filter(|&digit| mask & (1 << digit) != 0)
        .map(digit_char)
        .collect()
}

/// The stats message.
fn stats(guesses: u64, elapsed: Duration) -> pb::SolveStats {
    pb::SolveStats {
        guesses,
        solve_time: prost_types::Duration::try_from(elapsed).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::limits::{
        MAX_ID_BYTES, MAX_VARIANT_MESSAGE_BYTES, MAX_VARIANT_RESPONSE_BYTES, VARIANT_ANSWER_BYTES,
    };
    use prost::Message;

    /// A request of `constraints` constraints, each `make(i)`, decoded from
    /// its bytes as the server decodes it.
    fn decoded(count: usize, make: impl Fn(usize) -> pb::VariantConstraint) -> (usize, usize) {
        let puzzle = pb::VariantPuzzle {
            constraints: (0..count).map(make).collect(),
            ..Default::default()
        };
        let request = pb::SolveVariantRequest {
            id: String::new(),
            puzzle: Some(pb::VariantSource {
                source: Some(Source::Typed(puzzle)),
            }),
        };
        let bytes = request.encode_to_vec();
        let decoded = pb::SolveVariantRequest::decode(&bytes[..]).unwrap();
        let held = match decoded.puzzle.as_ref().and_then(|s| s.source.as_ref()) {
            Some(Source::Typed(typed)) => typed_held_bytes(typed),
            _ => unreachable!(),
        };
        (bytes.len(), held)
    }

    #[test]
    fn the_largest_decoded_request_holds_no_more_than_its_bound() {
        let empty = |_| pb::VariantConstraint::default();
        let one_cell = |i: usize| pb::VariantConstraint {
            kind: Some(Kind::Thermometer(pb::Thermometer {
                cells: vec![i as u32 % 100],
            })),
        };
        let knights = |_| pb::VariantConstraint {
            kind: Some(Kind::AntiKnight(pb::AntiKnight {})),
        };
        for make in [&empty as &dyn Fn(usize) -> _, &one_cell, &knights] {
            // As many as a message under the limit carries.
            let (mut fits, mut over) = (1, MAX_VARIANT_MESSAGE_BYTES);
            while over - fits > 1 {
                let middle = (fits + over) / 2;
                if decoded(middle, make).0 <= MAX_VARIANT_MESSAGE_BYTES {
                    fits = middle;
                } else {
                    over = middle;
                }
            }
            let (bytes, held) = decoded(fits, make);
            assert!(bytes > MAX_VARIANT_MESSAGE_BYTES - 8, "{bytes}");
            assert!(bytes <= MAX_VARIANT_MESSAGE_BYTES);
            assert!(
                held <= MAX_VARIANT_HELD_BYTES,
                "{held} > {MAX_VARIANT_HELD_BYTES}"
            );
            assert!(held > bytes, "held bytes are counted: {held} for {bytes}");
        }
    }

    #[test]
    fn the_largest_answers_fit_their_allowances() {
        let solution: Vec<u8> = (0..625).map(|cell| (cell % 25 + 1) as u8).collect();
        let solved = VariantSolved {
            report: VariantReport {
                outcome: Outcome::MultipleSolutions,
                solutions: vec![solution.clone(), solution],
                guesses: u64::MAX,
            },
            elapsed: Duration::from_secs(u32::MAX as u64),
        };
        let response = variant_response("i".repeat(MAX_ID_BYTES), Ok(solved));
        assert!(response.encoded_len() <= VARIANT_ANSWER_BYTES);
        // The longest message the domain makes: a field and a problem
        // taken from the puzzle, cut short, in three-byte characters.
        let refused = ServiceError::InvalidVariant {
            field: "puzzle.fpuzzles".to_string(),
            error: VariantError::malformed(Place::Field("界".repeat(60_000)), "界".repeat(60_000)),
        };
        let response = variant_response("i".repeat(MAX_ID_BYTES), Err(refused));
        assert!(
            response.encoded_len() <= VARIANT_ANSWER_BYTES,
            "{}",
            response.encoded_len()
        );
        let all = VariantCandidates {
            found: TrueCandidates {
                possible: vec![u32::MAX; 625],
                undecided: vec![u32::MAX; 625],
                solutions_found: usize::MAX,
                cap_reached: true,
                guesses: u64::MAX,
            },
            elapsed: Duration::from_secs(u32::MAX as u64),
        };
        let response = pb::VariantCandidatesResponse::from(all);
        assert_eq!(response.candidates[0].len(), 25);
        assert!(response.encoded_len() <= MAX_VARIANT_RESPONSE_BYTES);
    }

    #[test]
    fn the_candidates_cap_is_none_or_at_least_two() {
        assert_eq!(solutions_cap(0).unwrap(), usize::MAX);
        assert_eq!(solutions_cap(2).unwrap(), 2);
        let refused = solutions_cap(1).unwrap_err();
        assert!(refused.to_string().starts_with("max_solutions: must be 0"));
    }
}
