//! `Simulation::step` (and so `tick`) settles and moves the agents of large groups in one pass
//! of its own; `replan` then `advance` go one agent at a time. The game, `gridwalk-cli
//! simulate` and `tick` take the first path, the separate calls the second. Two twins driven
//! by the same random calls, one through each, must stay identical after every call: every
//! agent's every field, the map, the planners' work and every agent's path.
//!
//! The crowds are large (so their groups memoise moves and count agents per cell), share a few
//! start cells (so counting turns on), and rings of walls shut some of them in (so pockets cut
//! their cells out of the group's starts).

use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::sim::{SimConfig, Simulation};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;

const W: u32 = 22;
const H: u32 = 16;

/// One call, made on both twins alike but for how a tick runs.
#[derive(Clone, Debug)]
enum Call {
    /// A tick with these edits `(x, y, terrain code)`.
    Tick(Vec<(u32, u32, u8)>),
    /// A tick whose edits wall the ring of radius `r` around `(x, y)` (a pocket, if it
    /// closes).
    Ring(u32, u32, u32),
    /// A tick whose edits free every cell of the ring of radius `r` around `(x, y)`.
    Lift(u32, u32, u32),
    /// `n` agents from `(x, y)` to `(gx, gy)` with policy `p`.
    Crowd(u32, u32, u32, u32, u8, u8),
    /// The agent with this id leaves.
    Remove(u32),
    /// The agent with this id heads for `(x, y)`.
    Retarget(u32, u32, u32),
    /// Whether A* from scratch is measured each replan (the one pass is off when it is).
    Baseline(bool),
    /// Another planner: D* Lite, D*, A*, Dijkstra.
    Algorithm(u8),
    /// The dynamic world on (every, walls) or off.
    Dynamic(Option<(u32, u32)>),
    /// Every wall goes, in one batch.
    ClearWalls,
}

fn call() -> impl Strategy<Value = Call> {
    let cell = (0..W, 0..H, 0u8..4);
    prop_oneof![
        12 => prop::collection::vec(cell, 0..6).prop_map(Call::Tick),
        2 => (0..W, 0..H, 1u32..3).prop_map(|(x, y, r)| Call::Ring(x, y, r)),
        1 => (0..W, 0..H, 1u32..3).prop_map(|(x, y, r)| Call::Lift(x, y, r)),
        2 => (0..W, 0..H, 0..W, 0..H, 1u8..40, 0u8..3)
            .prop_map(|(x, y, gx, gy, n, p)| Call::Crowd(x, y, gx, gy, n, p)),
        1 => (0u32..200).prop_map(Call::Remove),
        1 => (0u32..200, 0..W, 0..H).prop_map(|(i, x, y)| Call::Retarget(i, x, y)),
        1 => any::<bool>().prop_map(Call::Baseline),
        1 => prop_oneof![4 => Just(0u8), 1 => 1u8..4].prop_map(Call::Algorithm),
        1 => prop::option::of((1u32..4, 1u32..5)).prop_map(Call::Dynamic),
        1 => Just(Call::ClearWalls),
    ]
}

fn terrain(t: u8) -> Terrain {
    match t {
        0 | 1 => Terrain::Wall,
        2 => Terrain::FREE,
        _ => Terrain::Weight(4),
    }
}

/// The cells of the ring of radius `r` around `(x, y)` that lie on the map.
fn ring(x: u32, y: u32, r: u32, t: Terrain) -> Vec<(Pos, Terrain)> {
    let (x, y, r) = (x as i64, y as i64, r as i64);
    let mut cells = Vec::new();
    for dy in -r..=r {
        for dx in -r..=r {
            let (cx, cy) = (x + dx, y + dy);
            let on_map = (0..W as i64).contains(&cx) && (0..H as i64).contains(&cy);
            if on_map && (dx.abs() == r || dy.abs() == r) {
                cells.push((Pos::new(cx as u32, cy as u32), t));
            }
        }
    }
    cells
}

/// A tick of the twin that moves one agent at a time: the edits one by one, as `tick` applies
/// them, then `replan` and `advance`.
fn tick_apart(sim: &mut Simulation, edits: &[(Pos, Terrain)]) {
    for &(pos, t) in edits {
        let _ = sim.edit(pos, t);
    }
    sim.replan();
    sim.advance();
}

/// Both twins are in the same state, as far as any caller can see.
fn same(one: &Simulation, apart: &Simulation, what: &Call) -> Result<(), TestCaseError> {
    prop_assert_eq!(one.tick_count(), apart.tick_count(), "after {:?}", what);
    prop_assert!(one.grid() == apart.grid(), "maps differ after {:?}", what);
    prop_assert_eq!(one.agent_count(), apart.agent_count());
    for (a, b) in one.agents().zip(apart.agents()) {
        prop_assert_eq!(a, b, "after {:?}", what);
        prop_assert_eq!(one.path(a.id), apart.path(b.id), "agent {}", a.id);
    }
    let (x, y) = (one.last_stats(), apart.last_stats());
    prop_assert_eq!(x.search, y.search, "planners' work after {:?}", what);
    prop_assert_eq!(x.baseline_expanded, y.baseline_expanded);
    prop_assert_eq!(one.planner_count(), apart.planner_count());
    prop_assert_eq!(one.changes_pending(), apart.changes_pending());
    Ok(())
}

/// The map: walls at `density` % from `cells`, each crowd's start and goal cleared.
fn map(cells: &[u8], density: u8, crowds: &[(u32, u32, u32, u32, u8, u8)]) -> Grid {
    let mut grid = Grid::new(W, H).unwrap();
    for (i, &r) in cells.iter().enumerate() {
        if r < density {
            grid.set(grid.pos(i), Terrain::Wall).unwrap();
        }
    }
    for &(x, y, gx, gy, _, _) in crowds {
        grid.set(Pos::new(x, y), Terrain::FREE).unwrap();
        grid.set(Pos::new(gx, gy), Terrain::FREE).unwrap();
    }
    grid
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(120))]

    #[test]
    fn one_pass_moves_agents_exactly_as_replan_then_advance(
        cells in prop::collection::vec(0u8..100, (W * H) as usize),
        density in 0u8..20,
        // Few goals and few start cells per goal, many agents on each: large groups whose
        // agents share cells.
        crowds in prop::collection::vec((0..W, 0..H, 0..W, 0..H, 16u8..60, 0u8..3), 2..6),
        goal_of in prop::collection::vec(0usize..2, 6),
        four in any::<bool>(),
        calls in prop::collection::vec(call(), 1..40),
    ) {
        let connectivity = if four { Connectivity::Four } else { Connectivity::Eight };
        // Crowds share the goals of the first few, so groups pass the memo's threshold.
        let crowds: Vec<_> = crowds.iter().enumerate().map(|(i, &(x, y, gx, gy, n, p))| {
            let (gx, gy) = crowds.get(goal_of[i]).map_or((gx, gy), |c| (c.2, c.3));
            (x, y, gx, gy, n, p)
        }).collect();
        let grid = map(&cells, density, &crowds);
        let config = SimConfig {
            connectivity,
            heuristic: Heuristic::default_for(connectivity),
            ..SimConfig::default()
        };
        let mut one = Simulation::new(grid.clone(), config);
        let mut apart = Simulation::new(grid, config);
        let crowd = |sim: &mut Simulation, (x, y, gx, gy, n, p): (u32, u32, u32, u32, u8, u8)| {
            for _ in 0..n {
                let _ = sim.add_agent_with(Pos::new(x, y), Pos::new(gx, gy), OnArrival::ALL[p as usize]);
            }
        };
        for &c in &crowds {
            crowd(&mut one, c);
            crowd(&mut apart, c);
        }
        one.replan();
        apart.replan();
        same(&one, &apart, &Call::Tick(Vec::new()))?;
        for c in calls {
            let edits: Vec<(Pos, Terrain)> = match &c {
                Call::Tick(e) => e.iter().map(|&(x, y, t)| (Pos::new(x, y), terrain(t))).collect(),
                &Call::Ring(x, y, r) => ring(x, y, r, Terrain::Wall),
                &Call::Lift(x, y, r) => ring(x, y, r, Terrain::FREE),
                _ => Vec::new(),
            };
            match c {
                Call::Tick(_) | Call::Ring(..) | Call::Lift(..) => {
                    let report = one.tick(&edits);
                    tick_apart(&mut apart, &edits);
                    prop_assert_eq!(report.stats.search, apart.last_stats().search);
                }
                Call::Crowd(x, y, gx, gy, n, p) => {
                    crowd(&mut one, (x, y, gx, gy, n, p));
                    crowd(&mut apart, (x, y, gx, gy, n, p));
                }
                Call::Remove(id) => {
                    prop_assert_eq!(one.remove_agent(id).is_ok(), apart.remove_agent(id).is_ok());
                }
                Call::Retarget(id, x, y) => {
                    let goal = Pos::new(x, y);
                    prop_assert_eq!(one.set_goal(id, goal).is_ok(), apart.set_goal(id, goal).is_ok());
                }
                Call::Baseline(on) => {
                    let config = SimConfig { measure_baseline: on, ..one.config() };
                    one.set_config(config);
                    apart.set_config(config);
                }
                Call::Algorithm(a) => {
                    let config = SimConfig { algorithm: Algorithm::ALL[a as usize], ..one.config() };
                    one.set_config(config);
                    apart.set_config(config);
                }
                Call::Dynamic(d) => {
                    let d = d.map(|(every, walls)| DynamicWorld { every, walls });
                    one.set_dynamic(d);
                    apart.set_dynamic(d);
                }
                Call::ClearWalls => {
                    prop_assert_eq!(one.clear_walls(), apart.clear_walls());
                }
            }
            same(&one, &apart, &c)?;
        }
    }
}
