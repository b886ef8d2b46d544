//! The agents' paths as of the last tick, read from the simulation once per tick, rebuild or
//! change of selection: the view draws them and the panel counts their steps.

use std::collections::HashMap;

use bevy::prelude::*;
use gridwalk_core::Pos;
use gridwalk_core::sim::AgentId;

use crate::sim::GridSim;
use crate::ui_state::{Overlays, Selection};

/// Paths above this many agents are read only for the selected agent.
pub const MAX_PATHS: usize = 400;

/// The most cells the paths of all agents hold together (32 MiB); past it only the selected
/// agent's path is read. A few hundred paths across a maze of millions of cells would hold
/// gigabytes.
pub const MAX_PATH_CELLS: usize = 1 << 22;

/// Every agent's path as of the last tick.
#[derive(Resource, Default, Debug)]
pub struct PathCache {
    /// Agent → its cells, from its cell to its goal.
    pub paths: HashMap<AgentId, Vec<Pos>>,
    seen: Option<(u64, u64, Option<AgentId>, bool)>,
}

/// Reads the paths of the agents after each tick or rebuild.
pub(super) fn cache_paths(
    state: Res<GridSim>,
    selection: Res<Selection>,
    overlays: Res<Overlays>,
    mut cache: ResMut<PathCache>,
) {
    let selected = selection.agent(&state);
    let now = (state.ticks(), state.epoch(), selected, overlays.all_paths);
    if cache.seen == Some(now) {
        return;
    }
    cache.seen = Some(now);
    cache.paths.clear();
    let sim = state.sim();
    if let Some(id) = selected
        && let Some(p) = sim.path(id)
    {
        cache.paths.insert(id, p.cells);
    }
    if !overlays.all_paths || sim.agent_count() > MAX_PATHS {
        return;
    }
    let mut cells = cache.paths.values().map(Vec::len).sum::<usize>();
    for a in sim.agents() {
        if cells >= MAX_PATH_CELLS {
            break;
        }
        if selected != Some(a.id)
            && let Some(p) = sim.path(a.id)
        {
            cells += p.cells.len();
            cache.paths.insert(a.id, p.cells);
        }
    }
}
