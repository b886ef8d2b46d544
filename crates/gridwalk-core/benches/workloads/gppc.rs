//! Workload 8: the GPPC dynamic track. The instance of `tests/data/gppc` (a 1024×1024
//! StarCraft map changed by 1,040 patches between 432 queries), answered by A* and D* Lite
//! query by query, every length checked against the file's. Included by `compare.rs`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use gridwalk_core::Algorithm;
use gridwalk_core::format::gppc::load;
use gridwalk_core::tracks::gppc_dynamic::Runner;

use super::{Config, Report, Samples, Series};

/// One pass over the instance (its first 24 queries with `--quick`), A* and D* Lite taking
/// turns on each query; a sample is one query with the patches before it.
pub fn gppc(cfg: &Config) -> Result<Report, String> {
    let limit = cfg.pick(usize::MAX, 24);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/gppc/aurora_part.scen");
    let instance = load(&path).map_err(|e| e.to_string())?;
    let algorithms = [Algorithm::AStar, Algorithm::DStarLite];
    let mut runners = Vec::new();
    for a in algorithms {
        runners.push(Runner::new(&instance, None, a).map_err(|e| e.to_string())?);
    }
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    'queries: for i in 0..limit {
        for j in 0..2 {
            // Alternate who goes first, so both see the same machine state on average.
            let r = if i % 2 == 0 { j } else { 1 - j };
            let t = Instant::now();
            let answered = runners[r].step().map_err(|e| e.to_string())?;
            let elapsed = t.elapsed();
            if !answered {
                break 'queries;
            }
            times[r].push(elapsed);
        }
    }
    let mut report = Report::new("GPPC dynamic track (aurora_part, 1024×1024)");
    let names = ["A* (replan)", "D* Lite (planner per goal)"];
    for ((runner, samples), name) in runners.iter().zip(times).zip(names) {
        let r = runner.report();
        if let Some(m) = r.mismatches.first() {
            return Err(format!(
                "gppc {name}: {} mismatches, first {}:{}: {m}",
                r.mismatches.len(),
                instance.scen_file,
                m.line
            ));
        }
        report
            .series
            .push(Series::new(name, Samples { samples }, Some(r.expanded)));
    }
    report.total_ratio("gppc_dlite_vs_astar", names[1], names[0], None);
    let (astar, dlite) = (runners[0].report(), runners[1].report());
    report.notes.push(format!(
        "{} queries and {} patches, every length equal to the file's (max_error {:.1e}); D* Lite made {} planners for them (it keeps 4, by goal): goals rarely repeat here, so nearly every query is a fresh search",
        astar.queries,
        astar.patches,
        astar.max_error.max(dlite.max_error),
        dlite.planners_made,
    ));
    Ok(report)
}
