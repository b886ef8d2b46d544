//! Navigation in unknown terrain, the experiment of the D\* Lite and MPAA\* papers: one agent
//! walks from a start to a goal knowing only what it senses within a range, through the
//! simulation's own tick ([`Simulation`] with [`Simulation::set_sensor_range`]), not a
//! separate re-implementation. `gridwalk-cli navigate` runs it on every problem of a Moving AI
//! scenario file, and the compare bench's `navigate` workload can call it too.
//!
//! Beside the simulation's planners (whose A\* searches afresh every tick), [`Replan::OnPathChange`]
//! is the papers' baseline, *repeated A\**: a fresh forward A\* only when what was sensed
//! changed a move of the current path. It senses exactly as the simulation does (the
//! Chebyshev square and the goal cell, on a known map of plain ground) and follows its path
//! on the true map.
//!
//! ```
//! use gridwalk_core::tracks::navigate::{Navigate, navigate};
//! use gridwalk_core::{Algorithm, Grid, Pos, Terrain};
//!
//! // A wall across the way but for a gap at the bottom, which the agent must find.
//! let mut grid = Grid::new(12, 6).unwrap();
//! for y in 0..5 {
//!     grid.set(Pos::new(6, y), Terrain::Wall).unwrap();
//! }
//! for algorithm in Algorithm::ALL {
//!     let run = Navigate::new(algorithm, 1);
//!     let nav = navigate(&grid, Pos::new(1, 1), Pos::new(10, 1), &run).unwrap();
//!     assert!(nav.arrived, "{algorithm}");
//!     assert!(nav.searches >= 2, "it replanned on meeting the wall");
//! }
//! ```

use crate::cost::Cost;
use crate::grid::{Connectivity, Grid, Pos};
use crate::heuristic::Heuristic;
use crate::planner::Algorithm;
use crate::search::{Mode, SearchRequest, SearchSpace};
use crate::sim::{AgentStatus, MAX_SENSOR_RANGE, SimConfig, SimError, Simulation, TickStats};

/// Ticks allowed per cell of the map by default ([`Navigate::max_ticks`]): an agent in
/// unknown terrain may walk much more than the optimal path, but a bound keeps a bug from
/// looping forever.
pub const TICKS_PER_CELL: u64 = 16;

/// How to navigate: the planner, the sensor range, the moves and the tick bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Navigate {
    /// The planner.
    pub algorithm: Algorithm,
    /// The sensor range, 1 to [`MAX_SENSOR_RANGE`] (clamped).
    pub range: u32,
    /// The moves (eight-connected, no corner cut: the Moving AI model, by default).
    pub connectivity: Connectivity,
    /// The heuristic (octile by default).
    pub heuristic: Heuristic,
    /// The most ticks a navigation may take; `None`: [`TICKS_PER_CELL`] per cell of the map.
    pub max_ticks: Option<u64>,
    /// When the planner searches ([`Replan::EveryTick`] by default).
    pub replan: Replan,
}

/// When a navigation plans.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Replan {
    /// Every tick, through the simulation: D\* Lite and D\* repair what sensing changed, A\*
    /// and Dijkstra search afresh.
    #[default]
    EveryTick,
    /// Repeated A\* (or Dijkstra or greedy, by [`Algorithm::fresh_mode`]): a fresh search from
    /// the agent's cell at the start and whenever sensing changed the known map on the current
    /// path (a cell of it, or a corner a diagonal move of it passes). Costs only rise as the
    /// agent learns, so a path no discovery touched is still optimal. The incremental
    /// algorithms ignore it: they repair every tick anyway.
    OnPathChange,
}

impl Navigate {
    /// `algorithm` with sensor range `range`, on the Moving AI model (eight-connected,
    /// octile), with the default tick bound.
    pub fn new(algorithm: Algorithm, range: u32) -> Navigate {
        Navigate {
            algorithm,
            range,
            connectivity: Connectivity::Eight,
            heuristic: Heuristic::Octile,
            max_ticks: None,
            replan: Replan::EveryTick,
        }
    }
}

/// What one navigation did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Navigation {
    /// Whether the agent reached its goal.
    pub arrived: bool,
    /// The cost of the moves it made, on the true map.
    pub travelled: Cost,
    /// Moves made.
    pub moves: u64,
    /// Ticks run after the first plan.
    pub ticks: u64,
    /// Replans that expanded at least one cell (a repair with nothing to do is no search).
    pub searches: u64,
    /// Cells expanded over all replans.
    pub expanded: u64,
    /// Planner time over all replans, in microseconds: for the simulation, its replan timer
    /// (each replan's bookkeeping and computes, rounded down per replan); for repeated A\*,
    /// its searches.
    pub micros: u64,
    /// The fair timer, the same boundary for every planner: all the planning work of each
    /// tick before its moves are ready (sensing and what it changes in the planners, every
    /// piece of bookkeeping, the searches), in nanoseconds. For the simulation, its whole
    /// [`Simulation::replan`]; for repeated A\*, sensing, the path check, the search and the
    /// path's bookkeeping.
    pub planning_nanos: u64,
    /// Cells whose known terrain sensing changed, over all ticks.
    pub discovered: u64,
    /// The searches alone, in nanoseconds: the incremental planners' computes, or repeated
    /// A\*'s search calls. A part of [`planning_nanos`](Self::planning_nanos).
    pub search_nanos: u64,
}

impl Navigation {
    fn count(&mut self, stats: TickStats, planning: std::time::Duration) {
        self.searches += u64::from(stats.search.expanded > 0);
        self.expanded += stats.search.expanded;
        self.micros += stats.micros;
        self.search_nanos += stats.search_nanos;
        self.planning_nanos += planning.as_nanos() as u64;
    }
}

/// Runs [`Simulation::replan`], timed: its stats and its wall-clock time.
fn timed_replan(sim: &mut Simulation) -> (TickStats, std::time::Duration) {
    let t = web_time::Instant::now();
    let stats = sim.replan();
    (stats, t.elapsed())
}

/// One agent navigates on `grid` (the true map) from `start` to `goal` in unknown terrain, as
/// `run` says: it senses, plans on what it knows, moves one cell per tick, until it arrives,
/// its planner finds no path on what it knows, or the tick bound is reached. A start or goal
/// off the map or on a wall is an error.
///
/// The simulation's one-off setup (a replan before the agent is added, which labels the known
/// map's components for the pockets) is left out of the counts: they hold the planner's work.
pub fn navigate(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    run: &Navigate,
) -> Result<Navigation, SimError> {
    if run.replan == Replan::OnPathChange && !run.algorithm.is_incremental() {
        return repeated(grid, start, goal, run);
    }
    let config = SimConfig {
        algorithm: run.algorithm,
        connectivity: run.connectivity,
        heuristic: run.heuristic,
        measure_baseline: false,
        crowd: false,
        rotation: false,
    };
    let mut sim = Simulation::new(grid.clone(), config);
    sim.set_sensor_range(Some(run.range));
    // Setup, not planning: with no agent, this replan only labels the known map.
    sim.replan();
    let id = sim.add_agent(start, goal)?;
    let max_ticks = (run.max_ticks).unwrap_or(TICKS_PER_CELL.saturating_mul(grid.len() as u64));
    let mut nav = Navigation::default();
    let (stats, took) = timed_replan(&mut sim);
    nav.count(stats, took);
    nav.discovered += sim.last_discovered().map_or(0, |d| d.len() as u64);
    while let Some(a) = sim.agent(id) {
        match a.status {
            AgentStatus::Arrived => {
                nav.arrived = true;
                break;
            }
            AgentStatus::NoPath => break,
            // Without a planning budget no plan waits; with one, a waiting plan walks later.
            AgentStatus::Walking
            | AgentStatus::Planning
            | AgentStatus::Waiting
            | AgentStatus::Stuck
                if nav.ticks >= max_ticks =>
            {
                break;
            }
            AgentStatus::Walking
            | AgentStatus::Planning
            | AgentStatus::Waiting
            | AgentStatus::Stuck => {}
        }
        let from = grid.index(a.pos)?;
        // A tick, timed up to its moves: the replan (sensing, bookkeeping, computes, the
        // agent settled), then the moves. `Simulation::step` is exactly these two.
        let (stats, took) = timed_replan(&mut sim);
        nav.count(stats, took);
        nav.discovered += sim.last_discovered().map_or(0, |d| d.len() as u64);
        sim.advance();
        nav.ticks += 1;
        let Some(a) = sim.agent(id) else { break };
        let to = grid.index(a.pos)?;
        if to != from {
            nav.moves += 1;
            // A move the simulation made is legal on the true map, which no edit changes here.
            nav.travelled += grid.move_cost(from, to, run.connectivity).unwrap_or(0);
        }
    }
    Ok(nav)
}

/// Repeated A\* ([`Replan::OnPathChange`]): the same sensing and moves as the simulation's, a
/// fresh search only when a discovery touched the current path.
fn repeated(grid: &Grid, start: Pos, goal: Pos, run: &Navigate) -> Result<Navigation, SimError> {
    for p in [start, goal] {
        if grid.terrain(p)? == crate::grid::Terrain::Wall {
            return Err(SimError::OnWall(p));
        }
    }
    let conn = run.connectivity;
    let range = run.range.clamp(1, MAX_SENSOR_RANGE) as usize;
    let mut known = Grid::new(grid.width(), grid.height()).map_err(SimError::Grid)?;
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let goal_cell = grid.index(goal)?;
    let mut cell = grid.index(start)?;
    // The current path's cells from the agent on, and per cell its index there (or MAX).
    let mut path: Vec<usize> = Vec::new();
    let mut on_path = vec![u32::MAX; grid.len()];
    // The planned cost of each move of the path, and the agent's index on it.
    let mut steps: Vec<Cost> = Vec::new();
    let mut at = 0usize;
    let mut changed = Vec::new();
    let mut space = SearchSpace::new();
    let max_ticks = (run.max_ticks).unwrap_or(TICKS_PER_CELL.saturating_mul(grid.len() as u64));
    let mut nav = Navigation::default();
    let mut stale = true;
    loop {
        // The fair timer: from sensing to the path being ready, as for the simulation.
        let planning = web_time::Instant::now();
        // Sense: the square and the goal cell take their true terrain.
        changed.clear();
        let (x, y) = (cell % w, cell / w);
        let (x0, x1) = (x.saturating_sub(range), (x + range).min(w - 1));
        let rows = y.saturating_sub(range)..=(y + range).min(h - 1);
        let cells = rows.flat_map(|r| (x0..=x1).map(move |c| r * w + c));
        for c in cells.chain([goal_cell]) {
            if known.weight(c) != grid.weight(c) {
                let p = grid.pos(c);
                known.set(p, grid.terrain(p)?)?;
                changed.push(c);
            }
        }
        nav.discovered += changed.len() as u64;
        // A discovery touches the path when a move of it starts or ends in its 3×3 block.
        let touched = changed.iter().any(|&c| {
            known
                .affected_by(c)
                .any(|v| on_path[v] != u32::MAX && on_path[v] as usize >= at)
        });
        if stale || (touched && !unchanged(&known, &path, &steps, at, conn)) {
            stale = false;
            for &c in &path {
                on_path[c] = u32::MAX;
            }
            path.clear();
            steps.clear();
            at = 0;
            let req = match run.algorithm.fresh_mode() {
                Mode::Dijkstra => SearchRequest::dijkstra(grid.pos(cell), goal, conn),
                mode => {
                    SearchRequest::astar(grid.pos(cell), goal, conn, run.heuristic).with_mode(mode)
                }
            };
            let t = web_time::Instant::now();
            let r = space.search(&known, &req, None)?;
            let took = t.elapsed();
            nav.micros += took.as_micros() as u64;
            nav.search_nanos += took.as_nanos() as u64;
            nav.searches += 1;
            nav.expanded += r.stats.expanded;
            let Some(found) = r.path else {
                nav.planning_nanos += planning.elapsed().as_nanos() as u64;
                break;
            };
            for (i, p) in found.cells.iter().enumerate() {
                let c = grid.index(*p)?;
                on_path[c] = i as u32;
                if let Some(&prev) = path.last() {
                    // The path's moves are legal on the known map it was found on.
                    steps.push(known.move_cost(prev, c, conn).unwrap_or(0));
                }
                path.push(c);
            }
        }
        nav.planning_nanos += planning.elapsed().as_nanos() as u64;
        if cell == goal_cell {
            nav.arrived = true;
            break;
        }
        if nav.ticks >= max_ticks {
            break;
        }
        // Move one cell along the path, on the true map (sensed, so legal).
        let Some(&next) = path.get(at + 1) else { break };
        let Some(c) = grid.move_cost(cell, next, conn) else {
            break;
        };
        nav.travelled += c;
        nav.moves += 1;
        nav.ticks += 1;
        at += 1;
        cell = next;
    }
    Ok(nav)
}

/// Whether every move of the path from index `at` on still has the cost it was planned with
/// on `known` (costs only rise as the agent learns, so such a path is still optimal).
fn unchanged(known: &Grid, path: &[usize], steps: &[Cost], at: usize, conn: Connectivity) -> bool {
    (at..steps.len()).all(|i| known.move_cost(path[i], path[i + 1], conn) == Some(steps[i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::movingai::{load_map, load_scen};
    use crate::search::SearchSpace;

    /// Repeated A\* on arena: it arrives on every problem, never cheaper than the optimum (a
    /// search on the true map), with at most the every-tick A\*'s searches; with a range that
    /// covers the map it searches once and walks an optimum.
    #[test]
    fn repeated_astar_arrives_searching_only_on_path_changes() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/movingai/");
        let grid = load_map(std::path::Path::new(&format!("{dir}arena.map"))).unwrap();
        let scen = load_scen(std::path::Path::new(&format!("{dir}arena.map.scen"))).unwrap();
        let mut space = SearchSpace::new();
        for p in scen.iter().step_by(7) {
            let req = SearchRequest::astar(p.start, p.goal, Connectivity::Eight, Heuristic::Octile);
            let best = space.search(&grid, &req, None).unwrap().path.unwrap().cost;
            for range in [1, 7, MAX_SENSOR_RANGE] {
                let every = navigate(
                    &grid,
                    p.start,
                    p.goal,
                    &Navigate::new(Algorithm::AStar, range),
                );
                let run = Navigate {
                    replan: Replan::OnPathChange,
                    ..Navigate::new(Algorithm::AStar, range)
                };
                let nav = navigate(&grid, p.start, p.goal, &run).unwrap();
                let at = format!("line {}, range {range}", p.line);
                assert!(nav.arrived, "{at}");
                assert!(nav.travelled >= best, "{at}");
                assert!(nav.searches <= every.unwrap().searches, "{at}");
                if range == MAX_SENSOR_RANGE {
                    assert_eq!((nav.searches, nav.travelled), (1, best), "{at}");
                }
            }
        }
    }
}
