//! Clicks and strokes: starts, goals, walls and erasing.

use bevy::prelude::*;
use gridwalk_core::{Pos, Terrain};

use crate::map_frame::{cell_to_tile, line_cells};
use crate::notices::{NoticeKind, Notices};
use crate::sim::{GridSim, SpawnAgent, TileEdit};
use crate::ui_state::{Brush, CursorTile, EditPreview, PendingStart, Selection};

/// The longest stroke segment drawn between two cursor samples, in cells.
const MAX_STROKE: usize = 4096;

/// The button of the stroke in progress and its last cell.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stroke {
    button: Option<MouseButton>,
    last: Option<IVec2>,
}

/// Drops the preview once a tick applied it, and a pending start when the world was rebuilt.
pub(super) fn forget_stale(
    state: Res<GridSim>,
    mut preview: ResMut<EditPreview>,
    mut start: ResMut<PendingStart>,
    mut selection: ResMut<Selection>,
) {
    let now = (state.ticks(), state.epoch());
    if preview.seen != now {
        if preview.seen.1 != now.1 {
            start.0 = None;
            if selection.0.is_some() && selection.agent(&state).is_none() {
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
    state: Res<GridSim>,
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
        let tile = cell_to_tile(cell, w, h);
        let wall = tile.is_some_and(|p| terrain_at(p, &preview) == Terrain::Wall);
        // In crowd mode a start must be free: one agent a cell.
        let sim = state.sim();
        let held = sim.config().crowd
            && start.0.is_none()
            && tile.is_some_and(|p| sim.agents().any(|a| a.pos == p));
        click(tile, (wall, held), &mut start, &mut notices, &mut spawns);
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

/// A left click on `tile` (`None` off the map; `wall` when it is, or is about to be, a wall;
/// `held` when an agent stands on it in crowd mode): places a start, or else the pending
/// start's goal, and the agent joins.
fn click(
    tile: Option<Pos>,
    (wall, held): (bool, bool),
    start: &mut PendingStart,
    notices: &mut Notices,
    spawns: &mut MessageWriter<SpawnAgent>,
) {
    match tile {
        None => notices.push(NoticeKind::Refused, "refused: that is outside the map"),
        Some(p) if wall => {
            let what = if start.0.is_some() { "goal" } else { "start" };
            notices.push(
                NoticeKind::Refused,
                format!("refused: {what} {p} is a wall"),
            );
        }
        Some(p) if held => {
            notices.push(
                NoticeKind::Refused,
                format!("refused: cell {p} holds an agent (crowd mode: one agent a cell)"),
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

/// Paints `terrain` from the stroke's last cell to the cursor's, skipping cells that already
/// are (or are about to be) `terrain`.
pub(super) fn paint(
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
