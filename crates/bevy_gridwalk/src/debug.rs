//! Debug drawing (the `debug` feature): every agent's path, and the cells the last repair
//! expanded, as gizmos in their own group ([`RepairGizmos`]), switched by the
//! [`GridwalkDebug`] resource (on from the start). Drawing them needs Bevy's gizmo rendering
//! in the game; the plugin itself renders nothing.

use bevy::prelude::*;
use gridwalk_core::Pos;

use crate::world::GridSim;

/// The gizmo group of the debug drawing.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct RepairGizmos;

/// Draws paths and repaired cells each frame. Cell `(x, y)` is the square of side
/// `tile_size` whose top-left corner is `origin + (x, -y) * tile_size`: rows go down the
/// screen, as in a map file.
#[derive(Clone, Copy, Debug)]
pub struct GridwalkDebugPlugin {
    /// Side of a cell in world units.
    pub tile_size: f32,
    /// Where the top-left corner of cell (0, 0) is, in world units.
    pub origin: Vec2,
}

/// What the debug plugin draws: both on when it is added. Set a field to `false` to stop
/// drawing that part, at any time.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Resource)]
pub struct GridwalkDebug {
    /// Every agent's path (at most 256 agents').
    pub paths: bool,
    /// The cells the last repair expanded.
    pub repairs: bool,
}

impl Default for GridwalkDebug {
    fn default() -> Self {
        GridwalkDebug {
            paths: true,
            repairs: true,
        }
    }
}

/// The layout the debug plugin draws with.
#[derive(Resource, Clone, Copy, Debug)]
struct Layout(GridwalkDebugPlugin);

impl Layout {
    fn center(&self, p: Pos) -> Vec2 {
        let s = self.0.tile_size;
        self.0.origin + Vec2::new((p.x as f32 + 0.5) * s, -(p.y as f32 + 0.5) * s)
    }
}

/// At most this many agents' paths are drawn.
const MAX_PATHS: usize = 256;

impl Plugin for GridwalkDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_gizmo_group::<RepairGizmos>()
            .insert_resource(Layout(*self))
            .init_resource::<GridwalkDebug>()
            .add_systems(Update, draw);
    }
}

fn draw(
    world: Res<GridSim>,
    layout: Res<Layout>,
    on: Res<GridwalkDebug>,
    mut gizmos: Gizmos<RepairGizmos>,
) {
    let sim = world.sim();
    let grid = sim.grid();
    let size = Vec2::splat(layout.0.tile_size * 0.6);
    let expanded = if on.repairs { sim.last_expanded() } else { &[] };
    for &c in expanded {
        let at = layout.center(grid.pos(c as usize));
        let color = Color::srgba(1.0, 0.6, 0.1, 0.5);
        gizmos.rect_2d(Isometry2d::from_translation(at), size, color);
    }
    let paths = if on.paths { MAX_PATHS } else { 0 };
    for a in sim.agents().take(paths) {
        if let Some(path) = sim.path(a.id) {
            let points = path.cells.iter().map(|&p| layout.center(p));
            gizmos.linestrip_2d(points, Color::srgb(0.3, 0.8, 1.0));
        }
    }
}
