//! The plugin's messages: what a game asks of the world ([`TileEdit`], [`SpawnAgent`],
//! [`ClearWalls`]), and what the world tells it back ([`Arrived`], [`AgentRefused`],
//! [`EditRefused`]).

use bevy::prelude::*;
use gridwalk_core::sim::SimError;
use gridwalk_core::{Pos, Terrain};

/// Registers the messages below.
pub(crate) fn register(app: &mut App) {
    app.add_message::<TileEdit>()
        .add_message::<SpawnAgent>()
        .add_message::<ClearWalls>()
        .add_message::<Arrived>()
        .add_message::<AgentRefused>()
        .add_message::<EditRefused>()
        .add_message::<WallsCleared>();
}

/// Set one cell's terrain at the next tick. Refused ([`EditRefused`]) on a cell that holds an
/// agent or is a goal, or that is off the map. The planners are told of the cell and repair.
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

/// An agent asked for could not be placed (its start is a wall or off the map, its goal
/// unreachable from nowhere, ...). An entity of the game's keeps its components but gets no
/// [`GridAgent`](crate::GridAgent).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct AgentRefused {
    /// The entity it was spawned as, if the game spawned one.
    pub entity: Option<Entity>,
    /// Why, in words.
    pub reason: String,
}

/// An edit of a tick was refused.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct EditRefused {
    /// The cell.
    pub pos: Pos,
    /// Why.
    pub error: SimError,
}

/// A [`ClearWalls`] was applied.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallsCleared {
    /// How many walls became ground.
    pub count: usize,
}
