//! Unknown terrain: agents with a sensor range, on random maps with random edits, checked
//! every tick against a model of what they sensed kept here, apart from the simulation, and
//! against Dijkstra on the known map. Also: the one-pass tick equals replan then advance
//! with sensing, every agent whose goal it can reach arrives, and a timeline that toggles the
//! sensor range replays exactly.

use gridwalk_core::cost::INFINITY;
use gridwalk_core::format::Scenario;
use gridwalk_core::scenario::replay::Replay;
use gridwalk_core::scenario::timeline::Timeline;
use gridwalk_core::sim::{AgentStatus, DynamicWorld, OnArrival, SimConfig, Simulation};
use gridwalk_core::{Algorithm, Grid, Heuristic, Pos, Terrain};
use proptest::prelude::*;

use crate::common::{WorldShape, reference_costs, world};

/// The terrain of an edit code: 0 a wall, else that weight.
fn terrain(code: u8) -> Terrain {
    match code {
        0 => Terrain::Wall,
        w => Terrain::Weight(w),
    }
}

/// The cells an agent on `pos` heading to `goal` senses with range `r`: its square and its
/// goal, in no particular order.
fn sensed(grid: &Grid, pos: Pos, goal: Pos, r: u32) -> Vec<usize> {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let r = r as i64;
    let mut cells = Vec::new();
    for y in pos.y as i64 - r..=pos.y as i64 + r {
        for x in pos.x as i64 - r..=pos.x as i64 + r {
            if (0..w).contains(&x) && (0..h).contains(&y) {
                cells.push((y * w + x) as usize);
            }
        }
    }
    cells.push(grid.index(goal).unwrap());
    cells
}

/// The test's own known map: plain ground at first, the true terrain of every cell an agent
/// senses. Returns the cells it changed, in index order, with their new weight.
fn model_sense(model: &mut [u8], sim: &Simulation, r: u32) -> Vec<(usize, u8)> {
    let truth = sim.grid();
    let before = model.to_vec();
    for a in sim.agents() {
        for c in sensed(truth, a.pos, a.goal, r) {
            model[c] = truth.weight(c);
        }
    }
    (0..model.len())
        .filter(|&c| model[c] != before[c])
        .map(|c| (c, model[c]))
        .collect()
}

/// Every check of one tick: the known map is the model, the discoveries are its changes, no
/// agent stands on a true wall, and each agent whose goal did not change during the tick has
/// `remaining` equal to the Dijkstra optimum on the known map (no path exactly when there is
/// none there).
fn check_tick(sim: &Simulation, model: &[u8], changes: &[(usize, u8)], goals: &[(u32, Pos)]) {
    let known = sim.known();
    assert_eq!(known.weights(), model, "known map");
    let found: Vec<(usize, u8)> = (sim.last_discovered().expect("sensing is on"))
        .map(|(p, t)| {
            let w = match t {
                Terrain::Wall => 0,
                Terrain::Weight(w) => w,
            };
            (known.index(p).unwrap(), w)
        })
        .collect();
    assert_eq!(found, changes, "discovered");
    let conn = sim.config().connectivity;
    for a in sim.agents() {
        assert!(sim.grid().is_passable(a.pos), "agent {} on a wall", a.id);
        if !goals.contains(&(a.id, a.goal)) {
            continue;
        }
        let dist = reference_costs(known, known.index(a.goal).unwrap(), conn);
        let best = dist[known.index(a.pos).unwrap()];
        match a.status {
            AgentStatus::Waiting | AgentStatus::Stuck => {
                panic!("a crowd status with crowd mode off")
            }
            AgentStatus::Walking if !sim.config().algorithm.is_optimal() => {
                // Greedy: no shorter than the optimum, and a path exactly when one exists.
                assert!(
                    best != INFINITY && a.remaining >= Some(best),
                    "agent {}",
                    a.id
                )
            }
            AgentStatus::Walking => assert_eq!(a.remaining, Some(best), "agent {}", a.id),
            AgentStatus::NoPath => assert_eq!(best, INFINITY, "agent {} gave up", a.id),
            AgentStatus::Arrived => assert_eq!(a.pos, a.goal),
            AgentStatus::Planning => panic!("agent {} waits with no budget", a.id),
        }
    }
}

/// A random case: a world, its planner, sensor range, policies, a crowd on the first agent's
/// way, and the dynamic world.
#[derive(Debug, Clone)]
struct Case {
    world: crate::common::World,
    algorithm: Algorithm,
    range: u32,
    policies: Vec<u8>,
    crowd: usize,
    dynamic: Option<(u32, u32)>,
    seed: u64,
}

fn case() -> impl Strategy<Value = Case> {
    // Walls up to 40 %, edits that wall (0) or weigh cells.
    let shape = WorldShape {
        edit_weights: 0..=9,
        max_density: 40,
        sides: 3..=14,
        agents: 1..6,
        rounds: 0..30,
    };
    (
        world(shape),
        0..Algorithm::ALL.len(),
        1u32..=5,
        prop::collection::vec(0u8..3, 6),
        prop_oneof![3 => Just(0usize), 1 => 30usize..40],
        prop::option::of((1u32..4, 1u32..4)),
        any::<u64>(),
    )
        .prop_map(|(world, a, range, policies, crowd, dynamic, seed)| Case {
            world,
            algorithm: Algorithm::ALL[a],
            range,
            policies,
            crowd,
            dynamic,
            seed,
        })
}

/// The case's simulation, its agents added: each heads to the next one's start, the last to
/// the world's goal, and the crowd goes the first one's way.
fn start(case: &Case) -> Simulation {
    let w = &case.world;
    let config = SimConfig {
        algorithm: case.algorithm,
        connectivity: w.conn,
        heuristic: Heuristic::default_for(w.conn),
        measure_baseline: case.seed.is_multiple_of(3),
        crowd: false,
        rotation: false,
    };
    let mut sim = Simulation::new(w.grid.clone(), config);
    sim.set_seed(case.seed);
    sim.set_dynamic(
        case.dynamic
            .map(|(every, walls)| DynamicWorld { every, walls }),
    );
    sim.set_sensor_range(Some(case.range));
    let n = w.agents.len();
    for (i, &s) in w.agents.iter().enumerate() {
        let goal = if i + 1 < n { w.agents[i + 1] } else { w.goal };
        let policy = OnArrival::ALL[case.policies[i] as usize];
        let _ = sim.add_agent_with(s, goal, policy);
    }
    let goal = if n > 1 { w.agents[1] } else { w.goal };
    for _ in 0..case.crowd {
        let _ = sim.add_agent(w.agents[0], goal);
    }
    sim
}

/// What twins must share after every call.
fn state(sim: &Simulation) -> (Vec<gridwalk_core::sim::Agent>, Grid, Grid) {
    (
        sim.agents().cloned().collect(),
        sim.grid().clone(),
        sim.known().clone(),
    )
}

fn plays_exactly_what_the_agents_know(case: Case) {
    let mut sim = start(&case);
    // A twin that runs each tick as replan then advance.
    let mut twin = start(&case);
    let range = case.range;
    let mut model = vec![1u8; sim.grid().len()];
    let rounds = &case.world.rounds;
    for tick in 0..=rounds.len() + 10 {
        if tick > 0 {
            for &(x, y, code) in rounds.get(tick - 1).map_or(&[][..], |r| &r[..]) {
                let a = sim.edit(Pos::new(x, y), terrain(code));
                assert_eq!(a, twin.edit(Pos::new(x, y), terrain(code)));
            }
        }
        let changes = model_sense(&mut model, &sim, range);
        let goals: Vec<(u32, Pos)> = sim.agents().map(|a| (a.id, a.goal)).collect();
        if tick == 0 {
            sim.replan();
            twin.replan();
        } else {
            sim.step();
            twin.replan();
            twin.advance();
        }
        check_tick(&sim, &model, &changes, &goals);
        assert!(state(&sim) == state(&twin), "twins differ at tick {tick}");
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_cases(160))]

    /// Every tick: the known map holds what was last sensed, the discoveries are its changes,
    /// no agent stands on a wall, every plan is optimal on the known map, and a one-pass tick
    /// equals replan then advance.
    #[test]
    fn agents_plan_exactly_on_what_they_sensed(case in case()) {
        plays_exactly_what_the_agents_know(case);
    }

    /// Agents that stay: while the edits last, none leaves a wall known that is gone (a robot
    /// in a world that only changes where it looks, or by new walls), then the world holds
    /// still. Every agent whose goal is reachable on the true map arrives; the others give up.
    #[test]
    fn every_agent_that_can_arrive_arrives(case in case()) {
        let case = Case { dynamic: None, policies: vec![0; 6], ..case };
        let mut sim = start(&case);
        let range = case.range;
        let mut model = vec![1u8; sim.grid().len()];
        for round in &case.world.rounds {
            let mut looked: Vec<usize> = Vec::new();
            for a in sim.agents() {
                looked.extend(sensed(sim.grid(), a.pos, a.goal, range));
            }
            for &(x, y, code) in round {
                let c = sim.grid().index(Pos::new(x, y)).unwrap();
                // A known wall taken away where no agent looks would stay known: skipped.
                if model[c] == 0 && code != 0 && !looked.contains(&c) {
                    continue;
                }
                let _ = sim.edit(Pos::new(x, y), terrain(code));
            }
            model_sense(&mut model, &sim, range);
            sim.step();
        }
        let bound = 40 * sim.grid().len() + 100;
        for _ in 0..bound {
            if sim.agents().all(|a| a.status != AgentStatus::Walking) {
                break;
            }
            sim.step();
        }
        let (truth, conn) = (sim.grid(), sim.config().connectivity);
        for a in sim.agents() {
            let dist = reference_costs(truth, truth.index(a.goal).unwrap(), conn);
            let reachable = dist[truth.index(a.pos).unwrap()] != INFINITY;
            let want = if reachable { AgentStatus::Arrived } else { AgentStatus::NoPath };
            prop_assert_eq!(a.status, want, "agent {} at {}", a.id, a.pos);
        }
    }
}

/// A recorded session: sensing on from the scenario, off at tick 6, on again with another
/// range at tick 11, edits throughout. Written out and replayed, it gives the same ticks.
#[test]
fn a_timeline_that_toggles_the_sensor_range_replays_exactly() {
    let text = r#"(
        rows: [
            "..............",
            "..#####...#...",
            "......#...#...",
            "..3...#...#...",
            "......#.......",
            "..............",
        ],
        agents: [
            (start: (0, 0), goal: (13, 5)),
            (start: (0, 5), goal: (8, 2), on_arrival: Wander),
            (start: (12, 0), goal: (1, 3), tick: 3, on_arrival: Patrol),
        ],
        seed: 5,
        dynamic: [(every: 3, walls: 2)],
        sensor_range: 2,
    )"#;
    let scenario = Scenario::parse(text, "toggle.ron").unwrap();
    // The live session, as the game drives it: its timeline, changes pushed at their tick.
    let mut live = Timeline::of(&scenario);
    let mut sim = Simulation::new(
        scenario.grid.clone(),
        SimConfig {
            connectivity: scenario.connectivity,
            heuristic: scenario.effective_heuristic(),
            ..SimConfig::default()
        },
    );
    sim.set_seed(scenario.seed);
    sim.set_sensor_range(scenario.sensor_range);
    let mut ticks = Vec::new();
    let record = |sim: &Simulation| {
        let agents: Vec<_> = (sim.agents())
            .map(|a| (a.pos, a.goal, a.status, a.remaining))
            .collect();
        let found: Option<Vec<_>> = sim.last_discovered().map(Iterator::collect);
        format!("{agents:?} {found:?} {}", sim.last_stats().search.expanded)
    };
    for tick in 0..40u64 {
        match tick {
            6 => live.set_sensing_now(tick, None, &mut sim),
            11 => live.set_sensing_now(tick, Some(4), &mut sim),
            _ => {}
        }
        live.apply(tick, &mut sim);
        if tick % 5 == 4 {
            let _ = live.edit_now(
                tick,
                Pos::new(7 + (tick as u32 % 3), 4),
                Terrain::Wall,
                &mut sim,
            );
        }
        match tick {
            0 => sim.replan(),
            _ => sim.step(),
        };
        assert_eq!(sim.last_discovered().is_none(), (6..11).contains(&tick));
        ticks.push(record(&sim));
    }
    let recorded = live.to_scenario(&scenario);
    assert_eq!(recorded.sensing.len(), 2);
    let again = Scenario::parse(&recorded.to_ron(), "recorded.ron").unwrap();
    assert_eq!(again, recorded);
    let mut replay = Replay::new(again, Algorithm::DStarLite);
    for (tick, want) in ticks.iter().enumerate() {
        replay.step();
        assert_eq!(&record(replay.sim()), want, "tick {tick}");
    }
}
