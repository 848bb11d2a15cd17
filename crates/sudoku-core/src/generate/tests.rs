//! Generation's guarantees: one solution, the symmetry, minimality, the
//! target, and the same puzzles from the same seed.

use super::*;
use crate::solve_board;

/// The first puzzle that meets `request`, trying the seeds from `seed` on
/// until `give_up` says stop: the puzzle, or how many attempts failed.
/// (The server and the command line walk the seeds in jobs; this is the
/// same walk, one attempt at a time.)
fn generate(
    request: &Request,
    mut seed: u64,
    give_up: &dyn Fn(u64) -> bool,
) -> Result<Generated, u64> {
    let mut attempts = 0;
    loop {
        if let Some(generated) = attempt(request, seed) {
            return Ok(generated);
        }
        attempts += 1;
        if give_up(attempts) {
            return Err(attempts);
        }
        seed = next_seed(seed);
    }
}

fn minimal(symmetry: Symmetry) -> Request {
    Request {
        symmetry,
        minimal: true,
        ..Request::default()
    }
}

#[test]
fn every_symmetry_gives_unique_minimal_symmetric_puzzles_of_their_solution() {
    for symmetry in Symmetry::ALL {
        for seed in 1..4 {
            let made = attempt(&minimal(symmetry), seed).expect("no target to miss");
            let report = solve_board(&made.puzzle, None, || false).unwrap();
            assert_eq!(report.outcome, Outcome::Solved, "{symmetry:?} {seed}");
            assert_eq!(report.solution, Some(made.solution));
            assert!(made.solution.keeps_givens_of(&made.puzzle));
            assert!(symmetry.holds_for(made.puzzle.cells()), "{symmetry:?}");
            assert!(is_minimal(&made.puzzle, symmetry), "{symmetry:?} {seed}");
            assert_eq!(made.grade, Some(logic::grade(&made.puzzle)));
            assert_eq!(made.seed, seed);
        }
    }
}

#[test]
fn the_same_seed_makes_the_same_puzzle_and_other_seeds_other_puzzles() {
    let request = minimal(Symmetry::Rotate180);
    let first = attempt(&request, 99).unwrap();
    assert_eq!(attempt(&request, 99).unwrap(), first);
    let puzzles: std::collections::HashSet<String> = (0..50)
        .map(|seed| attempt(&request, seed).unwrap().puzzle.to_line())
        .collect();
    assert_eq!(puzzles.len(), 50);
}

#[test]
fn without_minimal_emptying_stops_early_and_keeps_more_givens() {
    let loose = Request {
        symmetry: Symmetry::Rotate180,
        ..Request::default()
    };
    let givens = |request: &Request| -> usize {
        (0..20)
            .map(|seed| attempt(request, seed).unwrap().puzzle.given_count())
            .sum()
    };
    assert!(givens(&loose) > givens(&minimal(Symmetry::Rotate180)));
}

#[test]
fn a_target_is_met_and_its_seed_makes_that_puzzle_first() {
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        let request = Request {
            level: Some(level),
            symmetry: Symmetry::Rotate180,
            minimal: level != Level::Easy,
            ..Request::default()
        };
        let made = generate(&request, 5, &|attempts| attempts > 2000).expect("found in time");
        assert_eq!(made.grade.as_ref().map(Grade::level), Some(level));
        assert_eq!(generate(&request, made.seed, &|_| true), Ok(made));
    }
    let bounded = Request {
        min_rating: Some(Rating(26)),
        max_rating: Some(Rating(36)),
        minimal: true,
        ..Request::default()
    };
    let made = generate(&bounded, 1, &|attempts| attempts > 2000).unwrap();
    assert!((Rating(26)..=Rating(36)).contains(&made.grade.unwrap().rating));
}

#[test]
fn skipping_the_grade_makes_the_same_puzzles_without_one() {
    for seed in 0..20 {
        let graded = attempt(&minimal(Symmetry::Rotate180), seed).unwrap();
        let skipping = Request {
            skip_grade: true,
            ..minimal(Symmetry::Rotate180)
        };
        let made = attempt(&skipping, seed).unwrap();
        assert_eq!(made.grade, None);
        assert!(graded.grade.is_some());
        assert_eq!(
            (made.puzzle, made.solution),
            (graded.puzzle, graded.solution)
        );
    }
}

#[test]
fn a_request_that_skips_the_grade_cannot_ask_for_a_level_or_rating() {
    let skipping = Request {
        skip_grade: true,
        ..Request::default()
    };
    assert_eq!(skipping.check(), Ok(()));
    for target in [
        Request {
            level: Some(Level::Hard),
            ..skipping
        },
        Request {
            min_rating: Some(Rating(30)),
            ..skipping
        },
        Request {
            max_rating: Some(Rating(30)),
            ..skipping
        },
    ] {
        assert_eq!(target.check(), Err(RequestError::TargetWithoutGrade));
    }
}

#[test]
fn rating_bounds_admit_exactly_the_tenths_within_them() {
    let tenths = |low: u16, high: u16| Ok((Some(Rating(low)), Some(Rating(high))));
    assert_eq!(rating_bounds(Some(1.45), Some(1.55)), tenths(15, 15));
    assert_eq!(rating_bounds(Some(0.7), Some(7.3)), tenths(7, 73));
    assert_eq!(
        rating_bounds(None, Some(20.0)),
        Ok((None, Some(Rating(200))))
    );
    assert_eq!(rating_bounds(Some(1.4), None), Ok((Some(Rating(14)), None)));
    for (min, max) in [(1.45, 1.45), (1.41, 1.49)] {
        assert_eq!(
            rating_bounds(Some(min), Some(max)),
            Err(BoundError::NoTenthWithin { min, max })
        );
    }
    // A ceiling under the easiest rating is quoted as given, not as the
    // tenth it would admit.
    for max in [0.99, 0.5, 0.0] {
        let low = rating_bounds(None, Some(max)).unwrap_err();
        assert_eq!(low, BoundError::MaxBelowEasiest { max });
        assert!(
            low.to_string()
                .starts_with(&format!("{max:?} is below 1.0"))
        );
    }
    assert_eq!(rating_bounds(None, Some(1.0)), Ok((None, Some(Rating(10)))));
    let backwards = rating_bounds(Some(7.5), Some(6.0)).unwrap_err();
    assert_eq!(
        backwards.to_string(),
        "min_rating 7.5 is above max_rating 6.0"
    );
    for (min, max, bound, value) in [
        (Some(-0.1), None, Bound::Min, -0.1),
        (None, Some(20.01), Bound::Max, 20.01),
    ] {
        assert_eq!(
            rating_bounds(min, max),
            Err(BoundError::OffScale { bound, value })
        );
    }
    assert!(matches!(
        rating_bounds(Some(f64::NAN), None),
        Err(BoundError::OffScale { .. })
    ));
}

#[test]
fn a_ceiling_below_the_easiest_rating_is_refused_and_one_at_it_is_not() {
    let below = Request {
        max_rating: Some(Rating(9)),
        ..Request::default()
    };
    assert_eq!(
        below.check(),
        Err(RequestError::MaxBelowEasiest { max: Rating(9) })
    );
    let at = Request {
        max_rating: Some(Rating(10)),
        ..Request::default()
    };
    assert_eq!(at.check(), Ok(()));
    assert!(at.accepts_rating(Rating(10)));
}

/// [`attempt`] as it was before grading stopped at the target's ceiling:
/// the whole grade, then the target.
fn attempt_grading_to_the_end(request: &Request, seed: u64) -> Option<Generated> {
    let (puzzle, solution) = ungraded(request, seed);
    let grade = logic::grade(&puzzle);
    request.accepts(&grade).then_some(Generated {
        puzzle,
        solution,
        grade: Some(grade),
        seed,
    })
}

#[test]
fn grading_only_up_to_the_ceiling_keeps_the_puzzles_a_whole_grade_keeps() {
    for (level, max_rating) in [
        (Some(Level::Easy), None),
        (Some(Level::Medium), None),
        (Some(Level::Hard), None),
        (None, Some(Rating(42))),
        (Some(Level::Hard), Some(Rating(40))),
    ] {
        let request = Request {
            level,
            max_rating,
            ..minimal(Symmetry::Rotate180)
        };
        let mut kept = 0;
        for seed in 0..150 {
            let made = attempt(&request, seed);
            assert_eq!(
                made,
                attempt_grading_to_the_end(&request, seed),
                "{request:?} {seed}"
            );
            kept += usize::from(made.is_some());
        }
        assert!(kept > 0, "{request:?}");
    }
}

#[test]
fn a_target_that_cannot_be_met_gives_up_and_says_after_how_many() {
    // Only full houses: no minimal puzzle is that easy. (A target of 12.0
    // would climb, seconds an attempt.)
    let impossible = Request {
        max_rating: Some(Rating(10)),
        minimal: true,
        ..Request::default()
    };
    assert_eq!(generate(&impossible, 1, &|attempts| attempts >= 5), Err(5));
}

/// Emptying orbits one by one, the plain way, as a reference for
/// [`empty_cells`], which empties the first half at once (or by halves),
/// and keeps an orbit without a solve when emptying it would clear an
/// unavoidable set.
fn one_by_one(solution: &Board, request: &Request, random: &mut Random) -> Board {
    let mut orbits = request.symmetry.orbits();
    random.shuffle(&mut orbits);
    let mut cells = *solution.cells();
    let mut failures = 0;
    for orbit in orbits {
        for &cell in &orbit {
            cells[cell] = 0;
        }
        if !has_one_solution(&cells) {
            for &cell in &orbit {
                cells[cell] = solution.cells()[cell];
            }
            failures += 1;
            if !request.minimal && !request.wants_hard() && failures == FAILURES_ALLOWED {
                break;
            }
        }
    }
    Board::from_cells(cells).unwrap()
}

/// Checks that `empty` (given the request, the grid and the random stream
/// after it) makes the puzzle [`one_by_one`] makes, for every symmetry,
/// minimal or not, on the grids of seeds `0..seeds`.
fn assert_same_as_one_by_one(seeds: u64, empty: impl Fn(&Board, &Request, &mut Random) -> Board) {
    for symmetry in Symmetry::ALL {
        for minimal in [true, false] {
            let request = Request {
                symmetry,
                minimal,
                ..Request::default()
            };
            for seed in 0..seeds {
                let mut random = Random::new(seed);
                let solution = random_solution(&mut random);
                let (mut shortcut, mut plain) = (random.clone(), random);
                assert_eq!(
                    empty(&solution, &request, &mut shortcut),
                    one_by_one(&solution, &request, &mut plain),
                    "{symmetry:?}, minimal {minimal}, seed {seed}"
                );
            }
        }
    }
}

#[test]
fn the_shortcuts_of_emptying_make_the_puzzles_one_by_one_would() {
    assert_same_as_one_by_one(100, empty_cells);
}

#[test]
fn halving_over_every_orbit_makes_the_puzzles_one_by_one_would() {
    // All the orbits by halves, not only the first half: every depth of
    // the recursion, and the stop after FAILURES_ALLOWED inside it.
    assert_same_as_one_by_one(40, |solution, request, random| {
        let mut orbits = request.symmetry.orbit_masks().to_vec();
        random.shuffle(&mut orbits);
        let mut puzzle = Emptying::new(solution, request);
        puzzle.empty_halving(&orbits);
        Board::from_cells(puzzle.cells).unwrap()
    });
}

#[test]
fn an_attempt_whose_grading_runs_out_of_time_is_dropped() {
    let request = minimal(Symmetry::Rotate180);
    let (mut dropped, mut kept) = (0, 0);
    for seed in 1..=40 {
        let made = attempt(&request, seed).expect("no target to miss");
        let rating = made.grade.expect("graded").rating;
        // With no time at all, only the easy singles (up to 1.5), which
        // need no time check, can be graded.
        let in_no_time = attempt_until(&request, seed, Some(Duration::ZERO), &|| false);
        if rating > Rating(15) {
            assert_eq!(in_no_time, None, "seed {seed}, rated {rating}");
            dropped += 1;
        } else {
            assert_eq!(in_no_time, Some(made), "seed {seed}");
            kept += 1;
        }
    }
    assert!(dropped > 0 && kept > 0, "{dropped} dropped, {kept} kept");
}

/// The sizes of the first `jobs` jobs `request` is cut into, checking
/// that their seeds are the chain from `seed`, in order.
fn job_sizes(request: &Request, seed: u64, jobs: usize) -> Vec<usize> {
    let mut seeds = Seeds::new(request, seed);
    let mut expected = seed;
    let mut sizes = Vec::new();
    for _ in 0..jobs {
        let job = seeds.next_job();
        for got in &job {
            assert_eq!(*got, expected);
            expected = next_seed(expected);
        }
        sizes.push(job.len());
    }
    sizes
}

#[test]
fn jobs_double_up_to_sixteen_attempts_and_a_climb_is_one_a_job() {
    let common = minimal(Symmetry::Rotate180);
    assert_eq!(job_sizes(&common, 5, 7), [1, 2, 4, 8, 16, 16, 16]);
    let climbing = Request {
        min_rating: Some(Rating(100)),
        ..minimal(Symmetry::None)
    };
    assert!(climbing.wants_climb());
    assert_eq!(job_sizes(&climbing, 5, 7), [1; 7]);
}
