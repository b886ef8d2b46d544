//! Marks that change only with a tick: every path line (when shown, from [`PathCache`]),
//! goals, and the crosses of blocked agents (arrived ones are drawn hollow by their sprite).
//! They are retained gizmos, rebuilt when a tick, a rebuild or the selection changes them, so
//! an idle frame draws them without rebuilding anything, however many agents there are.

use std::collections::HashSet;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use gridwalk_core::sim::{AgentId, AgentStatus};

use crate::map_frame::tile_center;
use crate::observe::PathCache;
use crate::sim::{Glide, GridAgent, GridSim};
use crate::theme::palette::{NO_PATH_COLOR, agent_color};
use crate::ui_state::{Overlays, Selection};

/// The two retained layers: path lines, and goal and status marks.
#[derive(Resource)]
pub struct MarkLayers {
    paths: Handle<GizmoAsset>,
    marks: Handle<GizmoAsset>,
}

/// Spawns the two layers, empty.
pub(super) fn spawn_layers(mut commands: Commands, mut assets: ResMut<Assets<GizmoAsset>>) {
    let mut layer = |width: f32| {
        let handle = assets.add(GizmoAsset::new());
        let line_config = GizmoLineConfig { width, ..default() };
        commands.spawn(Gizmo {
            handle: handle.clone(),
            line_config,
            ..default()
        });
        handle
    };
    let paths = layer(2.5);
    let marks = layer(2.0);
    commands.insert_resource(MarkLayers { paths, marks });
}

/// What both drawings of paths read: the simulation, the selected agent and the cached paths.
#[derive(SystemParam)]
pub(super) struct PathsShown<'w> {
    pub state: Res<'w, GridSim>,
    pub selection: Res<'w, Selection>,
    pub cache: Res<'w, PathCache>,
}

/// What the layers were built for: tick, rebuild epoch, selection, all paths on, agents.
type Shown = (u64, u64, Option<AgentId>, bool, usize);

/// Rebuilds both layers when what they show changed. The selected agent's path is left to
/// the per-frame drawing, which starts it at the gliding disc.
pub(super) fn rebuild_marks(
    shown: PathsShown,
    overlays: Res<Overlays>,
    layers: Option<Res<MarkLayers>>,
    agents: Query<(&GridAgent, Glide)>,
    mut assets: ResMut<Assets<GizmoAsset>>,
    mut seen: Local<Option<Shown>>,
) {
    let PathsShown {
        state,
        selection,
        cache,
    } = shown;
    let Some(layers) = layers else {
        return;
    };
    let selected = selection.agent(&state);
    let now = (
        state.ticks(),
        state.epoch(),
        selected,
        overlays.all_paths,
        agents.iter().len(),
    );
    if *seen == Some(now) {
        return;
    }
    *seen = Some(now);
    let grid = state.sim().grid();
    let at = |p| tile_center(p, grid.width(), grid.height());
    let (mut paths, mut marks) = (GizmoAsset::new(), GizmoAsset::new());
    let mut goals = HashSet::new();
    for (marker, glide) in &agents {
        let color = agent_color(marker.label);
        if selected != Some(marker.id)
            && let Some(cells) = cache.paths.get(&marker.id)
            && cells.len() > 1
        {
            paths.linestrip_2d(cells.iter().map(|&p| at(p)), color.with_alpha(0.85));
        }
        if goals.insert(glide.goal.0) {
            let g = Isometry2d::from_translation(at(glide.goal.0));
            marks.rect_2d(g, Vec2::splat(0.95), color);
            marks.cross_2d(g, 0.35, color);
        }
        let here = at(glide.to.0);
        match glide.status.0 {
            AgentStatus::NoPath => {
                let cross = Isometry2d::new(here, Rot2::degrees(45.0));
                marks.cross_2d(cross, 0.7, NO_PATH_COLOR);
            }
            // Arrived agents are drawn hollow by their sprite, waiting ones as a ring.
            AgentStatus::Arrived
            | AgentStatus::Planning
            | AgentStatus::Walking
            | AgentStatus::Waiting
            | AgentStatus::Stuck => {}
        }
    }
    for (handle, layer) in [(&layers.paths, paths), (&layers.marks, marks)] {
        if let Some(mut asset) = assets.get_mut(handle) {
            *asset = layer;
        }
    }
}
