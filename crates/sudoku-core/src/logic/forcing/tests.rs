//! Hand-made positions for the forcing-chain engine: what a propagation
//! reaches and rests on, which conclusion a producer picks, and the order
//! the nested rules emit their removals in.

use super::super::grid::Grid;
use super::super::implications::{cell_of, digit_of, is_on, state};
use super::super::technique::{Rating, Technique};
use super::super::tests::path_of;
use super::advanced::{Advanced, hash_map_order};
use super::propagation::{Links, Mode, Propagation, propagate, propagate_fixed};
use super::search::{Conclusion, Kind, Sink, complexity, least, unskipped_conclusions, walk};
use super::*;

const DYNAMIC: Mode = Mode {
    cell_links: true,
    dynamic: true,
    level: 0,
};

/// A Sudoku Exchange puzzle whose hardest step, for Sukaku Explainer as
/// for us, is a dynamic contradiction (8.9).
const CONTRADICTION: &str =
    "5.4.2.8.77.......3...7.3.....8.3.9....5.9.4.....6.4...8..3.2..1.2..6..5.6...8...9";

/// The position of `text` where its path first needs `technique`.
fn grid_before(text: &str, technique: Technique) -> Grid {
    path_of(text)
        .0
        .into_iter()
        .find_map(|(grid, step)| (step.technique == technique).then_some(grid))
        .expect("the path needs the technique")
}

#[test]
fn every_node_rests_on_nodes_reached_before_it_and_the_assumption_on_none() {
    let grid = grid_before(CONTRADICTION, Technique::ContradictionForcingChain);
    let mut contradictions = 0;
    for cell in grid.blanks().iter() {
        for digit in super::super::bits::digits(grid.marks(cell)) {
            for on in [true, false] {
                let start = state(cell, digit, on);
                let found = propagate(&grid, start, DYNAMIC, &mut Advanced::default(), &|| false);
                assert!(found.parents(0).is_empty());
                assert_eq!(found.node(0).state, start);
                for &id in found.ons().iter().chain(found.offs()) {
                    let node = found.node(id);
                    let (c, d) = (cell_of(node.state), digit_of(node.state));
                    assert!(grid.has(c, d), "{c} {d} is a candidate");
                    assert!(found.parents(id).iter().all(|&p| p < id));
                    assert_eq!(found.find(node.state), Some(id));
                    assert_eq!(id == 0, found.parents(id).is_empty());
                }
                if let Some((a, b)) = found.contradiction {
                    contradictions += 1;
                    let (a, b) = (found.node(a).state, found.node(b).state);
                    assert_eq!((a ^ 1, is_on(a), is_on(b)), (b, true, false));
                }
            }
        }
    }
    assert!(contradictions > 0);
}

/// Every search from a candidate on or off of `grid` under `mode`.
fn every_search(grid: &Grid, mode: Mode) -> Vec<(u16, Propagation)> {
    let mut found = Vec::new();
    for cell in grid.blanks().iter() {
        for digit in super::super::bits::digits(grid.marks(cell)) {
            for on in [true, false] {
                let start = state(cell, digit, on);
                found.push((
                    start,
                    propagate(grid, start, mode, &mut Advanced::default(), &|| false),
                ));
            }
        }
    }
    found
}

#[test]
fn a_static_search_by_the_grid_s_links_reaches_what_it_reaches_on_the_grid() {
    let grid = Grid::new(&crate::parse_board(CONTRADICTION).expect("a puzzle"));
    let mode = search::STATIC.mode;
    let links = Links::new(&grid, mode);
    let mut contradictions = 0;
    for (start, on_grid) in every_search(&grid, mode) {
        let by_links = propagate_fixed(&links, start);
        let nodes = |found: &Propagation| -> Vec<_> {
            let ids = found.ons().iter().chain(found.offs());
            ids.map(|&id| {
                (
                    found.node(id).state,
                    found.node(id).cause,
                    found.parents(id).to_vec(),
                )
            })
            .collect()
        };
        assert_eq!(nodes(&by_links), nodes(&on_grid), "from {start}");
        let ends = |found: &Propagation| {
            found.contradiction.map(|(a, b)| {
                (
                    found.node(a).state,
                    found.node(b).state,
                    found.parents(a).to_vec(),
                    found.parents(b).to_vec(),
                )
            })
        };
        assert_eq!(ends(&by_links), ends(&on_grid), "from {start}");
        contradictions += usize::from(on_grid.contradiction.is_some());
    }
    assert!(contradictions > 0, "{contradictions}");
}

#[test]
fn a_node_rests_on_its_line_of_first_parents_at_least_and_in_a_static_search_on_it_alone() {
    let grid = grid_before(CONTRADICTION, Technique::ContradictionForcingChain);
    for (mode, exact) in [(DYNAMIC, false), (search::STATIC.mode, true)] {
        let mut longer = 0;
        for (_, found) in every_search(&grid, mode) {
            for &id in found.ons().iter().chain(found.offs()) {
                let line = least(&found, id);
                let rests_on = walk(&found, id, |_| {});
                assert!(line <= rests_on, "{line} {rests_on}");
                assert!(!exact || line == rests_on, "{line} {rests_on}");
                longer += usize::from(line < rests_on);
            }
        }
        // Dynamic nodes have hidden parents: the bound is not always met.
        assert_eq!(longer > 0, !exact);
    }
}

#[test]
fn a_contradiction_rests_on_both_its_ends_ancestors() {
    let grid = grid_before(CONTRADICTION, Technique::ContradictionForcingChain);
    let step = dynamic_forcing_chain(&grid, 0, &|| false).expect("a dynamic step");
    let start = step.pattern[0];
    let found = std::rc::Rc::new(propagate(
        &grid,
        state(
            usize::from(start.cell),
            start.digit,
            step.placements.is_empty(),
        ),
        DYNAMIC,
        &mut Advanced::default(),
        &|| false,
    ));
    let (on, off) = found.contradiction.expect("the step is a contradiction");
    let sizes = [on, off].map(|id| walk(&found, id, |_| {}));
    let both = complexity(&[(found.clone(), on), (found, off)], &Default::default());
    assert_eq!(both, sizes[0] + sizes[1]);
    let rating = Rating(85 + super::super::technique::length_bonus(both as usize));
    assert_eq!(
        (step.technique, step.rating),
        (Technique::ContradictionForcingChain, rating)
    );
}

#[test]
fn removals_come_in_the_order_a_java_hash_map_keyed_by_cell_keeps_them() {
    let listed = [(2, 1), (17, 1), (1, 1)];
    let cells: Vec<u8> = hash_map_order(&listed).iter().map(|&(c, _)| c).collect();
    assert_eq!(cells, [17, 1, 2]);
    // Thirteen entries double the capacity to 32: 1 then comes first.
    let mut many: Vec<(u8, u16)> = (34..46).map(|c| (c, 1)).collect();
    many.push((1, 1));
    let cells: Vec<u8> = hash_map_order(&many).iter().map(|&(c, _)| c).collect();
    assert_eq!(&cells[..3], [1, 34, 35]);
}

/// Every conclusion a search hands over, as what tells them apart: the
/// node, kind, source, and how many nodes it rests on.
#[derive(Default)]
struct Every(Vec<(u16, Kind, usize, u8, Option<usize>, u32)>);

impl Sink for Every {
    fn wants(&self, _: u32, _: Kind) -> bool {
        true
    }

    fn take(&mut self, c: Conclusion, nested: &NestedChains) {
        let nodes = complexity(&c.targets, nested);
        self.0
            .push((c.node, c.kind, c.cell, c.digit, c.unit, nodes));
    }
}

/// Every grid, before each step, on the paths of the SE-rated puzzles
/// that need dynamic chains.
fn grids_on_dynamic_chain_paths() -> Vec<Grid> {
    super::super::tests::DYNAMIC_CHAINS
        .iter()
        .flat_map(|(text, ..)| path_of(text).0)
        .map(|(grid, _)| grid)
        .collect()
}

#[test]
fn a_static_search_skips_only_cells_and_units_whose_branches_cannot_meet() {
    // Every grid on the paths of puzzles that need dynamic chains: the
    // static search finds every conclusion, in the same order, when it
    // skips the cells and units whose branches reach no node in common.
    let (mut grids, mut found) = (0, 0);
    for grid in grids_on_dynamic_chain_paths() {
        let (mut skipping, mut every) = (Every::default(), Every::default());
        let plain = &mut Advanced::default();
        assert!(conclusions(
            &grid,
            search::STATIC,
            plain,
            &|| false,
            &mut skipping
        ));
        unskipped_conclusions(&grid, search::STATIC, plain, &mut every);
        assert_eq!(skipping.0, every.0, "{}", grid.marks_text());
        grids += 1;
        found += every.0.len();
    }
    assert!(
        grids > 100 && found > 1000,
        "{grids} grids, {found} conclusions"
    );
}

#[test]
fn the_cycles_and_the_static_chains_follow_links_that_reach_alike() {
    // They share one reach per grid (`of_every_link`): on grids along
    // the paths of puzzles that need chains, every pair of candidates
    // reaches alike by either's links.
    let (mut grids, mut reached) = (0, 0);
    for grid in grids_on_dynamic_chain_paths().iter().step_by(5) {
        let by_cycles = super::super::cycles::every_link_reach(grid);
        let by_chains = Links::new(grid, search::STATIC.mode).own_reach();
        let nodes: Vec<u16> = (0..super::super::implications::STATES as u16)
            .filter(|&n| grid.has(cell_of(n), digit_of(n)))
            .collect();
        for &from in &nodes {
            for &to in &nodes {
                let reaches = by_cycles.reaches(from, to);
                assert_eq!(reaches, by_chains.reaches(from, to), "{from} -> {to}");
                reached += usize::from(reaches);
            }
        }
        grids += 1;
    }
    assert!(
        grids > 20 && reached > 100_000,
        "{grids} grids, {reached} pairs"
    );
}

/// From the forum's list of puzzles rated 11 and up: Sukaku Explainer
/// rates it 11.6/11.6/2.6, its hardest step "Dynamic Cell Forcing Chains
/// (+ Dynamic Forcing Chains)", nesting level 4.
const DYNAMIC_NESTED: &str =
    "........1.....234....15......2...43..36...7..8.......9..7..4.6.2....7...5..98....";

#[test]
fn level_four_nests_dynamic_chains_where_the_levels_below_find_nothing() {
    let grid = grid_before(DYNAMIC_NESTED, Technique::NestedDynamicForcingChain);
    let never = &|| false;
    for level in 0..=3 {
        assert!(
            dynamic_forcing_chain(&grid, level, never).is_none(),
            "level {level} finds nothing"
        );
    }
    let step = dynamic_forcing_chain(&grid, 4, never).expect("level 4 finds a step");
    assert_eq!(step.technique, Technique::NestedDynamicForcingChain);
    assert!(step.rating >= Rating(105), "{}", step.rating);
    let inner: Vec<&str> = step
        .branches
        .iter()
        .flat_map(|b| b.techniques.iter().copied())
        .collect();
    assert!(
        inner.contains(&"Dynamic Forcing Chains"),
        "its links rest on dynamic chains: {inner:?}"
    );
}

#[test]
fn a_stop_reaches_the_searches_nested_in_a_level_four_search() {
    let grid = grid_before(DYNAMIC_NESTED, Technique::NestedDynamicForcingChain);
    let producer = super::search::dynamic(4);
    let polls = std::cell::Cell::new(0u32);
    let stop_after = std::cell::Cell::new(u32::MAX);
    let should_stop = || {
        polls.set(polls.get() + 1);
        polls.get() > stop_after.get()
    };
    let mut advanced = Advanced::default();
    let found = super::search::conclusions(
        &grid,
        producer,
        &mut advanced,
        &should_stop,
        &mut Every::default(),
    );
    assert!(found);
    // The search itself polls once a cell: the rest are the nested ones.
    let blanks = grid.blanks().len();
    assert!(
        polls.get() > 10 * blanks,
        "{} polls for {blanks} cells",
        polls.get()
    );
    // Stopped halfway, inside a nested search: it says so, and keeps no
    // nested chains cut short, so the same state then finds what a fresh
    // one finds.
    let mut advanced = Advanced::default();
    stop_after.set(polls.get() / 2);
    polls.set(0);
    let cut = super::search::conclusions(
        &grid,
        producer,
        &mut advanced,
        &should_stop,
        &mut Every::default(),
    );
    assert!(!cut, "the search says it was cut short");
    let step = easiest_with(&grid, producer, &mut advanced, &|| false).expect("a step");
    let fresh = easiest_with(&grid, producer, &mut Advanced::default(), &|| false);
    assert_eq!(Some(step.rating), fresh.map(|s| s.rating));
}
