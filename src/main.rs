//! `gridwalk`: the game's entry point. Parses the command line, builds the starting world and
//! runs the Bevy app; bad arguments, an unreadable map or no display end with a message and
//! status 2, never a panic.
//!
//! In a browser (wasm32) the page's query string is the command line (`?agents=0&seed=3`),
//! an error is shown on the page, and the window is the page's canvas, filling it.

use std::process::ExitCode;

use bevy::prelude::*;
use gridwalk::{GamePlugin, cli};

fn main() -> ExitCode {
    let (args, setup) = match start() {
        Ok(s) => s,
        Err(e) => {
            report(&e);
            return ExitCode::from(2);
        }
    };
    let exit = App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(window()),
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

const TITLE: &str = "gridwalk: incremental pathfinding, live";

/// The arguments and the starting world; on the desktop, after checking there is a display.
#[cfg(not(target_arch = "wasm32"))]
fn start() -> Result<(cli::Args, gridwalk::sim::SimSetup), String> {
    use clap::Parser;
    // clap prints help, or the error and the usage, and exits (2 on bad input).
    let args = cli::Args::parse();
    let setup = cli::setup(&args)?;
    display_reachable()?;
    Ok((args, setup))
}

/// The arguments from the page's query string, and the starting world.
#[cfg(target_arch = "wasm32")]
fn start() -> Result<(cli::Args, gridwalk::sim::SimSetup), String> {
    let query = gridwalk::platform::browser::query_args();
    let args = cli::parse(query).map_err(|e| format!("the page's query string: {e}"))?;
    let setup = cli::setup(&args)?;
    Ok((args, setup))
}

fn report(e: &str) {
    eprintln!("gridwalk: error: {e}");
    #[cfg(target_arch = "wasm32")]
    gridwalk::platform::browser::show_page_error(&format!("gridwalk: error: {e}"));
}

/// A 1400×900 window on the desktop.
#[cfg(not(target_arch = "wasm32"))]
fn window() -> Window {
    Window {
        title: TITLE.into(),
        resolution: bevy::window::WindowResolution::new(1400, 900),
        ..default()
    }
}

/// The page's `#gridwalk` canvas, following its parent's size; the game takes the wheel and
/// right clicks, so the page neither scrolls nor shows its context menu over the map.
#[cfg(target_arch = "wasm32")]
fn window() -> Window {
    Window {
        title: TITLE.into(),
        canvas: Some("#gridwalk".into()),
        fit_canvas_to_parent: true,
        prevent_default_event_handling: true,
        ..default()
    }
}

/// On Linux, a window needs an X or Wayland display. Without either, winit would panic while
/// the app is built; this names what is missing instead. Only the variables are checked:
/// probing the server would be one more client, and a client leaving can make an X server reset.
#[cfg(not(target_arch = "wasm32"))]
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
