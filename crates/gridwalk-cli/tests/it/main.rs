//! The CLI's integration tests, linked as one test binary: the command line's contract
//! (`cli`), the budgets' flags and the `planning` status (`budget`), every Moving AI reference
//! length solved as `gridwalk-cli movingai` does (`movingai`), the GPPC instance run by
//! `gridwalk-cli gppc` (`gppc`), MPGAA*'s living worlds (`mpgaa`), and the MAPF benchmark
//! solved by `gridwalk-cli mapf` (`mapf`).

/// The core's test helpers: the independent reference costs and the example scenario.
#[path = "../../../gridwalk-core/tests/it/common.rs"]
#[macro_use]
mod common;

mod budget;
mod cli;
mod docs;
mod gppc;
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
