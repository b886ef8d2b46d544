//! Workload `living_512`: 5,000 wandering agents with fully random goals (destinations 0) on
//! the 512×512 Moving AI map `64room_000`, within the game's default budgets (2 GiB of planner
//! memory, 100,000 expansions a tick): the planners' memory against the budget, how long it
//! takes until every agent has had a plan once, and the core tick once those first plans are
//! done (issue 17). Included by `compare.rs`.

use std::time::Instant;

use gridwalk_core::Pos;
use gridwalk_core::sim::{AgentStatus, Budget, OnArrival, SimConfig, Simulation};

use super::random_reachable_pairs;
use super::{Config, Goal, Report, Samples, Series, load_movingai, movingai_dir};
use gridwalk_core::Terrain;
use gridwalk_core::rng::{SeedableRng, SplitMix64};

/// The game's expansions per tick (`GAME_PLAN_BUDGET` in the game's `src/sim/state.rs`).
const PLAN_BUDGET: u64 = 100_000;

/// 5,000 agents (500 with `--quick`) on 64room_000 with random reachable goals, wandering on
/// arrival. Ticks until every agent has had a plan at least once (at most 3,000 ticks, 300
/// with `--quick`), then times 100 more ticks (20 with `--quick`).
pub fn living_512(cfg: &Config) -> Result<Report, String> {
    let agents = cfg.pick(5000, 500);
    let (grid, _) = load_movingai(&movingai_dir(), "64room_000")?;
    let mut sim = Simulation::new(grid.clone(), SimConfig::default());
    let budget = Budget {
        plan_expansions: Some(PLAN_BUDGET),
        ..Budget::default()
    };
    sim.set_budget(budget);
    let mut rng = SplitMix64::seed_from_u64(512);
    for (s, g) in random_reachable_pairs(&grid, agents, &mut rng) {
        sim.add_agent_with(s, g, OnArrival::Wander)
            .map_err(|e| e.to_string())?;
    }
    let no_edits: [(Pos, Terrain); 0] = [];
    let mut planned = vec![false; agents];
    let mut max_bytes = 0;
    let cap = cfg.pick(3000, 300);
    let t = Instant::now();
    sim.replan();
    let mut first_ticks = 0;
    loop {
        max_bytes = max_bytes.max(sim.planner_memory());
        for (seen, a) in planned.iter_mut().zip(sim.agents()) {
            *seen |= a.status != AgentStatus::Planning;
        }
        if planned.iter().all(|&p| p) || first_ticks >= cap {
            break;
        }
        sim.tick(&no_edits);
        if sim.last_stats().search.expanded > PLAN_BUDGET {
            return Err(format!(
                "a tick expanded {} cells, past the budget of {PLAN_BUDGET}",
                sim.last_stats().search.expanded
            ));
        }
        first_ticks += 1;
    }
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    let done = planned.iter().all(|&p| p);
    let ticks = cfg.pick(100, 20);
    let e0 = sim.total_stats().search.expanded;
    let mut backlog = 0;
    let times = super::timed_ticks(&mut sim, ticks, |sim| {
        max_bytes = max_bytes.max(sim.planner_memory());
        backlog = backlog.max(sim.backlog());
    });
    if max_bytes > budget.planner_memory * 5 / 4 {
        return Err(format!(
            "the planners held {max_bytes} bytes, past the budget of {}",
            budget.planner_memory
        ));
    }
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    let name = "5,000 wanderers on 64room_000, default budgets";
    let mut report = Report::new("living 512×512 (64room_000, destinations 0, budgets)");
    let samples = Samples { samples: times };
    let p95_ms = samples.p95().as_secs_f64() * 1e3;
    report.series.push(Series::new(
        name,
        samples,
        Some(sim.total_stats().search.expanded - e0),
    ));
    report.ratio("planner_mib_max", mib(max_bytes), name, None);
    let within = max_bytes as f64 / budget.planner_memory as f64;
    report.ratio("memory_of_budget", within, name, Some(Goal::AtMost(1.0)));
    report.ratio("first_plans_ms", first_ms, name, None);
    report.ratio("first_plans_ticks", first_ticks as f64, name, None);
    report.ratio("tick_p95_ms", p95_ms, name, Some(Goal::AtMost(200.0)));
    report.ratio("backlog_max", backlog as f64, name, None);
    report.ratio(
        "planners_dropped",
        sim.planners_dropped() as f64,
        name,
        None,
    );
    report.notes.push(format!(
        "{agents} agents with random reachable goals on 512×512, wander on arrival, budgets 2G and {PLAN_BUDGET} expansions a tick; every agent had a plan once after {first_ticks} ticks ({first_ms:.0} ms){}; then {ticks} timed ticks, at most {backlog} agents waiting; {} planners dropped to keep the memory budget",
        if done { "" } else { " — NOT all: the tick cap was reached" },
        sim.planners_dropped(),
    ));
    Ok(report)
}
