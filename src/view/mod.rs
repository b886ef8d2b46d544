//! Drawing the world: the tile texture, the fitted camera, agents, goals, paths and overlays.
//! What is drawn comes from the simulation and from [`crate::observe`]; its colours from
//! [`crate::theme`].
//!
//! - [`tiles`]: the grid as one texel per tile, redrawn only where it changes.
//! - [`agents`]: agent sprites gliding between cells, and the selected agent's path and rings.
//! - [`marks`]: every other path, goals, arrived and blocked agents: retained gizmos rebuilt
//!   only when a tick changes them.
//! - [`overlay`]: a second texture over the tiles for the heat map, the g values and the
//!   explain replay.
//! - [`fog`]: unknown terrain: the fog over unsensed cells, faint unknown walls and the
//!   selected agent's sensor square.
//! - [`explain`]: explain mode's marks: the replayed agent's ends and a search's path.
//! - [`grid_texture`]: the one-texel-per-cell images, in chunks uploaded only when changed,
//!   that tiles and overlay share.
//!
//! The camera shows the [`MapView`]: the whole map in the part of the window the panel leaves
//! free, through resizes, until the player zooms or pans (input changes the view; F fits it
//! again). One world unit is one tile; see [`crate::map_frame`].

pub mod agents;
pub mod explain;
pub mod fog;
pub mod grid_texture;
pub mod marks;
pub mod overlay;
pub mod tiles;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::map_frame::{Frame, MapCamera, MapView, clamp_view, panel_left};
use crate::schedule::{self, FrameSystems};
use crate::sim::GridSim;
use crate::theme::palette::BACKGROUND;
use crate::ui_state::UiRects;

/// The view feature.
pub fn plugin(app: &mut App) {
    schedule::ensure(app);
    crate::ui_state::init(app);
    app.insert_resource(ClearColor(BACKGROUND))
        .init_resource::<MapView>()
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, show_view.in_set(FrameSystems::View))
        .add_plugins((
            tiles::plugin,
            agents::plugin,
            overlay::plugin,
            explain::plugin,
            fog::plugin,
        ));
}

fn spawn_camera(mut commands: Commands) {
    // No MSAA: tiles are axis-aligned texels, and under a software renderer 4× MSAA more
    // than doubled the cost of every frame.
    commands.spawn((Camera2d, MapCamera, Msaa::Off));
}

/// Keeps the view valid for the window, the panel and the map (fitted if it follows the
/// fit), and puts the camera where it says.
fn show_view(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Projection, &mut Transform), With<MapCamera>>,
    state: Res<GridSim>,
    ui: Res<UiRects>,
    mut view: ResMut<MapView>,
    mut map: Local<Vec2>,
) {
    let grid = state.sim().grid();
    let frame = Frame {
        map: Vec2::new(grid.width() as f32, grid.height() as f32),
        window: Vec2::new(window.width(), window.height()),
        left: panel_left(&ui.0),
    };
    // A map of another size is shown whole.
    let mut next = *view;
    if *map != frame.map {
        *map = frame.map;
        next.fitted = true;
    }
    let next = clamp_view(next, &frame);
    if next != *view {
        *view = next;
    }
    let (mut projection, mut transform) = camera.into_inner();
    if let Projection::Orthographic(ortho) = &mut *projection
        && ortho.scale != next.scale
    {
        ortho.scale = next.scale;
    }
    if transform.translation.truncate() != next.center {
        transform.translation.x = next.center.x;
        transform.translation.y = next.center.y;
    }
}
