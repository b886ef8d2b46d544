//! Agents on the map: a coloured disc per agent gliding between cells, its goal marked, its
//! path drawn as a line in its own gizmo group so the overlay can be toggled.
//!
//! Paths are read from the simulation once per tick (or rebuild) into [`PathCache`]; the
//! line then starts at the agent's gliding position, so it follows the disc smoothly. An
//! agent with no path gets a red cross; an arrived one a ring.

use std::collections::HashMap;

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use gridwalk_core::sim::{AgentId, AgentStatus};
use gridwalk_core::{Grid, Pos};

use super::palette::agent_color;
use crate::map_frame::tile_center;
use crate::schedule::FrameSystems;
use crate::sim::{AgentMarker, Glide, SimState};
use crate::ui_state::{CursorTile, Overlays, PendingStart, Selection};

/// Gizmos of the path lines.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct PathGizmos;

/// Gizmos of goals, selection and markers.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct MarkerGizmos;

/// Paths above this many agents are read only for the selected agent.
pub const MAX_PATHS: usize = 400;

/// Every agent's path as of the last tick.
#[derive(Resource, Default, Debug)]
pub struct PathCache {
    /// Agent → its cells, from its cell to its goal.
    pub paths: HashMap<AgentId, Vec<Pos>>,
    seen: Option<(u64, u64, Option<AgentId>, bool)>,
}

/// The disc image shared by every agent sprite.
#[derive(Resource)]
struct Disc(Handle<Image>);

/// The agents feature.
pub fn plugin(app: &mut App) {
    app.init_gizmo_group::<PathGizmos>()
        .init_gizmo_group::<MarkerGizmos>()
        .init_resource::<PathCache>()
        .add_systems(Startup, (make_disc, configure_gizmos))
        .add_systems(
            Update,
            (dress_agents, glide_agents, cache_paths, draw_markers)
                .chain()
                .in_set(FrameSystems::View),
        );
}

fn configure_gizmos(mut store: ResMut<GizmoConfigStore>) {
    let (paths, _) = store.config_mut::<PathGizmos>();
    paths.line.width = 2.5;
    let (markers, _) = store.config_mut::<MarkerGizmos>();
    markers.line.width = 2.0;
}

/// A white disc with a soft edge and a dark rim, tinted per agent.
fn make_disc(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    const N: u32 = 32;
    let mut data = Vec::with_capacity((N * N * 4) as usize);
    for y in 0..N {
        for x in 0..N {
            let d = Vec2::new(x as f32 + 0.5, y as f32 + 0.5).distance(Vec2::splat(N as f32 / 2.0))
                / (N as f32 / 2.0);
            let alpha = ((1.0 - d) * N as f32 / 2.0).clamp(0.0, 1.0);
            let shade = if d > 0.78 { 90 } else { 255 };
            data.extend_from_slice(&[shade, shade, shade, (alpha * 255.0) as u8]);
        }
    }
    let image = Image::new(
        Extent3d {
            width: N,
            height: N,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
    );
    commands.insert_resource(Disc(images.add(image)));
}

/// Gives new agent entities their sprite.
fn dress_agents(
    mut commands: Commands,
    disc: Option<Res<Disc>>,
    state: Res<SimState>,
    new: Query<(Entity, &AgentMarker, &Glide), Added<AgentMarker>>,
) {
    let Some(disc) = disc else {
        return;
    };
    let grid = state.sim().grid();
    for (e, marker, glide) in &new {
        let at = tile_center(glide.to, grid.width(), grid.height());
        commands.entity(e).insert((
            Sprite {
                image: disc.0.clone(),
                color: agent_color(marker.label),
                custom_size: Some(Vec2::splat(1.6)),
                ..default()
            },
            Transform::from_translation(at.extend(3.0)),
        ));
    }
}

/// Moves each disc between its last two cells by the fixed clock's overstep.
fn glide_agents(
    state: Res<SimState>,
    time: Res<Time<Fixed>>,
    clock: Res<crate::sim::SimClock>,
    mut agents: Query<(&Glide, &mut Transform, &mut Sprite, &AgentMarker)>,
) {
    let grid = state.sim().grid();
    let t = if clock.paused {
        1.0
    } else {
        time.overstep_fraction().clamp(0.0, 1.0)
    };
    for (g, mut transform, mut sprite, marker) in &mut agents {
        let at = glide_point(g, t, grid);
        if transform.translation.truncate() != at {
            transform.translation = at.extend(3.0);
        }
        let mut color = agent_color(marker.label);
        if g.status == AgentStatus::Arrived {
            color = color.with_alpha(0.6);
        }
        if sprite.color != color {
            sprite.color = color;
        }
    }
}

/// Where a gliding agent is drawn, `t` of the way from its last cell to its current one.
pub fn glide_point(g: &Glide, t: f32, grid: &Grid) -> Vec2 {
    let (w, h) = (grid.width(), grid.height());
    tile_center(g.from, w, h).lerp(tile_center(g.to, w, h), t)
}

/// Reads the paths of the agents after each tick or rebuild.
fn cache_paths(
    state: Res<SimState>,
    selection: Res<Selection>,
    overlays: Res<Overlays>,
    mut cache: ResMut<PathCache>,
) {
    let now = (
        state.ticks(),
        state.epoch(),
        selection.0,
        overlays.all_paths,
    );
    if cache.seen == Some(now) {
        return;
    }
    cache.seen = Some(now);
    cache.paths.clear();
    let sim = state.sim();
    let all = overlays.all_paths && sim.agent_count() <= MAX_PATHS;
    for a in sim.agents() {
        if (all || selection.0 == Some(a.id))
            && let Some(p) = sim.path(a.id)
        {
            cache.paths.insert(a.id, p.cells);
        }
    }
}

/// Paths, goals, the selection, the pending start and markers of blocked or arrived agents.
#[allow(clippy::too_many_arguments)]
fn draw_markers(
    state: Res<SimState>,
    cache: Res<PathCache>,
    selection: Res<Selection>,
    start: Res<PendingStart>,
    cursor: Res<CursorTile>,
    time: Res<Time<Real>>,
    agents: Query<(&AgentMarker, &Glide, &Transform)>,
    mut paths: Gizmos<PathGizmos>,
    mut markers: Gizmos<MarkerGizmos>,
) {
    let grid = state.sim().grid();
    let (w, h) = (grid.width(), grid.height());
    let mut goals_drawn: HashMap<Pos, ()> = HashMap::new();
    for (marker, glide, transform) in &agents {
        let color = agent_color(marker.label);
        let here = transform.translation.truncate();
        if let Some(cells) = cache.paths.get(&marker.id)
            && cells.len() > 1
        {
            let line =
                std::iter::once(here).chain(cells[1..].iter().map(|&p| tile_center(p, w, h)));
            let width_color = if selection.0 == Some(marker.id) {
                color
            } else {
                color.with_alpha(0.85)
            };
            paths.linestrip_2d(line, width_color);
        }
        if goals_drawn.insert(glide.goal, ()).is_none() {
            let g = tile_center(glide.goal, w, h);
            markers.rect_2d(Isometry2d::from_translation(g), Vec2::splat(0.95), color);
            markers.cross_2d(Isometry2d::from_translation(g), 0.35, color);
        }
        match glide.status {
            AgentStatus::NoPath => {
                markers.cross_2d(
                    Isometry2d::new(here, Rot2::degrees(45.0)),
                    0.7,
                    Color::srgb(0.9, 0.1, 0.1),
                );
            }
            AgentStatus::Arrived => {
                markers.circle_2d(Isometry2d::from_translation(here), 0.65, color);
            }
            AgentStatus::Walking => {}
        }
        if selection.0 == Some(marker.id) {
            markers.circle_2d(Isometry2d::from_translation(here), 0.9, Color::WHITE);
            markers.circle_2d(Isometry2d::from_translation(here), 1.05, Color::BLACK);
        }
    }
    if let Some(s) = start.0 {
        let at = tile_center(s, w, h);
        let pulse = 0.5 + 0.2 * (time.elapsed_secs() * 6.0).sin();
        markers.circle_2d(Isometry2d::from_translation(at), pulse, Color::WHITE);
        markers.circle_2d(Isometry2d::from_translation(at), pulse + 0.15, Color::BLACK);
        if let Some(world) = cursor.world {
            markers.line_2d(at, world, Color::WHITE.with_alpha(0.6));
        }
    }
}
