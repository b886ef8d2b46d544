//! The independent LoRR validator (`replay`) on the competition's best-known result files,
//! which it must recount to their published figures, and on planted faults, which it must
//! find.

pub mod replay;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use replay::{Problem, load_problem, replay as check};

/// The repository's copies of LoRR instances and best-known results (see their README).
pub fn lorr_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/lorr")
        .join(name)
}

/// The one file of a zip archive, inflated (stored or deflated, as zip tools write them).
pub fn unzip_one(path: &Path) -> Vec<u8> {
    let z = std::fs::read(path).unwrap();
    let u16_at = |i: usize| u16::from_le_bytes([z[i], z[i + 1]]) as usize;
    let u32_at = |i: usize| u32::from_le_bytes(z[i..i + 4].try_into().unwrap()) as usize;
    // The end-of-central-directory record, then the first central entry.
    let eocd = (0..z.len() - 21)
        .rev()
        .find(|&i| u32_at(i) == 0x0605_4b50)
        .expect("a zip");
    let entry = u32_at(eocd + 16);
    assert_eq!(u32_at(entry), 0x0201_4b50, "a central directory entry");
    let (method, size, local) = (u16_at(entry + 10), u32_at(entry + 20), u32_at(entry + 42));
    let data = local + 30 + u16_at(local + 26) + u16_at(local + 28);
    let raw = &z[data..data + size];
    match method {
        0 => raw.to_vec(),
        8 => miniz_oxide::inflate::decompress_to_vec(raw).expect("deflate data"),
        m => panic!("zip method {m}"),
    }
}

/// A best-known result file, parsed.
fn best(name: &str) -> Value {
    serde_json::from_slice(&unzip_one(&lorr_data(&format!("best/{name}.json.zip")))).unwrap()
}

/// The published figures (the competition's leaderboard, as docs/benchmarks.md gives them).
#[test]
fn best_known_results_recount_to_the_leaderboard() {
    for (problem, result, steps, figure) in [
        ("2023/MR23-I-03.json", "MR23-I-03", 500, 3042),
        ("2023/MR23-I-04.json", "MR23-I-04", 500, 1741),
        ("2024/RANDOM-02.json", "MR24-RANDOM-02", 600, 1260),
    ] {
        let p = load_problem(&lorr_data(problem));
        let r = best(result);
        let report = check(&p, &r).unwrap_or_else(|e| panic!("{result}: {e}"));
        assert_eq!(report.timesteps, steps, "{result}");
        assert_eq!(
            report.finished,
            Some(figure),
            "{result}: the replay's count"
        );
        assert_eq!(r["numTaskFinished"], figure, "{result}: the file's count");
    }
}

/// RANDOM-01's best-known file keeps only the summary, the starts and the executed paths (no
/// schedule): its every step is checked, but which robot did which task cannot be known, so
/// only the file's own figure is compared with the leaderboard.
#[test]
fn a_2024_file_without_its_schedule_is_checked_step_by_step() {
    let p = load_problem(&lorr_data("2024/RANDOM-01.json"));
    let r = best("MR24-RANDOM-01");
    let report = check(&p, &r).unwrap();
    assert_eq!((report.timesteps, report.finished), (600, None));
    assert_eq!(
        (r["numTaskFinished"].as_u64(), r["makespan"].as_u64()),
        (Some(696), Some(600))
    );
}

#[test]
fn a_wrong_count_is_found() {
    let p = load_problem(&lorr_data("2023/MR23-I-04.json"));
    let mut r = best("MR23-I-04");
    let report = check(&p, &r).unwrap();
    r["numTaskFinished"] = json!(1742);
    assert_ne!(report.finished, r["numTaskFinished"].as_u64());
}

/// A 4 × 3 map with a wall at (row 1, col 1), robots on the given cells, tasks far away.
fn tiny(starts: &[usize]) -> Problem {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("lorr-faults-{starts:?}"));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: String| std::fs::write(dir.join(name), text).unwrap();
    write(
        "m.map",
        "type octile\nheight 3\nwidth 4\nmap\n....\n.@..\n....\n".into(),
    );
    let agents: String = starts.iter().map(|s| format!("{s}\n")).collect();
    write("a.agents", format!("{}\n{agents}", starts.len()));
    write("t.tasks", "1\n11\n".into());
    let problem = json!({"mapFile": "m.map", "agentFile": "a.agents", "teamSize": starts.len(),
        "taskFile": "t.tasks", "numTasksReveal": 1, "taskAssignmentStrategy": "roundrobin"});
    write("p.json", problem.to_string());
    load_problem(&dir.join("p.json"))
}

/// A 2023 result for `p` with these executed paths (one letter a step, per robot).
fn result_of(p: &Problem, paths: &[&str]) -> Value {
    let start: Vec<Value> = p
        .starts
        .iter()
        .map(|&c| json!([c / p.width, c % p.width, "E"]))
        .collect();
    let paths: Vec<String> = paths
        .iter()
        .map(|s| s.chars().map(String::from).collect::<Vec<_>>().join(","))
        .collect();
    json!({"actionModel": "MAPF_T", "AllValid": "Yes", "teamSize": p.starts.len(), "start": start,
        "numTaskFinished": 0, "actualPaths": paths})
}

#[test]
fn planted_faults_are_found() {
    // Row 0 is cells 0–3; (1, 1) = cell 5 is a wall.
    let p = tiny(&[0, 2]);
    assert!(
        check(&p, &result_of(&p, &["FW", "WW"])).is_ok(),
        "a legal move"
    );
    assert!(
        check(&p, &result_of(&p, &["FF", "WW"]))
            .unwrap_err()
            .contains("vertex conflict"),
        "into a waiting robot"
    );
    // Robot 1 turns to face West (two turns), then both step toward each other.
    let e = check(&p, &result_of(&p, &["WWF", "RRF"])).unwrap_err();
    assert!(e.contains("vertex conflict"), "both into cell 1: {e}");
    let p = tiny(&[0, 1]);
    let e = check(&p, &result_of(&p, &["WWF", "RRF"])).unwrap_err();
    assert!(e.contains("edge conflict"), "a swap: {e}");
    assert!(
        check(&p, &result_of(&p, &["WF", "FW"])).is_ok(),
        "into a cell left before"
    );
    let p = tiny(&[4]);
    let e = check(&p, &result_of(&p, &["F"])).unwrap_err();
    assert!(e.contains("unallowed"), "into a wall: {e}");
    let p = tiny(&[3]);
    let e = check(&p, &result_of(&p, &["F"])).unwrap_err();
    assert!(e.contains("unallowed"), "East off the last column: {e}");
    let e = check(&p, &result_of(&p, &["CF"])).unwrap_err();
    assert!(e.contains("unallowed"), "North off the map: {e}");
    let p = tiny(&[0, 1]);
    assert!(check(&p, &result_of(&p, &["FF", "FF"])).is_ok(), "a train");
    let p = tiny(&[2, 1]);
    assert!(
        check(&p, &result_of(&p, &["X", "W"])).is_err(),
        "not an action"
    );
}
