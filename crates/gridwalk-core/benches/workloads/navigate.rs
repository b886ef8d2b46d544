//! Workload: navigation in unknown terrain, the experiment of the D\* Lite and MPAA\* papers
//! (issue 18), on four classes of Moving AI maps. Included by `compare.rs`.
//!
//! Each problem is one agent walking from its start to its goal knowing only what it senses
//! within range 1 or 7 ([`gridwalk_core::tracks::navigate`]). A sample is the problem's total
//! planning time over all its ticks on the fair timer ([`Navigation::planning_nanos`]): every
//! planner is timed from sensing to its moves being ready, and its searches alone beside that.
//! The simulation's setup (each navigation has its own, and its one-off labelling of the known
//! map) is left out by the driver, and so is moving.

use std::path::Path as FsPath;
use std::time::Duration;

use gridwalk_core::cost;
use gridwalk_core::format::movingai;
use gridwalk_core::tracks::navigate::{Navigate, Navigation, Replan, navigate};
use gridwalk_core::{Algorithm, Grid, Pos};

use super::{Config, Goal, Report, Series, medians, movingai_dir, random_reachable_pairs};
use gridwalk_core::rng::{SeedableRng, SplitMix64};

/// The planners compared: series label, algorithm, when it plans.
const PLANNERS: &[(&str, Algorithm, Replan)] = &[
    ("D* Lite", Algorithm::DStarLite, Replan::EveryTick),
    ("repeated A*", Algorithm::AStar, Replan::OnPathChange),
    ("D*", Algorithm::DStar, Replan::EveryTick),
    ("MPGAA*", Algorithm::Mpgaa, Replan::EveryTick),
];

/// The maps: class (the ratios' suffix), file name, and the published MPAA\* / D\* Lite time
/// ratio (Hernández, Baier & Asín, ICAPS 2014) to show beside ours.
const MAPS: &[(&str, &str, &str)] = &[
    ("rooms", "64room_000", "about 0.74"),
    ("game", "lak304d", "about 0.74"),
    ("maze", "maze512-32-0", "above 1"),
    ("random", "random512-25-0", "about 0.3"),
];

/// The sensor ranges.
const RANGES: [u32; 2] = [1, 7];

/// One start/goal pair, with the scenario's optimal length when it has one.
struct Problem {
    start: Pos,
    goal: Pos,
    optimal: Option<f64>,
}

/// `n` problems of map `name`: spread evenly over its `.scen` (short to long), or reachable
/// pairs drawn with a fixed seed where it has none. A quick run keeps one short problem
/// (repeated A\* takes seconds on a long maze problem): the first quarter's middle, or the
/// nearest of the pairs drawn.
fn problems(
    dir: &FsPath,
    name: &str,
    n: usize,
    quick: bool,
) -> Result<(Grid, Vec<Problem>, bool), String> {
    let grid = movingai::load_map(&dir.join(format!("{name}.map"))).map_err(|e| e.to_string())?;
    let scen_path = dir.join(format!("{name}.map.scen"));
    if !scen_path.exists() {
        let mut rng = SplitMix64::seed_from_u64(0x6e61_7669_6761_7465); // "navigate"
        let drawn = if quick { 4 } else { n };
        let mut pairs = random_reachable_pairs(&grid, drawn, &mut rng);
        if quick {
            let dist = |&(s, t): &(Pos, Pos)| s.x.abs_diff(t.x).max(s.y.abs_diff(t.y));
            pairs.sort_by_key(dist);
            pairs.truncate(1);
        }
        let problems = pairs.into_iter().map(|(start, goal)| Problem {
            start,
            goal,
            optimal: None,
        });
        return Ok((grid, problems.collect(), false));
    }
    let scen = movingai::load_scen(&scen_path).map_err(|e| e.to_string())?;
    movingai::check_scen(&scen, &grid, &format!("{name}.map.scen")).map_err(|e| e.to_string())?;
    let len = if quick { scen.len() / 2 } else { scen.len() };
    let n = if quick { 1 } else { n };
    let picked = (0..n.min(len)).map(|i| &scen[(2 * i + 1) * len / (2 * n.min(len))]);
    let problems = picked.map(|p| Problem {
        start: p.start,
        goal: p.goal,
        optimal: Some(p.optimal),
    });
    Ok((grid, problems.collect(), true))
}

/// Runs one navigation, checking that it arrived no cheaper than the optimum.
fn run(grid: &Grid, p: &Problem, nav: &Navigate, at: &str) -> Result<Navigation, String> {
    let r = navigate(grid, p.start, p.goal, nav).map_err(|e| format!("{at}: {e}"))?;
    if !r.arrived {
        return Err(format!("{at}: {}→{} did not arrive", p.start, p.goal));
    }
    if let Some(opt) = p.optimal
        && cost::to_f64(r.travelled) < opt - 1e-3
    {
        return Err(format!(
            "{at}: travelled {} below the optimum {opt}",
            cost::to_f64(r.travelled)
        ));
    }
    Ok(r)
}

/// The goal of `nav_dlite_vs_astar_{class}_r{range}` on the fair timer (issue 28): D\* Lite
/// expands 3–4× fewer cells than repeated A\* on rooms and game, about as many on random.
fn goal_vs_astar(class: &str) -> Goal {
    match class {
        "rooms" | "game" => Goal::AtMost(0.5),
        "maze" => Goal::AtMost(0.1),
        _ => Goal::AtMost(1.0),
    }
}

/// The navigate workload: per map class and range, every planner on the same problems.
pub fn navigate_unknown(cfg: &Config) -> Result<Report, String> {
    let mut report = Report::new("navigate (unknown terrain)");
    let dir = movingai_dir();
    let n = cfg.pick(8, 1);
    // One run per problem: each is hundreds of replans, and long ones take seconds.
    let reps = 1;
    let mut slots = Vec::new();
    let nanos = |n: u64| Duration::from_nanos(n);
    for &(class, name, published) in MAPS {
        let (grid, problems, from_scen) = problems(&dir, name, n, cfg.quick)?;
        for range in RANGES {
            // Per planner: per problem the median time of the repetitions (the fair timer's
            // whole and its searches alone), and the work.
            let k = PLANNERS.len();
            let mut whole = vec![vec![Vec::with_capacity(reps); problems.len()]; k];
            let mut search = whole.clone();
            let mut work = vec![Navigation::default(); k];
            let mut first_ns = vec![0u64; k];
            for rep in 0..reps {
                for (pi, p) in problems.iter().enumerate() {
                    for j in 0..k {
                        // The order alternates between repetitions, as in time_interleaved.
                        let r = if rep % 2 == 0 { j } else { k - 1 - j };
                        let (label, algorithm, replan) = PLANNERS[r];
                        let nav = Navigate {
                            replan,
                            ..Navigate::new(algorithm, range)
                        };
                        let at = format!("{name}, range {range}, {label}, problem {pi}");
                        let got = run(&grid, p, &nav, &at)?;
                        whole[r][pi].push(nanos(got.planning_nanos));
                        search[r][pi].push(nanos(got.search_nanos));
                        if rep == 0 {
                            // The first plan alone (no tick), to tell it from the replans.
                            let first = Navigate {
                                max_ticks: Some(0),
                                ..nav
                            };
                            let first = navigate(&grid, p.start, p.goal, &first)
                                .map_err(|e| format!("{at}: {e}"))?;
                            let w = &mut work[r];
                            w.searches += got.searches;
                            w.expanded += got.expanded;
                            w.moves += got.moves;
                            w.discovered += got.discovered;
                            first_ns[r] += first.planning_nanos;
                        }
                    }
                }
            }
            let series = |label: &str| format!("{label} ({class}, r{range})");
            let alone = |label: &str| format!("{label}, search alone ({class}, r{range})");
            for (r, (w, s)) in whole.into_iter().zip(search).enumerate() {
                let (name, expanded) = (series(PLANNERS[r].0), Some(work[r].expanded));
                let (w, s) = (medians(w), medians(s));
                let (w_ns, s_ns) = (w.total().as_nanos() as u64, s.total().as_nanos() as u64);
                report.series.push(Series::new(&name, w, expanded));
                report.counter(&name, "searches", work[r].searches);
                report.counter(&name, "moves", work[r].moves);
                report.counter(&name, "discovered", work[r].discovered);
                report.counter(&name, "first_plan_ns", first_ns[r]);
                report.counter(&name, "search_ns", s_ns);
                let per = |ns: u64, n: u64| ns.checked_div(n).unwrap_or(0);
                report.counter(&name, "ns_per_expansion", per(s_ns, work[r].expanded));
                // What is not search, per cell sensing changed: the updates and bookkeeping.
                let rest = w_ns.saturating_sub(s_ns);
                report.counter(
                    &name,
                    "rest_ns_per_discovered",
                    per(rest, work[r].discovered),
                );
                report
                    .series
                    .push(Series::new(alone(PLANNERS[r].0), s, expanded));
            }
            // The same ratio without the first plans: the replans alone.
            let replans = |label: &str, report: &Report| {
                let r = PLANNERS.iter().position(|p| p.0 == label).expect("listed");
                let total = report.series(&series(label)).samples.total();
                (total.as_nanos() as f64 - first_ns[r] as f64).max(1.0)
            };
            let value = replans("D* Lite", &report) / replans("repeated A*", &report);
            report.ratio(
                &format!("nav_dlite_vs_astar_{class}_r{range}_replans"),
                value,
                &series("D* Lite"),
                None,
            );
            let (dlite, astar) = (series("D* Lite"), series("repeated A*"));
            report.total_ratio(
                &format!("nav_dlite_vs_astar_{class}_r{range}"),
                &dlite,
                &astar,
                Some(goal_vs_astar(class)),
            );
            report.total_ratio(
                &format!("nav_dlite_vs_astar_{class}_r{range}_search"),
                &alone("D* Lite"),
                &alone("repeated A*"),
                None,
            );
            // ns per expansion of the searches alone, D* Lite's over A*'s.
            let per_expansion = |label: &str, report: &Report| {
                let s = report.series(&alone(label));
                s.samples.total().as_nanos() as f64 / s.expansions.unwrap_or(1).max(1) as f64
            };
            let value = per_expansion("D* Lite", &report) / per_expansion("repeated A*", &report);
            report.ratio(
                &format!("nav_dlite_vs_astar_{class}_r{range}_ns_per_expansion"),
                value,
                &alone("D* Lite"),
                Some(Goal::AtMost(2.0)),
            );
            report.total_ratio(
                &format!("nav_dstar_vs_dlite_{class}_r{range}"),
                &series("D*"),
                &dlite,
                None,
            );
            let key = format!("nav_mpgaa_vs_dlite_{class}_r{range}");
            match PLANNERS.iter().any(|p| p.0 == "MPGAA*") {
                true => report.total_ratio(&key, &series("MPGAA*"), &dlite, None),
                false => slots.push(key),
            }
        }
        report.notes.push(format!(
            "{class} ({name}, {}×{}): {} problems {}; published MPAA* / D* Lite time: {published}",
            grid.width(),
            grid.height(),
            problems.len(),
            match from_scen {
                true => "spread evenly over its .scen, each arrived no cheaper than its optimum",
                false => "drawn reachable with a fixed seed (no .scen), each arrived",
            }
        ));
    }
    if !slots.is_empty() {
        report.notes.push(format!(
            "MPGAA* SLOT, not yet filled (no Algorithm::Mpgaa in this build): {}",
            slots.join(", ")
        ));
    }
    report.notes.push(
        "the fair timer (issue 28): a sample is one problem's planning time over all its ticks, the same boundary for every planner: all the planning work of a tick before its moves are ready (sensing and its effect on the planners, bookkeeping, searches; for the simulation its whole replan, for repeated A* sensing, the path check, the search and the path's bookkeeping), in nanoseconds; the `search alone` series time only the searches (the planners' computes, or A*'s search calls); repeated A* searches afresh only when a discovery changed a move of its current path; setup (the simulation, its labelling of the known map) is not timed; each navigation starts with fresh planners, so their first search's allocation counts for all; one run per problem; `_replans` ratios leave out each planner's first plan (timed alone, without ticks; the JSON's first_plan_ns); `_ns_per_expansion` compares the searches alone per expanded cell; the JSON's rest_ns_per_discovered is the time that is not search per cell sensing changed"
            .to_owned(),
    );
    Ok(report)
}
