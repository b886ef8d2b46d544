//! The player-facing state every feature reads: what is selected, shown, brushed, pending
//! and hovered, and where the panel lies. Input and the panel write it; the view, explain
//! and the simulation's commands read it. Holding it here, apart from any feature, keeps the
//! features from importing each other.

use std::collections::HashMap;

use bevy::prelude::*;
use gridwalk_core::sim::AgentId;
use gridwalk_core::{Pos, Terrain};

use crate::sim::GridSim;

/// Where the cursor points, in the world and on the grid.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct CursorTile {
    /// The cursor's world point, when it is in the window.
    pub world: Option<Vec2>,
    /// The cell under it, unclamped (may lie off the map), when it is in the window.
    pub cell: Option<IVec2>,
    /// Whether the cursor is over the panel or egui is using the pointer.
    pub over_ui: bool,
}

impl CursorTile {
    /// The cursor over cell `pos`, off the UI.
    pub fn at(pos: Pos) -> CursorTile {
        CursorTile {
            world: None,
            cell: Some(IVec2::new(pos.x as i32, pos.y as i32)),
            over_ui: false,
        }
    }
}

/// What the middle button paints.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Brush(pub Terrain);

impl Default for Brush {
    fn default() -> Self {
        Brush(Terrain::Wall)
    }
}

/// The start placed by a first left click, waiting for its goal.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingStart(pub Option<Pos>);

/// The cell inspector: when on, the panel shows the selected agent's planner's values for the
/// cell under the mouse.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inspector {
    /// Whether it is shown.
    pub on: bool,
}

/// The agent selected in the panel (or with Tab), by its entity: a rebuild of the world gives
/// its agent a new [`AgentId`] but keeps the entity, so the selection stays on it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection(pub Option<Entity>);

impl Selection {
    /// Selects the agent `id` now has, or nothing when it has no entity.
    pub fn of(state: &GridSim, id: Option<AgentId>) -> Selection {
        Selection(id.and_then(|id| state.entity(id)))
    }

    /// The selected agent's id in the simulation as it is now; `None` when nothing is
    /// selected or its agent is gone.
    pub fn agent(&self, state: &GridSim) -> Option<AgentId> {
        self.0.and_then(|entity| state.agent_of(entity))
    }
}

/// Which overlays are shown.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overlays {
    /// The cells expanded by the last repairs, fading.
    pub heat: bool,
    /// The selected agent's planner's costs to its goal.
    pub g_values: bool,
    /// Every agent's path (otherwise only the selected one's).
    pub all_paths: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            heat: true,
            g_values: false,
            all_paths: true,
        }
    }
}

/// Settings of the world commands: random maps and spawned agents.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct WorldSettings {
    /// Share of walls of the next random map.
    pub density: f64,
    /// Seed of the next random map.
    pub seed: u64,
    /// How many agents "spawn" adds.
    pub spawn_agents: usize,
    /// Over how many goals.
    pub spawn_goals: usize,
    /// The sensor range unknown terrain (K) turns on with, 1 to 64.
    pub sensor_range: u32,
}

impl Default for WorldSettings {
    fn default() -> Self {
        WorldSettings {
            density: crate::maps::DEFAULT_DENSITY,
            seed: crate::maps::DEFAULT_SEED,
            spawn_agents: 8,
            spawn_goals: 2,
            sensor_range: crate::presets::EXPLORE_RANGE,
        }
    }
}

/// Edits asked for but not yet applied by a tick, to draw them at once and to know a cell's
/// terrain-to-be.
#[derive(Resource, Default, Debug)]
pub struct EditPreview {
    /// Cell → terrain it will get.
    pub cells: HashMap<Pos, Terrain>,
    pub(crate) seen: (u64, u64),
}

/// Whether the user is typing in a panel text field; game keys are off meanwhile.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Typing(pub bool);

/// Run condition: game keys are on (nobody is typing in the panel).
pub fn keyboard_free(typing: Option<Res<Typing>>) -> bool {
    typing.is_none_or(|t| !t.0)
}

/// Screen rectangles covered by the UI, in logical pixels, filled by the panel each frame.
#[derive(Resource, Default, Debug, Clone)]
pub struct UiRects(pub Vec<Rect>);

/// Registers every resource above; calling it again changes nothing, so each feature that
/// reads or writes this state can make sure of it.
pub fn init(app: &mut App) {
    app.init_resource::<CursorTile>()
        .init_resource::<Brush>()
        .init_resource::<PendingStart>()
        .init_resource::<Selection>()
        .init_resource::<Inspector>()
        .init_resource::<Overlays>()
        .init_resource::<WorldSettings>()
        .init_resource::<EditPreview>()
        .init_resource::<Typing>()
        .init_resource::<UiRects>();
}
