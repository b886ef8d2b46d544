//! gridwalk, the game: a Bevy tilemap where clicks edit the world and agents replan live.
//!
//! The game is thin. Every search, repair and tick rule lives in `gridwalk-core`; this crate
//! draws the world, turns mouse and keys into [`sim::TileEdit`] and [`sim::SpawnAgent`]
//! messages, and runs the core's tick in `FixedUpdate`. One plugin per feature folder:
//!
//! - [`sim`]: the simulation resource, the messages and the tick ([`sim::SimSystems`]).
//!   Headless: tests and the `tick` benchmark load it alone with `MinimalPlugins`.
//! - [`input`]: cursor → tile (a pure, tested function) and the mouse and key controls.
//! - [`view`]: the tile texture, the fitted camera, agents, goals, paths and overlays.
//! - [`panel`]: the egui side panel.
//! - [`explain`]: replaying the selected agent's search cell by cell.
//! - [`record`]: `--record`, the session written as a scenario.
//! - [`capture`]: `--screenshot` and `--exit-after-frames`.
//! - [`cli`]: the command line.
//! - [`maps`]: random maps, the `maps/` folder and loading map files.

#![warn(missing_docs)]

pub mod capture;
pub mod cli;
pub mod explain;
pub mod input;
pub mod maps;
pub mod panel;
pub mod record;
pub mod sim;
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
        .add_plugins((input::plugin, view::plugin, explain::plugin, panel::plugin));
        if let Some(path) = &self.args.record {
            app.add_plugins(record::RecordPlugin { path: path.clone() });
        }
        if self.args.screenshot.is_some() || self.args.exit_after_frames.is_some() {
            app.add_plugins(capture::CapturePlugin {
                screenshot: self.args.screenshot.clone(),
                exit_after_frames: self.args.exit_after_frames,
            });
        }
    }
}
