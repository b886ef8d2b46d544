//! `gridwalk-cli simulate FILE.ron`: plays a scenario and prints one JSON line per tick.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use gridwalk_core::format::Scenario;
use gridwalk_core::scenario::replay::{DEFAULT_TICK_LIMIT, Replay};
use gridwalk_core::sim::{MAX_RUN_STEPS, crowd_destinations};
use gridwalk_core::{Algorithm, Connectivity};

use crate::lines::TickLine;

/// The budgets given on the command line (`--planner-memory`, `--plan-budget`): each, when
/// given, replaces the scenario's.
#[derive(Clone, Copy, Debug, Default)]
pub struct BudgetFlags {
    /// Bytes the planners may hold.
    pub planner_memory: Option<usize>,
    /// Expansions per tick.
    pub plan_budget: Option<u64>,
    /// Crowd mode (`--crowd`), whatever the scenario says.
    pub crowd: bool,
    /// Tries a tick of crowd mode's real-time search makes (`--crowd-budget`).
    pub crowd_budget: Option<usize>,
    /// Agents turn (`--rotation`, crowd mode with four moves), whatever the scenario says.
    pub rotation: bool,
}

/// The destinations a crowd's wanderers draw from: the core's crowd-destination rule
/// ([`crowd_destinations`]) for the agents due at tick 0, as the game applies it.
fn crowd_destinations_of(scenario: &Scenario) -> usize {
    let agents = scenario.agents.iter().filter(|a| a.tick == 0).count();
    let grid = &scenario.grid;
    let passable = (0..grid.len()).filter(|&i| grid.weight(i) != 0).count();
    crowd_destinations(scenario.destinations, agents, passable)
}

/// Plays `file` with `algo` for `ticks` ticks after tick 0 (or until every agent arrives, at
/// most [`DEFAULT_TICK_LIMIT`]), printing each tick's line on stdout; `trace` adds every
/// search run's expansions; `budgets` replace the scenario's. Warnings and agents that could
/// not appear go to stderr; an unreadable scenario is an `Err` with its `file:line: problem`.
pub fn run(
    file: &Path,
    algo: Algorithm,
    ticks: Option<u64>,
    trace: bool,
    budgets: BudgetFlags,
) -> Result<ExitCode, String> {
    let mut scenario = match budgets.crowd || budgets.rotation {
        true => Scenario::load_crowd(file),
        false => Scenario::load(file),
    }
    .map_err(|e| e.to_string())?;
    if budgets.rotation {
        if scenario.connectivity != Connectivity::Four {
            return Err(format!(
                "{}: --rotation: agents turn only with four moves, and the scenario has connectivity: {:?}",
                file.display(),
                scenario.connectivity
            ));
        }
        scenario.rotation = true;
    }
    if scenario.crowd {
        scenario.destinations = crowd_destinations_of(&scenario);
    }
    scenario.planner_memory = budgets.planner_memory.or(scenario.planner_memory);
    scenario.plan_budget = budgets.plan_budget.or(scenario.plan_budget);
    scenario.crowd_budget = budgets.crowd_budget.or(scenario.crowd_budget);
    let heuristic = scenario.effective_heuristic();
    if !heuristic.is_admissible(scenario.connectivity) {
        eprintln!(
            "gridwalk-cli: warning: {}: the {} heuristic overestimates with {:?} moves; paths may not be optimal",
            file.display(),
            heuristic.name(),
            scenario.connectivity
        );
    }
    let mut replay = Replay::new(scenario, algo);
    if trace {
        replay = replay.with_trace();
    }
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    let emit = |replay: &mut Replay, out: &mut BufWriter<_>| -> Result<(), String> {
        let tick = replay.step();
        for (i, e) in &tick.applied.rejected {
            let a = &replay.timeline().agents()[*i];
            eprintln!(
                "gridwalk-cli: {}: agent with start {} and goal {} at tick {} could not appear: {e}",
                file.display(),
                a.start,
                a.goal,
                tick.tick
            );
        }
        if !replay.sim().runs_complete() {
            return Err(format!(
                "{}: --trace: the searches of tick {} take more than {MAX_RUN_STEPS} steps to record; trace fewer agents, a smaller map or a planning budget (--plan-budget)",
                file.display(),
                tick.tick
            ));
        }
        let line = TickLine::of(replay, &tick);
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
