//! The budgets (`Simulation::set_budget`): under random memory and expansion budgets, every
//! agent's plan, once ready, is optimal on the current map (against Dijkstra), a tick's
//! planning never passes its expansion budget, every agent is planned in the end, and an
//! exhausted memory budget changes no cost, only the work.

use gridwalk_core::cost::INFINITY;
use gridwalk_core::format::Scenario;
use gridwalk_core::scenario::replay::Replay;
use gridwalk_core::sim::{AgentId, AgentStatus, Budget, SimConfig, Simulation};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;

use crate::common::reference_costs;

/// A random map, agents heading to a few goals, rounds of edits and the budgets.
#[derive(Clone, Debug)]
struct Case {
    grid: Grid,
    algorithm: Algorithm,
    four: bool,
    agents: Vec<(Pos, Pos)>,
    rounds: Vec<Vec<(Pos, bool)>>,
    /// Planners' memory budget, in planners of this map's worst size.
    planners: usize,
    plan: Option<u64>,
}

fn case() -> impl Strategy<Value = Case> {
    (6u32..16, 6u32..16)
        .prop_flat_map(|(w, h)| {
            let cell = (0..w, 0..h).prop_map(|(x, y)| Pos::new(x, y));
            (
                prop::collection::vec(0u32..100, (w * h) as usize),
                0usize..Algorithm::ALL.len(),
                any::<bool>(),
                prop::collection::vec(cell.clone(), 1..4),
                prop::collection::vec((cell.clone(), 0usize..4), 1..20),
                prop::collection::vec(prop::collection::vec((cell, any::<bool>()), 0..5), 0..12),
                0usize..4,
                prop::option::of(1u64..80),
                Just((w, h)),
            )
        })
        .prop_map(
            |(walls, a, four, goals, agents, rounds, planners, plan, (w, h))| {
                let mut grid = Grid::new(w, h).unwrap();
                for (i, &r) in walls.iter().enumerate() {
                    if r < 25 {
                        grid.set(grid.pos(i), Terrain::Wall).unwrap();
                    }
                }
                let agents: Vec<(Pos, Pos)> = (agents.into_iter())
                    .map(|(s, g)| (s, goals[g % goals.len()]))
                    .collect();
                for &(s, g) in &agents {
                    grid.set(s, Terrain::FREE).unwrap();
                    grid.set(g, Terrain::FREE).unwrap();
                }
                Case {
                    grid,
                    algorithm: Algorithm::ALL[a],
                    four,
                    agents,
                    rounds,
                    planners,
                    plan,
                }
            },
        )
}

/// The simulation of `case` with its budgets, its agents added.
fn start(case: &Case, budgets: bool) -> Simulation {
    let connectivity = match case.four {
        true => Connectivity::Four,
        false => Connectivity::Eight,
    };
    let config = SimConfig {
        algorithm: case.algorithm,
        connectivity,
        heuristic: Heuristic::default_for(connectivity),
        measure_baseline: false,
        crowd: false,
        rotation: false,
    };
    let mut sim = Simulation::new(case.grid.clone(), config);
    if budgets {
        sim.set_budget(Budget {
            // From nothing to about two planners: planners are dropped all the time.
            planner_memory: case.planners * case.grid.len() * 12,
            plan_expansions: case.plan,
        });
    }
    for &(s, g) in &case.agents {
        sim.add_agent(s, g).unwrap();
    }
    sim
}

/// Every agent's plan is optimal on the current map, or it waits (only with a planning
/// budget); returns how many wait.
fn check(sim: &Simulation, plan: Option<u64>) -> Result<usize, TestCaseError> {
    let conn = sim.config().connectivity;
    let mut waiting = 0;
    for a in sim.agents() {
        let costs = reference_costs(sim.grid(), sim.grid().index(a.goal).unwrap(), conn);
        let best = costs[sim.grid().index(a.pos).unwrap()];
        match a.status {
            AgentStatus::Waiting | AgentStatus::Stuck => {
                panic!("a crowd status with crowd mode off")
            }
            AgentStatus::Arrived => prop_assert_eq!(a.pos, a.goal),
            // Greedy's paths are legal, so no shorter than the optimum, and found exactly
            // when one exists.
            AgentStatus::Walking if !sim.config().algorithm.is_optimal() => {
                prop_assert!(
                    best != INFINITY && a.remaining >= Some(best),
                    "agent {}",
                    a.id
                );
                check_legal(sim, a.id)?;
            }
            AgentStatus::Walking => prop_assert_eq!(a.remaining, Some(best), "agent {}", a.id),
            AgentStatus::NoPath => prop_assert_eq!(best, INFINITY, "agent {}", a.id),
            AgentStatus::Planning => {
                prop_assert!(
                    plan.is_some(),
                    "agent {} waits with no planning budget",
                    a.id
                );
                prop_assert_eq!(a.remaining, None);
                waiting += 1;
            }
        }
    }
    prop_assert_eq!(waiting, sim.backlog());
    Ok(waiting)
}

/// The costs of the agents that have a plan, by id.
/// Agent `id`'s planned path (for an algorithm that is not optimal, greedy) is legal: it runs
/// from the agent's cell, every step is one of the grid's legal moves (so onto no wall, and
/// around corners as the connectivity says), and it reaches the goal at what the agent has
/// left to walk, or, cut by the memory budget, is a start of such a path.
fn check_legal(sim: &Simulation, id: AgentId) -> Result<(), TestCaseError> {
    let (grid, conn) = (sim.grid(), sim.config().connectivity);
    let a = sim.agent(id).unwrap();
    let path = sim.path(id);
    prop_assert!(path.is_some(), "agent {} walks with no path", id);
    let cells = path.unwrap().cells;
    prop_assert_eq!(cells.first(), Some(&a.pos), "agent {}", id);
    let mut walked = 0;
    for w in cells.windows(2) {
        let (u, v) = (grid.index(w[0]).unwrap(), grid.index(w[1]).unwrap());
        let mut step = None;
        grid.for_each_neighbor(u, conn, |n, c| {
            if n == v {
                step = Some(c);
            }
        });
        prop_assert!(grid.weight(v) != 0, "agent {}: {:?} is a wall", id, w[1]);
        prop_assert!(
            step.is_some(),
            "agent {}: {:?} to {:?} is no move",
            id,
            w[0],
            w[1]
        );
        walked += step.unwrap();
    }
    match cells.last() == Some(&a.goal) {
        true => prop_assert_eq!(a.remaining, Some(walked), "agent {}", id),
        false => prop_assert!(a.remaining > Some(walked), "agent {}: a cut path", id),
    }
    Ok(())
}

fn costs(sim: &Simulation) -> Vec<(u32, Option<u64>)> {
    sim.agents().map(|a| (a.id, a.remaining)).collect()
}

/// Whether a tick's work kept to `plan`, exactly, for every algorithm: A* and Dijkstra stop
/// the search that reaches it and go on with it next tick.
fn kept_to(sim: &Simulation, plan: Option<u64>) -> bool {
    let Some(plan) = plan else { return true };
    sim.last_stats().search.expanded <= plan
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(120))]

    #[test]
    fn plans_are_optimal_under_any_budgets_and_all_end(case in case()) {
        let mut sim = start(&case, true);
        sim.replan();
        check(&sim, case.plan)?;
        prop_assert!(kept_to(&sim, case.plan));
        for round in &case.rounds {
            for &(p, wall) in round {
                let _ = sim.edit(p, if wall { Terrain::Wall } else { Terrain::FREE });
            }
            sim.step();
            prop_assert!(kept_to(&sim, case.plan), "{} expanded", sim.last_stats().search.expanded);
            check(&sim, case.plan)?;
        }
        // Without edits, every plan is ready in the end: all at once for the incremental
        // planners; each in turn for A* and Dijkstra, which search every agent every tick.
        let incremental = sim.config().algorithm.is_incremental();
        let mut planned = vec![false; sim.agent_count()];
        let mut ticks = 0;
        loop {
            let waiting = check(&sim, case.plan)?;
            for (seen, a) in planned.iter_mut().zip(sim.agents()) {
                *seen |= a.status != AgentStatus::Planning;
            }
            if waiting == 0 || (!incremental && planned.iter().all(|&p| p)) {
                break;
            }
            sim.step();
            prop_assert!(kept_to(&sim, case.plan));
            ticks += 1;
            prop_assert!(ticks < 5_000, "agents still wait after {} ticks", ticks);
        }
    }

    #[test]
    fn an_exhausted_memory_budget_changes_no_cost(case in case()) {
        let case = Case { plan: None, ..case };
        let (mut free, mut tight) = (start(&case, false), start(&case, true));
        free.replan();
        tight.replan();
        // The same agents on the same cells: the same costs.
        prop_assert_eq!(costs(&free), costs(&tight));
        check(&tight, None)?;
        for round in &case.rounds {
            for sim in [&mut free, &mut tight] {
                for &(p, wall) in round {
                    let _ = sim.edit(p, if wall { Terrain::Wall } else { Terrain::FREE });
                }
                sim.step();
            }
            check(&tight, None)?;
        }
    }
}

#[test]
fn a_tiny_memory_budget_drops_and_rebuilds_planners() {
    let grid = Grid::new(30, 20).unwrap();
    let mut sim = Simulation::new(grid, SimConfig::default());
    sim.set_budget(Budget {
        planner_memory: 1,
        plan_expansions: None,
    });
    for y in 0..20 {
        sim.add_agent(Pos::new(0, y), Pos::new(29, (y * 7) % 20))
            .unwrap();
    }
    sim.replan();
    for _ in 0..5 {
        sim.step();
    }
    assert!(sim.planners_dropped() > 0, "the budget dropped planners");
    // At most the planner being served is held.
    assert!(sim.planner_memory() <= 600 * 48, "{}", sim.planner_memory());
    assert!(sim.agents().all(|a| a.status == AgentStatus::Walking));
}

#[test]
fn a_planning_budget_spreads_the_first_plan_over_ticks() {
    let grid = Grid::new(60, 60).unwrap();
    let mut sim = Simulation::new(grid, SimConfig::default());
    sim.set_budget(Budget {
        plan_expansions: Some(50),
        ..Budget::default()
    });
    let id = sim.add_agent(Pos::new(0, 0), Pos::new(59, 59)).unwrap();
    sim.replan();
    assert_eq!(sim.agent(id).unwrap().status, AgentStatus::Planning);
    assert_eq!((sim.backlog(), sim.path(id)), (1, None));
    let mut ticks = 1;
    while sim.agent(id).unwrap().status == AgentStatus::Planning {
        assert_eq!(
            sim.agent(id).unwrap().pos,
            Pos::new(0, 0),
            "it waits on its cell"
        );
        sim.step();
        assert!(sim.last_stats().search.expanded <= 50);
        ticks += 1;
    }
    assert!(ticks > 1, "the search took several ticks");
    let a = sim.agent(id).unwrap();
    let best = reference_costs(sim.grid(), sim.grid().len() - 1, Connectivity::Eight)[61];
    assert_eq!(
        (a.pos, a.remaining),
        (Pos::new(1, 1), Some(best)),
        "it walks, optimally"
    );
}

#[test]
fn scenario_budgets_reach_the_replay() {
    let text = r#"(
        rows: ["..........", "..........", ".........."],
        agents: [(start: (0, 0), goal: (9, 2))],
        planner_memory: "4M",
        plan_budget: 3,
    )"#;
    let scenario = Scenario::parse(text, "b.ron").unwrap();
    let mut replay = Replay::new(scenario, Algorithm::DStarLite);
    let budget = replay.sim().budget();
    assert_eq!(
        (budget.planner_memory, budget.plan_expansions),
        (4 << 20, Some(3))
    );
    let first = replay.step();
    assert!(first.stats.search.expanded <= 3);
    while !replay.finished() {
        assert!(replay.step().stats.search.expanded <= 3);
    }
    // Written back, the budgets are kept.
    let saved = replay.sim().to_scenario();
    assert_eq!(
        (saved.planner_memory, saved.plan_budget),
        (Some(4 << 20), Some(3))
    );
}
