//! Every system set of the game and its order, in `FixedUpdate` and `Update`, and the tick's
//! executor: the one place where the order is set. Feature plugins only put their systems
//! `.in_set(...)`; each adds [`SchedulePlugin`] (once) so a test can load any of them alone.

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;

/// The steps of a tick, in `FixedUpdate`, in this order. A step runs only when the run is a
/// tick (not paused, or a step was asked for), but [`SimSystems::Gather`] always runs.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SimSystems {
    /// Drains the input messages and decides whether this run is a tick.
    Gather,
    /// New agents appear, then the edits apply.
    ApplyEdits,
    /// The planners repair, then every agent with a path moves one cell; arrivals and the
    /// dynamic world follow. One step, so that large groups' agents are read once
    /// (`Simulation::step`).
    Step,
    /// Agent entities follow the simulation.
    Sync,
}

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
        // The tick is one chain of sets: a parallel executor has nothing to overlap and only
        // adds its task overhead to every tick.
        app.edit_schedule(FixedUpdate, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        })
        .configure_sets(
            FixedUpdate,
            (
                SimSystems::Gather,
                SimSystems::ApplyEdits,
                SimSystems::Step,
                SimSystems::Sync,
            )
                .chain(),
        )
        .configure_sets(
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
