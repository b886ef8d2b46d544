//! Mouse and keys: the cursor becomes a tile, and clicks, strokes and keys become messages.
//!
//! [`update_cursor`] turns the window cursor into a world point with the map camera and then
//! into a cell with the pure [`crate::map_frame`] functions, storing the result in [`CursorTile`](crate::ui_state::CursorTile). Every
//! other system here reads only [`CursorTile`](crate::ui_state::CursorTile) and `ButtonInput`, so headless tests inject
//! tile-level input by setting that resource and pressing buttons.
//!
//! - Left click: a start, then its goal: an agent joins at the next tick ([`SpawnAgent`]).
//! - Middle press or drag: paints the [`Brush`] (walls, or a weight) along the stroke, every
//!   cell between two cursor samples included.
//! - Right press or drag: back to plain ground.
//! - Keys: see [`CONTROLS`].
//!
//! Nothing here edits the simulation directly: the next tick applies the messages.

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use gridwalk_core::sim::AgentId;
use gridwalk_core::{Pos, Terrain};

use crate::explain::ExplainControl;
use crate::map_frame::{MapCamera, cell_to_tile, line_cells, world_to_cell};
use crate::notices::{NoticeKind, Notices};
use crate::schedule::{self, FrameSystems};
use crate::sim::{ClearWalls, SimClock, SimCommand, SimState, SpawnAgent, TileEdit};
mod cursor;
mod keys;
mod mouse;

pub use cursor::update_cursor;
pub use keys::{escape_key, next_agent, view_keys, world_keys};
use mouse::forget_stale;
pub use mouse::{Stroke, mouse_input};

use crate::ui_state::{
    Brush, CursorTile, EditPreview, Inspector, Overlays, PendingStart, Selection, UiRects,
    WorldSettings, keyboard_free,
};

/// The controls, as the panel lists them: (input, what it does).
pub const CONTROLS: &[(&str, &str)] = &[
    ("Left click", "place a start, then its goal"),
    ("Middle drag", "paint walls (or the brush's weight)"),
    ("Right drag", "erase to plain ground"),
    ("Esc", "cancel a start; otherwise quit"),
    ("Space", "pause / resume"),
    ("N", "step one tick (pauses)"),
    ("+ / -", "faster / slower ticks"),
    ("0 or W, 2–9", "brush: wall, or weight 2–9"),
    ("R", "new random map"),
    ("C", "clear walls"),
    ("A", "spawn random agents"),
    ("X", "remove all agents"),
    ("Tab", "select the next agent"),
    ("E", "explain: replay the selected agent's last repair"),
    ("Left / Right", "explain: one step back / forward"),
    ("I", "inspect the cell under the mouse"),
    ("D", "dynamic world on / off"),
    ("H / G / P", "heat map / g values / all paths"),
];

/// The input feature.
pub fn plugin(app: &mut App) {
    schedule::ensure(app);
    crate::ui_state::init(app);
    // AppExit is registered by every App.
    app.init_resource::<Stroke>()
        .init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>()
        .add_message::<ExplainControl>()
        .add_systems(Update, update_cursor.in_set(FrameSystems::Cursor))
        .add_systems(
            Update,
            (
                forget_stale,
                mouse_input,
                (escape_key, world_keys, view_keys).run_if(keyboard_free),
            )
                .chain()
                .in_set(FrameSystems::Act),
        );
}
