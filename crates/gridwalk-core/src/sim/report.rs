//! What a [`Simulation`](super::Simulation) reports: the work of its replans, the computes it
//! keeps for explain, and why it refused an agent or an edit.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::agents::AgentId;
use crate::cost::Cost;
use crate::grid::{GridError, Pos};
use crate::stats::SearchStats;
use crate::trace::Trace;

/// One compute of one goal planner, kept for explaining it afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputeRecord {
    /// Ticks completed when it ran ([`Simulation::tick_count`](super::Simulation::tick_count) then).
    pub tick: u64,
    /// The planner's goal.
    pub goal: Pos,
    /// Every step it took.
    pub trace: Trace,
    /// Its work counters.
    pub stats: SearchStats,
    /// D* Lite's `km` after it (0 for D*).
    pub km: Cost,
    /// How many walking agents the planner served.
    pub agents: usize,
    /// Its wall-clock time, in microseconds.
    pub micros: u64,
}

/// The work of one replan (or a sum of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickStats {
    /// Work of the configured planner.
    pub search: SearchStats,
    /// Wall-clock time of the planner's work, in microseconds.
    pub micros: u64,
    /// What A* from scratch expanded for the same agents (when measured).
    pub baseline_expanded: u64,
    /// What A* from scratch took, in microseconds (when measured).
    pub baseline_micros: u64,
    /// Number of replans summed here.
    pub replans: u64,
    /// Wall-clock time of the incremental planners' computes alone, in nanoseconds (a part
    /// of `micros`, for the navigate track's search-alone timer). Not serialized.
    #[serde(skip)]
    pub search_nanos: u64,
}

add_fields!(TickStats: search, micros, baseline_expanded, baseline_micros, replans, search_nanos);

/// Why an agent or an edit was refused. The simulation is unchanged when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// The cell is off the map.
    Grid(GridError),
    /// A start or goal on a wall.
    OnWall(Pos),
    /// An edit on a cell that holds an agent.
    HoldsAgent {
        /// The refused cell.
        pos: Pos,
        /// The agent standing there.
        agent: AgentId,
    },
    /// An edit on a cell that is an agent's goal.
    IsGoal {
        /// The refused cell.
        pos: Pos,
        /// An agent heading there.
        agent: AgentId,
    },
    /// No agent has this id.
    NoSuchAgent(AgentId),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Grid(e) => write!(f, "{e}"),
            SimError::OnWall(p) => write!(f, "cell {p} is a wall"),
            SimError::HoldsAgent { pos, agent } => {
                write!(f, "cell {pos} holds agent {agent}")
            }
            SimError::IsGoal { pos, agent } => write!(f, "cell {pos} is the goal of agent {agent}"),
            SimError::NoSuchAgent(id) => write!(f, "there is no agent {id}"),
        }
    }
}

impl std::error::Error for SimError {}

impl From<GridError> for SimError {
    fn from(e: GridError) -> Self {
        SimError::Grid(e)
    }
}

/// What [`Simulation::tick`](super::Simulation::tick) did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// The edits refused, with why.
    pub refused: Vec<(Pos, SimError)>,
    /// The planners' work.
    pub stats: TickStats,
}
