//! `gridwalk-cli navigate`: Moving AI's arena in unknown terrain with every algorithm and
//! ranges 1 and 7 (every problem arrives, never below the file's optimal length), its JSON
//! lines and summary, its exit codes; and `simulate`'s `discovered` field.

use std::path::{Path, PathBuf};

use gridwalk_core::Algorithm;
use gridwalk_core::format::movingai::matches_printed;
use serde_json::Value;

use crate::json_lines;

use crate::run_cli as run;

fn arena(ext: &str) -> String {
    let p = PathBuf::from(crate::MOVINGAI).join(format!("arena.{ext}"));
    p.to_str().unwrap().to_owned()
}

/// A file of this test run's own, with `text`.
fn temp(name: &str, text: &str) -> PathBuf {
    crate::temp_file("gridwalk-nav-test", name, text)
}

fn navigate_arena(algorithm: Algorithm) {
    let algo = algorithm.cli_name();
    for range in ["1", "7"] {
        let (map, scen) = (arena("map"), arena("map.scen"));
        let out = run(&["navigate", &map, &scen, "--sensor", range, "--algo", algo]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{algo} {range}: {text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 161, "160 problems and the summary");
        let (mut searches, mut expanded) = (0, 0);
        for (i, line) in lines[..160].iter().enumerate() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["problem"], i);
            let (travelled, optimal) = (
                v["travelled"].as_f64().unwrap(),
                v["optimal"].as_f64().unwrap(),
            );
            // The file prints 6 significant digits.
            let above = travelled >= optimal || matches_printed(travelled, optimal);
            assert!(above, "{algo} {range} problem {i}: {line}");
            assert_eq!(v["arrived"], true);
            assert!(v["micros"].is_u64());
            searches += v["searches"].as_u64().unwrap();
            expanded += v["expanded"].as_u64().unwrap();
        }
        let want = format!(
            "problems: 160, arrived: 160, travelled: {{T}}, searches: {searches}, expanded: {expanded}, millis: "
        );
        let (head, _) = want.split_once("{T}").unwrap();
        assert!(lines[160].starts_with(head), "{}", lines[160]);
        assert!(lines[160].contains(&format!(
            ", searches: {searches}, expanded: {expanded}, millis: "
        )));
    }
}

tests_of!(navigate_arena;
    navigate_dstar_lite: Algorithm::DStarLite,
    navigate_dstar: Algorithm::DStar,
    navigate_astar: Algorithm::AStar,
    navigate_dijkstra: Algorithm::Dijkstra,
    navigate_mpgaa: Algorithm::Mpgaa,
);

#[track_caller]
fn refused(args: &[&str], words: &[&str]) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{w:?} missing from: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_exits_2_with_where_and_what() {
    let (map, scen) = (arena("map"), arena("map.scen"));
    for r in ["0", "65"] {
        refused(
            &["navigate", &map, &scen, "--sensor", r],
            &["--sensor", "not in 1-64"],
        );
    }
    refused(
        &["navigate", &map, "/no/such.scen", "--sensor", "2"],
        &["/no/such.scen"],
    );
    // (0, 0) of arena is a wall; x = 60 is off its 49 columns.
    for (name, problem, what) in [
        (
            "wall.scen",
            "0\t0\t1\t1\t1.41421356",
            "start (0, 0) is a wall",
        ),
        ("off.scen", "1\t1\t60\t1\t1", "goal (60, 1) is outside"),
    ] {
        let text = format!("version 1\n0\tarena.map\t49\t49\t{problem}\n");
        let path = temp(name, &text);
        let path = path.to_str().unwrap();
        let want = format!("{path}:2: {what}");
        refused(&["navigate", &map, path, "--sensor", "2"], &[&want]);
    }
}

#[test]
fn a_problem_that_cannot_arrive_exits_1() {
    // A goal walled in: the agent explores until it knows, then gives up.
    let map = temp(
        "box.map",
        "type octile\nheight 5\nwidth 7\nmap\n.......\n....@@@\n....@.@\n....@@@\n.......\n",
    );
    let scen = temp(
        "box.map.scen",
        "version 1\n0\tbox.map\t7\t5\t0\t2\t5\t2\t5\n",
    );
    let (map, scen) = (map.to_str().unwrap(), scen.to_str().unwrap());
    let out = run(&["navigate", map, scen, "--sensor", "1", "--limit", "5"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"arrived\":false"), "{text}");
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("problems: 1, arrived: 0, "),
        "{text}"
    );
}

/// `simulate` prints `discovered` with a sensor range, row by row, and nothing without.
#[test]
fn simulate_lists_what_each_tick_discovered() {
    let text = |range: &str| {
        format!(
            r#"(
    rows: ["......", "..#...", "...3..", "......"],
    agents: [(start: (0, 0), goal: (5, 3))],
    edits: [(tick: 2, set: Wall, cells: [(4, 3)])],
    {range}
)"#
        )
    };
    let lines =
        |path: &Path| -> Vec<Value> { json_lines(&run(&["simulate", path.to_str().unwrap()])) };
    let plain = lines(&temp("plain.ron", &text("")));
    assert!(plain.iter().all(|l| l.get("discovered").is_none()));
    let sensing = lines(&temp("sensing.ron", &text("sensor_range: 1,")));
    let first = &sensing[0]["discovered"];
    assert_eq!(
        first,
        &serde_json::json!([]),
        "nothing but plain ground near the start"
    );
    let all: Vec<&Value> = sensing
        .iter()
        .flat_map(|l| l["discovered"].as_array().unwrap())
        .collect();
    assert!(all.contains(&&serde_json::json!([2, 1, "wall"])), "{all:?}");
    assert!(all.contains(&&serde_json::json!([3, 2, 3])), "{all:?}");
    assert!(all.contains(&&serde_json::json!([4, 3, "wall"])), "{all:?}");
    let last = sensing.last().unwrap();
    assert_eq!(last["agents"][0]["status"], "arrived");
    let bad = temp("bad.ron", &text("sensor_range: 65,"));
    let out = run(&["simulate", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.ron:5: sensor_range: 65 is not in 1-64"),
        "{err}"
    );
}
