//! The game's side of the world, which the [`bevy_gridwalk`] plugin simulates: the setup the
//! game starts from, the whole-world [`SimCommand`]s of its panel and keys, and the plugin's
//! reports turned into [`Notices`].
//!
//! The plugin owns the tick, the world resource ([`GridSim`]), the agent entities and the
//! recording of the session ([`Segment`]); this module re-exports what the game uses of it,
//! so the game's features name one place. Input systems write [`TileEdit`], [`SpawnAgent`]
//! and [`ClearWalls`] messages in `Update`; the plugin's [`GridwalkSystems`] apply them at
//! the next tick, exactly as `gridwalk-cli simulate` plays a scenario's tick.
//!
//! Whole-world changes (a new map, another planner, removing every agent) arrive as
//! [`SimCommand`]s in `Update` and go through [`GridSim`]'s documented methods. The game
//! records (`record: true`), so each of them starts a new [`Segment`], because a scenario
//! file cannot express them; each segment, written out, replays exactly with
//! `gridwalk-cli simulate`.
//!
//! The game sets `Time<Fixed>` to the tick clock's rate, so every `FixedUpdate` run is a
//! tick, and caps `Time<Virtual>`'s advance of a frame ([`pace_frames`]); the plugin itself
//! leaves both alone.

mod commands;

use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use gridwalk_core::format::Scenario;
use gridwalk_core::sim::{Budget, DynamicWorld, OnArrival, SimConfig};
use gridwalk_core::{Algorithm, Grid};

pub use bevy_gridwalk::{
    AgentState, Asked, ClearWalls, EditLanded, Goal, GridAgent, GridPos, GridSim, GridwalkPlugin,
    GridwalkSettings, GridwalkSystems, Heading, LastCell, NextCell, Refused, Segment, SpawnAgent,
    TickClock, TileEdit, WallsCleared, clamp_rate, ticking,
};
pub use commands::{SimRng, default_goals};

use commands::apply_commands;

use crate::maps;
use crate::notices::{NoticeKind, Notices, report_refusals};
use crate::schedule::{self, FrameSystems};

/// What the game reads of an agent entity to draw it: its last two cells, goal and status.
#[derive(QueryData)]
pub struct Glide {
    /// Its cell before the last tick.
    pub from: &'static LastCell,
    /// Its cell now.
    pub to: &'static GridPos,
    /// Its goal.
    pub goal: &'static Goal,
    /// What it is doing.
    pub status: &'static AgentState,
}

/// How many recent computes each planner keeps for explaining a repair
/// ([`GridwalkSettings::explain_history`]).
pub const EXPLAIN_HISTORY: usize = 32;

/// Expansions a tick of the game may make unless `--plan-budget` or the map says otherwise.
/// With 5,000 agents on a 512×512 map, 100,000 took a tick 127 ms on a busy 2-core machine;
/// D\* Lite spends about 1 µs an expansion, so 30,000 keeps a frame near 30–40 ms.
pub const GAME_PLAN_BUDGET: u64 = 30_000;

/// The game's budgets unless told otherwise: the default planner memory, and
/// [`GAME_PLAN_BUDGET`] expansions per tick.
pub fn game_budget() -> Budget {
    Budget {
        plan_expansions: Some(GAME_PLAN_BUDGET),
        ..Budget::default()
    }
}

/// The world the game starts with: a scenario, and what is the game's own.
#[derive(Clone, Debug)]
pub struct SimSetup {
    /// The starting scenario, started as `gridwalk-cli simulate` starts one
    /// ([`Scenario::start`]): map, moves, seed of wander's goals and the dynamic world,
    /// destinations, sensor range, budgets, the agents of tick 0 and everything it times.
    pub scenario: Scenario,
    /// The planner.
    pub algorithm: Algorithm,
    /// Whether each tick also measures A\* from scratch, for the panel's comparison.
    pub measure_baseline: bool,
    /// What agents added during the game do on arrival.
    pub on_arrival: OnArrival,
    /// Seed of the random agents the game adds later: spawned ones and a new random map's.
    pub spawn_seed: u64,
    /// The map's name, for the panel.
    pub map_name: String,
    /// Ticks per second.
    pub rate_hz: f64,
    /// Start paused.
    pub paused: bool,
}

impl SimSetup {
    /// A setup on `grid` with no agents, default planner and the game's budgets
    /// ([`game_budget`]), 10 ticks per second.
    pub fn on_grid(grid: Grid) -> SimSetup {
        let mut scenario = Scenario::from_grid(grid);
        (scenario.planner_memory, scenario.plan_budget) = game_budget().in_scenario();
        SimSetup {
            scenario,
            algorithm: SimConfig::default().algorithm,
            measure_baseline: true,
            on_arrival: OnArrival::Stay,
            spawn_seed: maps::DEFAULT_SEED,
            map_name: "custom".into(),
            rate_hz: TickClock::DEFAULT_RATE,
            paused: false,
        }
    }

    /// The plugin's settings: the planner, the scenario's moves, crowd mode and budgets, the
    /// rate, and recording on (the game's sessions replay with `gridwalk-cli simulate`).
    pub fn settings(&self) -> GridwalkSettings {
        GridwalkSettings {
            algorithm: self.algorithm,
            measure_baseline: self.measure_baseline,
            on_arrival: self.on_arrival,
            ticks_per_second: self.rate_hz,
            paused: self.paused,
            record: true,
            explain_history: EXPLAIN_HISTORY,
            ..GridwalkSettings::of_scenario(&self.scenario)
        }
    }

    /// The world this setup starts, without an app, and the refusals of its agents.
    pub fn start(&self) -> (GridSim, Vec<Refused>) {
        let (mut world, refused) = GridSim::new(self.scenario.clone(), &self.settings());
        world.set_map_name(self.map_name.clone());
        (world, refused)
    }

    /// The simulation's configuration: the planner, with the scenario's moves.
    pub fn config(&self) -> SimConfig {
        SimConfig {
            measure_baseline: self.measure_baseline,
            ..self.scenario.config(self.algorithm)
        }
    }
}

/// A whole-world change, applied at once in `Update`.
#[derive(Message, Clone, Debug)]
pub enum SimCommand {
    /// Replace the map by a seeded random one, with fresh random agents.
    RandomMap {
        /// Share of walls, 0–1.
        density: f64,
        /// The map's seed.
        seed: u64,
        /// How many random agents to add to it.
        agents: usize,
    },
    /// Replace the world by a scenario's map, agents and timed events.
    Load {
        /// The scenario.
        scenario: Box<Scenario>,
        /// Its name, for the panel.
        name: String,
    },
    /// Remove every agent.
    ClearAgents,
    /// Switch planner, heuristic or connectivity: every agent is planned again.
    SetConfig(SimConfig),
    /// Add random agents at the next tick.
    SpawnRandom {
        /// How many agents.
        agents: usize,
        /// Over how many new goals.
        goals: usize,
    },
    /// What agents added from now on do on arrival.
    SetOnArrival(OnArrival),
    /// Turn the dynamic world on (with a setting) or off, from the next tick on.
    SetDynamic(Option<DynamicWorld>),
    /// Wanderers draw their goals from this many destinations (0: any reachable cell).
    SetDestinations(usize),
    /// Set the planner-memory and planning budgets.
    SetBudget(Budget),
    /// Set the tries a tick of crowd mode's real-time search makes.
    SetCrowdBudget(usize),
    /// Unknown terrain on (with a sensor range) or off, from the next tick on.
    SetSensing(Option<u32>),
}

/// The game's world: the plugin on the setup's scenario, the world commands, and notices of
/// what the plugin refused. Headless: tests and the `tick` benchmark load it alone with
/// `MinimalPlugins`.
pub struct SimPlugin {
    /// The world to start with.
    pub setup: SimSetup,
}

impl Plugin for SimPlugin {
    fn build(&self, app: &mut App) {
        let setup = &self.setup;
        let plugin = GridwalkPlugin {
            settings: setup.settings(),
            world: setup.scenario.clone(),
            name: setup.map_name.clone(),
        };
        schedule::ensure(app);
        // The game's own choice: every `FixedUpdate` run is a tick (the plugin leaves
        // `Time<Fixed>` and `Time<Virtual>` to the game).
        app.insert_resource(Time::<Fixed>::from_hz(clamp_rate(setup.rate_hz)))
            .add_plugins(plugin);
        // The panel lists the refusals of the starting agents.
        let refused = app
            .world_mut()
            .resource_mut::<GridSim>()
            .take_start_refusals();
        let mut notices = Notices::default();
        for r in refused {
            notices.push(NoticeKind::Refused, r.to_string());
        }
        app.add_message::<SimCommand>()
            .insert_resource(notices)
            .insert_resource(SimRng(maps::rng(setup.spawn_seed ^ 0x9e37_79b9_7f4a_7c15)))
            .add_systems(
                FixedUpdate,
                report_refusals_of_tick.after(GridwalkSystems::ApplyEdits),
            )
            .add_systems(Update, apply_commands.in_set(FrameSystems::Commands))
            .add_systems(Update, pace_frames);
    }
}

/// The most game time one frame may advance: a tick's length, but at least this. When ticks
/// cost more than their share of real time, the simulation slows down rather than the frames:
/// at rates up to 20 a second a frame runs at most about one tick, instead of the several
/// that catching up would take (each making the next frame later still).
const MIN_FRAME_ADVANCE_SECS: f64 = 0.05;

/// Keeps the game's fixed timestep at the tick clock's rate (one `FixedUpdate` run a tick),
/// and a frame's advance of game time within one tick (see [`MIN_FRAME_ADVANCE_SECS`]).
fn pace_frames(
    clock: Res<TickClock>,
    mut fixed: ResMut<Time<Fixed>>,
    mut virt: ResMut<Time<Virtual>>,
) {
    if !clock.is_changed() {
        return;
    }
    let rate = clamp_rate(clock.rate_hz);
    if (fixed.timestep().as_secs_f64() - 1.0 / rate).abs() > 1e-9 {
        fixed.set_timestep_hz(rate);
    }
    let most = (1.0 / rate).max(MIN_FRAME_ADVANCE_SECS);
    virt.set_max_delta(std::time::Duration::from_secs_f64(most));
}

/// The plugin's refusals and reports of a tick, as notices: one per refused agent, one for
/// the tick's refused edits, one for the edits newly held (an agent stands on their cell) and
/// one for the held edits that landed.
fn report_refusals_of_tick(
    mut refusals: MessageReader<Refused>,
    mut cleared: MessageReader<WallsCleared>,
    mut landed: MessageReader<EditLanded>,
    state: Res<GridSim>,
    mut held_before: Local<usize>,
    mut notices: ResMut<Notices>,
) {
    let held = state.held_edits();
    if let Some(last) = held.last().filter(|_| held.len() > *held_before) {
        let text = match held.len() - *held_before {
            1 => format!(
                "edit of {} waits: an agent stands there; it lands when the cell frees",
                last.pos
            ),
            n => format!(
                "{n} edits wait for agents to leave their cells, e.g. {}",
                last.pos
            ),
        };
        notices.push(NoticeKind::Info, text);
    }
    let landed: Vec<EditLanded> = landed.read().copied().collect();
    if let Some(first) = landed.first() {
        let text = match landed.len() {
            1 => format!("edit of {} landed: the cell is free", first.pos),
            n => format!(
                "{n} held edits landed as their cells freed, e.g. {}",
                first.pos
            ),
        };
        notices.push(NoticeKind::Info, text);
    }
    *held_before = state.held_edits().len();
    let mut edits = Vec::new();
    for r in refusals.read() {
        match r.asked {
            Asked::Edit(pos) => edits.push((pos, r.error.clone())),
            _ => notices.push(NoticeKind::Refused, r.to_string()),
        }
    }
    for c in cleared.read() {
        notices.push(NoticeKind::Info, format!("cleared {} walls", c.count));
    }
    report_refusals(&edits, &mut notices);
}

#[cfg(test)]
mod tests {
    use gridwalk_core::Pos;
    use gridwalk_core::sim::SimError;

    use super::*;

    #[test]
    fn refusals_are_summarised() {
        let mut n = Notices::default();
        report_refusals(&[], &mut n);
        assert!(n.last().is_none());
        let e = SimError::OnWall(Pos::new(1, 1));
        report_refusals(&[(Pos::new(1, 1), e.clone()), (Pos::new(2, 1), e)], &mut n);
        assert!(n.last().unwrap().text.starts_with("2 edits refused"));
    }
}
