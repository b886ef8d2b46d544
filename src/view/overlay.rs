//! A second texture over the tiles: the fading heat map of the cells the last repairs
//! expanded, the selected agent's g values (inconsistent cells in their own colour), or the
//! explain replay: lowered, raised or closed cells, the queue, and the A* ghost.
//!
//! The explain replay, when running, replaces the other two so it reads clearly. The texture
//! is rewritten only when its texels change.

use bevy::prelude::*;
use gridwalk_core::cost::INFINITY;
use gridwalk_core::sim::AgentId;

use super::grid_texture;
use super::palette::{
    CLOSED_COLOR, GHOST_COLOR, INCONSISTENT_COLOR, LOWERED_COLOR, OPEN_COLOR, RAISED_COLOR, g_color,
};
use crate::explain::{CellState, ExplainState};
use crate::schedule::FrameSystems;
use crate::sim::SimState;
use crate::ui_state::{Overlays, Selection};

/// Seconds a heat-map cell takes to fade out.
pub const HEAT_FADE_SECS: f32 = 3.0;

/// The overlay texture and its inputs.
#[derive(Resource)]
pub struct OverlayTexture {
    image: Handle<Image>,
    sprite: Entity,
    drawn: Vec<[u8; 4]>,
    size: (u32, u32),
    heat: Vec<f32>,
    g: Vec<u64>,
    g_max: u64,
    inconsistent: Vec<bool>,
    seen: Option<(u64, u64)>,
    g_seen: Option<(u64, u64, Option<AgentId>)>,
}

/// The overlay feature.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_overlay).add_systems(
        Update,
        (update_inputs, redraw_overlay)
            .chain()
            .in_set(FrameSystems::View),
    );
}

fn spawn_overlay(mut commands: Commands, mut images: ResMut<Assets<Image>>, state: Res<SimState>) {
    let grid = state.sim().grid();
    let (w, h) = (grid.width(), grid.height());
    let (image, sprite) = grid_texture::spawn(&mut commands, &mut images, (w, h), [0; 4], 1.0);
    commands.insert_resource(OverlayTexture {
        image,
        sprite,
        drawn: vec![[0; 4]; grid.len()],
        size: (w, h),
        heat: vec![0.0; grid.len()],
        g: Vec::new(),
        g_max: 0,
        inconsistent: Vec::new(),
        seen: None,
        g_seen: None,
    });
}

/// Heats the cells of each new tick's repairs, cools everything, and reads the selected
/// agent's g values after each tick.
fn update_inputs(
    state: Res<SimState>,
    overlays: Res<Overlays>,
    selection: Res<Selection>,
    time: Res<Time<Real>>,
    ov: Option<ResMut<OverlayTexture>>,
) {
    let Some(mut ov) = ov else {
        return;
    };
    let sim = state.sim();
    let len = sim.grid().len();
    if ov.heat.len() != len {
        ov.heat = vec![0.0; len];
    }
    let cool = time.delta_secs() / HEAT_FADE_SECS;
    if cool > 0.0 {
        for v in ov.heat.iter_mut().filter(|v| **v > 0.0) {
            *v = (*v - cool).max(0.0);
        }
    }
    let now = (state.ticks(), state.epoch());
    if ov.seen != Some(now) {
        ov.seen = Some(now);
        for &i in sim.last_expanded() {
            if let Some(v) = ov.heat.get_mut(i as usize) {
                *v = 1.0;
            }
        }
    }
    let g_now = (now.0, now.1, selection.0);
    if overlays.g_values && ov.g_seen != Some(g_now) {
        ov.g_seen = Some(g_now);
        ov.g = selection
            .0
            .and_then(|id| sim.cost_field(id))
            .unwrap_or_default();
        ov.g_max =
            ov.g.iter()
                .copied()
                .filter(|&c| c != INFINITY)
                .max()
                .unwrap_or(0);
        ov.inconsistent = match selection.0 {
            Some(id) => (0..len)
                .map(|i| {
                    sim.inspect(id, sim.grid().pos(i))
                        .is_some_and(|c| c.inconsistent())
                })
                .collect(),
            None => Vec::new(),
        };
    }
}

fn redraw_overlay(
    state: Res<SimState>,
    overlays: Res<Overlays>,
    explain: Res<ExplainState>,
    ov: Option<ResMut<OverlayTexture>>,
    mut images: ResMut<Assets<Image>>,
    mut sprites: Query<&mut Sprite>,
) {
    let Some(mut ov) = ov else {
        return;
    };
    let grid = state.sim().grid();
    let (w, h) = (grid.width(), grid.height());
    let len = grid.len();
    let mut want = vec![[0u8; 4]; len];
    if explain.active() {
        for &c in &explain.ghost {
            if let Some(t) = want.get_mut(c as usize) {
                *t = GHOST_COLOR;
            }
        }
        for (i, s) in explain.cell_states(len).into_iter().enumerate() {
            let c = match s {
                CellState::Open => OPEN_COLOR,
                CellState::Closed => CLOSED_COLOR,
                CellState::Lowered => LOWERED_COLOR,
                CellState::Raised => RAISED_COLOR,
                CellState::Untouched => continue,
            };
            want[i] = c;
        }
    } else {
        if overlays.g_values && ov.g.len() == len {
            for (i, &c) in ov.g.iter().enumerate() {
                want[i] = g_color(c, ov.g_max);
            }
            for (i, &bad) in ov.inconsistent.iter().enumerate() {
                if bad && i < len {
                    want[i] = INCONSISTENT_COLOR;
                }
            }
        }
        if overlays.heat {
            for (i, &v) in ov.heat.iter().enumerate() {
                if v > 0.0 {
                    let a = (v * 190.0) as u8;
                    want[i] = blend(want[i], [255, 120, 0, a]);
                }
            }
        }
    }
    if ov.size != (w, h) {
        let handle = grid_texture::resize(&mut images, &mut sprites, ov.sprite, (w, h), [0; 4]);
        ov.image = handle;
        ov.size = (w, h);
        ov.drawn = vec![[0; 4]; len];
    }
    if ov.drawn == want {
        return;
    }
    let Some(mut image) = images.get_mut(&ov.image) else {
        return;
    };
    let Some(data) = image.data.as_mut() else {
        return;
    };
    if data.len() != len * 4 {
        return;
    }
    for (i, c) in want.iter().enumerate() {
        data[i * 4..i * 4 + 4].copy_from_slice(c);
    }
    ov.drawn = want;
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

    #[test]
    fn blending_and_g_colours() {
        assert_eq!(blend([0; 4], [10, 20, 30, 255]), [10, 20, 30, 255]);
        assert_eq!(blend([10, 20, 30, 255], [0; 4]), [10, 20, 30, 255]);
        assert_eq!(g_color(INFINITY, 10)[3], 0);
        assert_ne!(g_color(0, 10), g_color(10, 10));
        assert_eq!(g_color(5, 0)[3], 150);
    }
}
