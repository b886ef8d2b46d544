//! The simulation resource and what the game keeps beside it: the session log, labels, the
//! script of a loaded scenario, and the setup the game starts from.

use std::collections::BTreeMap;

use bevy::prelude::*;
use gridwalk_core::format::{AgentSpec, DynamicSpec, EditSpec, Scenario};
use gridwalk_core::sim::{AgentId, SimConfig, SimError, Simulation};
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::{Grid, Pos, Terrain};

use super::clock::SimClock;
use super::messages::{EXPLAIN_HISTORY, SpawnAgent, TileEdit};
use super::session::SessionLog;
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

/// Agents, edits and dynamic-world changes of a loaded scenario still to come, by tick of
/// the current segment.
#[derive(Debug, Default, Clone)]
pub struct Script {
    /// Agents that appear later.
    pub agents: Vec<AgentSpec>,
    /// Edits that apply later.
    pub edits: Vec<EditSpec>,
    /// Changes of the dynamic world that come later.
    pub dynamic: Vec<DynamicSpec>,
}

impl Script {
    /// What of `scenario` comes after tick 0.
    pub fn after_start(scenario: &Scenario) -> Script {
        Script {
            agents: scenario
                .agents
                .iter()
                .filter(|a| a.tick > 0)
                .copied()
                .collect(),
            edits: scenario.edits.clone(),
            dynamic: scenario
                .dynamic
                .iter()
                .filter(|d| d.tick > 0)
                .copied()
                .collect(),
        }
    }

    /// Whether nothing is left.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty() && self.edits.is_empty() && self.dynamic.is_empty()
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
    /// How many destinations wanderers draw their goals from; 0 for any reachable cell.
    pub destinations: usize,
    /// Seed of wander's goals and the dynamic world.
    pub world_seed: u64,
    /// Agents and edits of a scenario still to come.
    pub script: Script,
    /// The map's name, for the panel.
    pub map_name: String,
    /// Ticks per second.
    pub rate_hz: f64,
    /// Seed of the random agents spawned later.
    pub seed: u64,
    /// Start paused.
    pub paused: bool,
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
            destinations: 0,
            world_seed: 0,
            script: Script::default(),
            map_name: "custom".into(),
            rate_hz: SimClock::DEFAULT_RATE,
            seed: maps::DEFAULT_SEED,
            paused: false,
        }
    }
}

/// The simulation, with what the game keeps beside it.
#[derive(Resource)]
pub struct SimState {
    pub(super) sim: Simulation,
    pub(super) log: SessionLog,
    pub(super) finished: Vec<Scenario>,
    pub(super) labels: BTreeMap<AgentId, u32>,
    pub(super) next_label: u32,
    pub(super) script: Script,
    pub(super) map_name: String,
    pub(super) epoch: u64,
    pub(super) ticks: u64,
    pub(super) on_arrival: OnArrival,
    pub(super) world_seed: u64,
}

impl SimState {
    /// A simulation of `setup`, planned once (tick 0 of the session), and the refusals of
    /// its agents.
    pub fn new(setup: &SimSetup) -> (SimState, Vec<String>) {
        let mut s = SimState {
            sim: Simulation::new(setup.grid.clone(), setup.config),
            log: SessionLog::new(&setup.grid, setup.config, 0, "start"),
            finished: Vec::new(),
            labels: BTreeMap::new(),
            next_label: 0,
            script: Script::default(),
            map_name: setup.map_name.clone(),
            epoch: 0,
            ticks: 0,
            on_arrival: setup.on_arrival,
            world_seed: setup.world_seed,
        };
        s.sim.set_dynamic(setup.dynamic);
        s.sim.set_destinations(setup.destinations);
        let agents = setup
            .agents
            .iter()
            .map(|&(s, g, p)| (s, g, None, p))
            .collect();
        let refused = s.rebuild(setup.grid.clone(), setup.config, agents, "start");
        s.script = setup.script.clone();
        (s, refused)
    }

    /// The core simulation.
    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The core simulation, to change it outside the tick: for benchmarks and tests only.
    /// Changes made here bypass the session log, so a recording would not replay them.
    pub fn sim_mut_unrecorded(&mut self) -> &mut Simulation {
        &mut self.sim
    }

    /// The current segment of the session, as a scenario is built from it.
    pub fn session(&self) -> &SessionLog {
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

    /// The tick number the next tick has in the session log (tick 0 is the planning at the
    /// segment's start).
    pub fn next_tick(&self) -> u64 {
        self.sim.tick_count() - self.log.tick0() + 1
    }

    /// Whether scripted events are still to come.
    pub fn script(&self) -> &Script {
        &self.script
    }

    /// What agents added from now on do on arrival.
    pub fn on_arrival(&self) -> OnArrival {
        self.on_arrival
    }

    /// Turns the dynamic world on or off from the next tick on, and logs it.
    pub fn set_dynamic(&mut self, setting: Option<DynamicWorld>) {
        let tick = self.next_tick();
        self.sim.set_dynamic(setting);
        self.log.dynamic(tick, self.sim.dynamic());
    }

    /// Rebuilds the simulation on `grid` with `config` and `agents` (start, goal, label,
    /// arrival policy), keeping the dynamic world's setting, the seed and the destinations
    /// (chosen again on `grid`), plans once, and
    /// starts a new log segment. Returns the refusals of agents.
    pub(super) fn rebuild(
        &mut self,
        grid: Grid,
        config: SimConfig,
        agents: Vec<(Pos, Pos, Option<u32>, OnArrival)>,
        reason: &str,
    ) -> Vec<String> {
        let old = std::mem::replace(&mut self.log, SessionLog::new(&grid, config, 0, reason));
        if self.epoch > 0 && !old.is_empty() {
            self.finished.push(old.to_scenario());
            if self.finished.len() > 16 {
                self.finished.remove(0);
            }
        }
        let (dynamic, destinations) = (self.sim.dynamic(), self.sim.destinations());
        self.sim = Simulation::new(grid, config);
        self.sim.set_seed(self.world_seed);
        self.sim.set_destinations(destinations);
        self.log.destinations(destinations);
        self.sim.set_history(EXPLAIN_HISTORY);
        self.sim.set_dynamic(dynamic);
        self.log.seed(self.world_seed);
        if dynamic.is_some() {
            self.log.dynamic(0, dynamic);
        }
        self.labels.clear();
        self.script = Script::default();
        let mut refused = Vec::new();
        for (start, goal, label, policy) in agents {
            match self.sim.add_agent_with(start, goal, policy) {
                Ok(id) => {
                    let label = label.unwrap_or_else(|| self.fresh_label());
                    self.labels.insert(id, label);
                    self.log.agent(0, start, goal, policy);
                }
                Err(e) => refused.push(format!("agent {start} to {goal} refused: {e}")),
            }
        }
        self.sim.replan();
        self.epoch += 1;
        refused
    }

    /// [`Self::rebuild`] on the current grid with the current agents, keeping the scripted
    /// events still to come (renumbered for the new segment).
    pub(super) fn rebuild_keeping_agents(
        &mut self,
        config: SimConfig,
        reason: &str,
    ) -> Vec<String> {
        let grid = self.sim.grid().clone();
        let agents = self.current_agents();
        let mut script = std::mem::take(&mut self.script);
        let old_next = self.next_tick();
        let refused = self.rebuild(grid, config, agents, reason);
        let shift = old_next.saturating_sub(self.next_tick());
        for a in &mut script.agents {
            a.tick = a.tick.saturating_sub(shift);
        }
        for e in &mut script.edits {
            e.tick = e.tick.saturating_sub(shift);
        }
        for d in &mut script.dynamic {
            d.tick = d.tick.saturating_sub(shift);
        }
        self.script = script;
        refused
    }

    pub(super) fn fresh_label(&mut self) -> u32 {
        let l = self.next_label;
        self.next_label += 1;
        l
    }

    /// The current agents as (cell, goal, label, policy), for a rebuild that keeps them.
    pub(super) fn current_agents(&self) -> Vec<(Pos, Pos, Option<u32>, OnArrival)> {
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

    /// Rebuilds on the current grid and agents: the planners start fresh, as they would in
    /// a replay of the new segment.
    pub fn restart_segment(&mut self, reason: &str) {
        let config = self.sim.config();
        self.rebuild_keeping_agents(config, reason);
    }

    /// Adds an agent now (the tick's first step). Logged when it succeeds.
    pub fn add_agent(
        &mut self,
        start: Pos,
        goal: Pos,
        on_arrival: OnArrival,
    ) -> Result<AgentId, SimError> {
        let tick = self.next_tick();
        let id = self.sim.add_agent_with(start, goal, on_arrival)?;
        let label = self.fresh_label();
        self.labels.insert(id, label);
        self.log.agent(tick, start, goal, on_arrival);
        Ok(id)
    }

    /// Applies an edit now (the tick's second step). Logged when the cell changes.
    pub fn edit(&mut self, pos: Pos, terrain: Terrain) -> Result<bool, SimError> {
        let tick = self.next_tick();
        let changed = self.sim.edit(pos, terrain)?;
        if changed {
            self.log.edit(tick, pos, terrain);
        }
        Ok(changed)
    }

    /// Turns every wall into plain ground in one batch ([`Simulation::clear_walls`]: each cell
    /// checked once, each planner told once) and logs the cells. Returns how many.
    pub fn clear_walls(&mut self) -> usize {
        let tick = self.next_tick();
        let grid = self.sim.grid();
        let walls: Vec<Pos> = (0..grid.len())
            .filter(|&i| grid.weight(i) == 0)
            .map(|i| grid.pos(i))
            .collect();
        let n = self.sim.clear_walls();
        for p in walls {
            self.log.edit(tick, p, Terrain::FREE);
        }
        n
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
