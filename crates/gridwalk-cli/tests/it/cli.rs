//! The CLI contract: JSON lines from `simulate`, the summary of `movingai`, exit codes.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use gridwalk_core::{Algorithm, Pos};
use serde_json::Value;

static EXAMPLE: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| common::example(&["(tick: 2, set: Wall, cells: [(9, 2)])"]));

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gridwalk-cli"))
}

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gridwalk-cli-test");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs `simulate FILE --algo ALGO` with `extra` flags; panics with its stderr on failure.
fn simulate(file: &std::path::Path, algo: &str, extra: &[&str]) -> Vec<Value> {
    let out = cli()
        .args(["simulate", file.to_str().unwrap(), "--algo", algo])
        .args(extra)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{algo} {extra:?}: {err}");
    lines(&out.stdout)
}

/// [`simulate`] with every algorithm.
fn simulate_each(file: &std::path::Path, extra: &[&str]) -> Vec<(Algorithm, Vec<Value>)> {
    Algorithm::ALL
        .into_iter()
        .map(|a| (a, simulate(file, &a.to_string(), extra)))
        .collect()
}

fn lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect()
}

#[test]
fn simulate_prints_a_line_per_tick_until_everyone_arrives() {
    let f = write("example.ron", &EXAMPLE);
    for (_, lines) in simulate_each(&f, &[]) {
        for (t, l) in lines.iter().enumerate() {
            assert_eq!(l["tick"], t as u64);
            assert!(l["expanded"].is_u64() && l["micros"].is_u64());
        }
        // Tick 0 plans before any move: the first agent is still on its start.
        assert_eq!(lines[0]["agents"][0]["pos"], serde_json::json!([0, 0]));
        assert_eq!(lines[0]["agents"].as_array().unwrap().len(), 1);
        // The wall on the goal at tick 2 is refused.
        assert_eq!(lines[2]["refused"], serde_json::json!([[9, 2]]));
        assert_eq!(lines[4]["agents"].as_array().unwrap().len(), 2);
        let last = lines.last().unwrap();
        for a in last["agents"].as_array().unwrap() {
            assert_eq!(a["status"], "arrived");
            assert_eq!(a["remaining"], 0.0);
            assert_eq!(a["pos"], a["goal"]);
        }
        // An agent with a path moves exactly one cell per tick; one without stays put.
        for w in lines.windows(2) {
            for b in w[1]["agents"].as_array().unwrap() {
                let Some(a) = w[0]["agents"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|a| a["id"] == b["id"])
                else {
                    continue;
                };
                let d = |k: usize| {
                    (a["pos"][k].as_i64().unwrap() - b["pos"][k].as_i64().unwrap()).abs()
                };
                let moved = d(0).max(d(1));
                if a["status"] == "arrived" {
                    assert_eq!(moved, 0);
                } else {
                    assert!(moved <= 1, "tick {}: agent jumped", w[1]["tick"]);
                }
            }
        }
    }
}

#[test]
fn simulate_honours_ticks_and_reports_no_path() {
    let f = write(
        "cut.ron",
        r#"(rows: ["..#..", "..#..", "..#.."], agents: [(start: (0, 1), goal: (4, 1))])"#,
    );
    let out = cli()
        .args(["simulate", f.to_str().unwrap(), "--ticks", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines = lines(&out.stdout);
    assert_eq!(lines.len(), 6);
    for l in &lines {
        assert_eq!(l["agents"][0]["status"], "no_path");
        assert_eq!(l["agents"][0]["remaining"], Value::Null);
        assert_eq!(l["agents"][0]["pos"], serde_json::json!([0, 1]));
    }
}

#[test]
fn bad_input_names_file_and_line_and_exits_2() {
    let f = write(
        "bad.ron",
        "(\n  rows: [\n    \"...\",\n    \"..\",\n  ],\n)",
    );
    let out = cli()
        .args(["simulate", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.ron:4"), "{err}");
    assert!(out.stdout.is_empty());
    let out = cli()
        .args(["simulate", "/no/such/file.ron"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/file.ron"));
    let out = cli()
        .args(["simulate", f.to_str().unwrap(), "--algo", "bogus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn movingai_summarises_and_fails_on_mismatch() {
    let dir = PathBuf::from(crate::MOVINGAI);
    let (map, scen) = (dir.join("arena.map"), dir.join("arena.map.scen"));
    let out = cli()
        .arg("movingai")
        .arg(&map)
        .arg(&scen)
        .args(["--algo", "dstar-lite"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("problems: 160, mismatches: 0, max_error: "),
        "{last}"
    );
    assert!(last.contains(", millis: "));
    // A scenario whose lengths are off by one must be reported, with exit code 1.
    let wrong: String = std::fs::read_to_string(&scen)
        .unwrap()
        .lines()
        .take(5)
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                return format!("{l}\n");
            }
            let mut f: Vec<String> = l.split('\t').map(str::to_owned).collect();
            let v: f64 = f[8].parse().unwrap();
            f[8] = format!("{}", v + 1.0);
            f.join("\t") + "\n"
        })
        .collect();
    let bad = write("wrong.scen", &wrong);
    let out = cli().arg("movingai").arg(&map).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("problems: 4, mismatches: 4")
    );
}

/// Costs to `goal` as tick lines print them, by the reference Dijkstra.
fn costs_to(
    grid: &gridwalk_core::Grid,
    goal: Pos,
    conn: gridwalk_core::Connectivity,
) -> Vec<Option<f64>> {
    let g = grid.index(goal).unwrap();
    common::reference_costs(grid, g, conn)
        .into_iter()
        .map(|d| (d != gridwalk_core::cost::INFINITY).then(|| gridwalk_cli::lines::printed_cost(d)))
        .collect()
}

#[test]
fn trace_lists_every_expansion_of_every_search_run() {
    use gridwalk_core::format::Scenario;
    use gridwalk_core::scenario::replay::Replay;
    let f = write("trace.ron", &EXAMPLE);
    let traced = simulate_each(&f, &["--trace"]);
    for ((a, plain), (_, traced)) in simulate_each(&f, &[]).into_iter().zip(traced) {
        assert_eq!(plain.len(), traced.len(), "{a}");
        // The map of each tick's planning, from the same scenario played in process.
        let scenario = Scenario::parse(&EXAMPLE, "trace.ron").unwrap();
        let conn = scenario.connectivity;
        let mut replay = Replay::new(scenario, a);
        for (p, t) in plain.iter().zip(&traced) {
            // Without --trace the line is unchanged: the traced line is it plus "trace".
            let mut stripped = t.clone();
            let trace = stripped.as_object_mut().unwrap().remove("trace").unwrap();
            stripped.as_object_mut().unwrap().remove("micros");
            let mut p = p.clone();
            p.as_object_mut().unwrap().remove("micros");
            assert_eq!(stripped, p, "{a}");
            assert!(!p.to_string().contains("trace"));
            replay.step();
            let grid = replay.sim().grid();
            let mut total = 0;
            for entry in trace.as_array().unwrap() {
                let events = entry["events"].as_array().unwrap();
                total += events.len() as u64;
                let incremental = a.is_incremental();
                assert_eq!(entry.get("goal").is_some(), incremental, "{a}: {entry}");
                assert_eq!(entry.get("agent").is_some(), !incremental, "{a}: {entry}");
                let truth = entry.get("goal").map(|g| {
                    costs_to(
                        grid,
                        Pos::new(g[0].as_u64().unwrap() as u32, g[1].as_u64().unwrap() as u32),
                        conn,
                    )
                });
                for e in events {
                    let kind = e[2].as_str().unwrap();
                    let cell =
                        Pos::new(e[0].as_u64().unwrap() as u32, e[1].as_u64().unwrap() as u32);
                    match a {
                        Algorithm::DStarLite => {
                            assert!(kind == "lower" || kind == "raise", "{e}");
                            if kind == "lower" {
                                let want = truth.as_ref().unwrap()[grid.index(cell).unwrap()];
                                assert_eq!(e[3].as_f64(), want, "{a} lower at {cell}");
                            } else {
                                assert!(e[3].is_null());
                            }
                        }
                        Algorithm::DStar => assert!(kind == "lower" || kind == "raise", "{e}"),
                        _ => {
                            assert_eq!(kind, "close");
                            assert!(e[3].is_f64());
                        }
                    }
                }
            }
            assert_eq!(
                total,
                t["expanded"].as_u64().unwrap(),
                "{a} tick {}",
                t["tick"]
            );
        }
    }
}

/// `--rotation`: agents face a direction and turn; each line gives every agent's facing, and
/// each tick an agent moves one cell along it or turns a quarter (or waits). Off, no line has
/// a facing. A scenario of eight moves is refused with a message.
#[test]
fn simulate_rotation_prints_facings_and_turns_before_moving() {
    let text = "(rows: [\".....\", \".....\"], connectivity: Four,\n  agents: [(start: (0, 0), goal: (4, 1), facing: West), (start: (4, 0), goal: (0, 0))])";
    let f = write("turning.ron", text);
    let plain = simulate(&f, "dstar-lite", &["--crowd"]);
    assert!(plain.iter().all(|l| l["agents"][0].get("facing").is_none()));
    let turned = simulate(&f, "dstar-lite", &["--rotation"]);
    let facing = |l: &Value, i: usize| l["agents"][i]["facing"].as_str().unwrap().to_owned();
    let pos = |l: &Value, i: usize| {
        (
            l["agents"][i]["pos"][0].as_u64(),
            l["agents"][i]["pos"][1].as_u64(),
        )
    };
    assert_eq!(facing(&turned[0], 0), "west");
    for w in turned.windows(2) {
        for i in 0..2 {
            let ((x0, y0), (x1, y1)) = (pos(&w[0], i), pos(&w[1], i));
            let (x0, y0, x1, y1) = (
                x0.unwrap() as i64,
                y0.unwrap() as i64,
                x1.unwrap() as i64,
                y1.unwrap() as i64,
            );
            let (f0, f1) = (facing(&w[0], i), facing(&w[1], i));
            let step = match f0.as_str() {
                "east" => (1, 0),
                "south" => (0, 1),
                "west" => (-1, 0),
                _ => (0, -1),
            };
            let moved = (x1 - x0, y1 - y0);
            assert!(
                (moved == (0, 0)) || (moved == step && f0 == f1),
                "agent {i}: {f0} {moved:?} {f1}"
            );
        }
    }
    let last = turned.last().unwrap();
    assert_eq!(
        (pos(last, 0), pos(last, 1)),
        ((Some(4), Some(1)), (Some(0), Some(0)))
    );
    let eight = write("turning8.ron", "(rows: [\"...\"])");
    let out = cli()
        .args(["simulate", eight.to_str().unwrap(), "--rotation"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--rotation") && err.contains("four moves"),
        "{err}"
    );
}
