//! `simulate --algo greedy` plays every scenario the CLI's tests use: it exits cleanly, its
//! agents move at most one cell a tick, and it finds a path at the start exactly when
//! Dijkstra does.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{common, json_lines, run_cli, temp_file};

/// Every scenario of the CLI's tests: the examples, the cut map, the sensing map, the random
/// living worlds of `mpgaa.rs`, and the repository's scenarios that `same-output.sh` plays.
fn scenarios() -> Vec<PathBuf> {
    let sensing = r#"(
    rows: ["......", "..#...", "...3..", "......"],
    agents: [(start: (0, 0), goal: (5, 3))],
    edits: [(tick: 2, set: Wall, cells: [(4, 3)])],
    sensor_range: 1,
)"#;
    let cut = r#"(rows: ["..#..", "..#..", "..#.."], agents: [(start: (0, 1), goal: (4, 1))])"#;
    let wall = common::example(&["(tick: 2, set: Wall, cells: [(9, 2)])"]);
    let mut files = vec![
        temp_file("gridwalk-cli-greedy", "example.ron", &common::example(&[])),
        temp_file("gridwalk-cli-greedy", "wall.ron", &wall),
        temp_file("gridwalk-cli-greedy", "cut.ron", cut),
        temp_file("gridwalk-cli-greedy", "sensing.ron", sensing),
    ];
    for seed in 1..=16 {
        let text = crate::mpgaa::world(seed).to_ron();
        files.push(temp_file(
            "gridwalk-cli-greedy",
            &format!("w{seed}.ron"),
            &text,
        ));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for i in 1..=5 {
        files.push(root.join(format!("scripts/same-output/s{i}.ron")));
    }
    files.push(root.join("maps/default.ron"));
    files.push(root.join("scripts/e2e-map.ron"));
    files
}

/// Runs `simulate FILE --algo ALGO --ticks 150` with `extra` flags: its lines, or its
/// error when it refuses the scenario.
fn simulate(file: &Path, algo: &str, extra: &[&str]) -> Result<Vec<Value>, String> {
    let mut args = vec!["simulate", file.to_str().unwrap(), "--algo", algo];
    args.extend(["--ticks", "150"]);
    args.extend(extra);
    let out = run_cli(&args);
    match out.status.success() {
        true => Ok(json_lines(&out)),
        false => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
    }
}

/// Each agent's id and whether it has no path, at tick 0 (before any edit or move).
fn no_path_at_start(lines: &[Value]) -> Vec<(Value, bool)> {
    let agents = lines[0]["agents"].as_array().unwrap();
    agents
        .iter()
        .map(|a| (a["id"].clone(), a["status"] == "no_path"))
        .collect()
}

/// Checks that no agent of `lines` moves more than one cell between two ticks.
fn assert_steps(file: &Path, lines: &[Value]) {
    for w in lines.windows(2) {
        for b in w[1]["agents"].as_array().unwrap() {
            let before = w[0]["agents"].as_array().unwrap();
            let Some(a) = before.iter().find(|a| a["id"] == b["id"]) else {
                continue;
            };
            let d =
                |k: usize| (a["pos"][k].as_i64().unwrap() - b["pos"][k].as_i64().unwrap()).abs();
            assert!(
                d(0).max(d(1)) <= 1,
                "{file:?} tick {}: agent jumped",
                w[1]["tick"]
            );
        }
    }
}

#[test]
fn greedy_plays_every_scenario_of_the_cli_tests() {
    for file in scenarios() {
        for extra in [&[][..], &["--crowd"][..]] {
            let greedy = simulate(&file, "greedy", extra);
            let dijkstra = simulate(&file, "dijkstra", extra);
            // Crowd mode refuses the random worlds' shared starts, whatever the planner.
            let (greedy, dijkstra) = match (greedy, dijkstra) {
                (Ok(g), Ok(d)) => (g, d),
                (Err(g), Err(d)) if !extra.is_empty() => {
                    assert_eq!(g, d, "{file:?}: both refuse it alike");
                    continue;
                }
                (g, d) => panic!(
                    "{file:?} {extra:?}: greedy {:?}, dijkstra {:?}",
                    g.err(),
                    d.err()
                ),
            };
            assert!(!greedy.is_empty(), "{file:?}");
            assert_steps(&file, &greedy);
            assert_eq!(
                no_path_at_start(&greedy),
                no_path_at_start(&dijkstra),
                "{file:?} {extra:?}: greedy finds a path exactly when Dijkstra does"
            );
        }
    }
}

#[test]
fn greedy_brings_the_example_home() {
    let f = temp_file("gridwalk-cli-greedy", "home.ron", &common::example(&[]));
    let lines = simulate(&f, "greedy", &[]).unwrap();
    for a in lines.last().unwrap()["agents"].as_array().unwrap() {
        assert_eq!(a["status"], "arrived");
        assert_eq!(a["pos"], a["goal"]);
    }
}
