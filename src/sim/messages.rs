//! The messages that carry input to the simulation, and the world commands.

use bevy::prelude::*;
use gridwalk_core::format::Scenario;
use gridwalk_core::sim::{Budget, SimConfig};
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::{Pos, Terrain};

/// Registers the messages below.
pub(super) fn register(app: &mut App) {
    app.add_message::<TileEdit>()
        .add_message::<SpawnAgent>()
        .add_message::<ClearWalls>()
        .add_message::<SimCommand>();
}

/// Set one cell's terrain at the next tick. Refused (with a notice) on a cell that holds an
/// agent or is a goal, or that is off the map.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileEdit {
    /// The cell.
    pub pos: Pos,
    /// What it becomes.
    pub terrain: Terrain,
}

/// Add an agent at the next tick.
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

/// A whole-world change, applied at once in `Update`.
#[derive(Message, Clone, Debug)]
pub enum SimCommand {
    /// Replace the map by a seeded random one, with fresh random agents.
    RandomMap {
        /// Share of walls, 0–1.
        density: f64,
        /// The map's seed.
        seed: u64,
        /// How many random agents to add to it.
        agents: usize,
    },
    /// Replace the world by a scenario's map, agents and timed events.
    Load {
        /// The scenario.
        scenario: Box<Scenario>,
        /// Its name, for the panel.
        name: String,
    },
    /// Remove every agent.
    ClearAgents,
    /// Switch planner, heuristic or connectivity: every agent is planned again.
    SetConfig(SimConfig),
    /// Add random agents at the next tick.
    SpawnRandom {
        /// How many agents.
        agents: usize,
        /// Over how many new goals.
        goals: usize,
    },
    /// What agents added from now on do on arrival.
    SetOnArrival(OnArrival),
    /// Turn the dynamic world on (with a setting) or off, from the next tick on.
    SetDynamic(Option<DynamicWorld>),
    /// Wanderers draw their goals from this many destinations (0: any reachable cell).
    SetDestinations(usize),
    /// Set the planner-memory and planning budgets.
    SetBudget(Budget),
    /// Unknown terrain on (with a sensor range) or off, from the next tick on.
    SetSensing(Option<u32>),
}

/// How many recent computes each planner keeps for explain mode.
pub const EXPLAIN_HISTORY: usize = 32;
