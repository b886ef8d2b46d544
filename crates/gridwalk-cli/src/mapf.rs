//! `gridwalk-cli mapf MAP SCEN --agents N`: the one-shot MAPF benchmark, solved by the core's
//! LaCAM ([`gridwalk_core::mapf`]). The first N rows of the `.scen` file are the
//! agents. It improves its first solution until the time limit (LaCAM\*), or stops there with
//! `--first`. With `--out FILE` it writes lacam3's result format there; it prints one summary
//! line last and exits 1 when the instance was not solved.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use gridwalk_core::Connectivity;
use gridwalk_core::format::movingai::{load_map, load_scen};
use gridwalk_core::mapf::{Options, Problem, Unsolved, solve};

/// The solver's name in result files.
const SOLVER: &str = "gridwalk-lacam";

/// What `mapf` runs, as its command line gives it: the instance's files and size, the moves
/// and the limits.
#[derive(Clone, Debug, clap::Args)]
pub struct MapfArgs {
    /// The map (.map).
    pub map: PathBuf,
    /// The MAPF scenario (.scen); row k is agent k.
    pub scen: PathBuf,
    /// How many agents: the first N rows of the scenario.
    #[arg(long)]
    pub agents: usize,
    /// 4 (the benchmark's model, the default) or 8 (diagonals, no corner cutting).
    #[arg(long, default_value = "4", value_parser = parse_moves)]
    pub moves: Connectivity,
    /// Search only plans of at most T timesteps.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_ticks: Option<u32>,
    /// Improve the plan until S seconds pass (give up after S without one).
    #[arg(long, default_value = "60", value_parser = parse_seconds)]
    pub time_limit: f64,
    /// Stop at the first solution instead of improving it.
    #[arg(long)]
    pub first: bool,
    /// The seed of the tie-breaks.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write lacam3's result format to FILE.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Parses `--moves`: 4 or 8.
pub fn parse_moves(s: &str) -> Result<Connectivity, String> {
    match s {
        "4" => Ok(Connectivity::Four),
        "8" => Ok(Connectivity::Eight),
        _ => Err(format!("{s:?} is not 4 or 8")),
    }
}

/// Parses `--time-limit`: a positive number of seconds, at most a day.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds in (0, 86400]")),
    }
}

/// Solves the instance; prints the summary line. Exit code 1 when unsolved; bad input is an
/// `Err` with its `file:line: problem`.
pub fn run(args: &MapfArgs) -> Result<ExitCode, String> {
    let grid = load_map(&args.map).map_err(|e| e.to_string())?;
    let problems = load_scen(&args.scen).map_err(|e| e.to_string())?;
    let scen_name = args.scen.display().to_string();
    let problem = Problem::from_scen(grid, args.moves, &problems, args.agents, &scen_name)
        .map_err(|e| e.to_string())?;
    let options = Options {
        time_limit: Duration::from_secs_f64(args.time_limit),
        max_ticks: args.max_ticks,
        seed: args.seed,
        anytime: !args.first,
        ..Options::default()
    };
    let solution = solve(&problem, &options).map_err(|e| match e.agent {
        Some(a) => format!("{scen_name}:{}: {}", problems[a].line, e.message),
        None => format!("{scen_name}: {}", e.message),
    })?;
    if let Some(out) = &args.out {
        let map_name = args.map.file_name().map_or_else(
            || args.map.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let text = solution.result_text(&problem, &map_name, SOLVER, args.seed);
        std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    if let Err(why) = solution.plan {
        let why = match why {
            Unsolved::TimeLimit => "the time limit passed",
            Unsolved::MemoryCap => "the memory cap was reached",
            Unsolved::Exhausted => "no plan exists within the tick limit",
        };
        eprintln!("gridwalk-cli: mapf: unsolved: {why}");
    }
    println!(
        "mapf: agents {}, solved {}, soc {} (lb {}), makespan {} (lb {}), millis {}",
        problem.agents(),
        if solution.solved() { "yes" } else { "no" },
        solution.soc,
        solution.soc_lb,
        solution.makespan,
        solution.makespan_lb,
        solution.millis
    );
    Ok(if solution.solved() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
