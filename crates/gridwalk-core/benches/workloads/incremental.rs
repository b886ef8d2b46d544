//! Workloads 2, 3, 4 and 6: repair against replanning, shared goals, the queue table, and
//! scale (in `scale.rs`). Included by `compare.rs`, whose harness types they use.

use std::time::{Duration, Instant};

use gridwalk_core::cost::INFINITY;
use gridwalk_core::planner::{CellInfo, GoalPlanner};
use gridwalk_core::queue::{BucketedHeap, CellQueue, IndexedHeap, LazyHeap, SortedList};
use gridwalk_core::search::dstar::DStar;
use gridwalk_core::search::dstar_lite::{DStarLite, DStarLiteTowardStarts, Key};
use gridwalk_core::search::{SearchRequest, SearchSpace};
use gridwalk_core::sim::{SimConfig, Simulation};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain, new_planner};

use super::{Config, Goal, Report, Samples, Series, components, load_movingai, movingai_dir};
use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};

#[path = "scale.rs"]
mod scale;
pub use scale::scale;

const CONN: Connectivity = Connectivity::Eight;
const H: Heuristic = Heuristic::Octile;

/// The experimental series: D* Lite with plateau ties toward the agent
/// ([`DStarLiteTowardStarts`]).
/// It repairs the same events as the others (the agent follows the first runner's path).
const TIES_SERIES: &str = "D* Lite repair, ties toward the agent (experimental)";

fn ties_runner(g: &Grid, goal: Pos) -> Runner<'static> {
    runner(
        TIES_SERIES,
        Box::new(DStarLiteTowardStarts::with_queue(g, goal, CONN, H).expect("goal on map")),
    )
}

/// Where a walk's walls land on the agent's remaining path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Land {
    /// Anywhere between the agent and the goal.
    Anywhere,
    /// Within this many steps ahead of the agent, as a robot's sensor would discover them.
    Near(usize),
}

/// One agent walking from `start` to `goal` while walls land on its path: the event stream
/// shared by workloads 2, 4 and 6. Each tick is one edit, then every planner repairs.
struct Walk {
    grid: Grid,
    rng: SplitMix64,
    /// Cells of the largest component: where episodes start and end.
    open: Vec<usize>,
    start: Pos,
    goal: Pos,
    agent: Pos,
    walls: Vec<Pos>,
    land: Land,
    /// Where the last wall landed, as a fraction of the remaining path from the agent (0) to
    /// the goal (1); `None` when the last edit removed a wall or there was none.
    landed_at: Option<f64>,
}

impl Walk {
    fn new(grid: Grid, seed: u64) -> Walk {
        Walk::landing(grid, seed, Land::Anywhere)
    }

    fn landing(grid: Grid, seed: u64, land: Land) -> Walk {
        let comp = components(&grid, CONN);
        let mut sizes = std::collections::HashMap::new();
        for &c in comp.iter().filter(|&&c| c != u32::MAX) {
            *sizes.entry(c).or_insert(0usize) += 1;
        }
        let (&big, _) = sizes
            .iter()
            .max_by_key(|&(c, n)| (*n, *c))
            .expect("some ground");
        let open = (0..grid.len()).filter(|&i| comp[i] == big).collect();
        let mut w = Walk {
            grid,
            rng: SplitMix64::seed_from_u64(seed),
            open,
            start: Pos::new(0, 0),
            goal: Pos::new(0, 0),
            agent: Pos::new(0, 0),
            walls: Vec::new(),
            land,
            landed_at: None,
        };
        w.new_episode();
        w
    }

    /// A fresh far pair: the start in the left fifth, the goal in the right fifth.
    fn new_episode(&mut self) {
        for &p in &self.walls {
            self.grid.set(p, Terrain::FREE).expect("on the grid");
        }
        self.walls.clear();
        let w = self.grid.width();
        let pick = |rng: &mut SplitMix64, open: &[usize], grid: &Grid, left: bool| loop {
            let p = grid.pos(open[rng.below(open.len())]);
            if (left && p.x < w / 5) || (!left && p.x >= w - w / 5) {
                return p;
            }
        };
        self.start = pick(&mut self.rng, &self.open, &self.grid, true);
        self.goal = pick(&mut self.rng, &self.open, &self.grid, false);
        self.agent = self.start;
    }

    /// The tick's edit: a wall on a random cell of `path` ahead of the agent (two thirds of
    /// the time; where, by [`Land`]), or the removal of an earlier wall. Returns the changed
    /// cell.
    fn edit(&mut self, path: &[Pos]) -> Option<usize> {
        self.landed_at = None;
        let remove = !self.walls.is_empty() && (path.len() < 3 || self.rng.chance(1.0 / 3.0));
        let (p, t) = if remove {
            let i = self.rng.below(self.walls.len());
            (self.walls.swap_remove(i), Terrain::FREE)
        } else {
            if path.len() < 3 {
                return None;
            }
            // Never the agent's cell (path[0]) nor the goal (last).
            let ahead = match self.land {
                Land::Anywhere => path.len() - 2,
                Land::Near(steps) => steps.min(path.len() - 2),
            };
            let i = 1 + self.rng.below(ahead);
            self.landed_at = Some((i - 1) as f64 / (path.len() - 2) as f64);
            self.walls.push(path[i]);
            (path[i], Terrain::Wall)
        };
        self.grid.set(p, t).expect("on the grid");
        Some(self.grid.index(p).expect("on the grid"))
    }
}

/// A planner under test in a walk: named, timed, and counted.
struct Runner<'a> {
    name: String,
    planner: Box<dyn GoalPlanner + 'a>,
    times: Vec<Duration>,
    expanded: u64,
}

/// D\* Lite as the factory makes a lone planner, its store chosen by size (flat on every map
/// of these workloads).
fn lite(g: &Grid, goal: Pos) -> Box<dyn GoalPlanner> {
    new_planner(Algorithm::DStarLite, g, goal, CONN, H).expect("goal on map")
}

fn runner(name: &str, planner: Box<dyn GoalPlanner>) -> Runner<'static> {
    Runner {
        name: name.to_owned(),
        planner,
        times: Vec::new(),
        expanded: 0,
    }
}

/// Plays `ticks` ticks of a walk. Every tick: one edit on the first runner's path, then each
/// runner repairs (timed, their order alternating), then, when `astar` is set, our A* plans
/// from scratch (timed). All costs must agree with the first runner's. The agent then steps
/// along the first runner's path; a finished or cut-off episode starts a new one (untimed).
fn walk(
    walk: &mut Walk,
    ticks: usize,
    make: &dyn Fn(&Grid, Pos) -> Vec<Runner<'static>>,
    astar: bool,
) -> Result<WalkRun, String> {
    let mut space = SearchSpace::new();
    let mut landed = Vec::new();
    let mut astar_times = Vec::new();
    let mut astar_expanded = 0;
    let mut runners: Vec<Runner> = Vec::new();
    let mut fresh = true;
    let mut memory = Vec::new();
    let mut tick = 0;
    while tick < ticks {
        if fresh {
            walk.new_episode();
            runners = make(&walk.grid, walk.goal)
                .into_iter()
                .zip(
                    std::mem::take(&mut runners)
                        .into_iter()
                        .map(Some)
                        .chain(std::iter::repeat_with(|| None)),
                )
                .map(|(mut new, old)| {
                    if let Some(old) = old {
                        new.times = old.times;
                        new.expanded = old.expanded;
                    }
                    new
                })
                .collect();
            let s = walk.grid.index(walk.agent).expect("on the grid");
            for r in &mut runners {
                r.planner.set_starts(&walk.grid, &[s]);
                r.planner.compute(&walk.grid);
            }
            fresh = false;
        }
        let s = walk.grid.index(walk.agent).expect("on the grid");
        let path = runners[0]
            .planner
            .path(&walk.grid, s)
            .map(|p| p.cells)
            .unwrap_or_default();
        let changed: Vec<usize> = walk.edit(&path).into_iter().collect();
        landed.push(walk.landed_at);
        let n = runners.len();
        for j in 0..n {
            let r = &mut runners[if tick % 2 == 0 { j } else { n - 1 - j }];
            let t = Instant::now();
            r.planner.set_starts(&walk.grid, &[s]);
            r.planner.cells_changed(&walk.grid, &changed);
            let st = r.planner.compute(&walk.grid);
            r.times.push(t.elapsed());
            r.expanded += st.expanded;
        }
        let cost = runners[0].planner.cost_to_goal(s);
        for r in &runners[1..] {
            if r.planner.cost_to_goal(s) != cost {
                return Err(format!(
                    "tick {tick}: {} cost {} differs from {} cost {cost}",
                    r.name,
                    r.planner.cost_to_goal(s),
                    runners[0].name
                ));
            }
        }
        if astar {
            let t = Instant::now();
            let req = SearchRequest::astar(walk.agent, walk.goal, CONN, H);
            let res = space
                .search(&walk.grid, &req, None)
                .map_err(|e| e.to_string())?;
            astar_times.push(t.elapsed());
            astar_expanded += res.stats.expanded;
            let c = res.path.map_or(INFINITY, |p| p.cost);
            if c != cost {
                return Err(format!(
                    "tick {tick}: A* cost {c} differs from {} cost {cost}",
                    runners[0].name
                ));
            }
        }
        tick += 1;
        memory.push(runners[0].planner.memory_bytes());
        match runners[0].planner.next_step(&walk.grid, s) {
            Some(next) => {
                walk.agent = walk.grid.pos(next);
                if walk.agent == walk.goal {
                    fresh = true;
                }
            }
            None => fresh = true,
        }
    }
    let astar_series = Series::new(
        "A* from scratch".to_owned(),
        Samples {
            samples: astar_times,
        },
        Some(astar_expanded),
    );
    Ok(WalkRun {
        runners,
        astar: astar_series,
        memory,
        landed,
    })
}

/// What [`walk`] measured: per runner and for A*, one time per tick; the planner's memory and
/// where the wall landed ([`Walk::landed_at`]) per tick.
struct WalkRun {
    runners: Vec<Runner<'static>>,
    astar: Series,
    memory: Vec<usize>,
    landed: Vec<Option<f64>>,
}

fn series(r: &Runner) -> Series {
    Series::new(
        r.name.clone(),
        Samples {
            samples: r.times.clone(),
        },
        Some(r.expanded),
    )
}

/// The ratio of two series' total expansions, `num / den`, shown on `num`'s row.
fn expansion_ratio(report: &mut Report, name: &str, num: &str, den: &str) {
    let e = |n: &str| report.series(n).expansions.unwrap_or(0) as f64;
    let value = e(num) / e(den).max(1.0);
    report.ratio(name, value, num, None);
}

/// The walk of workload 2 and how many ticks it plays: 110×100 with 20 % walls, walls landing
/// anywhere on the path.
fn repair_walk(cfg: &Config) -> (usize, Walk) {
    let mut rng = SplitMix64::seed_from_u64(2);
    let grid = Grid::random(110, 100, 0.2, &mut rng).expect("valid size");
    (cfg.pick(2000, 200), Walk::new(grid, 3))
}

/// Workload 2: D* Lite's and D*'s repairs against our A* from scratch, an agent crossing a
/// 110×100 map with 20 % walls while walls land on its path or are removed.
pub fn repair_vs_replan(cfg: &Config) -> Result<Report, String> {
    let (ticks, mut w) = repair_walk(cfg);
    let make = |g: &Grid, goal: Pos| {
        vec![
            runner("D* Lite repair", lite(g, goal)),
            runner(
                "D* repair",
                Box::new(DStar::new(g, goal, CONN).expect("goal on map")),
            ),
            ties_runner(g, goal),
        ]
    };
    let run = walk(&mut w, ticks, &make, true)?;
    let mut report = Report::new("repair vs replan (110×100, 20 % walls)");
    for r in &run.runners {
        report.series.push(series(r));
    }
    report.series.push(run.astar.clone());
    report.median_ratio(
        "dlite_vs_astar",
        "D* Lite repair",
        "A* from scratch",
        Some(Goal::AtMost(0.25)),
    );
    // The same ticks by where the wall landed, from the agent (0 %) to the goal (100 %).
    for q in 0..4 {
        let inside = |f: &Option<f64>| {
            f.is_some_and(|f| f >= q as f64 / 4.0 && (f < (q + 1) as f64 / 4.0 || q == 3))
        };
        let pick = |samples: &[Duration]| Samples {
            samples: samples
                .iter()
                .zip(&run.landed)
                .filter(|(_, f)| inside(f))
                .map(|(&t, _)| t)
                .collect(),
        };
        let range = format!("{}–{} %", q * 25, (q + 1) * 25);
        let dlite = format!("D* Lite, wall at {range}");
        let astar = format!("A*, wall at {range}");
        report.series.push(Series::new(
            dlite.clone(),
            pick(&run.runners[0].times),
            None,
        ));
        report.series.push(Series::new(
            astar.clone(),
            pick(&run.astar.samples.samples),
            None,
        ));
        report.median_ratio(&format!("dlite_vs_astar_q{}", q + 1), &dlite, &astar, None);
    }
    expansion_ratio(
        &mut report,
        "dlite_vs_astar_expansions",
        "D* Lite repair",
        "A* from scratch",
    );
    report.median_ratio("dstar_vs_astar", "D* repair", "A* from scratch", None);
    report.median_ratio("dlite_ties_vs_astar", TIES_SERIES, "A* from scratch", None);
    expansion_ratio(
        &mut report,
        "dlite_ties_vs_dlite_expansions",
        TIES_SERIES,
        "D* Lite repair",
    );
    expansion_ratio(
        &mut report,
        "dstar_vs_astar_expansions",
        "D* repair",
        "A* from scratch",
    );
    report.notes.push(format!(
        "{ticks} ticks; each: one wall on a random cell of the remaining path (2/3) or an earlier wall removed (1/3); costs of all four checked equal every tick; the experimental series repairs the same events (the agent follows the default D* Lite)"
    ));
    Ok(report)
}

/// Workload 2, D\* Lite alone: the same walk with only D\* Lite and A\* in the loop, so that
/// no other planner's memory traffic lands between their ticks. This is the measure the
/// README uses for D\* Lite's own speed against earlier versions of it.
pub fn repair_alone(cfg: &Config) -> Result<Report, String> {
    let (ticks, mut w) = repair_walk(cfg);
    let make = |g: &Grid, goal: Pos| vec![runner("D* Lite repair, alone", lite(g, goal))];
    let run = walk(&mut w, ticks, &make, true)?;
    let mut report = Report::new("repair, D* Lite alone (110×100, 20 % walls)");
    report.series.push(series(&run.runners[0]));
    report.series.push(run.astar.clone());
    let (dlite, astar) = ("D* Lite repair, alone", "A* from scratch");
    report.median_ratio("dlite_alone_vs_astar", dlite, astar, None);
    report.total_ratio("dlite_alone_vs_astar_total", dlite, astar, None);
    report.notes.push(format!(
        "{ticks} ticks of the repair-vs-replan walk (same map, seeds and edits), with only D* Lite and A* in the loop; costs checked equal every tick"
    ));
    Ok(report)
}

/// Workload 2b: the D* Lite papers' case, a robot discovering walls near itself. Each tick a
/// wall lands on the agent's path within 10 steps ahead of it, or an earlier wall is lifted.
pub fn repair_near(cfg: &Config) -> Result<Report, String> {
    let ticks = cfg.pick(2000, 200);
    let mut rng = SplitMix64::seed_from_u64(2);
    let grid = Grid::random(110, 100, 0.2, &mut rng).expect("valid size");
    let mut w = Walk::landing(grid, 3, Land::Near(10));
    let make = |g: &Grid, goal: Pos| {
        vec![
            runner("D* Lite repair, walls near", lite(g, goal)),
            ties_runner(g, goal),
        ]
    };
    let mut run = walk(&mut w, ticks, &make, true)?;
    run.astar.name = "A* from scratch, walls near".to_owned();
    let mut report = Report::new("repair near the agent (110×100, 20 % walls)");
    report.series.push(series(&run.runners[0]));
    report.series.push(run.astar);
    report.series.push(series(&run.runners[1]));
    let (dlite, astar) = ("D* Lite repair, walls near", "A* from scratch, walls near");
    report.median_ratio(
        "dlite_vs_astar_near",
        dlite,
        astar,
        Some(Goal::AtMost(0.08)),
    );
    report.total_ratio(
        "dlite_vs_astar_near_total",
        dlite,
        astar,
        Some(Goal::AtMost(0.15)),
    );
    expansion_ratio(&mut report, "dlite_vs_astar_near_expansions", dlite, astar);
    report.median_ratio("dlite_ties_vs_astar_near", TIES_SERIES, astar, None);
    report.total_ratio("dlite_ties_vs_astar_near_total", TIES_SERIES, astar, None);
    expansion_ratio(
        &mut report,
        "dlite_ties_vs_dlite_near_expansions",
        TIES_SERIES,
        dlite,
    );
    report.notes.push(format!(
        "{ticks} ticks; each: one wall on the path within 10 steps ahead of the agent (2/3) or an earlier wall removed (1/3); costs checked equal every tick; the experimental series repairs the same events (the agent follows the default D* Lite)"
    ));
    Ok(report)
}

/// Workload 4: the three queues inside D* Lite on workload 2's walk, at 110×100 and on
/// 64room_000 (512×512).
pub fn queue_table(cfg: &Config) -> Result<Report, String> {
    fn queues(g: &Grid, goal: Pos, tag: &str) -> Vec<Runner<'static>> {
        fn one<Q: CellQueue<Key> + Send + Sync + 'static>(
            g: &Grid,
            goal: Pos,
            name: String,
        ) -> Runner<'static> {
            runner(
                &name,
                Box::new(DStarLite::<Q>::with_queue(g, goal, CONN, H).expect("goal on map")),
            )
        }
        vec![
            one::<IndexedHeap<Key>>(g, goal, format!("indexed heap ({tag})")),
            one::<IndexedHeap<Key, 4>>(g, goal, format!("4-ary indexed heap ({tag})")),
            one::<BucketedHeap<Key>>(g, goal, format!("bucketed heap ({tag})")),
            one::<LazyHeap<Key>>(g, goal, format!("lazy-deletion heap ({tag})")),
            one::<SortedList<Key>>(g, goal, format!("sorted list ({tag})")),
        ]
    }
    let mut report = Report::new("D* Lite queues");
    // One walk per map: every queue repairs the same events.
    let mut queues_on = |grid: Grid, seed: u64, ticks: usize, tag: &str| -> Result<(), String> {
        let mut w = Walk::new(grid, seed);
        let run = walk(&mut w, ticks, &|g, goal| queues(g, goal, tag), false)?;
        report.series.extend(run.runners.iter().map(series));
        Ok(())
    };
    let mut rng = SplitMix64::seed_from_u64(2);
    queues_on(
        Grid::random(110, 100, 0.2, &mut rng).expect("valid size"),
        3,
        cfg.pick(1000, 100),
        "110×100",
    )?;
    match load_movingai(&movingai_dir(), "64room_000") {
        Ok((big, _)) => queues_on(big, 5, cfg.pick(200, 20), "64room_000")?,
        Err(e) => report.notes.push(format!("64room_000 skipped: {e}")),
    }
    for tag in ["110×100", "64room_000"] {
        let name = |q: &str| format!("{q} ({tag})");
        if report.series.iter().any(|s| s.name == name("indexed heap")) {
            report.median_ratio(
                &format!("lazy_vs_indexed_{}", tag.replace('×', "x")),
                &name("lazy-deletion heap"),
                &name("indexed heap"),
                Some(Goal::AtLeast(1.0)),
            );
            report.median_ratio(
                &format!("four_ary_vs_indexed_{}", tag.replace('×', "x")),
                &name("4-ary indexed heap"),
                &name("indexed heap"),
                None,
            );
            report.median_ratio(
                &format!("bucketed_vs_indexed_{}", tag.replace('×', "x")),
                &name("bucketed heap"),
                &name("indexed heap"),
                None,
            );
            report.median_ratio(
                &format!("list_vs_indexed_{}", tag.replace('×', "x")),
                &name("sorted list"),
                &name("indexed heap"),
                Some(Goal::AtLeast(1.0)),
            );
        }
    }
    report.notes.push("same walk and edits for each queue; the initial plan of each episode is not timed; a ratio ≥ 1 means the indexed heap (the default) is faster".to_owned());
    Ok(report)
}

/// Whether a planner holds state for a cell: a finite cost or lookahead, or a queue entry.
/// The cells that hold state are the ones its searches touched (wrote).
pub fn holds_state(info: &CellInfo) -> bool {
    info.g != INFINITY || info.rhs.is_some_and(|r| r != INFINITY) || info.queued
}

/// The cells of `grid` that `planner` holds state for (see [`holds_state`]).
fn touched_cells(planner: &dyn GoalPlanner, grid: &Grid) -> usize {
    (0..grid.len())
        .filter(|&c| planner.inspect(grid, c).is_some_and(|i| holds_state(&i)))
        .count()
}

/// `12,345`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Builds a simulation on `grid` with one agent per (start, goal).
fn sim_with(grid: &Grid, agents: &[(Pos, Pos)]) -> Simulation {
    let mut sim = Simulation::new(
        grid.clone(),
        SimConfig {
            algorithm: Algorithm::DStarLite,
            connectivity: CONN,
            heuristic: H,
            measure_baseline: false,
            crowd: false,
            rotation: false,
        },
    );
    for &(s, g) in agents {
        sim.add_agent(s, g).expect("agents on open ground");
    }
    sim
}

/// One tick of a shared-goals run: agents that arrived head for the next goal, then the tick.
fn goal_tick(sim: &mut Simulation, goals: &[Pos], edits: &[(Pos, Terrain)]) -> Duration {
    crate::common::send_arrived_on(sim, goals);
    let t = Instant::now();
    sim.tick(edits);
    t.elapsed()
}

/// Workload 3: 1,000 agents over 10 goals against 10 agents with the same goals and edits;
/// then 1,000 agents with 1,000 goals.
pub fn shared_goals(cfg: &Config) -> Result<Report, String> {
    let ticks = cfg.pick(300, 30);
    let mut rng = SplitMix64::seed_from_u64(11);
    let grid = Grid::random(110, 100, 0.2, &mut rng).expect("valid size");
    let comp = components(&grid, CONN);
    let mut sizes = std::collections::HashMap::new();
    for &c in comp.iter().filter(|&&c| c != u32::MAX) {
        *sizes.entry(c).or_insert(0usize) += 1;
    }
    let (&big, _) = sizes.iter().max_by_key(|&(c, n)| (*n, *c)).expect("ground");
    let open: Vec<Pos> = (0..grid.len())
        .filter(|&i| comp[i] == big)
        .map(|i| grid.pos(i))
        .collect();
    let pick = |rng: &mut SplitMix64| open[rng.below(open.len())];
    let goals: Vec<Pos> = (0..10).map(|_| pick(&mut rng)).collect();
    let agents: Vec<(Pos, Pos)> = (0..10_000)
        .map(|i| (pick(&mut rng), goals[i % 10]))
        .collect();
    // Five random cells per tick, toggled; refused edits (agents, goals) are simply refused.
    let edits: Vec<Vec<(Pos, Terrain)>> = (0..ticks)
        .map(|_| {
            (0..5)
                .map(|_| {
                    let p = grid.pos(rng.below(grid.len()));
                    let t = if rng.chance(0.5) {
                        Terrain::Wall
                    } else {
                        Terrain::FREE
                    };
                    (p, t)
                })
                .collect()
        })
        .collect();
    // The same map, goals and edits for every size; each tick the sizes take turns going first.
    let sizes = [10usize, 100, 1000, 10_000];
    let mut sims: Vec<Simulation> = sizes
        .iter()
        .map(|&n| sim_with(&grid, &agents[..n]))
        .collect();
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); sizes.len()];
    let mut expanded0 = Vec::new();
    for sim in &mut sims {
        sim.replan();
        expanded0.push(sim.total_stats().search.expanded);
    }
    for (t, e) in edits.iter().enumerate() {
        for k in 0..sims.len() {
            let j = (k + t) % sims.len();
            times[j].push(goal_tick(&mut sims[j], &goals, e));
        }
    }
    let mut report = Report::new("shared goals (110×100, 10 goals, 5 edits/tick)");
    let name = |n: usize| format!("{} agents, 10 goals", thousands(n));
    for (j, &n) in sizes.iter().enumerate() {
        report.series.push(Series::new(
            name(n),
            Samples {
                samples: std::mem::take(&mut times[j]),
            },
            Some(sims[j].total_stats().search.expanded - expanded0[j]),
        ));
    }
    report.median_ratio("agents1000_vs_10", &name(1000), &name(10), None);
    expansion_ratio(
        &mut report,
        "agents1000_vs_10_expansions",
        &name(1000),
        &name(10),
    );
    report.median_ratio(
        "agents1000_vs_100",
        &name(1000),
        &name(100),
        Some(Goal::AtMost(1.2)),
    );
    report.median_ratio(
        "agents10000_vs_100",
        &name(10_000),
        &name(100),
        Some(Goal::AtMost(1.5)),
    );

    // 1,000 agents, each its own goal.
    let distinct: Vec<(Pos, Pos)> = (0..1000)
        .map(|_| (pick(&mut rng), pick(&mut rng)))
        .collect();
    let own_goals: Vec<Pos> = distinct.iter().map(|&(_, g)| g).collect();
    let mut each = sim_with(&grid, &distinct);
    each.replan();
    let planners = each.planner_count().max(1);
    let bytes_per_cell = each.planner_memory() as f64 / planners as f64 / grid.len() as f64;
    let mut t_each = Vec::new();
    let e0 = each.total_stats().search.expanded;
    for e in edits.iter().take(cfg.pick(60, 10)) {
        t_each.push(goal_tick(&mut each, &own_goals, e));
    }
    report.series.push(Series::new(
        "1,000 agents, 1,000 goals".to_owned(),
        Samples { samples: t_each },
        Some(each.total_stats().search.expanded - e0),
    ));
    report.ratio(
        "bytes_per_cell_per_planner",
        bytes_per_cell,
        "1,000 agents, 1,000 goals",
        None,
    );
    // Clearing every wall of a 512×512 map with 1,000 agents on it: one batch.
    let mut rng = SplitMix64::seed_from_u64(23);
    let big = Grid::random(512, 512, 0.25, &mut rng).expect("valid size");
    let open: Vec<Pos> = (0..big.len())
        .filter(|&i| big.weight(i) != 0)
        .map(|i| big.pos(i))
        .collect();
    let pick = |rng: &mut SplitMix64| open[rng.below(open.len())];
    let spread: Vec<(Pos, Pos)> = (0..1000)
        .map(|_| (pick(&mut rng), pick(&mut rng)))
        .collect();
    let mut clear = sim_with(&big, &spread);
    let t = Instant::now();
    let cleared = clear.clear_walls();
    let clear_ms = t.elapsed().as_secs_f64() * 1e3;
    report.ratio("clear_walls_512_ms", clear_ms, &name(1000), None);
    report.notes.push(format!(
        "series time whole `Simulation::tick`s (edits, repair, moves); arrived agents head for the next goal; 1,000 goals: {planners} planners; clearing {cleared} walls of 512×512 with 1,000 agents: {clear_ms:.1} ms"
    ));
    Ok(report)
}
