//! `gridwalk-cli lifelong PROBLEM.json`: a League of Robot Runners (LoRR) problem of the 2023
//! or 2024 edition, played by the core's lifelong runner ([`gridwalk_core::tracks::lifelong`])
//! with one of its planners, chosen by default from the map and its crowd (`auto.rs`). With
//! `--out FILE` it writes that edition's result JSON; progress goes to standard error, and
//! one summary line is printed last.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use gridwalk_core::format::lorr::Problem;
use gridwalk_core::grid::Grid;
use gridwalk_core::tracks::lifelong::{
    CrowdPlanner, DEFAULT_BUDGET, DEFAULT_PLAN_SHARE, EdgeCosts, Epibt, EpibtConfig, KeepClear,
    OperationPibt, Outcome, Planner, Redecide, RotationPibt, RotationPlanner, SchedulerKind,
    Settings, TrafficConfig, WindowConfig, WindowLns, run as play,
};

use crate::mapf::parse_seconds;

mod auto;

use auto::{AUTO_EPIBT_WORK, Choice, Rim, choose};

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
    /// `auto` (the default: on a map of at most 4,096 cells and 1,000 robots, `window` below
    /// 0.45 robots a free cell and `epibt` from it; on one mostly of open ground, `window`
    /// below 0.8 and `committed` from it; `committed` on the rest), `window` (a window of 10
    /// timesteps from a PIBT rollout, refined by LNS with space-time A*),
    /// `operations` (PIBT over 3-step operations on exact (cell, facing) tables), `committed`
    /// (the best of several PIBT steps over cells on the same tables, carried out to the end,
    /// turns first, before the next), `rotation` (the
    /// crowd's rotation step, one step replanned every timestep), `state` (PIBT over (cell,
    /// facing) states, pushes forward only), `crowd` (the crowd's 4-move step rule, its
    /// cells turned into rotations) or `epibt` (Enhanced PIBT over operations of
    /// `--depth` steps, plans kept from step to step and refined by LNS).
    #[arg(long, default_value = "auto", value_parser = ["auto", "window", "operations", "rotation", "committed", "state", "crowd", "epibt"])]
    pub planner: String,
    /// `committed`: when robots get new next cells: `together` (once every robot stands on
    /// its own), `alone` (each once it stands on its own), or `auto` (the default:
    /// `together` on a map of at most 4,096 cells and 1,000 robots, else `alone`).
    #[arg(long, default_value = "auto", value_parser = ["auto", "together", "alone"])]
    pub redecide: String,
    /// Traffic rules for `window`, `operations`, `epibt` and `committed`: every row and
    /// column a one-way street in preference (for `committed` the ways alternate between
    /// corridors, not rows), a move against its way costing this many halves of a move more;
    /// 0 for none, `auto` (the default) 8, but on a map mostly of open ground 2 below 0.05
    /// robots a free cell and 16 from there to 0.1, 0 on a small map below 0.35 robots a free
    /// cell, for `epibt` 16, and for `committed` 4 on a small map and 32 on others.
    #[arg(long, default_value = "auto")]
    pub highways: String,
    /// A ring road for `window`, `operations`, `epibt` and `committed`: `off` (the default) or
    /// `CUT,WIDTH`, a move at the map's edge costing CUT tenths of a move less, tapering to
    /// nothing WIDTH cells in, so that through-traffic goes round the crowded middle (on
    /// I-05 `9,8` finished more in 500 steps, but jammed later in some runs: see cli.md).
    #[arg(long, default_value = "off")]
    pub rim: String,
    /// `window`: timesteps planned ahead.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub window: u64,
    /// `window`: robots replanned together.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub neighbourhood: u64,
    /// `window`: A* expansions a step's refining may make: `auto` (the default: 8,000,000,
    /// about half a second, on a small map; 500,000 on others) or a number. `epibt`: the
    /// choices its refining makes a step (`auto`: 20,000).
    #[arg(long, default_value = "auto")]
    pub lns_work: String,
    /// `window` and `epibt`: the share of the step time limit after which the planner stops
    /// refining whatever its work (a safety net; when it cuts first, results depend on the
    /// machine).
    #[arg(long, default_value_t = DEFAULT_PLAN_SHARE, value_parser = parse_share)]
    pub plan_share: f64,
    /// `epibt`: how much the refining favours the robots that choose first: a robot's gain
    /// weighs its rank's share from the back raised to this exponent. `auto` (the default)
    /// 0.5 below 0.6 robots a free cell, else 2; or a number from 0 (every robot alike) to 8.
    #[arg(long, default_value = "auto")]
    pub power: String,
    /// `epibt`: the steps a robot stands on one cell before it goes first, before the robots
    /// nearest their goals: `auto` (the default) 5 below 0.6 robots a free cell, else 10; or
    /// a number from 1 to 1000.
    #[arg(long, default_value = "auto")]
    pub stall_steps: String,
    /// `epibt`: the timesteps an operation spans, 3 to 5: the longer, the further a robot
    /// sees past the one ahead, and the dearer each choice (about 13 times over 5 steps than
    /// over 3). `auto` (the default) 5 below 0.6 robots a free cell, else 4.
    #[arg(long, default_value = "auto")]
    pub depth: String,
    /// `window`: neighbourhoods a step tries at most.
    #[arg(long)]
    pub lns_iterations: Option<usize>,
    /// `window`: start each step from last step's window, not from a PIBT rollout.
    #[arg(long)]
    pub no_rollout: bool,
    /// Moves priced by the traffic the robots make (see docs/cli.md): `auto` (the default:
    /// 8,8,25,100 for `window`, `operations` and `epibt` on a small map where no robot
    /// parks, for `epibt` 32,32,25,100 below 0.6 robots a free cell and 8,32,25,100 from
    /// there to 0.8, else off), `off`, or `STALL,CONTRA[,PERIOD[,HORIZON]]`.
    #[arg(long, default_value = "auto")]
    pub traffic: String,
    /// 2024: `matching` (the default: cheapest pairs first, redone each timestep over the
    /// robots that have not begun their task) or `greedy` (the start-kit's: a robot without a
    /// task takes the nearest by makespan, for good); `auto` is `matching`.
    #[arg(long, default_value = "auto", value_parser = ["auto", "greedy", "matching"])]
    pub scheduler: String,
    /// 2024, `matching`: how many times a move to a task's first errand counts against a
    /// move between its errands: `auto` (the default) 5 from 0.6 robots a free cell and for
    /// `committed`, else 1; or a number from 1 to 100.
    #[arg(long, default_value = "auto")]
    pub approach: String,
    /// Robots that may head for one goal at once, so that they do not queue beside it: in
    /// 2024 `matching` gives no more tasks at a first errand, in 2023 the nearest keep a
    /// shared goal and the others wait without one. `auto` (the default) 8, `none` for no
    /// bound, or a number from 1.
    #[arg(long, default_value = "auto")]
    pub queue: String,
    /// `committed` and `rotation`, under a `--queue` bound: robots without a goal walk out of
    /// the cells within this many moves of a goal whose queue is full, so that they do not
    /// shut it in. `auto` (the default) 10, `off`, or a number from 1 to 1000.
    #[arg(long, default_value = "auto")]
    pub keep_clear: String,
    /// Robots that work: `auto` (the default: 0.05 a free cell on a map that is not small,
    /// at least half open ground and holds 0.1 robots a free cell or more, 0.55 on a small
    /// map from 0.6 to 0.8 robots a free cell where the window plans; else all), `all`, or a
    /// number. The others, drawn uniformly by the seed from the robots on open ground (see
    /// `--park`), park: they get no task (2024) or their tasks are hidden (2023), so that they
    /// only block, decide last and are pushed aside.
    #[arg(long, default_value = "auto")]
    pub active: String,
    /// Where robots park: `auto` (the default: `off-trunk` on a map that is not small, else
    /// `open`), `open` (any robot on open ground may park) or `off-trunk` (as `open`, but
    /// robots on the map's trunk, the quarter of free cells with the most through-traffic,
    /// work: parked there they narrow the passages every robot crosses).
    #[arg(long, default_value = "auto", value_parser = ["auto", "open", "off-trunk"])]
    pub park: String,
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
    let choice = choose(args, &problem.grid, problem.team_size())?;
    let planner = build_planner(args, &problem.grid, &choice);
    let settings = Settings {
        parking: choice.parking,
        steps: args.steps,
        step_time_limit: Duration::from_secs_f64(args.step_time_limit),
        scheduler: match args.scheduler.as_str() {
            "greedy" => SchedulerKind::Greedy,
            _ => SchedulerKind::Matching,
        },
        queue: choice.queue,
        approach: choice.approach,
    };
    let every = (args.steps / 20).max(1);
    let mut progress = |t: u64, finished: u64| {
        if t.is_multiple_of(every) {
            eprintln!("gridwalk-cli: lifelong: timestep {t}, tasks finished {finished}");
        }
    };
    let outcome = play(&problem, planner, settings, &mut progress)?;
    report(args, &problem, &outcome)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the result JSON if asked, and prints the notes and the summary line.
fn report(args: &LifelongArgs, problem: &Problem, outcome: &Outcome) -> Result<(), String> {
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
    // Folded from +0.0: an empty f64 sum is -0.0, which would print as `-0.000`.
    let mean = times.iter().fold(0.0, |sum, t| sum + t) / times.len().max(1) as f64;
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
    Ok(())
}

/// The planner `choice` names on `grid` (see [`LifelongArgs::planner`]), with its traffic
/// rules, ring road, learnt traffic and cells kept clear; `window` refines with at most
/// `choice.work` A\* expansions a step.
fn build_planner(args: &LifelongArgs, grid: &Grid, choice: &Choice) -> Box<dyn Planner> {
    let Choice {
        planner: name,
        highways,
        rim,
        traffic,
        power,
        stall_steps,
        small,
        work,
        ..
    } = *choice;
    // The rows' ways, for `window` and `operations` (committed steps take the corridors').
    // In halves of a move; in tenths with a ring road, whose cut needs the finer scale.
    let streets = |ways: fn(&Grid, u16, u16) -> EdgeCosts| match rim {
        None => ways(grid, 2, 2 + highways),
        Some(Rim { cut, width }) => ways(grid, 10, 10 + 5 * highways).with_rim(grid, cut, width),
    };
    let priced = highways > 0 || rim.is_some();
    let costs = (priced && name != "committed").then(|| streets(EdgeCosts::highways));
    let seed = args.seed;
    // Robots without a goal kept out of full goals' way, for the planners over cells.
    let rotation = || {
        let planner = RotationPlanner::new(grid, DEFAULT_BUDGET, seed);
        match (choice.queue, choice.keep_clear) {
            (Some(bound), Some(radius)) => planner.keep_clear(KeepClear::new(bound, radius)),
            _ => planner,
        }
    };
    match name {
        "crowd" => Box::new(CrowdPlanner::new(grid, DEFAULT_BUDGET, seed)),
        "state" => Box::new(RotationPibt::new(grid, DEFAULT_BUDGET, seed)),
        "committed" => {
            let redecide = match args.redecide.as_str() {
                "together" => Redecide::Together,
                "alone" => Redecide::Alone,
                _ if small => Redecide::Together,
                _ => Redecide::Alone,
            };
            let planner = rotation();
            // Ways alternating between corridors: on the warehouses, whose aisles are every
            // other or every third row and column, the rows' parity sends many one way.
            let planner = match priced {
                false => planner,
                true => planner.with_costs(streets(EdgeCosts::corridors)),
            };
            let planner = match traffic {
                Some(t) => planner.with_traffic(t),
                None => planner,
            };
            Box::new(planner.committed(redecide, seed))
        }
        "operations" => {
            let planner = match costs {
                Some(c) => OperationPibt::with_costs(grid, DEFAULT_BUDGET, seed, c),
                None => OperationPibt::new(grid, DEFAULT_BUDGET, seed),
            };
            match traffic {
                Some(t) => Box::new(planner.with_traffic(t)),
                None => Box::new(planner),
            }
        }
        "window" => {
            let cfg = WindowConfig {
                window: args.window as usize,
                neighbourhood: args.neighbourhood as usize,
                plan_time: Duration::from_secs_f64(args.step_time_limit * args.plan_share),
                work: Some(work),
                iterations: args.lns_iterations,
                rollout: !args.no_rollout,
            };
            let planner = WindowLns::new(grid, DEFAULT_BUDGET, seed, cfg, costs);
            match traffic {
                Some(t) => Box::new(planner.with_traffic(t)),
                None => Box::new(planner),
            }
        }
        "epibt" => {
            let cfg = EpibtConfig {
                revisits: 10,
                stall_steps,
                power,
                work: Some(match args.lns_work.as_str() {
                    "auto" => AUTO_EPIBT_WORK,
                    _ => work,
                }),
                plan_time: Duration::from_secs_f64(args.step_time_limit * args.plan_share),
            };
            match choice.depth {
                3 => epibt::<3>(grid, seed, cfg, costs, traffic),
                4 => epibt::<4>(grid, seed, cfg, costs, traffic),
                _ => epibt::<5>(grid, seed, cfg, costs, traffic),
            }
        }
        _ => Box::new(rotation()),
    }
}

/// `epibt` over operations of `D` steps, its moves priced by `costs` and `traffic` if set.
fn epibt<const D: usize>(
    grid: &Grid,
    seed: u64,
    cfg: EpibtConfig,
    costs: Option<EdgeCosts>,
    traffic: Option<TrafficConfig>,
) -> Box<dyn Planner> {
    let planner = Epibt::<D>::new(grid, DEFAULT_BUDGET, seed, cfg, costs);
    match traffic {
        Some(t) => Box::new(planner.with_traffic(t)),
        None => Box::new(planner),
    }
}

/// A share of the step time limit: a number in (0, 1].
fn parse_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1.0 => Ok(v),
        _ => Err(format!("{s:?} is not a share in (0, 1]")),
    }
}
