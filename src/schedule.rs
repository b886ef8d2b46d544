//! Every system set of the game's frame and its order, in `Update`: the one place where the
//! order is set. The tick's sets, in `FixedUpdate`, are the plugin's
//! ([`bevy_gridwalk::GridwalkSystems`]). Feature plugins only put their systems
//! `.in_set(...)`; each adds [`SchedulePlugin`] (once) so a test can load any of them alone.

use bevy::prelude::*;

/// The work of a frame, in `Update`, in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameSystems {
    /// The cursor becomes a tile.
    Cursor,
    /// Buttons and keys become messages.
    Act,
    /// Whole-world commands apply (new map, planner switches, the living world's settings).
    Commands,
    /// Explain mode's replay advances.
    Explain,
    /// The recording is saved.
    Record,
    /// What the view and the panel show is derived from the simulation ([`crate::observe`]).
    Observe,
    /// Everything is drawn.
    View,
}

/// Orders the sets above. Not unique: every feature plugin adds it, and only the first
/// addition does anything.
pub struct SchedulePlugin;

impl Plugin for SchedulePlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(
            Update,
            (
                FrameSystems::Cursor,
                FrameSystems::Act,
                FrameSystems::Commands,
                FrameSystems::Explain,
                FrameSystems::Record,
                FrameSystems::Observe,
                FrameSystems::View,
            )
                .chain(),
        );
    }

    fn is_unique(&self) -> bool {
        false
    }
}

/// Adds [`SchedulePlugin`] unless it is there already.
pub fn ensure(app: &mut App) {
    if !app.is_plugin_added::<SchedulePlugin>() {
        app.add_plugins(SchedulePlugin);
    }
}
