//! The world resource, [`GridSim`]: the core's simulation, and what the plugin keeps beside
//! it: the session's current [`Segment`] (what it plays and records), each agent's entity
//! and stable label, and the input waiting for the next tick.
//!
//! Agents are known by their entity from end to end: an agent that a rebuild carries over
//! keeps its entity and label by its place in the list the rebuild plays, never by matching
//! its start and goal.

use std::collections::{BTreeMap, HashMap};

use bevy::prelude::*;
use gridwalk_core::format::{AgentSpec, Scenario};
use gridwalk_core::mapf::DEFAULT_BUDGET;
use gridwalk_core::scenario::timeline::Timeline;
use gridwalk_core::sim::{AgentId, AgentStatus, Budget, SimConfig, Simulation};
use gridwalk_core::sim::{DynamicWorld, OnArrival};
use gridwalk_core::{Grid, Pos, Terrain};

use crate::held::HeldEdits;
use crate::messages::{Asked, EditLanded, Refused, SpawnAgent, TileEdit};
use crate::segment::Segment;
use crate::settings::GridwalkSettings;

/// Input gathered since the last tick, applied by the next one.
#[derive(Resource, Default, Debug)]
pub(crate) struct PendingInput {
    /// Agents to add, each with the entity it was spawned as (`None`: the plugin spawns one)
    /// and its own arrival policy (`None`: the world's).
    pub(crate) spawns: Vec<(SpawnAgent, Option<Entity>, Option<OnArrival>)>,
    /// Edits, in the order they were made.
    pub(crate) edits: Vec<TileEdit>,
    /// Whether every wall goes at the next tick.
    pub(crate) clear_walls: bool,
    /// Entities whose agent goes: despawned, or their [`GridAgent`](crate::GridAgent) removed.
    pub(crate) leaving: Vec<Entity>,
    /// Entities whose [`Goal`](crate::Goal) the game changed, with the new goal, and whether
    /// the plugin had just given the entity its components.
    pub(crate) retargets: Vec<(Entity, Pos, bool)>,
}

/// An agent a rebuild keeps or places: start, goal, arrival policy, and the label and entity
/// it keeps (`None`: new ones).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placed {
    start: Pos,
    goal: Pos,
    on_arrival: OnArrival,
    kept: Option<Kept>,
}

/// What an agent carried over by a rebuild keeps: its label, and its entity if it has one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kept {
    label: u32,
    entity: Option<Entity>,
}

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
    start_refusals: Vec<Refused>,
    /// Edits waiting for an agent to leave their cell.
    held: HeldEdits,
    /// Each agent's entity (agents waiting to enter included), and back: fast hashes, since
    /// every goal the game sets is looked up.
    entity_of: bevy::platform::collections::HashMap<AgentId, Entity>,
    agent_of: bevy::ecs::entity::EntityHashMap<AgentId>,
    /// Agents on the map whose entity has not yet got its components, oldest first.
    pub(crate) fresh: Vec<AgentId>,
    /// Agents waiting to enter (crowd mode): fresh once they are on the map.
    waiting: Vec<AgentId>,
    /// Entities whose agents a rebuild dropped: despawned at the next sync.
    pub(crate) gone: Vec<Entity>,
    /// The input waiting for the next tick was aimed at a world since replaced.
    pub(crate) drop_input: bool,
    /// The fresh agents are a rebuild's, carried over: no arrival to tell.
    pub(crate) rebuilt_fresh: bool,
    /// Arrived agents whose goal the game set again to the cell they stand on.
    pub(crate) arrived_again: Vec<(Entity, Pos)>,
}

impl GridSim {
    /// The world `scenario` starts with `settings` (which give its moves, crowd mode and
    /// budgets), planned once (tick 0 of the session), and the refusals of its agents (also
    /// kept for [`Self::take_start_refusals`]).
    pub fn new(scenario: Scenario, settings: &GridwalkSettings) -> (GridSim, Vec<Refused>) {
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
            held: HeldEdits::new(settings.hold_edits),
            entity_of: Default::default(),
            agent_of: Default::default(),
            fresh: Vec::new(),
            waiting: Vec::new(),
            gone: Vec::new(),
            drop_input: false,
            rebuilt_fresh: false,
            arrived_again: Vec::new(),
        };
        let refused = s.play_start(&[]);
        s.start_refusals.clone_from(&refused);
        (s, refused)
    }

    /// The edits waiting for an agent to leave their cell, oldest first, at most one a cell
    /// ([`GridwalkSettings::hold_edits`]). Each is tried again at every tick, and lands at the
    /// first tick its cell is free ([`EditLanded`]); a new map drops them.
    pub fn held_edits(&self) -> &[TileEdit] {
        self.held.as_slice()
    }

    /// The planner-memory and planning budgets.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Sets what agents added from now on do on arrival.
    pub fn set_on_arrival(&mut self, policy: OnArrival) {
        self.on_arrival = policy;
    }

    /// Whether the session is recorded ([`GridwalkSettings::record`]).
    pub fn records(&self) -> bool {
        self.record
    }

    /// Another configuration: planner, moves, heuristic, crowd mode, baseline. Not
    /// recording, it applies in place: agents keep their entities, and their planners unless
    /// the planner, moves or heuristic changed (then they plan again at the next tick).
    /// Crowd mode comes on in place only when no two agents share a cell; otherwise, and
    /// while recording (a scenario cannot say the change), the world is rebuilt with its
    /// agents and their entities (a new segment, `reason`), a crowd's agents moved apart.
    /// Returns the refusals of agents.
    pub fn set_config(&mut self, new: SimConfig, reason: &str) -> Vec<Refused> {
        let old = self.sim.config();
        let same = SimConfig {
            measure_baseline: new.measure_baseline,
            ..old
        };
        // Crowd mode cannot come on in place over agents that share a cell.
        let must_separate = new.crowd && !old.crowd && self.agents_share_cells();
        if new == same || !(self.record || must_separate) {
            self.sim.set_config(new);
            return Vec::new();
        }
        self.rebuild_keeping_agents(new, reason)
    }

    /// Whether two agents stand on one cell (crowd mode off allows it).
    fn agents_share_cells(&self) -> bool {
        let mut seen = std::collections::HashSet::new();
        !self.sim.agents().all(|a| seen.insert(a.pos))
    }

    /// The refusals of the agents the world started with; taken once. The plugin sends them
    /// as [`Refused`] messages at its first tick, so a game reads them either way.
    pub fn take_start_refusals(&mut self) -> Vec<Refused> {
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

    /// The current segment of the session: what it plays, and what it recorded.
    pub fn segment(&self) -> &Segment {
        &self.segment
    }

    /// Segments finished since the last call (by a rebuild), oldest first.
    pub fn take_finished(&mut self) -> Vec<Scenario> {
        std::mem::take(&mut self.finished)
    }

    /// The map's name.
    pub fn map_name(&self) -> &str {
        &self.map_name
    }

    /// Changes whenever the simulation is rebuilt (new map, planner while recording, agents
    /// cleared): agent ids ([`GridAgent::id`](crate::GridAgent::id)) are new then; entities
    /// and labels are kept.
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

    /// The entity of agent `id` (one waiting to enter included); `None` until the plugin
    /// spawned one for an agent that came without.
    pub fn entity(&self, id: AgentId) -> Option<Entity> {
        self.entity_of.get(&id).copied()
    }

    /// The agent an entity is, if any.
    pub fn agent_of(&self, entity: Entity) -> Option<AgentId> {
        self.agent_of.get(&entity).copied()
    }

    /// Binds agent `id` to `entity`.
    pub(crate) fn bind(&mut self, id: AgentId, entity: Entity) {
        self.entity_of.insert(id, entity);
        self.agent_of.insert(entity, id);
    }

    /// Forgets agent `id`'s entity; returns it.
    fn unbind(&mut self, id: AgentId) -> Option<Entity> {
        let e = self.entity_of.remove(&id)?;
        self.agent_of.remove(&e);
        Some(e)
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

    /// A new world on `grid` with `config` and these agents (start and goal; they follow the
    /// current arrival policy), keeping the dynamic world's setting, the sensor range, the
    /// seed, the budgets and the destinations (chosen again on `grid`). Every agent of the
    /// old world goes, with its entity; input waiting for the next tick is dropped at the end
    /// of the frame, being aimed at the old world (input sent later in the same frame goes
    /// with it), and the held edits go at once. A new
    /// segment starts (`reason`). Returns the refusals of agents.
    pub fn new_map(
        &mut self,
        grid: Grid,
        config: SimConfig,
        agents: impl IntoIterator<Item = (Pos, Pos)>,
        reason: &str,
    ) -> Vec<Refused> {
        let on_arrival = self.on_arrival;
        let placed = (agents.into_iter())
            .map(|(start, goal)| Placed {
                start,
                goal,
                on_arrival,
                kept: None,
            })
            .collect();
        self.drop_input = true;
        self.held.clear();
        self.rebuild_playing(grid, config, placed, Timeline::default(), reason)
    }

    /// Every agent goes, with its entity; the map stays. Input waiting for the next tick is
    /// dropped, as by [`Self::new_map`].
    pub fn clear_agents(&mut self, reason: &str) {
        let (grid, config) = (self.sim.grid().clone(), self.sim.config());
        self.new_map(grid, config, [], reason);
    }

    /// Plays `scenario` from its tick 0 with `config`, as `gridwalk-cli simulate` plays it:
    /// its map, agents, seed, budgets and timed events replace the world. Every agent of the
    /// old world goes, with its entity, and waiting input is dropped, as by
    /// [`Self::new_map`]. Returns the refusals of its agents.
    pub fn load(&mut self, scenario: Scenario, config: SimConfig, reason: &str) -> Vec<Refused> {
        self.drop_input = true;
        self.held.clear();
        self.start_segment(scenario, config, &[], reason)
    }

    /// Rebuilds the simulation on `grid` with `config`, keeping the dynamic world's setting,
    /// the sensor range, the seed, the budgets and the destinations (chosen again on `grid`):
    /// a new segment starts that plays `agents` at its tick 0, then `script`. Returns the
    /// refusals of agents.
    fn rebuild_playing(
        &mut self,
        grid: Grid,
        config: SimConfig,
        mut agents: Vec<Placed>,
        script: Timeline,
        reason: &str,
    ) -> Vec<Refused> {
        if config.crowd {
            let starts = agents.iter_mut().map(|a| &mut a.start);
            gridwalk_core::sim::separate(&grid, config.connectivity, starts);
        }
        let mut timeline = Timeline::default();
        let dynamic = self.sim.dynamic();
        if dynamic.is_some() {
            timeline.push_dynamic(0, dynamic);
        }
        for a in &agents {
            timeline.push_agent(AgentSpec {
                tick: 0,
                on_arrival: a.on_arrival,
                ..AgentSpec::new(a.start, a.goal)
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
        let kept: Vec<_> = agents.iter().map(|a| a.kept).collect();
        self.start_segment(timeline.into_scenario(base), config, &kept, reason)
    }

    /// Ends the current segment (kept for the recording unless nothing happened in it) and
    /// starts `scenario` with `config` as the next one, the way the first one started: its
    /// seed and budgets hold from now on. `kept[i]` is what the scenario's agent `i` keeps
    /// (`None`, or past the end: a new label and no entity yet); the entities of the old
    /// agents not kept are despawned. Returns the refusals of agents.
    pub(crate) fn start_segment(
        &mut self,
        scenario: Scenario,
        config: SimConfig,
        kept: &[Option<Kept>],
        reason: &str,
    ) -> Vec<Refused> {
        (self.world_seed, self.budget) = (scenario.seed, scenario.budget());
        let (segment, sim) = Segment::start(scenario, config, reason);
        let old = std::mem::replace(&mut self.segment, segment);
        if !old.is_empty() && self.record {
            self.finished.push(old.to_scenario());
            if self.finished.len() > 16 {
                self.finished.remove(0);
            }
        }
        self.sim = sim;
        let carried: std::collections::HashSet<Entity> =
            kept.iter().flatten().filter_map(|k| k.entity).collect();
        let old_entities = std::mem::take(&mut self.entity_of);
        self.agent_of.clear();
        (self.gone).extend(old_entities.into_values().filter(|e| !carried.contains(e)));
        self.play_start(kept)
    }

    /// Plays the new segment's tick 0 (its agents get their labels and entities, kept or
    /// new) and plans once. Every agent on the map is fresh: its entity gets its components
    /// again at the next sync. Returns the refusals of agents.
    fn play_start(&mut self, kept: &[Option<Kept>]) -> Vec<Refused> {
        self.sim.set_history(self.explain_history);
        self.labels.clear();
        self.fresh.clear();
        self.waiting.clear();
        let (applied, refused) = self.segment.play(0, &mut self.sim);
        for &(i, id) in &applied.appeared {
            let k = kept.get(i).copied().flatten();
            let label = k.map_or_else(|| self.new_label(), |k| k.label);
            self.labels.insert(id, label);
            if let Some(e) = k.and_then(|k| k.entity) {
                self.bind(id, e);
            }
            self.note_appeared(id);
        }
        self.sim.replan();
        self.epoch += 1;
        // The first world's agents are new; a later one's tick 0 carries agents over.
        self.rebuilt_fresh = self.epoch > 1;
        let entity = |i: usize| kept.get(i).copied().flatten().and_then(|k| k.entity);
        (refused.into_iter())
            .map(|(i, asked, error)| Refused {
                asked,
                entity: entity(i),
                error,
            })
            .collect()
    }

    /// Files an agent that just appeared: fresh if it is on the map, waiting if it waits to
    /// enter.
    fn note_appeared(&mut self, id: AgentId) {
        if self.sim.agent(id).is_some() {
            self.fresh.push(id);
        } else {
            self.waiting.push(id);
        }
    }

    /// Rebuilds on the current grid with the current agents (their labels and entities
    /// kept), keeping the segment's events still to come (renumbered for the new segment).
    fn rebuild_keeping_agents(&mut self, config: SimConfig, reason: &str) -> Vec<Refused> {
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

    /// The current agents, for a rebuild that keeps them, then those still waiting to enter
    /// (crowd mode), at their starts: a crowd rebuild separates them to the nearest free
    /// cells, so none is lost.
    fn current_agents(&self) -> Vec<Placed> {
        let placed = (self.sim.agents()).map(|a| (a.pos, a.goal, a.id, a.on_arrival));
        let entering = (self.sim.entering()).map(|(id, start, goal, on)| (start, goal, id, on));
        (placed.chain(entering))
            .map(|(start, goal, id, on_arrival)| Placed {
                start,
                goal,
                on_arrival,
                kept: Some(Kept {
                    label: self.label(id),
                    entity: self.entity(id),
                }),
            })
            .collect()
    }

    /// Wanderers draw their goals from `k` destinations (0: any reachable cell), chosen on
    /// the map as it stands. In place; while recording a new segment then starts, whose
    /// scenario says so (a rebuild that keeps the agents and their entities).
    pub fn set_destinations(&mut self, k: usize) {
        self.sim.set_destinations(k);
        self.restart_if_recording("destinations changed");
    }

    /// Sets the planner-memory and planning budgets, from the next tick. In place, plans
    /// kept; while recording a new segment then starts, as [`Self::set_destinations`]
    /// says.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
        self.sim.set_budget(budget);
        self.restart_if_recording("budgets changed");
    }

    /// The most tries a tick of crowd mode's real-time search makes
    /// ([`GridwalkSettings::crowd_budget`]).
    pub fn crowd_budget(&self) -> usize {
        self.sim.crowd_budget()
    }

    /// Sets [`Self::crowd_budget`] (0 counts as 1). In place; while recording a new segment
    /// then starts, as [`Self::set_destinations`] says.
    pub fn set_crowd_budget(&mut self, tries: usize) {
        self.sim.set_crowd_budget(tries);
        self.restart_if_recording("crowd budget changed");
    }

    /// While recording, rebuilds on the current grid and agents: the planners start over, as
    /// they would in a replay of the new segment.
    fn restart_if_recording(&mut self, reason: &str) {
        if self.record {
            self.restart_segment(reason);
        }
    }

    /// Rebuilds on the current grid and agents (a new segment, `reason`): the planners start
    /// over, as they would in a replay of it; agents keep their entities and labels.
    pub fn restart_segment(&mut self, reason: &str) {
        let config = self.sim.config();
        self.rebuild_keeping_agents(config, reason);
    }

    /// The tick's first step: pushes the asked-for agents (with their own arrival policy, or
    /// the world's) and edits (the held ones first) into the segment's timeline at the next
    /// tick, then plays that tick's share: its dynamic-world settings, its agents (scripted
    /// ones first), its edits (scripted ones first). Each agent asked for with an entity is
    /// bound to it by its place in the timeline. Returns the refusals, and the held edits
    /// that landed.
    pub(crate) fn play_tick(
        &mut self,
        spawns: Vec<(SpawnAgent, Option<Entity>, Option<OnArrival>)>,
        edits: Vec<TileEdit>,
    ) -> (Vec<Refused>, Vec<EditLanded>) {
        let tick = self.next_tick();
        // A recording checks agents against the segment's starting map: one on a cell that
        // was a wall then needs a new segment first.
        let restart = self.record
            && ((self.segment.timeline().agents_at(tick))
                .map(|a| (a.start, a.goal))
                .chain(spawns.iter().map(|(s, ..)| (s.start, s.goal)))
                .any(|(start, goal)| self.needs_restart_for(start, goal)));
        if restart {
            self.restart_segment("an agent starts where the segment's map had a wall");
        }
        let tick = self.next_tick();
        let world_s = self.on_arrival;
        let timeline = self.segment.timeline_mut();
        let mut own: HashMap<usize, Entity> = HashMap::new();
        for (SpawnAgent { start, goal }, entity, policy) in spawns {
            let on_arrival = policy.unwrap_or(world_s);
            if let Some(e) = entity {
                own.insert(timeline.agents().len(), e);
            }
            timeline.push_agent(AgentSpec {
                tick,
                on_arrival,
                ..AgentSpec::new(start, goal)
            });
        }
        let (edits, held) = self.held.take_with(edits);
        for e in &edits {
            timeline.push_edit(tick, e.pos, e.terrain);
        }
        let (applied, rejected) = self.segment.play(tick, &mut self.sim);
        for &(i, id) in &applied.appeared {
            let label = self.new_label();
            self.labels.insert(id, label);
            if let Some(&e) = own.get(&i) {
                self.bind(id, e);
            }
            self.note_appeared(id);
        }
        let mut refused: Vec<Refused> = (rejected.into_iter())
            .map(|(i, asked, error)| Refused {
                asked,
                entity: own.get(&i).copied(),
                error,
            })
            .collect();
        let (edits_refused, landed) =
            (self.held).settle(&edits, held, applied.refused, self.sim.grid());
        refused.extend((edits_refused.into_iter()).map(|(pos, error)| Refused {
            asked: Asked::Edit(pos),
            entity: None,
            error,
        }));
        if !self.record {
            self.segment.forget_played(tick);
        }
        (refused, landed)
    }

    /// Removes the agents of the `leaving` entities and sends those of `retargets` to their
    /// new goals, at once; a goal the agent has already is no change, but one it arrived at,
    /// set again by the game (not just given by the plugin), is an arrival again. While
    /// recording, a new segment then starts, since a scenario cannot say either. Returns the
    /// refusals of new goals.
    pub(crate) fn apply_untimed(
        &mut self,
        leaving: &[Entity],
        retargets: &[(Entity, Pos, bool)],
    ) -> Vec<Refused> {
        if leaving.is_empty() && retargets.is_empty() {
            return Vec::new();
        }
        let mut changed = false;
        for &e in leaving {
            let Some(id) = self.agent_of(e) else {
                continue;
            };
            changed |= self.sim.remove_agent(id).is_ok();
            self.unbind(id);
            self.labels.remove(&id);
        }
        let mut refused = Vec::new();
        for &(entity, goal, dressed) in retargets {
            let Some(id) = self.agent_of(entity) else {
                continue;
            };
            let Some(a) = self.sim.agent(id) else {
                continue;
            };
            if a.goal == goal {
                // Sent again to where it stands: it has arrived, again.
                if a.status == AgentStatus::Arrived && !dressed {
                    self.arrived_again.push((entity, goal));
                }
                continue;
            }
            match self.sim.set_goal(id, goal) {
                Ok(()) => changed = true,
                Err(error) => refused.push(Refused {
                    asked: Asked::Goal(goal),
                    entity: Some(entity),
                    error,
                }),
            }
        }
        if changed && self.record {
            self.restart_segment("agents removed or sent to new goals");
        }
        refused
    }

    /// Turns every wall into plain ground, after the tick's share, and records the cells at
    /// this tick; held walls are dropped. Returns how many.
    pub(crate) fn clear_walls(&mut self) -> usize {
        self.held.drop_walls();
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
    /// step. Agents that entered during it are fresh.
    pub fn step(&mut self) {
        self.sim.step();
        self.ticks += 1;
        if !self.waiting.is_empty() {
            let sim = &self.sim;
            let (entered, still): (Vec<AgentId>, Vec<AgentId>) =
                (self.waiting.drain(..)).partition(|&id| sim.agent(id).is_some());
            let entering: std::collections::HashSet<AgentId> =
                sim.entering().map(|e| e.0).collect();
            self.waiting = still
                .into_iter()
                .filter(|id| entering.contains(id))
                .collect();
            self.fresh.extend(entered);
        }
    }

    /// Whether adding an agent here would put it on a cell that was a wall when the segment
    /// began: the scenario format checks agents against the starting map, so the segment must
    /// restart first.
    fn needs_restart_for(&self, start: Pos, goal: Pos) -> bool {
        let base = self.segment.base();
        let now = self.sim.grid();
        [start, goal]
            .iter()
            .any(|&p| now.is_passable(p) && base.contains(p) && !base.is_passable(p))
    }
}
