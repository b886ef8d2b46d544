//! Mouse and keys: the cursor becomes a tile, and clicks, strokes and keys become messages.
//!
//! [`update_cursor`] turns the window cursor into a world point with the map camera and then
//! into a cell with the pure [`crate::map_frame`] functions, storing the result in
//! [`CursorTile`](crate::ui_state::CursorTile). Every other system here reads only that
//! resource and `ButtonInput`, so headless tests inject tile-level input by setting it and
//! pressing buttons.
//!
//! - Left click: a start, then its goal: an agent joins at the next tick
//!   ([`SpawnAgent`](crate::sim::SpawnAgent)).
//! - Middle press or drag: paints the [`Brush`](crate::ui_state::Brush) (walls, or a weight)
//!   along the stroke, every cell between two cursor samples included.
//! - Right press or drag: back to plain ground.
//! - Wheel, Shift with a drag, the arrow keys and F: zoom, pan and fit ([`camera`]).
//! - Keys: see [`CONTROLS`](crate::controls::CONTROLS).
//!
//! Nothing here edits the simulation directly: the next tick applies the messages.

pub mod camera;
mod cursor;
mod keys;
mod mouse;

use bevy::prelude::*;

use crate::explain::ExplainControl;
use crate::map_frame::MapView;
use crate::schedule::{self, FrameSystems};
use crate::ui_state::keyboard_free;

pub use cursor::update_cursor;
pub use keys::{escape_key, next_agent, view_keys, world_keys};
use mouse::forget_stale;
pub use mouse::{Stroke, mouse_input};

/// The input feature.
pub fn plugin(app: &mut App) {
    schedule::ensure(app);
    crate::ui_state::init(app);
    // AppExit is registered by every App.
    app.init_resource::<Stroke>()
        .init_resource::<MapView>()
        .init_resource::<camera::PanDrag>()
        .init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>()
        .add_message::<ExplainControl>()
        .add_systems(Update, update_cursor.in_set(FrameSystems::Cursor))
        .add_systems(
            Update,
            (
                forget_stale,
                camera::wheel_zoom,
                camera::drag_pan,
                mouse_input,
                (escape_key, world_keys, view_keys, camera::camera_keys).run_if(keyboard_free),
            )
                .chain()
                .in_set(FrameSystems::Act),
        );
}
