//! The plugin's messages: what a game asks of the world ([`TileEdit`], [`SpawnAgent`],
//! [`ClearWalls`]), and what the world tells it back ([`Arrived`], [`Refused`],
//! [`EditLanded`], [`WallsCleared`]).

use bevy::prelude::*;
use gridwalk_core::sim::SimError;
use gridwalk_core::{Pos, Terrain};

/// Registers the messages below.
pub(crate) fn register(app: &mut App) {
    app.add_message::<TileEdit>()
        .add_message::<SpawnAgent>()
        .add_message::<ClearWalls>()
        .add_message::<Arrived>()
        .add_message::<Refused>()
        .add_message::<EditLanded>()
        .add_message::<WallsCleared>();
}

/// Set one cell's terrain at the next tick; the planners are told of the cell and repair.
/// Refused ([`Refused`]) on a cell that is a goal or off the map. On a cell an agent stands
/// on (or, in crowd mode, waits to enter) it is held
/// ([`GridwalkSettings::hold_edits`](crate::GridwalkSettings::hold_edits), on by default) and
/// lands at the first tick the cell is free, which [`EditLanded`] tells; a later edit of the
/// same cell replaces a held one ([`GridSim::held_edits`](crate::GridSim::held_edits) lists
/// them).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileEdit {
    /// The cell.
    pub pos: Pos,
    /// What it becomes.
    pub terrain: Terrain,
}

/// Add an agent at the next tick; the plugin spawns its entity. (Spawning an entity with
/// [`GridPos`](crate::GridPos) and [`Goal`](crate::Goal) does the same for an entity of
/// your own.)
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnAgent {
    /// Its first cell.
    pub start: Pos,
    /// Its goal.
    pub goal: Pos,
}

/// Turn every wall into plain ground at the next tick, after that tick's other edits.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClearWalls;

/// An agent reached its goal during the last tick.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrived {
    /// The agent's entity.
    pub entity: Entity,
    /// Its goal, where it stands.
    pub cell: Pos,
}

/// A held [`TileEdit`] landed: its cell was free at this tick, and now has its terrain.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct EditLanded {
    /// The cell.
    pub pos: Pos,
    /// What it became.
    pub terrain: Terrain,
}

/// What a [`Refused`] message refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// An agent (an entity spawned with [`GridPos`](crate::GridPos) and
    /// [`Goal`](crate::Goal), a [`SpawnAgent`], or a scenario's): its start and goal.
    Agent {
        /// Its first cell.
        start: Pos,
        /// Its goal.
        goal: Pos,
    },
    /// A new [`Goal`](crate::Goal) for an agent.
    Goal(Pos),
    /// A [`TileEdit`] of this cell.
    Edit(Pos),
}

/// Something asked of the world that it refused, and why: an agent that cannot be placed
/// (its start is a wall or off the map, ...), a new goal it cannot take, an edit of a cell
/// that is a goal or off the map (or that holds an agent, with
/// [`GridwalkSettings::hold_edits`](crate::GridwalkSettings::hold_edits) off). A refused entity of the game's keeps its components but
/// gets no [`GridAgent`](crate::GridAgent).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// What was asked.
    pub asked: Asked,
    /// The agent's entity: the game's own, or the plugin's for a new goal. `None` for an
    /// edit, and for an agent asked for by a [`SpawnAgent`] message or a scenario.
    pub entity: Option<Entity>,
    /// Why.
    pub error: SimError,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.asked {
            Asked::Agent { start, goal } => write!(f, "agent {start} to {goal} refused"),
            Asked::Goal(goal) => write!(f, "new goal {goal} refused"),
            Asked::Edit(pos) => write!(f, "edit of {pos} refused"),
        }?;
        write!(f, ": {}", self.error)
    }
}

/// A [`ClearWalls`] was applied, at the tick after it was sent.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallsCleared {
    /// How many walls became ground.
    pub count: usize,
}
