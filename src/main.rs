//! `gridwalk`: the game's entry point. Parses the command line, builds the starting world and
//! runs the Bevy app; bad arguments or an unreadable map end with a message and status 2,
//! never a panic.

use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use clap::Parser;
use gridwalk::{GamePlugin, cli};

fn main() -> ExitCode {
    // clap prints help, or the error and the usage, and exits (2 on bad input).
    let args = cli::Args::parse();
    let setup = match cli::setup(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("gridwalk: error: {e}");
            return ExitCode::from(2);
        }
    };
    let exit = App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "gridwalk: incremental pathfinding, live".into(),
                resolution: WindowResolution::new(1400, 900),
                ..default()
            }),
            ..default()
        }))
        .add_plugins(bevy_egui::EguiPlugin::default())
        .add_plugins(GamePlugin { args, setup })
        .run();
    match exit {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(_) => ExitCode::FAILURE,
    }
}
