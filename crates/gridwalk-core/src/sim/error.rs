//! Why a [`Simulation`](super::Simulation) refused an agent or an edit.

use std::fmt;

use super::id::AgentId;
use crate::grid::{GridError, Pos};

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
    /// Crowd mode: an edit on the start of an agent waiting to enter.
    Entering {
        /// The refused cell.
        pos: Pos,
        /// The agent waiting to enter there.
        agent: AgentId,
    },
    /// No agent has this id.
    NoSuchAgent(AgentId),
    /// Crowd mode: a new agent's start holds another agent.
    StartTaken {
        /// The start.
        pos: Pos,
        /// The agent standing there.
        agent: AgentId,
    },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Grid(e) => write!(f, "{e}"),
            SimError::OnWall(p) => write!(f, "cell {p} is a wall"),
            SimError::StartTaken { pos, agent } => {
                write!(
                    f,
                    "cell {pos} holds agent {agent} (crowd mode: one agent a cell)"
                )
            }
            SimError::HoldsAgent { pos, agent } => {
                write!(f, "cell {pos} holds agent {agent}")
            }
            SimError::IsGoal { pos, agent } => write!(f, "cell {pos} is the goal of agent {agent}"),
            SimError::Entering { pos, agent } => {
                write!(f, "cell {pos} is where agent {agent} waits to enter")
            }
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
