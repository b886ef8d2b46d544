//! `gridwalk-cli mapf`: the summary line, the result file (checked by the core's independent
//! validator), the exit codes, and bad input named by file and line.

#[path = "../../../gridwalk-core/tests/it/mapf/validate.rs"]
pub mod validate;

use std::path::PathBuf;
use std::process::Output;

use gridwalk_core::Connectivity;
use gridwalk_core::format::movingai::{load_map, load_scen};

use crate::run_cli as run;

/// A copy of the MAPF benchmark's file `name`, in the core's test data.
pub fn data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../gridwalk-core/tests/data/mapf")
        .join(name);
    p.to_str().unwrap().to_owned()
}

/// A file of this test run's own, with `text`.
fn temp(name: &str, text: &str) -> PathBuf {
    crate::temp_file("gridwalk-mapf-test", name, text)
}

/// Runs `mapf` (to the first solution with `first`, else for half a second) and checks the
/// result file with the validator and the last line against it.
fn solve_and_check(agents: usize, moves: &str, first: bool) {
    let (map, scen) = (
        data("random-32-32-20.map"),
        data("random-32-32-20-gen-1.scen"),
    );
    let out_file = temp(&format!("r{agents}-{moves}-{first}.txt"), "");
    let n = agents.to_string();
    let mut args = vec![
        "mapf",
        &map,
        &scen,
        "--agents",
        &n,
        "--moves",
        moves,
        "--out",
        out_file.to_str().unwrap(),
    ];
    args.extend(if first {
        ["--first"].as_slice()
    } else {
        ["--time-limit", "0.5"].as_slice()
    });
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&out_file).unwrap();
    let grid = load_map(std::path::Path::new(&map)).unwrap();
    let problems = load_scen(std::path::Path::new(&scen)).unwrap();
    let starts: Vec<_> = problems[..agents].iter().map(|p| p.start).collect();
    let goals: Vec<_> = problems[..agents].iter().map(|p| p.goal).collect();
    let conn = if moves == "8" {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    let r = validate::check_result(&text, &grid, conn, &starts, &goals);
    assert_eq!(r.keys["map_file"], "random-32-32-20.map");
    assert_eq!(r.num("solved"), 1);
    let want = format!(
        "mapf: agents {agents}, solved yes, soc {} (lb {}), makespan {} (lb {}), millis {}",
        r.num("soc"),
        r.num("soc_lb"),
        r.num("makespan"),
        r.num("makespan_lb"),
        r.num("comp_time")
    );
    assert_eq!(stdout.lines().last().unwrap(), want);
    // An anytime run's soc over time falls and ends at the plan's soc.
    let history = r.keys.get("soc_over_time");
    assert_eq!(history.is_some(), !first);
    if let Some(history) = history {
        let socs: Vec<u64> = history
            .split("),")
            .filter(|p| !p.is_empty())
            .map(|p| p.rsplit(',').next().unwrap().parse().unwrap())
            .collect();
        assert!(socs.windows(2).all(|w| w[1] < w[0]), "{history}");
        assert_eq!(socs.last(), Some(&r.num("soc")));
        assert_eq!(socs.first(), Some(&r.num("cost_initial_solution")));
    }
}

#[test]
fn solves_random_32_with_four_and_eight_moves() {
    solve_and_check(100, "4", true);
    solve_and_check(100, "8", true);
    solve_and_check(100, "4", false);
}

#[test]
fn unsolved_exits_1_and_writes_solved_0() {
    let (map, scen) = (
        data("random-32-32-20.map"),
        data("random-32-32-20-gen-1.scen"),
    );
    let out_file = temp("unsolved.txt", "");
    // Agent 0 needs 30 moves or more: no plan within one timestep, and the search proves it.
    let out = run(&[
        "mapf",
        &map,
        &scen,
        "--agents",
        "1",
        "--max-ticks",
        "1",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("mapf: agents 1, solved no, soc 0 (lb ")
    );
    let r = validate::parse(&std::fs::read_to_string(&out_file).unwrap());
    assert_eq!(r.num("solved"), 0);
    assert!(r.plan.is_empty());
}

#[test]
fn bad_input_is_named_and_exits_2() {
    let (map, scen) = (
        data("random-32-32-20.map"),
        data("random-32-32-20-gen-1.scen"),
    );
    let err = |out: &Output| {
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = err(&run(&["mapf", &map, &scen, "--agents", "820"]));
    assert!(
        e.contains("820 agents asked, but the file has 819 problems"),
        "{e}"
    );
    let e = err(&run(&["mapf", &map, &scen, "--agents", "0"]));
    assert!(e.contains("0 agents asked"), "{e}");
    let bad_map = temp("bad.map", "type octile\nheight 2\nwidth 2\nmap\n..\n.x\n");
    let e = err(&run(&[
        "mapf",
        bad_map.to_str().unwrap(),
        &scen,
        "--agents",
        "1",
    ]));
    assert!(
        e.contains("bad.map:6: column 2: unknown map character 'x'"),
        "{e}"
    );
    // Two agents sharing a start: the second row is named.
    let two = "version 1\n0\tm\t32\t32\t0\t0\t1\t0\t1\n0\tm\t32\t32\t0\t0\t2\t0\t2\n";
    let shared = temp("shared.scen", two);
    let e = err(&run(&[
        "mapf",
        &map,
        shared.to_str().unwrap(),
        "--agents",
        "2",
    ]));
    assert!(
        e.contains("shared.scen:3: start (0, 0) is also agent 0's start"),
        "{e}"
    );
    let e = err(&run(&[
        "mapf", &map, &scen, "--agents", "2", "--moves", "6",
    ]));
    assert!(e.contains("is not 4 or 8"), "{e}");
    let e = err(&run(&[
        "mapf",
        &map,
        &scen,
        "--agents",
        "2",
        "--time-limit",
        "0",
    ]));
    assert!(e.contains("is not a number of seconds"), "{e}");
}
