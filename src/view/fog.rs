//! Unknown terrain on the map: a fog over the cells no agent has sensed, faint marks where the
//! true map differs from what the agents know, and the selected agent's sensor square.
//!
//! The fog is a third one-texel-per-cell texture ([`GridTexture`]) between the tiles and the
//! overlay. Under it the tiles still show the true map, so a wall no agent knows shows through
//! faintly. It exists only while sensing is on. After a tick or a rebuild, the sensed flags and
//! the known and true weights are compared with those drawn, block by block, as the tiles do;
//! only the cells of changed blocks are recomputed, and only their chunks are uploaded, so a
//! 1024×1024 map costs a few slice comparisons per tick.

use bevy::prelude::*;
use gridwalk_core::Grid;

use super::agents::MarkerGizmos;
use super::grid_texture::GridTexture;
use crate::map_frame::tile_center;
use crate::schedule::FrameSystems;
use crate::sim::GridSim;
use crate::theme::palette::{FOG_COLOR, SENSOR_SQUARE_COLOR, STALE_WALL_COLOR, UNKNOWN_WALL_COLOR};
use crate::ui_state::Selection;

/// Cells compared at once: equal blocks are skipped with one slice comparison.
const BLOCK: usize = 256;

/// The fog texture and what it was drawn from.
#[derive(Resource)]
pub struct FogTexture {
    tex: GridTexture,
    sensed: Vec<bool>,
    known: Vec<u8>,
    truth: Vec<u8>,
}

/// The fog feature.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_fog).add_systems(
        Update,
        (redraw_fog, draw_sensor_square).in_set(FrameSystems::View),
    );
}

fn spawn_fog(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let tex = GridTexture::spawn(&mut commands, &mut images, (0, 0), [0; 4], 0.5);
    commands.insert_resource(FogTexture {
        tex,
        sensed: Vec::new(),
        known: Vec::new(),
        truth: Vec::new(),
    });
}

/// The fog's colour of one cell: fog where never sensed, a faint wall where the true map has
/// a wall the agents do not know of (or lacks one they believe in), clear elsewhere.
pub fn fog_texel(sensed: bool, known: u8, truth: u8) -> [u8; 4] {
    if !sensed {
        FOG_COLOR
    } else if truth == 0 && known != 0 {
        UNKNOWN_WALL_COLOR
    } else if known == 0 && truth != 0 {
        STALE_WALL_COLOR
    } else {
        [0; 4]
    }
}

impl FogTexture {
    /// Draws the cells of the blocks whose sensed flag, known or true weight changed.
    fn update(&mut self, sensed: &[bool], known: &Grid, truth: &Grid) {
        let (known, truth) = (known.weights(), truth.weights());
        if self.sensed.len() != sensed.len() {
            self.sensed = sensed.to_vec();
            self.known = known.to_vec();
            self.truth = truth.to_vec();
            let all: Vec<[u8; 4]> = (0..sensed.len())
                .map(|i| fog_texel(sensed[i], known[i], truth[i]))
                .collect();
            self.tex.set_all(&all);
            return;
        }
        for start in (0..sensed.len()).step_by(BLOCK) {
            let end = (start + BLOCK).min(sensed.len());
            let r = start..end;
            if sensed[r.clone()] == self.sensed[r.clone()]
                && known[r.clone()] == self.known[r.clone()]
                && truth[r.clone()] == self.truth[r.clone()]
            {
                continue;
            }
            self.sensed[r.clone()].copy_from_slice(&sensed[r.clone()]);
            self.known[r.clone()].copy_from_slice(&known[r.clone()]);
            self.truth[r.clone()].copy_from_slice(&truth[r.clone()]);
            for i in r {
                self.tex.set(i, fog_texel(sensed[i], known[i], truth[i]));
            }
        }
    }

    /// What the fog shows at cell `i`, for tests; `None` while sensing is off.
    pub fn shown(&self, i: usize) -> Option<[u8; 4]> {
        self.tex.drawn().get(i).copied()
    }
}

/// Redraws the fog after a tick or a rebuild; makes it when sensing turns on and drops its
/// chunks when sensing turns off.
fn redraw_fog(
    mut commands: Commands,
    state: Res<GridSim>,
    fog: Option<ResMut<FogTexture>>,
    mut images: ResMut<Assets<Image>>,
    mut seen: Local<Option<(u64, u64, Option<u32>)>>,
) {
    let Some(mut fog) = fog else {
        return;
    };
    let sim = state.sim();
    let now = (state.ticks(), state.epoch(), sim.sensor_range());
    if *seen == Some(now) {
        return;
    }
    *seen = Some(now);
    let fog = &mut *fog;
    let Some(sensed) = sim.sensed_cells() else {
        if fog.tex.resize(&mut commands, &mut images, (0, 0)) {
            fog.sensed.clear();
        }
        return;
    };
    let truth = sim.grid();
    let size = (truth.width(), truth.height());
    if fog.tex.resize(&mut commands, &mut images, size) {
        fog.sensed.clear();
    }
    fog.update(sensed, sim.known(), truth);
    fog.tex.flush(&mut images);
}

/// Outlines the cells the selected agent senses.
fn draw_sensor_square(
    state: Res<GridSim>,
    selection: Res<Selection>,
    mut gizmos: Gizmos<MarkerGizmos>,
) {
    let sim = state.sim();
    let Some((lo, hi)) = selection.agent(&state).and_then(|id| sim.sensor_square(id)) else {
        return;
    };
    let (w, h) = (sim.grid().width(), sim.grid().height());
    let (a, b) = (tile_center(lo, w, h), tile_center(hi, w, h));
    let size = (b - a).abs() + Vec2::ONE;
    gizmos.rect_2d(
        Isometry2d::from_translation((a + b) / 2.0),
        size,
        SENSOR_SQUARE_COLOR,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fog_hides_the_unsensed_and_marks_what_the_agents_get_wrong() {
        assert_eq!(fog_texel(false, 1, 0), FOG_COLOR);
        assert_eq!(fog_texel(false, 1, 1), FOG_COLOR);
        assert_eq!(fog_texel(true, 1, 0), UNKNOWN_WALL_COLOR);
        assert_eq!(fog_texel(true, 0, 1), STALE_WALL_COLOR);
        assert_eq!(fog_texel(true, 3, 5), [0; 4]);
        assert_eq!(fog_texel(true, 0, 0), [0; 4]);
    }
}
