//! Agents on the map: a coloured disc per agent gliding between cells, and what is drawn per
//! frame: the selected agent's path, the selection rings and the pending start.
//!
//! Paths come from [`PathCache`], which [`crate::observe`] fills once per tick (or rebuild).
//! The selected agent's line starts at its gliding disc, so it follows it smoothly; every
//! other path, the goals and the marks of arrived and blocked agents are retained layers
//! rebuilt only when a tick changes them ([`super::marks`]).

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use gridwalk_core::sim::AgentStatus;
use gridwalk_core::{Grid, Pos};

use super::marks;
use crate::map_frame::tile_center;
use crate::schedule::FrameSystems;
use crate::sim::{Glide, GridAgent, GridSim};
use crate::theme::palette::{PLANNING_COLOR, RING_DARK, RING_LIGHT, STUCK_COLOR, agent_color};
use crate::ui_state::{CursorTile, PendingStart};

/// Gizmos of the path lines.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct PathGizmos;

/// Gizmos of goals, selection and markers.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct MarkerGizmos;

/// The disc images shared by every agent sprite: a full disc, a hollow one for arrived
/// agents, and a thin ring for agents waiting for their plan (sprites, not rings of lines per
/// agent, so thousands cost one batch).
#[derive(Resource)]
struct Disc {
    walking: Handle<Image>,
    arrived: Handle<Image>,
    planning: Handle<Image>,
}

/// An agent's disc: full, hollow (its inner half clear), or a bright ring (its outer third).
#[derive(Clone, Copy, PartialEq)]
enum DiscLook {
    Full,
    Hollow,
    Ring,
}

/// The agents feature.
pub fn plugin(app: &mut App) {
    app.init_gizmo_group::<PathGizmos>()
        .init_gizmo_group::<MarkerGizmos>()
        .add_systems(Startup, (make_disc, configure_gizmos, marks::spawn_layers))
        .add_systems(
            Update,
            (
                dress_agents,
                glide_agents,
                marks::rebuild_marks,
                draw_markers,
            )
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

/// A white disc with a soft edge and a dark rim, tinted per agent; a hollow one leaves its
/// inside clear, the look of an agent that has arrived (its goal mark shows through).
fn disc_image(look: DiscLook) -> Image {
    const N: u32 = 32;
    let mut data = Vec::with_capacity((N * N * 4) as usize);
    for y in 0..N {
        for x in 0..N {
            let d = Vec2::new(x as f32 + 0.5, y as f32 + 0.5).distance(Vec2::splat(N as f32 / 2.0))
                / (N as f32 / 2.0);
            let mut alpha = ((1.0 - d) * N as f32 / 2.0).clamp(0.0, 1.0);
            let shade = if d > 0.78 && look != DiscLook::Ring {
                90
            } else {
                255
            };
            let inside = match look {
                DiscLook::Full => 0.0,
                DiscLook::Hollow => 0.5,
                DiscLook::Ring => 0.67,
            };
            if d < inside {
                alpha = 0.0;
            }
            data.extend_from_slice(&[shade, shade, shade, (alpha * 255.0) as u8]);
        }
    }
    Image::new(
        Extent3d {
            width: N,
            height: N,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
    )
}

fn make_disc(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.insert_resource(Disc {
        walking: images.add(disc_image(DiscLook::Full)),
        arrived: images.add(disc_image(DiscLook::Hollow)),
        planning: images.add(disc_image(DiscLook::Ring)),
    });
}

/// Gives new agent entities their sprite.
fn dress_agents(
    mut commands: Commands,
    disc: Option<Res<Disc>>,
    state: Res<GridSim>,
    new: Query<(Entity, &GridAgent, Glide), Added<GridAgent>>,
) {
    let Some(disc) = disc else {
        return;
    };
    let grid = state.sim().grid();
    for (e, marker, glide) in &new {
        let at = tile_center(glide.to.0, grid.width(), grid.height());
        commands.entity(e).insert((
            Sprite {
                image: disc.walking.clone(),
                color: agent_color(marker.label),
                custom_size: Some(Vec2::splat(1.6)),
                ..default()
            },
            Transform::from_translation(at.extend(3.0)),
        ));
    }
}

/// Moves each disc between its last two cells by the tick clock's fraction, shows arrived
/// agents hollow, agents waiting for their plan as an amber ring, and in crowd mode agents
/// waiting near a taken goal as a ring of their colour and stuck ones as a magenta ring.
fn glide_agents(
    state: Res<GridSim>,
    time: Res<Time<Fixed>>,
    clock: Res<crate::sim::TickClock>,
    disc: Option<Res<Disc>>,
    mut agents: Query<(&GridAgent, Glide, &mut Transform, &mut Sprite)>,
) {
    let Some(disc) = disc else {
        return;
    };
    let grid = state.sim().grid();
    let t = clock.fraction(&time);
    for (marker, g, mut transform, mut sprite) in &mut agents {
        let at = glide_point(g.from.0, g.to.0, t, grid);
        if transform.translation.truncate() != at {
            transform.translation = at.extend(3.0);
        }
        let (image, color) = match g.status.0 {
            AgentStatus::Arrived => (&disc.arrived, agent_color(marker.label)),
            AgentStatus::Planning => (&disc.planning, PLANNING_COLOR),
            // Crowd mode: waiting near a taken goal is a ring in the agent's colour, stuck a
            // ring in the stuck colour.
            AgentStatus::Waiting => (&disc.planning, agent_color(marker.label)),
            AgentStatus::Stuck => (&disc.planning, STUCK_COLOR),
            _ => (&disc.walking, agent_color(marker.label)),
        };
        if sprite.image != *image || sprite.color != color {
            sprite.image = image.clone();
            sprite.color = color;
        }
    }
}

/// Where a gliding agent is drawn, `t` of the way from its last cell to its current one.
pub fn glide_point(from: Pos, to: Pos, t: f32, grid: &Grid) -> Vec2 {
    let (w, h) = (grid.width(), grid.height());
    tile_center(from, w, h).lerp(tile_center(to, w, h), t)
}

/// The selected agent's path from its gliding disc, its rings, and the pending start.
fn draw_markers(
    shown: marks::PathsShown,
    start: Res<PendingStart>,
    cursor: Res<CursorTile>,
    time: Res<Time<Real>>,
    agents: Query<(&GridAgent, &Transform)>,
    mut paths: Gizmos<PathGizmos>,
    mut markers: Gizmos<MarkerGizmos>,
) {
    let marks::PathsShown {
        state,
        selection,
        cache,
    } = shown;
    let grid = state.sim().grid();
    let (w, h) = (grid.width(), grid.height());
    if let Some(id) = selection.0
        && let Some((marker, transform)) = agents.iter().find(|(m, _)| m.id == id)
    {
        let here = transform.translation.truncate();
        if let Some(cells) = cache.paths.get(&id)
            && cells.len() > 1
        {
            let line =
                std::iter::once(here).chain(cells[1..].iter().map(|&p| tile_center(p, w, h)));
            paths.linestrip_2d(line, agent_color(marker.label));
        }
        markers.circle_2d(Isometry2d::from_translation(here), 0.9, RING_LIGHT);
        markers.circle_2d(Isometry2d::from_translation(here), 1.05, RING_DARK);
    }
    if let Some(s) = start.0 {
        let at = tile_center(s, w, h);
        let pulse = 0.5 + 0.2 * (time.elapsed_secs() * 6.0).sin();
        markers.circle_2d(Isometry2d::from_translation(at), pulse, RING_LIGHT);
        markers.circle_2d(Isometry2d::from_translation(at), pulse + 0.15, RING_DARK);
        if let Some(world) = cursor.world {
            markers.line_2d(at, world, RING_LIGHT.with_alpha(0.6));
        }
    }
}
