//! gridwalk-cli: headless runs of the planner core.
//!
//! - `simulate FILE.ron` plays a scenario and prints one JSON line per tick.
//! - `movingai MAP SCEN` solves every problem of a Moving AI scenario file and compares each
//!   cost with the benchmark's optimal length.
//!
//! Bad input prints `file:line: problem` on stderr and exits with code 2.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use gridwalk_core::Algorithm;
use gridwalk_core::check::{matches_printed, solve};
use gridwalk_core::cost::to_f64;
use gridwalk_core::format::Scenario;
use gridwalk_core::format::movingai::{load_map, load_scen};
use gridwalk_core::replay::{DEFAULT_TICK_LIMIT, Replay};
use gridwalk_core::search::best_first::SearchSpace;

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
        /// dstar-lite, dstar, astar or dijkstra.
        #[arg(long, default_value = "dstar-lite")]
        algo: Algorithm,
        /// Ticks to run after tick 0 (default: until every agent arrives, at most 10,000).
        #[arg(long)]
        ticks: Option<u64>,
        /// Add every search run's expansions to each tick line, as "trace".
        #[arg(long)]
        trace: bool,
    },
    /// Solve every problem of a Moving AI scenario and check the optimal lengths.
    Movingai {
        /// The map (.map).
        map: PathBuf,
        /// The scenarios (.scen).
        scen: PathBuf,
        /// dstar-lite, dstar, astar or dijkstra.
        #[arg(long, default_value = "astar")]
        algo: Algorithm,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Simulate {
            file,
            algo,
            ticks,
            trace,
        } => simulate(&file, algo, ticks, trace),
        Command::Movingai { map, scen, algo } => movingai(&map, &scen, algo),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("gridwalk-cli: {message}");
            ExitCode::from(2)
        }
    }
}

fn simulate(
    file: &Path,
    algo: Algorithm,
    ticks: Option<u64>,
    trace: bool,
) -> Result<ExitCode, String> {
    let scenario = Scenario::load(file).map_err(|e| e.to_string())?;
    let heuristic = scenario.effective_heuristic();
    if !heuristic.is_admissible(scenario.connectivity) {
        eprintln!(
            "gridwalk-cli: warning: {}: the {} heuristic overestimates with {:?} moves; paths may not be optimal",
            file.display(),
            heuristic.name(),
            scenario.connectivity
        );
    }
    let names: Vec<String> = scenario
        .agents
        .iter()
        .map(|a| format!("agent with start {} and goal {}", a.start, a.goal))
        .collect();
    let mut replay = Replay::new(scenario, algo);
    if trace {
        replay = replay.with_trace();
    }
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    let mut reported = 0;
    let mut emit = |replay: &mut Replay, out: &mut BufWriter<_>| -> Result<(), String> {
        let line = replay.step();
        for (i, e) in &replay.rejected[reported..] {
            eprintln!(
                "gridwalk-cli: {}: {} at tick {} could not appear: {e}",
                file.display(),
                names[*i],
                line.tick
            );
        }
        reported = replay.rejected.len();
        writeln!(out, "{}", line.to_json()).map_err(|e| format!("writing output: {e}"))
    };
    emit(&mut replay, &mut out)?;
    match ticks {
        Some(n) => {
            for _ in 0..n {
                emit(&mut replay, &mut out)?;
            }
        }
        None => {
            for _ in 0..DEFAULT_TICK_LIMIT {
                if replay.finished() {
                    break;
                }
                emit(&mut replay, &mut out)?;
            }
        }
    }
    out.flush().map_err(|e| format!("writing output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

fn movingai(map: &Path, scen: &Path, algo: Algorithm) -> Result<ExitCode, String> {
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
