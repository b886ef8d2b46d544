//! The simulation resource and what the game keeps beside it: the session's current
//! [`Segment`] (what it plays and records), labels, and the setup the game starts from.

use std::collections::BTreeMap;

use bevy::prelude::*;
use gridwalk_core::format::{AgentSpec, Scenario};
use gridwalk_core::scenario::timeline::Timeline;
use gridwalk_core::sim::{AgentId, Budget, SimConfig, SimError, Simulation};
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::{Grid, Pos, Terrain};

use super::clock::SimClock;
use super::messages::{EXPLAIN_HISTORY, SpawnAgent, TileEdit};
use super::segment::Segment;
use crate::maps;

/// Input gathered since the last tick, applied by the next one.
#[derive(Resource, Default, Debug)]
pub struct PendingInput {
    /// Agents to add.
    pub spawns: Vec<SpawnAgent>,
    /// Edits, in the order they were made.
    pub edits: Vec<TileEdit>,
    /// Whether every wall goes at the next tick.
    pub clear_walls: bool,
}

impl PendingInput {
    /// Whether nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.spawns.is_empty() && self.edits.is_empty() && !self.clear_walls
    }
}

/// What of `scenario` the game plays on after its start, where [`SimSetup::agents`] and
/// [`SimSetup::dynamic`] hold its agents and setting of tick 0: every edit, and the agents and
/// dynamic-world settings of later ticks.
pub fn after_start(scenario: &Scenario) -> Timeline {
    Timeline::from_parts(
        scenario
            .agents
            .iter()
            .filter(|a| a.tick > 0)
            .copied()
            .collect(),
        scenario.edits.clone(),
        scenario
            .dynamic
            .iter()
            .filter(|d| d.tick > 0)
            .copied()
            .collect(),
    )
    .with_sensing(
        (scenario.sensing.iter())
            .filter(|s| s.tick > 0)
            .copied()
            .collect(),
    )
}

/// The sensor range of `scenario` at tick 0 (`None`: the agents know the whole map).
pub fn sensing_at_start(scenario: &Scenario) -> Option<u32> {
    match scenario.sensing.iter().rfind(|s| s.tick == 0) {
        Some(s) => s.setting(),
        None => scenario.sensor_range,
    }
}

/// The dynamic world's setting at tick 0 of `scenario`.
pub fn dynamic_at_start(scenario: &Scenario) -> Option<DynamicWorld> {
    scenario
        .dynamic
        .iter()
        .rfind(|d| d.tick == 0)
        .and_then(|d| d.setting())
}

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

/// The world the game starts with.
#[derive(Clone, Debug)]
pub struct SimSetup {
    /// The map.
    pub grid: Grid,
    /// Planner, heuristic and connectivity.
    pub config: SimConfig,
    /// Agents present at once: start, goal and arrival policy.
    pub agents: Vec<(Pos, Pos, OnArrival)>,
    /// What agents added later do on arrival.
    pub on_arrival: OnArrival,
    /// The dynamic world at the start.
    pub dynamic: Option<DynamicWorld>,
    /// The sensor range at the start (`None`: the agents know the whole map).
    pub sensor_range: Option<u32>,
    /// How many destinations wanderers draw their goals from; 0 for any reachable cell.
    pub destinations: usize,
    /// Seed of wander's goals and the dynamic world.
    pub world_seed: u64,
    /// What a scenario makes happen after its start ([`after_start`]); its edits of tick 0
    /// apply before the first plan.
    pub script: Timeline,
    /// The map's name, for the panel.
    pub map_name: String,
    /// Ticks per second.
    pub rate_hz: f64,
    /// Seed of the random agents spawned later.
    pub seed: u64,
    /// Start paused.
    pub paused: bool,
    /// The planner-memory and planning budgets.
    pub budget: Budget,
}

impl SimSetup {
    /// A setup on `grid` with no agents, default planner, 10 ticks per second.
    pub fn on_grid(grid: Grid) -> SimSetup {
        SimSetup {
            grid,
            config: SimConfig {
                measure_baseline: true,
                ..SimConfig::default()
            },
            agents: Vec::new(),
            on_arrival: OnArrival::Stay,
            dynamic: None,
            sensor_range: None,
            destinations: 0,
            world_seed: 0,
            script: Timeline::default(),
            map_name: "custom".into(),
            rate_hz: SimClock::DEFAULT_RATE,
            seed: maps::DEFAULT_SEED,
            paused: false,
            budget: game_budget(),
        }
    }
}

/// An agent a rebuild keeps or places: start, goal, label (`None`: a fresh one) and arrival
/// policy.
pub(super) type Placed = (Pos, Pos, Option<u32>, OnArrival);

/// The simulation, with what the game keeps beside it.
#[derive(Resource)]
pub struct SimState {
    pub(super) sim: Simulation,
    pub(super) log: Segment,
    pub(super) finished: Vec<Scenario>,
    pub(super) labels: BTreeMap<AgentId, u32>,
    pub(super) next_label: u32,
    pub(super) map_name: String,
    pub(super) epoch: u64,
    pub(super) ticks: u64,
    pub(super) on_arrival: OnArrival,
    pub(super) world_seed: u64,
    pub(super) budget: Budget,
}

impl SimState {
    /// A simulation of `setup`, planned once (tick 0 of the session), and the refusals of
    /// its agents.
    pub fn new(setup: &SimSetup) -> (SimState, Vec<String>) {
        let mut s = SimState {
            sim: Simulation::new(setup.grid.clone(), setup.config),
            log: Segment::new(&setup.grid, setup.config, 0, Timeline::default(), "start"),
            finished: Vec::new(),
            labels: BTreeMap::new(),
            next_label: 0,
            map_name: setup.map_name.clone(),
            epoch: 0,
            ticks: 0,
            on_arrival: setup.on_arrival,
            world_seed: setup.world_seed,
            budget: setup.budget,
        };
        s.sim.set_dynamic(setup.dynamic);
        s.sim.set_sensor_range(setup.sensor_range);
        s.sim.set_destinations(setup.destinations);
        let agents = setup
            .agents
            .iter()
            .map(|&(s, g, p)| (s, g, None, p))
            .collect();
        let script = setup.script.clone();
        let refused = s.rebuild_playing(setup.grid.clone(), setup.config, agents, script, "start");
        (s, refused)
    }

    /// The core simulation.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The core simulation, to change it outside the tick: for benchmarks and tests only.
    /// Changes made here bypass the segment's timeline, so a recording would not replay them.
    pub fn sim_mut_unrecorded(&mut self) -> &mut Simulation {
        &mut self.sim
    }

    /// The current segment of the session: what it plays, and what it recorded.
    pub fn session(&self) -> &Segment {
        &self.log
    }

    /// Segments finished since the last call (by a reset), oldest first.
    pub fn take_finished(&mut self) -> Vec<Scenario> {
        std::mem::take(&mut self.finished)
    }

    /// The map's name.
    pub fn map_name(&self) -> &str {
        &self.map_name
    }

    /// Changes whenever the simulation is rebuilt (new map, planner, agents cleared).
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Ticks run since the game started, across rebuilds.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// The agent's stable display number (its colour follows it).
    pub fn label(&self, id: AgentId) -> u32 {
        self.labels.get(&id).copied().unwrap_or(id)
    }

    /// The number the next tick has in the segment's timeline (tick 0 is the planning at the
    /// segment's start).
    pub fn next_tick(&self) -> u64 {
        self.sim.tick_count() + 1
    }

    /// What agents added from now on do on arrival.
    pub fn on_arrival(&self) -> OnArrival {
        self.on_arrival
    }

    /// Turns the dynamic world on or off now, recorded at the next tick (so a replay sets it
    /// before that tick's agents and edits).
    pub fn set_dynamic(&mut self, setting: Option<DynamicWorld>) {
        let tick = self.next_tick();
        (self.log.timeline_mut()).set_dynamic_now(tick, setting, &mut self.sim);
    }

    /// Turns unknown terrain on (with a sensor range) or off now, recorded at the next tick,
    /// as [`Self::set_dynamic`] records the dynamic world.
    pub fn set_sensing(&mut self, range: Option<u32>) {
        let tick = self.next_tick();
        (self.log.timeline_mut()).set_sensing_now(tick, range, &mut self.sim);
    }

    /// [`Self::rebuild_playing`] with nothing scripted.
    pub(super) fn rebuild(
        &mut self,
        grid: Grid,
        config: SimConfig,
        agents: Vec<Placed>,
        reason: &str,
    ) -> Vec<String> {
        self.rebuild_playing(grid, config, agents, Timeline::default(), reason)
    }

    /// Rebuilds the simulation on `grid` with `config`, keeping the dynamic world's setting,
    /// the sensor range, the seed and the destinations (chosen again on `grid`), and starts a new segment that plays `agents` at its tick 0, then
    /// `script`. Plays tick 0 and plans once. Returns the refusals of agents.
    pub(super) fn rebuild_playing(
        &mut self,
        grid: Grid,
        config: SimConfig,
        mut agents: Vec<Placed>,
        script: Timeline,
        reason: &str,
    ) -> Vec<String> {
        if config.crowd {
            super::crowd::separate(&grid, config.connectivity, &mut agents);
        }
        let mut timeline = Timeline::default();
        let dynamic = self.sim.dynamic();
        if dynamic.is_some() {
            timeline.push_dynamic(0, dynamic);
        }
        let range = self.sim.sensor_range();
        if range.is_some() {
            timeline.push_sensing(0, range);
        }
        for &(start, goal, _, on_arrival) in &agents {
            timeline.push_agent(AgentSpec {
                tick: 0,
                on_arrival,
                ..AgentSpec::new(start, goal)
            });
        }
        timeline.append(script);
        let destinations = self.sim.destinations();
        let mut segment = Segment::new(&grid, config, self.world_seed, timeline, reason);
        segment.set_destinations(destinations);
        segment.set_budget(self.budget);
        let old = std::mem::replace(&mut self.log, segment);
        if self.epoch > 0 && !old.is_empty() {
            self.finished.push(old.to_scenario());
            if self.finished.len() > 16 {
                self.finished.remove(0);
            }
        }
        self.sim = Simulation::new(grid, config);
        self.sim.set_seed(self.world_seed);
        self.sim.set_destinations(destinations);
        self.sim.set_budget(self.budget);
        self.sim.set_history(EXPLAIN_HISTORY);
        self.labels.clear();
        let (applied, refused) = self.log.play(0, &mut self.sim);
        for &(i, id) in &applied.appeared {
            let kept = agents.get(i).and_then(|a| a.2);
            let label = kept.unwrap_or_else(|| self.fresh_label());
            self.labels.insert(id, label);
        }
        self.sim.replan();
        self.epoch += 1;
        refused
    }

    /// [`Self::rebuild_playing`] on the current grid with the current agents, keeping the
    /// segment's events still to come (renumbered for the new segment).
    pub(super) fn rebuild_keeping_agents(
        &mut self,
        config: SimConfig,
        reason: &str,
    ) -> Vec<String> {
        let grid = self.sim.grid().clone();
        let agents = self.current_agents();
        let script = self.log.take_future(self.next_tick());
        self.rebuild_playing(grid, config, agents, script, reason)
    }

    pub(super) fn fresh_label(&mut self) -> u32 {
        let l = self.next_label;
        self.next_label += 1;
        l
    }

    /// The current agents as (cell, goal, label, policy), for a rebuild that keeps them.
    pub(super) fn current_agents(&self) -> Vec<Placed> {
        self.sim
            .agents()
            .map(|a| (a.pos, a.goal, Some(self.label(a.id)), a.on_arrival))
            .collect()
    }

    /// Wanderers draw their goals from `k` destinations (0: any reachable cell), chosen on
    /// the map as it stands: a new segment starts, whose scenario says so.
    pub fn set_destinations(&mut self, k: usize) {
        self.sim.set_destinations(k);
        self.restart_segment("destinations changed");
    }

    /// Sets the planner-memory and planning budgets: a new segment starts, whose scenario says
    /// so (a recording replays with the budgets the game used).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
        self.restart_segment("budgets changed");
    }

    /// Rebuilds on the current grid and agents: the planners start fresh, as they would in
    /// a replay of the new segment.
    pub fn restart_segment(&mut self, reason: &str) {
        let config = self.sim.config();
        self.rebuild_keeping_agents(config, reason);
    }

    /// The tick's first step: pushes the asked-for agents (with the current arrival policy)
    /// and edits into the segment's timeline at the next tick, then plays that tick's share:
    /// its dynamic-world settings, its agents (scripted ones first), its edits (scripted ones
    /// first). Returns the refusals of agents, in words, and of edits.
    pub(super) fn play_tick(
        &mut self,
        spawns: impl IntoIterator<Item = SpawnAgent>,
        edits: impl IntoIterator<Item = TileEdit>,
    ) -> (Vec<String>, Vec<(Pos, SimError)>) {
        let tick = self.next_tick();
        let on_arrival = self.on_arrival;
        let timeline = self.log.timeline_mut();
        for SpawnAgent { start, goal } in spawns {
            timeline.push_agent(AgentSpec {
                start,
                goal,
                tick,
                on_arrival,
            });
        }
        for e in edits {
            timeline.push_edit(tick, e.pos, e.terrain);
        }
        let restart =
            (self.log.timeline().agents_at(tick)).any(|a| self.needs_restart_for(a.start, a.goal));
        if restart {
            self.restart_segment("an agent starts where the segment's map had a wall");
        }
        let tick = self.next_tick();
        let (applied, refused) = self.log.play(tick, &mut self.sim);
        for &(_, id) in &applied.appeared {
            let label = self.fresh_label();
            self.labels.insert(id, label);
        }
        (refused, applied.refused)
    }

    /// Turns every wall into plain ground, after the tick's share, and records the cells at
    /// this tick. Returns how many.
    pub fn clear_walls(&mut self) -> usize {
        let tick = self.next_tick();
        let grid = self.sim.grid();
        let walls: Vec<Pos> = (0..grid.len())
            .filter(|&i| grid.weight(i) == 0)
            .map(|i| grid.pos(i))
            .collect();
        let log = &mut self.log;
        let sim = &mut self.sim;
        (walls.into_iter())
            .filter(|&p| log.edit_now(tick, p, Terrain::FREE, sim))
            .count()
    }

    /// Replans every agent and moves each one cell ([`Simulation::step`]): the tick's last
    /// step.
    pub fn step(&mut self) {
        self.sim.step();
        self.ticks += 1;
    }

    /// Whether adding an agent here would put it on a cell that was a wall when the segment
    /// began: the scenario format checks agents against the starting map, so the segment must
    /// restart first.
    pub(super) fn needs_restart_for(&self, start: Pos, goal: Pos) -> bool {
        let base = self.log.base();
        let now = self.sim.grid();
        [start, goal]
            .iter()
            .any(|&p| now.is_passable(p) && base.contains(p) && !base.is_passable(p))
    }
}
