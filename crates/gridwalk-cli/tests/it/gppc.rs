//! `gridwalk-cli gppc`: the repository's GPPC instance passes with every algorithm, bad
//! `.scen` and `.patch` files exit 2 with `file:line`, and a wrong length exits 1.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    PathBuf::from(crate::GPPC).join(name)
}

fn gppc(scen: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gridwalk-cli"))
        .arg("gppc")
        .arg(scen)
        .args(extra)
        .output()
        .unwrap()
}

/// A folder of its own for `test`, holding `files`.
fn folder(test: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gridwalk-gppc-{test}"));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

const PATCHES: &str = "type patch\npatches 2\npatch 0\nheight 3\nwidth 4\nmap\n....\n....\n....\npatch 1\nheight 2\nwidth 1\nmap\n@\n@\n";
const HEAD: &str = "version 2\nheight 3\nwidth 4\ncost 1 octile\npatch p.patch\ncommands\n";

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The instance with `algo`: exit 0 and the summary line with no mismatch.
fn passes(algo: &str) {
    let out = gppc(&data("aurora_part.scen"), &["--algo", algo]);
    let text = stdout(&out);
    assert!(out.status.success(), "{algo}: {text}{}", stderr(&out));
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("queries: 432, mismatches: 0, patches: 1040, max_error: "),
        "{algo}: {last}"
    );
    assert!(last.contains(", millis: "), "{last}");
    assert_eq!(text.lines().count(), 1, "{algo}: {text}");
}

// The core's tests run the instance with every algorithm through the same runner; here the
// command is checked with one search from scratch and one incremental planner.
tests_of!(
    passes;
    instance_passes_with_astar: "astar",
    instance_passes_with_dstar_lite: "dstar-lite",
);

#[test]
fn a_wrong_length_exits_1_and_is_printed() {
    let scen = format!("{HEAD}P 0 0 0 0\nQ 0 0 0 3 0 3\nP 0 1 1 0\nQ 0 0 0 3 0 3\n");
    let dir = folder("wrong", &[("t.scen", &scen), ("p.patch", PATCHES)]);
    let out = gppc(&dir.join("t.scen"), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    // Walls at (1, 0) and (1, 1): the way round by the bottom row is 5 + √2.
    assert!(
        lines[0].starts_with("mismatch ")
            && lines[0].contains("t.scen:10: from (0, 0) to (3, 0): expected 3, found 6.41421356"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("queries: 2, mismatches: 1, patches: 2, max_error: 3.414e0, millis: "),
        "{}",
        lines[1]
    );
}

#[test]
fn bad_scen_and_patch_files_exit_2_with_file_and_line() {
    let cases = [
        // An unknown patch number, named on its line of the .scen.
        (
            "unknown",
            format!("{HEAD}P 0 2 0 0\n"),
            PATCHES.to_string(),
            "t.scen:7: patch 2 does not exist",
        ),
        // A query off the map.
        (
            "off",
            format!("{HEAD}P 0 0 0 0\nQ 0 0 0 4 0 4\n"),
            PATCHES.to_string(),
            "t.scen:8: gx \"4\" is not a whole number from 0 to 3",
        ),
        // A bad character in a patch.
        (
            "char",
            format!("{HEAD}P 0 0 0 0\n"),
            PATCHES.replace("....\npatch 1", "..x.\npatch 1"),
            "p.patch:9: row y = 2: column 3: 'x' is not a map character",
        ),
        // A truncated patch file.
        (
            "cut",
            format!("{HEAD}P 0 0 0 0\n"),
            PATCHES[..PATCHES.len() - 2].to_string(),
            "p.patch:14: the file ends after 1 of 2 rows",
        ),
        // No map, and a first patch that does not cover it.
        (
            "nomap",
            format!("{HEAD}P 0 1 0 0\n"),
            PATCHES.to_string(),
            "t.scen:7: no map was given",
        ),
    ];
    for (name, scen, patches, want) in cases {
        let dir = folder(name, &[("t.scen", &scen), ("p.patch", &patches)]);
        let out = gppc(&dir.join("t.scen"), &[]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(want), "{name}: {err}\nwant: {want}");
        assert!(stdout(&out).is_empty(), "{name}");
    }
    // The missing map's error says how to give one; with --map the map counts: its wall at
    // (2, 2) and the patch's at (1, 0) and (1, 1) leave no way from (0, 0) to (3, 0).
    let dir = folder(
        "map",
        &[
            ("t.scen", &format!("{HEAD}P 0 1 1 0\nQ 0 0 0 3 0 -1\n")),
            ("p.patch", PATCHES),
            (
                "m.map",
                "type octile\nheight 3\nwidth 4\nmap\n....\n....\n..@.\n",
            ),
        ],
    );
    let out = gppc(&dir.join("t.scen"), &[]);
    assert!(stderr(&out).contains("--map"), "{}", stderr(&out));
    let out = gppc(
        &dir.join("t.scen"),
        &["--map", dir.join("m.map").to_str().unwrap()],
    );
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
}
