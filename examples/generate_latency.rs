//! How long a one-puzzle Generate call takes through a server, per level:
//! `cargo run --release --example generate_latency -- URL [CALLS] [SYMMETRY]`
//! (default 200 calls, no symmetry; SYMMETRY is a proto name such as
//! SYMMETRY_ROTATE_180). Each call asks for one puzzle of the level with
//! its own seed, one call at a time, on one connection; prints p50, p90,
//! p99 and the slowest, in milliseconds.

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
    let mut client = SudokuServiceClient::connect(url).await?;
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

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
