//! Drawing the world: the tile texture, the fitted camera, agents, goals, paths and overlays.
//!
//! - [`tiles`]: the grid as one texture, one texel per tile, redrawn only when it changes.
//! - [`agents`]: agent sprites gliding between cells, goal markers and path lines (gizmos).
//! - [`overlay`]: a second texture over the tiles for the heat map, the g values and the
//!   explain replay.
//! - [`explain`]: explain mode's marks: the replayed agent's ends and a search's path.
//!
//! The camera keeps the whole map in the part of the window the panel leaves free, through
//! resizes. One world unit is one tile; see [`crate::input::coords`].

pub mod agents;
pub mod explain;
pub mod overlay;
pub mod tiles;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::input::UiRects;
use crate::sim::SimState;

/// The camera that shows the map.
#[derive(Component, Debug, Default)]
pub struct MapCamera;

/// The drawing systems, in `Update` after input and the simulation's commands.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ViewSystems;

/// Background behind the map.
pub const BACKGROUND: Color = Color::srgb(0.11, 0.12, 0.15);

/// The view feature.
pub fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(BACKGROUND))
        .init_resource::<UiRects>()
        .configure_sets(Update, ViewSystems.after(crate::sim::SimCommandSystems))
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, fit_camera.in_set(ViewSystems))
        .add_plugins((
            tiles::plugin,
            agents::plugin,
            overlay::plugin,
            explain::plugin,
        ));
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, MapCamera));
}

/// The camera scale (world units per logical pixel) and position that show a `map` of tiles
/// whole, centred in the window minus a panel of `left` logical pixels on the left, with a
/// small margin. Pure, so it is tested without a window.
pub fn fit(map: Vec2, window: Vec2, left: f32) -> (f32, Vec2) {
    let free = Vec2::new((window.x - left).max(1.0), window.y.max(1.0));
    let margin = 1.04;
    let scale = (map.x / free.x).max(map.y / free.y).max(1e-4) * margin;
    // The map's centre (the world origin) must appear at the free area's centre, which is
    // left/2 pixels right of the window's centre.
    (scale, Vec2::new(-left / 2.0 * scale, 0.0))
}

/// Keeps the map fitted to the free part of the window.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_fits_beside_the_panel() {
        let (scale, at) = fit(Vec2::new(110.0, 100.0), Vec2::new(1400.0, 900.0), 300.0);
        // Height limits: 100 tiles in 900 px.
        assert!((scale - 100.0 / 900.0 * 1.04).abs() < 1e-6);
        // The map's left edge lands right of the panel.
        let left_edge_px = 700.0 + (-55.0 - at.x) / scale;
        assert!(left_edge_px > 300.0, "{left_edge_px}");
        let right_edge_px = 700.0 + (55.0 - at.x) / scale;
        assert!(right_edge_px < 1400.0);
        // A narrow window: width limits.
        let (s2, _) = fit(Vec2::new(110.0, 100.0), Vec2::new(500.0, 900.0), 300.0);
        assert!((s2 - 110.0 / 200.0 * 1.04).abs() < 1e-6);
        // Degenerate sizes do not divide by zero.
        let (s3, _) = fit(Vec2::new(110.0, 100.0), Vec2::ZERO, 300.0);
        assert!(s3.is_finite());
    }
}
