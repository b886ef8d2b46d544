//! The CLI's integration tests, linked as one test binary: the command line's contract
//! (`cli`), the budgets' flags and the `planning` status (`budget`), every Moving AI reference
//! length solved as `gridwalk-cli movingai` does (`movingai`), a dense crowd that arrives
//! through `simulate --crowd` (`crowd_arrives`), the GPPC instance run by
//! `gridwalk-cli gppc` (`gppc`), MPGAA*'s living worlds (`mpgaa`), the MAPF benchmark
//! solved by `gridwalk-cli mapf` (`mapf`), and League of Robot Runners problems played by
//! `gridwalk-cli lifelong` (`lifelong`), checked by an independent validator (`lorr_validator`).

/// The core's test helpers: the independent reference costs and the example scenario.
#[path = "../../../gridwalk-core/tests/it/common.rs"]
#[macro_use]
mod common;

mod budget;
mod cli;
mod crowd_arrives;
mod docs;
mod gppc;
mod greedy;
mod lifelong;
mod lorr_validator;
mod mapf;
mod movingai;
mod mpgaa;
mod navigate;

/// The JSON lines a successful run printed; panics with its stderr when it failed.
fn json_lines(out: &std::process::Output) -> Vec<serde_json::Value> {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect()
}

/// The repository's copies of the Moving AI benchmark files (see their README).
const MOVINGAI: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../gridwalk-core/tests/data/movingai"
);

/// The repository's copy of a GPPC dynamic-track instance (see its README).
const GPPC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../gridwalk-core/tests/data/gppc"
);

/// A file of this test run's own, `name` in `folder` under `CARGO_TARGET_TMPDIR`, holding `text`.
pub fn temp_file(folder: &str, name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs `gridwalk-cli` with `args` and waits for it.
pub fn run_cli(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gridwalk-cli"))
        .args(args)
        .output()
        .unwrap()
}
