//! Crowd mode under rotation ([`SimConfig::rotation`]): every tick of a lifelong crowd on the
//! rooms map is checked by an independent reading of the rules (each agent moves one cell
//! ahead keeping its facing, turns a quarter, or waits; no shared cell; no swap), and a
//! scenario's `rotation` and agents' `facing` survive its RON and replay.

use std::collections::HashMap;

use gridwalk_core::Facing;
use gridwalk_core::format::{AgentSpec, Scenario};
use gridwalk_core::rng::{SeedableRng, SplitMix64};
use gridwalk_core::sim::{OnArrival, Setup, Simulation};
use gridwalk_core::{Connectivity, Grid, Pos};

use crate::no_knots::{Moves, free_cell, rooms};

/// Each agent's cell and facing, by id.
fn states(sim: &Simulation) -> HashMap<u32, (Pos, Facing)> {
    sim.agents().map(|a| (a.id, (a.pos, a.facing))).collect()
}

/// The cell ahead of `p` facing `f`, on the map or not.
fn ahead(p: Pos, f: Facing) -> (i64, i64) {
    let (dx, dy) = f.step();
    (
        i64::from(p.x) + i64::from(dx),
        i64::from(p.y) + i64::from(dy),
    )
}

/// Why the step from `before` to `after` breaks the rules on `grid`, if it does.
fn broken(
    grid: &Grid,
    before: &HashMap<u32, (Pos, Facing)>,
    after: &HashMap<u32, (Pos, Facing)>,
) -> Option<String> {
    let mut on: HashMap<Pos, u32> = HashMap::new();
    for (&id, &(p, f)) in after {
        if let Some(other) = on.insert(p, id) {
            return Some(format!("agents {other} and {id} share {p}"));
        }
        let Some(&(q, g)) = before.get(&id) else {
            continue;
        };
        let turn = (f.index() + 4 - g.index()) % 4;
        let ok = if p == q {
            turn != 2
        } else {
            turn == 0 && ahead(q, g) == (i64::from(p.x), i64::from(p.y)) && grid.is_passable(p)
        };
        if !ok {
            return Some(format!(
                "agent {id}: {q} {g:?} to {p} {f:?} is no single action"
            ));
        }
    }
    for (&id, &(p, _)) in after {
        let Some(&(q, _)) = before.get(&id) else {
            continue;
        };
        if let Some(&other) = on.get(&q).filter(|&&o| o != id)
            && before.get(&other).is_some_and(|&(r, _)| r == p)
        {
            return Some(format!("agents {id} and {other} swap {q} and {p}"));
        }
    }
    None
}

#[test]
fn every_tick_of_a_turning_crowd_is_one_action_per_agent() {
    for seed in 1..=2 {
        let mut rng = SplitMix64::seed_from_u64(seed);
        let grid = rooms(&mut rng);
        let mut sim = Simulation::new(grid.clone(), Moves::Rotation.config());
        sim.set_seed(seed);
        let mut taken = Vec::new();
        while taken.len() < 60 {
            let p = free_cell(&grid, &mut rng);
            if !taken.contains(&p) {
                taken.push(p);
                let f = Facing::from_index(taken.len() as u8);
                let goal = free_cell(&grid, &mut rng);
                let setup = Setup {
                    on_arrival: OnArrival::Wander,
                    facing: f,
                    ..Setup::default()
                };
                sim.add_agent_setup(p, goal, setup).unwrap();
            }
        }
        let (mut turned, mut moved) = (0, 0);
        let mut before = states(&sim);
        for tick in 0..400 {
            sim.step();
            let after = states(&sim);
            if let Some(why) = broken(&grid, &before, &after) {
                panic!("seed {seed}, tick {tick}: {why}");
            }
            for (id, &(p, f)) in &after {
                let (q, g) = before[id];
                turned += usize::from(p == q && f != g);
                moved += usize::from(p != q);
            }
            before = after;
        }
        let arrivals = sim.crowd_stats().unwrap().arrivals_total;
        assert!(
            turned > 0 && moved > 0 && arrivals > 0,
            "seed {seed}: {turned} turns, {moved} moves, {arrivals} arrivals"
        );
    }
}

#[test]
fn a_robot_facing_away_turns_before_it_moves() {
    let text = r#"(rows: ["......"], connectivity: Four, crowd: true, rotation: true,
        agents: [(start: (0, 0), goal: (3, 0), facing: West)])"#;
    let scenario = Scenario::parse(text, "turn.ron").unwrap();
    let mut start = scenario.start(scenario.config(gridwalk_core::Algorithm::DStarLite));
    start.timeline.apply(0, &mut start.sim);
    let mut seen = Vec::new();
    for _ in 0..5 {
        start.sim.step();
        let a = start.sim.agents().next().unwrap();
        seen.push((a.pos.x, a.facing));
    }
    let turns = [Facing::North, Facing::South];
    assert!(turns.contains(&seen[0].1) && seen[0].0 == 0, "{seen:?}");
    assert_eq!(seen[1], (0, Facing::East), "{seen:?}");
    assert_eq!(
        &seen[2..],
        [(1, Facing::East), (2, Facing::East), (3, Facing::East)]
    );
}

#[test]
fn rotation_and_facings_survive_ron_and_the_world_saved() {
    let mut scenario = Scenario::from_grid(Grid::new(6, 4).unwrap());
    scenario.connectivity = Connectivity::Four;
    scenario.crowd = true;
    scenario.rotation = true;
    scenario.agents = vec![AgentSpec {
        facing: Facing::North,
        ..AgentSpec::new(Pos::new(1, 1), Pos::new(5, 3))
    }];
    let text = scenario.to_ron();
    assert!(
        text.contains("rotation: true") && text.contains("facing: North"),
        "{text}"
    );
    assert_eq!(Scenario::parse(&text, "s.ron").unwrap(), scenario);
    let mut start = scenario.start(scenario.config(gridwalk_core::Algorithm::DStarLite));
    start.timeline.apply(0, &mut start.sim);
    for _ in 0..2 {
        start.sim.step();
    }
    let saved = start.sim.to_scenario();
    assert!(saved.rotation);
    let a = start.sim.agents().next().unwrap();
    assert_eq!(
        (saved.agents[0].start, saved.agents[0].facing),
        (a.pos, a.facing)
    );
}

#[test]
fn rotation_needs_crowd_mode_and_four_moves() {
    let eight = r#"(rows: ["...."], crowd: true,
    rotation: true)"#;
    let e = Scenario::parse(eight, "r.ron").unwrap_err();
    assert!(
        e.line == Some(2) && e.message.contains("four moves"),
        "{e:?}"
    );
    let alone = r#"(rows: ["...."], connectivity: Four, rotation: true)"#;
    assert!(
        Scenario::parse(alone, "r.ron")
            .unwrap_err()
            .message
            .contains("crowd")
    );
    let forced = Scenario::parse_crowd(alone, "r.ron").unwrap();
    assert!(forced.rotation && forced.crowd);
    assert!(forced.config(gridwalk_core::Algorithm::DStarLite).turns());
}
