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
//! With an incremental algorithm (D* Lite, D*) agents that share a goal share one planner,
//! created when the first agent heads there and dropped with the last. Adding, removing or
//! retargeting an agent touches only the groups of its old and new goal. A* and Dijkstra plan
//! from scratch for every agent, every tick.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::cost::{Cost, INFINITY};
use crate::grid::{Connectivity, Grid, GridError, Pos, Terrain};
use crate::heuristic::Heuristic;
use crate::path::Path;
use crate::planner::{Algorithm, GoalPlanner};
use crate::search::best_first::{Mode, SearchSpace, TraceEvent};
use crate::search::dstar::DStar;
use crate::search::dstar_lite::DStarLite;
use crate::stats::SearchStats;

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
}

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
    /// would have cost next to the repair.
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

impl std::ops::AddAssign for TickStats {
    fn add_assign(&mut self, o: TickStats) {
        self.search += o.search;
        self.micros += o.micros;
        self.baseline_expanded += o.baseline_expanded;
        self.baseline_micros += o.baseline_micros;
        self.replans += o.replans;
    }
}

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
    agents: BTreeMap<AgentId, Agent>,
    next_id: AgentId,
    /// Incremental planners by goal cell.
    groups: BTreeMap<usize, Box<dyn GoalPlanner>>,
    /// Paths of the from-scratch algorithms, by agent.
    fresh_paths: BTreeMap<AgentId, Path>,
    space: SearchSpace,
    baseline_space: SearchSpace,
    changed: Vec<usize>,
    tick: u64,
    last: TickStats,
    total: TickStats,
    expanded: Vec<u32>,
    starts: Vec<usize>,
}

impl Simulation {
    /// A simulation on `grid` with no agents.
    pub fn new(grid: Grid, config: SimConfig) -> Simulation {
        Simulation {
            grid,
            config,
            agents: BTreeMap::new(),
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
        }
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
            self.groups.clear();
            self.fresh_paths.clear();
            self.changed.clear();
        }
    }

    /// Ticks completed.
    pub fn tick_count(&self) -> u64 {
        self.tick
    }

    /// The agents, by id.
    pub fn agents(&self) -> impl Iterator<Item = &Agent> {
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
        self.groups.values().map(|p| p.memory_bytes()).sum()
    }

    fn check_cell(&self, pos: Pos) -> Result<usize, SimError> {
        let i = self.grid.index(pos)?;
        if self.grid.weight(i) == 0 {
            return Err(SimError::OnWall(pos));
        }
        Ok(i)
    }

    /// Adds an agent walking from `start` to `goal`. It gets a path at the next replan.
    pub fn add_agent(&mut self, start: Pos, goal: Pos) -> Result<AgentId, SimError> {
        self.check_cell(start)?;
        self.check_cell(goal)?;
        let id = self.next_id;
        self.next_id += 1;
        let arrived = start == goal;
        self.agents.insert(
            id,
            Agent {
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
            },
        );
        Ok(id)
    }

    /// Removes an agent; its goal's planner goes with its last agent.
    pub fn remove_agent(&mut self, id: AgentId) -> Result<(), SimError> {
        let agent = self.agents.remove(&id).ok_or(SimError::NoSuchAgent(id))?;
        self.fresh_paths.remove(&id);
        self.drop_group_if_unused(agent.goal);
        Ok(())
    }

    /// Removes every agent and planner.
    pub fn clear_agents(&mut self) {
        self.agents.clear();
        self.groups.clear();
        self.fresh_paths.clear();
        self.changed.clear();
    }

    /// Sends an agent to a new goal.
    pub fn set_goal(&mut self, id: AgentId, goal: Pos) -> Result<(), SimError> {
        self.check_cell(goal)?;
        let agent = self.agents.get_mut(&id).ok_or(SimError::NoSuchAgent(id))?;
        let old = std::mem::replace(&mut agent.goal, goal);
        agent.status = if agent.pos == goal {
            AgentStatus::Arrived
        } else {
            AgentStatus::Walking
        };
        agent.remaining = (agent.pos == goal).then_some(0);
        agent.next = None;
        self.drop_group_if_unused(old);
        Ok(())
    }

    fn drop_group_if_unused(&mut self, goal: Pos) {
        if !self.agents.values().any(|a| a.goal == goal)
            && let Ok(g) = self.grid.index(goal)
        {
            self.groups.remove(&g);
        }
    }

    /// Whether an edit of `pos` would be refused, and why.
    pub fn check_edit(&self, pos: Pos) -> Result<usize, SimError> {
        let i = self.grid.index(pos)?;
        for a in self.agents.values() {
            if a.pos == pos {
                return Err(SimError::HoldsAgent { pos, agent: a.id });
            }
        }
        for a in self.agents.values() {
            if a.goal == pos {
                return Err(SimError::IsGoal { pos, agent: a.id });
            }
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
        self.changed.push(i);
        Ok(true)
    }

    /// Sets every wall to plain ground (cells under agents are never walls).
    pub fn clear_walls(&mut self) {
        for i in 0..self.grid.len() {
            if self.grid.weight(i) == 0 {
                let p = self.grid.pos(i);
                self.grid.set(p, Terrain::FREE).expect("in range");
                self.changed.push(i);
            }
        }
    }

    /// Lets every planner repair, then updates each agent's status, remaining cost and next
    /// cell.
    pub fn replan(&mut self) -> TickStats {
        let mut stats = TickStats {
            replans: 1,
            ..TickStats::default()
        };
        self.expanded.clear();
        let started = Instant::now();
        if self.config.algorithm.is_incremental() {
            self.replan_incremental(&mut stats);
        } else {
            self.replan_fresh(&mut stats);
        }
        stats.micros = started.elapsed().as_micros() as u64;
        self.changed.clear();
        if self.config.measure_baseline {
            let t = Instant::now();
            for a in self.agents.values() {
                if a.status == AgentStatus::Arrived {
                    continue;
                }
                if let Ok(r) = self.baseline_space.search(
                    &self.grid,
                    a.pos,
                    a.goal,
                    Mode::AStar,
                    self.config.connectivity,
                    self.config.heuristic,
                    None,
                ) {
                    stats.baseline_expanded += r.stats.expanded;
                }
            }
            stats.baseline_micros = t.elapsed().as_micros() as u64;
        }
        self.last = stats;
        self.total += stats;
        stats
    }

    fn replan_incremental(&mut self, stats: &mut TickStats) {
        let conn = self.config.connectivity;
        // Create planners for new goals.
        for a in self.agents.values() {
            let g = self.grid.index(a.goal).expect("goals are checked on entry");
            if !self.groups.contains_key(&g) {
                let planner: Box<dyn GoalPlanner> = match self.config.algorithm {
                    Algorithm::DStar => {
                        Box::new(DStar::new(&self.grid, a.goal, conn).expect("goal in range"))
                    }
                    _ => Box::new(
                        DStarLite::new(&self.grid, a.goal, conn, self.config.heuristic)
                            .expect("goal in range"),
                    ),
                };
                self.groups.insert(g, planner);
            }
        }
        // (goal, start) of every agent still walking, grouped by goal in one sort.
        let mut pairs: Vec<(usize, usize)> = self
            .agents
            .values()
            .filter(|a| a.status != AgentStatus::Arrived)
            .map(|a| {
                let g = self.grid.index(a.goal).expect("in range");
                (g, self.grid.index(a.pos).expect("in range"))
            })
            .collect();
        pairs.sort_unstable();
        let mut rest = &pairs[..];
        for (&goal, planner) in self.groups.iter_mut() {
            let n = rest.iter().take_while(|&&(g, _)| g == goal).count();
            self.starts.clear();
            self.starts.extend(rest[..n].iter().map(|&(_, s)| s));
            rest = &rest[n..];
            planner.set_starts(&self.grid, &self.starts);
            if !self.changed.is_empty() {
                planner.cells_changed(&self.grid, &self.changed);
            }
            stats.search += planner.compute(&self.grid);
            self.expanded.extend_from_slice(planner.last_expanded());
        }
        for a in self.agents.values_mut() {
            let pos = self.grid.index(a.pos).expect("in range");
            let goal = self.grid.index(a.goal).expect("in range");
            let planner = &self.groups[&goal];
            Self::settle(a, || {
                let cost = planner.cost_to_goal(pos);
                let next = planner.next_step(&self.grid, pos)?;
                (cost != INFINITY).then(|| (cost, self.grid.pos(next)))
            });
        }
    }

    fn replan_fresh(&mut self, stats: &mut TickStats) {
        let mode = match self.config.algorithm {
            Algorithm::Dijkstra => Mode::Dijkstra,
            _ => Mode::AStar,
        };
        self.fresh_paths.clear();
        for a in self.agents.values_mut() {
            if a.pos == a.goal {
                Self::settle(a, || None);
                continue;
            }
            let mut closed = Vec::new();
            let r = self
                .space
                .search(
                    &self.grid,
                    a.pos,
                    a.goal,
                    mode,
                    self.config.connectivity,
                    self.config.heuristic,
                    Some(&mut closed),
                )
                .expect("agents are on the map");
            stats.search += r.stats;
            let width = self.grid.width();
            self.expanded.extend(closed.iter().filter_map(|e| match e {
                TraceEvent::Closed(p) => Some(p.y * width + p.x),
                TraceEvent::Opened(_) => None,
            }));
            let path = r.path;
            Self::settle(a, || {
                let p = path.as_ref()?;
                Some((p.cost, *p.cells.get(1)?))
            });
            if let Some(p) = path {
                self.fresh_paths.insert(a.id, p);
            }
        }
    }

    /// Sets status, remaining and next from the planner's answer `(cost, next cell)`.
    fn settle(a: &mut Agent, answer: impl FnOnce() -> Option<(Cost, Pos)>) {
        if a.pos == a.goal {
            a.status = AgentStatus::Arrived;
            a.remaining = Some(0);
            a.next = None;
            return;
        }
        match answer() {
            Some((cost, next)) => {
                a.status = AgentStatus::Walking;
                a.remaining = Some(cost);
                a.next = Some(next);
            }
            None => {
                a.status = AgentStatus::NoPath;
                a.remaining = None;
                a.next = None;
            }
        }
    }

    /// Moves every agent that has a path one cell along it.
    pub fn advance(&mut self) {
        let conn = self.config.connectivity;
        for a in self.agents.values_mut() {
            let Some(next) = a.next.take() else {
                continue;
            };
            let from = self.grid.index(a.pos).expect("in range");
            let to = self.grid.index(next).expect("in range");
            let step = self
                .grid
                .move_cost(from, to, conn)
                .expect("a planned move is legal on the grid it was planned on");
            a.pos = next;
            a.remaining = a.remaining.map(|r| r.saturating_sub(step));
            if a.pos == a.goal {
                a.status = AgentStatus::Arrived;
                a.remaining = Some(0);
            }
            if let Some(p) = self.fresh_paths.get_mut(&a.id)
                && p.cells.len() > 1
            {
                p.cells.remove(0);
                p.cost = p.cost.saturating_sub(step);
            }
        }
        self.tick += 1;
    }

    /// One whole tick after the agents due now were added: apply `edits`, replan, move.
    pub fn tick(&mut self, edits: &[(Pos, Terrain)]) -> TickReport {
        let mut refused = Vec::new();
        for &(pos, terrain) in edits {
            if let Err(e) = self.edit(pos, terrain) {
                refused.push((pos, e));
            }
        }
        let stats = self.replan();
        self.advance();
        TickReport { refused, stats }
    }

    /// The agent's current planned path, from its cell to its goal. Valid between ticks too:
    /// after [`advance`](Self::advance) it starts from the cell the agent moved to.
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
            self.groups.get(&goal)?.path(&self.grid, from)
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
            let p = self.groups.get(&goal)?;
            Some((0..self.grid.len()).map(|i| p.cost_to_goal(i)).collect())
        } else {
            let mut space = SearchSpace::new();
            space
                .search(
                    &self.grid,
                    a.pos,
                    a.goal,
                    Mode::AStar,
                    self.config.connectivity,
                    self.config.heuristic,
                    None,
                )
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
    /// for replaying it step by step (A* for D* Lite and A*, Dijkstra otherwise).
    pub fn explain(&self, id: AgentId) -> Option<(Vec<TraceEvent>, Option<Path>)> {
        let a = self.agents.get(&id)?;
        let mode = match self.config.algorithm {
            Algorithm::Dijkstra | Algorithm::DStar => Mode::Dijkstra,
            _ => Mode::AStar,
        };
        let mut trace = Vec::new();
        let r = SearchSpace::new()
            .search(
                &self.grid,
                a.pos,
                a.goal,
                mode,
                self.config.connectivity,
                self.config.heuristic,
                Some(&mut trace),
            )
            .ok()?;
        Some((trace, r.path))
    }
}
