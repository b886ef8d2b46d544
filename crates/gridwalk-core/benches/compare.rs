//! Comparison benchmarks: gridwalk's searches against a peer crate and against each other.
//!
//! A plain `main`, no framework. `cargo bench -p gridwalk-core --bench compare` prints a
//! markdown table; arguments after `--`:
//!
//! - `--json`: print the same figures as one JSON document, one key per workload;
//! - `--quick`: fewer problems and one repetition, for CI smoke checks (under a minute);
//! - any other word: run only the workloads whose key contains it (e.g. `one_shot`).
//!
//! Correctness is checked before anything is timed; a mismatch aborts with exit code 1.
//! The Moving AI maps are the repository's copies in `tests/data/movingai` (or the folder named
//! by `GRIDWALK_MOVINGAI_DIR`); a missing file is an error, not a skip.
//!
//! To add a workload: write `fn my_workload(cfg: &Config) -> Result<Report, String>` that
//! builds its problems, checks them, times them with [`time_interleaved`] (or
//! [`Samples::from_runs`]) and fills a [`Report`]; then list it in [`WORKLOADS`].

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path as FsPath, PathBuf};
use std::time::{Duration, Instant};

use gridwalk_core::cost::{self, Cost};
use gridwalk_core::format::movingai::{self, ScenProblem, matches_printed};
use gridwalk_core::grid::Components;
use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};
use gridwalk_core::search::{SearchRequest, SearchSpace};
use gridwalk_core::{Connectivity, Grid, Heuristic, Pos, SearchStats};
use serde_json::{Map, Value, json};

/// The tests' helpers: the reference costs, and agents sent on round a list of goals.
#[path = "../tests/it/common.rs"]
#[allow(unused_macros)]
mod common;
#[path = "workloads/crowd.rs"]
mod crowd;
#[path = "workloads/gppc.rs"]
mod gppc;
#[path = "workloads/incremental.rs"]
mod incremental;
#[path = "workloads/living.rs"]
mod living;
#[path = "workloads/living_512.rs"]
mod living_512;
#[path = "workloads/lorr.rs"]
mod lorr;
#[path = "workloads/navigate.rs"]
mod navigate;
#[path = "workloads/peer_dlite.rs"]
mod peer_dlite;

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

/// Options shared by every workload.
#[derive(Clone, Debug)]
struct Config {
    /// A short run for CI: fewer problems, one repetition.
    quick: bool,
    /// How many times each problem is timed; the per-problem figure is the median of these.
    reps: usize,
}

impl Config {
    /// `full` problems in a normal run, `quick` in a quick one.
    fn pick(&self, full: usize, quick: usize) -> usize {
        if self.quick { quick } else { full }
    }
}

/// A workload: a key (used by the JSON output and the name filter), and what runs it.
struct Workload {
    key: &'static str,
    run: fn(&Config) -> Result<Report, String>,
}

/// Every workload, in the order they run and print.
const WORKLOADS: &[Workload] = &[
    Workload {
        key: "one_shot_astar",
        run: one_shot_astar,
    },
    Workload {
        key: "repair_vs_replan",
        run: incremental::repair_vs_replan,
    },
    Workload {
        key: "repair_alone",
        run: incremental::repair_alone,
    },
    Workload {
        key: "repair_near",
        run: incremental::repair_near,
    },
    Workload {
        key: "shared_goals",
        run: incremental::shared_goals,
    },
    Workload {
        key: "queues",
        run: incremental::queue_table,
    },
    Workload {
        key: "scale",
        run: incremental::scale,
    },
    Workload {
        key: "living",
        run: living::living,
    },
    Workload {
        key: "living_512",
        run: living_512::living_512,
    },
    Workload {
        key: "gppc",
        run: gppc::gppc,
    },
    Workload {
        key: "crowd",
        run: crowd::crowd,
    },
    Workload {
        key: "navigate",
        run: navigate::navigate_unknown,
    },
    Workload {
        key: "peer_dlite",
        run: peer_dlite::peer_dlite,
    },
];

/// Timings of one series: one sample per problem (or per run).
#[derive(Clone, Debug, Default)]
struct Samples {
    samples: Vec<Duration>,
}

impl Samples {
    /// Times `reps` runs of `f` and keeps one sample per run (for workloads timed as whole
    /// runs, such as a sequence of repairs, rather than problem by problem).
    #[allow(dead_code)]
    fn from_runs(reps: usize, mut f: impl FnMut()) -> Samples {
        let samples = (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect();
        Samples { samples }
    }

    fn sorted(&self) -> Vec<Duration> {
        let mut s = self.samples.clone();
        s.sort_unstable();
        s
    }

    /// The `q` quantile (0–1), nearest rank.
    fn quantile(&self, q: f64) -> Duration {
        let s = self.sorted();
        if s.is_empty() {
            return Duration::ZERO;
        }
        let rank = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len());
        s[rank - 1]
    }

    fn median(&self) -> Duration {
        self.quantile(0.5)
    }

    fn p95(&self) -> Duration {
        self.quantile(0.95)
    }

    fn total(&self) -> Duration {
        self.samples.iter().sum()
    }

    fn len(&self) -> usize {
        self.samples.len()
    }
}

/// One line of a report: a named series of timings and the work it did.
#[derive(Clone, Debug)]
struct Series {
    /// What was timed, e.g. `gridwalk A* (lak304d)`.
    name: String,
    samples: Samples,
    /// Cells expanded over all problems, when the series knows. (Ours and the peer can differ
    /// by a few: among equal keys, each pops in its own order.)
    expansions: Option<u64>,
}

impl Series {
    fn new(name: impl Into<String>, samples: Samples, expansions: Option<u64>) -> Series {
        Series {
            name: name.into(),
            samples,
            expansions,
        }
    }
}

/// Which way a ratio should go.
#[derive(Clone, Copy, Debug)]
#[allow(dead_code)] // AtLeast is for workloads to come (e.g. repair speed-ups).
enum Goal {
    AtMost(f64),
    AtLeast(f64),
}

impl Goal {
    fn met(self, v: f64) -> bool {
        match self {
            Goal::AtMost(g) => v <= g,
            Goal::AtLeast(g) => v >= g,
        }
    }

    fn describe(self) -> String {
        match self {
            Goal::AtMost(g) => format!("≤ {g}"),
            Goal::AtLeast(g) => format!("≥ {g}"),
        }
    }
}

/// A named ratio, shown on the row of the series it belongs to.
#[derive(Clone, Debug)]
struct Ratio {
    /// JSON key, e.g. `astar_vs_peer`.
    name: String,
    value: f64,
    goal: Option<Goal>,
    /// The series whose row shows it.
    series: String,
}

/// What a workload hands back.
#[derive(Clone, Debug)]
struct Report {
    /// The table's name for the workload, e.g. `one-shot A*`.
    title: String,
    series: Vec<Series>,
    ratios: Vec<Ratio>,
    /// Free remarks: skipped inputs, correctness checks passed, ...
    notes: Vec<String>,
    /// Further totals of a series, for the JSON output only: (series, name, value), e.g.
    /// `("gridwalk (lak304d)", "sift_moves", n)`. Added with [`Report::counter`].
    counters: Vec<(String, &'static str, u64)>,
}

impl Report {
    fn new(title: &str) -> Report {
        Report {
            title: title.to_owned(),
            series: Vec::new(),
            ratios: Vec::new(),
            notes: Vec::new(),
            counters: Vec::new(),
        }
    }

    /// Records a further total of series `series` (shown in the JSON output only).
    fn counter(&mut self, series: &str, name: &'static str, value: u64) {
        self.counters.push((series.to_owned(), name, value));
    }

    /// The series called `name`.
    fn series(&self, name: &str) -> &Series {
        self.series
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("no series named {name}"))
    }

    /// Adds a ratio computed by the workload, shown on the row of series `on`.
    fn ratio(&mut self, name: &str, value: f64, on: &str, goal: Option<Goal>) {
        self.ratios.push(Ratio {
            name: name.to_owned(),
            value,
            goal,
            series: on.to_owned(),
        });
    }

    /// Adds the ratio of two series' total times, `num / den`, shown on `num`'s row.
    fn total_ratio(&mut self, name: &str, num: &str, den: &str, goal: Option<Goal>) {
        let total = |n: &str| self.series(n).samples.total().as_secs_f64();
        let value = total(num) / total(den);
        self.ratio(name, value, num, goal);
    }

    /// Adds the ratio of two series' median times, `num / den`, shown on `num`'s row.
    #[allow(dead_code)]
    fn median_ratio(&mut self, name: &str, num: &str, den: &str, goal: Option<Goal>) {
        let median = |n: &str| self.series(n).samples.median().as_secs_f64();
        let value = median(num) / median(den);
        self.ratio(name, value, num, goal);
    }
}

/// Times every problem with every runner, `cfg.reps` times, and returns per runner one
/// sample per problem: the median of its repetitions. Runners take turns on each problem
/// (their order alternates between repetitions) so that they see the same machine state.
fn time_interleaved<P>(
    cfg: &Config,
    problems: &[P],
    runners: &mut [&mut dyn FnMut(&P)],
) -> Vec<Samples> {
    let k = runners.len();
    // times[r][p][rep]
    let mut times = vec![vec![Vec::with_capacity(cfg.reps); problems.len()]; k];
    for rep in 0..cfg.reps {
        for (pi, p) in problems.iter().enumerate() {
            for j in 0..k {
                let r = if rep % 2 == 0 { j } else { k - 1 - j };
                let t = Instant::now();
                (runners[r])(p);
                times[r][pi].push(t.elapsed());
            }
        }
    }
    times.into_iter().map(medians).collect()
}

fn fmt_duration(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.1} µs")
    } else if us < 1e6 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

fn markdown(reports: &[(&str, Report)]) -> String {
    let mut out = String::new();
    out.push_str(
        "| workload | series | problems | median | p95 | total | expansions/problem | ratio |\n",
    );
    out.push_str("|---|---|---:|---:|---:|---:|---:|---|\n");
    for (_, r) in reports {
        for s in &r.series {
            let ratios: Vec<String> = r
                .ratios
                .iter()
                .filter(|q| q.series == s.name)
                .map(|q| match q.goal {
                    Some(g) => format!(
                        "{} = {:.3} (goal {}: {})",
                        q.name,
                        q.value,
                        g.describe(),
                        if g.met(q.value) { "met" } else { "MISSED" }
                    ),
                    None => format!("{} = {:.3}", q.name, q.value),
                })
                .collect();
            let exp = match s.expansions {
                Some(e) if s.samples.len() > 0 => {
                    format!("{:.0}", e as f64 / s.samples.len() as f64)
                }
                _ => "–".to_owned(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                r.title,
                s.name,
                s.samples.len(),
                fmt_duration(s.samples.median()),
                fmt_duration(s.samples.p95()),
                fmt_duration(s.samples.total()),
                exp,
                ratios.join("; ")
            );
        }
    }
    let notes: Vec<String> = reports
        .iter()
        .flat_map(|(_, r)| r.notes.iter().map(move |n| format!("- {}: {n}", r.title)))
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(out, "\n{}", notes.join("\n"));
    }
    out
}

fn to_json(cfg: &Config, reports: &[(&str, Report)]) -> Value {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let mut root = Map::new();
    for (key, r) in reports {
        let series: Map<String, Value> = r
            .series
            .iter()
            .map(|s| {
                (s.name.clone(), {
                    let mut v = json!({
                        "problems": s.samples.len(),
                        "median_us": us(s.samples.median()),
                        "p95_us": us(s.samples.p95()),
                        "total_us": us(s.samples.total()),
                        "expansions": s.expansions,
                    });
                    for (_, k, n) in r.counters.iter().filter(|c| c.0 == s.name) {
                        v[*k] = json!(n);
                    }
                    v
                })
            })
            .collect();
        let ratios: Map<String, Value> = r
            .ratios
            .iter()
            .map(|q| (q.name.clone(), json!(q.value)))
            .collect();
        let goals: Map<String, Value> = r
            .ratios
            .iter()
            .filter_map(|q| {
                q.goal.map(|g| {
                    (
                        q.name.clone(),
                        json!({ "goal": g.describe(), "met": g.met(q.value) }),
                    )
                })
            })
            .collect();
        root.insert(
            (*key).to_owned(),
            json!({
                "title": r.title,
                "series": series,
                "ratios": ratios,
                "goals": goals,
                "notes": r.notes,
            }),
        );
    }
    root.insert(
        "_run".to_owned(),
        json!({ "quick": cfg.quick, "reps": cfg.reps }),
    );
    Value::Object(root)
}

/// Times `ticks` ticks of a world that edits itself (no edits from outside), calling `after`
/// with the simulation after each.
fn timed_ticks(
    sim: &mut gridwalk_core::sim::Simulation,
    ticks: usize,
    mut after: impl FnMut(&gridwalk_core::sim::Simulation),
) -> Vec<Duration> {
    let no_edits: [(Pos, gridwalk_core::Terrain); 0] = [];
    (0..ticks)
        .map(|_| {
            let t = Instant::now();
            sim.tick(&no_edits);
            let took = t.elapsed();
            after(sim);
            took
        })
        .collect()
}

fn main() {
    let mut json_out = false;
    let mut quick = false;
    let mut filters = Vec::new();
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--json" => json_out = true,
            "--quick" => quick = true,
            // cargo bench passes --bench to harness-less benches; other flags are ignored too.
            s if s.starts_with('-') => {}
            s => filters.push(s.to_owned()),
        }
    }
    let cfg = Config {
        quick,
        reps: if quick { 1 } else { 3 },
    };
    let chosen: Vec<&Workload> = WORKLOADS
        .iter()
        .filter(|w| filters.is_empty() || filters.iter().any(|f| w.key.contains(f.as_str())))
        .collect();
    if chosen.is_empty() {
        let keys: Vec<&str> = WORKLOADS.iter().map(|w| w.key).collect();
        eprintln!(
            "no workload matches {filters:?}; the workloads are: {}",
            keys.join(", ")
        );
        std::process::exit(2);
    }
    let mut reports = Vec::new();
    for w in chosen {
        eprintln!("running {} ...", w.key);
        let t = Instant::now();
        match (w.run)(&cfg) {
            Ok(r) => reports.push((w.key, r)),
            Err(e) => {
                eprintln!("benchmark {} aborted: {e}", w.key);
                std::process::exit(1);
            }
        }
        eprintln!("  {} done in {:.1} s", w.key, t.elapsed().as_secs_f64());
    }
    if json_out {
        println!(
            "{}",
            serde_json::to_string_pretty(&to_json(&cfg, &reports)).expect("serialisable")
        );
    } else {
        print!("{}", markdown(&reports));
    }
}

// ---------------------------------------------------------------------------------------------
// Inputs: random maps (from the core's one generator), Moving AI files
// ---------------------------------------------------------------------------------------------

/// Per problem, the median of its repetitions.
fn medians(per_problem: Vec<Vec<Duration>>) -> Samples {
    Samples {
        samples: per_problem
            .into_iter()
            .map(|mut reps| {
                reps.sort_unstable();
                reps[reps.len() / 2]
            })
            .collect(),
    }
}

/// Each cell's component label (in row order of first cells), `u32::MAX` on walls: floods by
/// the core's own `grid::reachable`, for the workloads that keep the largest component.
fn components(grid: &Grid, conn: Connectivity) -> Vec<u32> {
    let mut comp = vec![u32::MAX; grid.len()];
    let mut next = 0;
    for s in 0..grid.len() {
        if grid.weight(s) == 0 || comp[s] != u32::MAX {
            continue;
        }
        for c in gridwalk_core::grid::reachable(grid, grid.pos(s), conn) {
            comp[c] = next;
        }
        next += 1;
    }
    comp
}

/// `n` random start/goal pairs, each goal reachable from its start, start ≠ goal.
fn random_reachable_pairs(grid: &Grid, n: usize, rng: &mut SplitMix64) -> Vec<(Pos, Pos)> {
    let mut comp = Components::default();
    let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.weight(i) != 0).collect();
    let mut pairs = Vec::with_capacity(n);
    while pairs.len() < n {
        let s = open[rng.below(open.len())];
        let t = open[rng.below(open.len())];
        if s != t && comp.connected(grid, s, t, Connectivity::Eight) {
            pairs.push((grid.pos(s), grid.pos(t)));
        }
    }
    pairs
}

/// Where the Moving AI files are: the repository's copies in `tests/data/movingai`, or the
/// folder named by the environment variable `GRIDWALK_MOVINGAI_DIR`.
fn movingai_dir() -> PathBuf {
    match std::env::var_os("GRIDWALK_MOVINGAI_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/movingai"),
    }
}

fn load_movingai(dir: &FsPath, name: &str) -> Result<(Grid, Vec<ScenProblem>), String> {
    let grid = movingai::load_map(&dir.join(format!("{name}.map"))).map_err(|e| e.to_string())?;
    let scen =
        movingai::load_scen(&dir.join(format!("{name}.map.scen"))).map_err(|e| e.to_string())?;
    movingai::check_scen(&scen, &grid, &format!("{name}.map.scen")).map_err(|e| e.to_string())?;
    Ok((grid, scen))
}

// ---------------------------------------------------------------------------------------------
// Workload 1: one-shot A* against the pathfinding crate
// ---------------------------------------------------------------------------------------------

/// One map and its start/goal pairs.
struct ProblemSet {
    name: String,
    grid: Grid,
    pairs: Vec<(Pos, Pos)>,
    /// The scenario's optimal lengths, when the set comes from a `.scen`.
    optimal: Option<Vec<f64>>,
}

/// The peer: `pathfinding::directed::astar::astar` on the same grid, moves, costs and
/// heuristic. Successors go through a stack buffer, so the peer allocates nothing per node
/// beyond its own bookkeeping. Counts expansions into `expanded` when given.
fn peer_astar(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    expanded: Option<&mut u64>,
) -> Option<(Vec<usize>, Cost)> {
    let s = grid.index(start).ok()?;
    let t = grid.index(goal).ok()?;
    if grid.weight(s) == 0 || grid.weight(t) == 0 {
        return None;
    }
    let width = grid.width() as usize;
    let mut count = 0u64;
    let r = pathfinding::directed::astar::astar(
        &s,
        |&u| {
            count += 1;
            let mut buf = [(0usize, 0 as Cost); 8];
            let mut n = 0;
            grid.for_each_neighbor(u, Connectivity::Eight, |v, c| {
                buf[n] = (v, c);
                n += 1;
            });
            buf.into_iter().take(n)
        },
        |&u| {
            let (x, y) = ((u % width) as u32, (u / width) as u32);
            Heuristic::Octile.estimate(x.abs_diff(goal.x), y.abs_diff(goal.y))
        },
        |&u| u == t,
    );
    if let Some(e) = expanded {
        // The peer never calls successors on the goal; ours counts the goal as expanded.
        *e += count + u64::from(r.is_some());
    }
    r
}

fn one_shot_astar(cfg: &Config) -> Result<Report, String> {
    let mut report = Report::new("one-shot A*");
    let mut sets = Vec::new();

    // A seeded 110×100 map with 20 % walls and random reachable pairs.
    let mut rng = SplitMix64::seed_from_u64(0x6772_6964_7761_6c6b); // "gridwalk"
    let grid = Grid::random(110, 100, 0.20, &mut rng).expect("valid size");
    let pairs = random_reachable_pairs(&grid, cfg.pick(1000, 200), &mut rng);
    sets.push(ProblemSet {
        name: "random 110×100".to_owned(),
        grid,
        pairs,
        optimal: None,
    });

    // Every problem of two Moving AI maps (every 5th or 10th in a quick run).
    let dir = movingai_dir();
    for (name, quick_step) in [("lak304d", 5), ("64room_000", 10)] {
        let (grid, scen) = load_movingai(&dir, name)?;
        let step = if cfg.quick { quick_step } else { 1 };
        let scen: Vec<ScenProblem> = scen.into_iter().step_by(step).collect();
        sets.push(ProblemSet {
            name: name.to_owned(),
            grid,
            pairs: scen.iter().map(|p| (p.start, p.goal)).collect(),
            optimal: Some(scen.iter().map(|p| p.optimal).collect()),
        });
    }

    let mut space = SearchSpace::new();
    let mut all_ours = Samples::default();
    let mut all_peer = Samples::default();
    let (mut all_exp, mut all_peer_exp) = (0u64, 0u64);
    let mut checked_optimal = 0usize;
    for set in &sets {
        // Correctness first: identical costs, and the scenario's lengths where known.
        let mut expansions = 0u64;
        let mut peer_expansions = 0u64;
        let mut work = SearchStats::default();
        for (i, &(s, t)) in set.pairs.iter().enumerate() {
            let ours = space
                .search(&set.grid, &octile(s, t), None)
                .map_err(|e| format!("{}: problem {i}: {e}", set.name))?;
            expansions += ours.stats.expanded;
            work += ours.stats;
            let ours = ours.path.map(|p| p.cost);
            let peer = peer_astar(&set.grid, s, t, Some(&mut peer_expansions)).map(|r| r.1);
            if ours != peer {
                return Err(format!(
                    "{}: problem {i} {s}→{t}: gridwalk A* cost {ours:?} but pathfinding's {peer:?}; \
                     the comparison would be meaningless",
                    set.name
                ));
            }
            if let Some(opt) = &set.optimal {
                let got = ours.map(cost::to_f64).ok_or_else(|| {
                    format!(
                        "{}: problem {i} {s}→{t}: no path, scenario says {}",
                        set.name, opt[i]
                    )
                })?;
                if !matches_printed(got, opt[i]) {
                    return Err(format!(
                        "{}: problem {i} {s}→{t}: gridwalk A* cost {got:.6} but the scenario's optimal length is {}",
                        set.name, opt[i]
                    ));
                }
                checked_optimal += 1;
            }
        }

        // Timing: both searchers on each problem in turn.
        let grid = &set.grid;
        let mut ours = |&(s, t): &(Pos, Pos)| {
            let r = space.search(grid, &octile(s, t), None);
            black_box(r.ok().and_then(|r| r.path).map(|p| p.cost));
        };
        let mut peer = |&(s, t): &(Pos, Pos)| {
            black_box(peer_astar(grid, s, t, None).map(|r| r.1));
        };
        let mut timed = time_interleaved(cfg, &set.pairs, &mut [&mut ours, &mut peer]);
        let peer_samples = timed.pop().expect("two runners");
        let our_samples = timed.pop().expect("two runners");
        all_ours.samples.extend_from_slice(&our_samples.samples);
        all_peer.samples.extend_from_slice(&peer_samples.samples);
        all_exp += expansions;
        all_peer_exp += peer_expansions;
        let (ours_name, peer_name) = (
            format!("gridwalk ({})", set.name),
            format!("pathfinding ({})", set.name),
        );
        let ours_series = Series::new(&ours_name, our_samples, Some(expansions));
        report.counter(&ours_name, "pushes", work.pushes);
        report.counter(&ours_name, "pops", work.pops);
        report.counter(&ours_name, "updates", work.updates);
        report.counter(&ours_name, "sift_moves", work.sift_moves);
        report.counter(&ours_name, "stale_pops", work.stale_pops);
        report.series.push(ours_series);
        report
            .series
            .push(Series::new(&peer_name, peer_samples, Some(peer_expansions)));
        let key = format!(
            "astar_vs_peer_{}",
            set.name.split(' ').next().unwrap_or(&set.name)
        );
        report.total_ratio(&key, &ours_name, &peer_name, None);
    }
    report
        .series
        .push(Series::new("gridwalk (all)", all_ours, Some(all_exp)));
    report.series.push(Series::new(
        "pathfinding (all)",
        all_peer,
        Some(all_peer_exp),
    ));
    report.total_ratio(
        "astar_vs_peer",
        "gridwalk (all)",
        "pathfinding (all)",
        Some(Goal::AtMost(0.30)),
    );
    report.notes.push(format!(
        "costs identical to pathfinding's on all {} problems; {checked_optimal} Moving AI lengths matched to 6 significant digits",
        sets.iter().map(|s| s.pairs.len()).sum::<usize>()
    ));
    report.notes.push(
        "ratio = gridwalk total time / pathfinding total time; per-problem time is the median of the repetitions"
            .to_owned(),
    );
    Ok(report)
}

/// The Moving AI model's A* request: eight-connected, octile.
fn octile(s: Pos, t: Pos) -> SearchRequest {
    SearchRequest::astar(s, t, Connectivity::Eight, Heuristic::Octile)
}
