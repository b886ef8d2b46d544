//! Drawing the world: the tile texture, the fitted camera, agents, goals, paths and overlays.
//! What is drawn comes from the simulation and from [`crate::observe`]; its colours from
//! [`crate::theme`].
//!
//! - [`tiles`]: the grid as one texture, one texel per tile, redrawn only when it changes.
//! - [`agents`]: agent sprites gliding between cells, and the selected agent's path and rings.
//! - [`marks`]: every other path, goals, arrived and blocked agents: retained gizmos rebuilt
//!   only when a tick changes them.
//! - [`overlay`]: a second texture over the tiles for the heat map, the g values and the
//!   explain replay.
//! - [`explain`]: explain mode's marks: the replayed agent's ends and a search's path.
//! - [`grid_texture`]: the one-texel-per-cell image and sprite that tiles and overlay share.
//!
//! The camera keeps the whole map in the part of the window the panel leaves free, through
//! resizes. One world unit is one tile; see [`crate::map_frame`].

pub mod agents;
pub mod explain;
pub mod grid_texture;
pub mod marks;
pub mod overlay;
pub mod tiles;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::map_frame::{MapCamera, fit};
use crate::schedule::{self, FrameSystems};
use crate::sim::SimState;
use crate::theme::palette::BACKGROUND;
use crate::ui_state::UiRects;

/// The view feature.
pub fn plugin(app: &mut App) {
    schedule::ensure(app);
    crate::ui_state::init(app);
    app.insert_resource(ClearColor(BACKGROUND))
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, fit_camera.in_set(FrameSystems::View))
        .add_plugins((
            tiles::plugin,
            agents::plugin,
            overlay::plugin,
            explain::plugin,
        ));
}

fn spawn_camera(mut commands: Commands) {
    // No MSAA: tiles are axis-aligned texels, and under a software renderer 4× MSAA more
    // than doubled the cost of every frame.
    commands.spawn((Camera2d, MapCamera, Msaa::Off));
}

fn fit_camera(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Projection, &mut Transform), With<MapCamera>>,
    state: Res<SimState>,
    ui: Res<UiRects>,
) {
    let grid = state.sim().grid();
    let left = ui.0.first().map_or(0.0, |r| r.max.x.max(0.0));
    let (scale, at) = fit(
        Vec2::new(grid.width() as f32, grid.height() as f32),
        Vec2::new(window.width(), window.height()),
        left,
    );
    let (mut projection, mut transform) = camera.into_inner();
    if let Projection::Orthographic(ortho) = &mut *projection
        && (ortho.scale - scale).abs() > 1e-6
    {
        ortho.scale = scale;
    }
    if transform.translation.truncate().distance(at) > 1e-4 {
        transform.translation.x = at.x;
        transform.translation.y = at.y;
    }
}
