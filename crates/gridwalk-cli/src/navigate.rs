//! `gridwalk-cli navigate MAP SCEN --sensor R`: every problem of a Moving AI scenario file as
//! one agent navigating from its start to its goal in unknown terrain (the core's
//! [`navigate`](gridwalk_core::tracks::navigate)), one JSON line per problem and a summary line.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use gridwalk_core::Algorithm;
use gridwalk_core::cost::to_f64;
use gridwalk_core::format::movingai::{load_map, load_scen};
use gridwalk_core::sim::MAX_SENSOR_RANGE;
use gridwalk_core::tracks::navigate::{Navigate, navigate};
use serde::Serialize;

use crate::lines::printed_cost;

/// One problem's line.
#[derive(Serialize)]
struct ProblemLine {
    /// Its index in the scenario file, from 0.
    problem: usize,
    /// The cost of the moves made, rounded to 6 decimals.
    travelled: f64,
    /// The file's optimal length.
    optimal: f64,
    searches: u64,
    expanded: u64,
    micros: u64,
    arrived: bool,
}

/// Runs the first `limit` problems (all without it) of `scen` on `map` with `algo` and sensor
/// range `sensor`; prints each problem's line, then the summary. Exit code 1 when a problem
/// does not arrive; bad input is an `Err` with its `file:line: problem`.
pub fn run(
    map: &Path,
    scen: &Path,
    sensor: u32,
    algo: Algorithm,
    limit: Option<usize>,
) -> Result<ExitCode, String> {
    if !(1..=MAX_SENSOR_RANGE).contains(&sensor) {
        return Err(format!("--sensor: {sensor} is not in 1-{MAX_SENSOR_RANGE}"));
    }
    let grid = load_map(map).map_err(|e| e.to_string())?;
    let mut problems = load_scen(scen).map_err(|e| e.to_string())?;
    problems.truncate(limit.unwrap_or(usize::MAX));
    for p in &problems {
        for (what, pos) in [("start", p.start), ("goal", p.goal)] {
            let why = if !grid.contains(pos) {
                format!("is outside the {}×{} map", grid.width(), grid.height())
            } else if !grid.is_passable(pos) {
                "is a wall on the map".to_owned()
            } else {
                continue;
            };
            return Err(format!(
                "{}:{}: {what} {pos} {why} {}",
                scen.display(),
                p.line,
                map.display()
            ));
        }
    }
    let setup = Navigate::new(algo, sensor);
    let started = Instant::now();
    let mut shown = started;
    let (mut arrived, mut travelled, mut searches, mut expanded) = (0usize, 0f64, 0u64, 0u64);
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    for (i, p) in problems.iter().enumerate() {
        let nav = navigate(&grid, p.start, p.goal, &setup)
            .map_err(|e| format!("{}:{}: {e}", scen.display(), p.line))?;
        arrived += usize::from(nav.arrived);
        travelled += to_f64(nav.travelled);
        searches += nav.searches;
        expanded += nav.expanded;
        let line = ProblemLine {
            problem: i,
            travelled: printed_cost(nav.travelled),
            optimal: p.optimal,
            searches: nav.searches,
            expanded: nav.expanded,
            micros: nav.micros,
            arrived: nav.arrived,
        };
        let json = serde_json::to_string(&line).map_err(|e| e.to_string())?;
        writeln!(out, "{json}").map_err(|e| format!("writing output: {e}"))?;
        if shown.elapsed() >= Duration::from_secs(2) {
            shown = Instant::now();
            eprintln!(
                "gridwalk-cli: navigate: {}/{} problems",
                i + 1,
                problems.len()
            );
        }
    }
    writeln!(
        out,
        "problems: {}, arrived: {arrived}, travelled: {travelled:.3}, searches: {searches}, expanded: {expanded}, millis: {}",
        problems.len(),
        started.elapsed().as_millis()
    )
    .map_err(|e| format!("writing output: {e}"))?;
    out.flush().map_err(|e| format!("writing output: {e}"))?;
    Ok(if arrived < problems.len() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
