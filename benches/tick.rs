//! Workload 5, the plugin's overhead: the `bevy_gridwalk` plugin's `FixedUpdate` tick (the
//! game's tick) in a headless Bevy App against the core's own `Simulation::tick`, on the
//! identical scenario, in the same run.
//!
//! - Map: 110×100, 20 % random walls (seed 42).
//! - Agents: 1,000 (or `--agents N`), spread evenly over 10 random goals (so 10 shared D* Lite planners), each
//!   start drawn until A* finds a path to its goal.
//! - Edits: 5 per tick, alternately a wall on a random ground cell and the removal of a random
//!   wall, so the density stays put. The list is drawn once and fed to both sides: to the core
//!   as `tick(&edits)`, to the game as `TileEdit` messages, the way the mouse sends them.
//! - The App is `MinimalPlugins` + `GridwalkPlugin`, one fixed step per `update()`, on Bevy's
//!   default (multi-threaded) executor, as a game leaves it. The game's tick is timed from a
//!   mark before the tick's first set to one after its last, and each set between marks:
//!   messages, the four sets and the agent entities' sync (their cells, goals and statuses
//!   written back). The marks are exclusive systems, so the instrument hands no task to a
//!   worker thread between the sets. `-- --single-threaded` runs `FixedUpdate` on Bevy's
//!   single-threaded executor instead, as a game may choose.
//!
//! - Held edits are off on the game's side ([`GridwalkSettings::hold_edits`]): an edit of a
//!   cell an agent stands on is refused on both sides.
//! - Retargets: after every tick each arrived agent is sent to the next goal, on the core's
//!   side by `Simulation::set_goal` and on the game's by writing its `Goal`, which the game's
//!   next tick applies (through the same `set_goal`). The core's tick time counts its
//!   `set_goal` calls, so both sides' times hold the same work; finding the arrived agents
//!   is untimed on both.
//! - Budgets: both sides plan without a per-tick limit (the core's default [`Budget`]), so
//!   they do the same work; the game's own default limit would leave agents waiting.
//!
//! Both sides tick in lockstep (alternating which goes first), and after every tick the agents
//! must stand on the same cells: the bench fails loudly if the game's tick ever differs from
//! the core's.
//!
//! `cargo bench -p gridwalk --bench tick` prints a table; `-- --json` prints JSON;
//! `-- --agents N`, `-- --ticks N` and `-- --goals N` change the run (default 1,000 agents,
//! 1,000 ticks, 10 goals); `-- --quick` is CI's smoke run (100 agents, 100 ticks, unless
//! given), which checks the agreement, not the speed; `-- --single-threaded` (above).

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_gridwalk::GridwalkSystems;
use bevy_gridwalk::{
    AgentState, Goal, GridSim, GridwalkPlugin, GridwalkSettings, TickClock, TileEdit,
};
use gridwalk::maps;
use gridwalk_core::format::AgentSpec;
use gridwalk_core::format::Scenario;
use gridwalk_core::rng::Draw;
use gridwalk_core::sim::{AgentStatus, Budget, SimConfig, Simulation};
use gridwalk_core::{Connectivity, Grid, Pos, Terrain};

const EDITS_PER_TICK: usize = 5;

/// The most `ecs_vs_core` may be (issue 34).
const GOAL: f64 = 1.2;

struct Options {
    json: bool,
    single: bool,
    agents: usize,
    ticks: usize,
    goals: usize,
}

fn options() -> Options {
    let (mut agents, mut ticks, mut goals) = (None, None, 10);
    let (mut json, mut quick, mut single) = (false, false, false);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--json" => json = true,
            "--quick" => quick = true,
            "--single-threaded" => single = true,
            "--agents" | "--ticks" | "--goals" => {
                let v = args.get(i + 1).and_then(|v| v.parse::<usize>().ok());
                let Some(v) = v.filter(|&v| v > 0) else {
                    eprintln!("tick bench: {} needs a whole number > 0", args[i]);
                    std::process::exit(2);
                };
                match args[i].as_str() {
                    "--agents" => agents = Some(v),
                    "--ticks" => ticks = Some(v),
                    _ => goals = v,
                }
                i += 1;
            }
            // `cargo bench` passes --bench; anything else is ignored the same way.
            _ => {}
        }
        i += 1;
    }
    let default = if quick { 100 } else { 1000 };
    Options {
        json,
        single,
        agents: agents.unwrap_or(default),
        ticks: ticks.unwrap_or(default),
        goals,
    }
}

/// `ticks` lists of edits: alternately a wall on a ground cell and a wall removed, drawn on a
/// shadow copy of the map so every edit changes its cell (unless an agent refuses it).
fn edit_script(grid: &Grid, ticks: usize, r: &mut maps::MapRng) -> Vec<Vec<(Pos, Terrain)>> {
    let mut shadow = grid.clone();
    let mut walls: Vec<Pos> = (0..grid.len())
        .filter(|&i| grid.weight(i) == 0)
        .map(|i| grid.pos(i))
        .collect();
    let mut out = Vec::with_capacity(ticks);
    for t in 0..ticks {
        let mut edits = Vec::with_capacity(EDITS_PER_TICK);
        for k in 0..EDITS_PER_TICK {
            if (t * EDITS_PER_TICK + k).is_multiple_of(2) || walls.is_empty() {
                let p = maps::random_free_cell(&shadow, r).expect("ground left");
                shadow.set(p, Terrain::Wall).expect("in range");
                walls.push(p);
                edits.push((p, Terrain::Wall));
            } else {
                let i = r.below(walls.len());
                let p = walls.swap_remove(i);
                shadow.set(p, Terrain::FREE).expect("in range");
                edits.push((p, Terrain::FREE));
            }
        }
        out.push(edits);
    }
    out
}

/// Sends every arrived agent to the next goal of `goals` after its own that accepts it.
/// Returns how many, and how long the new goals took to set: the share of the work the
/// game's tick does for it (finding the arrived agents is the game's, on both sides).
fn retarget(sim: &mut Simulation, goals: &[Pos]) -> (usize, Duration) {
    let arrived: Vec<(u32, Pos)> = sim
        .agents()
        .filter(|a| a.status == AgentStatus::Arrived)
        .map(|a| (a.id, a.goal))
        .collect();
    let n = arrived.len();
    let started = Instant::now();
    for (id, g) in arrived {
        let i = goals.iter().position(|&x| x == g).unwrap_or(0);
        for k in 1..=goals.len() {
            if sim.set_goal(id, goals[(i + k) % goals.len()]).is_ok() {
                break;
            }
        }
    }
    (n, started.elapsed())
}

/// [`retarget`] on the plugin's side, the way a game does it: each arrived agent's entity
/// gets the next open goal as its [`Goal`], which the next tick applies.
fn retarget_entities(app: &mut App, goals: &[Pos]) {
    let world = app.world_mut();
    let grid = world.resource::<GridSim>().sim().grid().clone();
    let mut q = world.query::<(&AgentState, &mut Goal)>();
    for (state, mut goal) in q.iter_mut(world) {
        if state.0 != AgentStatus::Arrived {
            continue;
        }
        let i = goals.iter().position(|&x| x == goal.0).unwrap_or(0);
        let next = (1..=goals.len()).map(|k| goals[(i + k) % goals.len()]);
        if let Some(g) = next.into_iter().find(|&g| grid.is_passable(g)) {
            goal.0 = g;
        }
    }
}

/// The game's tick's sets, in order, as the table names them.
const SETS: [&str; 4] = ["Gather", "ApplyEdits", "Step", "Sync"];

/// When the current `FixedUpdate` run started and left each of the tick's sets, and how long
/// the last run and each of its sets took.
#[derive(Resource, Default)]
struct FixedTimer {
    marks: Vec<Instant>,
    last: Duration,
    sets: [Duration; 4],
}

// The marks are exclusive systems: they run on the thread that runs the schedule, so the
// instrument adds no task of its own between the plugin's sets (a plain system would, on a
// multi-threaded executor, each a hand-off to a worker thread and back, inside the time).
fn fixed_start(world: &mut World) {
    let mut t = world.resource_mut::<FixedTimer>();
    t.marks.clear();
    t.marks.push(Instant::now());
}

fn set_end(world: &mut World) {
    world
        .resource_mut::<FixedTimer>()
        .marks
        .push(Instant::now());
}

fn fixed_end(world: &mut World) {
    let mut t = world.resource_mut::<FixedTimer>();
    t.marks.push(Instant::now());
    if let [start, .., end] = t.marks[..] {
        t.last = end - start;
    }
    if t.marks.len() == SETS.len() + 1 {
        t.sets = std::array::from_fn(|i| t.marks[i + 1] - t.marks[i]);
    }
}

fn percentile(sorted: &[Duration], q: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i].as_secs_f64() * 1e6
}

fn main() {
    let o = options();
    let grid = maps::random_grid(110, 100, 0.2, 42);
    let mut r = maps::rng(7);
    let agents = maps::random_agents(&grid, o.agents, o.goals, Connectivity::Eight, true, &mut r);
    assert_eq!(agents.len(), o.agents, "every agent found a start");
    let script = edit_script(&grid, o.ticks, &mut r);
    let mut goals: Vec<Pos> = agents.iter().map(|a| a.1).collect();
    goals.sort();
    goals.dedup();
    let config = SimConfig::default();

    // The core: tick 0 plans, then each tick applies its edits, repairs and moves.
    let mut core = Simulation::new(grid.clone(), config);
    for &(s, g) in &agents {
        core.add_agent(s, g).expect("valid agent");
    }
    core.replan();

    // The game's side: the same world through the plugin, one fixed step per update.
    let mut scenario = Scenario::from_grid(grid.clone());
    scenario.agents = (agents.iter())
        .map(|&(s, g)| AgentSpec::new(s, g))
        .collect();
    let settings = GridwalkSettings {
        algorithm: config.algorithm,
        measure_baseline: config.measure_baseline,
        budget: Budget::default(),
        // The core refuses an edit of a cell an agent stands on; so does the game's side.
        hold_edits: false,
        ..GridwalkSettings::of_scenario(&scenario)
    };
    assert_eq!(settings.config(), config, "the same planner and moves");
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(GridwalkPlugin::from_scenario(scenario).with_settings(settings))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        // Every update is one tick: `Time<Fixed>` at the plugin's rate.
        .insert_resource(Time::<Fixed>::from_hz(TickClock::DEFAULT_RATE))
        .init_resource::<FixedTimer>()
        .add_systems(
            FixedUpdate,
            (
                fixed_start.before(GridwalkSystems::Gather),
                set_end
                    .after(GridwalkSystems::Gather)
                    .before(GridwalkSystems::ApplyEdits),
                set_end
                    .after(GridwalkSystems::ApplyEdits)
                    .before(GridwalkSystems::Step),
                set_end
                    .after(GridwalkSystems::Step)
                    .before(GridwalkSystems::Sync),
                fixed_end.after(GridwalkSystems::Sync),
            ),
        );
    if o.single {
        app.edit_schedule(FixedUpdate, |s| {
            s.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
        });
    }
    // The first update only starts the clocks.
    app.update();
    assert_eq!(app.world().resource::<GridSim>().ticks(), 0);

    let positions = |sim: &Simulation| -> Vec<Pos> { sim.agents().map(|a| a.pos).collect() };
    assert_eq!(
        positions(&core),
        positions(app.world().resource::<GridSim>().sim())
    );

    let mut t_core = Vec::with_capacity(o.ticks);
    let mut t_ecs = Vec::with_capacity(o.ticks);
    let mut t_frame = Vec::with_capacity(o.ticks);
    let mut t_sets: [Vec<Duration>; 4] = Default::default();
    let mut expanded = 0u64;
    let mut retargeted = 0usize;
    let started = Instant::now();
    for (tick, edits) in script.iter().enumerate() {
        // Arrived agents head for the next open goal, on both sides, as in the core's
        // shared-goals workload: everyone keeps walking. The game's tick sets the new goals
        // (its `Goal` components changed), so the core's time counts setting them too.
        let (n, set_goals) = retarget(&mut core, &goals);
        retargeted += n;
        retarget_entities(&mut app, &goals);
        let run_core = |core: &mut Simulation, t: &mut Vec<Duration>| {
            let s = Instant::now();
            let report = core.tick(edits);
            t.push(s.elapsed() + set_goals);
            report.stats.search.expanded
        };
        let mut run_ecs = |app: &mut App, t: &mut Vec<Duration>, frame: &mut Vec<Duration>| {
            for &(pos, terrain) in edits {
                app.world_mut().write_message(TileEdit { pos, terrain });
            }
            let s = Instant::now();
            app.update();
            frame.push(s.elapsed());
            let timer = app.world().resource::<FixedTimer>();
            t.push(timer.last);
            for (set, &d) in t_sets.iter_mut().zip(&timer.sets) {
                set.push(d);
            }
        };
        if tick % 2 == 0 {
            expanded += run_core(&mut core, &mut t_core);
            run_ecs(&mut app, &mut t_ecs, &mut t_frame);
        } else {
            run_ecs(&mut app, &mut t_ecs, &mut t_frame);
            expanded += run_core(&mut core, &mut t_core);
        }
        let game = app.world().resource::<GridSim>();
        assert_eq!(game.ticks(), tick as u64 + 1, "one tick per update");
        assert_eq!(
            positions(&core),
            positions(game.sim()),
            "the game and the core differ after tick {}",
            tick + 1
        );
    }
    let wall = started.elapsed();

    t_core.sort();
    t_ecs.sort();
    t_frame.sort();
    let set_medians: Vec<f64> = (t_sets.iter_mut())
        .map(|v| {
            v.sort();
            percentile(v, 0.5)
        })
        .collect();
    let stat = |v: &[Duration]| (percentile(v, 0.5), percentile(v, 0.95));
    let (core_med, core_p95) = stat(&t_core);
    let (ecs_med, ecs_p95) = stat(&t_ecs);
    let (frame_med, frame_p95) = stat(&t_frame);
    let ratio = ecs_med / core_med;
    let frame_ratio = frame_med / core_med;
    let met = ratio <= GOAL;
    let executor = if o.single {
        "single-threaded"
    } else {
        "multi-threaded"
    };
    if o.json {
        println!(
            "{{\"workload\":\"game_tick\",\"executor\":\"{executor}\",\"agents\":{},\"goals\":{},\
             \"edits_per_tick\":{EDITS_PER_TICK},\"ticks\":{},\
             \"core_tick_us\":{{\"median\":{core_med:.1},\"p95\":{core_p95:.1}}},\
             \"ecs_tick_us\":{{\"median\":{ecs_med:.1},\"p95\":{ecs_p95:.1}}},\
             \"app_update_us\":{{\"median\":{frame_med:.1},\"p95\":{frame_p95:.1}}},\
             \"ecs_vs_core\":{ratio:.3},\"app_update_vs_core\":{frame_ratio:.3},\
             \"sets_median_us\":{{{}}},\
             \"goal\":{GOAL},\"met\":{met},\"expanded\":{expanded},\"retargeted\":{retargeted}}}",
            o.agents,
            o.goals,
            o.ticks,
            (SETS.iter().zip(&set_medians))
                .map(|(name, m)| format!("\"{name}\":{m:.1}"))
                .collect::<Vec<_>>()
                .join(",")
        );
    } else {
        println!(
            "## game tick: {} agents over {} goals, {EDITS_PER_TICK} wall edits per tick, {} ticks, \
             `FixedUpdate` {executor}\n",
            o.agents, o.goals, o.ticks
        );
        println!("| tick | median µs | p95 µs |");
        println!("|---|---:|---:|");
        println!("| core `Simulation::tick` | {core_med:.1} | {core_p95:.1} |");
        println!("| game `FixedUpdate` tick, in a headless App | {ecs_med:.1} | {ecs_p95:.1} |");
        println!("| whole `App::update()` around it | {frame_med:.1} | {frame_p95:.1} |");
        println!();
        let sets: Vec<String> = (SETS.iter().zip(&set_medians))
            .map(|(name, m)| format!("{name} {m:.1}"))
            .collect();
        println!("the game's tick by set, median µs: {}", sets.join(", "));
        println!();
        println!(
            "ecs_vs_core = {ratio:.3} (goal ≤ {GOAL}: {}); app_update_vs_core = {frame_ratio:.3}",
            if met { "met" } else { "MISSED" }
        );
        println!(
            "identical agents on both sides after every tick; {expanded} cells expanded, \
             {retargeted} arrivals sent on to the next goal; {:.1} s",
            wall.as_secs_f64()
        );
    }
}
