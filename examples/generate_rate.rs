//! How fast the generator makes puzzles on one thread, and what it makes:
//! `cargo run --release --example generate_rate -- [COUNT] [SYMMETRY] [ungraded]`
//! (SYMMETRY one of none, rotate-180, rotate-90, mirror, flip, diagonal,
//! antidiagonal; default 1000 rotate-180), minimal puzzles of any level.
//! Prints the rate and the distributions of givens and levels (`ungraded`:
//! the request skips grading, the job the anchor does, and no levels); compare
//! with `../shared/tools/anchor-rate.sh generate COUNT --symmetry half`.

use std::collections::BTreeMap;
use std::time::Instant;

use sudoku_grpc::domain::generate::{Request, Symmetry, attempt, next_seed};

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
    let symmetry = match args.next().as_deref().unwrap_or("rotate-180") {
        "none" => Symmetry::None,
        "rotate-90" => Symmetry::Rotate90,
        "mirror" => Symmetry::Mirror,
        "flip" => Symmetry::Flip,
        "diagonal" => Symmetry::Diagonal,
        "antidiagonal" => Symmetry::Antidiagonal,
        _ => Symmetry::Rotate180,
    };
    let graded = args.next().as_deref() != Some("ungraded");
    let request = Request {
        symmetry,
        minimal: true,
        skip_grade: !graded,
        ..Request::default()
    };
    let started = Instant::now();
    let (mut givens, mut levels) = (BTreeMap::new(), BTreeMap::new());
    let mut seed = 1;
    for _ in 0..count {
        let made = attempt(&request, seed).expect("any level is accepted");
        *givens.entry(made.puzzle.given_count()).or_insert(0) += 1;
        if let Some(grade) = made.grade {
            *levels.entry(grade.level()).or_insert(0) += 1;
        }
        seed = next_seed(seed);
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{count} minimal {symmetry:?} puzzles ({}) in {seconds:.3} s on one thread: {:.0} puzzles/s",
        if graded { "graded" } else { "ungraded" },
        count as f64 / seconds
    );
    println!("givens: {givens:?}");
    println!("levels: {levels:?}");
}
