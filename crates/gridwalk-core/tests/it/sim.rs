//! The simulation against Dijkstra: every algorithm, shared goals, edits and moves each tick.

use gridwalk_core::search::dijkstra;
use gridwalk_core::sim::{AgentStatus, SimConfig, SimError, Simulation};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Case {
    grid: Grid,
    conn: Connectivity,
    agents: Vec<(Pos, Pos)>,
    ticks: Vec<Vec<(Pos, Terrain)>>,
}

fn case() -> impl Strategy<Value = Case> {
    (2u32..=24, 2u32..=24, 0u32..=45, any::<bool>())
        .prop_flat_map(|(w, h, density, eight)| {
            let n = (w * h) as usize;
            (
                Just((w, h, eight)),
                prop::collection::vec(0u32..100, n).prop_map(move |v| (v, density)),
                prop::collection::vec(0..n, 1..4),
                prop::collection::vec((0..n, 0..n), 1..7),
                prop::collection::vec(prop::collection::vec((0..n, 0u8..=9), 0..5), 1..12),
            )
        })
        .prop_map(|((w, h, eight), (cells, density), goals, agents, ticks)| {
            let mut grid = Grid::new(w, h).unwrap();
            for (i, &r) in cells.iter().enumerate() {
                if r < density {
                    grid.set(grid.pos(i), Terrain::Wall).unwrap();
                }
            }
            let goals: Vec<Pos> = goals.into_iter().map(|i| grid.pos(i)).collect();
            let agents: Vec<(Pos, Pos)> = agents
                .into_iter()
                .map(|(s, g)| (grid.pos(s), goals[g % goals.len()]))
                .collect();
            for &(s, g) in &agents {
                grid.set(s, Terrain::FREE).unwrap();
                grid.set(g, Terrain::FREE).unwrap();
            }
            let ticks = ticks
                .into_iter()
                .map(|t| {
                    t.into_iter()
                        .map(|(i, v)| {
                            let terrain = if v == 0 || v > 6 {
                                Terrain::Wall
                            } else {
                                Terrain::Weight(v)
                            };
                            (grid.pos(i), terrain)
                        })
                        .collect()
                })
                .collect();
            Case {
                grid,
                conn: if eight {
                    Connectivity::Eight
                } else {
                    Connectivity::Four
                },
                agents,
                ticks,
            }
        })
}

fn check(sim: &Simulation) {
    let conn = sim.config().connectivity;
    for a in sim.agents() {
        let best = dijkstra(sim.grid(), a.pos, a.goal, conn)
            .unwrap()
            .path
            .map(|p| p.cost);
        match a.status {
            AgentStatus::Planning | AgentStatus::Waiting | AgentStatus::Stuck => {
                panic!("agent {} waits with no budget", a.id)
            }
            AgentStatus::Arrived => assert_eq!(a.pos, a.goal),
            AgentStatus::NoPath => assert_eq!(best, None, "agent {} wrongly has no path", a.id),
            AgentStatus::Walking => {
                let path = sim.path(a.id).expect("walking agents have a path");
                path.validate(sim.grid(), conn).unwrap();
                assert_eq!(Some(path.cost), a.remaining, "agent {}", a.id);
                assert_eq!(Some(path.cells[1]), a.next);
                assert_eq!((path.cells[0], path.cells.last()), (a.pos, Some(&a.goal)));
                if sim.config().algorithm.is_optimal() {
                    assert_eq!(a.remaining, best, "agent {} cost is not optimal", a.id);
                } else {
                    // Greedy: a legal path, found exactly when one exists.
                    assert!(best.is_some() && a.remaining >= best, "agent {}", a.id);
                }
            }
        }
    }
}

fn run(case: &Case, algorithm: Algorithm) {
    let config = SimConfig {
        algorithm,
        connectivity: case.conn,
        heuristic: Heuristic::default_for(case.conn),
        measure_baseline: true,
        crowd: false,
        rotation: false,
    };
    let mut sim = Simulation::new(case.grid.clone(), config);
    for &(s, g) in &case.agents {
        sim.add_agent(s, g).unwrap();
    }
    sim.replan();
    check(&sim);
    for edits in &case.ticks {
        let before: Vec<Pos> = sim.agents().map(|a| a.pos).collect();
        let nexts: Vec<Option<Pos>> = sim.agents().map(|a| a.next).collect();
        sim.advance();
        // Each agent moved exactly to its planned next cell, or stayed without one.
        for ((a, b), n) in sim.agents().zip(&before).zip(&nexts) {
            assert_eq!(a.pos, n.unwrap_or(*b));
        }
        for &(p, t) in edits {
            let refused = sim.check_edit(p).is_err();
            let r = sim.edit(p, t);
            assert_eq!(r.is_err(), refused);
            if refused {
                assert_ne!(sim.grid().terrain(p).unwrap(), Terrain::Wall);
            }
        }
        sim.replan();
        check(&sim);
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(120))]

    #[test]
    fn every_algorithm_keeps_every_agent_optimal(c in case()) {
        for algorithm in Algorithm::ALL {
            run(&c, algorithm);
        }
    }
}

#[test]
fn edits_on_agents_and_goals_are_refused_and_change_nothing() {
    let mut sim = Simulation::new(Grid::new(5, 5).unwrap(), SimConfig::default());
    let a = sim.add_agent(Pos::new(0, 0), Pos::new(4, 4)).unwrap();
    let before = sim.grid().clone();
    assert_eq!(
        sim.edit(Pos::new(0, 0), Terrain::Wall),
        Err(SimError::HoldsAgent {
            pos: Pos::new(0, 0),
            agent: a
        })
    );
    assert_eq!(
        sim.edit(Pos::new(4, 4), Terrain::Wall),
        Err(SimError::IsGoal {
            pos: Pos::new(4, 4),
            agent: a
        })
    );
    assert!(matches!(
        sim.edit(Pos::new(9, 0), Terrain::Wall),
        Err(SimError::Grid(_))
    ));
    assert_eq!(sim.grid(), &before);
    assert!(matches!(
        sim.add_agent(Pos::new(5, 0), Pos::new(1, 1)),
        Err(SimError::Grid(_))
    ));
    sim.edit(Pos::new(2, 2), Terrain::Wall).unwrap();
    assert!(matches!(
        sim.add_agent(Pos::new(2, 2), Pos::new(1, 1)),
        Err(SimError::OnWall(_))
    ));
    assert_eq!(sim.agent_count(), 1);
}

#[test]
fn agents_sharing_a_goal_share_one_planner() {
    let mut sim = Simulation::new(Grid::new(20, 20).unwrap(), SimConfig::default());
    for y in 0..10 {
        sim.add_agent(Pos::new(0, y), Pos::new(19, 19)).unwrap();
    }
    let other = sim.add_agent(Pos::new(5, 5), Pos::new(0, 19)).unwrap();
    sim.replan();
    assert_eq!(sim.planner_count(), 2);
    sim.remove_agent(other).unwrap();
    sim.replan();
    assert_eq!(sim.planner_count(), 1);
}

#[test]
fn a_cut_off_agent_waits_then_walks_when_a_wall_opens() {
    let mut grid = Grid::new(5, 3).unwrap();
    for y in 0..3 {
        grid.set(Pos::new(2, y), Terrain::Wall).unwrap();
    }
    let mut sim = Simulation::new(grid, SimConfig::default());
    let id = sim.add_agent(Pos::new(0, 1), Pos::new(4, 1)).unwrap();
    sim.tick(&[]);
    assert_eq!(sim.agent(id).unwrap().status, AgentStatus::NoPath);
    assert_eq!(sim.agent(id).unwrap().pos, Pos::new(0, 1));
    sim.tick(&[(Pos::new(2, 1), Terrain::FREE)]);
    let a = sim.agent(id).unwrap();
    assert_eq!(a.status, AgentStatus::Walking);
    assert_eq!(a.pos, Pos::new(1, 1));
    for _ in 0..3 {
        sim.tick(&[]);
    }
    assert_eq!(sim.agent(id).unwrap().status, AgentStatus::Arrived);
    assert_eq!(sim.agent(id).unwrap().pos, Pos::new(4, 1));
}

#[test]
fn a_group_whose_agents_arrived_catches_up_on_the_edits_it_missed() {
    for algorithm in [Algorithm::DStarLite, Algorithm::DStar] {
        let config = SimConfig {
            algorithm,
            ..SimConfig::default()
        };
        let mut sim = Simulation::new(Grid::new(12, 8).unwrap(), config);
        let goal = Pos::new(11, 4);
        // The first agent crosses the map, so its planner knows the costs on the way.
        let first = sim.add_agent(Pos::new(0, 4), goal).unwrap();
        for _ in 0..12 {
            sim.tick(&[]);
        }
        assert_eq!(sim.agent(first).unwrap().status, AgentStatus::Arrived);
        // While nobody walks to the goal, a wall goes up and its gap moves.
        let wall: Vec<_> = (0..7).map(|y| (Pos::new(6, y), Terrain::Wall)).collect();
        sim.tick(&wall);
        sim.tick(&[
            (Pos::new(6, 7), Terrain::Wall),
            (Pos::new(6, 2), Terrain::FREE),
        ]);
        let second = sim.add_agent(Pos::new(0, 0), goal).unwrap();
        sim.replan();
        assert_eq!(sim.planner_count(), 1, "{algorithm}");
        assert_eq!(sim.agent(second).unwrap().status, AgentStatus::Walking);
        check(&sim);
        for _ in 0..30 {
            sim.advance();
            sim.replan();
            check(&sim);
        }
        assert_eq!(sim.agent(second).unwrap().pos, goal, "{algorithm}");
    }
}
