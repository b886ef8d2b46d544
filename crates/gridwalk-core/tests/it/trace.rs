//! The recorded steps of every search against an independent reference: a plain Dijkstra
//! cost field, on random grids under random edits.
//!
//! - every D* Lite `lower` gives its cell the true cost to the goal on that tick's map (the
//!   LPA*/D* Lite theorem: a cell made consistent from over-consistent is exact);
//! - within one compute a cell is lowered at most once, raised at most once, and a raise
//!   comes before a lower;
//! - every A* and Dijkstra `close` carries the cell's true cost from the start;
//! - the expansions add up to the reported count, and replaying the steps gives the queue.

use crate::common;

use std::collections::BTreeMap;

use gridwalk_core::cost::{Cost, INFINITY};
use gridwalk_core::search::{Mode, SearchRequest, SearchSpace};
use gridwalk_core::trace::{ExpansionKind, Trace};
use gridwalk_core::{Algorithm, Grid, Heuristic, Pos, Terrain, new_planner};
use proptest::prelude::*;

use crate::common::reference_costs as reference;
use crate::common::{World, WorldShape};

fn world() -> impl Strategy<Value = World> {
    common::world(WorldShape {
        sides: 2..=24,
        max_density: 45,
        agents: 1..4,
        rounds: 1..7,
        edit_weights: 0..=4,
    })
}

/// The checks a compute's trace must pass. `truth` is the true cost to the goal. `dstar_lite`
/// adds D* Lite's theorems (D* may process a state more than once per compute).
fn check_compute(
    trace: &Trace,
    truth: &[Cost],
    expanded: u64,
    dstar_lite: bool,
    grid: &Grid,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(trace.expansion_count() as u64, expanded);
    if !dstar_lite {
        for e in trace.expansions() {
            prop_assert!(e.kind != ExpansionKind::Close, "a planner never closes");
        }
        return Ok(());
    }
    let mut seen: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    for e in trace.expansions() {
        let (lowered, raised) = seen.entry(e.cell).or_default();
        match e.kind {
            ExpansionKind::Lower => {
                *lowered += 1;
                prop_assert_eq!(
                    e.cost,
                    truth[e.cell as usize],
                    "lowered {} is not exact",
                    grid.pos(e.cell as usize)
                );
            }
            ExpansionKind::Raise => {
                prop_assert_eq!(*lowered, 0, "a raise after a lower at {}", e.cell);
                *raised += 1;
                prop_assert_eq!(e.cost, INFINITY, "a D* Lite raise sets g to infinity");
            }
            ExpansionKind::Close => prop_assert!(false, "a planner never closes"),
        }
        prop_assert!(
            *lowered <= 1 && *raised <= 1,
            "cell {} expanded twice",
            e.cell
        );
    }
    Ok(())
}

/// Runs a planner over the world's rounds, checking every compute, and checks that replaying
/// the steps gives the queue the planner reports.
fn run_planner(w: &World, algorithm: Algorithm) -> Result<(), TestCaseError> {
    let mut grid = w.grid.clone();
    let mut planner = new_planner(
        algorithm,
        &grid,
        w.goal,
        w.conn,
        Heuristic::default_for(w.conn),
    )
    .unwrap();
    planner.set_tracing(true);
    let goal = grid.index(w.goal).unwrap();
    let starts: Vec<usize> = w.agents.iter().map(|&a| grid.index(a).unwrap()).collect();
    let protected = |p: Pos| p == w.goal || w.agents.contains(&p);
    for round in &w.rounds {
        let mut changed = Vec::new();
        for &(x, y, weight) in round {
            let p = Pos::new(x, y);
            if protected(p) {
                continue;
            }
            let t = if weight == 0 {
                Terrain::Wall
            } else {
                Terrain::Weight(weight)
            };
            if grid.set(p, t).unwrap() != t {
                changed.push(grid.index(p).unwrap());
            }
        }
        planner.set_starts(&grid, &starts);
        planner.cells_changed(&grid, &changed);
        let stats = planner.compute(&grid);
        let truth = reference(&grid, goal, w.conn);
        let trace = planner.last_trace();
        check_compute(
            trace,
            &truth,
            stats.expanded,
            algorithm == Algorithm::DStarLite,
            &grid,
        )?;
        // A compute that took no step records nothing, not even its queue; one that did
        // replays to the queue it left.
        let stepped = !trace.steps.is_empty();
        prop_assert!(
            stepped || trace.initial_open.is_empty(),
            "a queue recorded for no step"
        );
        let replayed = stepped.then(|| trace.frontier(usize::MAX, grid.len()));
        for cell in 0..grid.len() {
            let info = planner.inspect(&grid, cell).unwrap();
            if let Some(replayed) = &replayed {
                prop_assert_eq!(replayed[cell], info.queued, "cell {} queue state", cell);
            }
            if algorithm == Algorithm::DStarLite {
                prop_assert_eq!(info.queued, info.inconsistent(), "queued iff g != rhs");
            }
        }
        for &s in &starts {
            prop_assert_eq!(planner.cost_to_goal(s), truth[s]);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(96))]

    #[test]
    fn dstar_lite_lowers_are_exact_and_raises_come_first(w in world()) {
        run_planner(&w, Algorithm::DStarLite)?;
    }

    #[test]
    fn dstar_traces_add_up_and_replay_to_its_queue(w in world()) {
        run_planner(&w, Algorithm::DStar)?;
    }

    #[test]
    fn astar_and_dijkstra_close_with_the_true_cost(w in world(), dijkstra in any::<bool>()) {
        let start = w.agents[0];
        let s = w.grid.index(start).unwrap();
        let truth = reference(&w.grid, s, w.conn);
        let mode = if dijkstra { Mode::Dijkstra } else { Mode::AStar };
        let req = SearchRequest::astar(start, w.goal, w.conn, Heuristic::default_for(w.conn))
            .with_mode(mode);
        let mut trace = Trace::default();
        let r = SearchSpace::new().search(&w.grid, &req, Some(&mut trace)).unwrap();
        prop_assert_eq!(trace.expansion_count() as u64, r.stats.expanded);
        let mut closed = std::collections::BTreeSet::new();
        for e in trace.expansions() {
            prop_assert_eq!(e.kind, ExpansionKind::Close);
            prop_assert_eq!(e.cost, truth[e.cell as usize], "close of {}", e.cell);
            prop_assert!(closed.insert(e.cell), "closed twice: {}", e.cell);
        }
        let goal = w.grid.index(w.goal).unwrap();
        prop_assert_eq!(r.path.map(|p| p.cost).unwrap_or(INFINITY), truth[goal]);
    }
}
