//! How fast one thread climbs to a rating, climb by climb:
//! `cargo run --release --example climb_rate -- [CLIMBS] [MIN_RATING]
//! [SKIP]` (default 40 climbs to 10.0, no symmetry, from the seed 12345
//! on, after SKIP seeds). Each climb is one attempt of a Generate request
//! for `min_rating` MIN_RATING, timed alone; prints each climb's seed,
//! whether it found a puzzle, its time and the puzzle's rating, then the
//! time per puzzle found. The same seeds give the same climbs, so two
//! builds compare side by side on equal work.

use std::time::Instant;

use sudoku_grpc::domain::generate::{Request, Symmetry, attempt, next_seed};
use sudoku_grpc::domain::logic::Rating;

fn main() {
    let mut args = std::env::args().skip(1);
    let climbs: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(40);
    let min_rating: f64 = args.next().and_then(|r| r.parse().ok()).unwrap_or(10.0);
    let skip: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(0);
    let request = Request {
        symmetry: Symmetry::None,
        minimal: true,
        min_rating: Some(Rating((min_rating * 10.0).round() as u16)),
        ..Request::default()
    };
    let mut seed = (0..skip).fold(12345, |seed, _| next_seed(seed));
    let (mut total, mut found) = (0.0, 0);
    for _ in 0..climbs {
        let started = Instant::now();
        let made = attempt(&request, seed);
        let seconds = started.elapsed().as_secs_f64();
        total += seconds;
        let rating = made.and_then(|made| made.grade).map(|grade| grade.rating);
        match rating {
            Some(rating) => {
                found += 1;
                println!(
                    "{seed:>20}  found   {seconds:6.2} s  rated {}",
                    rating.value()
                );
            }
            None => println!("{seed:>20}  none    {seconds:6.2} s"),
        }
        seed = next_seed(seed);
    }
    let per_puzzle = if found > 0 {
        format!("{:.1} s of one thread a puzzle", total / f64::from(found))
    } else {
        "none found".to_string()
    };
    println!("{climbs} climbs to {min_rating}: {found} found in {total:.1} s, {per_puzzle}");
}
