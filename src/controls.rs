//! The game's controls as the player reads them: one table, kept beside no feature, so the
//! input feature documents it and the panel lists it without reaching into input.

/// The controls, as the panel lists them: (input, what it does).
pub const CONTROLS: &[(&str, &str)] = &[
    ("Left click", "place a start, then its goal"),
    ("Middle drag", "paint walls (or the brush's weight)"),
    ("Right drag", "erase to plain ground"),
    ("Wheel", "zoom in / out around the cursor"),
    ("Shift + drag", "pan (any button)"),
    ("Arrow keys", "pan (while explain is closed)"),
    ("F", "fit the whole map"),
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
    (
        "Left / Right",
        "explain (when open): one step back / forward",
    ),
    ("I", "inspect the cell under the mouse"),
    ("B", "crowd mode on / off (one agent a cell)"),
    ("D", "dynamic world on / off"),
    ("K", "unknown terrain on / off (agents sense nearby cells)"),
    ("H / G / P", "heat map / g values / all paths"),
];
