//! Propagation to a fixed point over a model's rules.
//!
//! A cell whose mask changed is queued once. When it is taken from the
//! queue and holds one digit, that digit is struck from its peers (the
//! cheap, common case, kept out of the propagators) and the propagators
//! that read it only once it is fixed are queued (a cage, for the rest of
//! a house it lies in); then every propagator woken by any change of the
//! cell is queued, told which digits were struck from the cell (a house
//! points only those: see [`Narrowing::dirty`]). A propagator is not
//! woken by a cell that it alone changed since the cell was queued, when
//! a second run on its own changes would find nothing (a cage: see
//! [`Narrowing::disown`]). Each is queued once at a time. Queued cells go
//! first, then queued propagators, the last queued first; a sum
//! ([`Propagator::runs_late`]) waits until no other propagator does. The
//! loop ends when both queues are empty, or at the first
//! [`Contradiction`].
//!
//! [`Propagator::runs_late`]: super::propagators::Propagator::runs_late
//!
//! A branch's placement propagates in rounds, as the Interactive Sudoku
//! Solver's does: the placed digit and all it narrows first, holding back
//! the singles it makes; then those singles together, then the singles
//! they make, and so on. The fixed point is the same (but for what a cage
//! last read of its house's rest, which it reads only when woken, so the
//! order can matter there); what the rounds add is which cell a
//! contradiction is blamed on: a single of the round that
//! met it (the first by index). The search learns where to branch from
//! that blame, and a long chain of forced cells then teaches it a cell of
//! the round where the chain broke, not only the guess that started it.

use super::narrowing::{Contradiction, NO_AUTHOR, NOT_QUEUED, Narrowing, Queue, is_single};
use crate::variant::model::Model;

/// An empty queue for `model`'s cells and propagators.
pub(crate) fn queue_for(model: &Model) -> Queue {
    let late = model.propagators.iter().map(|p| p.runs_late()).collect();
    Queue::new(model.shape.cell_count(), late)
}

/// Runs the model's rules on `masks` until nothing changes. On a
/// contradiction the queue is emptied and `masks` is left part-narrowed,
/// for the caller to drop.
pub(crate) fn propagate(
    model: &Model,
    masks: &mut [u32],
    queue: &mut Queue,
) -> Result<(), Contradiction> {
    let result = run(model, masks, queue);
    if result.is_err() {
        queue.clear();
    }
    result
}

/// Where a placement's propagation failed: the single whose round met the
/// contradiction, and its digit (a mask).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Blame {
    pub cell: usize,
    pub digit: u32,
}

/// Propagates `cell`, just narrowed to one digit in `masks`, in rounds of
/// singles (see the module doc). On a contradiction the queue is emptied,
/// `masks` is left part-narrowed, and the blame says which round's first
/// single (by index) met it: `cell` itself in the first round. Either
/// way the queue is left empty, with no cell held or released.
pub(crate) fn propagate_placement(
    model: &Model,
    masks: &mut [u32],
    queue: &mut Queue,
    cell: u16,
) -> Result<(), Blame> {
    debug_assert!(
        !queue.holding && queue.held.is_empty(),
        "a placement at a time"
    );
    debug_assert!(masks[usize::from(cell)].is_power_of_two());
    queue.holding = true;
    queue.release(cell);
    // Which digits the branch struck from the cell is the caller's to
    // know: every one may have moved. (The round below queues the cell
    // again, which adds nothing.)
    queue.push_cell(cell, u32::MAX);
    let mut round = std::mem::take(&mut queue.round);
    round.clear();
    round.push(cell);
    let result = loop {
        // Each was released when first seen single (held, in the rounds
        // after the first), and its own struck digits reached the rules
        // it wakes then.
        for &single in &round {
            queue.push_cell(single, 0);
        }
        if propagate(model, masks, queue).is_err() {
            let first = usize::from(round[0]);
            // Narrowing never empties a mask, it fails first.
            debug_assert!(masks[first].is_power_of_two());
            break Err(Blame {
                cell: first,
                digit: masks[first],
            });
        }
        if queue.held.is_empty() {
            break Ok(());
        }
        // The held singles become the round; the old round's buffer
        // holds the next ones.
        std::mem::swap(&mut round, &mut queue.held);
        queue.held.clear();
        round.sort_unstable();
    };
    round.clear();
    queue.round = round;
    queue.end_placement();
    result
}

fn run(model: &Model, masks: &mut [u32], queue: &mut Queue) -> Result<(), Contradiction> {
    let all_digits = model.shape.all_digits();
    loop {
        if let Some(cell) = queue.cells.pop() {
            let struck = std::mem::take(&mut queue.struck[usize::from(cell)]);
            let author = std::mem::replace(&mut queue.author[usize::from(cell)], NOT_QUEUED);
            let mask = masks[usize::from(cell)];
            if is_single(mask) {
                if queue.holding && !queue.released[usize::from(cell)] {
                    // Its peers wait for the next round.
                    queue.release(cell);
                    queue.held.push(cell);
                } else {
                    strike_from_peers(model, masks, queue, cell, mask)?;
                }
                queue.wake_all_but(&model.fixed_watchers[usize::from(cell)], struck, author);
            }
            queue.wake_all_but(&model.watchers[usize::from(cell)], struck, author);
            continue;
        }
        let Some(index) = queue.pop_propagator() else {
            return Ok(());
        };
        let dirty = queue.take_dirty(index);
        let propagator = &model.propagators[index as usize];
        let mut narrowing = Narrowing {
            masks: &mut *masks,
            queue: &mut *queue,
            all_digits,
            dirty,
            author: match propagator.settles_itself() {
                true => index,
                false => NO_AUTHOR,
            },
        };
        propagator.propagate(&mut narrowing)?;
    }
}

/// Strikes `digit`, the one digit of `cell`, from the cell's peers.
#[inline]
fn strike_from_peers(
    model: &Model,
    masks: &mut [u32],
    queue: &mut Queue,
    cell: u16,
    digit: u32,
) -> Result<(), Contradiction> {
    for &peer in model.peers[usize::from(cell)].iter() {
        let peer_mask = masks[usize::from(peer)];
        if peer_mask & digit != 0 {
            let left = peer_mask & !digit;
            if left == 0 {
                return Err(Contradiction);
            }
            masks[usize::from(peer)] = left;
            queue.push_cell(peer, digit);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::random::Random;
    use crate::variant::compile::compile;
    use crate::variant::search::propagators::Propagator;
    use crate::variant::tests::random::{plain_puzzle, random_puzzle};
    use crate::variant::{PuzzleParts, VariantPuzzle};

    /// True when nothing of a placement is left in the queue.
    fn is_clean(queue: &Queue) -> bool {
        !queue.holding
            && queue.held.is_empty()
            && queue.round.is_empty()
            && queue.cells.is_empty()
            && queue.no_propagator_waits()
            && queue.released.iter().all(|&released| !released)
            && queue.struck.iter().all(|&struck| struck == 0)
            && queue.author.iter().all(|&author| author == NOT_QUEUED)
    }

    #[test]
    fn a_contradiction_in_a_later_round_is_blamed_on_that_rounds_first_single() {
        let puzzle = plain_puzzle(9);
        let model = compile(&puzzle);
        let mut queue = queue_for(&model);
        let (one, two) = (1 << 1, 1 << 2);
        // R1C2 and R1C3 hold 1 or 2: placing 1 in R1C1 leaves 2 in both,
        // which the first round holds back and the second finds clashing.
        let mut start = vec![model.shape.all_digits(); 81];
        start[1] = one | two;
        start[2] = one | two;
        let mut masks = start.clone();
        masks[0] = one;
        let blame = propagate_placement(&model, &mut masks, &mut queue, 0).unwrap_err();
        assert_eq!(
            blame,
            Blame {
                cell: 1,
                digit: two
            }
        );
        assert!(is_clean(&queue));
        // With 1 or 3 in R1C3, the singles left differ: no clash, and
        // their digits are struck in the second round.
        let three = 1 << 3;
        let mut masks = start.clone();
        masks[2] = one | three;
        masks[0] = one;
        propagate_placement(&model, &mut masks, &mut queue, 0).unwrap();
        assert_eq!((masks[1], masks[2]), (two, three));
        assert_eq!(masks[3] & (one | two | three), 0);
        assert!(is_clean(&queue));
    }

    /// `model` with no propagator woken but its houses and `kept`.
    fn silence_all_but_houses_and(model: &mut Model, kept: u32) {
        let silenced: Vec<u32> = (0..model.propagators.len() as u32)
            .filter(|&i| {
                i != kept && !matches!(model.propagators[i as usize], Propagator::House(_))
            })
            .collect();
        for lists in [&mut model.watchers, &mut model.fixed_watchers] {
            for list in lists.iter_mut() {
                *list = list
                    .iter()
                    .copied()
                    .filter(|i| !silenced.contains(i))
                    .collect();
            }
        }
    }

    /// A plain 9×9 with one summed cage: R1C3 + R1C4 = 10.
    fn row_cage_model() -> Model {
        use crate::variant::constraints::Cage;
        let cage = Cage {
            cells: vec![2, 3],
            sum: Some(10),
        };
        let puzzle = VariantPuzzle::new(PuzzleParts {
            size: 9,
            constraints: vec![cage.into()],
            ..PuzzleParts::default()
        })
        .unwrap();
        compile(&puzzle)
    }

    #[test]
    fn a_cage_hears_of_a_cell_in_the_rest_of_its_house_once_it_is_fixed() {
        // R1C3 + R1C4 = 10, which R1C3 and R1C4 cannot make with a 5.
        let mut model = row_cage_model();
        let index = (model.propagators.iter())
            .position(|p| matches!(p, Propagator::Cage(cage) if cage.cage() == [2, 3]))
            .unwrap() as u32;
        // Only the houses and the cage run: the sums derived from the cage
        // (the rest of the row makes 35) would find the same by themselves.
        silence_all_but_houses_and(&mut model, index);
        let mut queue = queue_for(&model);
        let (all, five, nine) = (model.shape.all_digits(), 1 << 5, 1 << 9);
        let mut masks = vec![all; 81];
        masks[2] = all & !five;
        masks[3] = all & !five;
        // The rest of row 1 holds no 9 but maybe in R1C1, which is then
        // left a 5: the row's 9 is in the cage, with a 1.
        for cell in [1, 4, 5, 6, 7, 8] {
            masks[cell] = all & !nine;
        }
        masks[0] = five;
        queue.push_cell(0, u32::MAX);
        propagate(&model, &mut masks, &mut queue).unwrap();
        assert_eq!((masks[2], masks[3]), (1 << 1 | nine, 1 << 1 | nine));
        // The cage is woken by its own cells on any change, and by the
        // rest of its house only as its cells are fixed.
        for cell in 0..9 {
            let caged = cell == 2 || cell == 3;
            assert_eq!(model.watchers[cell].contains(&index), caged, "{cell}");
            assert_eq!(
                model.fixed_watchers[cell].contains(&index),
                !caged,
                "{cell}"
            );
        }
    }

    #[test]
    fn a_models_sums_run_after_its_other_rules() {
        // A summed cage in row 1: the rest of the row sums to 35, a sum.
        let model = row_cage_model();
        let is_sum =
            |index: &u32| matches!(model.propagators[*index as usize], Propagator::Linear(_));
        let mut queue = queue_for(&model);
        for index in 0..model.propagators.len() as u32 {
            queue.wake(index, 0);
        }
        let order: Vec<u32> = std::iter::from_fn(|| queue.pop_propagator()).collect();
        let first_sum = order.iter().position(is_sum).expect("a sum");
        assert!(
            first_sum > 0 && order[first_sum..].iter().all(is_sum),
            "{order:?}"
        );
    }

    #[test]
    fn waking_rules_with_only_the_digits_struck_keeps_the_fixed_points() {
        // Walks down random branches, placing and propagating each step
        // twice: with the digits struck tracked, and with every digit
        // taken as struck (what the houses saw before they were told).
        let (mut steps, mut failed) = (0, 0);
        for seed in 0..160u64 {
            let puzzle = match seed % 3 {
                0 => plain_puzzle(9),
                _ => random_puzzle(seed, if seed % 2 == 0 { 6 } else { 4 }, seed % 4 == 1, 15),
            };
            let model = compile(&puzzle);
            // Houses hear of every change of their cells, so that the
            // digits they are told of are all that moved.
            for (index, propagator) in model.propagators.iter().enumerate() {
                if let Propagator::House(house) = propagator {
                    let woken =
                        |&cell: &u16| model.watchers[usize::from(cell)].contains(&(index as u32));
                    assert!(house.cells().iter().all(woken), "seed {seed}");
                }
            }
            let mut tracked = queue_for(&model);
            let mut untracked = queue_for(&model);
            untracked.all_struck = true;
            let mut masks = model.start.clone();
            tracked.push_all_cells();
            if propagate(&model, &mut masks, &mut tracked).is_err() {
                continue;
            }
            let mut random = Random::new(seed);
            while let Some(cell) = random_open_cell(&masks, &mut random) {
                let digits: Vec<u32> = crate::variant::search::digits_of(masks[cell]).collect();
                let digit = 1 << digits[random.below(digits.len() as u32) as usize];
                let place = |queue: &mut Queue| {
                    let mut child = masks.clone();
                    child[cell] = digit;
                    propagate_placement(&model, &mut child, queue, cell as u16).map(|()| child)
                };
                let (with, without) = (place(&mut tracked), place(&mut untracked));
                assert_eq!(with, without, "seed {seed}, step {steps}");
                assert!(is_clean(&tracked), "seed {seed}, step {steps}");
                steps += 1;
                match with {
                    Ok(child) => masks = child,
                    Err(_) => {
                        failed += 1;
                        break;
                    }
                }
            }
        }
        assert!(
            steps > 1000 && failed > 20,
            "steps {steps}, failed {failed}"
        );
    }

    /// An unplaced cell, at random; `None` when every cell is placed.
    fn random_open_cell(masks: &[u32], random: &mut Random) -> Option<usize> {
        let open: Vec<usize> = (0..masks.len()).filter(|&c| !is_single(masks[c])).collect();
        (!open.is_empty()).then(|| open[random.below(open.len() as u32) as usize])
    }

    #[test]
    fn a_placement_in_rounds_reaches_the_same_fixed_point_as_at_once() {
        let (mut held, mut failed) = (0, 0);
        for seed in 0..60 {
            let puzzle = random_puzzle(seed, if seed % 2 == 0 { 4 } else { 6 }, seed % 3 == 0, 20);
            let model = compile(&puzzle);
            let mut queue = queue_for(&model);
            let mut root = model.start.clone();
            queue.push_all_cells();
            if propagate(&model, &mut root, &mut queue).is_err() {
                continue;
            }
            for cell in 0..root.len() {
                for digit in crate::variant::search::digits_of(root[cell]).map(|d| 1 << d) {
                    let mut at_once = root.clone();
                    at_once[cell] = digit;
                    queue.push_cell(cell as u16, u32::MAX);
                    let at_once = propagate(&model, &mut at_once, &mut queue).map(|()| at_once);
                    let mut in_rounds = root.clone();
                    in_rounds[cell] = digit;
                    let in_rounds =
                        propagate_placement(&model, &mut in_rounds, &mut queue, cell as u16)
                            .map(|()| in_rounds);
                    match (&at_once, &in_rounds) {
                        (Err(_), Err(blame)) => failed += usize::from(blame.cell != cell),
                        (Ok(_), Ok(masks)) => {
                            // More than this cell alone was left single.
                            let singles = masks.iter().filter(|m| m.is_power_of_two()).count();
                            let before = root.iter().filter(|m| m.is_power_of_two()).count();
                            held += usize::from(singles > before + 1);
                        }
                        _ => {}
                    }
                    assert_eq!(
                        at_once.ok(),
                        in_rounds.ok(),
                        "seed {seed}, cell {cell}, digit {digit:#b}"
                    );
                    assert!(is_clean(&queue));
                }
            }
        }
        // Both paths were taken many times: placements that made further
        // singles, and failures met in a later round.
        assert!(held > 100 && failed > 10, "held {held}, failed {failed}");
    }
}
