//! The panel's colours, as egui takes them: warnings and notices, the plot's lines, and the
//! labels egui paints over the map.

use bevy_egui::egui::Color32;

use super::palette::agent_color;

/// Errors and warnings; agents with no path in the list.
pub const RED: Color32 = Color32::from_rgb(235, 90, 80);
/// Refusals and prompts (a start waiting for its goal).
pub const AMBER: Color32 = Color32::from_rgb(240, 180, 60);
/// Good news: the repair beat the search from scratch.
pub const GREEN: Color32 = Color32::from_rgb(120, 210, 120);
/// Plain notices.
pub const INFO: Color32 = Color32::LIGHT_GRAY;
/// The plot's line of the planner's expansions.
pub const PLOT_PLANNER: Color32 = GREEN;
/// The plot's line of A* from scratch.
pub const PLOT_BASELINE: Color32 = AMBER;
/// The plot's line of repair time.
pub const PLOT_MICROS: Color32 = Color32::from_rgb(110, 170, 255);
/// "no path", painted over the map above a blocked agent.
pub const NO_PATH_LABEL: Color32 = Color32::from_rgb(255, 80, 70);
/// Explain in crowd mode: the numbers of the selected agent's candidate cells, in order tried.
pub const CANDIDATE_LABEL: Color32 = Color32::from_rgb(255, 230, 80);

/// A map colour given as sRGB bytes, opaque (for legend swatches).
pub fn swatch_color(c: [u8; 4]) -> Color32 {
    Color32::from_rgb(c[0], c[1], c[2])
}

/// An agent's colour ([`agent_color`]) for the panel's list.
pub fn agent_color32(label: u32) -> Color32 {
    let c = agent_color(label).to_srgba();
    Color32::from_rgb(
        (c.red * 255.0) as u8,
        (c.green * 255.0) as u8,
        (c.blue * 255.0) as u8,
    )
}
