//! Issue 33's check of crowd mode, through the command line: a dense one-shot crowd played by
//! `simulate --crowd` (4 moves, agents staying on arrival) on the MAPF benchmark's instances
//! arrives, every tick passes the core's independent MAPF validator, the sum of costs is at
//! most 1.3× that of `mapf --first` on the same instance, and no tick's real-time search
//! makes more tries than twice its budget.

use std::path::Path;

use gridwalk_core::format::movingai::{load_map, load_scen};
use gridwalk_core::{Connectivity, Pos};

use crate::mapf::data;
use crate::mapf::validate::{check_plan, check_result};
use crate::run_cli as run;

/// The crowd's budget of tries a tick, given on the command line.
const BUDGET: u64 = 16;

/// The scenario file of the instance: the map's rows (`#` for anything not passable), 4 moves,
/// crowd mode, and the agents with their starts and goals (staying on arrival, the default).
fn scenario_text(map: &str, starts: &[Pos], goals: &[Pos]) -> String {
    let grid = load_map(Path::new(map)).unwrap();
    let rows: Vec<String> = (0..grid.height())
        .map(|y| {
            let row: String = (0..grid.width())
                .map(|x| match grid.is_passable(Pos::new(x, y)) {
                    true => '.',
                    false => '#',
                })
                .collect();
            format!("        \"{row}\",\n")
        })
        .collect();
    let agents: Vec<String> = (starts.iter().zip(goals))
        .map(|(s, g)| {
            format!(
                "        (start: ({}, {}), goal: ({}, {})),\n",
                s.x, s.y, g.x, g.y
            )
        })
        .collect();
    format!(
        "(\n    rows: [\n{}    ],\n    connectivity: Four,\n    crowd: true,\n    agents: [\n{}    ],\n)\n",
        rows.concat(),
        agents.concat()
    )
}

/// `mapf --first`'s sum of costs on the instance, its result file checked by the validator.
fn mapf_first_soc(map: &str, scen: &str, starts: &[Pos], goals: &[Pos]) -> u64 {
    let out_file = crate::temp_file("gridwalk-crowd-arrives", &format!("{scen}.txt"), "");
    let n = starts.len().to_string();
    let (scen_path, out_path) = (data(scen), out_file.to_str().unwrap().to_owned());
    let args = ["mapf", map, &scen_path, "--agents", &n, "--first"];
    let out = run(&[&args[..], &["--out", &out_path]].concat());
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    let grid = load_map(Path::new(map)).unwrap();
    let r = check_result(&text, &grid, Connectivity::Four, starts, goals);
    assert_eq!(r.num("solved"), 1, "mapf solves {scen}");
    r.num("soc")
}

/// The crowd's cells by tick from `simulate`'s lines (agents by id), each tick's tries and
/// kept configurations, and how many ticks the search moved the agents.
type Run = (Vec<Vec<(i64, i64)>>, Vec<(u64, u64)>, usize);

/// Reads [`Run`] from the lines.
fn crowd_run(lines: &[serde_json::Value]) -> Run {
    let plan = (lines.iter())
        .map(|l| {
            let agents = l["agents"].as_array().unwrap();
            (agents.iter())
                .map(|a| (a["pos"][0].as_i64().unwrap(), a["pos"][1].as_i64().unwrap()))
                .collect()
        })
        .collect();
    let work = (lines.iter())
        .map(|l| {
            let c = &l["crowd"];
            (
                c["tries"].as_u64().unwrap_or(0),
                c["configurations"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let searched = (lines.iter())
        .filter(|l| l["crowd"]["searched"].as_bool() == Some(true))
        .count();
    (plan, work, searched)
}

/// Plays the first `agents` rows of `scen` on `map` with `simulate --crowd` and checks it
/// against `mapf --first`.
fn crowd_arrives(map_name: &str, scen: &str, agents: usize) {
    let map = data(map_name);
    let problems = load_scen(Path::new(&data(scen))).unwrap();
    let starts: Vec<Pos> = problems[..agents].iter().map(|p| p.start).collect();
    let goals: Vec<Pos> = problems[..agents].iter().map(|p| p.goal).collect();
    let reference = mapf_first_soc(&map, scen, &starts, &goals);
    let text = scenario_text(&map, &starts, &goals);
    let file = crate::temp_file("gridwalk-crowd-arrives", &format!("{scen}.ron"), &text);
    let budget = BUDGET.to_string();
    let out = run(&[
        "simulate",
        file.to_str().unwrap(),
        "--crowd",
        "--crowd-budget",
        &budget,
    ]);
    let (plan, work, searched) = crowd_run(&crate::json_lines(&out));
    let xy =
        |ps: &[Pos]| -> Vec<(i64, i64)> { ps.iter().map(|p| (p.x as i64, p.y as i64)).collect() };
    let grid = load_map(Path::new(&map)).unwrap();
    let figures = check_plan(&grid, Connectivity::Four, &xy(&starts), &xy(&goals), &plan)
        .unwrap_or_else(|e| panic!("{scen}: {e} (after {} ticks)", plan.len() - 1));
    let thinking = work.iter().filter(|w| w.0 > 0).count();
    println!(
        "{scen} {agents}: arrived in {} ticks ({searched} moved by the search, {thinking} of \
         them with tries), soc {} vs mapf --first {reference} ({:.3}x)",
        plan.len() - 1,
        figures.soc,
        figures.soc as f64 / reference as f64
    );
    assert!(searched > 0, "{scen}: the search never took over");
    for (t, w) in work.windows(2).enumerate() {
        let ((_, kept_before), (tries, kept)) = (w[0], w[1]);
        assert!(tries <= 2 * BUDGET, "tick {}: {tries} tries", t + 1);
        // A try keeps at most one new configuration; fewer kept means a new root.
        if kept >= kept_before && kept_before > 0 {
            assert!(kept - kept_before <= tries, "tick {}: {w:?}", t + 1);
        }
    }
    assert!(
        figures.soc as f64 <= 1.3 * reference as f64,
        "{scen}: soc {} vs mapf --first's {reference}",
        figures.soc
    );
}

#[test]
fn a_dense_random_crowd_arrives_through_the_cli() {
    crowd_arrives("random-32-32-20.map", "random-32-32-20-random-1.scen", 400);
}

#[test]
fn a_dense_warehouse_crowd_arrives_through_the_cli() {
    crowd_arrives(
        "warehouse-10-20-10-2-1.map",
        "warehouse-10-20-10-2-1-gen-1.scen",
        400,
    );
}

#[test]
fn an_agent_walled_off_mid_search_leaves_the_others_to_arrive() {
    // A game session: 400 agents on random-32-32-20 `random-1` in crowd mode, and walls drawn
    // across the map while the real-time search moved them, one of which parted an agent from
    // its goal. The search holds that agent and brings every other one home.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/walled-off-crowd.ron");
    let out = run(&["simulate", file.to_str().unwrap(), "--ticks", "400"]);
    let lines = crate::json_lines(&out);
    for line in &lines {
        let mut cells: Vec<&serde_json::Value> = (line["agents"].as_array().unwrap().iter())
            .map(|a| &a["pos"])
            .collect();
        let n = cells.len();
        cells.sort_by_key(|c| c.to_string());
        cells.dedup();
        assert_eq!(
            cells.len(),
            n,
            "tick {}: two agents share a cell",
            line["tick"]
        );
    }
    let last = lines.last().unwrap()["agents"].as_array().unwrap().clone();
    let status = |s: &str| last.iter().filter(|a| a["status"] == s).count();
    assert_eq!((status("no_path"), status("arrived")), (1, last.len() - 1));
}
