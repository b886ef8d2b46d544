//! Many agents on few goals (issue 8): the per-agent shortcuts of a replan (moves memoised per
//! cell, costs carried from the last tick, starts listed once per cell) give every agent
//! exactly what its planner says, on random maps with random edits.

use crate::common::{reference_costs, send_arrived_on};
use gridwalk_core::sim::{AgentStatus, SimConfig, Simulation};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;

/// Every walking agent's cost is the Dijkstra optimum, and its next cell and cost are those of
/// the path its planner descends; an agent without a path has none.
fn check(sim: &Simulation) -> Result<(), TestCaseError> {
    let grid = sim.grid();
    let conn = sim.config().connectivity;
    let mut to_goal = std::collections::HashMap::new();
    for a in sim.agents() {
        let costs = to_goal
            .entry(a.goal)
            .or_insert_with(|| reference_costs(grid, grid.index(a.goal).unwrap(), conn));
        let best = costs[grid.index(a.pos).unwrap()];
        match a.status {
            AgentStatus::Arrived => prop_assert_eq!(a.pos, a.goal),
            AgentStatus::Planning | AgentStatus::Waiting | AgentStatus::Stuck => {
                prop_assert!(false, "agent {} waits with no budget", a.id)
            }
            AgentStatus::Walking => {
                prop_assert_eq!(a.remaining, Some(best), "agent {}", a.id);
                let path = sim.path(a.id).expect("a walking agent has a path");
                prop_assert_eq!(Some(path.cost), a.remaining, "agent {}", a.id);
                prop_assert_eq!(a.next, path.cells.get(1).copied(), "agent {}", a.id);
            }
            AgentStatus::NoPath => {
                prop_assert_eq!(best, gridwalk_core::cost::INFINITY, "agent {}", a.id);
                prop_assert_eq!(a.remaining, None);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(40))]

    /// 40–90 agents over two or three goals (so groups pass the memo's threshold), walls and
    /// weights toggled every tick, arrived agents sent to the next goal.
    #[test]
    fn crowds_get_their_planners_answers(
        side in 10u32..18,
        walls in prop::collection::vec((0u32..18, 0u32..18), 10..60),
        starts in prop::collection::vec((0u32..18, 0u32..18), 40..90),
        goals in prop::collection::vec((0u32..18, 0u32..18), 2..4),
        edits in prop::collection::vec(prop::collection::vec((0u32..18, 0u32..18, 0u8..4), 0..5), 20..40),
        four in any::<bool>(),
    ) {
        let mut grid = Grid::new(side, side).unwrap();
        let inside = |(x, y): (u32, u32)| Pos::new(x % side, y % side);
        for &w in &walls {
            grid.set(inside(w), Terrain::Wall).unwrap();
        }
        let goals: Vec<Pos> = goals.into_iter().map(inside).collect();
        let connectivity = if four { Connectivity::Four } else { Connectivity::Eight };
        let mut sim = Simulation::new(
            grid.clone(),
            SimConfig {
                algorithm: Algorithm::DStarLite,
                connectivity,
                heuristic: Heuristic::default_for(connectivity),
                measure_baseline: false, crowd: false, rotation: false,
            },
        );
        for (i, &s) in starts.iter().enumerate() {
            let (s, g) = (inside(s), goals[i % goals.len()]);
            if grid.is_passable(s) && grid.is_passable(g) {
                sim.add_agent(s, g).unwrap();
            }
        }
        for round in &edits {
            send_arrived_on(&mut sim, &goals);
            for &(x, y, t) in round {
                let t = match t {
                    0 => Terrain::Wall,
                    1 => Terrain::FREE,
                    w => Terrain::Weight(w * 3),
                };
                let _ = sim.edit(inside((x, y)), t);
            }
            sim.replan();
            check(&sim)?;
            sim.advance();
        }
    }
}
