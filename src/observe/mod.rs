//! What is derived from the simulation for display, once per frame in
//! [`FrameSystems::Observe`]: the view draws it and the panel reads it, and neither asks the
//! simulation for it again.
//!
//! - [`overlay`]: the overlay's inputs, the fading heat of expanded cells and the selected
//!   agent's g values ([`OverlayData`]).
//! - [`paths`]: the agents' paths as of the last tick ([`PathCache`]).
//!
//! Each resource changes only when what it holds does, so an idle frame redraws nothing.

pub mod overlay;
pub mod paths;

use bevy::prelude::*;

use crate::schedule::{self, FrameSystems};

pub use overlay::{HEAT_FADE_SECS, OverlayData};
pub use paths::{MAX_PATHS, PathCache};

/// The observe feature.
pub fn plugin(app: &mut App) {
    schedule::ensure(app);
    crate::ui_state::init(app);
    app.init_resource::<OverlayData>()
        .init_resource::<PathCache>()
        .add_systems(
            Update,
            (overlay::update, paths::cache_paths).in_set(FrameSystems::Observe),
        );
}
