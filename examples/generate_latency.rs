//! How long a one-puzzle Generate call takes through a server, per level:
//! `cargo run --release --example generate_latency -- URL [CALLS] [SYMMETRY]
//! [MIN_RATING] [random]` (default 200 calls, no symmetry; SYMMETRY is a
//! proto name such as SYMMETRY_ROTATE_180). Each call asks for one puzzle
//! of the level with its own seed, one call at a time, on one connection;
//! prints p50, p90, p99 and the slowest, in milliseconds. With MIN_RATING
//! (10.0, say), the calls ask for that rating instead of each level, and
//! it also prints each call's attempts (climbs, at that height) and
//! rating. With `random` after it, the calls send no seed (0), as a user
//! who wants any puzzle does: the server then sends each puzzle as soon
//! as it is found rather than in seed order, and the attempts go
//! uncounted.

use std::time::{Duration, Instant};

use sudoku_grpc::pb::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::pb::{GenerateRequest, Level, Symmetry};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let url = args
        .next()
        .unwrap_or_else(|| "http://127.0.0.1:50051".to_string());
    let calls: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
    let symmetry = args
        .next()
        .and_then(|name| Symmetry::from_str_name(&name))
        .unwrap_or(Symmetry::None);
    let min_rating: Option<f64> = args.next().and_then(|rating| rating.parse().ok());
    let random = args.next().as_deref() == Some("random");
    let mut client = SudokuServiceClient::connect(url).await?;
    if let Some(min_rating) = min_rating {
        return by_rating(&mut client, calls, symmetry, min_rating, random).await;
    }
    println!("{calls} calls per level, count 1, {symmetry:?}, one at a time");
    for level in [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Diabolical,
        Level::Extreme,
    ] {
        let mut took = Vec::with_capacity(calls as usize);
        for seed in 1..=calls {
            let request = GenerateRequest {
                count: 1,
                level: level as i32,
                symmetry: symmetry as i32,
                seed: seed * 7919,
                ..Default::default()
            };
            let started = Instant::now();
            let mut stream = client.generate(request).await?.into_inner();
            let mut got = 0;
            while stream.message().await?.is_some() {
                got += 1;
            }
            took.push(started.elapsed());
            assert_eq!(got, 1, "one puzzle per call");
        }
        took.sort();
        let at = |q: f64| millis(took[((took.len() - 1) as f64 * q).round() as usize]);
        println!(
            "{:<18} p50 {:7.2} ms  p90 {:7.2} ms  p99 {:7.2} ms  max {:7.2} ms",
            level.as_str_name(),
            at(0.5),
            at(0.9),
            at(0.99),
            millis(*took.last().unwrap())
        );
    }
    Ok(())
}

/// One-puzzle calls for `min_rating`, each with its own seed (or none,
/// when `random`): the time, the attempts it took (counted from the seed
/// of the puzzle back to the seed asked for) and the rating of each, then
/// the quantiles.
async fn by_rating(
    client: &mut SudokuServiceClient<tonic::transport::Channel>,
    calls: u64,
    symmetry: Symmetry,
    min_rating: f64,
    random: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let seeds = if random { "no seed" } else { "seeded" };
    println!(
        "{calls} calls, min_rating {min_rating}, count 1, {symmetry:?}, {seeds}, one at a time"
    );
    let mut took = Vec::with_capacity(calls as usize);
    let mut attempts = 0;
    for call in 1..=calls {
        let seed = if random { 0 } else { call * 7919 };
        let request = GenerateRequest {
            count: 1,
            min_rating,
            symmetry: symmetry as i32,
            seed,
            ..Default::default()
        };
        let started = Instant::now();
        let mut stream = client.generate(request).await?.into_inner();
        let made = stream.message().await?.expect("one puzzle");
        took.push(started.elapsed());
        let tried = match random {
            true => "-".to_string(),
            false => {
                let tried = attempts_until(seed, made.seed);
                attempts += tried;
                tried.to_string()
            }
        };
        let rating = made.grade.map_or(0.0, |grade| grade.rating);
        println!(
            "seed {seed:>6}  {:8.2} s  {tried:>2} attempts  rated {rating:.1}  {}",
            took.last().unwrap().as_secs_f64(),
            made.puzzle
        );
    }
    took.sort();
    let at = |q: f64| took[((took.len() - 1) as f64 * q).round() as usize].as_secs_f64();
    let per_puzzle = match random {
        true => String::new(),
        false => format!(
            "  {:.2} attempts per puzzle",
            attempts as f64 / calls as f64
        ),
    };
    println!(
        "min_rating {min_rating}: p50 {:.2} s  p90 {:.2} s  max {:.2} s{per_puzzle}",
        at(0.5),
        at(0.9),
        took.last().unwrap().as_secs_f64(),
    );
    Ok(())
}

/// How many attempts a request from `asked` made to reach the one on `made`.
fn attempts_until(asked: u64, made: u64) -> u64 {
    let mut seed = asked;
    let mut attempts = 1;
    while seed != made {
        seed = sudoku_grpc::domain::generate::next_seed(seed);
        attempts += 1;
    }
    attempts
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
