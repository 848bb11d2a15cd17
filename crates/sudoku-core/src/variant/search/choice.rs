//! Where the search branches next, learnt from where it fails.
//!
//! Each cell keeps a conflict score: it starts at the cell's weight in the
//! model (what the rules on it weigh, as the builder records them) and
//! grows by one each time a contradiction is blamed on it: the cell of the
//! branch, or a single that branch forced whose propagation failed (see
//! the engine's rounds). The search branches on the unplaced cell with the
//! highest score per candidate, so that it goes back to the cells whose
//! choices decide the puzzle, rather than to whichever cell has fewest
//! candidates. Scores are halved every few thousand conflicts, so they
//! follow the part of the grid the search is in. On hard thermos and
//! killers this cuts the guesses many times over, the Interactive Sudoku
//! Solver's measurements and ours agree.
//!
//! A cell with more than two candidates is a wide branch. Before taking
//! one, the choice looks for a digit that has only two places left in a
//! house, among cells that score well, and branches on the digit in one of
//! them: either it stands there or (the house says) in the other.

use super::narrowing::digits_of;
use super::propagators::Propagator;
use crate::variant::model::Model;

/// Conflicts between two halvings of every score.
const DECAY_EVERY: u32 = 1 << 14;

/// A branch: place `digit` (a mask) in `cell`, then, on the way back,
/// strike it there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Choice {
    pub cell: usize,
    pub digit: u32,
    /// The cell to blame when striking the digit fails: the other place
    /// of a house digit, or `cell`.
    pub other: usize,
}

impl Choice {
    /// The smallest digit of `cell`, a cell's own branch.
    fn smallest_in(cell: usize, masks: &[u32]) -> Choice {
        Choice {
            cell,
            digit: 1 << masks[cell].trailing_zeros(),
            other: cell,
        }
    }
}

/// The conflict scores and the houses a choice looks in.
pub(super) struct Chooser {
    scores: Vec<u32>,
    /// Conflicts by digit, decayed faster than the cells'.
    digit_scores: [u32; 32],
    digit_count: u32,
    houses: Vec<Box<[u16]>>,
    until_decay: u32,
    /// False to branch on the first cell with fewest candidates, ignoring
    /// the scores.
    learning: bool,
}

impl Chooser {
    pub fn new(model: &Model) -> Chooser {
        let scores = model.weights.clone();
        let houses = model
            .propagators
            .iter()
            .filter_map(|propagator| match propagator {
                Propagator::House(house) => Some(house.cells().into()),
                _ => None,
            })
            .collect();
        Chooser {
            scores,
            digit_scores: [0; 32],
            digit_count: model.shape.size() as u32,
            houses,
            until_decay: DECAY_EVERY,
            learning: true,
        }
    }

    /// Whether choices follow the scores (the default) or the fewest
    /// candidates.
    pub fn set_learning(&mut self, learning: bool) {
        self.learning = learning;
    }

    /// A contradiction is blamed on `digit` (a mask) in `cell`.
    pub fn conflict(&mut self, cell: usize, digit: u32) {
        self.scores[cell] += 1;
        self.digit_scores[digit.trailing_zeros() as usize] += 1;
        self.until_decay -= 1;
        if self.until_decay == 0 {
            self.until_decay = DECAY_EVERY;
            self.scores.iter_mut().for_each(|score| *score >>= 1);
            self.digit_scores.iter_mut().for_each(|score| *score >>= 2);
        }
    }

    /// Halves the score of a cell whose wide branch narrowed nothing.
    pub fn demote(&mut self, cell: usize) {
        self.scores[cell] >>= 1;
    }

    /// The digit that has failed most lately, with its score, if it stands
    /// out from the rest.
    fn hot_digit(&self) -> (u32, u64) {
        let (mut max, mut digit, mut min) = (0, 0, u32::MAX);
        for (d, &score) in self.digit_scores.iter().enumerate() {
            if score > max {
                (max, digit) = (score, 1 << d);
            }
            if score > 0 && score < min {
                min = score;
            }
        }
        if max < self.digit_count || 2 * u64::from(max) <= 3 * u64::from(min) {
            return (0, 0);
        }
        (digit, u64::from(max))
    }

    /// The next branch below `masks`, or `None` when every cell is placed.
    pub fn choose(&self, masks: &[u32]) -> Option<Choice> {
        if !self.learning {
            return Some(Choice::smallest_in(fewest_candidates(masks)?, masks));
        }
        let (cell, count) = self.best_cell(masks)?;
        let choice = Choice::smallest_in(cell, masks);
        if count == 2 || self.scores[cell] == 0 {
            return Some(choice);
        }
        // Scores compared as fractions: the cell's is score / count, a
        // house digit's is half the better score of its two places.
        let to_beat = (u64::from(self.scores[cell]), u64::from(count));
        Some(self.house_digit(masks, to_beat).unwrap_or(choice))
    }

    /// The unplaced cell with the highest score per candidate, and its
    /// candidate count; the first with fewest candidates if none scores.
    fn best_cell(&self, masks: &[u32]) -> Option<(usize, u32)> {
        let (hot, hot_score) = self.hot_digit();
        let mut best: Option<(usize, u32)> = None;
        // Scores times five, so that the hot digit's fifth stays whole.
        let mut best_score = 0u64;
        for (cell, &mask) in masks.iter().enumerate() {
            let count = mask.count_ones();
            if count < 2 {
                continue;
            }
            let mut score = 5 * u64::from(self.scores[cell]);
            if mask & hot != 0 {
                score += hot_score;
            }
            let better = match best {
                None => true,
                // score / count > best_score / best_count
                Some((_, best_count)) => {
                    score * u64::from(best_count) > best_score * u64::from(count)
                        || (score == 0 && best_score == 0 && count < best_count)
                }
            };
            if better {
                best = Some((cell, count));
                best_score = score;
            }
        }
        best
    }

    /// A digit with two places left in a house whose better place scores
    /// more than `to_beat` (a score over a count) when halved: that place,
    /// and the digit.
    fn house_digit(&self, masks: &[u32], to_beat: (u64, u64)) -> Option<Choice> {
        let (mut score, mut over) = to_beat;
        let mut found = None;
        for house in &self.houses {
            let (mut once, mut twice, mut more) = (0u32, 0u32, 0u32);
            for &cell in house.iter() {
                let mask = masks[usize::from(cell)];
                more |= twice & mask;
                twice |= once & mask;
                once |= mask;
            }
            for digit in digits_of(twice & !more).map(|d| 1u32 << d) {
                let (place, other) = self.better_place(masks, house, digit);
                let place_score = u64::from(self.scores[place]);
                // place_score / 2 >= score / over
                if place_score * over >= 2 * score {
                    (score, over) = (place_score, 2);
                    found = Some(Choice {
                        cell: place,
                        digit,
                        other,
                    });
                }
            }
        }
        found
    }

    /// Of the two cells of `house` that may hold `digit`, the one that
    /// scores more (the first on a tie).
    fn better_place(&self, masks: &[u32], house: &[u16], digit: u32) -> (usize, usize) {
        let mut places = house
            .iter()
            .map(|&cell| usize::from(cell))
            .filter(|&cell| masks[cell] & digit != 0);
        let first = places.next().expect("a digit with two places");
        let second = places.next().expect("a digit with two places");
        if self.scores[second] > self.scores[first] {
            (second, first)
        } else {
            (first, second)
        }
    }
}

/// The first unplaced cell with the fewest candidates.
fn fewest_candidates(masks: &[u32]) -> Option<usize> {
    let mut best = None;
    let mut fewest = u32::MAX;
    for (cell, mask) in masks.iter().enumerate() {
        let count = mask.count_ones();
        if count > 1 && count < fewest {
            fewest = count;
            best = Some(cell);
            if count == 2 {
                break;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::compile::compile;
    use crate::variant::tests::random::plain_puzzle;

    #[test]
    fn a_house_digit_names_its_other_place_to_blame_when_striking_fails() {
        let model = compile(&plain_puzzle(4));
        let chooser = Chooser::new(&model);
        // Every cell open; R1C1 and R1C2 cannot hold 4, so the row's 4
        // has two places left, R1C3 and R1C4.
        let mut masks = vec![0b11110; 16];
        masks[0] = 0b01110;
        masks[1] = 0b01110;
        let choice = chooser.choose(&masks).unwrap();
        assert_ne!(choice.other, choice.cell);
        let digit = choice.digit;
        assert_eq!(masks[choice.cell] & digit, digit);
        assert_eq!(masks[choice.other] & digit, digit);
        // The two places share a house where the digit has no other.
        let shares = |house: &[u16]| {
            let places: Vec<usize> = (house.iter().map(|&c| usize::from(c)))
                .filter(|&c| masks[c] & digit != 0)
                .collect();
            places.len() == 2 && places.contains(&choice.cell) && places.contains(&choice.other)
        };
        assert!(chooser.houses.iter().any(|house| shares(house)));
        // A cell of two candidates is its own other place.
        masks[5] = 0b00110;
        let choice = chooser.choose(&masks).unwrap();
        assert_eq!((choice.cell, choice.other), (5, 5));
    }
}
