//! Crowd mode in the simulation: after every tick of random worlds with random edits, for
//! every algorithm, no two agents share a cell, none swap, none cross diagonals, every move is
//! legal; and the guidance each agent ranks its cells by is Dijkstra's cost on the same map.

use std::collections::{BTreeMap, BTreeSet};

use gridwalk_core::cost::{Cost, INFINITY};
use gridwalk_core::sim::{AgentStatus, OnArrival, SimConfig, Simulation};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;

use crate::common::{WorldShape, reference_costs, world};

/// Cells by agent id.
fn cells(sim: &Simulation) -> BTreeMap<u32, Pos> {
    sim.agents().map(|a| (a.id, a.pos)).collect()
}

/// The crowd's rules between two ticks' cells, on `grid`.
fn check_moves(
    grid: &Grid,
    conn: Connectivity,
    before: &BTreeMap<u32, Pos>,
    after: &BTreeMap<u32, Pos>,
) -> Result<(), TestCaseError> {
    let taken: BTreeSet<Pos> = after.values().copied().collect();
    prop_assert_eq!(taken.len(), after.len(), "two agents share a cell");
    let mut diagonals = BTreeSet::new();
    for (id, &to) in after {
        let Some(&from) = before.get(id) else {
            continue;
        };
        if from == to {
            continue;
        }
        let (a, b) = (grid.index(from).unwrap(), grid.index(to).unwrap());
        prop_assert!(
            grid.move_cost(a, b, conn).is_some(),
            "{from} to {to} is no move"
        );
        let swapped = before
            .iter()
            .any(|(o, &p)| o != id && p == to && after[o] == from);
        prop_assert!(!swapped, "agents swap {from} and {to}");
        if from.x != to.x && from.y != to.y {
            diagonals.insert((from, to));
        }
    }
    for &(from, to) in &diagonals {
        let other = (Pos::new(from.x, to.y), Pos::new(to.x, from.y));
        prop_assert!(
            !diagonals.contains(&other),
            "diagonals cross at {from}, {to}"
        );
    }
    Ok(())
}

/// Every walking agent's guidance at its cell and its neighbours is Dijkstra's cost.
fn check_guidance(sim: &Simulation, conn: Connectivity) -> Result<(), TestCaseError> {
    let grid = sim.grid();
    for a in sim.agents() {
        if a.pos == a.goal || matches!(a.status, AgentStatus::Planning | AgentStatus::NoPath) {
            continue;
        }
        let truth = reference_costs(grid, grid.index(a.goal).unwrap(), conn);
        let here = grid.index(a.pos).unwrap();
        let mut around = vec![here];
        grid.for_each_neighbor(here, conn, |n, _| around.push(n));
        for c in around {
            let got = sim.crowd_guidance(a.id, grid.pos(c));
            prop_assert_eq!(
                got,
                Some(truth[c]),
                "agent {} at {}, cell {}",
                a.id,
                a.pos,
                grid.pos(c)
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(200))]

    #[test]
    fn no_two_agents_share_a_cell_and_guidance_is_exact(
        w in world(WorldShape::new(3..=12, 30, 1..10, 1..8, 0..=3)),
        algorithm in prop::sample::select(Algorithm::ALL.to_vec()),
        goals in prop::collection::vec((0u32..12, 0u32..12, any::<bool>()), 10),
        ticks in 1usize..6,
    ) {
        let config = SimConfig {
            algorithm,
            connectivity: w.conn,
            heuristic: Heuristic::default_for(w.conn),
            crowd: true,
            ..SimConfig::default()
        };
        let mut sim = Simulation::new(w.grid.clone(), config);
        sim.set_seed(5);
        for (a, &(gx, gy, wander)) in w.agents.iter().zip(&goals) {
            let goal = Pos::new(gx % w.grid.width(), gy % w.grid.height());
            let policy = if wander { OnArrival::Wander } else { OnArrival::Stay };
            let _ = sim.add_agent_with(*a, goal, policy);
        }
        sim.replan();
        for edits in &w.rounds {
            for _ in 0..ticks {
                let before = cells(&sim);
                sim.replan();
                check_guidance(&sim, w.conn)?;
                sim.advance();
                check_moves(sim.grid(), w.conn, &before, &cells(&sim))?;
            }
            for &(x, y, weight) in edits {
                let t = if weight == 0 { Terrain::Wall } else { Terrain::Weight(weight) };
                let _ = sim.edit(Pos::new(x, y), t);
            }
        }
    }
}

/// Two agents that must pass each other in a 1-wide dead-end corridor with one side pocket:
/// the crowd's rule lets them by.
#[test]
fn two_agents_pass_in_a_dead_end_corridor() {
    // A corridor along row 1 with a pocket above (2, 1); the left end is a dead end.
    let rows = ["#######", "##.####", "#.....#", "#######"];
    let mut grid = Grid::new(7, 4).unwrap();
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if ch == '#' {
                grid.set(Pos::new(x as u32, y as u32), Terrain::Wall)
                    .unwrap();
            }
        }
    }
    let config = SimConfig {
        crowd: true,
        connectivity: Connectivity::Four,
        heuristic: Heuristic::Manhattan,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(grid, config);
    let deep = sim.add_agent(Pos::new(2, 2), Pos::new(5, 2)).unwrap();
    let out = sim.add_agent(Pos::new(4, 2), Pos::new(1, 2)).unwrap();
    sim.replan();
    for _ in 0..50 {
        sim.step();
        if [deep, out]
            .iter()
            .all(|&id| sim.agent(id).unwrap().status == AgentStatus::Arrived)
        {
            return;
        }
    }
    let at: Vec<Pos> = sim.agents().map(|a| a.pos).collect();
    panic!("not both arrived within 50 ticks: {at:?}");
}

/// A later agent whose start is taken enters once the cell is free; none is lost.
#[test]
fn a_taken_start_waits_and_enters() {
    let grid = Grid::new(6, 1).unwrap();
    let config = SimConfig {
        crowd: true,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(grid, config);
    sim.add_agent(Pos::new(0, 0), Pos::new(5, 0)).unwrap();
    let late = sim.add_agent(Pos::new(0, 0), Pos::new(4, 0)).unwrap();
    assert!(sim.agent(late).is_none());
    assert_eq!(sim.entering_count(), 1);
    sim.replan();
    for _ in 0..20 {
        sim.step();
        let taken: BTreeSet<Pos> = sim.agents().map(|a| a.pos).collect();
        assert_eq!(taken.len(), sim.agent_count());
    }
    assert_eq!(sim.entering_count(), 0);
    assert_eq!(sim.agent(late).unwrap().pos, Pos::new(4, 0));
    assert!(sim.agents().all(|a| a.remaining != Some(INFINITY)));
}

/// An agent's id, cell, status, remaining cost and next cell.
type AgentState = (u32, Pos, AgentStatus, Option<Cost>, Option<Pos>);

/// What a tick leaves of each agent.
fn agent_states(sim: &Simulation) -> Vec<AgentState> {
    sim.agents()
        .map(|a| (a.id, a.pos, a.status, a.remaining, a.next))
        .collect()
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(40))]

    /// Crowd mode's `step` settles only the agents' costs in its replan (no next moves, which
    /// its step rule would drop): every agent must end each tick as `replan` then `advance`
    /// leave it, which settle next moves too. Many agents share few goals, so that large
    /// groups (settled in agent order) are exercised as well as small ones.
    #[test]
    fn crowd_step_leaves_agents_as_replan_then_advance(
        walls in prop::collection::vec((0u32..16, 0u32..16), 0..50),
        starts in prop::collection::vec((0u32..16, 0u32..16), 30..90),
        goals in prop::collection::vec((0u32..16, 0u32..16), 1..4),
        edits in prop::collection::vec(prop::collection::vec((0u32..16, 0u32..16, 0u8..4), 0..4), 1..4),
        algorithm in prop::sample::select(Algorithm::ALL.to_vec()),
        eight in any::<bool>(),
        wander in any::<bool>(),
    ) {
        let conn = if eight { Connectivity::Eight } else { Connectivity::Four };
        let mut grid = Grid::new(16, 16).unwrap();
        for &(x, y) in &walls {
            grid.set(Pos::new(x, y), Terrain::Wall).unwrap();
        }
        let config = SimConfig {
            algorithm,
            connectivity: conn,
            heuristic: Heuristic::default_for(conn),
            crowd: true,
            ..SimConfig::default()
        };
        let policy = if wander { OnArrival::Wander } else { OnArrival::Stay };
        let mut stepped = Simulation::new(grid.clone(), config);
        let mut split = Simulation::new(grid, config);
        for sim in [&mut stepped, &mut split] {
            sim.set_seed(7);
            for (i, &(x, y)) in starts.iter().enumerate() {
                let (gx, gy) = goals[i % goals.len()];
                let _ = sim.add_agent_with(Pos::new(x, y), Pos::new(gx, gy), policy);
            }
        }
        for round in &edits {
            for _ in 0..4 {
                stepped.step();
                split.replan();
                split.advance();
                prop_assert_eq!(agent_states(&stepped), agent_states(&split));
            }
            for &(x, y, weight) in round {
                let t = if weight == 0 { Terrain::Wall } else { Terrain::Weight(weight) };
                let (a, b) = (stepped.edit(Pos::new(x, y), t), split.edit(Pos::new(x, y), t));
                prop_assert_eq!(a.is_ok(), b.is_ok());
            }
        }
    }
}
