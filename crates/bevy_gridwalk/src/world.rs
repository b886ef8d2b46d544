//! The world resource, [`GridSim`]: the core's simulation, and what the plugin keeps beside
//! it: the session's current [`Segment`] (what it plays and records), the agents' stable
//! labels, and the input waiting for the next tick.

use std::collections::{BTreeMap, HashMap, VecDeque};

use bevy::prelude::*;
use gridwalk_core::format::{AgentSpec, Scenario};
use gridwalk_core::mapf::DEFAULT_BUDGET;
use gridwalk_core::scenario::timeline::Timeline;
use gridwalk_core::sim::{AgentId, Budget, SimConfig, SimError, Simulation};
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::{Grid, Pos, Terrain};

use crate::messages::{SpawnAgent, TileEdit};
use crate::segment::Segment;
use crate::settings::GridwalkSettings;

/// How many recent computes each planner keeps for explaining a repair in the demo
/// ([`GridwalkSettings::explain_history`]).
pub const EXPLAIN_HISTORY: usize = 32;

/// Input gathered since the last tick, applied by the next one.
#[derive(Resource, Default, Debug)]
pub struct PendingInput {
    /// Agents to add, each with the entity it was spawned as (`None`: the plugin spawns one).
    pub spawns: Vec<(SpawnAgent, Option<Entity>)>,
    /// Edits, in the order they were made.
    pub edits: Vec<TileEdit>,
    /// Whether every wall goes at the next tick.
    pub clear_walls: bool,
    /// Labels of agents whose entity was despawned.
    pub leaving: Vec<u32>,
    /// Agents whose entity's [`Goal`](crate::Goal) changed: label and new goal.
    pub retargets: Vec<(u32, Pos)>,
}

impl PendingInput {
    /// Whether nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.spawns.is_empty()
            && self.edits.is_empty()
            && !self.clear_walls
            && self.leaving.is_empty()
            && self.retargets.is_empty()
    }
}

/// What the tick's first step did with the input ([`GridSim::play_tick`]).
#[derive(Default, Debug)]
pub(crate) struct Played {
    /// Agents that appeared for an entity spawned by the game.
    pub(crate) adopted: Vec<(AgentId, Entity)>,
    /// Agents refused, with their entity if they had one, in words.
    pub(crate) refused_agents: Vec<(Option<Entity>, String)>,
    /// Edits refused.
    pub(crate) refused_edits: Vec<(Pos, SimError)>,
}

/// An agent a rebuild keeps or places: start, goal, label (`None`: a new one) and arrival
/// policy.
pub type Placed = (Pos, Pos, Option<u32>, OnArrival);

/// The world: the core's [`Simulation`] (grid, agents, planners) and what the plugin keeps
/// beside it. Read it with [`GridSim::sim`]; change it through the plugin's messages and
/// components, or through this type's methods, which record what they do in the current
/// [`Segment`] so the session replays with `gridwalk-cli simulate`.
#[derive(Resource)]
pub struct GridSim {
    sim: Simulation,
    segment: Segment,
    finished: Vec<Scenario>,
    labels: BTreeMap<AgentId, u32>,
    next_label: u32,
    map_name: String,
    epoch: u64,
    ticks: u64,
    on_arrival: OnArrival,
    world_seed: u64,
    budget: Budget,
    record: bool,
    /// Computes each planner keeps for explain ([`GridwalkSettings::explain_history`]).
    explain_history: usize,
    start_refusals: Vec<String>,
}

impl GridSim {
    /// The world `scenario` starts with `settings` (which give its moves, crowd mode and
    /// budgets), planned once (tick 0 of the session), and the refusals of its agents.
    pub fn new(scenario: Scenario, settings: &GridwalkSettings) -> (GridSim, Vec<String>) {
        let scenario = settings.apply_to(scenario);
        let (world_seed, budget) = (scenario.seed, scenario.budget());
        let (segment, sim) = Segment::start(scenario, settings.config(), "start");
        let mut s = GridSim {
            sim,
            segment,
            finished: Vec::new(),
            labels: BTreeMap::new(),
            next_label: 0,
            map_name: String::from("custom"),
            epoch: 0,
            ticks: 0,
            on_arrival: settings.on_arrival,
            world_seed,
            budget,
            record: settings.record,
            explain_history: settings.explain_history,
            start_refusals: Vec::new(),
        };
        let refused = s.play_start(&[]);
        s.start_refusals.clone_from(&refused);
        (s, refused)
    }

    /// The planner-memory and planning budgets.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Sets what agents added from now on do on arrival.
    pub fn set_on_arrival(&mut self, policy: OnArrival) {
        self.on_arrival = policy;
    }

    /// Another configuration. A change of the planner, moves, heuristic or crowd mode
    /// rebuilds the world with its agents (a new segment, `reason`); a change of the
    /// baseline measurement alone replans nothing. Returns the refusals of agents.
    pub fn set_config(&mut self, new: SimConfig, reason: &str) -> Vec<String> {
        let old = self.sim.config();
        let same = SimConfig {
            measure_baseline: new.measure_baseline,
            ..old
        };
        if new == same {
            self.sim.set_config(new);
            return Vec::new();
        }
        self.rebuild_keeping_agents(new, reason)
    }

    /// The refusals of the agents the world started with, in words; taken once.
    pub fn take_start_refusals(&mut self) -> Vec<String> {
        std::mem::take(&mut self.start_refusals)
    }

    /// Names the map, for display.
    pub fn set_map_name(&mut self, name: impl Into<String>) {
        self.map_name = name.into();
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
    pub fn rebuild(
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
    pub fn rebuild_playing(
        &mut self,
        grid: Grid,
        config: SimConfig,
        mut agents: Vec<Placed>,
        script: Timeline,
        reason: &str,
    ) -> Vec<String> {
        if config.crowd {
            let starts = agents.iter_mut().map(|a| &mut a.0);
            gridwalk_core::sim::separate(&grid, config.connectivity, starts);
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
        let crowd_budget = self.sim.crowd_budget();
        let base = Scenario {
            seed: self.world_seed,
            destinations: self.sim.destinations(),
            sensor_range: self.sim.sensor_range(),
            planner_memory,
            plan_budget,
            crowd_budget: Some(crowd_budget).filter(|&b| b != DEFAULT_BUDGET),
            ..Scenario::from_grid(grid)
        };
        let kept: Vec<_> = agents.iter().map(|a| a.2).collect();
        self.start_segment(timeline.into_scenario(base), config, &kept, reason)
    }

    /// Ends the current segment (kept for the recording unless nothing happened in it) and
    /// starts `scenario` with `config` as the next one, the way the first one started: its
    /// seed and budgets hold from now on. `kept[i]` is the label the scenario's agent `i`
    /// keeps (`None`, or past the end: a new one). Returns the refusals of agents.
    pub fn start_segment(
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
        self.sim.set_history(self.explain_history);
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
    pub fn rebuild_keeping_agents(&mut self, config: SimConfig, reason: &str) -> Vec<String> {
        let grid = self.sim.grid().clone();
        let agents = self.current_agents();
        let script = self.segment.take_future(self.next_tick());
        self.rebuild_playing(grid, config, agents, script, reason)
    }

    /// The next label never given in this session.
    pub(crate) fn new_label(&mut self) -> u32 {
        let l = self.next_label;
        self.next_label += 1;
        l
    }

    /// The current agents as (cell, goal, label, policy), for a rebuild that keeps them,
    /// then those still waiting to enter (crowd mode), at their starts: a crowd rebuild
    /// separates them to the nearest free cells, so none is lost.
    pub fn current_agents(&self) -> Vec<Placed> {
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

    /// The most tries a tick of crowd mode's real-time search makes
    /// ([`GridwalkSettings::crowd_budget`]).
    pub fn crowd_budget(&self) -> usize {
        self.sim.crowd_budget()
    }

    /// Sets [`Self::crowd_budget`] (0 counts as 1): a new segment starts, whose scenario says
    /// so, as [`Self::set_budget`] does.
    pub fn set_crowd_budget(&mut self, tries: usize) {
        self.sim.set_crowd_budget(tries);
        self.restart_segment("crowd budget changed");
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
    /// first). Each agent asked for with an entity is matched to the agent that appeared
    /// for it.
    pub(crate) fn play_tick(
        &mut self,
        spawns: impl IntoIterator<Item = (SpawnAgent, Option<Entity>)>,
        edits: impl IntoIterator<Item = TileEdit>,
    ) -> Played {
        let tick = self.next_tick();
        let on_arrival = self.on_arrival;
        let timeline = self.segment.timeline_mut();
        let mut waiting: HashMap<(Pos, Pos), VecDeque<Entity>> = HashMap::new();
        for (SpawnAgent { start, goal }, entity) in spawns {
            timeline.push_agent(AgentSpec {
                start,
                goal,
                tick,
                on_arrival,
            });
            if let Some(e) = entity {
                waiting.entry((start, goal)).or_default().push_back(e);
            }
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
        // The starts and goals of the timeline's agents, to match the game's entities to
        // the agents that appear: only when the game spawned some (the list is long).
        let specs: Vec<(Pos, Pos)> = match waiting.is_empty() {
            true => Vec::new(),
            false => (self.segment.timeline().agents().iter())
                .map(|a| (a.start, a.goal))
                .collect(),
        };
        let (applied, words) = self.segment.play(tick, &mut self.sim);
        let mut played = Played::default();
        for &(i, id) in &applied.appeared {
            let label = self.new_label();
            self.labels.insert(id, label);
            let own = specs.get(i).and_then(|k| waiting.get_mut(k)?.pop_front());
            if let Some(e) = own {
                played.adopted.push((id, e));
            }
        }
        for ((i, _), text) in applied.rejected.iter().zip(words) {
            let entity = specs.get(*i).and_then(|k| waiting.get_mut(k)?.pop_front());
            played.refused_agents.push((entity, text));
        }
        played.refused_edits = applied.refused;
        played
    }

    /// Removes the agents labelled `leaving` and sends those of `retargets` to their new
    /// goals, at once. While recording, a new segment then starts, since a scenario cannot
    /// say either. Returns the refusals of new goals.
    pub(crate) fn apply_untimed(
        &mut self,
        leaving: &[u32],
        retargets: &[(u32, Pos)],
    ) -> Vec<(u32, SimError)> {
        if leaving.is_empty() && retargets.is_empty() {
            return Vec::new();
        }
        let by_label: HashMap<u32, AgentId> = self.labels.iter().map(|(&i, &l)| (l, i)).collect();
        let mut changed = false;
        for id in leaving.iter().filter_map(|l| by_label.get(l)) {
            changed |= self.sim.remove_agent(*id).is_ok();
            self.labels.remove(id);
        }
        let mut refused = Vec::new();
        for &(label, goal) in retargets {
            let Some(&id) = by_label.get(&label) else {
                continue;
            };
            if self.sim.agent(id).is_none_or(|a| a.goal == goal) {
                continue;
            }
            match self.sim.set_goal(id, goal) {
                Ok(()) => changed = true,
                Err(e) => refused.push((label, e)),
            }
        }
        if changed && self.record {
            self.restart_segment("agents removed or sent to new goals");
        }
        refused
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
    pub fn needs_restart_for(&self, start: Pos, goal: Pos) -> bool {
        let base = self.segment.base();
        let now = self.sim.grid();
        [start, goal]
            .iter()
            .any(|&p| now.is_passable(p) && base.contains(p) && !base.is_passable(p))
    }
}
