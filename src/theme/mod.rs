//! The one theme: every colour the game shows, asked for by the view (the map) and the panel
//! (egui), which define none of their own.
//!
//! - [`palette`]: the map's colours: terrain, previews, overlays, explain mode and agents.
//! - [`text`]: the panel's colours: warnings, notices, plots, and labels painted over the map.

pub mod palette;
pub mod text;
