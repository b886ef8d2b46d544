//! The simulation as a Bevy feature: the core's [`Simulation`] in a resource, the messages
//! that change it, and its tick in `FixedUpdate`.
//!
//! Input systems write [`TileEdit`], [`SpawnAgent`] and [`ClearWalls`] messages in `Update`.
//! Each `FixedUpdate` run first gathers them ([`SimSystems::Gather`]); when the run is a tick
//! (not paused, or a step was asked for) the chained sets do exactly what
//! `gridwalk-cli simulate` does for one tick:
//!
//! 1. [`SimSystems::ApplyEdits`]: agents asked for since the last tick appear, then the edits
//!    apply; refusals go to [`Notices`];
//! 2. [`SimSystems::Plan`]: the planners repair;
//! 3. [`SimSystems::Move`]: every agent with a path moves one cell;
//! 4. [`SimSystems::Sync`]: agent entities follow the simulation.
//!
//! Whole-world changes (a new map, another planner, removing every agent) arrive as
//! [`SimCommand`]s in `Update`. Each rebuilds the simulation from the current state and starts
//! a new segment of the [`SessionLog`], because a scenario file cannot express them; each
//! segment replays exactly with `gridwalk-cli simulate`.

mod session;

use std::collections::{BTreeMap, HashMap};

use bevy::prelude::*;
use gridwalk_core::format::{AgentSpec, DynamicSpec, EditSpec, Scenario};
use gridwalk_core::sim::{AgentId, AgentStatus, SimConfig, SimError, Simulation};
use gridwalk_core::world::{DynamicWorld, OnArrival};
use gridwalk_core::{Grid, Pos, Terrain};

pub use session::SessionLog;

use crate::maps::{self, MapRng};
use crate::notices::{NoticeKind, Notices, report_refusals};
use crate::schedule::{self, FrameSystems, SimSystems};

/// Set one cell's terrain at the next tick. Refused (with a notice) on a cell that holds an
/// agent or is a goal, or that is off the map.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileEdit {
    /// The cell.
    pub pos: Pos,
    /// What it becomes.
    pub terrain: Terrain,
}

/// Add an agent at the next tick.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpawnAgent {
    /// Its first cell.
    pub start: Pos,
    /// Its goal.
    pub goal: Pos,
}

/// Turn every wall into plain ground at the next tick, after that tick's other edits.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClearWalls;

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
}

/// How many recent computes each planner keeps for explain mode.
pub const EXPLAIN_HISTORY: usize = 32;

/// Whether the simulation runs, and how fast.
#[derive(Resource, Debug, Clone)]
pub struct SimClock {
    /// Paused: `FixedUpdate` still runs, but only steps asked for are ticks.
    pub paused: bool,
    /// Ticks asked for while paused.
    pub steps: u32,
    /// Ticks per second, 1–60.
    pub rate_hz: f64,
    ticking: bool,
}

impl SimClock {
    /// Slowest rate.
    pub const MIN_RATE: f64 = 1.0;
    /// Fastest rate.
    pub const MAX_RATE: f64 = 60.0;
    /// Default rate.
    pub const DEFAULT_RATE: f64 = 10.0;

    /// A running clock at `rate_hz` (clamped to 1–60).
    pub fn new(rate_hz: f64) -> SimClock {
        SimClock {
            paused: false,
            steps: 0,
            rate_hz: clamp_rate(rate_hz),
            ticking: false,
        }
    }

    /// Asks for one tick: pauses if running, so the step is visible.
    pub fn step(&mut self) {
        self.paused = true;
        self.steps = self.steps.saturating_add(1).min(10);
    }

    /// Whether the current `FixedUpdate` run is a tick.
    pub fn ticking(&self) -> bool {
        self.ticking
    }
}

impl Default for SimClock {
    fn default() -> Self {
        SimClock::new(SimClock::DEFAULT_RATE)
    }
}

/// `rate` clamped to 1–60 ticks per second; NaN becomes the default.
pub fn clamp_rate(rate: f64) -> f64 {
    if rate.is_nan() {
        SimClock::DEFAULT_RATE
    } else {
        rate.clamp(SimClock::MIN_RATE, SimClock::MAX_RATE)
    }
}

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
    sim: Simulation,
    log: SessionLog,
    finished: Vec<Scenario>,
    labels: BTreeMap<AgentId, u32>,
    next_label: u32,
    script: Script,
    map_name: String,
    epoch: u64,
    ticks: u64,
    on_arrival: OnArrival,
    world_seed: u64,
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
    /// arrival policy), keeping the dynamic world's setting and the seed, plans once, and
    /// starts a new log segment. Returns the refusals of agents.
    fn rebuild(
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
        let dynamic = self.sim.dynamic();
        self.sim = Simulation::new(grid, config);
        self.sim.set_seed(self.world_seed);
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
    fn rebuild_keeping_agents(&mut self, config: SimConfig, reason: &str) -> Vec<String> {
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

    fn fresh_label(&mut self) -> u32 {
        let l = self.next_label;
        self.next_label += 1;
        l
    }

    /// The current agents as (cell, goal, label, policy), for a rebuild that keeps them.
    fn current_agents(&self) -> Vec<(Pos, Pos, Option<u32>, OnArrival)> {
        self.sim
            .agents()
            .map(|a| (a.pos, a.goal, Some(self.label(a.id)), a.on_arrival))
            .collect()
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

    /// Replans every agent (the tick's third step).
    pub fn replan(&mut self) {
        self.sim.replan();
    }

    /// Moves every agent one cell (the tick's last step).
    pub fn advance(&mut self) {
        self.sim.advance();
        self.ticks += 1;
    }

    /// Whether adding an agent here would put it on a cell that was a wall when the segment
    /// began: the scenario format checks agents against the starting map, so the segment must
    /// restart first.
    fn needs_restart_for(&self, start: Pos, goal: Pos) -> bool {
        let base = self.log.base();
        let now = self.sim.grid();
        [start, goal]
            .iter()
            .any(|&p| now.is_passable(p) && base.contains(p) && !base.is_passable(p))
    }
}

/// Sim agent id → its entity.
#[derive(Resource, Default, Debug)]
pub struct AgentEntities(pub HashMap<AgentId, Entity>);

/// An agent's entity: its id in the simulation and its stable display number.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentMarker {
    /// Its id in the simulation.
    pub id: AgentId,
    /// Its display number, which picks its colour.
    pub label: u32,
}

/// Where an agent was before the last tick and where it is now, for gliding between them.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glide {
    /// Its cell before the last tick.
    pub from: Pos,
    /// Its cell now.
    pub to: Pos,
    /// Its goal.
    pub goal: Pos,
    /// What it is doing.
    pub status: AgentStatus,
}

/// The random-number generator of spawned agents and random maps.
#[derive(Resource)]
pub struct SimRng(pub MapRng);

/// The headless simulation feature. See the module docs.
pub struct SimPlugin {
    /// The world to start with.
    pub setup: SimSetup,
}

impl Plugin for SimPlugin {
    fn build(&self, app: &mut App) {
        let (state, refused) = SimState::new(&self.setup);
        let mut notices = Notices::default();
        for r in refused {
            notices.push(NoticeKind::Refused, r);
        }
        schedule::ensure(app);
        let mut clock = SimClock::new(self.setup.rate_hz);
        clock.paused = self.setup.paused;
        app.insert_resource(state)
            .insert_resource(notices)
            .insert_resource(Time::<Fixed>::from_hz(clock.rate_hz))
            .insert_resource(clock)
            .insert_resource(SimRng(maps::rng(self.setup.seed ^ 0x9e37_79b9_7f4a_7c15)))
            .init_resource::<PendingInput>()
            .init_resource::<AgentEntities>()
            .add_message::<TileEdit>()
            .add_message::<SpawnAgent>()
            .add_message::<ClearWalls>()
            .add_message::<SimCommand>()
            .add_systems(
                FixedUpdate,
                (
                    gather_input.in_set(SimSystems::Gather),
                    apply_edits.in_set(SimSystems::ApplyEdits).run_if(ticking),
                    plan.in_set(SimSystems::Plan).run_if(ticking),
                    advance.in_set(SimSystems::Move).run_if(ticking),
                    sync_agents.in_set(SimSystems::Sync).run_if(ticking),
                ),
            )
            .add_systems(
                Update,
                (apply_commands, sync_after_rebuild, apply_rate)
                    .chain()
                    .in_set(FrameSystems::Commands),
            );
    }
}

/// Run condition: this `FixedUpdate` run is a tick.
pub fn ticking(clock: Res<SimClock>) -> bool {
    clock.ticking
}

fn gather_input(
    mut clock: ResMut<SimClock>,
    mut pending: ResMut<PendingInput>,
    mut edits: MessageReader<TileEdit>,
    mut spawns: MessageReader<SpawnAgent>,
    mut clears: MessageReader<ClearWalls>,
) {
    pending.spawns.extend(spawns.read().copied());
    pending.edits.extend(edits.read().copied());
    if clears.read().count() > 0 {
        pending.clear_walls = true;
    }
    clock.ticking = if clock.paused {
        let step = clock.steps > 0;
        clock.steps = clock.steps.saturating_sub(1);
        step
    } else {
        clock.steps = 0;
        true
    };
}

/// Step 1 of a tick: scripted and asked-for agents appear, then scripted and asked-for edits
/// apply, then a pending "clear walls". Refusals become one notice per kind of refusal.
fn apply_edits(
    mut state: ResMut<SimState>,
    mut pending: ResMut<PendingInput>,
    mut notices: ResMut<Notices>,
) {
    let state = &mut *state;
    let tick = state.next_tick();
    let (script_agents, script_edits, script_dynamic) = take_due(&mut state.script, tick);
    for d in script_dynamic {
        state.set_dynamic(d.setting());
    }
    let policy = state.on_arrival;
    let spawns: Vec<(Pos, Pos, OnArrival)> = script_agents
        .iter()
        .map(|a| (a.start, a.goal, a.on_arrival))
        .chain(pending.spawns.drain(..).map(|s| (s.start, s.goal, policy)))
        .collect();
    if spawns
        .iter()
        .any(|&(s, g, _)| state.needs_restart_for(s, g))
    {
        state.restart_segment("an agent starts where the segment's map had a wall");
    }
    for (start, goal, policy) in spawns {
        if let Err(e) = state.add_agent(start, goal, policy) {
            notices.push(
                NoticeKind::Refused,
                format!("agent {start} to {goal} refused: {e}"),
            );
        }
    }
    let mut refused: Vec<(Pos, SimError)> = Vec::new();
    let edits = script_edits
        .iter()
        .flat_map(|e| e.cells.iter().map(move |&c| (c, e.set.terrain())))
        .chain(pending.edits.drain(..).map(|e| (e.pos, e.terrain)))
        .collect::<Vec<_>>();
    for (pos, terrain) in edits {
        if let Err(e) = state.edit(pos, terrain) {
            refused.push((pos, e));
        }
    }
    if std::mem::take(&mut pending.clear_walls) {
        let grid = state.sim.grid();
        let walls: Vec<Pos> = (0..grid.len())
            .filter(|&i| grid.weight(i) == 0)
            .map(|i| grid.pos(i))
            .collect();
        let n = walls.len();
        for p in walls {
            if let Err(e) = state.edit(p, Terrain::FREE) {
                refused.push((p, e));
            }
        }
        notices.push(NoticeKind::Info, format!("cleared {n} walls"));
    }
    report_refusals(&refused, &mut notices);
}

/// Takes the scripted agents, edits and dynamic-world changes of `tick` out of `script`.
fn take_due(script: &mut Script, tick: u64) -> (Vec<AgentSpec>, Vec<EditSpec>, Vec<DynamicSpec>) {
    if script.is_empty() {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let (due_a, rest_a) = script.agents.drain(..).partition(|a| a.tick <= tick);
    script.agents = rest_a;
    let (due_e, rest_e) = script.edits.drain(..).partition(|e| e.tick <= tick);
    script.edits = rest_e;
    let (due_d, rest_d) = script.dynamic.drain(..).partition(|d| d.tick <= tick);
    script.dynamic = rest_d;
    (due_a, due_e, due_d)
}

/// Step 2 of a tick.
fn plan(mut state: ResMut<SimState>) {
    state.replan();
}

/// Step 3 of a tick.
fn advance(mut state: ResMut<SimState>) {
    state.advance();
}

/// Step 4 of a tick: one entity per agent, with where it came from and where it is.
fn sync_agents(
    mut commands: Commands,
    state: Res<SimState>,
    mut entities: ResMut<AgentEntities>,
    mut glides: Query<&mut Glide>,
) {
    for a in state.sim.agents() {
        match entities.0.get(&a.id).and_then(|&e| glides.get_mut(e).ok()) {
            Some(mut g) => {
                let next = Glide {
                    from: g.to,
                    to: a.pos,
                    goal: a.goal,
                    status: a.status,
                };
                if *g != next {
                    *g = next;
                }
            }
            None => {
                let e = commands
                    .spawn((
                        AgentMarker {
                            id: a.id,
                            label: state.label(a.id),
                        },
                        Glide {
                            from: a.pos,
                            to: a.pos,
                            goal: a.goal,
                            status: a.status,
                        },
                    ))
                    .id();
                entities.0.insert(a.id, e);
            }
        }
    }
    if entities.0.len() != state.sim.agent_count() {
        entities.0.retain(|id, e| {
            let keep = state.sim.agent(*id).is_some();
            if !keep {
                commands.entity(*e).despawn();
            }
            keep
        });
    }
}

/// After a rebuild every agent has a new id: respawn the entities.
fn sync_after_rebuild(
    mut commands: Commands,
    state: Res<SimState>,
    mut entities: ResMut<AgentEntities>,
    mut seen: Local<Option<u64>>,
    glides: Query<&mut Glide>,
) {
    if *seen == Some(state.epoch) {
        return;
    }
    *seen = Some(state.epoch);
    for (_, e) in entities.0.drain() {
        commands.entity(e).despawn();
    }
    sync_agents(commands, state, entities, glides);
}

/// Applies [`SimCommand`]s: each rebuilds the simulation and starts a new log segment.
fn apply_commands(
    mut commands_in: MessageReader<SimCommand>,
    mut state: ResMut<SimState>,
    mut notices: ResMut<Notices>,
    mut pending: ResMut<PendingInput>,
    mut edits: ResMut<Messages<TileEdit>>,
    mut spawns: ResMut<Messages<SpawnAgent>>,
    mut rng: ResMut<SimRng>,
) {
    for cmd in commands_in.read() {
        let config = state.sim.config();
        let mut refused = Vec::new();
        match cmd {
            SimCommand::RandomMap {
                density,
                seed,
                agents,
            } => {
                let (w, h) = (state.sim.grid().width(), state.sim.grid().height());
                let grid = maps::random_grid(w, h, *density, *seed);
                let pairs = maps::random_agents(
                    &grid,
                    *agents,
                    default_goals(*agents),
                    config.connectivity,
                    true,
                    &mut rng.0,
                );
                let policy = state.on_arrival;
                let agents = pairs
                    .into_iter()
                    .map(|(s, g)| (s, g, None, policy))
                    .collect();
                refused = state.rebuild(grid, config, agents, "new random map");
                state.map_name = format!(
                    "random {w}×{h}, {:.0} % walls, seed {seed}",
                    density * 100.0
                );
                drop_pending(&mut pending, &mut edits, &mut spawns);
                notices.push(NoticeKind::Info, format!("new map: {}", state.map_name));
            }
            SimCommand::Load { scenario, name } => {
                let mut config = config;
                config.connectivity = scenario.connectivity;
                config.heuristic = scenario.effective_heuristic();
                let now: Vec<_> = scenario
                    .agents
                    .iter()
                    .filter(|a| a.tick == 0)
                    .map(|a| (a.start, a.goal, None, a.on_arrival))
                    .collect();
                state.world_seed = scenario.seed;
                state.sim.set_dynamic(dynamic_at_start(scenario));
                refused = state.rebuild(scenario.grid.clone(), config, now, "map loaded");
                state.script = Script::after_start(scenario);
                state.map_name = name.clone();
                drop_pending(&mut pending, &mut edits, &mut spawns);
                notices.push(NoticeKind::Info, format!("loaded {name}"));
            }
            SimCommand::ClearAgents => {
                let grid = state.sim.grid().clone();
                let n = state.sim.agent_count();
                state.rebuild(grid, config, Vec::new(), "agents removed");
                pending.spawns.clear();
                spawns.clear();
                notices.push(NoticeKind::Info, format!("removed {n} agents"));
            }
            SimCommand::SetConfig(new) => {
                let old = config;
                if new.algorithm == old.algorithm
                    && new.connectivity == old.connectivity
                    && new.heuristic == old.heuristic
                {
                    // Only the baseline measurement changed: no replanning needed.
                    state.sim.set_config(*new);
                    continue;
                }
                refused = state.rebuild_keeping_agents(*new, "planner changed");
                notices.push(
                    NoticeKind::Info,
                    format!(
                        "planner: {}, {} heuristic, {:?}-connected: every agent replanned",
                        new.algorithm.label(),
                        new.heuristic.name(),
                        new.connectivity
                    ),
                );
            }
            SimCommand::SetOnArrival(policy) => {
                state.on_arrival = *policy;
                notices.push(
                    NoticeKind::Info,
                    format!("agents added from now on {} on arrival", policy.name()),
                );
            }
            SimCommand::SetDynamic(setting) => {
                state.set_dynamic(*setting);
                let text = match setting {
                    Some(d) => format!(
                        "dynamic world on: a wall every {} ticks, at most {} standing",
                        d.every, d.walls
                    ),
                    None => "dynamic world off".to_string(),
                };
                notices.push(NoticeKind::Info, text);
            }
            SimCommand::SpawnRandom { agents, goals } => {
                let pairs = maps::random_agents(
                    state.sim.grid(),
                    *agents,
                    *goals,
                    config.connectivity,
                    true,
                    &mut rng.0,
                );
                let n = pairs.len();
                pending.spawns.extend(
                    pairs
                        .into_iter()
                        .map(|(start, goal)| SpawnAgent { start, goal }),
                );
                notices.push(
                    NoticeKind::Info,
                    format!("{n} agents join at the next tick"),
                );
            }
        }
        for r in refused {
            notices.push(NoticeKind::Refused, r);
        }
    }
}

/// Forgets input aimed at the old map.
fn drop_pending(
    pending: &mut PendingInput,
    edits: &mut Messages<TileEdit>,
    spawns: &mut Messages<SpawnAgent>,
) {
    *pending = PendingInput::default();
    edits.clear();
    spawns.clear();
}

/// How many goals `agents` random agents share: about one per four agents.
pub fn default_goals(agents: usize) -> usize {
    agents.div_ceil(4).max(1)
}

/// Keeps the fixed timestep at the clock's rate.
fn apply_rate(clock: Res<SimClock>, mut time: ResMut<Time<Fixed>>) {
    if !clock.is_changed() {
        return;
    }
    let rate = clamp_rate(clock.rate_hz);
    if (time.timestep().as_secs_f64() - 1.0 / rate).abs() > 1e-9 {
        time.set_timestep_hz(rate);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_clamped() {
        assert_eq!(clamp_rate(0.0), 1.0);
        assert_eq!(clamp_rate(1000.0), 60.0);
        assert_eq!(clamp_rate(f64::NAN), 10.0);
        assert_eq!(clamp_rate(25.0), 25.0);
    }

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
