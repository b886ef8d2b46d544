//! Workload `crowd`: the simulation's crowd mode (one agent a cell, moved by the crowd's step
//! rule, [`gridwalk_core::crowd`]) on the MAPF benchmark's maps and a 512×512 Moving AI map
//! (issue 27). Included by `compare.rs`.
//!
//! - *One-shot*: agents that stay on arrival, from a scenario's first N rows (on the 512×512
//!   map, seeded random distinct cells), until every agent stands on its goal or a tick limit
//!   passes; success, soc/lb and makespan/lb in timesteps as `mapf/` counts them (soc: per
//!   agent the first timestep from which it stays on its goal; lb: its breadth-first distance),
//!   and ms a tick. LaCAM (`mapf/`) on the same instance beside it.
//! - *Lifelong*: wanderers with 100 shared destinations; arrivals a tick and ms a tick after the
//!   planners' first computes.
//! - *The step rule alone*: `crowd_step_10000_ms`, the step rule's own time a tick (each
//!   agent's planner looked up, priorities sorted,
//!   [`StepRule::step`](gridwalk_core::crowd::StepRule::step)) for 10,000 wanderers on 64room_000,
//!   beside the whole tick; and the same step on breadth-first distance tables, outside the
//!   simulation.
//! - *Lifelong LoRR*: `lorr_plan_10000_ms`, the lifelong track's planning a step for the 2023
//!   main round's I-10, 10,000 robots on warehouse_large (`workloads/lorr.rs`).
//! - *The rotation step*: `rotation_step_10000_ms`, [`RotationStep::step`] for 10,000 robots
//!   that turn (LoRR's `MAPF_T`) on the same map and destinations, guided by exact
//!   (cell, facing) tables.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use gridwalk_core::crowd::{Action, Guidance, RotationStep, StepOptions, StepRule};
use gridwalk_core::format::movingai;
use gridwalk_core::mapf::{self, DistanceTables, RotationTables, UNREACHABLE};
use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};
use gridwalk_core::sim::{OnArrival, SimConfig, Simulation};
use gridwalk_core::{Connectivity, Grid, Pos};

use super::{Config, Goal, Report, Samples, Series, components, load_movingai, movingai_dir};

/// The 512×512 map of the lifelong series and of `crowd_step_10000_ms`.
const BIG_MAP: &str = "64room_000";
/// Shared destinations of the lifelong series.
const DESTINATIONS: usize = 100;
/// The goal for `crowd_step_10000_ms`.
const STEP_GOAL_MS: f64 = 5.0;

/// The MAPF benchmark's maps in `tests/data/mapf`.
fn mapf_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/mapf")
}

fn conn_name(conn: Connectivity) -> &'static str {
    match conn {
        Connectivity::Four => "4 moves",
        Connectivity::Eight => "8 moves",
    }
}

/// `n` distinct random cells of `grid`'s largest 4-connected component (reachable with either
/// move rule).
fn random_cells(grid: &Grid, n: usize, rng: &mut SplitMix64) -> Result<Vec<Pos>, String> {
    let comp = components(grid, Connectivity::Four);
    let mut size = std::collections::HashMap::new();
    for &c in comp.iter().filter(|&&c| c != u32::MAX) {
        *size.entry(c).or_insert(0usize) += 1;
    }
    let (&big, &cells) = size
        .iter()
        .max_by_key(|(c, s)| (**s, std::cmp::Reverse(**c)))
        .ok_or("no free cell")?;
    if cells < n {
        return Err(format!("{n} agents do not fit in {cells} cells"));
    }
    let mut open: Vec<usize> = (0..grid.len()).filter(|&i| comp[i] == big).collect();
    // A partial Fisher–Yates shuffle: the first n are the draw.
    for k in 0..n {
        let j = k + rng.below(open.len() - k);
        open.swap(k, j);
    }
    Ok(open[..n].iter().map(|&i| grid.pos(i)).collect())
}

/// What a one-shot run did.
struct OneShot {
    solved: bool,
    soc: u64,
    makespan: u64,
    ticks: u64,
    took: Duration,
}

/// An empty simulation of `grid` in crowd mode.
fn crowd_sim(grid: &Grid, conn: Connectivity) -> Simulation {
    let config = SimConfig {
        connectivity: conn,
        crowd: true,
        ..SimConfig::default()
    };
    Simulation::new(grid.clone(), config)
}

/// Crowd mode with agents that stay, ticked until all stand on their goals or `limit` ticks.
fn one_shot_run(
    grid: &Grid,
    conn: Connectivity,
    starts: &[Pos],
    goals: &[Pos],
    limit: u64,
) -> Result<OneShot, String> {
    let mut sim = crowd_sim(grid, conn);
    for (&s, &g) in starts.iter().zip(goals) {
        sim.add_agent_with(s, g, OnArrival::Stay)
            .map_err(|e| e.to_string())?;
    }
    if sim.agent_count() != starts.len() {
        return Err("an agent waits to enter: the starts are not distinct".into());
    }
    // Per agent (id order = row order): the last timestep it stood off its goal.
    let mut last_off = vec![0u64; starts.len()];
    for (a, (s, g)) in starts.iter().zip(goals).enumerate() {
        last_off[a] = if s == g { 0 } else { 1 };
    }
    let no_edits: [(Pos, gridwalk_core::Terrain); 0] = [];
    let t = Instant::now();
    let mut ticks = 0;
    let mut solved = starts == goals;
    while !solved && ticks < limit {
        sim.tick(&no_edits);
        ticks += 1;
        solved = true;
        for (a, agent) in sim.agents().enumerate() {
            if agent.pos != agent.goal {
                last_off[a] = ticks + 1;
                solved = false;
            }
        }
    }
    let took = t.elapsed();
    // The first timestep from which each agent stays on its goal.
    let arrive = last_off.iter().copied();
    Ok(OneShot {
        solved,
        soc: arrive.clone().sum(),
        makespan: arrive.max().unwrap_or(0),
        ticks,
        took,
    })
}

/// The sum and the largest of the agents' breadth-first distances, `mapf/`'s bounds.
fn lower_bounds(
    grid: &Grid,
    conn: Connectivity,
    starts: &[Pos],
    goals: &[Pos],
) -> Result<(u64, u64), String> {
    let flat = |p: &Pos| grid.index(*p).map(|i| i as u32).map_err(|e| e.to_string());
    let goal_cells = goals.iter().map(flat).collect::<Result<Vec<_>, _>>()?;
    let dist = DistanceTables::new(grid, conn, &goal_cells);
    let (mut sum, mut max) = (0, 0);
    for (a, s) in starts.iter().enumerate() {
        let d = dist.get(a, flat(s)? as usize);
        if d == UNREACHABLE {
            return Err(format!("agent {a} cannot reach its goal"));
        }
        sum += d as u64;
        max = max.max(d as u64);
    }
    Ok((sum, max))
}

/// One map's one-shot series.
fn one_shot(cfg: &Config, report: &mut Report) -> Result<(), String> {
    let small = ["random-32-32-20", "room-32-32-4", "warehouse-10-20-10-2-1"];
    let mut maps = Vec::new();
    for name in small {
        let dir = mapf_dir();
        let grid =
            movingai::load_map(&dir.join(format!("{name}.map"))).map_err(|e| e.to_string())?;
        let scen = movingai::load_scen(&dir.join(format!("{name}-gen-1.scen")))
            .map_err(|e| e.to_string())?;
        let counts = if cfg.quick {
            vec![50]
        } else {
            vec![50, 100, 200, 400]
        };
        let mut sets = Vec::new();
        for n in counts {
            let rows = scen
                .get(..n)
                .ok_or_else(|| format!("{name}: fewer than {n} rows"))?;
            sets.push((
                rows.iter().map(|p| p.start).collect::<Vec<_>>(),
                rows.iter().map(|p| p.goal).collect::<Vec<_>>(),
            ));
        }
        maps.push((name, grid, sets, 2000));
    }
    let (grid, _) = load_movingai(&movingai_dir(), BIG_MAP)?;
    let mut rng = SplitMix64::seed_from_u64(27);
    let mut sets = Vec::new();
    for n in if cfg.quick { vec![50] } else { vec![100, 200] } {
        let cells = random_cells(&grid, 2 * n, &mut rng)?;
        sets.push((cells[..n].to_vec(), cells[n..].to_vec()));
    }
    maps.push((BIG_MAP, grid, sets, 3000));
    let moves: &[Connectivity] = if cfg.quick {
        &[Connectivity::Four]
    } else {
        &[Connectivity::Four, Connectivity::Eight]
    };
    for (name, grid, sets, limit) in &maps {
        for &conn in moves {
            for (starts, goals) in sets {
                let n = starts.len();
                let (soc_lb, makespan_lb) = lower_bounds(grid, conn, starts, goals)?;
                let run = one_shot_run(grid, conn, starts, goals, *limit)?;
                let label = format!("one-shot {name}, {n} agents, {}", conn_name(conn));
                let per_tick = run.took / run.ticks.max(1) as u32;
                report.series.push(Series::new(
                    &label,
                    Samples {
                        samples: vec![per_tick],
                    },
                    None,
                ));
                let key = format!(
                    "{}_{n}_{}",
                    name.split('-').next().unwrap_or(name),
                    if conn == Connectivity::Four { 4 } else { 8 }
                );
                report.ratio(
                    &format!("oneshot_{key}_success"),
                    f64::from(u8::from(run.solved)),
                    &label,
                    None,
                );
                let mut figures = format!("{name}, {n} agents, {}: ", conn_name(conn));
                if run.solved {
                    let soc = run.soc as f64 / soc_lb as f64;
                    let mk = run.makespan as f64 / makespan_lb.max(1) as f64;
                    report.ratio(&format!("oneshot_{key}_soc_lb"), soc, &label, None);
                    report.ratio(&format!("oneshot_{key}_makespan_lb"), mk, &label, None);
                    figures += &format!(
                        "crowd mode solved in {} ticks, soc {} (lb {soc_lb}) = {soc:.2}, makespan {} (lb {makespan_lb}) = {mk:.2}, {:.3} ms a tick",
                        run.ticks,
                        run.soc,
                        run.makespan,
                        per_tick.as_secs_f64() * 1e3
                    );
                } else {
                    figures += &format!(
                        "crowd mode NOT solved within {} ticks ({:.3} ms a tick)",
                        run.ticks,
                        per_tick.as_secs_f64() * 1e3
                    );
                }
                if *name != BIG_MAP {
                    // LaCAM beside it (its distance tables would not fit the 512×512 map's agents).
                    let problem =
                        mapf::Problem::new(grid.clone(), conn, starts.clone(), goals.clone())
                            .map_err(|e| e.to_string())?;
                    let options = mapf::Options {
                        time_limit: Duration::from_secs(if cfg.quick { 2 } else { 10 }),
                        ..mapf::Options::default()
                    };
                    let s = mapf::solve(&problem, &options).map_err(|e| e.to_string())?;
                    if s.solved() {
                        figures += &format!(
                            "; LaCAM soc/lb {:.2}, makespan/lb {:.2} in {} ms",
                            s.soc as f64 / s.soc_lb as f64,
                            s.makespan as f64 / s.makespan_lb.max(1) as f64,
                            s.millis
                        );
                    } else {
                        figures += &format!("; LaCAM unsolved after {} ms", s.millis);
                    }
                }
                report.notes.push(figures);
            }
        }
    }
    Ok(())
}

/// A crowd-mode simulation of `n` wanderers on `grid` with `k` shared destinations, their
/// first goals drawn among them.
fn wanderers(
    grid: &Grid,
    conn: Connectivity,
    n: usize,
    k: usize,
    seed: u64,
) -> Result<Simulation, String> {
    let mut sim = crowd_sim(grid, conn);
    sim.set_seed(seed);
    sim.set_destinations(k);
    let dest: Vec<Pos> = sim.destination_cells().collect();
    let mut rng = SplitMix64::seed_from_u64(seed);
    for s in random_cells(grid, n, &mut rng)? {
        let g = dest[rng.below(dest.len())];
        sim.add_agent_with(s, g, OnArrival::Wander)
            .map_err(|e| e.to_string())?;
    }
    Ok(sim)
}

/// Lifelong series: `warm` ticks, then `ticks` timed ones. Returns the tick times, the step
/// rule's times, and the arrivals over the timed ticks.
fn lifelong_run(
    sim: &mut Simulation,
    warm: usize,
    ticks: usize,
) -> (Vec<Duration>, Vec<Duration>, u64) {
    let no_edits: [(Pos, gridwalk_core::Terrain); 0] = [];
    for _ in 0..warm {
        sim.tick(&no_edits);
    }
    let before = sim.crowd_stats().map_or(0, |c| c.arrivals_total);
    let mut steps = Vec::with_capacity(ticks);
    let times = super::timed_ticks(sim, ticks, |sim| {
        let nanos = sim.crowd_stats().map_or(0, |c| c.step_nanos);
        steps.push(Duration::from_nanos(nanos));
    });
    let after = sim.crowd_stats().map_or(0, |c| c.arrivals_total);
    (times, steps, after - before)
}

fn lifelong(cfg: &Config, report: &mut Report) -> Result<(), String> {
    let mut maps: Vec<(&str, Grid, Vec<usize>)> = Vec::new();
    for name in ["random-32-32-20", "room-32-32-4", "warehouse-10-20-10-2-1"] {
        let grid = movingai::load_map(&mapf_dir().join(format!("{name}.map")))
            .map_err(|e| e.to_string())?;
        let counts = match (cfg.quick, name.starts_with("warehouse")) {
            (true, _) => vec![100],
            (false, false) => vec![100, 300],
            (false, true) => vec![300, 1000],
        };
        maps.push((name, grid, counts));
    }
    if !cfg.quick {
        let (big, _) = load_movingai(&movingai_dir(), BIG_MAP)?;
        maps.push((BIG_MAP, big, vec![1000]));
    }
    let (warm, ticks) = (cfg.pick(50, 5), cfg.pick(200, 20));
    for (name, grid, counts) in &maps {
        for &n in counts {
            let mut sim = wanderers(grid, Connectivity::Four, n, DESTINATIONS, 27)?;
            let (times, steps, arrivals) = lifelong_run(&mut sim, warm, ticks);
            let label = format!("lifelong {name}, {n} wanderers, 4 moves");
            let step_ms = mean_ms(&steps);
            let short = name.split('-').next().unwrap_or(name);
            report
                .series
                .push(Series::new(&label, Samples { samples: times }, None));
            let throughput = arrivals as f64 / ticks as f64;
            report.ratio(
                &format!("lifelong_{short}_{n}_arrivals_per_tick"),
                throughput,
                &label,
                None,
            );
            report.ratio(
                &format!("lifelong_{short}_{n}_step_ms"),
                step_ms,
                &label,
                None,
            );
        }
    }
    Ok(())
}

fn mean_ms(d: &[Duration]) -> f64 {
    d.iter().sum::<Duration>().as_secs_f64() * 1e3 / d.len().max(1) as f64
}

/// Guidance from one breadth-first table per destination: agent a's is its goal's.
struct ByGoal<'a> {
    tables: &'a DistanceTables,
    goal_of: &'a [usize],
}

impl Guidance for ByGoal<'_> {
    fn distance(&self, a: usize, cell: usize) -> u64 {
        self.tables.distance(self.goal_of[a], cell)
    }

    fn prefetch(&self, a: usize, cell: usize, stage: u8) {
        self.tables.prefetch(self.goal_of[a], cell, stage);
    }
}

/// `crowd_step_10000_ms`: 10,000 wanderers on the 512×512 map in crowd mode, after the
/// planners' first computes; and the step rule on breadth-first tables, outside the simulation.
fn step_10000(cfg: &Config, report: &mut Report) -> Result<(), String> {
    let (grid, _) = load_movingai(&movingai_dir(), BIG_MAP)?;
    let n = 10_000;
    // A quick run plans 10 destinations instead of 100: the first computes take most of its time.
    let k = cfg.pick(DESTINATIONS, 10);
    let mut sim = wanderers(&grid, Connectivity::Four, n, k, 10_000)?;
    let (warm, ticks) = (cfg.pick(20, 2), cfg.pick(100, 5));
    let (times, steps, arrivals) = lifelong_run(&mut sim, warm, ticks);
    let label = format!("lifelong {BIG_MAP}, 10,000 wanderers, 4 moves (whole tick)");
    let step_ms = mean_ms(&steps);
    let tick_ms = mean_ms(&times);
    report
        .series
        .push(Series::new(&label, Samples { samples: times }, None));
    report.ratio(
        "crowd_step_10000_ms",
        step_ms,
        &label,
        Some(Goal::AtMost(STEP_GOAL_MS)),
    );
    report.ratio("crowd_tick_10000_ms", tick_ms, &label, None);
    report.ratio(
        "lifelong_64room_10000_arrivals_per_tick",
        arrivals as f64 / ticks as f64,
        &label,
        None,
    );

    // The same step on distance tables: one breadth-first table per destination.
    let dest: Vec<u32> = sim
        .destination_cells()
        .map(|p| grid.index(p).expect("on the map") as u32)
        .collect();
    let mut rng = SplitMix64::seed_from_u64(10_001);
    let mut cur: Vec<u32> = random_cells(&grid, n, &mut rng)?
        .iter()
        .map(|&p| grid.index(p).expect("on the map") as u32)
        .collect();
    let mut goal_of: Vec<usize> = (0..n).map(|_| rng.below(dest.len())).collect();
    let tables = DistanceTables::new(&grid, Connectivity::Four, &dest);
    let mut crowd = StepRule::new(&grid, Connectivity::Four, StepOptions::default());
    let mut since = vec![0u64; n];
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut samples = Vec::new();
    let mut arrivals = 0u64;
    for _ in 0..cfg.pick(100, 3) {
        let t = Instant::now();
        order.sort_unstable_by_key(|&a| std::cmp::Reverse(since[a as usize]));
        let next = {
            let guide = ByGoal {
                tables: &tables,
                goal_of: &goal_of,
            };
            crowd
                .step(&grid, &cur, &order, None, &guide, &mut rng)
                .map_err(|e| e.to_string())?
                .to_vec()
        };
        samples.push(t.elapsed());
        for a in 0..n {
            cur[a] = next[a];
            since[a] += 1;
            if cur[a] == dest[goal_of[a]] {
                arrivals += 1;
                since[a] = 0;
                goal_of[a] = rng.below(dest.len());
            }
        }
    }
    let label = format!("step rule alone, {BIG_MAP}, 10,000 agents, BFS tables");
    let ms = mean_ms(&samples);
    report
        .series
        .push(Series::new(&label, Samples { samples }, None));
    report.ratio("crowd_step_tables_10000_ms", ms, &label, None);
    report.notes.push(format!(
        "crowd_step_10000_ms: the step rule's own time a tick (the planners looked up, priorities sorted, StepRule::step) for {n} wanderers on {BIG_MAP}, 4 moves, {k} destinations, D* Lite guidance, after {warm} ticks, mean of {ticks}; whole tick {tick_ms:.2} ms; on BFS tables outside the simulation {ms:.2} ms ({arrivals} arrivals)"
    ));
    Ok(())
}

/// `rotation_step_10000_ms`: [`RotationStep::step`] for 10,000 robots that turn, wandering
/// between `k` random destinations of the 512×512 map (a new one on arrival), priorities by
/// steps since the last arrival, on exact (cell, facing) tables made beforehand.
fn rotation_10000(cfg: &Config, report: &mut Report) -> Result<(), String> {
    let (grid, _) = load_movingai(&movingai_dir(), BIG_MAP)?;
    let (n, k) = (10_000, cfg.pick(DESTINATIONS, 10));
    let mut rng = SplitMix64::seed_from_u64(10_002);
    let to_cells = |ps: Vec<Pos>| -> Vec<u32> {
        ps.iter()
            .map(|&p| grid.index(p).expect("on the map") as u32)
            .collect()
    };
    let dest = to_cells(random_cells(&grid, k, &mut rng)?);
    let mut states: Vec<(u32, u8)> = to_cells(random_cells(&grid, n, &mut rng)?)
        .into_iter()
        .map(|c| (c, rng.below(4) as u8))
        .collect();
    let mut tables = RotationTables::new(&grid);
    for &d in &dest {
        tables.ensure(d)?;
    }
    let mut goals: Vec<u32> = (0..n).map(|_| dest[rng.below(k)]).collect();
    let mut rule = RotationStep::new(&grid);
    let mut since = vec![0u64; n];
    let mut order: Vec<u32> = (0..n as u32).collect();
    let (mut samples, mut arrivals) = (Vec::new(), 0u64);
    for _ in 0..cfg.pick(100, 3) {
        let t = Instant::now();
        order.sort_unstable_by_key(|&a| std::cmp::Reverse(since[a as usize]));
        let guidance = tables.guidance(&goals)?;
        let actions = rule
            .step(&grid, &states, &order, &guidance, &mut rng)
            .map_err(|e| e.to_string())?
            .to_vec();
        samples.push(t.elapsed());
        for (a, act) in actions.into_iter().enumerate() {
            states[a] = act.apply(&grid, states[a]).ok_or("a move off the map")?;
            since[a] += u64::from(act != Action::Wait);
            if states[a].0 == goals[a] {
                arrivals += 1;
                since[a] = 0;
                goals[a] = dest[rng.below(k)];
            }
        }
    }
    let label = format!("rotation step, {BIG_MAP}, 10,000 robots, (cell, facing) tables");
    let ms = mean_ms(&samples);
    let steps = samples.len();
    report
        .series
        .push(Series::new(&label, Samples { samples }, None));
    report.ratio("rotation_step_10000_ms", ms, &label, None);
    report.notes.push(format!(
        "rotation_step_10000_ms: RotationStep::step (priorities sorted, guidance gathered, the step) for {n} robots that turn on {BIG_MAP}, {k} destinations, mean of {steps} steps, {arrivals} arrivals; tables {} MB",
        tables.memory_bytes() >> 20
    ));
    Ok(())
}

/// The crowd workload: one-shot, lifelong, and the step rule at 10,000 agents.
pub fn crowd(cfg: &Config) -> Result<Report, String> {
    let mut report = Report::new("crowd");
    // GRIDWALK_CROWD_STEP_ONLY=1 runs the 10,000-agent steps alone (for profiling them).
    let all = std::env::var_os("GRIDWALK_CROWD_STEP_ONLY").is_none();
    if all {
        one_shot(cfg, &mut report)?;
        lifelong(cfg, &mut report)?;
    }
    step_10000(cfg, &mut report)?;
    if all {
        super::lorr::warehouse_10000(cfg.pick(200, 10) as u64, &mut report)?;
    }
    rotation_10000(cfg, &mut report)?;
    report.notes.push(format!(
        "one-shot: agents stay on arrival (D* Lite guidance), first N rows of the -gen-1 scenarios; on {BIG_MAP} seeded random distinct cells; soc and makespan in timesteps over the agents' breadth-first distances, as mapf/ counts them. Lifelong: wanderers with {DESTINATIONS} shared destinations, arrivals a tick over the timed ticks"
    ));
    Ok(report)
}
