//! `gridwalk-cli lifelong`: LoRR problems of both editions played through the command line,
//! every result file checked by the independent validator (`lorr_validator`), the summary
//! line against it, the time limit's lost steps, and bad input named by file and line.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::lorr_validator::lorr_data;
use crate::lorr_validator::replay::{load_problem, replay};
use crate::run_cli as run;

/// A file of this test run's own, with `text`.
fn temp(name: &str, text: &str) -> PathBuf {
    crate::temp_file("gridwalk-lifelong-test", name, text)
}

/// A folder of this test run's own, `sub` under the tests' temporary folder.
fn temp_dir(sub: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gridwalk-lifelong-test")
        .join(sub);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The value after `key ` in the summary line, e.g. `tasks finished 12`.
fn field(line: &str, key: &str) -> f64 {
    let rest = &line[line.find(key).unwrap_or_else(|| panic!("{key} in {line}")) + key.len()..];
    rest.trim_start()
        .split([',', ' '])
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Plays `problem` with `extra` flags, checks the result file with the validator and the
/// summary line against it; returns the summary line and the result. Unless `extra` sets
/// one, the step time limit is a minute: a loaded machine must not lose steps and change
/// what a test counts.
fn play_and_check(problem: &Path, extra: &[&str], tag: &str) -> (String, Value) {
    let out_file = temp(&format!("{tag}.json"), "");
    let (p, o) = (problem.to_str().unwrap(), out_file.to_str().unwrap());
    let mut args = vec!["lifelong", p, "--out", o];
    args.extend_from_slice(extra);
    if !extra.contains(&"--step-time-limit") {
        args.extend_from_slice(&["--step-time-limit", "60"]);
    }
    let out = run(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap().to_owned();
    assert!(last.starts_with("lifelong: agents "), "{last}");
    assert!(
        stderr.contains("timestep"),
        "progress goes to stderr: {stderr}"
    );
    let result: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    let report = replay(&load_problem(problem), &result).unwrap_or_else(|e| panic!("{tag}: {e}"));
    let finished = report.finished.expect("our files carry the schedule");
    assert_eq!(result["numTaskFinished"].as_u64(), Some(finished), "{tag}");
    assert_eq!(field(&last, "tasks finished") as u64, finished, "{last}");
    assert_eq!(
        field(&last, "timesteps") as usize,
        report.timesteps,
        "{last}"
    );
    (last, result)
}

#[test]
fn both_editions_play_valid_steps() {
    for planner in [
        "window",
        "rotation",
        "committed",
        "operations",
        "state",
        "crowd",
    ] {
        let flags = [
            "--steps",
            "200",
            "--planner",
            planner,
            "--lns-work",
            "100000",
        ];
        let (line, r) = play_and_check(
            &lorr_data("2023/MR23-I-04.json"),
            &flags,
            &format!("i04-{planner}"),
        );
        assert_eq!(field(&line, "errors"), 0.0, "{line}");
        assert_eq!(r["AllValid"], "Yes");
        assert!(field(&line, "tasks finished") > 0.0, "{line}");
        let (line, r) = play_and_check(
            &lorr_data("2024/RANDOM-01.json"),
            &flags,
            &format!("r01-{planner}"),
        );
        assert_eq!(field(&line, "errors"), 0.0, "{line}");
        assert_eq!(r["version"], "2024 LoRR");
        assert!(field(&line, "tasks finished") > 0.0, "{line}");
    }
}

/// Enhanced PIBT, its refining bounded by choices (its `--lns-work`), plays valid steps in both
/// editions, with the time limit that would lose late steps.
#[test]
fn epibt_plays_valid_steps() {
    let flags = ["--steps", "200", "--planner", "epibt", "--lns-work", "2000"];
    for (problem, tag) in [
        ("2023/MR23-I-04.json", "i04"),
        ("2024/RANDOM-01.json", "r01"),
    ] {
        let (line, _) = play_and_check(&lorr_data(problem), &flags, &format!("{tag}-epibt"));
        assert_eq!(field(&line, "errors"), 0.0, "{line}");
        assert_eq!(field(&line, "timeouts"), 0.0, "{line}");
        assert!(field(&line, "tasks finished") > 0.0, "{line}");
    }
}

/// A copy of I-04's problem with another strategy and reveal count, in a folder of its own
/// with copies of its files.
fn variant(strategy: &str, reveal: u32) -> PathBuf {
    let dir = temp_dir(&format!("{strategy}-{reveal}"));
    for sub in [
        "maps/random-32-32-20.map",
        "agents/random-32-32-20_100.agents",
        "tasks/random-32-32-20_100.tasks",
    ] {
        std::fs::create_dir_all(dir.join(sub).parent().unwrap()).unwrap();
        std::fs::copy(lorr_data(&format!("2023/{sub}")), dir.join(sub)).unwrap();
    }
    let text = std::fs::read_to_string(lorr_data("2023/MR23-I-04.json")).unwrap();
    let text = text
        .replace("\"roundrobin\"", &format!("\"{strategy}\""))
        .replace(
            "\"numTasksReveal\": 1",
            &format!("\"numTasksReveal\": {reveal}"),
        );
    assert!(text.contains(strategy));
    let p = dir.join("problem.json");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn the_2023_strategies_are_dealt_as_the_start_kit_deals_them() {
    for (strategy, reveal) in [("greedy", 2), ("roundrobin_fixed", 1), ("roundrobin", 3)] {
        let p = variant(strategy, reveal);
        let flags = ["--steps", "100", "--lns-work", "100000"];
        let (line, _) = play_and_check(&p, &flags, &format!("{strategy}-{reveal}"));
        assert_eq!(field(&line, "errors"), 0.0, "{line}");
    }
}

/// With a limit far below any step's planning, steps are lost (every robot waits) and the
/// file says so: 2023 records them as errors, 2024 as entry timeouts. PIBT over operations
/// plans here: its first step makes a table for every goal, which no microsecond covers,
/// where the window planner heeds the limit and can answer before the simulator waits.
#[test]
fn late_steps_are_lost_and_recorded() {
    let flags = [
        "--steps",
        "30",
        "--step-time-limit",
        "0.000001",
        "--planner",
        "operations",
    ];
    let (line, r) = play_and_check(&lorr_data("2023/MR23-I-03.json"), &flags, "late-2023");
    let lost = field(&line, "timeouts");
    assert!(lost > 0.0, "{line}");
    // With no step answered in time, no time is negative zero.
    assert!(!line.contains("-0.000"), "{line}");
    assert_eq!(r["errors"].as_array().unwrap().len() as f64, lost);
    assert_eq!(r["AllValid"], "No");
    let (line, r) = play_and_check(&lorr_data("2024/RANDOM-02.json"), &flags, "late-2024");
    assert!(field(&line, "timeouts") > 0.0, "{line}");
    assert_eq!(
        r["numEntryTimeouts"].as_f64(),
        Some(field(&line, "timeouts"))
    );
}

#[test]
fn a_bad_share_of_the_step_is_refused() {
    for share in ["0", "-1", "1.5", "half"] {
        let out = run(&[
            "lifelong",
            lorr_data("2023/MR23-I-04.json").to_str().unwrap(),
            &format!("--plan-share={share}"),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{share}: {stderr}");
        assert!(stderr.contains("--plan-share"), "{share}: {stderr}");
        assert!(!stderr.contains("panicked"), "{share}: {stderr}");
    }
}

#[test]
fn parked_robots_take_no_task_and_the_rest_still_work() {
    let flags = [
        "--steps",
        "150",
        "--planner",
        "operations",
        "--active",
        "40",
    ];
    let (line, r) = play_and_check(&lorr_data("2024/RANDOM-01.json"), &flags, "r01-park");
    assert_eq!(field(&line, "errors"), 0.0, "{line}");
    assert!(field(&line, "tasks finished") > 0.0, "{line}");
    // Only robots on open ground (four free neighbours) park: 60 of them, or all if fewer.
    let p = load_problem(&lorr_data("2024/RANDOM-01.json"));
    let free = |x: i64, y: i64| {
        (0..p.width as i64).contains(&x)
            && (0..p.height as i64).contains(&y)
            && !p.walls[y as usize * p.width + x as usize]
    };
    let open = (p.starts.iter().take(100))
        .filter(|&&c| {
            let (x, y) = ((c % p.width) as i64, (c / p.width) as i64);
            [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .all(|(dx, dy)| free(x + dx, y + dy))
        })
        .count();
    let parked = open.min(60);
    assert!(parked > 10, "{open} robots on open ground");
    let schedules = r["actualSchedule"].as_array().unwrap();
    assert_eq!(schedules.len(), 100);
    let busy = schedules
        .iter()
        .filter(|s| !s.as_str().unwrap().is_empty())
        .count();
    assert!(
        busy <= 100 - parked,
        "{busy} robots were given tasks, {parked} parked"
    );
    assert!(busy > 20, "{busy} robots were given tasks");
    // 2023: parked robots' dealt tasks are hidden, and the steps stay valid.
    let (line, _) = play_and_check(&lorr_data("2023/MR23-I-04.json"), &flags, "i04-park");
    assert_eq!(field(&line, "errors"), 0.0, "{line}");
    assert!(field(&line, "tasks finished") > 0.0, "{line}");
}

/// Checks that `lifelong` on `problem` refuses each of `values` for `flag`, naming the flag,
/// without a panic.
fn refuses(problem: &str, flag: &str, values: &[&str]) {
    for value in values {
        let out = run(&[
            "lifelong",
            lorr_data(problem).to_str().unwrap(),
            &format!("{flag}={value}"),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{value}: {stderr}");
        assert!(stderr.contains(flag), "{value}: {stderr}");
        assert!(!stderr.contains("panicked"), "{value}: {stderr}");
    }
}

#[test]
fn a_bad_count_of_active_robots_is_refused() {
    refuses("2023/MR23-I-04.json", "--active", &["0", "-3", "many"]);
}

#[test]
fn a_bad_queue_is_refused_and_a_tight_one_plays_valid_steps() {
    refuses("2024/RANDOM-01.json", "--queue", &["0", "-1", "few"]);
    // One robot at a time to each first errand: every schedule still passes the validator.
    let flags = ["--steps", "150", "--planner", "operations", "--queue", "1"];
    let (line, _) = play_and_check(&lorr_data("2024/RANDOM-01.json"), &flags, "r01-queue");
    assert_eq!(field(&line, "errors"), 0.0, "{line}");
    assert!(field(&line, "tasks finished") > 0.0, "{line}");
}

#[test]
fn a_bad_keep_clear_is_refused_and_kept_cells_play_valid_steps() {
    refuses("2024/RANDOM-01.json", "--keep-clear", &["0", "-1", "near"]);
    // A bound of one makes every goal full, so every robot without a task walks out of the
    // heat around them: every step still passes the validator.
    let flags = [
        "--steps",
        "150",
        "--planner",
        "committed",
        "--queue",
        "1",
        "--keep-clear",
        "3",
    ];
    let (line, _) = play_and_check(&lorr_data("2024/RANDOM-01.json"), &flags, "r01-clear");
    assert_eq!(field(&line, "errors"), 0.0, "{line}");
    assert!(field(&line, "tasks finished") > 0.0, "{line}");
}

#[test]
fn bad_problems_are_named_by_file_and_line() {
    let map = lorr_data("2023/maps/random-32-32-20.map");
    let dir = temp_dir("bad");
    std::fs::copy(&map, dir.join("m.map")).unwrap();
    std::fs::write(dir.join("t.tasks"), "2\n0\n99999\n").unwrap();
    std::fs::write(dir.join("ok.tasks"), "1\n0\n").unwrap();
    // Cell 10 is a wall on random-32-32-20 (row 0: "..........@").
    std::fs::write(dir.join("wall.agents"), "2\n0\n10\n").unwrap();
    std::fs::write(dir.join("ok.agents"), "2\n0\n1\n").unwrap();
    let problem = |agents: &str, tasks: &str, extra: &str| {
        format!(
            "{{\n\"mapFile\": \"m.map\",\n\"agentFile\": \"{agents}\",\n\"teamSize\": 2,\n\"taskFile\": \"{tasks}\"{extra}\n}}\n"
        )
    };
    let cases = [
        (
            "wall.json",
            problem("wall.agents", "ok.tasks", ""),
            "wall.agents:3:",
            "wall",
        ),
        (
            "off.json",
            problem("ok.agents", "t.tasks", ""),
            "t.tasks:3:",
            "off the map",
        ),
        (
            "few.json",
            problem("ok.agents", "ok.tasks", "").replace("\"teamSize\": 2", "\"teamSize\": 3"),
            "ok.agents:1:",
            "fewer",
        ),
        (
            "key.json",
            problem("ok.agents", "ok.tasks", ",\n\"taskfile\": 1"),
            "key.json:6:",
            "unknown key",
        ),
        (
            "strategy.json",
            problem(
                "ok.agents",
                "ok.tasks",
                ",\n\"taskAssignmentStrategy\": \"random\"",
            ),
            "strategy.json:6:",
            "roundrobin",
        ),
        (
            "missing.json",
            "{\"mapFile\": \"m.map\"}".to_string(),
            "missing.json:",
            "missing",
        ),
        (
            "syntax.json",
            problem("ok.agents", "ok.tasks", "").replace("\"teamSize\": 2", "\"teamSize\" 2"),
            "syntax.json:4:",
            "expected",
        ),
    ];
    for (name, text, place, words) in cases {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let out = run(&["lifelong", p.to_str().unwrap(), "--steps", "5"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(place) && err.contains(words), "{name}: {err}");
    }
}

/// The default planner on I-04 (100 robots, 500 steps, uncongested; the window planner, here
/// with a twentieth of its default work a step): every step valid by the validator, every
/// robot finishing tasks, and the total within reach of the competition's best-known 1,741
/// (the one-step rotation planner finished 1,088, 0.62 of it).
#[test]
fn the_default_planner_keeps_every_robot_busy_on_i04() {
    let (line, r) = play_and_check(
        &lorr_data("2023/MR23-I-04.json"),
        &[
            "--steps",
            "500",
            "--lns-work",
            "200000",
            "--step-time-limit",
            "20",
        ],
        "i04-default",
    );
    assert_eq!(field(&line, "errors"), 0.0, "{line}");
    let finished = field(&line, "tasks finished");
    assert!(finished >= 0.7 * 1741.0, "{line}");
    for (a, events) in r["events"].as_array().unwrap().iter().enumerate() {
        let done = events
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e[2] == "finished")
            .count();
        assert!(done >= 3, "robot {a} finished {done} tasks: {line}");
    }
}

/// The committed step as `auto` plays it on big maps, each robot decided again as soon as it
/// stands on its cell and on tables with traffic rules, and with the robots decided together:
/// every step valid by the validator in both editions, tasks finished.
#[test]
fn committed_steps_alone_and_on_traffic_rules_are_valid() {
    for (redecide, highways) in [("alone", "8"), ("together", "8"), ("alone", "0")] {
        let flags = [
            "--steps",
            "200",
            "--planner",
            "committed",
            "--redecide",
            redecide,
            "--highways",
            highways,
        ];
        for problem in ["2023/MR23-I-04.json", "2024/RANDOM-01.json"] {
            let tag = format!("{redecide}-{highways}-{}", &problem[..4]);
            let (line, _) = play_and_check(&lorr_data(problem), &flags, &tag);
            assert_eq!(field(&line, "errors"), 0.0, "{tag}: {line}");
            assert!(field(&line, "tasks finished") > 0.0, "{tag}: {line}");
        }
    }
}

/// Traffic priced every 10 steps over 5 (the default's weights, short spans, so that 150 steps
/// reprice the tables many times): every planner that takes it plays valid steps and finishes
/// tasks; bad values are refused.
#[test]
fn traffic_prices_every_planner_that_takes_it_and_bad_values_are_refused() {
    refuses(
        "2023/MR23-I-04.json",
        "--traffic",
        &["on", "8", "8,-1", "8,8,0"],
    );
    for planner in ["window", "operations", "committed", "epibt"] {
        // The window's A* expansions, Enhanced PIBT's choices; the others take none.
        let work = if planner == "epibt" { "2000" } else { "200000" };
        let flags = [
            "--steps",
            "150",
            "--planner",
            planner,
            "--traffic",
            "8,8,10,5",
            "--lns-work",
            work,
        ];
        let tag = format!("traffic-{planner}");
        let (line, _) = play_and_check(&lorr_data("2024/RANDOM-01.json"), &flags, &tag);
        assert_eq!(field(&line, "errors"), 0.0, "{tag}: {line}");
        assert!(field(&line, "tasks finished") > 0.0, "{tag}: {line}");
    }
}

/// I-08's first 150 steps (800 robots on random-32-32-20, 0.98 robots a free cell; its tasks
/// file cut to the first 4,000), every step valid by the validator: `auto` takes Enhanced
/// PIBT there and finishes more than committed steps (687 against 236 when measured), which
/// finish over five times what the same rotation step replanned every timestep does (14; the
/// competition's best known finished 6,059 in 2,000 steps). Committed steps name their
/// decisions in the summary.
#[test]
fn the_densest_crowd_moves_under_enhanced_pibt_and_committed_steps() {
    let problem = lorr_data("2023/MR23-I-08.json");
    let steps = ["--steps", "150"];
    let (auto, _) = play_and_check(&problem, &steps, "i08-auto");
    let planner = |name| [&steps[..], &["--planner", name]].concat();
    let (committed, _) = play_and_check(&problem, &planner("committed"), "i08-committed");
    let (replanned, _) = play_and_check(&problem, &planner("rotation"), "i08-rotation");
    for line in [&auto, &committed, &replanned] {
        assert_eq!(field(line, "errors"), 0.0, "{line}");
    }
    let finished = |line: &str| field(line, "tasks finished");
    let (a, c, r) = (finished(&auto), finished(&committed), finished(&replanned));
    assert!(a > 1.5 * c, "auto {a}, committed {c}");
    assert!(c > 5.0 * r.max(1.0), "committed {c}, replanned {r}");
    let out = run(&[
        "lifelong",
        problem.to_str().unwrap(),
        "--steps",
        "30",
        "--planner",
        "committed",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("committed: next cells decided on"), "{err}");
}

/// The window planner (a PIBT rollout over 10 timesteps refined by LNS) against the rollout's
/// planner alone, PIBT over 3-step operations, on I-04's first 150 steps: both valid by the
/// validator, the window ahead. With a bound on its work and a time limit it never meets, the
/// window planner is deterministic: a second run prints the same line.
#[test]
fn the_window_planner_finishes_more_than_pibt_over_operations() {
    let i04 = lorr_data("2023/MR23-I-04.json");
    let window = [
        "--steps",
        "150",
        "--planner",
        "window",
        "--lns-work",
        "300000",
        "--step-time-limit",
        "20",
    ];
    let (w, _) = play_and_check(&i04, &window, "i04-window");
    let (o, _) = play_and_check(
        &i04,
        &["--steps", "150", "--planner", "operations"],
        "i04-operations",
    );
    assert_eq!(field(&w, "errors"), 0.0, "{w}");
    let (fw, fo) = (field(&w, "tasks finished"), field(&o, "tasks finished"));
    assert!(fw > fo, "window {fw}, operations {fo}");
    let (again, _) = play_and_check(&i04, &window, "i04-window-again");
    assert_eq!(
        field(&again, "tasks finished"),
        fw,
        "deterministic:\n{w}\n{again}"
    );
}

/// 2024's matching scheduler against the start-kit's greedy on RANDOM-01 (100 robots, tasks of
/// four errands), the same planner under both: no schedule refused (0 errors), the file valid
/// by the validator, and more tasks finished.
#[test]
fn the_matching_scheduler_finishes_more_than_the_greedy() {
    let r01 = lorr_data("2024/RANDOM-01.json");
    let run_with = |scheduler: &str| {
        let flags = [
            "--steps",
            "250",
            "--planner",
            "operations",
            "--scheduler",
            scheduler,
        ];
        let (line, r) = play_and_check(&r01, &flags, &format!("r01-{scheduler}"));
        assert_eq!(field(&line, "errors"), 0.0, "{line}");
        assert_eq!(r["numScheduleErrors"], 0, "{line}");
        field(&line, "tasks finished")
    };
    let (matching, greedy) = (run_with("matching"), run_with("greedy"));
    assert!(matching > greedy, "matching {matching}, greedy {greedy}");
}

/// In a dense 2024 crowd (RANDOM-01's tasks, 600 robots on random-32-32-20: 0.73 a free
/// cell) `--approach auto` counts each move to a task's first errand five times: it plays
/// exactly as `--approach 5` and not as `--approach 1`, every file valid. Bad weights are
/// refused. Its operations span 4 steps there (`--depth auto`).
#[test]
fn a_dense_crowd_weighs_the_way_to_a_first_errand() {
    refuses("2024/RANDOM-01.json", "--approach", &["0", "101", "far"]);
    let p = crowded_from("2024/RANDOM-01.json", 600);
    let play = |approach: &str| {
        let flags = ["--steps", "60", "--approach", approach];
        let (line, r) = play_and_check(&p, &flags, &format!("dense-approach-{approach}"));
        assert_eq!(field(&line, "errors"), 0.0, "{line}");
        r["actualSchedule"].clone()
    };
    let auto = play("auto");
    assert_eq!(auto, play("5"));
    assert_ne!(auto, play("1"));
    // Denser, operations span 4 steps, not 5.
    let flags = ["--steps", "60", "--depth", "4"];
    let (_, four) = play_and_check(&p, &flags, "dense-depth-4");
    assert_eq!(auto, four["actualSchedule"]);
}

/// I-04's problem with `robots` robots on random-32-32-20 (see [`crowded_from`]).
fn crowded(robots: usize) -> PathBuf {
    crowded_from("2023/MR23-I-04.json", robots)
}

/// The problem `base` (in `tests/data/lorr`) with `robots` robots, its starts spread over
/// the free cells by a fixed stride, in a folder of its own.
fn crowded_from(base: &str, robots: usize) -> PathBuf {
    let edition = &base[..4];
    let dir = temp_dir(&format!("crowded-{edition}-{robots}"));
    let mut problem: Value =
        serde_json::from_str(&std::fs::read_to_string(lorr_data(base)).unwrap()).unwrap();
    for key in ["mapFile", "taskFile"] {
        let sub = problem[key].as_str().unwrap();
        std::fs::create_dir_all(dir.join(sub).parent().unwrap()).unwrap();
        std::fs::copy(lorr_data(&format!("{edition}/{sub}")), dir.join(sub)).unwrap();
    }
    let map = std::fs::read_to_string(dir.join(problem["mapFile"].as_str().unwrap())).unwrap();
    let rows: Vec<&str> = map.lines().skip(4).collect();
    let free: Vec<usize> = (0..32 * 32)
        .filter(|&c| rows[c / 32].as_bytes()[c % 32] == b'.')
        .collect();
    // A stride coprime with the free cells' count spreads the starts.
    let stride = (1..)
        .map(|k| 37 + k)
        .find(|s| !free.len().is_multiple_of(*s))
        .unwrap();
    let starts: Vec<String> = (0..robots)
        .map(|i| free[(i * stride) % free.len()].to_string())
        .collect();
    let mut unique = starts.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), robots);
    std::fs::create_dir_all(dir.join("agents")).unwrap();
    std::fs::write(
        dir.join("agents/crowd.agents"),
        format!("{robots}\n{}\n", starts.join("\n")),
    )
    .unwrap();
    problem["agentFile"] = "agents/crowd.agents".into();
    problem["teamSize"] = robots.into();
    let p = dir.join("problem.json");
    std::fs::write(&p, serde_json::to_string_pretty(&problem).unwrap()).unwrap();
    p
}

/// Traffic rules (rows and columns one-way in preference) on random-32-32-20 with 400 robots,
/// 0.49 a free cell: PIBT over operations guided by them finishes more tasks in 150 steps
/// than on the exact tables, every step valid.
#[test]
fn one_way_streets_ease_a_crowded_map() {
    let p = crowded(400);
    let run_with = |highways: &str| {
        let flags = [
            "--steps",
            "150",
            "--planner",
            "operations",
            "--highways",
            highways,
            "--traffic",
            "off",
        ];
        let (line, _) = play_and_check(&p, &flags, &format!("crowd-highways-{highways}"));
        assert_eq!(field(&line, "errors"), 0.0, "{line}");
        field(&line, "tasks finished")
    };
    let (with, without) = (run_with("8"), run_with("0"));
    assert!(with > without, "with highways {with}, without {without}");
}

/// Tasks finished on `problem` with `flags`, summed over seeds 0 and 1, every step valid.
fn tasks_over_two_seeds(problem: &Path, flags: &[&str], tag: &str) -> f64 {
    ["0", "1"]
        .into_iter()
        .map(|seed| {
            let flags = [flags, &["--seed", seed]].concat();
            let (line, _) = play_and_check(problem, &flags, &format!("crowd-{tag}-{seed}"));
            assert_eq!(field(&line, "errors"), 0.0, "{tag}, seed {seed}: {line}");
            field(&line, "tasks finished")
        })
        .sum()
}

/// A ring road on the same crowded map: the window planner, with little refining, finishes
/// more tasks in 300 steps with moves near the edge made cheaper than without, summed over
/// two seeds, every step valid; bad values are refused.
#[test]
fn a_ring_road_eases_a_crowded_map() {
    refuses(
        "2023/MR23-I-04.json",
        "--rim",
        &["on", "9", "11,8", "9,0", "9,x"],
    );
    let p = crowded(400);
    let plan = [
        "--steps",
        "300",
        "--planner",
        "window",
        "--lns-work",
        "200000",
    ];
    let with = tasks_over_two_seeds(&p, &[&plan[..], &["--rim", "9,8"]].concat(), "rim-on");
    let without = tasks_over_two_seeds(&p, &[&plan[..], &["--rim", "off"]].concat(), "rim-off");
    eprintln!("with a ring road {with}, without {without}");
    assert!(with > without, "with a ring road {with}, without {without}");
}

/// On the same crowded map (0.49 robots a free cell) `auto` takes Enhanced PIBT, guided by
/// traffic rules of 16 and by the traffic it sees (weighed 32 here, below 0.6 robots a free
/// cell), its refining weighing robots nearly alike (power 0.5, not squares), with 20,000
/// choices a step over operations of 5 steps, not 3: on I-05 it finished 7,737 tasks against
/// 7,223 over 3 steps and the window's 6,010 (docs/benchmarks.md, "Operations of 4 and 5
/// steps"). Bad depths are refused.
#[test]
fn auto_takes_enhanced_pibt_with_traffic_on_a_crowded_small_map() {
    let p = crowded(400);
    let steps = ["--steps", "60"];
    let (_, auto) = play_and_check(&p, &steps, "crowded-auto");
    let flags = [
        "--planner",
        "epibt",
        "--highways",
        "16",
        "--traffic",
        "32,32,25,100",
        "--lns-work",
        "20000",
        "--power",
        "0.5",
        "--depth",
        "5",
    ];
    let chosen = [&steps[..], &flags].concat();
    let (_, chosen) = play_and_check(&p, &chosen, "crowded-epibt");
    assert_eq!(auto["actualPaths"], chosen["actualPaths"]);
    let plain = [
        &steps[..],
        &flags[..4],
        &["--traffic", "off", "--lns-work", "20000"],
    ]
    .concat();
    let (_, plain) = play_and_check(&p, &plain, "crowded-epibt-plain");
    assert_ne!(auto["actualPaths"], plain["actualPaths"]);
    let squares = [&steps[..], &flags[..8], &["--power", "2"]].concat();
    let (_, squares) = play_and_check(&p, &squares, "crowded-epibt-squares");
    assert_ne!(auto["actualPaths"], squares["actualPaths"]);
    let shallow = [&steps[..], &flags[..10], &["--depth", "3"]].concat();
    let (_, shallow) = play_and_check(&p, &shallow, "crowded-epibt-depth-3");
    assert_ne!(auto["actualPaths"], shallow["actualPaths"]);
    refuses("2023/MR23-I-04.json", "--depth", &["2", "6", "deep"]);
}

/// Traffic learnt from the robots' moves on the same crowded map: PIBT over operations on
/// traffic rules finishes more tasks in 300 steps with it than without, summed over two seeds,
/// every step valid.
#[test]
fn traffic_learnt_from_the_moves_eases_a_crowded_map() {
    let p = crowded(400);
    let plan = ["--steps", "300", "--planner", "operations"];
    let with = tasks_over_two_seeds(
        &p,
        &[&plan[..], &["--traffic", "8,8"]].concat(),
        "traffic-on",
    );
    let without = tasks_over_two_seeds(
        &p,
        &[&plan[..], &["--traffic", "off"]].concat(),
        "traffic-off",
    );
    eprintln!("with traffic {with}, without {without}");
    assert!(with > without, "with traffic {with}, without {without}");
}

/// An open map larger than `auto`'s small ones: 72 × 64 cells with a pillar every sixth cell
/// each way (0.83 of the free cells open ground; Paris 0.86), `robots` robots spread over it
/// by a fixed stride, and 2023 round-robin tasks drawn uniformly from the free cells.
fn open_ground(robots: usize) -> PathBuf {
    let (w, h) = (72usize, 64usize);
    let dir = temp_dir(&format!("open-{robots}"));
    let wall = |c: usize| (c % w) % 6 == 3 && (c / w) % 6 == 3;
    let rows = map_rows((w, h), wall);
    let free: Vec<usize> = (0..w * h).filter(|&c| !wall(c)).collect();
    let starts: Vec<String> = (0..robots)
        .map(|i| free[(i * 97) % free.len()].to_string())
        .collect();
    let mut unique = starts.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), robots, "97 is coprime with {}", free.len());
    // A linear congruential generator: the same tasks on every run.
    let mut x: u64 = 12_345;
    let tasks: Vec<String> = (0..5_000)
        .map(|_| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            free[(x >> 33) as usize % free.len()].to_string()
        })
        .collect();
    let tasks = format!("{}\n{}\n", tasks.len(), tasks.join("\n"));
    let agents = format!("{robots}\n{}\n", starts.join("\n"));
    let keys = format!(
        r#""teamSize": {robots}, "numTasksReveal": 1, "taskAssignmentStrategy": "roundrobin""#
    );
    write_problem(&dir, (w, &rows), agents, tasks, &keys)
}

/// A map's rows, `w` × `h` cells, walls (`@`) where `wall` says by cell index.
fn map_rows((w, h): (usize, usize), wall: impl Fn(usize) -> bool) -> Vec<String> {
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| if wall(y * w + x) { '@' } else { '.' })
                .collect()
        })
        .collect()
}

/// Writes a problem into `dir`: the map of width `w` and `rows`, the agents' and tasks' files
/// as given, and `problem.json` naming them, with `keys` (the team size, the tasks' reveal,
/// the edition) beside; returns the problem's path.
fn write_problem(
    dir: &Path,
    (w, rows): (usize, &[String]),
    agents: String,
    tasks: String,
    keys: &str,
) -> PathBuf {
    let map = format!(
        "type octile\nheight {}\nwidth {w}\nmap\n{}\n",
        rows.len(),
        rows.join("\n")
    );
    for (sub, text) in [
        ("maps/m.map", map),
        ("agents/m.agents", agents),
        ("tasks/m.tasks", tasks),
    ] {
        std::fs::create_dir_all(dir.join(sub).parent().unwrap()).unwrap();
        std::fs::write(dir.join(sub), text).unwrap();
    }
    let problem = format!(
        r#"{{"mapFile": "maps/m.map", "agentFile": "agents/m.agents", "taskFile": "tasks/m.tasks",
{keys}}}"#
    );
    let p = dir.join("problem.json");
    std::fs::write(&p, problem).unwrap();
    p
}

/// On open ground beyond the small maps, below 0.1 robots a free cell, `auto` plans a refined
/// window with every robot at work: in 200 steps it finishes more than what it took there
/// before, PIBT over operations with 0.05 robots a free cell working (224 of 300; on Paris
/// with 3,000 robots, 48,534 tasks against 34,017 over the full run), every step valid.
#[test]
fn auto_plans_a_window_on_open_ground() {
    refuses("2023/MR23-I-04.json", "--lns-work", &["lots", "-1", ""]);
    let p = open_ground(300);
    let steps = ["--steps", "200"];
    let (auto, _) = play_and_check(&p, &steps, "open-auto");
    let before = [&steps[..], &["--planner", "operations", "--active", "224"]].concat();
    let (operations, _) = play_and_check(&p, &before, "open-operations");
    assert_eq!(field(&auto, "errors"), 0.0, "{auto}");
    let (fa, fo) = (
        field(&auto, "tasks finished"),
        field(&operations, "tasks finished"),
    );
    eprintln!("auto {fa}, operations with parked robots {fo}");
    assert!(fa > fo, "auto {fa}, operations with parked robots {fo}");
}

/// On open ground `auto` sets its traffic rules by the crowd: below 0.05 robots a free cell
/// light ones (a move against the way costs one move more, `--highways 2`), from there to 0.1,
/// where every robot works, strong ones (`--highways 16`), not the 8 it takes elsewhere. On
/// Paris with 1,500 robots the light rules finished 10,349 tasks against 10,293, with 3,000
/// the strong ones 48,842 and 48,883 (two seeds) against 48,534 and 45,931
/// (docs/benchmarks.md, "Lighter rules on a sparse Paris" and "Stronger rules on a crowded
/// Paris").
#[test]
fn auto_sets_traffic_rules_by_the_crowd_on_open_ground() {
    let steps = ["--steps", "60"];
    for (robots, rules) in [(140, "2"), (300, "16")] {
        let p = open_ground(robots);
        let (_, auto) = play_and_check(&p, &steps, &format!("rules-auto-{robots}"));
        let chosen = [&steps[..], &["--highways", rules]].concat();
        let (_, chosen) = play_and_check(&p, &chosen, &format!("rules-{rules}-{robots}"));
        let plain = [&steps[..], &["--highways", "8"]].concat();
        let (_, plain) = play_and_check(&p, &plain, &format!("rules-8-{robots}"));
        assert_eq!(
            auto["actualPaths"], chosen["actualPaths"],
            "{robots} robots"
        );
        assert_ne!(auto["actualPaths"], plain["actualPaths"], "{robots} robots");
    }
}

/// A 2024 problem on two 20 × 20 rooms joined by a corridor 3 wide and 20 long: 10 robots on
/// the corridor's middle row (open ground, so they may park), 90 in the rooms, and tasks of
/// two errands drawn from the free cells.
fn two_rooms() -> (PathBuf, Vec<usize>) {
    let (w, h) = (60usize, 20usize);
    let dir = temp_dir("two-rooms");
    let wall = |c: usize| (20..40).contains(&(c % w)) && !(8..11).contains(&(c / w));
    let rows = map_rows((w, h), wall);
    let corridor: Vec<usize> = (25..35).map(|x| 9 * w + x).collect();
    let rooms: Vec<usize> = (0..w * h)
        .filter(|&c| !wall(c) && !(20..40).contains(&(c % w)))
        .collect();
    let starts: Vec<usize> = (corridor.iter().copied())
        .chain((0..90).map(|i| rooms[(i * 7) % rooms.len()]))
        .collect();
    let free: Vec<usize> = (0..w * h).filter(|&c| !wall(c)).collect();
    let mut x: u64 = 777;
    let mut draw = || {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        free[(x >> 33) as usize % free.len()]
    };
    let tasks: Vec<String> = (0..600).map(|_| format!("{},{}", draw(), draw())).collect();
    let list = |v: Vec<String>| format!("# version for LoRR 2024\n{}\n{}\n", v.len(), v.join("\n"));
    let agents = list(starts.iter().map(|c| c.to_string()).collect());
    let keys = r#""teamSize": 100, "numTasksReveal": 1.5, "version": "2024 LoRR""#;
    let p = write_problem(&dir, (w, &rows), agents, list(tasks), keys);
    (p, (0..corridor.len()).collect())
}

/// `--park off-trunk` (`auto` beyond the small maps) lets the robots in the corridor every
/// robot crosses work, where `--park open` parks some of them; both play valid steps, and
/// bad values are refused. On brc202d parked robots in its corridors jammed 3,000 working
/// ones (docs/benchmarks.md, "Parked robots off the trunk").
#[test]
fn parked_robots_stay_off_the_trunk() {
    refuses("2024/RANDOM-01.json", "--park", &["anywhere", "", "on"]);
    let (p, in_corridor) = two_rooms();
    let parked_in_corridor = |park: &str| {
        let flags = [
            "--steps",
            "5",
            "--planner",
            "operations",
            "--active",
            "30",
            "--park",
            park,
        ];
        let (line, r) = play_and_check(&p, &flags, &format!("rooms-{park}"));
        assert_eq!(field(&line, "errors"), 0.0, "{park}: {line}");
        let schedules = r["actualSchedule"].as_array().unwrap();
        let idle = |a: &usize| schedules[*a].as_str().unwrap().is_empty();
        assert!(schedules.iter().filter(|s| s.as_str() != Some("")).count() >= 30);
        in_corridor.iter().filter(|a| idle(a)).count()
    };
    assert_eq!(parked_in_corridor("off-trunk"), 0);
    let open = parked_in_corridor("open");
    assert!(open > 0, "{open} robots parked in the corridor");
}
