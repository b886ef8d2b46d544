//! Workload: gridwalk's D\* Lite beside a peer D\* Lite, condor-pathfinding-grid 0.4 (MIT;
//! 4-connected, Manhattan keys), on 4-connected versions of the `repair` and `repair near`
//! walks, costs checked equal after every repair. Included by `compare.rs`.
//!
//! The peer's `DStarLite` is its LPA\* behind the `GridReplanner` trait: `initialize` takes a
//! fixed start and goal, and nothing moves either afterwards (no `km`, no new start), so a
//! walking agent cannot be expressed: every step would be a cold `initialize`. Here the agent
//! therefore stands still while walls land on its path (anywhere, or within 10 steps of it)
//! and earlier walls are lifted, the events of `repair` and `repair near`; both planners
//! search backward from the goal (the peer's request runs goal → agent, D\* Lite's
//! direction), and each episode lasts [`EPISODE`] edits.

use std::time::{Duration, Instant};

use condor_grid::algorithms::d_star_lite::DStarLite as PeerDStarLite;
use condor_grid::{Cell, GridReplanner, Point, SearchRequest as PeerRequest};
use gridwalk_core::cost::{self, INFINITY};
use gridwalk_core::{Algorithm, Connectivity, Grid, Heuristic, Pos, Terrain, new_planner};

use super::{Config, Goal, Report, Samples, Series, components};
use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};

const CONN: Connectivity = Connectivity::Four;
const H: Heuristic = Heuristic::Manhattan;
/// Edits per episode (one agent and goal, both planners fresh).
const EPISODE: usize = 50;

/// Both D\* Lites on the 4-connected walks: `dlite_vs_peer_dlite` (walls anywhere on the path)
/// and `dlite_vs_peer_dlite_near` (within 10 steps of the agent).
pub fn peer_dlite(cfg: &Config) -> Result<Report, String> {
    let ticks = cfg.pick(2000, 200);
    let mut report = Report::new("D* Lite vs condor-pathfinding-grid (4-connected, 110×100)");
    for (near, key) in [
        (None, "dlite_vs_peer_dlite"),
        (Some(10), "dlite_vs_peer_dlite_near"),
    ] {
        let tag = if near.is_some() { ", walls near" } else { "" };
        let (ours, peer, checked) = walk(ticks, near)?;
        let (on, pn) = (
            format!("gridwalk D* Lite{tag}"),
            format!("condor D* Lite{tag}"),
        );
        report.series.push(Series::new(&on, ours.0, Some(ours.1)));
        report.series.push(Series::new(&pn, peer.0, Some(peer.1)));
        report.total_ratio(key, &on, &pn, Some(Goal::AtMost(0.2)));
        report.notes.push(format!(
            "{key}: {ticks} repairs, costs equal on all {checked}"
        ));
    }
    report.notes.push(format!(
        "the peer cannot move its start (LPA* behind GridReplanner), so the agent stands still while walls land and lift; {EPISODE} edits per episode; both search goal → agent; ratio = total repair time, ours / peer's; the peer's expansions are its visited_nodes"
    ));
    Ok(report)
}

type Timed = (Samples, u64);

/// `ticks` edits, each repaired by both planners (timed, their order alternating); returns
/// both series and the number of costs checked equal.
fn walk(ticks: usize, near: Option<usize>) -> Result<(Timed, Timed, usize), String> {
    let mut rng = SplitMix64::seed_from_u64(2);
    let mut grid = Grid::random(110, 100, 0.2, &mut rng).expect("valid size");
    let comp = components(&grid, CONN);
    let mut sizes = std::collections::HashMap::new();
    for &c in comp.iter().filter(|&&c| c != u32::MAX) {
        *sizes.entry(c).or_insert(0usize) += 1;
    }
    let (&big, _) = sizes.iter().max_by_key(|&(c, n)| (*n, *c)).expect("ground");
    let open: Vec<usize> = (0..grid.len()).filter(|&i| comp[i] == big).collect();
    let mut rng = SplitMix64::seed_from_u64(3);
    let (mut ours_t, mut peer_t) = (Vec::with_capacity(ticks), Vec::with_capacity(ticks));
    let (mut ours_e, mut peer_e) = (0u64, 0u64);
    let mut walls: Vec<Pos> = Vec::new();
    let mut tick = 0;
    while tick < ticks {
        // A new episode (untimed): walls lifted, a far pair, both planners fresh.
        for p in walls.drain(..) {
            grid.set(p, Terrain::FREE).expect("on the grid");
        }
        let w = grid.width();
        let mut pick = |left: bool| loop {
            let p = grid.pos(open[rng.below(open.len())]);
            if (left && p.x < w / 5) || (!left && p.x >= w - w / 5) {
                return p;
            }
        };
        let (agent, goal) = (pick(true), pick(false));
        let s = grid.index(agent).expect("on the grid");
        // Ours as the factory makes a lone planner (its store chosen by size).
        let mut ours =
            new_planner(Algorithm::DStarLite, &grid, goal, CONN, H).map_err(|e| e.to_string())?;
        ours.set_starts(&grid, &[s]);
        ours.compute(&grid);
        let mut cgrid = condor_grid::Grid::new(grid.width() as usize, grid.height() as usize)
            .map_err(|e| e.to_string())?;
        for i in (0..grid.len()).filter(|&i| grid.weight(i) == 0) {
            cgrid
                .set_cell(point(grid.pos(i)), Cell::Blocked)
                .map_err(|e| e.to_string())?;
        }
        let mut peer = PeerDStarLite::new();
        let _ = peer.initialize(&cgrid, PeerRequest::new(point(goal), point(agent)));
        for _ in 0..EPISODE {
            if tick == ticks {
                break;
            }
            let path = ours.path(&grid, s).map(|p| p.cells).unwrap_or_default();
            // The edit: a wall on the path (2/3), or an earlier wall lifted.
            let remove = !walls.is_empty() && (path.len() < 3 || rng.chance(1.0 / 3.0));
            let (p, t) = if remove {
                (walls.swap_remove(rng.below(walls.len())), Terrain::FREE)
            } else if path.len() >= 3 {
                let ahead = near.map_or(path.len() - 2, |n| n.min(path.len() - 2));
                let p = path[1 + rng.below(ahead)];
                walls.push(p);
                (p, Terrain::Wall)
            } else {
                break;
            };
            grid.set(p, t).expect("on the grid");
            let cell = if t == Terrain::Wall {
                Cell::Blocked
            } else {
                Cell::Open
            };
            let changed = [grid.index(p).expect("on the grid")];
            let mut peer_cost = None;
            for j in 0..2 {
                let t0 = Instant::now();
                if (j + tick) % 2 == 0 {
                    ours.set_starts(&grid, &[s]);
                    ours.cells_changed(&grid, &changed);
                    ours_e += ours.compute(&grid).expanded;
                    ours_t.push(t0.elapsed());
                } else {
                    peer.update_cell(point(p), cell);
                    let r = peer.replan();
                    peer_t.push(t0.elapsed());
                    let r = r.map_err(|e| format!("tick {tick}: the peer refused: {e}"))?;
                    peer_e += r.visited_nodes() as u64;
                    peer_cost = r.cost();
                }
            }
            let c = ours.cost_to_goal(s);
            let ours_cost = (c != INFINITY).then(|| cost::to_f64(c).round() as usize);
            if ours_cost != peer_cost {
                return Err(format!(
                    "tick {tick}: gridwalk D* Lite cost {ours_cost:?} but condor's {peer_cost:?}; the comparison would be meaningless"
                ));
            }
            tick += 1;
            if ours_cost.is_none() {
                break;
            }
        }
    }
    let samples = |v: Vec<Duration>| Samples { samples: v };
    Ok(((samples(ours_t), ours_e), (samples(peer_t), peer_e), ticks))
}

fn point(p: Pos) -> Point {
    Point::new(p.x as usize, p.y as usize)
}
