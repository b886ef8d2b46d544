//! bevy_gridwalk: grid agents that repair their paths live, share their searches and, in
//! crowd mode, never stand on one another, as a Bevy plugin.
//!
//! Add [`GridwalkPlugin`] with a map and [`GridwalkSettings`], spawn entities with a
//! [`GridPos`] and a [`Goal`], and read [`GridPos`], [`LastCell`] and [`AgentState`] back;
//! [`Arrived`] tells of arrivals. Edit the map with [`TileEdit`] messages: the planners are
//! told which cells changed and repair only what those cells affect (D\* Lite, one search per
//! goal, shared by every agent heading there). The tick runs in `FixedUpdate`, in the chained
//! sets of [`GridwalkSystems`], so a game orders its own systems before or after it.
//!
//! Every rule of a tick lives in `gridwalk-core`; this crate is its Bevy side. The world
//! ([`GridSim`]) records the session as a scenario ([`Segment`]), which
//! `gridwalk-cli simulate` replays exactly. See `docs/plugin.md` for a guided tour.
//!
//! ```
//! use bevy::prelude::*;
//! use bevy::time::TimeUpdateStrategy;
//! use bevy_gridwalk::prelude::*;
//! use gridwalk_core::{Grid, Pos};
//!
//! let mut app = App::new();
//! app.add_plugins(MinimalPlugins)
//!     .add_plugins(GridwalkPlugin::on_grid(Grid::new(8, 8).unwrap()))
//!     // One fixed tick per update, for the example.
//!     .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
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
//! (components and their sync), `messages`, `clock` ([`TickClock`]: pause, steps, rate),
//! `segment` (the recording) and, with the `debug` feature, `debug` (gizmos of paths and
//! repaired cells).

#![warn(missing_docs)]

mod agents;
mod clock;
#[cfg(feature = "debug")]
mod debug;
mod messages;
mod segment;
pub mod settings;
mod tick;
mod world;

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use gridwalk_core::Grid;
use gridwalk_core::format::Scenario;

pub use agents::{AgentEntities, AgentState, Goal, GridAgent, GridPos, LastCell, NextCell};
pub use clock::{TickClock, clamp_rate, ticking};
#[cfg(feature = "debug")]
pub use debug::{GridwalkDebugPlugin, RepairGizmos};
pub use messages::WallsCleared;
pub use messages::{AgentRefused, Arrived, ClearWalls, EditRefused, SpawnAgent, TileEdit};
pub use segment::Segment;
pub use settings::GridwalkSettings;
pub use world::{EXPLAIN_HISTORY, GridSim, PendingInput, Placed};

/// What a game needs in scope: the plugin, its settings, components, messages and sets.
pub mod prelude {
    pub use crate::{
        AgentRefused, AgentState, Arrived, ClearWalls, EditRefused, Goal, GridAgent, GridPos,
        GridSim, GridwalkPlugin, GridwalkSettings, GridwalkSystems, LastCell, NextCell, SpawnAgent,
        TickClock, TileEdit,
    };
    pub use gridwalk_core::sim::AgentStatus;
}

/// The steps of a tick, in `FixedUpdate`, in this order. A step runs only when the run is a
/// tick (not paused, or a step was asked for), but [`GridwalkSystems::Gather`] always runs.
/// Order a game's systems against them: input before `Gather`, reading positions after
/// `Sync`.
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
        // The refusals of the starting agents wait in `GridSim::take_start_refusals`.
        let (mut world, _) = GridSim::new(self.world.clone(), &self.settings);
        world.set_map_name(self.name.clone());
        messages::register(app);
        let mut clock = TickClock::new(self.settings.ticks_per_second);
        clock.paused = self.settings.paused;
        // The tick is one chain of sets: a parallel executor has nothing to overlap and only
        // adds its task overhead to every tick.
        app.edit_schedule(FixedUpdate, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        })
        .configure_sets(
            FixedUpdate,
            (
                GridwalkSystems::Gather,
                GridwalkSystems::ApplyEdits,
                GridwalkSystems::Step,
                GridwalkSystems::Sync,
            )
                .chain(),
        )
        .insert_resource(world)
        .insert_resource(Time::<Fixed>::from_hz(clock.rate_hz))
        .insert_resource(clock)
        .init_resource::<PendingInput>()
        .init_resource::<AgentEntities>()
        .init_resource::<agents::Joining>()
        .add_systems(
            FixedUpdate,
            (
                (tick::gather_input, agents::gather_agents).in_set(GridwalkSystems::Gather),
                (tick::apply_edits.in_set(GridwalkSystems::ApplyEdits)).run_if(ticking),
                tick::step.in_set(GridwalkSystems::Step).run_if(ticking),
                (agents::rematch_agents, agents::sync_agents)
                    .chain()
                    .in_set(GridwalkSystems::Sync)
                    .run_if(ticking),
            ),
        )
        // A rebuild between ticks (a new map, say) shows at once, paused or not.
        .add_systems(
            PostUpdate,
            (agents::rematch_agents, agents::sync_agents)
                .chain()
                .run_if(agents::rebuilt),
        )
        .add_systems(Update, clock::apply_rate);
    }
}
