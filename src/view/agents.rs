//! Agents on the map: a coloured disc per agent gliding between cells (while robots turn, a
//! hand on it points where it faces), and what is drawn per frame: the selected agent's path,
//! the selection rings, its task and the one after (a patrol's, a LoRR robot's), and the
//! pending start.
//!
//! Paths come from [`PathCache`], which [`crate::observe`] fills once per tick (or rebuild).
//! The selected agent's line starts at its gliding disc, so it follows it smoothly; every
//! other path, the goals and the marks of arrived and blocked agents are retained layers
//! rebuilt only when a tick changes them ([`super::marks`]).

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use gridwalk_core::sim::{Agent, AgentStatus};
use gridwalk_core::{Facing, Grid, Pos};

use super::marks;
use crate::map_frame::tile_center;
use crate::schedule::FrameSystems;
use crate::sim::{Glide, GridAgent, GridSim, Heading};
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
/// agent, so thousands cost one batch); each again with a hand pointing east, turned with the
/// sprite while robots turn.
#[derive(Resource)]
struct Disc {
    walking: Handle<Image>,
    arrived: Handle<Image>,
    planning: Handle<Image>,
    /// The three with a hand, in the same order.
    pointed: [Handle<Image>; 3],
}

/// An agent's disc: full, hollow (its inner half clear), or a bright ring (its outer third).
#[derive(Clone, Copy, PartialEq)]
enum DiscLook {
    Full,
    Hollow,
    Ring,
}

/// An agent's disc across, in cells: larger than its cell, so agents show on big maps.
const DISC_SIZE: f32 = 1.6;

/// A robot's disc across while robots turn, in cells: its own cell, a rim of ground round it.
const ROBOT_SIZE: f32 = 0.92;

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
/// inside clear, the look of an agent that has arrived (its goal mark shows through). With
/// `hand`, a dark bar from the centre to the east edge says where a robot faces.
fn disc_image(look: DiscLook, hand: bool) -> Image {
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
            let on_hand = hand && x > N / 2 && (y as f32 + 0.5 - N as f32 / 2.0).abs() < 6.0;
            let shade = if on_hand && d < 0.95 {
                alpha = 1.0;
                40
            } else {
                shade
            };
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
    let looks = [DiscLook::Full, DiscLook::Hollow, DiscLook::Ring];
    commands.insert_resource(Disc {
        walking: images.add(disc_image(DiscLook::Full, false)),
        arrived: images.add(disc_image(DiscLook::Hollow, false)),
        planning: images.add(disc_image(DiscLook::Ring, false)),
        pointed: looks.map(|look| images.add(disc_image(look, true))),
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
        let facing = state.sim().agent(marker.id).map(|a| a.facing);
        commands.entity(e).insert((
            Heading(facing.unwrap_or_default()),
            Sprite {
                image: disc.walking.clone(),
                color: agent_color(marker.label),
                custom_size: Some(Vec2::splat(DISC_SIZE)),
                ..default()
            },
            Transform::from_translation(at.extend(3.0)),
        ));
    }
}

/// Moves each disc between its last two cells by the tick clock's fraction, shows arrived
/// agents hollow, agents waiting for their plan as an amber ring, and in crowd mode agents
/// waiting near a taken goal as a ring of their colour and stuck ones as a magenta ring.
/// While robots turn, each disc carries a hand turned to its facing.
fn glide_agents(
    state: Res<GridSim>,
    time: Res<Time<Fixed>>,
    clock: Res<crate::sim::TickClock>,
    disc: Option<Res<Disc>>,
    mut agents: Query<(
        &GridAgent,
        Glide,
        Option<&Heading>,
        &mut Transform,
        &mut Sprite,
    )>,
) {
    let Some(disc) = disc else {
        return;
    };
    let grid = state.sim().grid();
    let turns = state.sim().config().turns();
    let t = clock.fraction(&time);
    for (marker, g, heading, mut transform, mut sprite) in &mut agents {
        let at = glide_point(g.from.0, g.to.0, t, grid);
        if transform.translation.truncate() != at {
            transform.translation = at.extend(3.0);
        }
        let facing = heading.filter(|_| turns).map(|h| h.0);
        let turned = Quat::from_rotation_z(facing.map_or(0.0, facing_angle));
        if transform.rotation != turned {
            transform.rotation = turned;
        }
        // Robots that turn fill their cell and no more, so no disc hides a neighbour's hand.
        let size = Some(Vec2::splat(if turns { ROBOT_SIZE } else { DISC_SIZE }));
        if sprite.custom_size != size {
            sprite.custom_size = size;
        }
        let (look, color) = match g.status.0 {
            AgentStatus::Arrived => (1, agent_color(marker.label)),
            AgentStatus::Planning => (2, PLANNING_COLOR),
            // Crowd mode: waiting near a taken goal is a ring in the agent's colour, stuck a
            // ring in the stuck colour.
            AgentStatus::Waiting => (2, agent_color(marker.label)),
            AgentStatus::Stuck => (2, STUCK_COLOR),
            _ => (0, agent_color(marker.label)),
        };
        let plain = [&disc.walking, &disc.arrived, &disc.planning];
        let image = match facing {
            Some(_) => &disc.pointed[look],
            None => plain[look],
        };
        if sprite.image != *image || sprite.color != color {
            sprite.image = image.clone();
            sprite.color = color;
        }
    }
}

/// The angle of a disc's hand for `facing`, counter-clockwise from east (the map's rows go
/// down, so south is a quarter turn clockwise).
fn facing_angle(facing: Facing) -> f32 {
    use std::f32::consts::{FRAC_PI_2, PI};
    match facing {
        Facing::East => 0.0,
        Facing::South => -FRAC_PI_2,
        Facing::West => PI,
        Facing::North => FRAC_PI_2,
    }
}

/// Where a gliding agent is drawn, `t` of the way from its last cell to its current one.
pub fn glide_point(from: Pos, to: Pos, t: f32, grid: &Grid) -> Vec2 {
    let (w, h) = (grid.width(), grid.height());
    tile_center(from, w, h).lerp(tile_center(to, w, h), t)
}

/// Marks the selected agent's task: a diamond around its goal, and, on a patrol (each LoRR
/// robot patrols its tasks), a thin line on to the task after it, marked smaller.
fn mark_tasks(markers: &mut Gizmos<MarkerGizmos>, grid: &Grid, a: &Agent, pulse: f32) {
    let (w, h) = (grid.width(), grid.height());
    let diamond = |p: Vec2| Isometry2d::new(p, Rot2::degrees(45.0));
    let goal = tile_center(a.goal, w, h);
    markers.rect_2d(diamond(goal), Vec2::splat(1.25 + pulse), RING_LIGHT);
    markers.rect_2d(diamond(goal), Vec2::splat(1.45 + pulse), RING_DARK);
    if let Some(after) = a.goal_after(grid).filter(|&p| p != a.goal) {
        let next = tile_center(after, w, h);
        markers.line_2d(goal, next, RING_LIGHT.with_alpha(0.45));
        markers.rect_2d(diamond(next), Vec2::splat(0.8), RING_LIGHT.with_alpha(0.8));
    }
}

/// The selected agent's path from its gliding disc, its rings, its tasks, and the pending
/// start.
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
    if let Some(id) = selection.agent(&state)
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
        if let Some(a) = state.sim().agent(id) {
            let pulse = 0.1 * (time.elapsed_secs() * 4.0).sin();
            mark_tasks(&mut markers, grid, a, pulse);
        }
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
