//! What the overlay shows, gathered from the simulation: the fading heat of the cells each
//! tick's repairs expanded, and the selected agent's g values with its inconsistent cells.
//! The view draws it (its overlay texture); this resource changes only when what it holds
//! does.

use bevy::prelude::*;
use gridwalk_core::cost::INFINITY;
use gridwalk_core::sim::AgentId;

use crate::sim::SimState;
use crate::ui_state::{Overlays, Selection};

/// Seconds a heat-map cell takes to fade out.
pub const HEAT_FADE_SECS: f32 = 3.0;

/// The overlay's inputs.
#[derive(Resource, Default)]
pub struct OverlayData {
    /// Per cell, 1 just after a repair expanded it, fading to 0.
    pub heat: Vec<f32>,
    /// Whether any cell is still warm.
    hot: bool,
    /// The selected agent's cost field (empty when off or none is selected).
    pub g: Vec<u64>,
    /// The largest finite value in `g`.
    pub g_max: u64,
    /// Per cell, whether the selected agent's planner holds it inconsistent.
    pub inconsistent: Vec<bool>,
    seen: Option<(u64, u64)>,
    g_seen: Option<(u64, u64, Option<AgentId>)>,
}

/// Heats the cells of each new tick's repairs, cools everything, and reads the selected
/// agent's g values after each tick.
pub(super) fn update(
    state: Res<SimState>,
    overlays: Res<Overlays>,
    selection: Res<Selection>,
    time: Res<Time<Real>>,
    mut data: ResMut<OverlayData>,
) {
    // Only real changes mark the resource changed, so an idle frame redraws nothing.
    let ov = data.bypass_change_detection();
    let sim = state.sim();
    let len = sim.grid().len();
    let mut changed = false;
    if ov.heat.len() != len {
        ov.heat = vec![0.0; len];
        ov.hot = false;
        changed = true;
    }
    let cool = time.delta_secs() / HEAT_FADE_SECS;
    if ov.hot && cool > 0.0 {
        ov.hot = false;
        for v in ov.heat.iter_mut().filter(|v| **v > 0.0) {
            *v = (*v - cool).max(0.0);
            ov.hot |= *v > 0.0;
        }
        changed = true;
    }
    let now = (state.ticks(), state.epoch());
    if ov.seen != Some(now) {
        ov.seen = Some(now);
        for &i in sim.last_expanded() {
            if let Some(v) = ov.heat.get_mut(i as usize) {
                *v = 1.0;
                ov.hot = true;
                changed = true;
            }
        }
    }
    let g_now = (now.0, now.1, selection.0);
    if overlays.g_values && ov.g_seen != Some(g_now) {
        ov.g_seen = Some(g_now);
        changed = true;
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
    if changed {
        data.set_changed();
    }
}
