//! Patrol routes ([`Setup::route`]): an agent visits its goal, then each route cell in turn,
//! then its goal again; a cell walled when its turn comes is passed over; a route cell off
//! the map is an error naming the agent, the cell and the line.

use gridwalk_core::format::Scenario;
use gridwalk_core::sim::Simulation;
use gridwalk_core::{Algorithm, Pos, Terrain};

/// The goals the agent of `sim` heads to, each time it changes, over `ticks` ticks.
fn goals_seen(sim: &mut Simulation, ticks: usize) -> Vec<Pos> {
    let mut seen = vec![sim.agents().next().unwrap().goal];
    for _ in 0..ticks {
        sim.step();
        let g = sim.agents().next().unwrap().goal;
        if seen.last() != Some(&g) {
            seen.push(g);
        }
    }
    seen
}

fn started(text: &str) -> Simulation {
    let scenario = Scenario::parse(text, "route.ron").unwrap();
    let mut start = scenario.start(scenario.config(Algorithm::DStarLite));
    start.timeline.apply(0, &mut start.sim);
    start.sim
}

#[test]
fn a_patrol_visits_its_route_in_turn_and_round_again() {
    for crowd in [false, true] {
        let text = format!(
            r#"(rows: ["......", "......", "......"], connectivity: Four, crowd: {crowd},
            agents: [(start: (0, 0), goal: (5, 0), on_arrival: Patrol, route: [(5, 2), (0, 2)])])"#
        );
        let mut sim = started(&text);
        let seen = goals_seen(&mut sim, 60);
        let cycle = [Pos::new(5, 0), Pos::new(5, 2), Pos::new(0, 2)];
        assert!(seen.len() >= 6, "crowd {crowd}: {seen:?}");
        for (i, g) in seen.iter().enumerate() {
            assert_eq!(*g, cycle[i % 3], "crowd {crowd}: {seen:?}");
        }
        let saved = sim.to_scenario();
        assert_eq!(saved.agents[0].route, [Pos::new(5, 2), Pos::new(0, 2)]);
        assert_eq!(Scenario::parse(&saved.to_ron(), "s.ron").unwrap(), saved);
    }
}

#[test]
fn a_route_cell_walled_is_passed_over() {
    let text = r#"(rows: ["......", "......", "......"], connectivity: Four,
        agents: [(start: (0, 0), goal: (5, 0), on_arrival: Patrol, route: [(5, 2), (0, 2)])])"#;
    let mut sim = started(text);
    sim.edit(Pos::new(5, 2), Terrain::Wall).unwrap();
    let seen = goals_seen(&mut sim, 40);
    assert!(seen.len() >= 3, "{seen:?}");
    assert!(!seen.contains(&Pos::new(5, 2)), "{seen:?}");
    assert_eq!(&seen[..3], [Pos::new(5, 0), Pos::new(0, 2), Pos::new(5, 0)]);
}

#[test]
fn a_route_off_the_map_names_agent_cell_and_line() {
    let text = "(rows: [\"...\"],\n  agents: [\n    (start: (0, 0), goal: (2, 0), route: [(1, 0), (7, 0)]),\n  ])";
    let e = Scenario::parse(text, "route.ron").unwrap_err();
    assert_eq!(e.line, Some(3), "{e:?}");
    assert!(
        e.message.contains("agents[0].route[1]") && e.message.contains("(7, 0)"),
        "{e:?}"
    );
}

/// Each goal a patrol is given on arrival is the one `goal_after` named before it arrived,
/// with a route and without, and with a route cell walled.
#[test]
fn goal_after_names_the_next_goal_before_it_is_given() {
    let with_route = r#"(rows: ["......", "......", "......"], connectivity: Four,
        agents: [(start: (0, 0), goal: (5, 0), on_arrival: Patrol, route: [(5, 2), (0, 2), (3, 1)])])"#;
    let two_ends = r#"(rows: ["......", "......", "......"], connectivity: Four,
        agents: [(start: (0, 0), goal: (5, 2), on_arrival: Patrol)])"#;
    for (text, wall) in [
        (with_route, None),
        (with_route, Some(Pos::new(0, 2))),
        (two_ends, None),
    ] {
        let mut sim = started(text);
        if let Some(w) = wall {
            sim.edit(w, Terrain::Wall).unwrap();
        }
        let mut changes = 0;
        for _ in 0..80 {
            let a = sim.agents().next().unwrap();
            let (goal, after) = (a.goal, a.goal_after(sim.grid()));
            assert!(after.is_some(), "a patrol always has a next goal here");
            sim.step();
            let now = sim.agents().next().unwrap().goal;
            if now != goal {
                assert_eq!(Some(now), after, "{text}, wall {wall:?}");
                changes += 1;
            }
        }
        assert!(changes >= 4, "the patrol moved on only {changes} times");
        if let Some(w) = wall {
            let a = sim.agents().next().unwrap();
            assert_ne!(a.goal_after(sim.grid()), Some(w));
        }
    }
}

#[test]
fn agents_that_do_not_patrol_have_no_goal_after() {
    let text = r#"(rows: ["....."], agents: [(start: (0, 0), goal: (4, 0)), (start: (1, 0), goal: (3, 0), on_arrival: Wander)])"#;
    let sim = started(text);
    for a in sim.agents() {
        assert_eq!(a.goal_after(sim.grid()), None, "agent {}", a.id);
    }
}
