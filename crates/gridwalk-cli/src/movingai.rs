//! `gridwalk-cli movingai MAP SCEN`: solves every problem of a Moving AI scenario file and
//! compares each cost with the benchmark's optimal length.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use gridwalk_core::Algorithm;
use gridwalk_core::cost::to_f64;
use gridwalk_core::format::movingai::{load_map, load_scen, matches_printed};
use gridwalk_core::search::best_first::SearchSpace;

use crate::check::solve;

/// Solves every problem of `scen` on `map` with `algo`; prints each mismatch, then the
/// summary line. Exit code 1 when a length disagrees; an unreadable file or a problem off
/// the map is an `Err` with its `file:line: problem`.
pub fn run(map: &Path, scen: &Path, algo: Algorithm) -> Result<ExitCode, String> {
    let grid = load_map(map).map_err(|e| e.to_string())?;
    let problems = load_scen(scen).map_err(|e| e.to_string())?;
    for p in &problems {
        for (what, pos) in [("start", p.start), ("goal", p.goal)] {
            if !grid.contains(pos) {
                return Err(format!(
                    "{}:{}: {what} {pos} is outside the {}×{} map {}",
                    scen.display(),
                    p.line,
                    grid.width(),
                    grid.height(),
                    map.display()
                ));
            }
        }
    }
    let started = Instant::now();
    let mut space = SearchSpace::new();
    let (mut mismatches, mut max_error) = (0usize, 0f64);
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    for p in &problems {
        let cost = solve(&grid, p.start, p.goal, algo, &mut space);
        let ours = cost.map(to_f64);
        let error = ours.map_or(f64::INFINITY, |c| (c - p.optimal).abs());
        max_error = max_error.max(error);
        if !ours.is_some_and(|c| matches_printed(c, p.optimal)) {
            mismatches += 1;
            let got = ours.map_or("no path".to_string(), |c| format!("{c:.6}"));
            writeln!(
                out,
                "mismatch {}:{}: {} -> {}: optimal {}, got {got}",
                scen.display(),
                p.line,
                p.start,
                p.goal,
                p.optimal
            )
            .map_err(|e| e.to_string())?;
        }
    }
    writeln!(
        out,
        "problems: {}, mismatches: {mismatches}, max_error: {max_error:.3e}, millis: {}",
        problems.len(),
        started.elapsed().as_millis()
    )
    .map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())?;
    Ok(if mismatches > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
