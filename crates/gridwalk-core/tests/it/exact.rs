//! `GoalPlanner::set_exact`: after every compute, D\* Lite and D\* give Dijkstra's cost at
//! every start and at every cell they were told must be exact (here, as crowd mode asks, the
//! cells one legal move from each start), under random edits and agents that move, whether the
//! compute runs whole or in budgeted slices. MPGAA\*, which searches forward, ignores the list.

use gridwalk_core::cost::INFINITY;
use gridwalk_core::search::Storage;
use gridwalk_core::{
    Algorithm, Connectivity, GoalPlanner, Grid, Heuristic, Pos, Progress, Terrain, new_planner_in,
};
use proptest::prelude::*;

use crate::common::{WorldShape, reference_costs, world};

/// The starts and every cell one legal move from a start.
fn around(grid: &Grid, starts: &[usize], conn: Connectivity) -> Vec<usize> {
    let mut cells = Vec::new();
    for &s in starts {
        grid.for_each_neighbor(s, conn, |n, _| cells.push(n));
    }
    cells
}

/// Runs `planner` to its end, in slices of `slice` expansions when given.
fn compute(planner: &mut dyn GoalPlanner, grid: &Grid, slice: Option<u64>) {
    match slice {
        None => {
            planner.compute(grid);
        }
        Some(n) => while planner.compute_within(grid, n).1 == Progress::Pending {},
    }
}

/// Checks every start and neighbour against Dijkstra from the goal.
fn check(
    planner: &dyn GoalPlanner,
    grid: &Grid,
    goal: usize,
    cells: &[usize],
    conn: Connectivity,
) -> Result<(), TestCaseError> {
    let truth = reference_costs(grid, goal, conn);
    for &c in cells {
        let want = if grid.weight(c) == 0 {
            INFINITY
        } else {
            truth[c]
        };
        prop_assert_eq!(planner.cost_to_goal(c), want, "cell {}", grid.pos(c));
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(300))]

    #[test]
    fn neighbours_of_starts_are_exact(
        w in world(WorldShape {
            sides: 2..=14,
            max_density: 40,
            agents: 1..4,
            rounds: 1..6,
            edit_weights: 0..=4,
        }),
        algorithm in prop::sample::select(vec![Algorithm::DStarLite, Algorithm::DStar]),
        storage in prop::sample::select(vec![Storage::Flat, Storage::Tiles]),
        slice in prop::option::of(1u64..20),
        steps in prop::collection::vec(0usize..9, 6),
    ) {
        let mut grid = w.grid.clone();
        let goal = grid.index(w.goal).unwrap();
        let heuristic = Heuristic::default_for(w.conn);
        let mut planner =
            new_planner_in(algorithm, &grid, w.goal, w.conn, heuristic, storage).unwrap();
        let mut agents: Vec<usize> = w.agents.iter().map(|&a| grid.index(a).unwrap()).collect();
        for (round, edits) in w.rounds.iter().enumerate() {
            planner.set_starts(&grid, &agents);
            let exact = around(&grid, &agents, w.conn);
            prop_assert!(algorithm.honours_exact());
            planner.set_exact(&grid, &exact);
            compute(planner.as_mut(), &grid, slice);
            check(planner.as_ref(), &grid, goal, &agents, w.conn)?;
            check(planner.as_ref(), &grid, goal, &exact, w.conn)?;
            // Each agent steps to one of its neighbours (not always the best), then the map
            // changes away from the agents and the goal.
            for (i, a) in agents.iter_mut().enumerate() {
                let mut options = Vec::new();
                grid.for_each_neighbor(*a, w.conn, |n, _| options.push(n));
                if !options.is_empty() {
                    *a = options[steps[(i + round) % steps.len()] % options.len()];
                }
            }
            let mut changed = Vec::new();
            for &(x, y, weight) in edits {
                let p = Pos::new(x, y);
                let c = grid.index(p).unwrap();
                if c == goal || agents.contains(&c) {
                    continue;
                }
                let t = if weight == 0 { Terrain::Wall } else { Terrain::Weight(weight) };
                grid.set(p, t).unwrap();
                changed.push(c);
            }
            planner.cells_changed(&grid, &changed);
        }
    }
}

#[test]
fn mpgaa_does_not_honour_exact_cells() {
    // Its planner ignores the list: a cell beside the start, unsearched, stays unknown.
    let grid = Grid::new(5, 5).unwrap();
    let (goal, conn) = (Pos::new(4, 4), Connectivity::Eight);
    let h = Heuristic::default_for(conn);
    assert!(!Algorithm::Mpgaa.honours_exact());
    let mut p = new_planner_in(Algorithm::Mpgaa, &grid, goal, conn, h, Storage::Flat).unwrap();
    p.set_starts(&grid, &[0]);
    p.set_exact(&grid, &around(&grid, &[0], conn));
    p.compute(&grid);
    let beside = grid.index(Pos::new(0, 4)).unwrap();
    assert_eq!(p.cost_to_goal(beside), INFINITY);
}
