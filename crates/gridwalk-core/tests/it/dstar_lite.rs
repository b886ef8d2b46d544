//! D* Lite against Dijkstra: random grids, random edits, agents moving, shared goals.

use crate::common;

use crate::common::{World, WorldShape};
use gridwalk_core::cost::INFINITY;
use gridwalk_core::queue::{LazyHeap, SortedList};
use gridwalk_core::search::Flat;
use gridwalk_core::search::dijkstra;
use gridwalk_core::search::dstar_lite::{DStarLite, Key};
use gridwalk_core::{Connectivity, GoalPlanner, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;

/// A random world and an admissible heuristic for its moves (only those promise optimality).
fn world() -> impl Strategy<Value = (World, Heuristic)> {
    let shape = WorldShape {
        sides: 1..=64,
        max_density: 60,
        agents: 1..5,
        rounds: 1..8,
        edit_weights: 1..=9,
    };
    (common::world(shape), 0usize..4).prop_map(|(w, choice)| {
        let heuristic = match (choice, w.conn) {
            (0, Connectivity::Four) => Heuristic::Manhattan,
            (0, _) => Heuristic::Octile,
            (1, _) => Heuristic::Euclidean,
            (2, _) => Heuristic::Chebyshev,
            _ => Heuristic::Zero,
        };
        (w, heuristic)
    })
}

/// Checks every agent's cost and path against Dijkstra on the current grid.
fn check_agents<P: GoalPlanner>(
    planner: &P,
    grid: &Grid,
    conn: Connectivity,
    agents: &[Pos],
    goal: Pos,
) {
    for &a in agents {
        let reference = dijkstra(grid, a, goal, conn).unwrap().path.map(|p| p.cost);
        let i = grid.index(a).unwrap();
        let cost = planner.cost_to_goal(i);
        match reference {
            None => {
                assert_eq!(cost, INFINITY, "agent {a} should have no path");
                assert_eq!(planner.next_step(grid, i), None);
                assert_eq!(planner.path(grid, i), None);
            }
            Some(best) => {
                assert_eq!(cost, best, "agent {a}: planner cost differs from Dijkstra");
                let path = planner.path(grid, i).expect("a reachable goal has a path");
                path.validate(grid, conn).unwrap();
                assert_eq!(path.cells.first(), Some(&a));
                assert_eq!(path.cells.last(), Some(&goal));
                assert_eq!(path.cost, best);
                if a != goal {
                    let next = planner.next_step(grid, i).expect("a next step");
                    assert_eq!(grid.pos(next), path.cells[1]);
                }
            }
        }
    }
}

/// Runs a world's rounds: edits (never on agents or the goal), agents step, repair, check.
/// A twin planner with the other store ([`Flat`] beside the default tiles), told of every change
/// twice, makes the same repairs: its expansions, its path and every cell's cost must be the
/// first one's.
fn run_world<Q: gridwalk_core::queue::CellQueue<Key> + Send + Sync>(w: (World, Heuristic)) {
    let (
        World {
            mut grid,
            conn,
            goal,
            mut agents,
            rounds,
        },
        heuristic,
    ) = w;
    let mut planner = DStarLite::<Q>::with_queue(&grid, goal, conn, heuristic).unwrap();
    let mut twin = DStarLite::<Q, false, Flat>::with_queue(&grid, goal, conn, heuristic).unwrap();
    let idx = |g: &Grid, v: &[Pos]| v.iter().map(|&p| g.index(p).unwrap()).collect::<Vec<_>>();
    planner.set_starts(&grid, &idx(&grid, &agents));
    twin.set_starts(&grid, &idx(&grid, &agents));
    compute_twins(&mut planner, &mut twin, (&grid, conn), &agents, goal);
    for round in rounds {
        // Agents step along their paths first, as a tick would after the last repair.
        for a in agents.iter_mut() {
            if let Some(n) = planner.next_step(&grid, grid.index(*a).unwrap()) {
                *a = grid.pos(n);
            }
        }
        let mut changed = Vec::new();
        for (x, y, weight) in round {
            let p = Pos::new(x, y);
            if p == goal || agents.contains(&p) {
                continue;
            }
            let t = match grid.terrain(p).unwrap() {
                Terrain::Wall => Terrain::Weight(weight.min(3)),
                Terrain::Weight(_) if weight > 4 => Terrain::Wall,
                Terrain::Weight(_) => Terrain::Weight(weight),
            };
            grid.set(p, t).unwrap();
            changed.push(grid.index(p).unwrap());
        }
        planner.set_starts(&grid, &idx(&grid, &agents));
        planner.cells_changed(&grid, &changed);
        // The twin hears of every change again, as after back-and-forth edits: the grid
        // shows only where each cell ended, so it must repair exactly as the first does.
        let repeated: Vec<usize> = changed
            .iter()
            .chain(changed.iter().rev())
            .copied()
            .collect();
        twin.set_starts(&grid, &idx(&grid, &agents));
        twin.cells_changed(&grid, &repeated);
        compute_twins(&mut planner, &mut twin, (&grid, conn), &agents, goal);
    }
}

/// Both stores' planners compute: the same number of expansions, exact costs for the agents,
/// and the same state after ([`check_twins`]).
fn compute_twins(
    planner: &mut impl GoalPlanner,
    twin: &mut impl GoalPlanner,
    (grid, conn): (&Grid, Connectivity),
    agents: &[Pos],
    goal: Pos,
) {
    let work = planner.compute(grid).expanded;
    assert_eq!(
        twin.compute(grid).expanded,
        work,
        "flat expands as tiles do"
    );
    check_agents(&*planner, grid, conn, agents, goal);
    check_twins(&*planner, &*twin, grid, agents);
}

/// The two stores' planners agree on every cell's `g` and `rhs`, on the last expansions in
/// order, and on the agents' paths.
fn check_twins(a: &dyn GoalPlanner, b: &dyn GoalPlanner, grid: &Grid, agents: &[Pos]) {
    assert_eq!(
        a.last_expanded(),
        b.last_expanded(),
        "same expansions, same order"
    );
    for c in 0..grid.len() {
        let (x, y) = (a.inspect(grid, c).unwrap(), b.inspect(grid, c).unwrap());
        assert_eq!((x.g, x.rhs, x.queued), (y.g, y.rhs, y.queued), "cell {c}");
    }
    for &p in agents {
        let i = grid.index(p).unwrap();
        assert_eq!(a.path(grid, i), b.path(grid, i));
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(200))]

    #[test]
    fn dstar_lite_matches_dijkstra_after_every_repair(w in world()) {
        run_world::<gridwalk_core::queue::IndexedHeap<Key>>(w);
    }

    #[test]
    fn dstar_lite_with_the_sorted_list_matches_dijkstra(w in world()) {
        run_world::<SortedList<Key>>(w);
    }

    #[test]
    fn dstar_lite_with_the_lazy_heap_matches_dijkstra(w in world()) {
        run_world::<LazyHeap<Key>>(w);
    }
}

fn grid_from(rows: &[&str]) -> Grid {
    gridwalk_core::format::grid_from_rows(rows).unwrap()
}

/// Walks one agent with next_step until it arrives; fails on a revisit (oscillation).
fn walk(planner: &mut DStarLite, grid: &Grid, mut at: Pos, goal: Pos) -> Vec<Pos> {
    let mut seen = vec![at];
    while at != goal {
        planner.set_starts(grid, &[grid.index(at).unwrap()]);
        planner.compute(grid);
        let n = planner
            .next_step(grid, grid.index(at).unwrap())
            .expect("path");
        at = grid.pos(n);
        assert!(!seen.contains(&at), "agent revisited {at}: oscillation");
        seen.push(at);
    }
    seen
}

#[test]
fn start_equal_to_goal_is_a_one_cell_path() {
    let grid = Grid::new(3, 3).unwrap();
    let goal = Pos::new(1, 1);
    let mut p = DStarLite::new(&grid, goal, Connectivity::Eight, Heuristic::Octile).unwrap();
    let i = grid.index(goal).unwrap();
    p.set_starts(&grid, &[i]);
    p.compute(&grid);
    assert_eq!(p.cost_to_goal(i), 0);
    assert_eq!(p.next_step(&grid, i), None);
    assert_eq!(p.path(&grid, i).unwrap().cells, vec![goal]);
}

#[test]
fn no_oscillation_in_an_enclosed_area() {
    // A pocket whose exit is far: greedy-looking moves toward the goal would bounce.
    let grid = grid_from(&[
        "..........",
        ".########.",
        ".#......#.",
        ".#.####.#.",
        ".#.#..#.#.",
        ".#.#..#...",
        ".#.####.#.",
        ".#......#.",
        ".########.",
        "..........",
    ]);
    let (start, goal) = (Pos::new(4, 4), Pos::new(0, 0));
    let mut p = DStarLite::new(&grid, goal, Connectivity::Eight, Heuristic::Octile).unwrap();
    // (4,4) is sealed inside the inner box: no path, and no step.
    p.set_starts(&grid, &[grid.index(start).unwrap()]);
    p.compute(&grid);
    assert_eq!(p.next_step(&grid, grid.index(start).unwrap()), None);
    let start = Pos::new(2, 2);
    let steps = walk(&mut p, &grid, start, goal);
    let best = dijkstra(&grid, start, goal, Connectivity::Eight)
        .unwrap()
        .path
        .unwrap();
    assert_eq!(steps.len(), best.cells.len());
}

#[test]
fn thin_walls_do_not_cause_a_false_no_path() {
    let mut grid = grid_from(&[".#.", ".#.", "..."]);
    let (start, goal) = (Pos::new(0, 0), Pos::new(2, 0));
    let mut p = DStarLite::new(&grid, goal, Connectivity::Eight, Heuristic::Octile).unwrap();
    let s = grid.index(start).unwrap();
    p.set_starts(&grid, &[s]);
    p.compute(&grid);
    let want = dijkstra(&grid, start, goal, Connectivity::Eight)
        .unwrap()
        .path
        .unwrap()
        .cost;
    assert_eq!(p.cost_to_goal(s), want);
    // Thicken then thin the wall again.
    grid.set(Pos::new(1, 2), Terrain::Wall).unwrap();
    p.cells_changed(&grid, &[grid.index(Pos::new(1, 2)).unwrap()]);
    p.compute(&grid);
    assert_eq!(p.cost_to_goal(s), INFINITY);
    grid.set(Pos::new(1, 2), Terrain::FREE).unwrap();
    p.cells_changed(&grid, &[grid.index(Pos::new(1, 2)).unwrap()]);
    p.compute(&grid);
    assert_eq!(p.cost_to_goal(s), want);
}

#[test]
fn removing_a_wall_next_to_a_blocked_agent_frees_it() {
    let mut grid = grid_from(&["...", "###", "..."]);
    let (start, goal) = (Pos::new(0, 2), Pos::new(2, 0));
    let s = grid.index(start).unwrap();
    let mut p = DStarLite::new(&grid, goal, Connectivity::Four, Heuristic::Manhattan).unwrap();
    p.set_starts(&grid, &[s]);
    p.compute(&grid);
    assert_eq!(p.cost_to_goal(s), INFINITY);
    let hole = Pos::new(0, 1);
    grid.set(hole, Terrain::FREE).unwrap();
    p.cells_changed(&grid, &[grid.index(hole).unwrap()]);
    p.compute(&grid);
    let path = p.path(&grid, s).unwrap();
    path.validate(&grid, Connectivity::Four).unwrap();
    assert_eq!(path.cells[1], hole);
    assert_eq!(path.moves(), 4);
}

#[test]
fn goal_unreachable_then_reachable_again() {
    let mut grid = Grid::new(7, 7).unwrap();
    let (start, goal) = (Pos::new(0, 0), Pos::new(3, 3));
    let s = grid.index(start).unwrap();
    let mut p = DStarLite::new(&grid, goal, Connectivity::Eight, Heuristic::Octile).unwrap();
    p.set_starts(&grid, &[s]);
    p.compute(&grid);
    let open_cost = p.cost_to_goal(s);
    let ring: Vec<Pos> = (2..=4)
        .flat_map(|y| (2..=4).map(move |x| Pos::new(x, y)))
        .filter(|&q| q != goal)
        .collect();
    let idx: Vec<usize> = ring.iter().map(|&q| grid.index(q).unwrap()).collect();
    for &q in &ring {
        grid.set(q, Terrain::Wall).unwrap();
    }
    p.cells_changed(&grid, &idx);
    p.compute(&grid);
    assert_eq!(p.cost_to_goal(s), INFINITY);
    assert_eq!(p.path(&grid, s), None);
    for &q in &ring {
        grid.set(q, Terrain::FREE).unwrap();
    }
    p.cells_changed(&grid, &idx);
    p.compute(&grid);
    assert_eq!(p.cost_to_goal(s), open_cost);
}

#[test]
fn a_repair_near_the_agent_expands_less_than_a_fresh_astar() {
    // A 100×100 map with scattered walls from a fixed linear congruential sequence.
    let mut grid = Grid::new(100, 100).unwrap();
    let mut seed: u64 = 7;
    for i in 0..grid.len() {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if (seed >> 33) % 100 < 20 {
            grid.set(grid.pos(i), Terrain::Wall).unwrap();
        }
    }
    let (start, goal) = (Pos::new(2, 50), Pos::new(97, 50));
    grid.set(start, Terrain::FREE).unwrap();
    grid.set(goal, Terrain::FREE).unwrap();
    let s = grid.index(start).unwrap();
    let mut p = DStarLite::new(&grid, goal, Connectivity::Eight, Heuristic::Octile).unwrap();
    p.set_starts(&grid, &[s]);
    p.compute(&grid);
    let path = p.path(&grid, s).expect("the seeded map is connected here");
    // Block the path a few cells ahead of the agent.
    let w = path.cells[4];
    grid.set(w, Terrain::Wall).unwrap();
    p.cells_changed(&grid, &[grid.index(w).unwrap()]);
    let repair = p.compute(&grid).expanded;
    let fresh =
        gridwalk_core::search::astar(&grid, start, goal, Connectivity::Eight, Heuristic::Octile)
            .unwrap();
    let want = fresh
        .path
        .as_ref()
        .map(|p| p.cost)
        .expect("still reachable");
    assert_eq!(p.cost_to_goal(s), want);
    assert!(
        repair * 2 < fresh.stats.expanded,
        "repair {repair} vs A* from scratch {}",
        fresh.stats.expanded
    );
}
