//! What the overlay shows, gathered from the simulation: the fading heat of the cells each
//! tick's repairs expanded, and the selected agent's g values with its inconsistent cells.
//! The view draws it (its overlay texture); this resource changes only when what it holds
//! does. The heat is kept sparse: the warm cells are listed, cooling visits only them, and the
//! cells whose heat changed are listed for the view, so a large map costs what is warm.

use bevy::prelude::*;
use gridwalk_core::cost::INFINITY;
use gridwalk_core::sim::AgentId;

use crate::sim::GridSim;
use crate::ui_state::{Overlays, Selection};

/// Seconds a heat-map cell takes to fade out.
pub const HEAT_FADE_SECS: f32 = 3.0;
/// The heat cools in steps at least this far apart, so a map-wide heat (a first plan on a
/// large map) is redrawn some 20 times a second, not every frame.
pub const HEAT_STEP_SECS: f32 = 0.05;

/// The overlay's inputs.
#[derive(Resource, Default)]
pub struct OverlayData {
    /// Per cell, 1 just after a repair expanded it, fading to 0.
    pub heat: Vec<f32>,
    /// The cells whose heat is above 0, so cooling costs the warm cells, not the map.
    warm: Vec<u32>,
    /// The cells whose heat changed in the last update: the view redraws only these.
    pub heat_touched: Vec<u32>,
    /// Cooling not yet applied, in seconds.
    cool_due: f32,
    /// The selected agent's cost field (empty when off or none is selected).
    pub g: Vec<u64>,
    /// The largest finite value in `g`.
    pub g_max: u64,
    /// Per cell, whether the selected agent's planner holds it inconsistent.
    pub inconsistent: Vec<bool>,
    /// Counts the changes of `g` and `inconsistent`, so the view knows when to redraw them.
    pub g_version: u64,
    seen: Option<(u64, u64)>,
    g_seen: Option<(u64, u64, Option<AgentId>)>,
}

impl OverlayData {
    /// Cools every warm cell by `by`, noting the cells that changed.
    fn cool(&mut self, by: f32) {
        let heat = &mut self.heat;
        let touched = &mut self.heat_touched;
        self.warm.retain(|&i| {
            let v = &mut heat[i as usize];
            *v = (*v - by).max(0.0);
            touched.push(i);
            *v > 0.0
        });
    }

    /// Heats `cells` to 1.
    fn heat_up(&mut self, cells: &[u32]) {
        for &i in cells {
            if let Some(v) = self.heat.get_mut(i as usize) {
                if *v <= 0.0 {
                    self.warm.push(i);
                }
                *v = 1.0;
                self.heat_touched.push(i);
            }
        }
    }
}

/// Heats the cells of each new tick's repairs, cools the warm ones, and reads the selected
/// agent's g values after each tick.
pub(super) fn update(
    state: Res<GridSim>,
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
    ov.heat_touched.clear();
    if ov.heat.len() != len {
        ov.heat = vec![0.0; len];
        ov.warm.clear();
        changed = true;
    }
    if !ov.warm.is_empty() {
        ov.cool_due += time.delta_secs();
        if ov.cool_due >= HEAT_STEP_SECS {
            let by = ov.cool_due / HEAT_FADE_SECS;
            ov.cool_due = 0.0;
            ov.cool(by);
        }
    } else {
        ov.cool_due = 0.0;
    }
    let now = (state.ticks(), state.epoch());
    if ov.seen != Some(now) {
        ov.seen = Some(now);
        ov.heat_up(sim.last_expanded());
    }
    changed |= !ov.heat_touched.is_empty();
    let selected = selection.agent(&state);
    let g_now = (now.0, now.1, selected);
    if overlays.g_values && ov.g_seen != Some(g_now) {
        ov.g_seen = Some(g_now);
        changed = true;
        read_g(ov, sim, selected);
    }
    if changed {
        data.set_changed();
    }
}

/// Reads agent `id`'s cost field and inconsistent cells (none without an agent).
fn read_g(ov: &mut OverlayData, sim: &gridwalk_core::sim::Simulation, id: Option<AgentId>) {
    let len = sim.grid().len();
    ov.g_version += 1;
    ov.g = id.and_then(|id| sim.cost_field(id)).unwrap_or_default();
    ov.g_max =
        ov.g.iter()
            .copied()
            .filter(|&c| c != INFINITY)
            .max()
            .unwrap_or(0);
    ov.inconsistent = match id {
        Some(id) => (0..len)
            .map(|i| {
                sim.inspect(id, sim.grid().pos(i))
                    .is_some_and(|c| c.inconsistent())
            })
            .collect(),
        None => Vec::new(),
    };
}
