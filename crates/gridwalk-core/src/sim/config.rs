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
    /// Agents face a direction and turn (LoRR's `MAPF_T`): each tick one moves a cell ahead,
    /// turns 90° or waits. It holds in crowd mode with four moves ([`SimConfig::turns`]);
    /// elsewhere agents keep their facing. Serialized only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rotation: bool,
}

impl SimConfig {
    /// Whether agents turn: [`rotation`](Self::rotation), in crowd mode, with four moves.
    pub fn turns(&self) -> bool {
        self.rotation && self.crowd && self.connectivity == Connectivity::Four
    }
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            algorithm: Algorithm::DStarLite,
            connectivity: Connectivity::Eight,
            heuristic: Heuristic::Octile,
            measure_baseline: false,
            crowd: false,
            rotation: false,
        }
    }
}
