//! `gridwalk-cli gppc SCEN [--map MAP] [--algo A]`: runs an instance of the GPPC dynamic
//! track (see [`gridwalk_core::format::gppc`]) and checks every query's length.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use gridwalk_core::Algorithm;
use gridwalk_core::format::gppc::{load, load_map};
use gridwalk_core::tracks::gppc_dynamic::run as run_instance;

/// Runs the instance of `scen` (and the patch file it names, beside it) with `algo`, from
/// `map` when given; prints each mismatch, then the summary line
/// `queries: N, mismatches: M, patches: P, max_error: E, millis: T`. Exit code 1 when a
/// length disagrees; bad input is an `Err` with its `file:line: problem`.
pub fn run(scen: &Path, map: Option<&Path>, algo: Algorithm) -> Result<ExitCode, String> {
    let instance = load(scen).map_err(|e| e.to_string())?;
    let grid = map.map(load_map).transpose().map_err(|e| e.to_string())?;
    let needs_map = grid.is_none() && !instance.starts_with_whole_map();
    let report = run_instance(&instance, grid, algo).map_err(|e| {
        if needs_map {
            format!("{e}; give the map with --map MAP")
        } else {
            e.to_string()
        }
    })?;
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    for m in &report.mismatches {
        writeln!(out, "mismatch {}:{}: {m}", instance.scen_file, m.line)
            .map_err(|e| e.to_string())?;
    }
    writeln!(out, "{report}").map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())?;
    Ok(if report.mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
