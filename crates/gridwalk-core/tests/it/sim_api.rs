//! No sequence of public `Simulation` calls panics, and the invariants hold after each call:
//! every agent stands on a passable cell, and right after a replan every walking agent's
//! remaining cost is the Dijkstra optimum on the current map (no-path agents have none), and
//! an edit is refused exactly on the cells agents stand on or head to. In crowd mode, also: no
//! two agents ever stand on one cell, and agents may wait for one another.

use gridwalk_core::cost::INFINITY;
use gridwalk_core::search::dijkstra;
use gridwalk_core::sim::{AgentStatus, SimConfig, Simulation};
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;

/// One public call, with positions that may lie off the 12×10 map.
#[derive(Clone, Debug)]
enum Call {
    Add(u32, u32, u32, u32, u8),
    Remove(u32),
    Retarget(u32, u32, u32),
    Edit(u32, u32, u8),
    Batch(Vec<(u32, u32, u8)>),
    ClearWalls,
    ClearAgents,
    Config(u8, bool),
    Replan,
    Advance,
    Tick(Vec<(u32, u32, u8)>),
    Queries(u32, u32, u32),
    Dynamic(Option<(u32, u32)>),
    Record(u8),
    Seed(u64),
}

fn call() -> impl Strategy<Value = Call> {
    let c = 0u32..14;
    let cell = (0u32..14, 0u32..12, 0u8..4);
    prop_oneof![
        4 => (c.clone(), 0u32..12, c.clone(), 0u32..12, 0u8..3)
            .prop_map(|(a, b, x, y, p)| Call::Add(a, b, x, y, p)),
        1 => (0u32..20).prop_map(Call::Remove),
        2 => (0u32..20, c.clone(), 0u32..12).prop_map(|(i, x, y)| Call::Retarget(i, x, y)),
        4 => cell.clone().prop_map(|(x, y, t)| Call::Edit(x, y, t)),
        2 => prop::collection::vec(cell.clone(), 0..12).prop_map(Call::Batch),
        1 => Just(Call::ClearWalls),
        1 => Just(Call::ClearAgents),
        1 => (0u8..4, any::<bool>()).prop_map(|(a, f)| Call::Config(a, f)),
        4 => Just(Call::Replan),
        4 => Just(Call::Advance),
        3 => prop::collection::vec(cell, 0..6).prop_map(Call::Tick),
        2 => (0u32..20, c, 0u32..12).prop_map(|(i, x, y)| Call::Queries(i, x, y)),
        1 => prop::option::of((1u32..4, 1u32..4)).prop_map(Call::Dynamic),
        1 => (0u8..3).prop_map(Call::Record),
        1 => any::<u64>().prop_map(Call::Seed),
    ]
}

fn terrain(t: u8) -> Terrain {
    match t {
        0 => Terrain::Wall,
        1 => Terrain::FREE,
        w => Terrain::Weight(w + 2),
    }
}

fn check(sim: &Simulation, after_replan: bool) -> Result<(), TestCaseError> {
    let grid = sim.grid();
    let conn = sim.config().connectivity;
    let crowd = sim.config().crowd;
    if crowd {
        let mut cells: Vec<Pos> = sim.agents().map(|a| a.pos).collect();
        cells.sort_unstable_by_key(|p| (p.x, p.y));
        let before = cells.len();
        cells.dedup();
        prop_assert_eq!(cells.len(), before, "two crowd agents share a cell");
    }
    // The O(1) edit check agrees with a scan of the agents, on every cell.
    for i in 0..grid.len() {
        let p = grid.pos(i);
        let taken = sim.agents().any(|a| a.pos == p || a.goal == p)
            || sim
                .entering()
                .any(|(_, start, goal, _)| start == p || goal == p);
        prop_assert_eq!(sim.check_edit(p).is_err(), taken, "edit check of {}", p);
    }
    for a in sim.agents() {
        prop_assert!(
            grid.is_passable(a.pos),
            "agent {} on {} is not on ground",
            a.id,
            a.pos
        );
        if !after_replan {
            continue;
        }
        let best = dijkstra(grid, a.pos, a.goal, conn)
            .unwrap()
            .path
            .map(|p| p.cost);
        match a.status {
            AgentStatus::Planning => prop_assert!(false, "agent {} waits with no budget", a.id),
            // Waiting for another agent: only a crowd waits.
            AgentStatus::Waiting | AgentStatus::Stuck => {
                prop_assert!(crowd, "agent {} waits outside a crowd", a.id)
            }
            AgentStatus::Arrived => prop_assert_eq!(a.pos, a.goal),
            AgentStatus::Walking => prop_assert_eq!(a.remaining, best, "agent {}", a.id),
            AgentStatus::NoPath => prop_assert_eq!(best, None, "agent {} has a path", a.id),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(200))]

    #[test]
    fn no_call_sequence_panics_or_breaks_the_invariants(calls in prop::collection::vec(call(), 1..60)) {
        run(calls, false)?;
    }

    #[test]
    fn no_call_sequence_in_a_crowd_panics_or_breaks_the_invariants(
        calls in prop::collection::vec(call(), 1..60)
    ) {
        run(calls, true)?;
    }
}

/// Runs `calls` on a 12×10 map, crowd mode on or off throughout, checking after each call.
fn run(calls: Vec<Call>, crowd: bool) -> Result<(), TestCaseError> {
    let config = SimConfig {
        crowd,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(Grid::new(12, 10).unwrap(), config);
    for c in calls {
        let mut replanned = false;
        match c {
            Call::Add(a, b, x, y, p) => {
                let _ =
                    sim.add_agent_with(Pos::new(a, b), Pos::new(x, y), OnArrival::ALL[p as usize]);
            }
            Call::Remove(i) => {
                let _ = sim.remove_agent(i);
            }
            Call::Retarget(i, x, y) => {
                let _ = sim.set_goal(i, Pos::new(x, y));
            }
            Call::Edit(x, y, t) => {
                let _ = sim.edit(Pos::new(x, y), terrain(t));
            }
            Call::Batch(cells) => {
                let edits: Vec<_> = cells
                    .iter()
                    .map(|&(x, y, t)| (Pos::new(x, y), terrain(t)))
                    .collect();
                let (changed, refused) = sim.edit_batch(&edits);
                prop_assert!(changed + refused.len() <= edits.len());
            }
            Call::ClearWalls => {
                sim.clear_walls();
                prop_assert_eq!(sim.grid().wall_count(), 0);
            }
            Call::ClearAgents => sim.clear_agents(),
            Call::Config(a, four) => {
                let connectivity = if four {
                    Connectivity::Four
                } else {
                    Connectivity::Eight
                };
                sim.set_config(SimConfig {
                    algorithm: Algorithm::ALL[a as usize],
                    connectivity,
                    heuristic: Heuristic::default_for(connectivity),
                    measure_baseline: four,
                    crowd,
                    rotation: false,
                });
            }
            Call::Replan => {
                sim.replan();
                replanned = true;
            }
            Call::Advance => sim.advance(),
            Call::Tick(cells) => {
                let edits: Vec<_> = cells
                    .iter()
                    .map(|&(x, y, t)| (Pos::new(x, y), terrain(t)))
                    .collect();
                sim.tick(&edits);
            }
            Call::Queries(i, x, y) => {
                let _ = sim.path(i);
                let _ = sim.cost_field(i);
                let _ = sim.explain(i);
                let _ = sim.astar_from_scratch(i);
                let _ = sim.inspect(i, Pos::new(x, y));
                let _ = sim.history(i);
                let _ = sim.check_edit(Pos::new(x, y));
                // A plan is legal on the map it was made on: until the next replan an
                // edit may cross it.
                if let Some(p) = sim.path(i).filter(|_| !sim.changes_pending()) {
                    p.validate(sim.grid(), sim.config().connectivity).unwrap();
                    prop_assert!(p.cost < INFINITY);
                }
                // The next cell is the path's second, found without walking the path (while
                // an edit is pending, the path may stop where it crosses it).
                if !sim.changes_pending() {
                    let second = sim.path(i).and_then(|p| p.cells.get(1).copied());
                    prop_assert_eq!(sim.next_cell(i), second, "agent {}'s next cell", i);
                }
            }
            Call::Dynamic(d) => {
                sim.set_dynamic(d.map(|(every, walls)| DynamicWorld { every, walls }))
            }
            Call::Record(n) => {
                sim.set_history(n as usize * 4);
                sim.set_tracing(n == 1);
            }
            Call::Seed(s) => sim.set_seed(s),
        }
        check(&sim, replanned)?;
    }
    Ok(())
}
