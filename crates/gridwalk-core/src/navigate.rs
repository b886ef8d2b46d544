//! Navigation in unknown terrain, the experiment of the D\* Lite and MPAA\* papers: one agent
//! walks from a start to a goal knowing only what it senses within a range, through the
//! simulation's own tick ([`Simulation`] with [`Simulation::set_sensor_range`]), not a
//! separate re-implementation. `gridwalk-cli navigate` runs it on every problem of a Moving AI
//! scenario file, and the compare bench's `navigate` workload can call it too.
//!
//! ```
//! use gridwalk_core::navigate::{Navigate, navigate};
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
use crate::sim::{AgentStatus, SimConfig, SimError, Simulation, TickStats};

/// Ticks allowed per cell of the map by default ([`Navigate::max_ticks`]): an agent in
/// unknown terrain may walk much more than the optimal path, but a bound keeps a bug from
/// looping forever.
pub const TICKS_PER_CELL: u64 = 16;

/// How to navigate: the planner, the sensor range, the moves and the tick bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Navigate {
    /// The planner.
    pub algorithm: Algorithm,
    /// The sensor range, 1 to [`MAX_SENSOR_RANGE`](crate::sim::MAX_SENSOR_RANGE) (clamped).
    pub range: u32,
    /// The moves (eight-connected, no corner cut: the Moving AI model, by default).
    pub connectivity: Connectivity,
    /// The heuristic (octile by default).
    pub heuristic: Heuristic,
    /// The most ticks a navigation may take; `None`: [`TICKS_PER_CELL`] per cell of the map.
    pub max_ticks: Option<u64>,
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
    /// Planner time over all replans, in microseconds.
    pub micros: u64,
}

impl Navigation {
    fn count(&mut self, stats: TickStats) {
        self.searches += u64::from(stats.search.expanded > 0);
        self.expanded += stats.search.expanded;
        self.micros += stats.micros;
    }
}

/// One agent navigates on `grid` (the true map) from `start` to `goal` in unknown terrain, as
/// `run` says: it senses, plans on what it knows, moves one cell per tick, until it arrives,
/// its planner finds no path on what it knows, or the tick bound is reached. A start or goal
/// off the map or on a wall is an error.
pub fn navigate(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    run: &Navigate,
) -> Result<Navigation, SimError> {
    let config = SimConfig {
        algorithm: run.algorithm,
        connectivity: run.connectivity,
        heuristic: run.heuristic,
        measure_baseline: false,
    };
    let mut sim = Simulation::new(grid.clone(), config);
    sim.set_sensor_range(Some(run.range));
    let id = sim.add_agent(start, goal)?;
    let max_ticks = (run.max_ticks).unwrap_or(TICKS_PER_CELL.saturating_mul(grid.len() as u64));
    let mut nav = Navigation::default();
    nav.count(sim.replan());
    while let Some(a) = sim.agent(id) {
        match a.status {
            AgentStatus::Arrived => {
                nav.arrived = true;
                break;
            }
            AgentStatus::NoPath => break,
            // Without a planning budget no plan waits; with one, a waiting plan walks later.
            AgentStatus::Walking | AgentStatus::Planning if nav.ticks >= max_ticks => break,
            AgentStatus::Walking | AgentStatus::Planning => {}
        }
        let from = grid.index(a.pos)?;
        nav.count(sim.step());
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
