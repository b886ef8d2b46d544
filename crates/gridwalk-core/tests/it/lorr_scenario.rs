//! A LoRR problem as the game plays it ([`Problem::to_scenario`]): each robot starts on its
//! start facing east and patrols the cycle of tasks round robin deals it; the scenario plays
//! under rotation, and every robot's arrivals follow its cycle; the game's 400-robot problem
//! keeps flowing. Other strategies and the 2024 edition are refused with a message.

use std::path::PathBuf;

use gridwalk_core::format::lorr::{MAX_ROUTE, Problem};
use gridwalk_core::sim::AgentStatus;
use gridwalk_core::{Algorithm, Facing, Pos};

/// Writes a 2023 problem (a 6×4 open map, `starts`, `tasks` as cells, `strategy`) into its
/// own folder and returns the JSON's path.
fn problem(name: &str, starts: &[u32], tasks: &[u32], strategy: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("lorr-scenario")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let map = "type octile\nheight 4\nwidth 6\nmap\n......\n......\n..@...\n......\n";
    std::fs::write(dir.join("m.map"), map).unwrap();
    let list = |v: &[u32]| {
        format!(
            "{}\n{}\n",
            v.len(),
            v.iter().map(u32::to_string).collect::<Vec<_>>().join("\n")
        )
    };
    std::fs::write(dir.join("a.agents"), list(starts)).unwrap();
    std::fs::write(dir.join("t.tasks"), list(tasks)).unwrap();
    let json = format!(
        r#"{{"mapFile": "m.map", "agentFile": "a.agents", "teamSize": {}, "taskFile": "t.tasks", "numTasksReveal": 1, "taskAssignmentStrategy": "{strategy}"}}"#,
        starts.len()
    );
    let path = dir.join("p.json");
    std::fs::write(&path, json).unwrap();
    path
}

#[test]
fn robots_patrol_the_tasks_round_robin_deals_them() {
    // Two robots, five tasks: robot k's j-th task is tasks[(2j + k) mod 5], a cycle of five.
    let tasks = [5, 23, 18, 0, 11];
    let p = Problem::load(&problem("rr", &[0, 6], &tasks, "roundrobin")).unwrap();
    let s = p.to_scenario().unwrap();
    assert!(s.crowd && s.rotation);
    let at = |c: u32| Pos::new(c % 6, c / 6);
    for (k, a) in s.agents.iter().enumerate() {
        assert_eq!((a.start, a.facing), (at([0, 6][k]), Facing::East));
        let mine: Vec<Pos> = (0..5).map(|j| at(tasks[(2 * j + k) % 5])).collect();
        assert_eq!(a.goal, mine[0]);
        assert_eq!(a.route, mine[1..]);
    }
    let mut start = s.start(s.config(Algorithm::DStarLite));
    start.timeline.apply(0, &mut start.sim);
    let mut seen: Vec<Vec<Pos>> = vec![Vec::new(); 2];
    for _ in 0..200 {
        start.sim.step();
        for (k, a) in start.sim.agents().enumerate() {
            if seen[k].last() != Some(&a.goal) {
                seen[k].push(a.goal);
            }
        }
    }
    for (k, goals) in seen.iter().enumerate() {
        assert!(goals.len() > 5, "robot {k}: {goals:?}");
        for (j, g) in goals.iter().enumerate() {
            assert_eq!(*g, at(tasks[(2 * j + k) % 5]), "robot {k}: {goals:?}");
        }
    }
}

#[test]
fn long_cycles_are_cut_to_the_route_limit() {
    let tasks: Vec<u32> = (0..200).map(|i| [1, 4, 9, 22][i % 4]).collect();
    let p = Problem::load(&problem("long", &[0], &tasks, "roundrobin")).unwrap();
    let s = p.to_scenario().unwrap();
    assert_eq!(s.agents[0].route.len(), MAX_ROUTE - 1);
}

#[test]
fn other_strategies_are_refused_with_a_message() {
    let p = Problem::load(&problem("greedy", &[0], &[5, 7], "greedy")).unwrap();
    let e = p.to_scenario().unwrap_err();
    assert!(
        e.contains("round robin") && e.contains("gridwalk-cli lifelong"),
        "{e}"
    );
}

/// The game's LoRR problem (`maps/lorr/random_400.json`: 400 robots on random-32-32-20, about
/// half its free cells) for 500 ticks: the robots of ticks 250 to 500 arrive at least half as
/// often as those of ticks 0 to 250, and at the end at most an eighth of them are stuck.
#[test]
fn four_hundred_robots_keep_flowing() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps/lorr/random_400.json");
    let scenario = Problem::load(&path).unwrap().to_scenario().unwrap();
    let mut start = scenario.start(scenario.config(Algorithm::DStarLite));
    start.timeline.apply(0, &mut start.sim);
    let sim = &mut start.sim;
    let mut first = 0;
    for tick in 0..500 {
        if tick == 250 {
            first = sim.crowd_stats().unwrap().arrivals_total;
        }
        sim.step();
    }
    let last = sim.crowd_stats().unwrap().arrivals_total - first;
    let stuck = (sim.agents())
        .filter(|a| a.status == AgentStatus::Stuck)
        .count();
    assert!(
        sim.agent_count() == 400 && first > 0 && 2 * last >= first && 8 * stuck <= 400,
        "arrivals {first} then {last}, {stuck} stuck"
    );
}
