//! `gridwalk-cli mapf MAP SCEN --agents N`: the one-shot MAPF benchmark, solved by the core's
//! LaCAM ([`gridwalk_core::mapf`]). The first N rows of the `.scen` file are the
//! agents. It improves its first solution until the time limit (LaCAM\*), or stops there with
//! `--first`. With `--out FILE` it writes lacam3's result format there; it prints one summary
//! line last and exits 1 when the instance was not solved.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use gridwalk_core::Connectivity;
use gridwalk_core::format::movingai::{load_map, load_scen};
use gridwalk_core::mapf::{Options, Problem, Unsolved, solve};

/// The solver's name in result files.
const SOLVER: &str = "gridwalk-lacam";

/// What `mapf` runs: the instance's files and size, the moves and the limits.
#[derive(Clone, Debug)]
pub struct MapfArgs<'a> {
    /// The `.map` file.
    pub map: &'a Path,
    /// The `.scen` file.
    pub scen: &'a Path,
    /// How many agents: the first rows of `scen`.
    pub agents: usize,
    /// 4 or 8 moves.
    pub moves: Connectivity,
    /// The longest plan searched for, in timesteps.
    pub max_ticks: Option<u32>,
    /// Seconds of improving (before giving up, without a solution).
    pub time_limit: f64,
    /// Stop at the first solution.
    pub first: bool,
    /// The tie-breaks' seed.
    pub seed: u64,
    /// Where to write the result file.
    pub out: Option<&'a Path>,
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
    let grid = load_map(args.map).map_err(|e| e.to_string())?;
    let problems = load_scen(args.scen).map_err(|e| e.to_string())?;
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
    if let Some(out) = args.out {
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
