//! `gridwalk-cli lifelong PROBLEM.json`: a League of Robot Runners (LoRR) problem of the 2023
//! or 2024 edition, played by the core's lifelong runner ([`gridwalk_core::tracks::lifelong`])
//! with one of its planners (by default PIBT over 3-step operations). With `--out FILE` it writes that
//! edition's result JSON; progress goes to standard error, and one summary line is printed
//! last.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use gridwalk_core::format::lorr::Problem;
use gridwalk_core::tracks::lifelong::{
    CrowdPlanner, DEFAULT_BUDGET, OperationPibt, Planner, RotationPibt, RotationPlanner, Settings,
    EdgeCosts, SchedulerKind, WindowConfig, WindowLns, run as play,
};

use crate::mapf::parse_seconds;

/// Robots a free cell from which `--planner auto` takes the one-step rotation planner: the
/// 3-step operations need room to clear a window (on random-32-32-20 with 800 robots they
/// finish fewer tasks).
const AUTO_ROTATION_DENSITY: f64 = 0.9;

/// What `lifelong` runs, as its command line gives it.
#[derive(Clone, Debug, clap::Args)]
pub struct LifelongArgs {
    /// The problem JSON (its map, agents and tasks files are read from beside it).
    pub problem: PathBuf,
    /// Timesteps to play (the start-kit's default is 5,000).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub steps: u64,
    /// Seconds the planner has each timestep; a late step is lost, every robot waiting.
    #[arg(long, default_value = "1", value_parser = parse_seconds)]
    pub step_time_limit: f64,
    /// `auto` (the default: `operations` below 0.9 robots a free cell, `rotation` above),
    /// `operations` (PIBT over 3-step operations on exact (cell, facing) tables), `rotation`
    /// (the crowd's rotation step, one step on the same tables), `state` (PIBT over (cell,
    /// facing) states, pushes forward only) or `crowd` (the crowd's 4-move step rule, its
    /// cells turned into rotations).
    #[arg(long, default_value = "auto", value_parser = ["auto", "window", "operations", "rotation", "state", "crowd"])]
    pub planner: String,
    /// `window`: timesteps planned ahead.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub window: u64,
    /// `window`: robots replanned together.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub neighbourhood: u64,
    /// `window`: the share of the step time limit spent refining.
    #[arg(long, default_value_t = 0.5)]
    pub plan_share: f64,
    /// `window`: start each step from last step's window only, never from a PIBT rollout.
    #[arg(long)]
    pub no_rollout: bool,
    /// `window`: start from the rollout only when it costs less than last step's window.
    #[arg(long)]
    pub cheaper_rollout: bool,
    /// `window`: neighbourhoods a step tries at most (without it: as many as the time allows).
    #[arg(long)]
    pub lns_iterations: Option<usize>,
    /// `window`: A* expansions a step's refining may make (without it: as many as the time
    /// allows).
    #[arg(long)]
    pub lns_work: Option<u64>,
    /// `window`: the planner rolled out over the window.
    #[arg(long, default_value = "auto", value_parser = ["auto", "operations", "rotation"])]
    pub rollout_planner: String,
    /// `window`: rollouts a step tries, the later ones with perturbed priorities.
    #[arg(long, default_value_t = 1)]
    pub rollouts: usize,
    /// `window`: keep only neighbourhoods that lower the cost.
    #[arg(long)]
    pub strict: bool,
    /// `window`: robots that arrived within the window move on first rather than stay.
    #[arg(long)]
    pub move_after: bool,
    /// `window`: the share of neighbourhoods replanned all together.
    #[arg(long, default_value_t = 1.0)]
    pub together: f64,
    /// Traffic rules: rows and columns one-way in preference, a move against the way costing
    /// this many halves of a move more (0: none).
    #[arg(long, default_value_t = 0)]
    pub highways: u32,
    /// 2024: `greedy` (the start-kit's: a robot without a task takes the nearest by
    /// makespan, for good) or `matching` (redone each timestep over the robots that have not
    /// begun their task).
    #[arg(long, default_value = "greedy", value_parser = ["greedy", "matching"])]
    pub scheduler: String,
    /// Only this many robots work (those nearest their first goal); the others stay unless
    /// pushed.
    #[arg(long)]
    pub park: Option<usize>,
    /// The seed of the planner's tie-breaks.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the edition's result JSON to FILE.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Plays the problem; prints the summary line. Bad input is an `Err` with its `file:line:
/// problem`.
pub fn run(args: &LifelongArgs) -> Result<ExitCode, String> {
    let problem = Problem::load(&args.problem).map_err(|e| e.to_string())?;
    let free = (0..problem.grid.len())
        .filter(|&c| problem.grid.weight(c) != 0)
        .count();
    let dense = problem.team_size() as f64 >= AUTO_ROTATION_DENSITY * free as f64;
    let dense_ops = problem.team_size() as f64 >= 0.9 * free as f64;
    let costs = (args.highways > 0)
        .then(|| EdgeCosts::highways(&problem.grid, 2, 2 + args.highways as u16));
    let planner: Box<dyn Planner> = match args.planner.as_str() {
        "crowd" => Box::new(CrowdPlanner::new(&problem.grid, DEFAULT_BUDGET, args.seed)),
        "state" => Box::new(RotationPibt::new(&problem.grid, DEFAULT_BUDGET, args.seed)),
        "operations" if args.highways > 0 => Box::new(OperationPibt::with_costs(
            &problem.grid,
            DEFAULT_BUDGET,
            args.seed,
            EdgeCosts::highways(&problem.grid, 2, 2 + args.highways as u16),
        )),
        "operations" => Box::new(OperationPibt::new(&problem.grid, DEFAULT_BUDGET, args.seed)),
        "window" => Box::new(WindowLns::new(
            &problem.grid,
            DEFAULT_BUDGET,
            args.seed,
            WindowConfig {
                window: args.window as usize,
                neighbourhood: args.neighbourhood as usize,
                plan_time: Duration::from_secs_f64(args.step_time_limit * args.plan_share),
                iterations: args.lns_iterations,
                work: args.lns_work,
                rollout: !args.no_rollout,
                always_rollout: !args.cheaper_rollout,
                rollouts: args.rollouts,
                together: args.together,
                strict: args.strict,
                stay_after: !args.move_after,
            },
            if args.rollout_planner == "rotation" || (args.rollout_planner == "auto" && dense_ops) {
                Some(Box::new(RotationPlanner::new(&problem.grid, DEFAULT_BUDGET, args.seed)))
            } else {
                None
            },
            costs.clone(),
        )),
        "auto" if !dense => Box::new(OperationPibt::new(&problem.grid, DEFAULT_BUDGET, args.seed)),
        _ => Box::new(RotationPlanner::new(
            &problem.grid,
            DEFAULT_BUDGET,
            args.seed,
        )),
    };
    let planner: Box<dyn Planner> = match args.park {
        Some(active) => {
            gridwalk_core::tracks::lifelong::PARKING_WIDTH
                .store(problem.grid.width(), std::sync::atomic::Ordering::Relaxed);
            Box::new(gridwalk_core::tracks::lifelong::Parking::new(planner, active))
        }
        None => planner,
    };
    let settings = Settings {
        steps: args.steps,
        step_time_limit: Duration::from_secs_f64(args.step_time_limit),
        scheduler: match args.scheduler.as_str() {
            "greedy" => SchedulerKind::Greedy,
            _ => SchedulerKind::Matching,
        },
    };
    let every = (args.steps / 20).max(1);
    let mut progress = |t: u64, finished: u64| {
        if t.is_multiple_of(every) {
            eprintln!("gridwalk-cli: lifelong: timestep {t}, tasks finished {finished}");
        }
    };
    let outcome = play(&problem, planner, settings, &mut progress)?;
    let rec = &outcome.record;
    eprintln!(
        "gridwalk-cli: lifelong: preprocessing took {:.3} s",
        outcome.preprocess_seconds
    );
    if let Some(note) = &outcome.planner_summary {
        eprintln!("gridwalk-cli: lifelong: {note}");
    }
    if let Some(out) = &args.out {
        std::fs::write(out, rec.to_json()).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let times = &outcome.plan_seconds;
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let max = times.iter().cloned().fold(0.0, f64::max);
    let errors = rec.errors.len() + rec.schedule_errors.len();
    println!(
        "lifelong: agents {}, tasks finished {}, errors {}, timeouts {}, timesteps {}, plan mean ms {:.3}, plan max ms {:.3}",
        problem.team_size(),
        rec.finished,
        errors,
        rec.entry_timeouts + rec.errors.iter().filter(|e| e.agent < 0).count() as u64,
        rec.timesteps,
        mean * 1e3,
        max * 1e3
    );
    Ok(ExitCode::SUCCESS)
}
