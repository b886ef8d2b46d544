//! The crowd workload's lifelong LoRR row (issue 39): `lorr_plan_10000_ms`, the planning a
//! step of the lifelong track's default planner on this map (committed rotation steps, each
//! robot decided again as soon as it stands on its cell, on traffic rules alternating between
//! corridors: [`RotationPlanner::committed`]; at most 8 robots heading for one goal, the
//! others walking out of the full goals' way: [`KeepClear`]) for the 2023 main round's I-10:
//! 10,000 robots on warehouse_large, tasks dealt round robin, from `benches/data/lorr/` (see
//! its README). Included by `compare.rs` and run by the `crowd` workload, beside
//! `crowd_step_10000_ms`.
//!
//! The run is the CLI's (`gridwalk-cli lifelong`): the track's runner with its planner on its
//! own thread. The figure is the mean of the planner's own time a step, without the
//! preprocessing (every first goal's table, counted apart as LoRR does); the time limit is
//! generous, so that a loaded machine loses no step and every run plays the same steps.

use std::path::PathBuf;
use std::time::Duration;

use gridwalk_core::format::lorr::Problem;
use gridwalk_core::tracks::lifelong::{
    DEFAULT_BUDGET, EdgeCosts, KeepClear, Redecide, RotationPlanner, SchedulerKind, Settings, run,
};

use super::{Goal, Report, Samples, Series};

/// The goal for the planning a step at 10,000 robots.
const PLAN_GOAL_MS: f64 = 50.0;

/// The robots that may head for one goal at once, as the CLI's `--queue auto`.
const QUEUE: u32 = 8;

/// The problem file, beside its map, agents and tasks.
fn problem_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/data/lorr/MR23-I-10-cut.json")
}

/// Plays I-10 for `steps` steps with the default planner and reports the planning a step.
pub fn warehouse_10000(steps: u64, report: &mut Report) -> Result<(), String> {
    let path = problem_path();
    let problem = Problem::load(&path).map_err(|e| e.to_string())?;
    // As `gridwalk-cli lifelong` plays it by default: `--highways` 32 for committed steps
    // on a map this size, `--queue` 8 and `--keep-clear` 10.
    let planner = RotationPlanner::new(&problem.grid, DEFAULT_BUDGET, 0)
        .with_costs(EdgeCosts::corridors(&problem.grid, 2, 34))
        .keep_clear(KeepClear::new(QUEUE, 10))
        .committed(Redecide::Alone, 0);
    let settings = Settings {
        steps,
        step_time_limit: Duration::from_secs(60),
        scheduler: SchedulerKind::Greedy,
        queue: Some(QUEUE),
        parking: None,
        approach: 1,
    };
    let outcome = run(&problem, Box::new(planner), settings, &mut |_, _| {})?;
    let plans = &outcome.plan_seconds;
    if plans.len() as u64 != steps || outcome.record.errors.iter().any(|e| e.agent >= 0) {
        return Err(format!(
            "lorr I-10: {} of {steps} steps planned, {} errors",
            plans.len(),
            outcome.record.errors.len()
        ));
    }
    let ms = |s: f64| s * 1e3;
    let mean = ms(plans.iter().sum::<f64>() / plans.len().max(1) as f64);
    let max = ms(plans.iter().copied().fold(0.0, f64::max));
    let robots = problem.team_size();
    if robots != 10_000 {
        return Err(format!("lorr I-10: {robots} robots, not 10,000"));
    }
    let label = format!("lifelong LoRR 2023 I-10, warehouse_large, 10,000 robots, {steps} steps");
    let samples = plans.iter().map(|&s| Duration::from_secs_f64(s)).collect();
    report
        .series
        .push(Series::new(&label, Samples { samples }, None));
    report.ratio(
        "lorr_plan_10000_ms",
        mean,
        &label,
        Some(Goal::AtMost(PLAN_GOAL_MS)),
    );
    report.ratio("lorr_plan_10000_max_ms", max, &label, None);
    let finished = outcome.record.finished;
    report.ratio(
        "lorr_10000_tasks_per_step",
        finished as f64 / steps as f64,
        &label,
        None,
    );
    report.notes.push(format!(
        "lorr_plan_10000_ms: the lifelong track's planner (committed rotation steps, alone, on corridor traffic rules, queue 8, kept clear: the CLI's default here) on 2023 I-10, 10,000 robots on warehouse_large, the first {steps} steps: planning {mean:.2} ms a step on average, {max:.1} ms at most, {finished} tasks finished; preprocessing (the first goals' tables) {:.1} s, not counted",
        outcome.preprocess_seconds
    ));
    Ok(())
}
