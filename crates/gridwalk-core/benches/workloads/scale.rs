//! Workload 6, scale: one agent crossing a 1024×1024 map, D\* Lite repairing with its store
//! forced to tiles and with the store chosen by size. Part of `incremental.rs`, whose walk it
//! plays.

use std::time::Instant;

use gridwalk_core::planner::DEFAULT_PLANNER_MEMORY;
use gridwalk_core::rng::{SeedableRng, SplitMix64};
use gridwalk_core::search::Storage;
use gridwalk_core::{Algorithm, Grid, Pos, new_planner_in};

use super::{
    CONN, Config, Goal, H, Report, Walk, WalkRun, lite, runner, series, touched_cells, walk,
};

/// Workload 6: one agent crossing a 1024×1024 map with 25 % walls, one wall on its path per
/// tick. Two D\* Lite planners repair the same walk: one with its store forced to tiles, whose
/// memory per touched cell is the measure of the tiles' rule, and one with the store the
/// factory picks by size (flat, for a lone planner on this map).
pub fn scale(cfg: &Config) -> Result<Report, String> {
    const TILES: &str = "D* Lite repair, tiles (1024×1024)";
    const BY_SIZE: &str = "D* Lite repair (1024×1024)";
    let mut rng = SplitMix64::seed_from_u64(17);
    let grid = Grid::random(1024, 1024, 0.25, &mut rng).expect("valid size");
    let mut w = Walk::new(grid, 19);
    let t = Instant::now();
    let make = |g: &Grid, goal: Pos| {
        let tiles = new_planner_in(Algorithm::DStarLite, g, goal, CONN, H, Storage::Tiles);
        vec![
            runner(TILES, tiles.expect("goal on map")),
            runner(BY_SIZE, lite(g, goal)),
        ]
    };
    let WalkRun {
        runners,
        mut astar,
        memory,
        ..
    } = walk(&mut w, cfg.pick(300, 20), &make, true)?;
    // The tiled planner of the last episode: what it holds against the cells its searches
    // touched.
    let last = runners[0].planner.as_ref();
    let touched = touched_cells(last, &w.grid);
    let per_touched = last.memory_bytes() as f64 / touched.max(1) as f64;
    let flat_bytes = runners[1].planner.memory_bytes();
    astar.name = "A* from scratch (1024×1024)".to_owned();
    let mut report = Report::new("scale (1024×1024, 25 % walls)");
    report.series.push(series(&runners[1]));
    report.series.push(series(&runners[0]));
    report.series.push(astar);
    let astar = "A* from scratch (1024×1024)";
    report.median_ratio("scale_dlite_vs_astar", BY_SIZE, astar, None);
    report.median_ratio("scale_tiles_vs_astar", TILES, astar, None);
    report.median_ratio("scale_by_size_vs_tiles", BY_SIZE, TILES, None);
    let peak = memory.iter().copied().max().unwrap_or(0);
    report.ratio(
        "scale_planner_mib",
        peak as f64 / (1 << 20) as f64,
        TILES,
        None,
    );
    report.ratio(
        "scale_by_size_mib",
        flat_bytes as f64 / (1 << 20) as f64,
        BY_SIZE,
        None,
    );
    report.ratio(
        "bytes_per_touched_cell",
        per_touched,
        TILES,
        Some(Goal::AtMost(32.0)),
    );
    report.notes.push(format!(
        "tiled planner memory at most {:.1} MiB ({:.1} bytes per map cell); the last episode's tiled planner holds {} bytes for {touched} touched cells ({per_touched:.1} bytes each); the planner chosen by size ({:?}) holds {:.1} MiB; whole run {:.1} s",
        peak as f64 / (1 << 20) as f64,
        peak as f64 / (1024.0 * 1024.0),
        last.memory_bytes(),
        Storage::by_size(w.grid.len(), 1, DEFAULT_PLANNER_MEMORY),
        flat_bytes as f64 / (1 << 20) as f64,
        t.elapsed().as_secs_f64()
    ));
    Ok(report)
}
