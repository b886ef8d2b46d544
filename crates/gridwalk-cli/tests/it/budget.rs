//! `simulate`'s budgets: `--plan-budget` and `--planner-memory` (or the scenario's fields);
//! agents waiting for their plan print as `planning`, and only with a planning budget; the
//! default prints what it always printed; bad values are refused with what is wrong.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

use crate::{common, json_lines};

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gridwalk-cli-budget");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run(file: &std::path::Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gridwalk-cli"))
        .args(["simulate", file.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap()
}

/// The statuses of every agent of every line.
fn statuses(lines: &[Value]) -> Vec<String> {
    lines
        .iter()
        .flat_map(|l| l["agents"].as_array().unwrap().clone())
        .map(|a| a["status"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_plan_budget_makes_agents_wait_as_planning_then_walk() {
    let f = write("plan-budget.ron", &common::example(&[]));
    for algo in ["dstar-lite", "dstar", "astar", "dijkstra"] {
        let free = json_lines(&run(&f, &["--algo", algo]));
        assert!(!statuses(&free).contains(&"planning".to_owned()), "{algo}");
        let tight = json_lines(&run(&f, &["--algo", algo, "--plan-budget", "2"]));
        for l in &tight {
            if algo.starts_with("dstar") {
                assert!(l["expanded"].as_u64().unwrap() <= 2, "{algo}: {l}");
            }
        }
        let seen = statuses(&tight);
        assert!(seen.contains(&"planning".to_owned()), "{algo}: {seen:?}");
        let last = tight.last().unwrap()["agents"].as_array().unwrap().clone();
        assert!(last.iter().all(|a| a["status"] == "arrived"), "{algo}");
        assert!(tight.len() > free.len(), "{algo}: waiting takes ticks");
    }
}

#[test]
fn a_tiny_memory_budget_changes_no_cost() {
    let f = write("memory-budget.ron", &common::example(&[]));
    for algo in ["dstar-lite", "dstar"] {
        let free = json_lines(&run(&f, &["--algo", algo]));
        let tight = json_lines(&run(&f, &["--algo", algo, "--planner-memory", "1M"]));
        let strip = |ls: &[Value]| -> Vec<Value> {
            ls.iter()
                .map(|l| {
                    let agents = l["agents"].as_array().unwrap();
                    agents.iter().map(|a| a["remaining"].clone()).collect()
                })
                .collect()
        };
        assert_eq!(strip(&free), strip(&tight), "{algo}");
    }
}

#[test]
fn the_scenario_sets_budgets_and_the_flags_replace_them() {
    let text = common::example(&[]).replace(
        "    connectivity: Eight,",
        "    connectivity: Eight,\n    plan_budget: 2,\n    planner_memory: \"64M\",",
    );
    let f = write("budgets.ron", &text);
    let from_file = json_lines(&run(&f, &[]));
    assert!(statuses(&from_file).contains(&"planning".to_owned()));
    let replaced = json_lines(&run(&f, &["--plan-budget", "1000000"]));
    assert!(!statuses(&replaced).contains(&"planning".to_owned()));
}

#[test]
fn bad_budgets_are_refused_with_what_is_wrong() {
    let f = write("flags.ron", &common::example(&[]));
    for (flags, words) in [
        (&["--planner-memory", "lots"][..], "512M or 2G"),
        (&["--planner-memory", "10K"][..], "outside 1M to 1T"),
        (&["--plan-budget", "0"][..], "--plan-budget"),
        (&["--plan-budget", "many"][..], "--plan-budget"),
    ] {
        let out = run(&f, flags);
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words), "{flags:?}: {err}");
    }
    let text = common::example(&[]).replace(
        "    connectivity: Eight,",
        "    connectivity: Eight,\n    plan_budget: 0,",
    );
    let bad = write("bad.ron", &text);
    let out = run(&bad, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.ron:8:") && err.contains("plan_budget"),
        "{err}"
    );
}
