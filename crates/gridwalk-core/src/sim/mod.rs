//! The simulation: agents, goals shared by groups, edits and ticks.
//!
//! This is the one place that defines what a tick does, for the game and for
//! `gridwalk-cli simulate` alike:
//! 1. agents due this tick appear ([`Simulation::add_agent`]);
//! 2. the tick's edits apply ([`Simulation::edit`]); an edit on a cell that holds an agent or
//!    is any agent's goal is refused;
//! 3. the planners repair ([`Simulation::replan`]);
//! 4. every agent that has a path moves exactly one cell along it ([`Simulation::advance`]).
//!
//! At the end of [`advance`](Simulation::advance), agents that stand on their goal follow
//! their [`OnArrival`] policy (in id order), then the dynamic world, if on, drops or lifts its
//! walls (see [`crate::world`]); planners learn of those edits at the next replan. Callers that
//! drive the phases themselves (the game, `gridwalk-cli simulate`) call
//! [`edit`](Simulation::edit) or [`edit_batch`](Simulation::edit_batch), then
//! [`step`](Simulation::step), exactly as [`tick`](Simulation::tick) does. `step` is
//! `replan` then `advance` in one pass (`tests/tick_paths.rs` holds the two equal); the
//! separate calls are there for a first plan before anyone moves, and for callers that look
//! at the plans before the agents move.
//!
//! ```
//! use gridwalk_core::sim::{AgentStatus, SimConfig, Simulation};
//! use gridwalk_core::{Grid, Pos, Terrain};
//!
//! let mut sim = Simulation::new(Grid::new(10, 5).unwrap(), SimConfig::default());
//! let id = sim.add_agent(Pos::new(0, 2), Pos::new(9, 2)).unwrap();
//! sim.replan(); // tick 0: plan before anyone moves
//! // One tick: a wall lands ahead of the agent, the planner repairs, the agent moves.
//! let report = sim.tick(&[(Pos::new(5, 2), Terrain::Wall), (Pos::new(0, 2), Terrain::Wall)]);
//! assert_eq!(report.refused.len(), 1, "the agent's own cell cannot be walled");
//! let a = sim.agent(id).unwrap();
//! assert_eq!((a.pos, a.status), (Pos::new(1, 2), AgentStatus::Walking));
//! assert!(sim.path(id).unwrap().cells.iter().all(|&c| c != Pos::new(5, 2)));
//! ```
//!
//! With an incremental algorithm (D* Lite, D*) agents that share a goal share one planner,
//! created when the first agent heads there and dropped with the last. Adding, removing or
//! retargeting an agent touches only the groups of its old and new goal. A* and Dijkstra plan
//! from scratch for every agent, every tick.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::cost::{Cost, DIAGONAL, INFINITY, STRAIGHT, step_cost};
use crate::format::{AgentSpec, DynamicSpec, Scenario};
use crate::grid::{Connectivity, Grid, GridError, Pos, Terrain};
use crate::heuristic::Heuristic;
use crate::path::Path;
use crate::planner::{Algorithm, CellInfo, GoalPlanner};
use crate::search::best_first::{Mode, SearchRequest, SearchSpace};
use crate::search::dstar_lite::DStarLite;
use crate::search::new_planner;
use crate::slab::{HasId, Slab};
use crate::stats::SearchStats;
use crate::trace::Trace;
use crate::world::{Components, Doors, DynamicWorld, Flood, OnArrival, Rng, ring_connected};

mod group;
mod pockets;

use group::*;

/// An agent's identifier, unique within a simulation, in order of creation.
pub type AgentId = u32;

/// What an agent is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AgentStatus {
    /// It has a path and moves along it.
    Walking,
    /// It stands on its goal.
    Arrived,
    /// Its goal is unreachable; it waits until a path opens.
    NoPath,
}

impl AgentStatus {
    /// `walking`, `arrived` or `no_path`, as the CLI prints it.
    pub fn name(self) -> &'static str {
        match self {
            AgentStatus::Walking => "walking",
            AgentStatus::Arrived => "arrived",
            AgentStatus::NoPath => "no_path",
        }
    }
}

/// One agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agent {
    /// Its identifier.
    pub id: AgentId,
    /// The cell it stands on.
    pub pos: Pos,
    /// The cell it walks to.
    pub goal: Pos,
    /// What it is doing.
    pub status: AgentStatus,
    /// Cost of its current path from `pos` to `goal`; `None` when it has none.
    pub remaining: Option<Cost>,
    /// The cell it moves to next, if it has a path and has not arrived.
    pub next: Option<Pos>,
    /// The cost of the move to `next`, as planned: the move takes it unless the map changed.
    step_cost: Cost,
    /// What it does on arrival.
    pub on_arrival: OnArrival,
    /// Where it appeared: a patrol's other end.
    pub home: Pos,
    /// The goal it was given first: a patrol's far end.
    pub away: Pos,
    /// Flat index of `next`, while it is set.
    next_cell: u32,
    /// `remaining` is its planner's `g` of its cell as of the last replan: it took the
    /// planned step, whose cost is the difference of the two cells' `g`.
    carried: bool,
}

impl HasId for Agent {
    fn id(&self) -> u32 {
        self.id
    }
}

/// Flat indices of an agent's `pos` and `goal`, kept beside it in the [`Slab`]: what the
/// per-tick loops read for every agent, 8 bytes each, without a multiply or a bounds check.
#[derive(Clone, Copy, Debug)]
struct Place {
    cell: u32,
    goal: u32,
}

/// One compute of one goal planner, kept for explaining it afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputeRecord {
    /// Ticks completed when it ran ([`Simulation::tick_count`] then).
    pub tick: u64,
    /// The planner's goal.
    pub goal: Pos,
    /// Every step it took.
    pub trace: Trace,
    /// Its work counters.
    pub stats: SearchStats,
    /// D* Lite's `km` after it (0 for D*).
    pub km: Cost,
    /// How many walking agents the planner served.
    pub agents: usize,
    /// Its wall-clock time, in microseconds.
    pub micros: u64,
}

/// Whose search a recorded run was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunSource {
    /// The shared planner of this goal (D* Lite, D*).
    Goal(Pos),
    /// A fresh search from this agent's cell (A*, Dijkstra).
    Agent(AgentId),
}

/// One search run during a replan, recorded when [`Simulation::set_tracing`] is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchRun {
    /// Whose search.
    pub source: RunSource,
    /// What it did.
    pub trace: Trace,
}

/// [`Simulation::slot`] of a cell that is no group's goal.
const NO_SLOT: u32 = u32::MAX;

/// Dropped D* Lite planners kept for new goals: enough for the goals that change in a tick
/// of thousands of wandering agents, without holding much memory idle.
const POOL_MAX: usize = 128;

/// The most memory the kept computes of all planners hold together after a replan, unless
/// [`Simulation::set_history_budget`] says otherwise; the oldest are forgotten first.
pub const HISTORY_BUDGET: usize = 64 << 20;

/// Bytes a kept compute holds.
fn record_bytes(r: &ComputeRecord) -> usize {
    std::mem::size_of::<ComputeRecord>()
        + r.trace.initial_open.capacity() * std::mem::size_of::<u32>()
        + r.trace.steps.capacity() * std::mem::size_of::<crate::trace::Step>()
}

/// Above this many walking agents, [`SimConfig::measure_baseline`] measures nothing.
pub const BASELINE_MAX_AGENTS: usize = 256;

/// How the simulation plans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimConfig {
    /// Which planner.
    pub algorithm: Algorithm,
    /// Which moves are legal.
    pub connectivity: Connectivity,
    /// The heuristic of D* Lite and A* (D* and Dijkstra use none).
    pub heuristic: Heuristic,
    /// Also run A* from scratch for every walking agent each tick, to report what replanning
    /// would have cost next to the repair; skipped on ticks with more than
    /// [`BASELINE_MAX_AGENTS`] walking agents, where it would cost more than the tick itself.
    pub measure_baseline: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            algorithm: Algorithm::DStarLite,
            connectivity: Connectivity::Eight,
            heuristic: Heuristic::Octile,
            measure_baseline: false,
        }
    }
}

/// The work of one replan (or a sum of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickStats {
    /// Work of the configured planner.
    pub search: SearchStats,
    /// Wall-clock time of the planner's work, in microseconds.
    pub micros: u64,
    /// What A* from scratch expanded for the same agents (when measured).
    pub baseline_expanded: u64,
    /// What A* from scratch took, in microseconds (when measured).
    pub baseline_micros: u64,
    /// Number of replans summed here.
    pub replans: u64,
}

add_fields!(TickStats: search, micros, baseline_expanded, baseline_micros, replans);

/// Why an agent or an edit was refused. The simulation is unchanged when one is returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// The cell is off the map.
    Grid(GridError),
    /// A start or goal on a wall.
    OnWall(Pos),
    /// An edit on a cell that holds an agent.
    HoldsAgent {
        /// The refused cell.
        pos: Pos,
        /// The agent standing there.
        agent: AgentId,
    },
    /// An edit on a cell that is an agent's goal.
    IsGoal {
        /// The refused cell.
        pos: Pos,
        /// An agent heading there.
        agent: AgentId,
    },
    /// No agent has this id.
    NoSuchAgent(AgentId),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Grid(e) => write!(f, "{e}"),
            SimError::OnWall(p) => write!(f, "cell {p} is a wall"),
            SimError::HoldsAgent { pos, agent } => {
                write!(f, "cell {pos} holds agent {agent}")
            }
            SimError::IsGoal { pos, agent } => write!(f, "cell {pos} is the goal of agent {agent}"),
            SimError::NoSuchAgent(id) => write!(f, "there is no agent {id}"),
        }
    }
}

impl std::error::Error for SimError {}

impl From<GridError> for SimError {
    fn from(e: GridError) -> Self {
        SimError::Grid(e)
    }
}

/// What [`Simulation::tick`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// The edits refused, with why.
    pub refused: Vec<(Pos, SimError)>,
    /// The planners' work.
    pub stats: TickStats,
}

/// Agents on a grid, their planners and the tick loop. See the module docs.
pub struct Simulation {
    grid: Grid,
    config: SimConfig,
    agents: Slab<Agent, Place>,
    next_id: AgentId,
    /// Incremental planners by goal cell.
    groups: BTreeMap<usize, Group>,
    /// Paths of the from-scratch algorithms, by agent.
    fresh_paths: BTreeMap<AgentId, Path>,
    space: SearchSpace,
    baseline_space: SearchSpace,
    changed: Vec<usize>,
    tick: u64,
    last: TickStats,
    total: TickStats,
    expanded: Vec<u32>,
    /// Per group, in goal order, the cells of its walking agents: refilled each replan.
    starts: Vec<Vec<usize>>,
    /// Per group with fewer than [`MEMO_MIN_AGENTS`] walking agents, their places in the
    /// slab: refilled each replan. A group with more is settled in agent order instead.
    members: Vec<Vec<u32>>,
    /// Scratch of the replan's starts loop: per agent, at most, (group slot, cell).
    firsts: Vec<(u32, u32)>,
    /// Per group, how many walking agents it serves: refilled each replan.
    counts: Vec<u32>,
    /// Per agent place in the slab, its group's slot if it is among the group's walking
    /// agents this replan, else [`NO_SLOT`].
    member_slot: Vec<u32>,
    /// The last replan left the agents of large groups to be settled as they move (see
    /// [`tick`](Simulation::tick)).
    settle_pending: bool,
    /// Per group slot, whether its walking agents are settled after all computes (in agent
    /// order) rather than right after its own: set each replan.
    settle_late: Vec<bool>,
    /// Every agent heads to a tracked group ([`Group::here`]) in this replan: no loop over
    /// the agents lists the starts.
    all_tracked: bool,
    /// Some group is tracked.
    tracking: bool,
    /// The goal cells given a slot by the last replan.
    slotted: Vec<usize>,
    /// Scratch: (cell, next cell, agents) of each tracked start that moves.
    shifts: Vec<(u32, u32, u32)>,
    /// Per agent place, its memoised move and its cost where the move is [`FRESH`], while
    /// settling and moving at once: see [`settle_and_advance`](Simulation::settle_and_advance).
    moves: Vec<Planned>,
    costs: Vec<Cost>,
    /// Per cell, the group slot of the goal there during a replan; [`NO_SLOT`] elsewhere.
    slot: Vec<u32>,
    /// Per cell, `mark_base + 1 + slot` of the group whose starts listed it last.
    listed: Vec<u32>,
    mark_base: u32,
    /// Computes kept per planner (0: none).
    history: usize,
    /// Bytes the kept computes hold, at most `history_budget` after a replan.
    history_bytes: usize,
    history_budget: usize,
    /// (goal cell, group serial) of each kept compute, oldest first: whose to forget first
    /// when over budget. Entries of computes already forgotten are skipped.
    history_order: VecDeque<(usize, u64)>,
    /// `history_order`'s length past which it is rebuilt without its forgotten entries.
    history_rebuild_at: usize,
    next_serial: u64,
    /// Whether every search run of a replan is recorded into `runs`.
    tracing: bool,
    runs: Vec<SearchRun>,
    seed: u64,
    wander_rng: Rng,
    dynamic: Option<DynamicWorld>,
    dynamic_rng: Rng,
    doors: Doors,
    /// Agents standing on each cell, and agents heading to each cell: edit checks in O(1).
    occupied: Vec<u32>,
    goals: Vec<u32>,
    /// Goal cells whose count of agents rose from 0 since the last replan: the goals that may
    /// need a planner, so a replan need not look at every agent for new goals.
    new_goals: Vec<usize>,
    /// Every agent's goal needs a planner again (the planners were dropped).
    rescan_goals: bool,
    /// Agents on their goal with a wander or patrol policy, found while moving them.
    arrived: Vec<AgentId>,
    /// Per cell, the pocket holding it ([`NO_POCKET`](pockets::NO_POCKET) when none is
    /// proven): see [`update_pockets`](Self::update_pockets).
    pocket: Vec<u32>,
    next_pocket: u32,
    /// Whether `pocket` was filled for the current moves.
    pockets_ready: bool,
    /// Cells that became passable, and walls, since the last replan.
    opened: Vec<usize>,
    walled: Vec<usize>,
    scratch: Vec<usize>,
    /// D* Lite planners of dropped goals, whose arrays new goals reuse. Boxed as the groups
    /// hold them, so a planner moves in and out of the pool as a pointer.
    #[allow(clippy::vec_box)]
    pool: Vec<Box<DStarLite>>,
    /// Wander's flood, and the size of every cell's component, kept across edits.
    flood: Flood,
    components: Components,
}

/// Streams of the simulation's generators, so that wander and the dynamic world do not
/// disturb each other.
const WANDER_STREAM: u64 = 0x5741_4E44;
const DYNAMIC_STREAM: u64 = 0x4459_4E41;

impl Simulation {
    /// A simulation on `grid` with no agents.
    pub fn new(grid: Grid, config: SimConfig) -> Simulation {
        let grid_len = grid.len();
        Simulation {
            grid,
            config,
            agents: Slab::default(),
            next_id: 0,
            groups: BTreeMap::new(),
            fresh_paths: BTreeMap::new(),
            space: SearchSpace::new(),
            baseline_space: SearchSpace::new(),
            changed: Vec::new(),
            tick: 0,
            last: TickStats::default(),
            total: TickStats::default(),
            expanded: Vec::new(),
            starts: Vec::new(),
            members: Vec::new(),
            firsts: Vec::new(),
            counts: Vec::new(),
            member_slot: Vec::new(),
            settle_pending: false,
            settle_late: Vec::new(),
            all_tracked: false,
            tracking: false,
            slotted: Vec::new(),
            shifts: Vec::new(),
            moves: Vec::new(),
            costs: Vec::new(),
            slot: Vec::new(),
            listed: Vec::new(),
            mark_base: 0,
            history: 0,
            history_bytes: 0,
            history_budget: HISTORY_BUDGET,
            history_order: VecDeque::new(),
            history_rebuild_at: 1024,
            next_serial: 0,
            tracing: false,
            runs: Vec::new(),
            seed: 0,
            wander_rng: Rng::new(WANDER_STREAM),
            dynamic: None,
            dynamic_rng: Rng::new(DYNAMIC_STREAM),
            doors: Doors::default(),
            occupied: vec![0; grid_len],
            goals: vec![0; grid_len],
            new_goals: Vec::new(),
            rescan_goals: false,
            arrived: Vec::new(),
            pocket: Vec::new(),
            next_pocket: 0,
            pockets_ready: false,
            opened: Vec::new(),
            walled: Vec::new(),
            scratch: Vec::new(),
            pool: Vec::new(),
            flood: Flood::default(),
            components: Components::default(),
        }
    }

    /// The world as it stands, as a scenario that starts now: the map, moves, heuristic, seed
    /// and dynamic world, and every agent on its cell heading to its goal with its policy.
    /// Saved and loaded, it starts the same world (planners start afresh).
    pub fn to_scenario(&self) -> Scenario {
        let mut s = Scenario::with_moves(
            self.grid.clone(),
            self.config.connectivity,
            Some(self.config.heuristic),
        );
        s.agents = self
            .agents
            .values()
            .map(|a| AgentSpec {
                on_arrival: a.on_arrival,
                ..AgentSpec::new(a.pos, a.goal)
            })
            .collect();
        s.seed = self.seed;
        if let Some(d) = self.dynamic {
            s.dynamic = vec![DynamicSpec::new(0, Some(d))];
        }
        s
    }

    /// Restarts the generators of wander and the dynamic world from `seed`.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.wander_rng = Rng::new(seed ^ WANDER_STREAM);
        self.dynamic_rng = Rng::new(seed ^ DYNAMIC_STREAM);
    }

    /// The seed of the generators.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Turns the dynamic world on (with its setting) or off. Walls it dropped stay until it
    /// lifts them; turned off, it lifts no more.
    pub fn set_dynamic(&mut self, dynamic: Option<DynamicWorld>) {
        self.dynamic = dynamic.map(DynamicWorld::clamped);
    }

    /// The dynamic world's setting, `None` when off.
    pub fn dynamic(&self) -> Option<DynamicWorld> {
        self.dynamic
    }

    /// The walls the dynamic world dropped and has not lifted, oldest first.
    pub fn doors(&self) -> impl Iterator<Item = Pos> + '_ {
        self.doors.standing.iter().map(|&(p, _)| p)
    }

    /// Keeps the last `computes` computes that expanded any cell, per planner, for
    /// [`history`](Self::history); 0 turns it off. All planners' kept computes together
    /// hold at most [`HISTORY_BUDGET`] bytes after a replan: past it, the oldest go first.
    /// Recording costs time: off by default.
    pub fn set_history(&mut self, computes: usize) {
        self.history = computes;
        let on = self.history > 0 || self.tracing;
        for g in self.groups.values_mut() {
            g.planner.get_mut().set_tracing(on);
            while g.history.len() > computes {
                g.history.pop_front();
            }
        }
        self.history_bytes = self
            .groups
            .values()
            .flat_map(|g| g.history.iter())
            .map(record_bytes)
            .sum();
    }

    /// Sets how many bytes all kept computes may hold together ([`HISTORY_BUDGET`] unless
    /// set); the oldest are forgotten at the next replan.
    pub fn set_history_budget(&mut self, bytes: usize) {
        self.history_budget = bytes;
    }

    /// Bytes the kept computes hold now.
    pub fn history_bytes(&self) -> usize {
        self.history_bytes
    }

    /// Records every search run of each replan, for [`last_runs`](Self::last_runs).
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
        let on = self.history > 0 || self.tracing;
        for g in self.groups.values_mut() {
            g.planner.get_mut().set_tracing(on);
        }
        if !self.tracing {
            self.runs.clear();
        }
    }

    /// The search runs of the last replan, in the order they ran (with tracing on).
    pub fn last_runs(&self) -> &[SearchRun] {
        &self.runs
    }

    /// The recent computes of the planner serving agent `id`, oldest first (with
    /// [`set_history`](Self::set_history) on and an incremental algorithm).
    pub fn history(&self, id: AgentId) -> Option<&VecDeque<ComputeRecord>> {
        Some(&self.group_of(id)?.history)
    }

    /// What the planner serving agent `id` holds for `cell`.
    pub fn inspect(&self, id: AgentId, cell: Pos) -> Option<CellInfo> {
        let i = self.grid.index(cell).ok()?;
        self.group_of(id)?.planner.get().inspect(&self.grid, i)
    }

    /// How many agents head to the goal of agent `id` (its planner's agents).
    pub fn goal_agents(&self, id: AgentId) -> usize {
        let Some(goal) = self.agents.get(&id).map(|a| a.goal) else {
            return 0;
        };
        self.agents.values().filter(|a| a.goal == goal).count()
    }

    fn group_of(&self, id: AgentId) -> Option<&Group> {
        let a = self.agents.get(&id)?;
        self.groups.get(&self.grid.index(a.goal).ok()?)
    }

    /// The grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The planning configuration.
    pub fn config(&self) -> SimConfig {
        self.config
    }

    /// Changes the configuration. A new algorithm, connectivity or heuristic drops every
    /// planner, so the next [`replan`](Self::replan) plans every agent again.
    pub fn set_config(&mut self, config: SimConfig) {
        let replan = config.algorithm != self.config.algorithm
            || config.connectivity != self.config.connectivity
            || config.heuristic != self.config.heuristic;
        self.config = config;
        if replan {
            self.drop_groups();
            self.fresh_paths.clear();
            self.changed.clear();
            self.rescan_goals = true;
            self.pockets_ready = false;
        }
    }

    /// Ticks completed.
    pub fn tick_count(&self) -> u64 {
        self.tick
    }

    /// The agents, by id.
    pub fn agents(&self) -> impl DoubleEndedIterator<Item = &Agent> + ExactSizeIterator {
        self.agents.values()
    }

    /// Number of agents.
    pub fn agent_count(&self) -> usize {
        self.agents.len()
    }

    /// One agent.
    pub fn agent(&self, id: AgentId) -> Option<&Agent> {
        self.agents.get(&id)
    }

    /// Number of planners (goal groups) alive; 0 for the from-scratch algorithms.
    pub fn planner_count(&self) -> usize {
        self.groups.len()
    }

    /// Whether the map changed since the last replan (an edit, or the dynamic world at the end
    /// of the last tick): until the next replan, costs may be stale.
    pub fn changes_pending(&self) -> bool {
        !self.changed.is_empty()
    }

    /// Stats of the last replan.
    pub fn last_stats(&self) -> TickStats {
        self.last
    }

    /// Stats summed over every replan.
    pub fn total_stats(&self) -> TickStats {
        self.total
    }

    /// The cells expanded by the last replan, over all planners, in order.
    pub fn last_expanded(&self) -> &[u32] {
        &self.expanded
    }

    /// Bytes held by all planners.
    pub fn planner_memory(&self) -> usize {
        self.groups
            .values()
            .map(|g| g.planner.get().memory_bytes())
            .sum()
    }

    fn check_cell(&self, pos: Pos) -> Result<usize, SimError> {
        let i = self.grid.index(pos)?;
        if self.grid.weight(i) == 0 {
            return Err(SimError::OnWall(pos));
        }
        Ok(i)
    }

    /// Adds an agent walking from `start` to `goal` that stays on arrival. It gets a path at
    /// the next replan.
    pub fn add_agent(&mut self, start: Pos, goal: Pos) -> Result<AgentId, SimError> {
        self.add_agent_with(start, goal, OnArrival::Stay)
    }

    /// Adds an agent walking from `start` to `goal` that follows `on_arrival` there.
    pub fn add_agent_with(
        &mut self,
        start: Pos,
        goal: Pos,
        on_arrival: OnArrival,
    ) -> Result<AgentId, SimError> {
        let s = self.check_cell(start)?;
        let g = self.check_cell(goal)?;
        self.occupied[s] += 1;
        self.count_goal(g);
        let id = self.next_id;
        self.next_id += 1;
        let arrived = start == goal;
        let agent = Agent {
            id,
            pos: start,
            goal,
            status: if arrived {
                AgentStatus::Arrived
            } else {
                AgentStatus::Walking
            },
            remaining: arrived.then_some(0),
            next: None,
            step_cost: 0,
            on_arrival,
            home: start,
            away: goal,
            next_cell: 0,
            carried: false,
        };
        let place = Place {
            cell: s as u32,
            goal: g as u32,
        };
        self.agents.insert(agent, place);
        if let Some(group) = self.groups.get_mut(&g) {
            group.enter(s);
        }
        Ok(id)
    }

    /// Removes an agent; its goal's planner goes with its last agent.
    pub fn remove_agent(&mut self, id: AgentId) -> Result<(), SimError> {
        let (agent, place) = self.agents.remove(&id).ok_or(SimError::NoSuchAgent(id))?;
        if let Some(group) = self.groups.get_mut(&(place.goal as usize)) {
            group.leave(place.cell as usize);
        }
        self.occupied[place.cell as usize] -= 1;
        self.goals[place.goal as usize] -= 1;
        self.fresh_paths.remove(&id);
        self.drop_group_if_unused(agent.goal);
        Ok(())
    }

    /// Removes every agent and planner.
    pub fn clear_agents(&mut self) {
        self.agents.clear();
        self.occupied.fill(0);
        self.goals.fill(0);
        self.new_goals.clear();
        self.drop_groups();
        self.fresh_paths.clear();
        self.changed.clear();
    }

    /// Sends an agent to a new goal.
    pub fn set_goal(&mut self, id: AgentId, goal: Pos) -> Result<(), SimError> {
        let g = self.check_cell(goal)?;
        let (agent, place) = self
            .agents
            .get_both_mut(&id)
            .ok_or(SimError::NoSuchAgent(id))?;
        let old = std::mem::replace(&mut agent.goal, goal);
        let old_cell = std::mem::replace(&mut place.goal, g as u32) as usize;
        let cell = place.cell as usize;
        agent.status = if agent.pos == goal {
            AgentStatus::Arrived
        } else {
            AgentStatus::Walking
        };
        agent.remaining = (agent.pos == goal).then_some(0);
        agent.next = None;
        agent.carried = false;
        if let Some(group) = self.groups.get_mut(&old_cell) {
            group.leave(cell);
        }
        if let Some(group) = self.groups.get_mut(&g) {
            group.enter(cell);
        }
        self.goals[old_cell] -= 1;
        self.count_goal(g);
        self.drop_group_if_unused(old);
        Ok(())
    }

    /// One more agent heads to goal cell `g`; a goal new to the agents is listed for a planner.
    fn count_goal(&mut self, g: usize) {
        if self.goals[g] == 0 {
            self.new_goals.push(g);
        }
        self.goals[g] += 1;
    }

    fn drop_group_if_unused(&mut self, goal: Pos) {
        if let Ok(g) = self.grid.index(goal)
            && self.goals[g] == 0
            && let Some(group) = self.groups.remove(&g)
        {
            self.recycle(group);
        }
    }

    /// Keeps a dropped group's D* Lite arrays for the next new goal, up to [`POOL_MAX`].
    fn recycle(&mut self, group: Group) {
        self.history_bytes -= group.history.iter().map(record_bytes).sum::<usize>();
        if let Planner::Lite(p) = group.planner
            && self.pool.len() < POOL_MAX
        {
            self.pool.push(p);
        }
    }

    /// Drops every planner, keeping some for the pool.
    fn drop_groups(&mut self) {
        for (_, group) in std::mem::take(&mut self.groups) {
            self.recycle(group);
        }
    }

    /// Whether an edit of `pos` would be refused, and why. O(1) when it is not: per-cell
    /// counts of agents and goals say so; only a refusal looks up which agent.
    pub fn check_edit(&self, pos: Pos) -> Result<usize, SimError> {
        let i = self.grid.index(pos)?;
        if self.occupied[i] > 0
            && let Some(a) = self.agents.values().find(|a| a.pos == pos)
        {
            return Err(SimError::HoldsAgent { pos, agent: a.id });
        }
        if self.goals[i] > 0
            && let Some(a) = self.agents.values().find(|a| a.goal == pos)
        {
            return Err(SimError::IsGoal { pos, agent: a.id });
        }
        Ok(i)
    }

    /// Sets `pos` to `terrain`, unless it holds an agent or is a goal. Returns whether the
    /// cell changed. Planners learn of it at the next [`replan`](Self::replan).
    pub fn edit(&mut self, pos: Pos, terrain: Terrain) -> Result<bool, SimError> {
        let i = self.check_edit(pos)?;
        let old = self.grid.set(pos, terrain)?;
        if old == terrain {
            return Ok(false);
        }
        self.components.changed(&self.grid, i, old != Terrain::Wall);
        match (old == Terrain::Wall, terrain == Terrain::Wall) {
            (true, false) => self.opened.push(i),
            (false, true) => self.walled.push(i),
            _ => {}
        }
        if old == Terrain::Wall {
            // A dropped wall taken away by any edit is no longer the dynamic world's to lift.
            self.doors.standing.retain(|&(p, _)| p != pos);
        }
        self.changed.push(i);
        Ok(true)
    }

    /// Applies many edits as one batch: each is checked like [`edit`](Self::edit), the
    /// refused ones are listed with why, and planners learn of all the rest at the next
    /// replan. Returns how many cells changed.
    pub fn edit_batch(&mut self, edits: &[(Pos, Terrain)]) -> (usize, Vec<(Pos, SimError)>) {
        let mut changed = 0;
        let mut refused = Vec::new();
        for &(pos, terrain) in edits {
            match self.edit(pos, terrain) {
                Ok(true) => changed += 1,
                Ok(false) => {}
                Err(e) => refused.push((pos, e)),
            }
        }
        (changed, refused)
    }

    /// Sets every wall to plain ground (cells under agents and goals are never walls) in one
    /// batch. Returns how many cells changed.
    pub fn clear_walls(&mut self) -> usize {
        let walls: Vec<(Pos, Terrain)> = (0..self.grid.len())
            .filter(|&i| self.grid.weight(i) == 0)
            .map(|i| (self.grid.pos(i), Terrain::FREE))
            .collect();
        self.edit_batch(&walls).0
    }

    /// Lets every planner repair, then updates each agent's status, remaining cost and next
    /// cell.
    pub fn replan(&mut self) -> TickStats {
        self.replan_deferring(false)
    }

    /// [`replan`](Self::replan); with `defer`, the agents of large groups are left unsettled
    /// for [`settle_and_advance`](Self::settle_and_advance), which must come next.
    fn replan_deferring(&mut self, defer: bool) -> TickStats {
        let mut stats = TickStats {
            replans: 1,
            ..TickStats::default()
        };
        self.expanded.clear();
        self.runs.clear();
        let started = Instant::now();
        if self.config.algorithm.is_incremental() {
            self.replan_incremental(&mut stats, defer);
        } else {
            self.replan_fresh(&mut stats);
        }
        stats.micros = started.elapsed().as_micros() as u64;
        self.changed.clear();
        if self.baseline_due() {
            let t = Instant::now();
            for a in self.agents.values() {
                if a.status == AgentStatus::Arrived {
                    continue;
                }
                let req = self.request(a, Mode::AStar);
                if let Ok(r) = self.baseline_space.search(&self.grid, &req, None) {
                    stats.baseline_expanded += r.stats.expanded;
                }
            }
            stats.baseline_micros = t.elapsed().as_micros() as u64;
        }
        self.last = stats;
        self.total += stats;
        stats
    }

    /// Whether a replan now measures A* from scratch ([`SimConfig::measure_baseline`]): asked
    /// for, and at most [`BASELINE_MAX_AGENTS`] agents off their goal (those a replan leaves
    /// walking or with no path).
    fn baseline_due(&self) -> bool {
        let walking = self.agents.hot().iter().filter(|p| p.cell != p.goal);
        self.config.measure_baseline
            && walking.take(BASELINE_MAX_AGENTS + 1).count() <= BASELINE_MAX_AGENTS
    }

    /// The search request for agent `a` in `mode`, with the configured moves and heuristic.
    fn request(&self, a: &Agent, mode: Mode) -> SearchRequest {
        SearchRequest {
            start: a.pos,
            goal: a.goal,
            mode,
            connectivity: self.config.connectivity,
            heuristic: self.config.heuristic,
        }
    }

    /// A new planner toward `goal`, tracing as the simulation asks. D* Lite reuses a dropped
    /// planner's arrays when the pool has one.
    fn new_group(&mut self, goal: Pos) -> Option<Group> {
        let (grid, conn, h) = (&self.grid, self.config.connectivity, self.config.heuristic);
        let mut planner = match self.config.algorithm {
            Algorithm::DStarLite => Planner::Lite(match self.pool.pop() {
                Some(mut p) => {
                    p.reset(grid, goal, conn, h).ok()?;
                    p
                }
                None => Box::new(DStarLite::new(grid, goal, conn, h).ok()?),
            }),
            a => Planner::Other(new_planner(a, grid, goal, conn, h).ok()?),
        };
        planner
            .get_mut()
            .set_tracing(self.history > 0 || self.tracing);
        Some(Group {
            planner,
            memo: Vec::new(),
            fresh: Vec::new(),
            history: VecDeque::new(),
            serial: {
                self.next_serial += 1;
                self.next_serial
            },
            deferred: Vec::new(),
            here: Vec::new(),
            spots: Vec::new(),
            cut: Vec::new(),
        })
    }

    fn replan_incremental(&mut self, stats: &mut TickStats, defer: bool) {
        // Planners for goals new since the last replan (or for every goal, after they were
        // dropped).
        let mut new_goals = std::mem::take(&mut self.new_goals);
        if std::mem::take(&mut self.rescan_goals) {
            new_goals.extend(self.agents.hot().iter().map(|p| p.goal as usize));
        }
        for &g in &new_goals {
            if self.goals[g] > 0
                && !self.groups.contains_key(&g)
                && let Some(group) = self.new_group(self.grid.pos(g))
            {
                self.groups.insert(g, group);
            }
        }
        new_goals.clear();
        self.new_goals = new_goals;
        if self.slot.len() != self.grid.len() {
            self.slot = vec![NO_SLOT; self.grid.len()];
        }
        // Slots stay set until the next replan: settling after it reads them.
        for &goal in &self.slotted {
            self.slot[goal] = NO_SLOT;
        }
        self.slotted.clear();
        self.slotted.extend(self.groups.keys());
        for (k, (&goal, group)) in self.groups.iter_mut().enumerate() {
            self.slot[goal] = k as u32;
            // An edit changes the moves of its 3×3 block.
            if !group.memo.is_empty() {
                for &c in &self.changed {
                    forget_moves(&mut group.memo, &self.grid, c);
                }
            }
        }
        self.update_pockets();
        let tracked: usize = (self.groups.iter())
            .filter(|(_, g)| g.tracked())
            .map(|(&goal, _)| self.goals[goal] as usize)
            .sum();
        self.all_tracked = defer && tracked == self.agents.len() && tracked > 0;
        debug_assert!(self.trackers_agree());
        match self.all_tracked {
            true => self.list_tracked_starts(),
            false => self.list_starts(),
        }
        self.settle_late.clear();
        self.settle_late.extend(
            (self.groups.values().zip(&self.counts))
                .map(|(g, &n)| n as usize >= MEMO_MIN_AGENTS || (defer && g.tracked())),
        );
        let (agents, places) = self.agents.as_mut_slices();
        for (((((&goal, group), starts), members), &n), &late) in self
            .groups
            .iter_mut()
            .zip(&self.starts)
            .zip(&self.members)
            .zip(&self.counts)
            .zip(&self.settle_late)
        {
            let n = n as usize;
            if n == 0 {
                group.deferred.extend_from_slice(&self.changed);
                // Deduplicated only past twice the map, so the sort is amortised over edits.
                if group.deferred.len() > 2 * self.grid.len() {
                    group.deferred.sort_unstable();
                    group.deferred.dedup();
                }
                continue;
            }
            let planner = group.planner.get_mut();
            planner.set_starts(&self.grid, starts);
            if !group.deferred.is_empty() {
                planner.cells_changed(&self.grid, &group.deferred);
                group.deferred = Vec::new();
            }
            if !self.changed.is_empty() {
                planner.cells_changed(&self.grid, &self.changed);
            }
            let t = Instant::now();
            let work = planner.compute(&self.grid);
            let micros = t.elapsed().as_micros() as u64;
            stats.search += work;
            self.expanded.extend_from_slice(planner.last_expanded());
            if self.tracing {
                self.runs.push(SearchRun {
                    source: RunSource::Goal(self.grid.pos(goal)),
                    trace: planner.last_trace().clone(),
                });
            }
            // Taken, not copied: thousands of planners must not each hold their largest trace.
            // A compute that expanded nothing is not kept, and its trace stays in the planner,
            // whose next compute clears it and reuses its room.
            if self.history > 0 && work.expanded > 0 {
                let trace = planner.take_last_trace();
                if group.history.len() >= self.history
                    && let Some(old) = group.history.pop_front()
                {
                    self.history_bytes -= record_bytes(&old);
                }
                let record = ComputeRecord {
                    tick: self.tick,
                    goal: self.grid.pos(goal),
                    trace,
                    stats: work,
                    km: planner.km(),
                    agents: n,
                    micros,
                };
                self.history_bytes += record_bytes(&record);
                group.history.push_back(record);
                self.history_order.push_back((goal, group.serial));
            }
            // Moves read g in the 3×3 block around them: an expanded cell's g changed.
            if let Planner::Lite(p) = &group.planner {
                if !group.memo.is_empty() {
                    for &u in p.last_expanded() {
                        forget_moves(&mut group.memo, &self.grid, u as usize);
                    }
                    if n < MEMO_MIN_AGENTS / 4 {
                        group.memo = Vec::new();
                        group.untrack();
                    }
                } else if n >= MEMO_MIN_AGENTS {
                    group.memo = vec![UNKNOWN; self.grid.len()];
                }
            }
            // A small group's agents' answers now, while the planner's memory is in cache; a
            // large group's read its memo, in agent order below.
            if !late {
                for &i in members {
                    let (a, cell) = (&mut agents[i as usize], places[i as usize].cell);
                    Self::settle_member(a, cell, group, &self.grid);
                }
                for c in group.fresh.drain(..) {
                    group.memo[c] &= !FRESH;
                }
            }
        }
        if self.settle_late.iter().any(|&late| late) {
            if defer {
                self.settle_pending = true;
                self.track_groups();
            } else {
                self.settle_large_groups();
            }
        }
        self.trim_history();
    }

    /// A fresh range of `groups` marks in `listed`, returned as its base: `base + slot`.
    fn fresh_marks(&mut self, groups: usize) -> u32 {
        if self.listed.len() != self.grid.len()
            || self.mark_base.checked_add(groups as u32 + 1).is_none()
        {
            self.listed = vec![0; self.grid.len()];
            self.mark_base = 0;
        }
        let base = self.mark_base + 1;
        self.mark_base += groups as u32;
        base
    }

    /// Lists each group's starts, its walking agents' cells, and counts them; settles the
    /// agents no group serves now.
    fn list_starts(&mut self) {
        let groups = self.groups.len();
        // The cells of every agent still walking, bucketed by its goal's slot: no sort. Agents
        // of a goal walk in clumps, so a cell just listed for the same group is not listed
        // again (a planner's starts are a set: repeats only cost it time).
        self.starts.resize_with(groups, Vec::new);
        self.starts.iter_mut().for_each(Vec::clear);
        self.members.resize_with(groups, Vec::new);
        self.members.iter_mut().for_each(Vec::clear);
        self.counts.clear();
        self.counts.resize(groups, 0);
        // Every entry is written below.
        self.member_slot.resize(self.agents.len(), NO_SLOT);
        self.firsts.resize(self.agents.len(), (0, 0));
        let base = self.fresh_marks(groups);
        let (agents, places) = self.agents.as_mut_slices();
        let (slot, pocket, listed) = (&self.slot[..], &self.pocket[..], &mut self.listed[..]);
        let counts = &mut self.counts[..];
        // (slot, cell) of each cell listed, in agent order: written for every agent, kept
        // (`firsts` grows) only for the first of its group on its cell, without a branch.
        let mut firsts = 0;
        for (i, (p, member)) in places.iter().zip(&mut self.member_slot).enumerate() {
            let (cell, goal) = (p.cell as usize, p.goal as usize);
            let k = slot[goal];
            // (An agent has arrived exactly when it stands on its goal.)
            if cell == goal || k as usize >= groups || pocket[cell] != pocket[goal] {
                // On its goal; or proven apart from it: in a closed pocket without it (or it in
                // one without the agent), left out of the starts so the group's search stays
                // focused on the agents it can serve.
                *member = NO_SLOT;
                Self::settle(&mut agents[i], || None);
                continue;
            }
            *member = k;
            counts[k as usize] += 1;
            let mark = base + k;
            let first = std::mem::replace(&mut listed[cell], mark) != mark;
            self.firsts[firsts] = (k, cell as u32);
            firsts += first as usize;
        }
        for &(k, cell) in &self.firsts[..firsts] {
            self.starts[k as usize].push(cell as usize);
        }
        // The small groups' members, to settle right after their computes.
        if counts
            .iter()
            .any(|&n| n > 0 && (n as usize) < MEMO_MIN_AGENTS)
        {
            for (i, &k) in self.member_slot.iter().enumerate() {
                if counts
                    .get(k as usize)
                    .is_some_and(|&n| (n as usize) < MEMO_MIN_AGENTS)
                {
                    self.members[k as usize].push(i as u32);
                }
            }
        }
    }

    /// Forgets the oldest kept computes, whichever planner they belong to, until the rest
    /// fit in the budget ([`HISTORY_BUDGET`] by default): with thousands of planners, 32
    /// computes each would hold gigabytes.
    fn trim_history(&mut self) {
        while self.history_bytes > self.history_budget {
            let Some((goal, serial)) = self.history_order.pop_front() else {
                break;
            };
            if let Some(group) = self.groups.get_mut(&goal)
                && group.serial == serial
                && let Some(old) = group.history.pop_front()
            {
                self.history_bytes -= record_bytes(&old);
            }
        }
        // Entries of computes forgotten otherwise (a full history, a dropped planner) are
        // left behind: rebuilt from the kept computes each time the list doubles, so the
        // rebuild costs O(1) per compute kept.
        if self.history_order.len() > self.history_rebuild_at {
            let mut order: Vec<(u64, usize, u64)> = self
                .groups
                .iter()
                .flat_map(|(&goal, g)| g.history.iter().map(move |r| (r.tick, goal, g.serial)))
                .collect();
            order.sort_unstable();
            self.history_order = order.into_iter().map(|(_, g, s)| (g, s)).collect();
            self.history_rebuild_at = 2 * self.history_order.len() + 1024;
        }
    }

    fn replan_fresh(&mut self, stats: &mut TickStats) {
        // Pockets are the incremental planners' business; they are found afresh if one comes.
        self.pockets_ready = false;
        self.opened.clear();
        self.walled.clear();
        let mode = match self.config.algorithm {
            Algorithm::Dijkstra => Mode::Dijkstra,
            _ => Mode::AStar,
        };
        self.fresh_paths.clear();
        let mut trace = Trace::default();
        let ids: Vec<AgentId> = self.agents.keys().collect();
        for id in ids {
            let Some(a) = self.agents.get(&id) else {
                continue;
            };
            if a.pos == a.goal {
                if let Some(a) = self.agents.get_mut(&id) {
                    Self::settle(a, || None);
                }
                continue;
            }
            let req = self.request(a, mode);
            let r = self.space.search(&self.grid, &req, Some(&mut trace));
            let Some(a) = self.agents.get_mut(&id) else {
                continue;
            };
            let Ok(r) = r else {
                Self::settle(a, || None);
                continue;
            };
            stats.search += r.stats;
            self.expanded.extend(trace.expansions().map(|e| e.cell));
            if self.tracing {
                self.runs.push(SearchRun {
                    source: RunSource::Agent(id),
                    trace: trace.clone(),
                });
            }
            let path = r.path;
            let (grid, conn) = (&self.grid, self.config.connectivity);
            Self::settle(a, || {
                let p = path.as_ref()?;
                let (from, to) = (grid.index(p.cells[0]).ok()?, *p.cells.get(1)?);
                let next = grid.index(to).ok()?;
                let step = grid.move_cost(from, next, conn)?;
                Some((p.cost, to, next as u32, step))
            });
            if let Some(p) = path {
                self.fresh_paths.insert(a.id, p);
            }
        }
    }

    /// Sets status, remaining and next from the planner's answer `(cost, next cell, its index,
    /// step cost)`.
    fn settle(a: &mut Agent, answer: impl FnOnce() -> Option<(Cost, Pos, u32, Cost)>) {
        if a.pos == a.goal {
            a.status = AgentStatus::Arrived;
            a.remaining = Some(0);
            a.next = None;
            return;
        }
        match answer() {
            Some((cost, next, next_cell, step)) => {
                a.status = AgentStatus::Walking;
                a.remaining = Some(cost);
                a.next = Some(next);
                a.next_cell = next_cell;
                a.step_cost = step;
            }
            None => {
                a.status = AgentStatus::NoPath;
                a.remaining = None;
                a.next = None;
            }
        }
    }

    /// Moves every agent that has a path one cell along it, then lets arrived agents follow
    /// their policy and the dynamic world act. A planned step that is no longer legal (the map
    /// changed since the replan) is not taken: the agent waits for the next replan.
    pub fn advance(&mut self) {
        // Agents moved one by one are not followed by the groups' counts.
        self.untrack_all();
        self.arrived.clear();
        let mut mover = Mover {
            grid: &self.grid,
            conn: self.config.connectivity,
            // Unless the map changed since the replan, every planned step is legal at its cost.
            planned: self.changed.is_empty(),
            occupied: &mut self.occupied,
            fresh_paths: (!self.fresh_paths.is_empty()).then_some(&mut self.fresh_paths),
            arrived: &mut self.arrived,
        };
        let (agents, places) = self.agents.as_mut_slices();
        for (a, p) in agents.iter_mut().zip(places) {
            mover.step(a, p);
        }
        self.after_moves();
    }

    /// The end of [`advance`](Self::advance), once the agents moved.
    fn after_moves(&mut self) {
        self.arrivals();
        self.dynamic_world();
        self.tick += 1;
    }

    /// Gives every arrived agent with a wander or patrol policy (listed by
    /// [`advance`](Self::advance)) its next goal, in id order.
    fn arrivals(&mut self) {
        let conn = self.config.connectivity;
        let ids = std::mem::take(&mut self.arrived);
        for &id in &ids {
            let Some((a, p)) = self.agents.get_both(&id) else {
                continue;
            };
            let goal = match a.on_arrival {
                OnArrival::Stay => continue,
                OnArrival::Patrol => {
                    if a.goal == a.away {
                        a.home
                    } else {
                        a.away
                    }
                }
                OnArrival::Wander => {
                    // Any reachable cell but its own (the flood's first), in the order of
                    // `world::reachable`: the flood stops at the cell drawn.
                    let cell = p.cell as usize;
                    let len = self.components.size_at(&self.grid, cell, conn);
                    if len < 2 {
                        continue;
                    }
                    let i = 1 + self.wander_rng.below(len - 1);
                    match self.flood.nth(&self.grid, cell, conn, i) {
                        Some(c) => self.grid.pos(c),
                        None => continue,
                    }
                }
            };
            if goal != a.goal {
                // The goal is passable and on the map by construction; a refusal leaves it.
                let _ = self.set_goal(id, goal);
            }
        }
        self.arrived = ids;
    }

    /// Drops a wall on a walking agent's path ahead of it every `every` ticks, and lifts the
    /// oldest such wall once more than `walls` stand.
    fn dynamic_world(&mut self) {
        let Some(dw) = self.dynamic else {
            return;
        };
        if !self.tick.is_multiple_of(dw.every as u64) {
            return;
        }
        let walking: Vec<AgentId> = self
            .agents
            .values()
            .filter(|a| a.status == AgentStatus::Walking && a.pos != a.goal)
            .map(|a| a.id)
            .collect();
        if walking.is_empty() {
            return;
        }
        let id = walking[self.dynamic_rng.below(walking.len())];
        let Some(path) = self.path(id) else {
            return;
        };
        let ahead: Vec<Pos> = path
            .cells
            .iter()
            .skip(1)
            .take(DynamicWorld::AHEAD)
            .copied()
            .filter(|&p| self.grid.is_passable(p) && self.check_edit(p).is_ok())
            .collect();
        if ahead.is_empty() {
            return;
        }
        let pos = ahead[self.dynamic_rng.below(ahead.len())];
        let Ok(old) = self.grid.terrain(pos) else {
            return;
        };
        if self.edit(pos, Terrain::Wall).is_ok() {
            self.doors.standing.push_back((pos, old));
        }
        while self.doors.standing.len() > dw.walls as usize {
            let Some((p, was)) = self.doors.standing.pop_front() else {
                break;
            };
            // Someone may have changed the cell since; lift only a wall still standing.
            if self.grid.terrain(p) == Ok(Terrain::Wall) {
                let _ = self.edit(p, was);
            }
        }
    }

    /// One whole tick after the agents due now were added: apply `edits`, replan, move.
    pub fn tick(&mut self, edits: &[(Pos, Terrain)]) -> TickReport {
        let mut refused = Vec::new();
        for &(pos, terrain) in edits {
            if let Err(e) = self.edit(pos, terrain) {
                refused.push((pos, e));
            }
        }
        let stats = self.step();
        TickReport { refused, stats }
    }

    /// A tick after its edits: every planner repairs, then every agent with a path moves one
    /// cell, arrived agents follow their policy and the dynamic world acts. Exactly
    /// [`replan`](Self::replan) then [`advance`](Self::advance), but faster: unless a baseline
    /// is measured, the agents of large groups are settled by their memo as they move, in one
    /// pass over the agents instead of two. The game, `gridwalk-cli simulate` and
    /// [`tick`](Self::tick) all take this path.
    pub fn step(&mut self) -> TickStats {
        // The baseline plans from settled agents: with one due, they are settled first.
        let stats = self.replan_deferring(!self.baseline_due());
        match std::mem::take(&mut self.settle_pending) {
            true => self.settle_and_advance(),
            false => self.advance(),
        }
        stats
    }

    /// The agent's current planned path, from its cell to its goal. Valid between ticks too:
    /// after [`advance`](Self::advance) it starts from the cell the agent moved to. It is the
    /// plan of the last replan: while [`changes_pending`](Self::changes_pending), an edit may
    /// cross it until the next replan repairs it.
    pub fn path(&self, id: AgentId) -> Option<Path> {
        let a = self.agents.get(&id)?;
        if a.pos == a.goal {
            return Some(Path {
                cells: vec![a.pos],
                cost: 0,
            });
        }
        if a.status == AgentStatus::NoPath {
            return None;
        }
        if self.config.algorithm.is_incremental() {
            let goal = self.grid.index(a.goal).ok()?;
            let from = self.grid.index(a.pos).ok()?;
            self.groups.get(&goal)?.planner.get().path(&self.grid, from)
        } else {
            self.fresh_paths.get(&id).cloned()
        }
    }

    /// The selected agent's cost field, one value per cell ([`INFINITY`] where unknown): its
    /// planner's costs to the goal, or for the from-scratch algorithms the costs from the
    /// agent found by a fresh A*.
    pub fn cost_field(&self, id: AgentId) -> Option<Vec<Cost>> {
        let a = self.agents.get(&id)?;
        if self.config.algorithm.is_incremental() {
            let goal = self.grid.index(a.goal).ok()?;
            let p = self.groups.get(&goal)?.planner.get();
            Some((0..self.grid.len()).map(|i| p.cost_to_goal(i)).collect())
        } else {
            let mut space = SearchSpace::new();
            space
                .search(&self.grid, &self.request(a, Mode::AStar), None)
                .ok()?;
            Some(
                (0..self.grid.len())
                    .map(|i| {
                        space
                            .reached_cost(&self.grid, self.grid.pos(i))
                            .unwrap_or(INFINITY)
                    })
                    .collect(),
            )
        }
    }

    /// A fresh search from the agent's cell to its goal with every open and close recorded,
    /// for replaying it step by step: Dijkstra for Dijkstra and D*, A* otherwise (the ghost of
    /// what planning from scratch costs).
    pub fn explain(&self, id: AgentId) -> Option<(Trace, Option<Path>)> {
        let a = self.agents.get(&id)?;
        let mode = match self.config.algorithm {
            Algorithm::Dijkstra | Algorithm::DStar => Mode::Dijkstra,
            _ => Mode::AStar,
        };
        self.fresh_search(a, mode)
    }

    /// The A* from scratch from the agent's cell to its goal on the current map, recorded.
    pub fn astar_from_scratch(&self, id: AgentId) -> Option<(Trace, Option<Path>)> {
        self.fresh_search(self.agents.get(&id)?, Mode::AStar)
    }

    fn fresh_search(&self, a: &Agent, mode: Mode) -> Option<(Trace, Option<Path>)> {
        let mut trace = Trace::default();
        let r = SearchSpace::new()
            .search(&self.grid, &self.request(a, mode), Some(&mut trace))
            .ok()?;
        Some((trace, r.path))
    }
}
