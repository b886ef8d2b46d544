//! `simulate --algo mpgaa` on random living worlds: several agents per goal, timed edits that
//! raise and lower costs, wanderers and the dynamic world. Every tick's `remaining` is the
//! Dijkstra optimum, and `--trace` lists MPGAA\*'s searches.

use std::process::Command;

use gridwalk_core::format::{AgentSpec, CellSet, DynamicSpec, EditSpec, Scenario};
use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};
use gridwalk_core::scenario::replay::Replay;
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::{Algorithm, Connectivity, Grid, Pos};
use serde_json::Value;

use crate::common::reference_costs;
use crate::json_lines;

/// A random 20×14 world from `seed`: walls and weights, 3 goals with 2–3 agents each (some
/// wander), edits every few ticks (walls, clears and weights), and the dynamic world.
pub(crate) fn world(seed: u64) -> Scenario {
    let mut rng = SplitMix64::seed_from_u64(seed);
    let (w, h) = (20u32, 14u32);
    let mut grid = Grid::random(w, h, 0.2, &mut rng).unwrap();
    let cell =
        |rng: &mut SplitMix64| Pos::new(rng.below(w as usize) as u32, rng.below(h as usize) as u32);
    let mut agents = Vec::new();
    for _ in 0..3 {
        let goal = cell(&mut rng);
        for _ in 0..2 + rng.below(2) {
            let mut a = AgentSpec::new(cell(&mut rng), goal);
            if rng.chance(0.3) {
                a.on_arrival = OnArrival::Wander;
            }
            agents.push(a);
        }
    }
    for a in &agents {
        grid.set(a.start, gridwalk_core::Terrain::FREE).unwrap();
        grid.set(a.goal, gridwalk_core::Terrain::FREE).unwrap();
    }
    let mut s = Scenario::from_grid(grid);
    s.connectivity = if seed.is_multiple_of(2) {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    s.seed = seed;
    s.agents = agents;
    for tick in (1..40).step_by(3) {
        let set = match rng.below(4) {
            0 | 1 => CellSet::Wall,
            2 => CellSet::Free,
            _ => CellSet::Weight(1 + rng.below(9) as u8),
        };
        let cells = (0..1 + rng.below(6)).map(|_| cell(&mut rng)).collect();
        s.edits.push(EditSpec { tick, set, cells });
    }
    s.dynamic = vec![DynamicSpec::new(
        0,
        Some(DynamicWorld { every: 5, walls: 4 }),
    )];
    s
}

fn simulate(s: &Scenario, name: &str, extra: &[&str]) -> Vec<Value> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gridwalk-cli-mpgaa");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, s.to_ron()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gridwalk-cli"))
        .args([
            "simulate",
            file.to_str().unwrap(),
            "--algo",
            "mpgaa",
            "--ticks",
            "60",
        ])
        .args(extra)
        .output()
        .unwrap();
    json_lines(&out)
}

fn pos(v: &Value) -> Pos {
    Pos::new(v[0].as_u64().unwrap() as u32, v[1].as_u64().unwrap() as u32)
}

#[test]
fn every_ticks_remaining_is_exact() {
    let mut checked = 0;
    for seed in 1..=16 {
        let s = world(seed);
        let lines = simulate(&s, &format!("w{seed}.ron"), &[]);
        // The same run in process gives each tick's map.
        let mut replay = Replay::new(s.clone(), Algorithm::Mpgaa);
        let mut goals = std::collections::HashMap::new();
        for l in &lines {
            replay.step();
            let sim = replay.sim();
            if sim.changes_pending() {
                continue; // the dynamic world changed the map after this tick's planning
            }
            let grid = sim.grid();
            for a in l["agents"].as_array().unwrap() {
                let (at, goal) = (pos(&a["pos"]), pos(&a["goal"]));
                let truth = reference_costs(grid, grid.index(goal).unwrap(), s.connectivity);
                let best = truth[grid.index(at).unwrap()];
                let want = (best != gridwalk_core::cost::INFINITY)
                    .then(|| gridwalk_cli::lines::printed_cost(best));
                let id = a["id"].as_u64().unwrap();
                let retargeted = goals.insert(id, goal).is_some_and(|g| g != goal);
                match a["status"].as_str().unwrap() {
                    "arrived" => assert_eq!(at, goal),
                    // A wanderer that arrived this tick has its new goal but no plan yet.
                    _ if retargeted && a["remaining"].is_null() => {}
                    _ => {
                        assert_eq!(
                            a["remaining"].as_f64(),
                            want,
                            "seed {seed} tick {}: {a}",
                            l["tick"]
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 500, "only {checked} agent ticks checked");
}

#[test]
fn trace_lists_mpgaas_searches() {
    let s = world(3);
    let plain = simulate(&s, "t.ron", &[]);
    let traced = simulate(&s, "t.ron", &["--trace"]);
    assert_eq!(plain.len(), traced.len());
    let mut searches = 0;
    for (p, t) in plain.iter().zip(&traced) {
        assert_eq!(p["agents"], t["agents"], "--trace changes nothing else");
        let mut total = 0;
        for entry in t["trace"].as_array().unwrap() {
            assert!(entry.get("goal").is_some() && entry.get("agent").is_none());
            let mut last_g: Option<f64> = None;
            for e in entry["events"].as_array().unwrap() {
                total += 1;
                let cost = e[3].as_f64().expect("MPGAA* costs are finite");
                match e[2].as_str().unwrap() {
                    // A search closes its agent's cell first, at g = 0; f never falls, and
                    // every later g of that search is positive.
                    "close" => {
                        if cost == 0.0 {
                            searches += 1;
                        } else {
                            assert!(last_g.is_some(), "a search starts at its agent: {e}");
                        }
                        last_g = Some(cost);
                    }
                    // The consistency pass after a decrease lowers h.
                    "lower" => assert!(last_g.is_none(), "lowering comes before searches"),
                    k => panic!("unexpected kind {k}"),
                }
            }
        }
        assert_eq!(total, t["expanded"].as_u64().unwrap());
    }
    assert!(searches > 3);
}
