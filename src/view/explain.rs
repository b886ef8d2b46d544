//! Explain mode's marks over the map: the replayed agent's cell and goal, and the path of a
//! replayed fresh search once it is done (or the path an MPGAA\* search stopped on). The cells themselves are in [`super::overlay`].

use bevy::prelude::*;

use super::agents::MarkerGizmos;
use crate::explain::ExplainState;
use crate::map_frame::tile_center;
use crate::schedule::FrameSystems;
use crate::sim::GridSim;
use crate::theme::palette::{EXPLAIN_GOAL_COLOR, EXPLAIN_PATH_COLOR, EXPLAIN_START_COLOR};

/// The explain marks feature.
pub fn plugin(app: &mut App) {
    app.add_systems(Update, draw.in_set(FrameSystems::View));
}

fn draw(ex: Res<ExplainState>, state: Res<GridSim>, mut gizmos: Gizmos<MarkerGizmos>) {
    if !ex.active() {
        return;
    }
    let Some((start, goal)) = ex.ends else {
        return;
    };
    let grid = state.sim().grid();
    let (w, h) = (grid.width(), grid.height());
    let s = tile_center(start, w, h);
    let g = tile_center(goal, w, h);
    gizmos.circle_2d(Isometry2d::from_translation(s), 0.6, EXPLAIN_START_COLOR);
    gizmos.circle_2d(Isometry2d::from_translation(g), 0.6, EXPLAIN_GOAL_COLOR);
    if let Some(p) = ex.shown_path() {
        gizmos.linestrip_2d(
            p.cells.iter().map(|&c| tile_center(c, w, h)),
            EXPLAIN_PATH_COLOR,
        );
    }
}
