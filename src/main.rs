//! `gridwalk`: the game's entry point. Parses the command line, builds the starting world and
//! runs the Bevy app; bad arguments, an unreadable map or no display end with a message and
//! status 2, never a panic.

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
    if let Err(e) = display_reachable() {
        eprintln!("gridwalk: error: {e}");
        return ExitCode::from(2);
    }
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

/// On Linux, a window needs an X or Wayland display. Without either, winit would panic while
/// the app is built; this names what is missing instead. Only the variables are checked:
/// probing the server would be one more client, and a client leaving can make an X server reset.
fn display_reachable() -> Result<(), String> {
    if cfg!(target_os = "linux") {
        let set = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
        if !set("DISPLAY") && !set("WAYLAND_DISPLAY") {
            return Err(
                "no display: neither DISPLAY nor WAYLAND_DISPLAY is set. The game needs a \
                 window (on a headless machine, run it under Xvfb); `gridwalk-cli simulate` runs \
                 a scenario without one"
                    .into(),
            );
        }
    }
    Ok(())
}
