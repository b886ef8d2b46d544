//! bevy_gridwalk: grid agents that repair their paths live, share their searches and, in
//! crowd mode, never stand on one another, as a Bevy plugin.
//!
//! Add [`GridwalkPlugin`] with a map and [`GridwalkSettings`], spawn entities with a
//! [`GridPos`] and a [`Goal`], and read [`GridPos`], [`LastCell`] and [`AgentState`] back;
//! [`Arrived`] tells of arrivals. Edit the map with [`TileEdit`] messages: the planners are
//! told which cells changed and repair only what those cells affect (D\* Lite, one search per
//! goal, shared by every agent heading there). The tick runs inside `FixedUpdate` at its own
//! rate ([`TickClock`]), in the chained sets of [`GridwalkSystems`], so a game orders its own
//! systems before or after it; the plugin leaves `FixedUpdate`'s executor, `Time<Fixed>` and
//! `Time<Virtual>` as the game set them.
//!
//! Every rule of a tick lives in `gridwalk-core` (re-exported as [`core`]); this crate is its
//! Bevy side. Agents are known by their entity; anything refused comes back as one
//! [`Refused`] message, and an edit of a cell an agent stands on waits for the cell to free
//! ([`EditLanded`]). With [`GridwalkSettings::record`], the world ([`GridSim`]) records the
//! session as scenarios ([`Segment`]), which `gridwalk-cli simulate` replays exactly. See
//! `docs/plugin.md` for a guided tour.
//!
//! ```
//! use bevy::prelude::*;
//! use bevy::time::TimeUpdateStrategy;
//! use bevy_gridwalk::prelude::*;
//! use bevy_gridwalk::core::{Grid, Pos};
//!
//! let mut app = App::new();
//! app.add_plugins(MinimalPlugins)
//!     .add_plugins(GridwalkPlugin::on_grid(Grid::new(8, 8).unwrap()))
//!     // One tick per update, for the example: each update is one `FixedUpdate` run, and
//!     // `Time<Fixed>` runs at the plugin's rate.
//!     .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
//!     .insert_resource(Time::<Fixed>::from_hz(TickClock::DEFAULT_RATE));
//! let agent = app.world_mut().spawn((GridPos(Pos::new(0, 0)), Goal(Pos::new(7, 7)))).id();
//! for _ in 0..10 {
//!     app.update();
//! }
//! let at = app.world().get::<GridPos>(agent).unwrap();
//! assert_eq!(at.0, Pos::new(7, 7));
//! assert_eq!(app.world().get::<AgentState>(agent).unwrap().0, AgentStatus::Arrived);
//! ```
//!
//! Modules: [`settings`] (the settings value), `world` (the [`GridSim`] resource), `agents`
//! (components and their sync), `messages`, `clock` ([`TickClock`]: pause, steps, rate, the
//! fraction between ticks),
//! `held` (edits waiting for their cells), [`reflect`] (the core's types as reflection sees
//! them: every component reflects, and the plugin registers it), `segment` (the recording) and, with the `debug` feature, `debug` (gizmos of paths and
//! repaired cells).

#![warn(missing_docs)]

mod agents;
mod clock;
#[cfg(feature = "debug")]
mod debug;
mod held;
mod messages;
pub mod reflect;
mod segment;
pub mod settings;

/// The core crate, `gridwalk-core`, re-exported: its grid, cells, planners and the
/// simulation's types, so a game depends on this crate alone.
pub use gridwalk_core as core;
mod tick;
mod world;

use bevy::prelude::*;
use gridwalk_core::Grid;
use gridwalk_core::format::Scenario;

pub use agents::{
    AgentState, ArrivalPolicy, Goal, GridAgent, GridPath, GridPos, Heading, LastCell, NextCell,
};
pub use clock::{TickClock, clamp_rate, ticking};
#[cfg(feature = "debug")]
pub use debug::{GridwalkDebug, GridwalkDebugPlugin, RepairGizmos};
pub use messages::{
    Arrived, Asked, ClearWalls, EditLanded, Refused, SpawnAgent, TileEdit, WallsCleared,
};
pub use segment::Segment;
pub use settings::GridwalkSettings;
pub use world::GridSim;

/// docs/plugin.md, whose every Rust block is compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/plugin.md")]
pub struct PluginGuideDoctests;

/// The crate's README, whose example is compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// What a game needs in scope: the plugin, its settings, components, messages and sets.
pub mod prelude {
    pub use crate::{
        AgentState, ArrivalPolicy, Arrived, Asked, ClearWalls, EditLanded, Goal, GridAgent,
        GridPath, GridPos, GridSim, GridwalkPlugin, GridwalkSettings, GridwalkSystems, Heading,
        LastCell, NextCell, Refused, SpawnAgent, TickClock, TileEdit,
    };
    pub use gridwalk_core::sim::AgentStatus;
}

/// The steps of a tick, in `FixedUpdate`, in this order. A step runs only when the run is a
/// tick (not paused, or a step was asked for), but [`GridwalkSystems::Gather`] always runs.
/// Order a game's systems against them: input before `Gather`, reading positions after
/// `Sync`. Each step's system runs on the thread that runs the schedule, so a tick hands no
/// task to a worker thread; the game's other systems still run on the workers beside it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GridwalkSystems {
    /// Drains the input messages and the game's new or changed agents, and decides whether
    /// this run is a tick.
    Gather,
    /// Agents removed or sent elsewhere by the game, then new agents, then the edits.
    ApplyEdits,
    /// The planners repair, then every agent with a path moves one cell; arrivals and the
    /// dynamic world follow.
    Step,
    /// Agent entities follow the simulation; [`Arrived`] is sent.
    Sync,
}

/// The plugin: the world it starts with, and how it plans and ticks.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_gridwalk::{GridwalkPlugin, GridwalkSettings, GridSim};
/// use gridwalk_core::format::grid_from_rows;
///
/// let grid = grid_from_rows(&["....#...", "....#...", "........"]).unwrap();
/// let settings = GridwalkSettings { crowd: true, ..Default::default() };
/// let mut app = App::new();
/// app.add_plugins(MinimalPlugins)
///     .add_plugins(GridwalkPlugin::on_grid(grid).with_settings(settings));
/// app.update();
/// assert!(app.world().resource::<GridSim>().sim().config().crowd);
/// ```
#[derive(Clone, Debug)]
pub struct GridwalkPlugin {
    /// How it plans and ticks.
    pub settings: GridwalkSettings,
    /// The world it starts with: a map, and optionally agents and timed events.
    pub world: Scenario,
    /// The map's name, for display.
    pub name: String,
}

impl GridwalkPlugin {
    /// A plugin on `grid`, with no agents and the default settings.
    pub fn on_grid(grid: Grid) -> GridwalkPlugin {
        GridwalkPlugin {
            settings: GridwalkSettings::default(),
            world: Scenario::from_grid(grid),
            name: "custom".into(),
        }
    }

    /// A plugin that plays `scenario` (a RON scenario, parsed by
    /// [`Scenario::parse`]) from its tick 0, with the settings it gives
    /// ([`GridwalkSettings::of_scenario`]).
    pub fn from_scenario(scenario: Scenario) -> GridwalkPlugin {
        GridwalkPlugin {
            settings: GridwalkSettings::of_scenario(&scenario),
            world: scenario,
            name: "scenario".into(),
        }
    }

    /// The same plugin with `settings`.
    pub fn with_settings(mut self, settings: GridwalkSettings) -> GridwalkPlugin {
        self.settings = settings;
        self
    }
}

impl Plugin for GridwalkPlugin {
    fn build(&self, app: &mut App) {
        // The refusals of the starting agents are sent at the first tick, unless the game
        // takes them first (`GridSim::take_start_refusals`).
        let (mut world, _) = GridSim::new(self.world.clone(), &self.settings);
        world.set_map_name(self.name.clone());
        messages::register(app);
        let mut clock = TickClock::new(self.settings.ticks_per_second);
        clock.paused = self.settings.paused;
        app.configure_sets(
            FixedUpdate,
            (
                GridwalkSystems::Gather,
                GridwalkSystems::ApplyEdits,
                GridwalkSystems::Step,
                GridwalkSystems::Sync,
            )
                .chain(),
        )
        .register_type::<GridPos>()
        .register_type::<Goal>()
        .register_type::<ArrivalPolicy>()
        .register_type::<GridAgent>()
        .register_type::<LastCell>()
        .register_type::<NextCell>()
        .register_type::<GridPath>()
        .register_type::<Heading>()
        .register_type::<AgentState>()
        .register_type::<TickClock>()
        .insert_resource(world)
        .insert_resource(clock)
        .init_resource::<world::PendingInput>()
        .init_resource::<agents::Synced>()
        .init_resource::<agents::Joining>()
        .add_systems(
            FixedUpdate,
            (
                tick::gather.in_set(GridwalkSystems::Gather),
                (tick::apply_edits.in_set(GridwalkSystems::ApplyEdits)).run_if(ticking),
                tick::step.in_set(GridwalkSystems::Step).run_if(ticking),
                (agents::sync_agents.in_set(GridwalkSystems::Sync)).run_if(ticking),
            ),
        )
        // A rebuild between ticks (a new map, say) shows at once, paused or not.
        .add_systems(
            PostUpdate,
            (
                tick::drop_stale_input,
                agents::sync_agents.run_if(agents::rebuilt),
            )
                .chain(),
        );
    }
}
