//! How a [`Simulation`](super::Simulation) plans: the algorithm, the moves, the heuristic
//! whether it measures A* from scratch beside its own work, and crowd mode.

use serde::{Deserialize, Serialize};

use crate::grid::Connectivity;
use crate::heuristic::Heuristic;
use crate::planner::Algorithm;

/// Above this many walking agents, [`SimConfig::measure_baseline`] measures nothing.
pub const BASELINE_MAX_AGENTS: usize = 256;

/// How the simulation plans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimConfig {
    /// Which planner.
    pub algorithm: Algorithm,
    /// Which moves are legal.
    pub connectivity: Connectivity,
    /// The heuristic of D* Lite and A* (D* and Dijkstra use none).
    pub heuristic: Heuristic,
    /// Also run A* from scratch for every walking agent each tick, to report what replanning
    /// would have cost next to the repair; skipped on ticks with more than
    /// [`BASELINE_MAX_AGENTS`] walking agents, where it would cost more than the tick itself.
    pub measure_baseline: bool,
    /// Crowd mode: no two agents share a cell, and every move comes from the crowd's step
    /// rule on the planners' exact costs (see `crowd_step.rs`).
    #[serde(default)]
    pub crowd: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            algorithm: Algorithm::DStarLite,
            connectivity: Connectivity::Eight,
            heuristic: Heuristic::Octile,
            measure_baseline: false,
            crowd: false,
        }
    }
}
