//! `--screenshot FILE.png` and `--exit-after-frames N`: for tests and the README picture.
//!
//! After N frames the window is captured (when a file is given) and the game exits once the
//! PNG is written, through the normal exit path, so `--record` still writes its file. If no
//! capture arrives within [`GIVE_UP_FRAMES`] more frames the game exits with an error.

use std::path::PathBuf;

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

/// Frames to wait for a requested capture before giving up.
pub const GIVE_UP_FRAMES: u32 = 600;

/// Frames before capturing when only `--screenshot` is given.
pub const DEFAULT_FRAMES: u32 = 60;

/// The capture feature.
pub struct CapturePlugin {
    /// Where to write the PNG, if anywhere.
    pub screenshot: Option<PathBuf>,
    /// Frames to run before capturing and exiting.
    pub exit_after_frames: Option<u32>,
}

#[derive(Resource, Debug, Clone)]
struct Capture {
    path: Option<PathBuf>,
    frames: u32,
    counted: u32,
    requested: bool,
    saved: bool,
}

impl Plugin for CapturePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Capture {
            path: self.screenshot.clone(),
            frames: self.exit_after_frames.unwrap_or(DEFAULT_FRAMES),
            counted: 0,
            requested: false,
            saved: false,
        })
        .add_systems(PostUpdate, countdown);
    }
}

fn countdown(
    mut commands: Commands,
    mut capture: ResMut<Capture>,
    mut exit: MessageWriter<AppExit>,
) {
    capture.counted += 1;
    if capture.counted < capture.frames {
        return;
    }
    let Some(path) = capture.path.clone() else {
        exit.write(AppExit::Success);
        return;
    };
    if !capture.requested {
        capture.requested = true;
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path))
            .observe(|_: On<ScreenshotCaptured>, mut capture: ResMut<Capture>| {
                capture.saved = true
            });
        return;
    }
    if capture.saved {
        exit.write(AppExit::Success);
    } else if capture.counted > capture.frames + GIVE_UP_FRAMES {
        error!("no screenshot was captured; giving up");
        exit.write(AppExit::error());
    }
}
