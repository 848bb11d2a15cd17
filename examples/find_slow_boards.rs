//! Searches for boards the solver takes long over, by hill climbing: from
//! a random consistent board with few givens (most have no solution), it
//! adds, moves or removes one given at a time and keeps the change when
//! the solver needs at least as many guesses, restarting when it is stuck.
//! This is how the board of the solve-budget tests was found. (Purely
//! random boards are no good: twelve million of them needed at most 537
//! guesses.)
//!
//! `cargo run --release --example find_slow_boards -- [SECONDS] [SEED]`

use std::cell::Cell;
use std::time::{Duration, Instant};

use sudoku_grpc::domain::{Board, SolvePuzzleError, solve_board};

/// Guesses after which a board counts as slow and its search stops (the
/// solver's stop check runs every 64 guesses).
const GUESS_CAP: u64 = 2_000_000;

/// A small, seedable generator (xorshift64*), so a search can be repeated.
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % bound
    }
}

/// A board with up to `givens` random givens that do not conflict.
fn random_board(rng: &mut Rng, givens: usize) -> Board {
    let mut board = Board::EMPTY;
    for _ in 0..givens {
        let mut cells = *board.cells();
        cells[rng.below(81) as usize] = 1 + rng.below(9) as u8;
        let candidate = Board::from_cells(cells).expect("digits 1-9");
        if candidate.find_conflict().is_none() {
            board = candidate;
        }
    }
    board
}

/// Guesses and time the solver takes on `board`, up to the cap.
fn cost(board: &Board) -> (u64, Duration) {
    let polls = Cell::new(0u64);
    let started = Instant::now();
    let stop = || {
        polls.set(polls.get() + 1);
        polls.get() * 64 > GUESS_CAP
    };
    let guesses = match solve_board(board, None, stop) {
        Ok(report) => report.stats.guesses,
        Err(SolvePuzzleError::Cancelled) => GUESS_CAP,
        Err(_) => 0,
    };
    (guesses, started.elapsed())
}

/// `board` with one given added, changed or removed at random (`None` if
/// that makes givens conflict).
fn mutate(rng: &mut Rng, board: &Board) -> Option<Board> {
    let mut cells = *board.cells();
    let cell = rng.below(81) as usize;
    cells[cell] = if rng.below(3) == 0 {
        0
    } else {
        1 + rng.below(9) as u8
    };
    Board::from_cells(cells).filter(|candidate| candidate.find_conflict().is_none())
}

/// Steps without improvement before a climb restarts.
const PATIENCE: u32 = 2_000;

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = args.next().map_or(60, |arg| arg.parse().expect("seconds"));
    let seed: u64 = args.next().map_or(0x5EED, |arg| arg.parse().expect("seed"));
    let mut rng = Rng(seed | 1);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut tried, mut worst) = (0u64, 0u64);
    while Instant::now() < deadline {
        let givens = 14 + rng.below(14) as usize;
        let mut board = random_board(&mut rng, givens);
        let mut guesses = cost(&board).0;
        let mut stuck = 0;
        while stuck < PATIENCE && Instant::now() < deadline {
            stuck += 1;
            let Some(candidate) = mutate(&mut rng, &board) else {
                continue;
            };
            let (candidate_guesses, time) = cost(&candidate);
            tried += 1;
            if candidate_guesses >= guesses {
                if candidate_guesses > guesses {
                    stuck = 0;
                }
                (board, guesses) = (candidate, candidate_guesses);
                if guesses > worst {
                    worst = guesses;
                    println!(
                        "{board} {guesses} guesses, {:.1} ms",
                        time.as_secs_f64() * 1e3
                    );
                }
            }
        }
    }
    println!("{tried} boards tried");
}
