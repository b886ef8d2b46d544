//! A second texture over the tiles: the fading heat map of the cells the last repairs
//! expanded, the selected agent's g values (inconsistent cells in their own colour), or the
//! explain replay: lowered, raised or closed cells, the queue, and the A* ghost.
//!
//! The explain replay, when running, replaces the other two so it reads clearly. What it shows
//! is gathered by [`crate::observe`]. Every cell is recomputed only when the overlay switches,
//! the replay, the g values or the map changed; otherwise only the cells whose heat changed
//! are, and only the chunks holding changed texels are uploaded.

use bevy::prelude::*;

use super::grid_texture::GridTexture;
use crate::explain::{CellState, ExplainState};
use crate::observe::OverlayData;
use crate::schedule::FrameSystems;
use crate::sim::GridSim;
use crate::theme::palette::{
    CLOSED_COLOR, GHOST_COLOR, INCONSISTENT_COLOR, LOWERED_COLOR, OPEN_COLOR, RAISED_COLOR, g_color,
};
use crate::ui_state::Overlays;

/// The overlay texture.
#[derive(Resource)]
pub struct OverlayTexture(GridTexture);

/// The overlay feature.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_overlay)
        .add_systems(Update, redraw_overlay.in_set(FrameSystems::View));
}

fn spawn_overlay(mut commands: Commands, mut images: ResMut<Assets<Image>>, state: Res<GridSim>) {
    let grid = state.sim().grid();
    let (w, h) = (grid.width(), grid.height());
    let tex = GridTexture::spawn(&mut commands, &mut images, (w, h), [0; 4], 1.0);
    commands.insert_resource(OverlayTexture(tex));
}

/// Redraws what changed: every cell when the switches, the replay, the g values or the map
/// changed; else only the cells whose heat changed. An idle frame costs nothing.
#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource read
fn redraw_overlay(
    mut commands: Commands,
    state: Res<GridSim>,
    overlays: Res<Overlays>,
    explain: Res<ExplainState>,
    data: Res<OverlayData>,
    ov: Option<ResMut<OverlayTexture>>,
    mut images: ResMut<Assets<Image>>,
    mut drawn: Local<Option<(Overlays, Option<u64>)>>,
) {
    let Some(mut ov) = ov else {
        return;
    };
    let grid = state.sim().grid();
    let size = (grid.width(), grid.height());
    let resized = ov.0.resize(&mut commands, &mut images, size);
    // The switches are compared by value: the panel's checkboxes mark them changed every frame.
    let now = (*overlays, overlays.g_values.then_some(data.g_version));
    let full = resized || ov.is_added() || explain.is_changed() || *drawn != Some(now);
    if full {
        *drawn = Some(now);
        ov.0.set_all(&texels(grid.len(), &overlays, &explain, &data));
    } else if overlays.heat && !explain.active() {
        for &i in &data.heat_touched {
            ov.0.set(i as usize, cell_texel(i as usize, &overlays, &data));
        }
    }
    ov.0.flush(&mut images);
}

/// The overlay's colour of cell `i` outside explain: the g values under the heat map, each
/// when switched on.
fn cell_texel(i: usize, overlays: &Overlays, data: &OverlayData) -> [u8; 4] {
    let mut t = [0u8; 4];
    if overlays.g_values && data.g.len() == data.heat.len() {
        t = if data.inconsistent.get(i) == Some(&true) {
            INCONSISTENT_COLOR
        } else {
            g_color(data.g[i], data.g_max)
        };
    }
    match data.heat.get(i) {
        Some(&v) if overlays.heat && v > 0.0 => blend(t, [255, 120, 0, (v * 190.0) as u8]),
        _ => t,
    }
}

/// The overlay's colour per cell: the explain replay when it is running, else the g values
/// under the heat map, each when switched on.
pub fn texels(
    len: usize,
    overlays: &Overlays,
    explain: &ExplainState,
    data: &OverlayData,
) -> Vec<[u8; 4]> {
    let mut want = vec![[0u8; 4]; len];
    if explain.active() {
        for &c in &explain.ghost {
            if let Some(t) = want.get_mut(c as usize) {
                *t = GHOST_COLOR;
            }
        }
        for (i, s) in explain.cell_states(len).into_iter().enumerate() {
            want[i] = match s {
                CellState::Open => OPEN_COLOR,
                CellState::Closed => CLOSED_COLOR,
                CellState::Lowered => LOWERED_COLOR,
                CellState::Raised => RAISED_COLOR,
                CellState::Untouched => continue,
            };
        }
        return want;
    }
    if !overlays.g_values && !overlays.heat {
        return want;
    }
    let g_on = overlays.g_values && data.g.len() == len;
    for (i, t) in want.iter_mut().enumerate() {
        if g_on || data.heat.get(i).is_some_and(|&v| v > 0.0) {
            *t = cell_texel(i, overlays, data);
        }
    }
    want
}

/// `top` over `bottom`, straight alpha.
fn blend(bottom: [u8; 4], top: [u8; 4]) -> [u8; 4] {
    let ta = top[3] as f32 / 255.0;
    let ba = bottom[3] as f32 / 255.0;
    let a = ta + ba * (1.0 - ta);
    if a <= 0.0 {
        return [0; 4];
    }
    let mix = |t: u8, b: u8| ((t as f32 * ta + b as f32 * ba * (1.0 - ta)) / a) as u8;
    [
        mix(top[0], bottom[0]),
        mix(top[1], bottom[1]),
        mix(top[2], bottom[2]),
        (a * 255.0) as u8,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridwalk_core::cost::INFINITY;

    #[test]
    fn blending_and_g_colours() {
        assert_eq!(blend([0; 4], [10, 20, 30, 255]), [10, 20, 30, 255]);
        assert_eq!(blend([10, 20, 30, 255], [0; 4]), [10, 20, 30, 255]);
        assert_eq!(g_color(INFINITY, 10)[3], 0);
        assert_ne!(g_color(0, 10), g_color(10, 10));
        assert_eq!(g_color(5, 0)[3], 150);
    }

    #[test]
    fn heat_shows_when_switched_on_over_the_g_values() {
        let mut data = OverlayData::default();
        data.heat = vec![0.0, 1.0, 0.5];
        let explain = ExplainState::default();
        let mut overlays = Overlays {
            heat: false,
            g_values: false,
            ..Overlays::default()
        };
        assert_eq!(texels(3, &overlays, &explain, &data), vec![[0; 4]; 3]);
        overlays.heat = true;
        let t = texels(3, &overlays, &explain, &data);
        assert_eq!(t[0], [0; 4]);
        assert_eq!(t[1][3], 190);
        assert!(t[2][3] > 0 && t[2][3] < 190);
        // g values need a field of the map's size; the heat blends over them.
        data.g = vec![0, 5, INFINITY];
        data.g_max = 5;
        overlays.g_values = true;
        let t = texels(3, &overlays, &explain, &data);
        assert_eq!(t[0], g_color(0, 5));
        assert_ne!(t[1], g_color(5, 5));
    }
}
