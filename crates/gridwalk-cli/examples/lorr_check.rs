//! Checks LoRR result files against the test suite's independent validator: each argument is
//! `PROBLEM.json=RESULT.json`; every step is replayed by LoRR's rules and the tasks recounted.
//!
//! ```text
//! cargo run --release -p gridwalk-cli --example lorr_check -- PROBLEM.json=RESULT.json ...
//! ```
//!
//! Prints one line a file; exits 1 if any file fails, 2 on a malformed argument.

use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;

#[allow(dead_code)]
#[path = "../tests/it/lorr_validator/replay.rs"]
mod replay;

/// Replays one result file against its problem: its tasks and timesteps, or what is wrong.
fn check(problem: &str, result: &str) -> Result<(u64, usize), String> {
    let text = std::fs::read_to_string(result).map_err(|e| format!("{result}: {e}"))?;
    let r: Value = serde_json::from_str(&text).map_err(|e| format!("{result}: {e}"))?;
    // The validator reads problems as a test does, panicking on a bad file.
    let p = std::panic::catch_unwind(|| replay::load_problem(Path::new(problem)))
        .map_err(|_| format!("{problem}: not a readable LoRR problem"))?;
    let report = replay::replay(&p, &r).map_err(|e| format!("{result}: {e}"))?;
    let finished = report
        .finished
        .ok_or_else(|| format!("{result}: no schedule to count the tasks from"))?;
    match r["numTaskFinished"].as_u64() {
        Some(n) if n == finished => Ok((finished, report.timesteps)),
        n => Err(format!(
            "{result}: numTaskFinished {n:?}, the replay counts {finished}"
        )),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!("usage: lorr_check PROBLEM.json=RESULT.json ...");
        return ExitCode::from(2);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let mut failed = false;
    for arg in &args {
        let Some((problem, result)) = arg.split_once('=') else {
            eprintln!("lorr_check: {arg:?} is not PROBLEM.json=RESULT.json");
            return ExitCode::from(2);
        };
        match check(problem, result) {
            Ok((tasks, steps)) => println!("{result}: valid, {tasks} tasks, {steps} timesteps"),
            Err(e) => {
                println!("{e}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
