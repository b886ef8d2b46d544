//! "No path, proven locally" (issue 8): an agent walled into a pocket without its goal gets
//! its `no_path` from a bounded flood, and its group's search is not spent proving it.

use crate::common::reference_costs;
use gridwalk_core::cost::INFINITY;
use gridwalk_core::sim::{AgentStatus, SimConfig, Simulation};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;

fn config(algorithm: Algorithm, conn: Connectivity) -> SimConfig {
    SimConfig {
        algorithm,
        connectivity: conn,
        heuristic: Heuristic::default_for(conn),
        measure_baseline: false,
        crowd: false,
        rotation: false,
    }
}

/// The walls of the square ring with corners (x0, y0) and (x1, y1).
fn ring(x0: u32, y0: u32, x1: u32, y1: u32) -> Vec<(Pos, Terrain)> {
    let mut cells = Vec::new();
    for x in x0..=x1 {
        cells.push(Pos::new(x, y0));
        cells.push(Pos::new(x, y1));
    }
    for y in y0 + 1..y1 {
        cells.push(Pos::new(x0, y));
        cells.push(Pos::new(x1, y));
    }
    cells.into_iter().map(|p| (p, Terrain::Wall)).collect()
}

/// Every agent's status and cost against a Dijkstra written apart from the crate.
fn check(sim: &Simulation) -> Result<(), TestCaseError> {
    let grid = sim.grid();
    let conn = sim.config().connectivity;
    for a in sim.agents() {
        let best =
            reference_costs(grid, grid.index(a.goal).unwrap(), conn)[grid.index(a.pos).unwrap()];
        match a.status {
            AgentStatus::Planning | AgentStatus::Waiting | AgentStatus::Stuck => {
                prop_assert!(false, "agent {} waits with no budget", a.id)
            }
            AgentStatus::Arrived => prop_assert_eq!(a.pos, a.goal),
            AgentStatus::Walking => {
                prop_assert_eq!(a.remaining, Some(best), "agent {}", a.id);
                let path = sim.path(a.id).unwrap();
                prop_assert_eq!(a.next, path.cells.get(1).copied());
            }
            AgentStatus::NoPath => {
                prop_assert_eq!(best, INFINITY, "agent {} has a path", a.id);
                prop_assert_eq!(a.remaining, None);
            }
        }
    }
    Ok(())
}

/// One agent walled into a small room far from its goal, two more near the goal: the group's
/// repair after the room closes expands nothing (the ring is far from the two), instead of
/// running until its queue is empty to prove that the third has no path (617 cells for D*
/// Lite, 215 for D*, without the pocket).
#[test]
fn a_walled_in_agent_does_not_unfocus_its_group() {
    for algorithm in [Algorithm::DStarLite, Algorithm::DStar] {
        let grid = Grid::new(80, 60).unwrap();
        let mut sim = Simulation::new(grid, config(algorithm, Connectivity::Eight));
        let goal = Pos::new(70, 30);
        let near = [Pos::new(60, 28), Pos::new(62, 33)];
        for &s in &near {
            sim.add_agent(s, goal).unwrap();
        }
        let walled = sim.add_agent(Pos::new(6, 6), goal).unwrap();
        sim.replan();
        // The room closes around the third agent; nobody moves meanwhile.
        let (changed, refused) = sim.edit_batch(&ring(4, 4, 8, 8));
        assert_eq!((changed, refused.len()), (16, 0));
        let repair = sim.replan().search.expanded;
        assert_eq!(sim.agent(walled).unwrap().status, AgentStatus::NoPath);
        for a in sim.agents().filter(|a| a.id != walled) {
            assert_eq!(a.status, AgentStatus::Walking);
        }
        // The ring touches none of the near agents' paths: nothing there needs repair.
        assert!(
            repair < 50,
            "{algorithm:?}: the repair expanded {repair} cells (the map has 4,800)"
        );
        // Opened again, the room's agent walks: the pocket is forgotten and flooded again.
        sim.edit(Pos::new(8, 6), Terrain::FREE).unwrap();
        sim.replan();
        assert_eq!(sim.agent(walled).unwrap().status, AgentStatus::Walking);
        let best = reference_costs(
            sim.grid(),
            sim.grid().index(goal).unwrap(),
            Connectivity::Eight,
        )[sim.grid().index(Pos::new(6, 6)).unwrap()];
        assert_eq!(sim.agent(walled).unwrap().remaining, Some(best));
    }
}

/// An agent that starts in a closed room (found when the map is first seen) costs its group
/// nothing either: the first search stops once the other agent is served (4,775 cells
/// without the pocket).
#[test]
fn a_pocket_on_the_map_from_the_start_is_known() {
    let mut grid = Grid::new(80, 60).unwrap();
    for (p, t) in ring(4, 4, 8, 8) {
        grid.set(p, t).unwrap();
    }
    let mut sim = Simulation::new(grid, config(Algorithm::DStarLite, Connectivity::Eight));
    let goal = Pos::new(70, 30);
    sim.add_agent(Pos::new(66, 30), goal).unwrap();
    let walled = sim.add_agent(Pos::new(6, 6), goal).unwrap();
    let first = sim.replan().search.expanded;
    assert_eq!(sim.agent(walled).unwrap().status, AgentStatus::NoPath);
    assert!(first < 100, "the first search expanded {first} cells");
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(120))]

    /// Dense random walls (pockets everywhere), walls dropped and lifted every tick, agents
    /// and goals anywhere: statuses and costs agree with Dijkstra after every replan.
    #[test]
    fn statuses_agree_with_dijkstra_among_pockets(
        side in 6u32..14,
        density in 25u32..55,
        cells in prop::collection::vec(0u32..100, 196),
        agents in prop::collection::vec((0u32..14, 0u32..14, 0usize..3), 1..16),
        goals in prop::collection::vec((0u32..14, 0u32..14), 3),
        edits in prop::collection::vec(prop::collection::vec((0u32..14, 0u32..14, any::<bool>()), 0..6), 1..25),
        four in any::<bool>(),
        dstar in any::<bool>(),
    ) {
        let mut grid = Grid::new(side, side).unwrap();
        for (i, &r) in cells.iter().enumerate().take(grid.len()) {
            if r < density {
                grid.set(grid.pos(i), Terrain::Wall).unwrap();
            }
        }
        let inside = |x: u32, y: u32| Pos::new(x % side, y % side);
        let goals: Vec<Pos> = goals.iter().map(|&(x, y)| inside(x, y)).collect();
        for &g in &goals {
            grid.set(g, Terrain::FREE).unwrap();
        }
        let conn = if four { Connectivity::Four } else { Connectivity::Eight };
        let algorithm = if dstar { Algorithm::DStar } else { Algorithm::DStarLite };
        let mut sim = Simulation::new(grid, config(algorithm, conn));
        for &(x, y, g) in &agents {
            let _ = sim.add_agent(inside(x, y), goals[g]);
        }
        sim.replan();
        check(&sim)?;
        for round in &edits {
            for &(x, y, wall) in round {
                let t = if wall { Terrain::Wall } else { Terrain::FREE };
                let _ = sim.edit(inside(x, y), t);
            }
            sim.replan();
            check(&sim)?;
            sim.advance();
        }
    }
}
