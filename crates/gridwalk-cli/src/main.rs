//! gridwalk-cli: headless runs of the planner core.
//!
//! - `simulate FILE.ron` plays a scenario and prints one JSON line per tick.
//! - `movingai MAP SCEN` solves every problem of a Moving AI scenario file and compares each
//!   cost with the benchmark's optimal length.
//! - `gppc SCEN` runs an instance of the GPPC dynamic track: patches applied in order, every
//!   query's length checked.
//! - `navigate MAP SCEN --sensor R` runs every problem of a Moving AI scenario file as one
//!   agent navigating in unknown terrain, sensing within R.
//! - `mapf MAP SCEN --agents N` solves a one-shot MAPF benchmark instance (LaCAM).
//! - `lifelong PROBLEM.json` plays a League of Robot Runners problem and writes its result.
//!
//! Bad input prints `file:line: problem` on stderr and exits with code 2.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gridwalk_cli::{gppc, lifelong, mapf, movingai, navigate, simulate};
use gridwalk_core::Algorithm;
use gridwalk_core::sim::parse_memory;

#[derive(Parser)]
#[command(
    name = "gridwalk-cli",
    version,
    about = "Headless runs of the gridwalk planners"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a RON scenario; print one JSON object per tick.
    Simulate {
        /// The scenario file (.ron).
        file: PathBuf,
        /// dstar-lite, dstar, astar, dijkstra, mpgaa or greedy.
        #[arg(long, default_value = "dstar-lite")]
        algo: Algorithm,
        /// Ticks to run after tick 0 (default: until every agent arrives, at most 10,000).
        #[arg(long)]
        ticks: Option<u64>,
        /// Add every search run's expansions to each tick line, as "trace".
        #[arg(long)]
        trace: bool,
        /// The most memory the planners may hold, as 512M or 2G (default: the scenario's, else 2G).
        #[arg(long, value_parser = parse_memory)]
        planner_memory: Option<usize>,
        /// Expansions a tick's planning may make; agents whose plan is not ready wait as
        /// "planning" (default: the scenario's, else no limit).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        plan_budget: Option<u64>,
        /// Crowd mode: no two agents share a cell; moves come from the crowd's step rule
        /// (default: the scenario's `crowd`, else off).
        #[arg(long)]
        crowd: bool,
        /// Tries a tick of crowd mode's real-time search may make once it takes over from the
        /// step rule (default: the scenario's `crowd_budget`, else 16).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        crowd_budget: Option<u64>,
        /// Robots that face a direction: each tick an agent moves one cell ahead, turns 90°
        /// or waits (LoRR's rules); implies --crowd and needs four moves (default: the
        /// scenario's `rotation`).
        #[arg(long)]
        rotation: bool,
    },
    /// Solve every problem of a Moving AI scenario and check the optimal lengths.
    Movingai {
        /// The map (.map).
        map: PathBuf,
        /// The scenarios (.scen).
        scen: PathBuf,
        /// dstar-lite, dstar, astar, dijkstra, mpgaa or greedy.
        #[arg(long, default_value = "astar")]
        algo: Algorithm,
    },
    /// Run a GPPC dynamic-track instance: apply its patches in order, check every query.
    Gppc {
        /// The version-2 scenario (.scen); its patch file is read from beside it.
        scen: PathBuf,
        /// The starting map (.map), unless the first command pastes a patch over the whole map.
        #[arg(long)]
        map: Option<PathBuf>,
        /// dstar-lite, dstar, astar, dijkstra, mpgaa or greedy.
        #[arg(long, default_value = "astar")]
        algo: Algorithm,
    },
    /// Navigate every problem of a Moving AI scenario in unknown terrain; one JSON line each.
    Navigate {
        /// The map (.map).
        map: PathBuf,
        /// The scenarios (.scen).
        scen: PathBuf,
        /// The sensor range, 1 to 64: the agent knows the cells within this Chebyshev distance.
        #[arg(long)]
        sensor: u32,
        /// dstar-lite, dstar, astar, dijkstra, mpgaa or greedy.
        #[arg(long, default_value = "dstar-lite")]
        algo: Algorithm,
        /// Run only the first N problems.
        #[arg(long)]
        limit: Option<usize>,
    },
    /// Solve a one-shot MAPF instance: the first N rows of a benchmark .scen, with LaCAM.
    Mapf(mapf::MapfArgs),
    /// Play a League of Robot Runners problem (lifelong, with rotation); write its result JSON.
    Lifelong(Box<lifelong::LifelongArgs>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Simulate {
            file,
            algo,
            ticks,
            trace,
            planner_memory,
            plan_budget,
            crowd,
            crowd_budget,
            rotation,
        } => {
            let budgets = simulate::BudgetFlags {
                planner_memory,
                plan_budget,
                crowd,
                crowd_budget: crowd_budget.map(|b| b as usize),
                rotation,
            };
            simulate::run(&file, algo, ticks, trace, budgets)
        }
        Command::Movingai { map, scen, algo } => movingai::run(&map, &scen, algo),
        Command::Gppc { scen, map, algo } => gppc::run(&scen, map.as_deref(), algo),
        Command::Navigate {
            map,
            scen,
            sensor,
            algo,
            limit,
        } => navigate::run(&map, &scen, sensor, algo, limit),
        Command::Mapf(args) => mapf::run(&args),
        Command::Lifelong(args) => lifelong::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("gridwalk-cli: {message}");
            ExitCode::from(2)
        }
    }
}
