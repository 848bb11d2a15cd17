//! Nishio and static forcing chains: Sudoku Explainer's implication
//! chains between the alternating chains (7.0) and the dynamic forcing
//! chains (8.5).
//!
//! An implication takes a candidate being on (true) or off (false) to
//! others, by four rules:
//!
//! * on, to off: the other candidates of its cell (a cell link), and the
//!   same digit in every cell it sees;
//! * off, to on: the other candidate of a cell with two (a cell link), and
//!   the other place of its digit in a unit with two.
//!
//! Implications are followed breadth first, each "on" before the next
//! "off", until one candidate would be both (a contradiction) or nothing
//! new follows. A **Nishio** chain (7.5) follows one digit alone, with no
//! cell links, and is *dynamic*: each "off" is crossed out of a working
//! copy of the marks, so a unit's last two places count what is left. An
//! assumption that leads to a contradiction is false. A **static**
//! chain (8.0) uses every rule on the marks as they are; when every
//! candidate of a cell with three or more, or every place of a digit in a
//! unit, implies the same thing, that thing holds (cell and unit forcing
//! chains). Each is rated by its base plus Sudoku Explainer's length
//! bonus over the number of implications it rests on: every candidate
//! state among its ancestors, counted once (for a dynamic chain, the
//! "offs" that left a unit its last two places are ancestors too).
//!
//! The details follow Sudoku Explainer's `Chaining`, because ratings are
//! only comparable when both find the same chains: which cells a static
//! search starts from (three candidates or more) and which cell of a unit
//! starts its unit chain (the first one with the digit).

use std::collections::VecDeque;

use super::bits::{Cells, UNITS, bit, digits, units_of};
use super::grid::Grid;
use super::step::{Mark, Step, keep_lowest};
use super::technique::{Rating, Technique, length_bonus};

/// A candidate being on or off: `(cell * 9 + digit - 1) * 2 + on`.
pub(super) type State = u16;

/// States there are: 729 candidates, on and off.
pub(super) const STATES: usize = 729 * 2;

pub(super) fn state(cell: usize, digit: u8, on: bool) -> State {
    ((cell * 9 + usize::from(digit) - 1) * 2 + usize::from(on)) as State
}

pub(super) fn cell_of(state: State) -> usize {
    usize::from(state) / 18
}

pub(super) fn digit_of(state: State) -> u8 {
    (usize::from(state) / 2 % 9) as u8 + 1
}

pub(super) fn is_on(state: State) -> bool {
    state % 2 == 1
}

pub(super) fn opposite(state: State) -> State {
    state ^ 1
}

/// The rules a search may use.
#[derive(Debug, Clone, Copy)]
struct Rules {
    /// Links between the candidates of one cell.
    cell_links: bool,
    /// Cross each "off" out of the working marks as it is followed.
    dynamic: bool,
}

const NISHIO: Rules = Rules {
    cell_links: false,
    dynamic: true,
};

const STATIC: Rules = Rules {
    cell_links: true,
    dynamic: false,
};

/// Everything one assumption implies, with what each implication rests
/// on.
struct Implications {
    /// For each state reached, where its parents are in `parents`: their
    /// start, plus one, shifted past their count in the low 8 bits (0 for
    /// a state not reached).
    spans: Vec<u32>,
    parents: Vec<State>,
    /// The states reached, as a bit set.
    reached: [u64; STATES.div_ceil(64)],
    /// A candidate found both on and off: its two states.
    contradiction: Option<(State, State)>,
}

impl Implications {
    fn has(&self, state: State) -> bool {
        self.reached[usize::from(state) / 64] & (1 << (state % 64)) != 0
    }

    fn reach(&mut self, state: State, parents: &[State]) {
        let start = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        self.spans[usize::from(state)] = ((start + 1) << 8) | parents.len() as u32;
        self.reached[usize::from(state) / 64] |= 1 << (state % 64);
    }

    fn parents_of(&self, state: State) -> &[State] {
        match self.spans[usize::from(state)] {
            0 => &[],
            span => {
                let start = (span >> 8) as usize - 1;
                &self.parents[start..start + (span & 0xff) as usize]
            }
        }
    }

    /// How many states `state` rests on, itself and the assumption
    /// included, each counted once.
    fn ancestors(&self, state: State) -> usize {
        let mut seen = [0u64; STATES.div_ceil(64)];
        let mut stack = vec![state];
        let mut count = 0;
        while let Some(next) = stack.pop() {
            let (word, mask) = (usize::from(next) / 64, 1u64 << (next % 64));
            if seen[word] & mask != 0 {
                continue;
            }
            seen[word] |= mask;
            count += 1;
            stack.extend_from_slice(self.parents_of(next));
        }
        count
    }
}

/// The working marks of a search: the grid's, less the "offs" followed
/// so far when the rules are dynamic.
struct Marks {
    by_cell: [u16; 81],
    by_digit: [Cells; 9],
}

/// Follows everything `start` implies under `rules`.
fn implications(grid: &Grid, start: State, rules: Rules) -> Implications {
    let mut found = Implications {
        spans: vec![0; STATES],
        parents: Vec::new(),
        reached: [0; STATES.div_ceil(64)],
        contradiction: None,
    };
    let mut marks = Marks {
        by_cell: std::array::from_fn(|cell| grid.marks(cell)),
        by_digit: std::array::from_fn(|d| grid.cells_with(d as u8 + 1)),
    };
    found.reach(start, &[]);
    let mut pending: [VecDeque<State>; 2] = [VecDeque::new(), VecDeque::new()];
    pending[usize::from(is_on(start))].push_back(start);
    let mut implied = Implied::default();
    loop {
        implied.clear();
        let (from, is_off) = match pending[1].pop_front() {
            Some(on) => (on, false),
            None => match pending[0].pop_front() {
                Some(off) => (off, true),
                None => return found,
            },
        };
        if is_off {
            turned_on(grid, &marks, from, rules, &mut implied);
            if rules.dynamic {
                marks.by_cell[cell_of(from)] &= !bit(digit_of(from));
                marks.by_digit[usize::from(digit_of(from)) - 1].0 &= !(1 << cell_of(from));
            }
        } else {
            turned_off(&marks, from, rules, &mut implied);
        }
        for &(next, start, length) in &implied.states {
            if found.has(next) {
                continue;
            }
            found.reach(next, &implied.parents[start..start + length]);
            if found.has(opposite(next)) {
                found.contradiction = Some((opposite(next), next));
                return found;
            }
            pending[usize::from(is_on(next))].push_back(next);
        }
    }
}

/// The states one implication step reaches, each with its parents (a
/// range of `parents`): buffers reused from step to step.
#[derive(Default)]
struct Implied {
    states: Vec<(State, usize, usize)>,
    parents: Vec<State>,
}

impl Implied {
    fn clear(&mut self) {
        self.states.clear();
        self.parents.clear();
    }

    fn push(&mut self, state: State, parents: impl IntoIterator<Item = State>) {
        let start = self.parents.len();
        self.parents.extend(parents);
        self.states.push((state, start, self.parents.len() - start));
    }
}

/// What `on` being true turns off: its cell's other candidates (with cell
/// links), and its digit in the cells it sees, box first, then row and
/// column.
fn turned_off(marks: &Marks, on: State, rules: Rules, implied: &mut Implied) {
    let (cell, digit) = (cell_of(on), digit_of(on));
    if rules.cell_links {
        for other in digits(marks.by_cell[cell] & !bit(digit)) {
            implied.push(state(cell, other, false), [on]);
        }
    }
    let places = marks.by_digit[usize::from(digit) - 1];
    for unit in units_of(cell) {
        for other in places.and(UNITS[unit]).iter().filter(|&c| c != cell) {
            implied.push(state(other, digit, false), [on]);
        }
    }
}

/// What `off` being true turns on: the other candidate of its cell when
/// two are left (with cell links), and the other place of its digit in
/// each unit where two are left. In a dynamic search the "offs" that
/// left only two are parents too.
fn turned_on(grid: &Grid, marks: &Marks, off: State, rules: Rules, implied: &mut Implied) {
    let (cell, digit) = (cell_of(off), digit_of(off));
    let left = marks.by_cell[cell];
    if rules.cell_links && left.count_ones() == 2 {
        let other = digits(left & !bit(digit)).next().expect("two candidates");
        let gone = if rules.dynamic {
            grid.marks(cell) & !left
        } else {
            0
        };
        let hidden = digits(gone).map(|d| state(cell, d, false));
        implied.push(state(cell, other, true), std::iter::once(off).chain(hidden));
    }
    let places = marks.by_digit[usize::from(digit) - 1];
    for unit in units_of(cell) {
        let here = places.and(UNITS[unit]);
        if here.len() != 2 || !here.has(cell) {
            continue;
        }
        let other = here.minus(Cells::single(cell)).first().expect("two places");
        let gone = match rules.dynamic {
            true => grid.cells_with(digit).and(UNITS[unit]).minus(here),
            false => Cells::EMPTY,
        };
        let hidden = gone.iter().map(|c| state(c, digit, false));
        implied.push(
            state(other, digit, true),
            std::iter::once(off).chain(hidden),
        );
    }
}

/// The lowest-rated Nishio chain: a candidate whose truth (or falsity),
/// followed on its digit alone, leads to a contradiction.
pub fn nishio(grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    let mut best = None;
    for cell in grid.blanks().iter() {
        if should_stop() {
            return None;
        }
        if grid.marks(cell).count_ones() < 2 {
            continue;
        }
        for digit in digits(grid.marks(cell)) {
            for on in [true, false] {
                let found = implications(grid, state(cell, digit, on), NISHIO);
                let Some((a, b)) = found.contradiction else {
                    continue;
                };
                let complexity = found.ancestors(a) + found.ancestors(b);
                let mut step = Step::new(Technique::NishioForcingChain);
                step.rating = Rating(75 + length_bonus(complexity));
                let assumed = Mark::new(cell, digit);
                step.pattern = vec![assumed, Mark::new(cell_of(a), digit_of(a))];
                match on {
                    true => step.eliminations.push(assumed),
                    false => step.placements.push(assumed),
                }
                step.digits = bit(digit);
                keep_lowest(&mut best, step);
            }
        }
    }
    best
}

/// The lowest-rated static cell or unit forcing chain: a placement or
/// elimination that every candidate of a cell, or every place of a digit
/// in a unit, implies.
pub fn static_forcing_chain(grid: &Grid, should_stop: &dyn Fn() -> bool) -> Option<Step> {
    let mut branches: Vec<Option<Box<Implications>>> = (0..729).map(|_| None).collect();
    let mut best = None;
    for cell in grid.blanks().iter() {
        if should_stop() {
            return None;
        }
        let candidates = grid.marks(cell);
        if candidates.count_ones() < 3 {
            continue;
        }
        let options: Vec<(usize, u8)> = digits(candidates).map(|d| (cell, d)).collect();
        let technique = Technique::StaticCellForcingChain;
        if let Some(step) = agreement(grid, &mut branches, &options, technique, None) {
            keep_lowest(&mut best, step);
        }
        for digit in digits(candidates) {
            for unit in units_of(cell) {
                let places = grid.cells_with(digit).and(UNITS[unit]);
                if places.len() < 2 || places.first() != Some(cell) {
                    continue;
                }
                let options: Vec<(usize, u8)> = places.iter().map(|c| (c, digit)).collect();
                let technique = Technique::StaticUnitForcingChain;
                if let Some(step) = agreement(grid, &mut branches, &options, technique, Some(unit))
                {
                    keep_lowest(&mut best, step);
                }
            }
        }
    }
    best
}

/// The lowest-rated result that each of `options` (one of which is
/// true) implies, as a step of `technique`.
fn agreement(
    grid: &Grid,
    branches: &mut [Option<Box<Implications>>],
    options: &[(usize, u8)],
    technique: Technique,
    unit: Option<usize>,
) -> Option<Step> {
    for &(cell, digit) in options {
        let index = cell * 9 + usize::from(digit) - 1;
        if branches[index].is_none() {
            branches[index] = Some(Box::new(implications(
                grid,
                state(cell, digit, true),
                STATIC,
            )));
        }
    }
    let branches: Vec<&Implications> = options
        .iter()
        .map(|&(cell, digit)| {
            branches[cell * 9 + usize::from(digit) - 1]
                .as_deref()
                .expect("worked out above")
        })
        .collect();
    let mut common = branches[0].reached;
    for branch in &branches[1..] {
        for (word, other) in common.iter_mut().zip(branch.reached) {
            *word &= other;
        }
    }
    let mut best: Option<Step> = None;
    for target in
        (0..STATES as State).filter(|&s| common[usize::from(s) / 64] & (1 << (s % 64)) != 0)
    {
        let (cell, digit) = (cell_of(target), digit_of(target));
        if !grid.has(cell, digit) {
            continue;
        }
        let complexity: usize = branches.iter().map(|b| b.ancestors(target)).sum();
        let mut step = Step::new(technique);
        step.rating = Rating(80 + length_bonus(complexity));
        if best.as_ref().is_some_and(|b| b.rating <= step.rating) {
            continue;
        }
        let result = Mark::new(cell, digit);
        match is_on(target) {
            true => step.placements.push(result),
            false => step.eliminations.push(result),
        }
        step.pattern = options.iter().map(|&(c, d)| Mark::new(c, d)).collect();
        step.units.extend(unit);
        step.digits = options.iter().fold(0, |m, &(_, d)| m | bit(d));
        best = Some(step);
    }
    best
}
