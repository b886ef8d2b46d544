//! Workload 7: a living world. Thousands of wandering agents on the game's default map with
//! its gentle dynamic world, as the game runs them (issue 8). Included by `compare.rs`.

use std::path::PathBuf;
use std::time::Instant;

use gridwalk_core::format::Scenario;
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::sim::{SimConfig, Simulation};
use gridwalk_core::{Algorithm, Pos};

use super::incremental::holds_state;
use super::{Config, Goal, Report, Samples, Series, random_reachable_pairs};
use gridwalk_core::rng::{SeedableRng, SplitMix64};

/// maps/default.ron, 5,000 agents at random reachable cells with random reachable goals that
/// wander on arrival, the dynamic world at its gentle setting; 300 ticks (30 with `--quick`).
/// Reports each whole `Simulation::tick`, the planners alive and the memory they hold.
pub fn living(cfg: &Config) -> Result<Report, String> {
    let ticks = cfg.pick(300, 30);
    let agents = 5000;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps/default.ron");
    let scenario = Scenario::load(&path).map_err(|e| e.to_string())?;
    let mut sim = Simulation::new(
        scenario.grid.clone(),
        SimConfig {
            algorithm: Algorithm::DStarLite,
            connectivity: scenario.connectivity,
            heuristic: scenario.effective_heuristic(),
            measure_baseline: false,
            crowd: false,
            rotation: false,
        },
    );
    sim.set_seed(scenario.seed);
    sim.set_dynamic(Some(DynamicWorld::GENTLE));
    let mut rng = SplitMix64::seed_from_u64(41);
    for (s, g) in random_reachable_pairs(&scenario.grid, agents, &mut rng) {
        sim.add_agent_with(s, g, OnArrival::Wander)
            .map_err(|e| e.to_string())?;
    }
    let t = Instant::now();
    sim.replan();
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    let first_planners = sim.planner_count();
    let (mut max_planners, mut max_bytes) = (0, 0);
    let e0 = sim.total_stats().search.expanded;
    let times = super::timed_ticks(&mut sim, ticks, |sim| {
        max_planners = max_planners.max(sim.planner_count());
        max_bytes = max_bytes.max(sim.planner_memory());
    });
    let planners = sim.planner_count();
    let bytes = sim.planner_memory();
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    let name = "5,000 wandering agents, default map";
    let mut report = Report::new("living world (maps/default.ron, dynamic world gentle)");
    report.series.push(Series::new(
        name,
        Samples { samples: times },
        Some(sim.total_stats().search.expanded - e0),
    ));
    report.ratio("planners", planners as f64, name, None);
    report.ratio("planners_max", max_planners as f64, name, None);
    report.ratio("planner_mib", mib(bytes), name, None);
    report.ratio("planner_mib_max", mib(max_bytes), name, None);
    let per_planner = bytes as f64 / planners.max(1) as f64;
    // The cells every planner touched, through one agent of each goal (agents of a goal share
    // its planner).
    let mut goals: Vec<(Pos, u32)> = sim.agents().map(|a| (a.goal, a.id)).collect();
    goals.sort_unstable_by_key(|&(g, _)| (g.y, g.x));
    goals.dedup_by_key(|&mut (g, _)| g);
    let grid = sim.grid();
    let cells: Vec<Pos> = (0..grid.len()).map(|c| grid.pos(c)).collect();
    let touched: usize = goals
        .iter()
        .map(|&(_, id)| {
            cells
                .iter()
                .filter(|&&p| sim.inspect(id, p).is_some_and(|i| holds_state(&i)))
                .count()
        })
        .sum();
    let per_touched = bytes as f64 / touched.max(1) as f64;
    report.ratio(
        "bytes_per_touched_cell",
        per_touched,
        name,
        Some(Goal::AtMost(32.0)),
    );
    report.ratio("bytes_per_planner", per_planner, name, None);
    report.ratio("first_replan_ms", first_ms, name, None);
    report.notes.push(format!(
        "{agents} agents on {}×{} with random reachable goals, wander on arrival; {ticks} ticks; the first replan ({first_planners} planners, {first_ms:.0} ms) is not a sample; at the end {planners} planners hold {:.1} MiB ({:.0} bytes each, {:.2} per map cell, {per_touched:.1} per touched cell: {touched} touched over {} goals)",
        sim.grid().width(),
        sim.grid().height(),
        mib(bytes),
        per_planner,
        per_planner / sim.grid().len() as f64,
        goals.len(),
    ));
    Ok(report)
}
