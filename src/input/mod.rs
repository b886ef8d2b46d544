//! Mouse and keys: the cursor becomes a tile, and clicks, strokes and keys become messages.
//!
//! [`update_cursor`] turns the window cursor into a world point with the map camera and then
//! into a cell with the pure [`crate::map_frame`] functions, storing the result in [`CursorTile`](crate::ui_state::CursorTile). Every
//! other system here reads only [`CursorTile`](crate::ui_state::CursorTile) and `ButtonInput`, so headless tests inject
//! tile-level input by setting that resource and pressing buttons.
//!
//! - Left click: a start, then its goal: an agent joins at the next tick ([`SpawnAgent`]).
//! - Middle press or drag: paints the [`Brush`] (walls, or a weight) along the stroke, every
//!   cell between two cursor samples included.
//! - Right press or drag: back to plain ground.
//! - Keys: see [`CONTROLS`].
//!
//! Nothing here edits the simulation directly: the next tick applies the messages.

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use gridwalk_core::sim::AgentId;
use gridwalk_core::{Pos, Terrain};

use crate::explain::ExplainControl;
use crate::map_frame::{MapCamera, cell_to_tile, line_cells, world_to_cell};
use crate::notices::{NoticeKind, Notices};
use crate::schedule::{self, FrameSystems};
use crate::sim::{ClearWalls, SimClock, SimCommand, SimState, SpawnAgent, TileEdit};
use crate::ui_state::{
    Brush, CursorTile, EditPreview, Inspector, Overlays, PendingStart, Selection, Typing, UiRects,
    WorldSettings, keyboard_free,
};

/// The controls, as the panel lists them: (input, what it does).
pub const CONTROLS: &[(&str, &str)] = &[
    ("Left click", "place a start, then its goal"),
    ("Middle drag", "paint walls (or the brush's weight)"),
    ("Right drag", "erase to plain ground"),
    ("Esc", "cancel a start; otherwise quit"),
    ("Space", "pause / resume"),
    ("N", "step one tick (pauses)"),
    ("+ / -", "faster / slower ticks"),
    ("0 or W, 2–9", "brush: wall, or weight 2–9"),
    ("R", "new random map"),
    ("C", "clear walls"),
    ("A", "spawn random agents"),
    ("X", "remove all agents"),
    ("Tab", "select the next agent"),
    ("E", "explain: replay the selected agent's last repair"),
    ("Left / Right", "explain: one step back / forward"),
    ("I", "inspect the cell under the mouse"),
    ("D", "dynamic world on / off"),
    ("H / G / P", "heat map / g values / all paths"),
];

/// The longest stroke segment drawn between two cursor samples, in cells.
const MAX_STROKE: usize = 4096;

/// The button of the stroke in progress and its last cell.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stroke {
    button: Option<MouseButton>,
    last: Option<IVec2>,
}

/// The input feature.
pub fn plugin(app: &mut App) {
    schedule::ensure(app);
    app.init_resource::<CursorTile>()
        .init_resource::<Brush>()
        .init_resource::<PendingStart>()
        .init_resource::<Selection>()
        .init_resource::<Inspector>()
        .init_resource::<Overlays>()
        .init_resource::<WorldSettings>()
        .init_resource::<EditPreview>()
        .init_resource::<Stroke>()
        .init_resource::<Typing>()
        .init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>()
        .add_message::<ExplainControl>()
        .add_message::<AppExit>()
        .add_systems(Update, update_cursor.in_set(FrameSystems::Cursor))
        .add_systems(
            Update,
            (forget_stale, mouse_input, key_input.run_if(keyboard_free))
                .chain()
                .in_set(FrameSystems::Act),
        );
}

/// Cursor → world → cell. Needs a window and the map camera; without them (headless tests)
/// it does not run and [`CursorTile`](crate::ui_state::CursorTile) keeps what the test put there.
pub fn update_cursor(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<MapCamera>>,
    state: Res<SimState>,
    ui: Option<Res<UiRects>>,
    wants: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut cursor: ResMut<CursorTile>,
) {
    let (camera, transform) = *camera;
    let grid = state.sim().grid();
    let screen = window.cursor_position();
    let world = screen.and_then(|p| camera.viewport_to_world_2d(transform, p).ok());
    let over_panel = screen.is_some_and(|p| ui.is_some_and(|r| r.0.iter().any(|r| r.contains(p))));
    let egui_busy = wants.is_some_and(|w| w.is_using_pointer() || w.is_popup_open());
    let next = CursorTile {
        world,
        cell: world.map(|w| world_to_cell(w, grid.width(), grid.height())),
        over_ui: over_panel || egui_busy,
    };
    if *cursor != next {
        *cursor = next;
    }
}

/// Drops the preview once a tick applied it, and a pending start when the world was rebuilt.
fn forget_stale(
    state: Res<SimState>,
    mut preview: ResMut<EditPreview>,
    mut start: ResMut<PendingStart>,
    mut selection: ResMut<Selection>,
) {
    let now = (state.ticks(), state.epoch());
    if preview.seen != now {
        if preview.seen.1 != now.1 {
            start.0 = None;
            if selection
                .0
                .is_some_and(|id| state.sim().agent(id).is_none())
            {
                selection.0 = None;
            }
        }
        preview.seen = now;
        preview.cells.clear();
    }
}

/// Clicks and strokes → [`SpawnAgent`] and [`TileEdit`] messages.
#[allow(clippy::too_many_arguments)]
pub fn mouse_input(
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorTile>,
    brush: Res<Brush>,
    state: Res<SimState>,
    mut stroke: ResMut<Stroke>,
    mut start: ResMut<PendingStart>,
    mut preview: ResMut<EditPreview>,
    mut notices: ResMut<Notices>,
    mut edits: MessageWriter<TileEdit>,
    mut spawns: MessageWriter<SpawnAgent>,
) {
    let grid = state.sim().grid();
    let (w, h) = (grid.width(), grid.height());
    let terrain_at = |p: Pos, preview: &EditPreview| {
        preview
            .cells
            .get(&p)
            .copied()
            .unwrap_or_else(|| grid.terrain(p).unwrap_or(Terrain::Wall))
    };

    // Left click: start, then goal.
    if buttons.just_pressed(MouseButton::Left)
        && !cursor.over_ui
        && let Some(cell) = cursor.cell
    {
        match cell_to_tile(cell, w, h) {
            None => notices.push(NoticeKind::Refused, "refused: that is outside the map"),
            Some(p) if terrain_at(p, &preview) == Terrain::Wall => {
                let what = if start.0.is_some() { "goal" } else { "start" };
                notices.push(
                    NoticeKind::Refused,
                    format!("refused: {what} {p} is a wall"),
                );
            }
            Some(p) => match start.0.take() {
                None => {
                    start.0 = Some(p);
                    notices.push(
                        NoticeKind::Info,
                        format!("start {p}: now click its goal (Esc cancels)"),
                    );
                }
                Some(s) => {
                    spawns.write(SpawnAgent { start: s, goal: p });
                    notices.push(NoticeKind::Info, format!("agent {s} to {p} joins"));
                }
            },
        }
    }

    // Middle and right strokes.
    for (button, terrain) in [
        (MouseButton::Middle, brush.0),
        (MouseButton::Right, Terrain::FREE),
    ] {
        if buttons.just_pressed(button) && stroke.button.is_none() && !cursor.over_ui {
            stroke.button = Some(button);
            stroke.last = None;
        }
        // A press and release within one frame (a quick click) still paints its cell.
        let active = buttons.pressed(button)
            || buttons.just_pressed(button)
            || buttons.just_released(button);
        if stroke.button == Some(button) && active {
            paint(
                &mut stroke,
                &cursor,
                terrain,
                (w, h),
                &mut preview,
                &mut edits,
                terrain_at,
            );
        }
        if buttons.just_released(button) && stroke.button == Some(button) {
            *stroke = Stroke::default();
        }
    }
}

/// Paints `terrain` from the stroke's last cell to the cursor's, skipping cells that already
/// are (or are about to be) `terrain`.
fn paint(
    stroke: &mut Stroke,
    cursor: &CursorTile,
    terrain: Terrain,
    (w, h): (u32, u32),
    preview: &mut EditPreview,
    edits: &mut MessageWriter<TileEdit>,
    terrain_at: impl Fn(Pos, &EditPreview) -> Terrain,
) {
    let Some(cell) = cursor.cell.filter(|_| !cursor.over_ui) else {
        // Off the window or over the panel: the stroke resumes from where it comes back.
        stroke.last = None;
        return;
    };
    if stroke.last == Some(cell) {
        return;
    }
    let cells = match stroke.last {
        Some(last) => line_cells(last, cell, MAX_STROKE).split_off(1),
        None => vec![cell],
    };
    stroke.last = Some(cell);
    for c in cells {
        let Some(p) = cell_to_tile(c, w, h) else {
            continue;
        };
        if terrain_at(p, preview) == terrain {
            continue;
        }
        preview.cells.insert(p, terrain);
        edits.write(TileEdit { pos: p, terrain });
    }
}

/// Keys → pause, steps, world commands, brush, selection and overlays.
#[allow(clippy::too_many_arguments)]
pub fn key_input(
    keys: Res<ButtonInput<KeyCode>>,
    state: Res<SimState>,
    mut clock: ResMut<SimClock>,
    mut start: ResMut<PendingStart>,
    mut brush: ResMut<Brush>,
    mut selection: ResMut<Selection>,
    mut overlays: ResMut<Overlays>,
    mut inspector: ResMut<Inspector>,
    mut settings: ResMut<WorldSettings>,
    mut notices: ResMut<Notices>,
    mut commands: MessageWriter<SimCommand>,
    mut clears: MessageWriter<ClearWalls>,
    mut explain: MessageWriter<ExplainControl>,
    mut exit: MessageWriter<AppExit>,
) {
    for key in keys.get_just_pressed() {
        match key {
            KeyCode::Escape => {
                if start.0.take().is_some() {
                    notices.push(NoticeKind::Info, "start cancelled");
                } else {
                    exit.write(AppExit::Success);
                }
            }
            KeyCode::Space => clock.paused = !clock.paused,
            KeyCode::KeyN | KeyCode::Period => clock.step(),
            KeyCode::Equal | KeyCode::NumpadAdd => {
                clock.rate_hz = crate::sim::clamp_rate((clock.rate_hz * 1.5).round());
            }
            KeyCode::Minus | KeyCode::NumpadSubtract => {
                clock.rate_hz = crate::sim::clamp_rate((clock.rate_hz / 1.5).round());
            }
            KeyCode::KeyR => {
                commands.write(SimCommand::RandomMap {
                    density: settings.density,
                    seed: settings.seed,
                    agents: settings.spawn_agents,
                });
                settings.seed = settings.seed.wrapping_add(1);
            }
            KeyCode::KeyC => {
                clears.write(ClearWalls);
            }
            KeyCode::KeyA => {
                commands.write(SimCommand::SpawnRandom {
                    agents: settings.spawn_agents,
                    goals: settings.spawn_goals,
                });
            }
            KeyCode::KeyX => {
                commands.write(SimCommand::ClearAgents);
            }
            KeyCode::Digit0 | KeyCode::KeyW => brush.0 = Terrain::Wall,
            KeyCode::Tab => selection.0 = next_agent(&state, selection.0),
            KeyCode::KeyE => {
                explain.write(ExplainControl::Start);
            }
            KeyCode::ArrowLeft => {
                explain.write(ExplainControl::Step(false));
            }
            KeyCode::ArrowRight => {
                explain.write(ExplainControl::Step(true));
            }
            KeyCode::KeyI => inspector.on = !inspector.on,
            KeyCode::KeyD => {
                let setting = match state.sim().dynamic() {
                    Some(_) => None,
                    None => Some(gridwalk_core::world::DynamicWorld::GENTLE),
                };
                commands.write(SimCommand::SetDynamic(setting));
            }
            KeyCode::KeyH => overlays.heat = !overlays.heat,
            KeyCode::KeyG => overlays.g_values = !overlays.g_values,
            KeyCode::KeyP => overlays.all_paths = !overlays.all_paths,
            other => {
                if let Some(w) = digit_weight(*other) {
                    brush.0 = Terrain::Weight(w);
                }
            }
        }
    }
}

/// The weight of digit keys 2–9.
fn digit_weight(key: KeyCode) -> Option<u8> {
    Some(match key {
        KeyCode::Digit2 => 2,
        KeyCode::Digit3 => 3,
        KeyCode::Digit4 => 4,
        KeyCode::Digit5 => 5,
        KeyCode::Digit6 => 6,
        KeyCode::Digit7 => 7,
        KeyCode::Digit8 => 8,
        KeyCode::Digit9 => 9,
        _ => return None,
    })
}

/// The agent after `current` in id order, wrapping; the first one when none is selected.
pub fn next_agent(state: &SimState, current: Option<AgentId>) -> Option<AgentId> {
    let sim = state.sim();
    let mut ids = sim.agents().map(|a| a.id);
    match current {
        None => ids.next(),
        Some(c) => sim
            .agents()
            .map(|a| a.id)
            .find(|&id| id > c)
            .or_else(|| ids.next()),
    }
}
