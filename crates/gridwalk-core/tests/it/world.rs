//! A world that stays alive: wander, patrol and the dynamic world, played through
//! [`Replay`] as `gridwalk-cli simulate` plays them. Runs must repeat exactly, survive a
//! save and load, respect the edit rules, and give goals that can be reached.

use crate::common::play;
use gridwalk_core::format::{AgentSpec, DynamicSpec, Scenario};
use gridwalk_core::scenario::replay::Replay;
use gridwalk_core::search::dijkstra;
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::sim::{SimConfig, Simulation};
use gridwalk_core::{Algorithm, Pos, Terrain};

const MAP: &str = r#"(
    rows: [
        "....................",
        "..######......#.....",
        "..#....#......#.....",
        "..#....#..2222#.....",
        ".......#..2222......",
        "..######..........##",
        "....................",
        "......#########.....",
        "....................",
        ".#########.........#",
        "....................",
    ],
)"#;

fn scenario(policy: OnArrival, dynamic: Option<DynamicWorld>, seed: u64) -> Scenario {
    let mut s = Scenario::parse(MAP, "world.ron").unwrap();
    s.seed = seed;
    let agent = |sx, sy, gx, gy| AgentSpec {
        on_arrival: policy,
        ..AgentSpec::new(Pos::new(sx, sy), Pos::new(gx, gy))
    };
    s.agents = vec![
        agent(0, 0, 19, 10),
        agent(4, 3, 19, 10),
        agent(19, 0, 0, 10),
        agent(10, 8, 0, 10),
    ];
    s.dynamic = vec![DynamicSpec::new(0, dynamic)];
    s
}

/// No agent on a wall, no goal walled, and every walking agent's goal reachable.
fn check_rules(r: &Replay) {
    let sim = r.sim();
    let grid = sim.grid();
    for a in sim.agents() {
        assert!(grid.is_passable(a.pos), "agent {} on a wall", a.id);
        assert!(grid.is_passable(a.goal), "goal of {} walled", a.goal);
    }
    if let Some(d) = sim.dynamic() {
        assert!(sim.doors().count() <= d.walls as usize);
    }
    assert!(sim.doors().all(|p| grid.terrain(p) == Ok(Terrain::Wall)));
}

#[test]
fn wander_gives_new_reachable_goals_and_replays_exactly() {
    for algo in Algorithm::ALL {
        let s = scenario(OnArrival::Wander, None, 11);
        let (a, r) = play(&s, algo, 120, check_rules);
        let (b, _) = play(&s, algo, 120, check_rules);
        assert_eq!(a, b, "{algo}: the same scenario gives the same run");
        // Saved and loaded, it is the same run.
        let loaded = Scenario::parse(&s.to_ron(), "saved.ron").unwrap();
        assert_eq!(loaded, s);
        assert_eq!(play(&loaded, algo, 120, check_rules).0, a);
        // Goals changed after arrivals, and each agent's goal is reachable from its cell.
        let sim = r.sim();
        let first: Vec<Pos> = s.agents.iter().map(|a| a.goal).collect();
        let now: Vec<Pos> = sim.agents().map(|a| a.goal).collect();
        assert_ne!(first, now, "{algo}: wanderers got new goals");
        for ag in sim.agents() {
            let path = dijkstra(sim.grid(), ag.pos, ag.goal, s.connectivity)
                .unwrap()
                .path;
            assert!(path.is_some(), "{algo}: goal {} unreachable", ag.goal);
        }
        // Another seed, another run.
        let other = scenario(OnArrival::Wander, None, 12);
        assert_ne!(play(&other, algo, 120, check_rules).0, a, "{algo}");
    }
}

#[test]
fn patrol_goes_back_and_forth() {
    let s = scenario(OnArrival::Patrol, None, 0);
    let mut r = Replay::new(s.clone(), Algorithm::DStarLite);
    let mut goals: Vec<Vec<Pos>> = vec![Vec::new(); s.agents.len()];
    for _ in 0..300 {
        r.step();
        for (i, a) in r.sim().agents().enumerate() {
            if goals[i].last() != Some(&a.goal) {
                goals[i].push(a.goal);
            }
        }
    }
    for (i, spec) in s.agents.iter().enumerate() {
        assert!(goals[i].len() >= 3, "agent {i} patrolled: {:?}", goals[i]);
        for (k, g) in goals[i].iter().enumerate() {
            let want = if k % 2 == 0 { spec.goal } else { spec.start };
            assert_eq!(*g, want, "agent {i} leg {k}");
        }
    }
    // Stay keeps today's behaviour: everyone arrives and the run finishes.
    let mut stay = Replay::new(scenario(OnArrival::Stay, None, 0), Algorithm::DStarLite);
    for _ in 0..300 {
        stay.step();
    }
    assert!(stay.finished());
}

#[test]
fn the_dynamic_world_closes_and_opens_doors_on_paths_and_replays() {
    let dw = DynamicWorld { every: 2, walls: 3 };
    for algo in Algorithm::ALL {
        let s = scenario(OnArrival::Wander, Some(dw), 5);
        let walls0 = s.grid.wall_count();
        let (a, r) = play(&s, algo, 200, check_rules);
        assert_eq!(
            play(&s, algo, 200, check_rules).0,
            a,
            "{algo}: replays exactly"
        );
        let loaded = Scenario::parse(&s.to_ron(), "saved.ron").unwrap();
        assert_eq!(
            play(&loaded, algo, 200, check_rules).0,
            a,
            "{algo}: survives save and load"
        );
        let sim = r.sim();
        assert_eq!(sim.doors().count(), 3, "{algo}: doors stand");
        assert_eq!(
            sim.grid().wall_count(),
            walls0 + 3,
            "{algo}: older doors were lifted"
        );
        // Agents still walk and their costs were repaired along the way.
        assert!(sim.agents().any(|a| a.pos != a.goal), "{algo}");
    }
    // Turning it off at a tick stops new walls; the standing ones stay.
    let mut s = scenario(OnArrival::Wander, Some(dw), 5);
    s.dynamic.push(DynamicSpec::new(50, None));
    let (_, r) = play(&s, Algorithm::DStarLite, 150, check_rules);
    assert!(r.sim().dynamic().is_none());
    let (_, at50) = play(&s, Algorithm::DStarLite, 50, check_rules);
    let standing: Vec<Pos> = at50.sim().doors().collect();
    assert_eq!(r.sim().doors().collect::<Vec<_>>(), standing);
}

#[test]
fn clearing_walls_in_one_batch_or_cell_by_cell_gives_the_same_run() {
    // The game clears walls in one batch; a replay of its log applies the same cells one by
    // one. Both must forget the dropped walls they remove, or their dynamic worlds part ways.
    let run = || {
        let s = scenario(OnArrival::Wander, None, 9);
        let mut sim = Simulation::new(s.grid.clone(), SimConfig::default());
        sim.set_seed(9);
        sim.set_dynamic(Some(DynamicWorld { every: 1, walls: 4 }));
        for a in &s.agents {
            sim.add_agent_with(a.start, a.goal, a.on_arrival).unwrap();
        }
        sim.replan();
        for _ in 0..30 {
            sim.tick(&[]);
        }
        sim
    };
    let (mut batch, mut single) = (run(), run());
    assert_eq!(batch.doors().count(), 4);
    let walls: Vec<Pos> = (0..single.grid().len())
        .filter(|&i| single.grid().weight(i) == 0)
        .map(|i| single.grid().pos(i))
        .collect();
    assert_eq!(batch.clear_walls(), walls.len());
    for &p in &walls {
        assert_eq!(single.edit(p, Terrain::FREE), Ok(true));
    }
    assert_eq!(batch.doors().count(), 0);
    assert_eq!(single.doors().count(), 0);
    for _ in 0..40 {
        batch.tick(&[]);
        single.tick(&[]);
        let cells = |s: &Simulation| s.agents().map(|a| (a.pos, a.goal)).collect::<Vec<_>>();
        assert_eq!(cells(&batch), cells(&single));
        assert_eq!(
            batch.doors().collect::<Vec<_>>(),
            single.doors().collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_running_world_saved_as_a_scenario_starts_the_same_world() {
    let s = scenario(
        OnArrival::Patrol,
        Some(DynamicWorld { every: 3, walls: 2 }),
        4,
    );
    let mut r = Replay::new(s, Algorithm::DStarLite);
    for _ in 0..25 {
        r.step();
    }
    let saved = r.sim().to_scenario();
    let loaded = Scenario::parse(&saved.to_ron(), "saved.ron").unwrap();
    assert_eq!(loaded, saved);
    assert_eq!(loaded.grid, *r.sim().grid());
    assert_eq!((loaded.seed, loaded.dynamic.len()), (4, 1));
    let mut again = Replay::new(loaded, Algorithm::DStarLite);
    again.step();
    let now = |sim: &Simulation| {
        sim.agents()
            .map(|a| (a.pos, a.goal, a.on_arrival))
            .collect::<Vec<_>>()
    };
    assert_eq!(now(again.sim()), now(r.sim()));
    assert_eq!(again.sim().dynamic(), r.sim().dynamic());
}
