//! The map's palette: every colour the map is drawn with, terrain, previews, overlays, explain
//! mode, marks and agents.

use bevy::prelude::*;
use gridwalk_core::Terrain;
use gridwalk_core::cost::INFINITY;

/// Background behind the map.
pub const BACKGROUND: Color = Color::srgb(0.11, 0.12, 0.15);

/// The colour of a terrain, as sRGB bytes: light ground, dark walls, weights from green to
/// brown.
pub fn terrain_color(t: Terrain) -> [u8; 4] {
    match t {
        Terrain::Wall => [44, 47, 61, 255],
        Terrain::Weight(w) => match w {
            0 | 1 => [236, 232, 220, 255],
            2 => [204, 228, 168, 255],
            3 => [178, 212, 134, 255],
            4 => [156, 192, 106, 255],
            5 => [172, 172, 92, 255],
            6 => [184, 150, 80, 255],
            7 => [170, 124, 66, 255],
            8 => [148, 100, 56, 255],
            _ => [122, 78, 44, 255],
        },
    }
}

/// Unknown terrain: the fog over cells no agent has sensed. Translucent, so a wall under it
/// shows faintly: the user sees what the agents do not.
pub const FOG_COLOR: [u8; 4] = [24, 28, 40, 175];
/// Unknown terrain: over a true wall the agents do not know of (placed since its cell was
/// sensed), a wash of ground colour that leaves the wall faint.
pub const UNKNOWN_WALL_COLOR: [u8; 4] = [236, 232, 220, 170];
/// Unknown terrain: over plain ground the agents still believe a wall (taken away since its
/// cell was sensed), a faint wall.
pub const STALE_WALL_COLOR: [u8; 4] = [44, 47, 61, 90];
/// Unknown terrain: the outline of the selected agent's sensor square.
pub const SENSOR_SQUARE_COLOR: Color = Color::srgb(0.2, 0.85, 1.0);

/// The colour of a cell that becomes `t` at the next tick: halfway to white.
pub fn preview_color(t: Terrain) -> [u8; 4] {
    let [r, g, b, a] = match t {
        Terrain::Wall => [110, 114, 136, 255],
        other => terrain_color(other),
    };
    let lift = |c: u8| ((c as u16 + 255) / 2) as u8;
    match t {
        Terrain::Wall => [r, g, b, a],
        _ => [lift(r), lift(g), lift(b), a],
    }
}

/// Colour of cells opened (queued) in the explain replay.
pub const OPEN_COLOR: [u8; 4] = [70, 190, 255, 170];
/// Colour of cells closed (expanded) in the explain replay.
pub const CLOSED_COLOR: [u8; 4] = [190, 70, 210, 160];
/// Colour of cells a repair lowered (their cost settled lower).
pub const LOWERED_COLOR: [u8; 4] = [60, 210, 110, 185];
/// Colour of cells a repair raised (their old cost was no longer valid).
pub const RAISED_COLOR: [u8; 4] = [240, 70, 60, 190];
/// Colour of the cells A* from scratch would expand, under the replay.
pub const GHOST_COLOR: [u8; 4] = [150, 120, 230, 120];
/// Colour of inconsistent cells (g ≠ rhs) in the g overlay.
pub const INCONSISTENT_COLOR: [u8; 4] = [255, 40, 200, 220];

/// The g-value colour of a cost `c` out of `max`: blue near the goal to yellow far away.
pub fn g_color(c: u64, max: u64) -> [u8; 4] {
    if c == INFINITY {
        return [0, 0, 0, 0];
    }
    let t = if max == 0 {
        0.0
    } else {
        (c as f64 / max as f64) as f32
    };
    let lerp = |a: f32, b: f32| (a + (b - a) * t) as u8;
    [lerp(40.0, 250.0), lerp(80.0, 215.0), lerp(210.0, 50.0), 150]
}

/// The cross over an agent with no path.
pub const NO_PATH_COLOR: Color = Color::srgb(0.9, 0.1, 0.1);
/// The ring around an agent waiting for its plan (status `planning`).
pub const PLANNING_COLOR: Color = Color::srgb(0.95, 0.75, 0.2);
/// The ring around an agent that is stuck in crowd mode (status `stuck`).
pub const STUCK_COLOR: Color = Color::srgb(0.95, 0.2, 0.85);
/// Explain mode: the replayed agent's cell.
pub const EXPLAIN_START_COLOR: Color = Color::srgb(0.1, 0.8, 0.2);
/// Explain mode: the replayed agent's goal.
pub const EXPLAIN_GOAL_COLOR: Color = Color::srgb(0.9, 0.2, 0.2);
/// Explain mode: the path a replayed search found.
pub const EXPLAIN_PATH_COLOR: Color = Color::srgb(1.0, 0.85, 0.1);
/// The selection's inner ring, the pending start's ring and the line to the cursor.
pub const RING_LIGHT: Color = Color::WHITE;
/// The selection's and the pending start's outer ring.
pub const RING_DARK: Color = Color::BLACK;

/// An agent's colour: evenly spread hues by display number (golden angle).
pub fn agent_color(label: u32) -> Color {
    let hue = (label as f32 * 137.507_76) % 360.0;
    let lightness = if label.is_multiple_of(2) { 0.52 } else { 0.44 };
    Color::hsl(hue, 0.85, lightness)
}
