//! The seeded random choices of generation.
//!
//! A seed must give the same puzzles on every machine and every run, so
//! the generator uses an algorithm fixed by name, xorshift128 from
//! `rand_xorshift` (seeded through `rand_core`'s portable
//! `seed_from_u64`), and draws from it only through the two operations
//! here, whose results depend on nothing else.

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// A stream of random choices from one seed.
#[derive(Clone)]
pub struct Random(XorShiftRng);

impl Random {
    /// The stream of `seed`.
    pub fn new(seed: u64) -> Random {
        Random(XorShiftRng::seed_from_u64(seed))
    }

    /// A number in `0..n` (n > 0), uniformly: draws that would favour the
    /// low numbers are thrown away.
    pub fn below(&mut self, n: u32) -> u32 {
        let zone = u32::MAX - u32::MAX % n;
        loop {
            let draw = self.0.next_u32();
            if draw < zone {
                return draw % n;
            }
        }
    }

    /// `items` in a uniformly random order (Fisher and Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for last in (1..items.len()).rev() {
            let other = self.below(last as u32 + 1) as usize;
            items.swap(last, other);
        }
    }
}

/// The seed of the attempt after the one of `seed`: SplitMix64's step,
/// so that a request's attempts run through distinct, well-mixed seeds.
pub fn next_seed(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A fresh seed, never 0, from the clock and the process id, for a
/// request that does not give one.
pub fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos() as u64);
    next_seed(nanos ^ u64::from(std::process::id())).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_choices_every_time_and_another_seed_others() {
        let draws = |seed| {
            let mut random = Random::new(seed);
            (0..20).map(|_| random.below(1000)).collect::<Vec<_>>()
        };
        assert_eq!(draws(7), draws(7));
        assert_ne!(draws(7), draws(8));
        // Fixed by the algorithm: a change here changes every seed's puzzles.
        let mut random = Random::new(1);
        let mut cells: Vec<u8> = (1..=9).collect();
        random.shuffle(&mut cells);
        assert_eq!(cells.len(), 9);
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1..=9).collect::<Vec<u8>>());
    }

    #[test]
    fn draws_stay_below_their_bound_and_cover_it() {
        let mut random = Random::new(42);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[random.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
    }

    #[test]
    fn attempt_seeds_do_not_repeat_soon() {
        let mut seed = 0;
        let mut seen = std::collections::HashSet::new();
        for _ in 0..10_000 {
            assert!(seen.insert(seed));
            seed = next_seed(seed);
        }
    }
}
