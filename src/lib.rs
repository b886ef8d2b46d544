//! gridwalk, the game: a Bevy tilemap where clicks edit the world and agents replan live.
//!
//! The game is thin. Every search, repair and tick rule lives in `gridwalk-core`, and the
//! tick, the world resource and the agent entities in the `bevy_gridwalk` plugin; this crate
//! draws the world, turns mouse and keys into [`sim::TileEdit`] and [`sim::SpawnAgent`]
//! messages and whole-world commands. One plugin per feature folder, ordered in one place:
//!
//! - [`schedule`]: every system set of the frame and its order.
//! - [`ui_state`]: what the player has selected, shown, brushed and hovered; read by all.
//! - [`map_frame`]: the map camera, its fit beside the panel, and cell ↔ world.
//! - [`notices`]: the message log the panel shows.
//! - [`sim`]: the game's side of the world: the plugin on the starting setup, the world
//!   commands, refusals as notices. Headless: tests and the `tick` benchmark load it alone
//!   with `MinimalPlugins`.
//! - [`input`]: cursor, mouse and keys into messages.
//! - [`explain`]: the replay of a planner's recorded repairs (the model and its control).
//! - [`observe`]: what is derived from the simulation for display: the overlay's data and
//!   the paths; read by the view and the panel.
//! - [`theme`]: every colour, for the map and the panel.
//! - [`controls`]: the table of controls, documented by input and listed by the panel.
//! - [`view`]: all drawing: tiles, agents, goals, paths, overlays and explain's marks.
//! - [`panel`]: the egui side panel, with the plot and the inspector. It reads `observe`,
//!   `ui_state`, `theme`, `sim` and the explain, notices and record resources, never `view`
//!   or `input`.
//! - [`record`]: `--record`, the session written as a scenario.
//! - [`capture`]: `--screenshot` and `--exit-after-frames`.
//! - [`timings`]: `--timings`, where a frame's CPU time goes.
//! - [`cli`]: the command line (clap).
//! - [`maps`]: random maps, the `maps/` folder (embedded in the browser build) and loading
//!   map files.
//! - [`platform`]: what differs in a browser: the clock's display, files, the page.
//! - [`presets`]: ready-made starts (Explore), for the panel and `--preset`.

#![warn(missing_docs)]

pub mod capture;
pub mod cli;
pub mod controls;
pub mod explain;
pub mod input;
pub mod map_frame;
pub mod maps;
pub mod notices;
pub mod observe;
pub mod panel;
pub mod platform;
pub mod presets;
pub mod record;
pub mod schedule;
pub mod sim;
pub mod theme;
pub mod timings;
pub mod ui_state;
pub mod view;

use bevy::prelude::*;

/// Everything the windowed game needs on top of `DefaultPlugins` and the egui plugin.
///
/// `setup` decides the first map and agents; see [`sim::SimSetup`].
pub struct GamePlugin {
    /// The parsed command line.
    pub args: cli::Args,
    /// The world the game starts with.
    pub setup: sim::SimSetup,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(sim::SimPlugin {
            setup: self.setup.clone(),
        })
        .add_plugins((
            input::plugin,
            observe::plugin,
            view::plugin,
            explain::plugin,
            panel::plugin,
            platform::plugin,
        ));
        if platform::IN_BROWSER {
            platform::refuse_desktop_only(app, &self.args);
            return;
        }
        if let Some(path) = &self.args.record {
            app.add_plugins(record::RecordPlugin { path: path.clone() });
        }
        if self.args.timings {
            app.add_plugins(timings::plugin);
        }
        if self.args.screenshot.is_some() || self.args.exit_after_frames.is_some() {
            app.add_plugins(capture::CapturePlugin {
                screenshot: self.args.screenshot.clone(),
                exit_after_frames: self.args.exit_after_frames,
            });
        }
    }
}
