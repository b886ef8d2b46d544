//! The simulation resource and what the game keeps beside it: the session's current
//! [`Segment`] (what it plays and records), labels, and the setup the game starts from.

use std::collections::BTreeMap;

use bevy::prelude::*;
use gridwalk_core::format::{AgentSpec, Scenario};
use gridwalk_core::scenario::timeline::Timeline;
use gridwalk_core::sim::{AgentId, Budget, SimConfig, SimError, Simulation};
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::{Algorithm, Grid, Pos, Terrain};

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
            rate_hz: SimClock::DEFAULT_RATE,
            paused: false,
        }
    }

    /// The simulation's configuration: the planner, with the scenario's moves.
    pub fn config(&self) -> SimConfig {
        SimConfig {
            measure_baseline: self.measure_baseline,
            ..self.scenario.config(self.algorithm)
        }
    }
}

/// An agent a rebuild keeps or places: start, goal, label (`None`: a new one) and arrival
/// policy.
pub(super) type Placed = (Pos, Pos, Option<u32>, OnArrival);

/// The simulation, with what the game keeps beside it.
#[derive(Resource)]
pub struct SimState {
    pub(super) sim: Simulation,
    pub(super) segment: Segment,
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
        let scenario = setup.scenario.clone();
        let (world_seed, budget) = (scenario.seed, scenario.budget());
        let (segment, sim) = Segment::start(scenario, setup.config(), "start");
        let mut s = SimState {
            sim,
            segment,
            finished: Vec::new(),
            labels: BTreeMap::new(),
            next_label: 0,
            map_name: setup.map_name.clone(),
            epoch: 0,
            ticks: 0,
            on_arrival: setup.on_arrival,
            world_seed,
            budget,
        };
        let refused = s.play_start(&[]);
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
    pub fn segment(&self) -> &Segment {
        &self.segment
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
        (self.segment.timeline_mut()).set_dynamic_now(tick, setting, &mut self.sim);
    }

    /// Turns unknown terrain on (with a sensor range) or off now, recorded at the next tick,
    /// as [`Self::set_dynamic`] records the dynamic world.
    pub fn set_sensing(&mut self, range: Option<u32>) {
        let tick = self.next_tick();
        (self.segment.timeline_mut()).set_sensing_now(tick, range, &mut self.sim);
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
    /// the sensor range, the seed, the budgets and the destinations (chosen again on `grid`):
    /// a new segment starts ([`Self::start_segment`]) that plays `agents` at its tick 0, then
    /// `script`. Returns the refusals of agents.
    pub(super) fn rebuild_playing(
        &mut self,
        grid: Grid,
        config: SimConfig,
        mut agents: Vec<Placed>,
        script: Timeline,
        reason: &str,
    ) -> Vec<String> {
        if config.crowd {
            let starts = agents.iter_mut().map(|a| &mut a.0);
            super::crowd::separate_cells(&grid, config.connectivity, starts);
        }
        let mut timeline = Timeline::default();
        let dynamic = self.sim.dynamic();
        if dynamic.is_some() {
            timeline.push_dynamic(0, dynamic);
        }
        for &(start, goal, _, on_arrival) in &agents {
            timeline.push_agent(AgentSpec {
                tick: 0,
                on_arrival,
                ..AgentSpec::new(start, goal)
            });
        }
        timeline.append(script);
        let (planner_memory, plan_budget) = self.budget.in_scenario();
        let base = Scenario {
            seed: self.world_seed,
            destinations: self.sim.destinations(),
            sensor_range: self.sim.sensor_range(),
            planner_memory,
            plan_budget,
            ..Scenario::from_grid(grid)
        };
        let kept: Vec<_> = agents.iter().map(|a| a.2).collect();
        self.start_segment(timeline.into_scenario(base), config, &kept, reason)
    }

    /// Ends the current segment (kept for the recording unless nothing happened in it) and
    /// starts `scenario` with `config` as the next one, the way the first one started: its
    /// seed and budgets hold from now on. `kept[i]` is the label the scenario's agent `i`
    /// keeps (`None`, or past the end: a new one). Returns the refusals of agents.
    pub(super) fn start_segment(
        &mut self,
        scenario: Scenario,
        config: SimConfig,
        kept: &[Option<u32>],
        reason: &str,
    ) -> Vec<String> {
        (self.world_seed, self.budget) = (scenario.seed, scenario.budget());
        let (segment, sim) = Segment::start(scenario, config, reason);
        let old = std::mem::replace(&mut self.segment, segment);
        if !old.is_empty() {
            self.finished.push(old.to_scenario());
            if self.finished.len() > 16 {
                self.finished.remove(0);
            }
        }
        self.sim = sim;
        self.play_start(kept)
    }

    /// Plays the new segment's tick 0 (its agents get their labels, kept or new) and plans
    /// once. Returns the refusals of agents.
    fn play_start(&mut self, kept: &[Option<u32>]) -> Vec<String> {
        self.sim.set_history(EXPLAIN_HISTORY);
        self.labels.clear();
        let (applied, refused) = self.segment.play(0, &mut self.sim);
        for &(i, id) in &applied.appeared {
            let label = kept.get(i).copied().flatten();
            let label = label.unwrap_or_else(|| self.new_label());
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
        let script = self.segment.take_future(self.next_tick());
        self.rebuild_playing(grid, config, agents, script, reason)
    }

    /// The next label never given in this session.
    pub(super) fn new_label(&mut self) -> u32 {
        let l = self.next_label;
        self.next_label += 1;
        l
    }

    /// The current agents as (cell, goal, label, policy), for a rebuild that keeps them,
    /// then those still waiting to enter (crowd mode), at their starts: a crowd rebuild
    /// separates them to the nearest free cells, so none is lost.
    pub(super) fn current_agents(&self) -> Vec<Placed> {
        let placed = (self.sim.agents()).map(|a| (a.pos, a.goal, a.id, a.on_arrival));
        let entering = (self.sim.entering()).map(|(id, start, goal, on)| (start, goal, id, on));
        (placed.chain(entering))
            .map(|(pos, goal, id, on_arrival)| (pos, goal, Some(self.label(id)), on_arrival))
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

    /// Rebuilds on the current grid and agents: the planners start over, as they would in
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
        let timeline = self.segment.timeline_mut();
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
        let restart = (self.segment.timeline().agents_at(tick))
            .any(|a| self.needs_restart_for(a.start, a.goal));
        if restart {
            self.restart_segment("an agent starts where the segment's map had a wall");
        }
        let tick = self.next_tick();
        let (applied, refused) = self.segment.play(tick, &mut self.sim);
        for &(_, id) in &applied.appeared {
            let label = self.new_label();
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
        let segment = &mut self.segment;
        let sim = &mut self.sim;
        (walls.into_iter())
            .filter(|&p| segment.edit_now(tick, p, Terrain::FREE, sim))
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
        let base = self.segment.base();
        let now = self.sim.grid();
        [start, goal]
            .iter()
            .any(|&p| now.is_passable(p) && base.contains(p) && !base.is_passable(p))
    }
}
