//! The cursor: window → world → cell, with the map camera.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::map_frame::{MapCamera, world_to_cell};
use crate::sim::GridSim;
use crate::ui_state::{CursorTile, UiRects};

/// Cursor → world → cell. Needs a window and the map camera; without them (headless tests)
/// it does not run and [`CursorTile`](crate::ui_state::CursorTile) keeps what the test put there.
pub fn update_cursor(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<MapCamera>>,
    state: Res<GridSim>,
    ui: Option<Res<UiRects>>,
    wants: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut cursor: ResMut<CursorTile>,
) {
    let (camera, transform) = *camera;
    let grid = state.sim().grid();
    let screen = window.cursor_position();
    let world = screen.and_then(|p| camera.viewport_to_world_2d(transform, p).ok());
    let over_panel = screen.is_some_and(|p| ui.is_some_and(|r| r.0.iter().any(|r| r.contains(p))));
    let egui_busy = wants.is_some_and(|w| w.is_using_pointer() || w.is_popup_open());
    let next = CursorTile {
        world,
        cell: world.map(|w| world_to_cell(w, grid.width(), grid.height())),
        over_ui: over_panel || egui_busy,
    };
    if *cursor != next {
        *cursor = next;
    }
}
