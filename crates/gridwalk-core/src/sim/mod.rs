//! The simulation: agents, goals shared by groups, edits and ticks.
//!
//! This is the one place that defines what a tick does, for the game and for
//! `gridwalk-cli simulate` alike:
//! 1. the tick's settings apply: the dynamic world's ([`Simulation::set_dynamic`]), then the
//!    sensor range ([`Simulation::set_sensor_range`]);
//! 2. agents due this tick appear ([`Simulation::add_agent`]);
//! 3. the tick's edits apply ([`Simulation::edit`]); an edit on a cell that holds an agent or
//!    is any agent's goal is refused;
//! 4. the planners repair ([`Simulation::replan`]); with a sensor range, every agent first
//!    senses around it and the planners plan on what the agents know (see [`knowledge`]);
//! 5. every agent that has a path moves exactly one cell along it ([`Simulation::advance`]).
//!
//! [`Timeline::apply`](crate::scenario::timeline::Timeline::apply) applies steps 1–3 of a
//! scenario in this order.
//!
//! At the end of [`advance`](Simulation::advance), agents that stand on their goal follow
//! their [`OnArrival`] policy (in id order), then the dynamic world, if on, drops or lifts its
//! walls (see [`living`]); planners learn of those edits at the next replan. Callers that
//! drive the phases themselves (the game, `gridwalk-cli simulate`) call
//! [`edit`](Simulation::edit) or [`edit_batch`](Simulation::edit_batch), then
//! [`step`](Simulation::step), exactly as [`tick`](Simulation::tick) does. `step` is
//! `replan` then `advance` in one pass (`tests/it/tick_paths.rs` holds the two equal); the
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
//! With an incremental algorithm (D* Lite, D*, MPGAA*) agents that share a goal share one
//! planner, created when the first agent heads there and dropped with the last. Adding,
//! removing or retargeting an agent touches only the groups of its old and new goal. A* and
//! Dijkstra plan from scratch for every agent, every tick.
//!
//! # The routes of a tick
//!
//! Every replan first senses (with a sensor range, see [`knowledge`]); then a tick takes one
//! of five routes. Crowd mode ([`SimConfig::crowd`], the game's default) is first below: its
//! moves come from the crowd's step rule, not from the plans, so its test holds what it
//! promises instead (one agent a cell, no swap or crossing, exact guidance). The plain route is
//! [`replan`](Simulation::replan) then [`advance`](Simulation::advance) on an incremental
//! algorithm with no budget; each of the three others must leave every agent as the plain one
//! would, and a test holds it so:
//!
//! | route | taken when | replan | moves | held equal by (`tests/it/`) |
//! |---|---|---|---|---|
//! | crowd | crowd mode is on (any algorithm, any budget) | the algorithm's route below, each compute told the cells around its agents ([`GoalPlanner::set_exact`](crate::GoalPlanner::set_exact)); then crowd mode's own planners for the algorithms that do not honour it (`crowd_step.rs`) | `crowd_advance` (`crowd_step.rs`): separate, admit, the step rule | `crowd.rs` `no_two_agents_share_a_cell_and_guidance_is_exact` (the step rule's invariants, guidance = Dijkstra) |
//! | plain | `replan` then `advance`; or `step` while a baseline is measured | `replan_incremental` (`replan.rs`): every group computes, then large groups settle in agent order | `advance` | `sim.rs` `every_algorithm_keeps_every_agent_optimal` and `sim_api.rs` (costs = Dijkstra) |
//! | one pass | `step` and `tick` (the game, `gridwalk-cli simulate`) | the same, but large groups' agents are left unsettled | `settle_and_advance` (`settle.rs`) | `tick_paths.rs` `one_pass_moves_agents_exactly_as_replan_then_advance` (twins identical after every call) |
//! | rationed | a planning budget is set, or the memory budget is tight | `replan_budgeted` → `serve` (`replan_budgeted.rs`): groups in serving order, each settled at once | `advance` | `budgets.rs` `an_exhausted_memory_budget_changes_no_cost` and `plans_are_optimal_under_any_budgets_and_all_end` |
//! | from scratch | A*, Dijkstra, greedy | `replan_from_scratch` (`replan_from_scratch.rs`): a search per agent | `advance` | `sim.rs` `every_algorithm_keeps_every_agent_optimal` (costs = Dijkstra; greedy: legal paths) |
//!
//! None are merged:
//! - one pass and plain: the plain route stays for `replan` and `advance` called apart (a
//!   first plan before anyone moves, and callers that look at plans before the moves); one
//!   pass spares the second read of every agent in large groups, a part of the large tick's
//!   speed-up when it came (see the benchmark history), so `step` cannot fall back to plain;
//! - rationed and plain: `serve` visits groups in serving order (the ready ones, then from
//!   the cursor on, so a new goal's group after the old ones), builds planners lazily, may
//!   drop them, and settles each group's agents right after its compute; taking it with no
//!   budget would change the order of the computes, and with it the `--trace` lines, and lose
//!   the large groups' one pass;
//! - from scratch keeps no planner per goal, so there is no group to serve;
//! - crowd and the others: the step rule moves every agent at once (a push moves an agent off
//!   its plan), so no agent is left unsettled for the move phase, and the crowd's plan part
//!   follows whichever replan route the algorithm and budgets choose.
//!
//! A `Simulation` is the grid, its configuration, the phases of a tick and a few counters,
//! around owned parts, each with its invariants in its own module. The data of the parts
//! (which this file holds) sit in files that import nothing of the phases: `agents` (the
//! agents and their per-cell counts), `goal_groups` (the planners by goal, their pool and the
//! replan's scratch, each goal's `group`), `pockets` (who can reach whom), `history` (kept
//! computes and tracing), `from_scratch` (the from-scratch algorithms' paths and buffers),
//! [`living`] (arrival policies, seeds and the dynamic world), [`knowledge`] (the sensor
//! range and the true map while the agents know only what they sensed), `budget` (the
//! budgets), `rationing` (where planning stands against them) and `crowd_phase` (crowd mode's
//! data, while it is on). The phases lend the parts to each other as disjoint borrows:
//! sensing (in `sense.rs`), [`replan`](Simulation::replan) (in `replan.rs`,
//! `replan_budgeted.rs` within the budgets, or `replan_from_scratch.rs` for A* and Dijkstra),
//! then the move phase (in `settle.rs`), or in crowd mode the crowd's step (in
//! `crowd_step.rs`, with the real-time search of `crowd_search.rs`), then the arrivals and
//! dynamic world (in `living_phase.rs`). The settings and queries of the history are in
//! `history_settings.rs`; the queries that answer for any algorithm (an agent's path, its
//! next cell, its cost field) in `queries.rs`.

use crate::grid::{Grid, Pos, Terrain};
use crate::planner::CellInfo;

mod agents;
mod budget;
mod config;
mod crowd_members;
mod crowd_phase;
mod crowd_search;
mod crowd_step;
mod crowd_turns;
mod error;
mod from_scratch;
mod goal_groups;
mod group;
mod history;
mod history_settings;
mod id;
pub mod knowledge;
pub mod living;
mod living_phase;
mod placeholder;
mod pockets;
mod queries;
mod rationing;
mod replan;
mod replan_budgeted;
mod replan_from_scratch;
mod report;
mod sense;
mod separate;
mod settle;
mod tracking;

pub use agents::{Agent, AgentId, AgentStatus, Setup};
pub use budget::{Budget, MAX_PLANNER_MEMORY, MIN_PLANNER_MEMORY, format_memory, parse_memory};
pub use config::{BASELINE_MAX_AGENTS, SimConfig};
pub use crowd_phase::{CrowdStats, STUCK_TICKS};
pub use crowd_search::{ENGAGE_TICKS, SearchStep, Went};
pub use error::SimError;
pub use history::{HISTORY_BUDGET, MAX_RUN_STEPS, RunSource, SearchRun};
pub use knowledge::{Discoveries, MAX_SENSOR_RANGE};
pub use living::{
    AGENTS_PER_DESTINATION, CROWD_PLAN_CELLS, Doors, DynamicWorld, MAX_DESTINATIONS, OnArrival,
    choose_destinations, crowd_destinations,
};
pub use report::{ComputeRecord, TickOutcome, TickStats};
pub use separate::separate;

/// The most expanded cells a replan keeps for
/// [`Simulation::last_expanded`](Simulation::last_expanded), its first ones: 4 MiB. A
/// first replan of thousands of agents on a map of millions of cells expands billions of
/// cells, and the list is for drawing, not for counting ([`TickStats`]
/// counts them all).
pub const MAX_EXPANDED_KEPT: usize = 1 << 20;

/// Appends `cells` to a replan's list of expanded cells, up to [`MAX_EXPANDED_KEPT`].
fn keep_expanded(list: &mut Vec<u32>, cells: impl IntoIterator<Item = u32>) {
    let room = MAX_EXPANDED_KEPT.saturating_sub(list.len());
    list.extend(cells.into_iter().take(room));
}

use agents::Agents;
use crowd_phase::CrowdPhase;
use from_scratch::FromScratch;
use goal_groups::GoalGroups;
use group::Group;
use history::History;
use knowledge::Knowledge;
use living::SeededWorld;
use pockets::Pockets;
use rationing::Rationing;

/// Agents on a grid, their planners and the tick loop. See the module docs.
pub struct Simulation {
    grid: Grid,
    config: SimConfig,
    agents: Agents,
    groups: GoalGroups,
    from_scratch: FromScratch,
    pockets: Pockets,
    history: History,
    seeded: SeededWorld,
    /// Cells changed since the last replan.
    changed: Vec<usize>,
    /// Ticks completed.
    tick: u64,
    /// The work of the last replan, and of all of them.
    last: TickStats,
    total: TickStats,
    /// The cells expanded by the last replan, over all planners, in order (at most
    /// [`MAX_EXPANDED_KEPT`]).
    expanded: Vec<u32>,
    /// The sensor range and the true map while the agents know only what they sensed (then
    /// `grid` is the known map).
    knowledge: Knowledge,
    /// The memory and planning budgets, and where planning stands against them.
    rationing: Rationing,
    /// Crowd mode's phase and its data, while it is on.
    crowd: Option<CrowdPhase>,
    /// The most tries a tick of crowd mode's real-time search makes.
    crowd_budget: usize,
}

impl Simulation {
    /// A simulation on `grid` with no agents.
    pub fn new(grid: Grid, config: SimConfig) -> Simulation {
        Simulation {
            agents: Agents::new(grid.len()),
            grid,
            config,
            groups: GoalGroups::default(),
            from_scratch: FromScratch::default(),
            pockets: Pockets::default(),
            history: History::default(),
            seeded: SeededWorld::default(),
            changed: Vec::new(),
            tick: 0,
            last: TickStats::default(),
            total: TickStats::default(),
            expanded: Vec::new(),
            knowledge: Knowledge::default(),
            rationing: Rationing::default(),
            crowd: None,
            crowd_budget: crate::mapf::DEFAULT_BUDGET,
        }
        .with_crowd_synced()
    }

    fn with_crowd_synced(mut self) -> Simulation {
        self.sync_crowd();
        self
    }

    /// What the planner serving agent `id` holds for `cell`.
    pub fn inspect(&self, id: AgentId, cell: Pos) -> Option<CellInfo> {
        let i = self.grid.index(cell).ok()?;
        self.group_of(id)?.planner.get().inspect(&self.grid, i)
    }

    fn group_of(&self, id: AgentId) -> Option<&Group> {
        let a = self.agents.slab.get(&id)?;
        self.groups.by_goal.get(&self.grid.index(a.goal).ok()?)
    }

    /// The grid: the true map, which edits change (with a sensor range, the planners plan on
    /// [`known`](Self::known) instead).
    pub fn grid(&self) -> &Grid {
        self.knowledge.truth(&self.grid)
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
        self.sync_crowd();
        if replan {
            self.forget_plans();
        }
    }

    /// Drops every planner and plan: they plan again, on the map they now see, at the next
    /// replan.
    fn forget_plans(&mut self) {
        self.groups.drop_all(&mut self.history);
        self.from_scratch.paths.clear();
        self.from_scratch.space.forget_paused();
        // Without the pending changes, a step planned before them would pass unchecked.
        self.changed.clear();
        self.agents.forget_steps();
        self.agents.rescan_goals = true;
        self.pockets.invalidate();
    }

    /// Ticks completed.
    pub fn tick_count(&self) -> u64 {
        self.tick
    }

    /// The agents, by id.
    pub fn agents(&self) -> impl DoubleEndedIterator<Item = &Agent> + ExactSizeIterator {
        self.agents.slab.values()
    }

    /// The agents waiting to enter (crowd mode: their start was taken), in id order: id,
    /// start, goal and what each does on arrival. They are not among [`Self::agents`].
    pub fn entering(&self) -> impl Iterator<Item = (AgentId, Pos, Pos, OnArrival)> + '_ {
        (self.agents.entering.iter()).map(|e| (e.id, e.start.0, e.goal.0, e.setup.on_arrival))
    }

    /// Number of agents.
    pub fn agent_count(&self) -> usize {
        self.agents.slab.len()
    }

    /// One agent.
    pub fn agent(&self, id: AgentId) -> Option<&Agent> {
        self.agents.slab.get(&id)
    }

    /// Number of planners (goal groups) alive; 0 for the from-scratch algorithms.
    pub fn planner_count(&self) -> usize {
        self.groups.by_goal.len()
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

    /// The cells expanded by the last replan, over all planners, in order: at most the first
    /// [`MAX_EXPANDED_KEPT`] of them.
    pub fn last_expanded(&self) -> &[u32] {
        &self.expanded
    }

    /// Bytes held by all planners, with what each goal keeps beside its planner (the memo of
    /// its moves, its agents per cell, its deferred edits): what the memory budget counts.
    pub fn planner_memory(&self) -> usize {
        let crowd = self.crowd.as_ref().map_or(0, CrowdPhase::bytes);
        self.groups
            .by_goal
            .values()
            .map(|g| g.bytes())
            .sum::<usize>()
            + crowd
    }

    fn check_cell(&self, pos: Pos) -> Result<usize, SimError> {
        let i = self.grid.index(pos)?;
        if self.grid().weight(i) == 0 {
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
        let setup = Setup {
            on_arrival,
            ..Setup::default()
        };
        self.add_agent_setup(start, goal, setup)
    }

    /// Adds an agent walking from `start` to `goal` that behaves as `setup` says: its arrival
    /// policy, its first facing (it turns while agents turn, [`SimConfig::turns`]) and a
    /// patrol's route, whose cells must be on the map.
    pub fn add_agent_setup(
        &mut self,
        start: Pos,
        goal: Pos,
        setup: Setup,
    ) -> Result<AgentId, SimError> {
        let s = self.check_cell(start)?;
        let g = self.check_cell(goal)?;
        if let Some(&off) = setup.route.iter().find(|&&p| !self.grid.contains(p)) {
            self.grid.index(off)?;
        }
        let how = setup;
        if self.crowd.is_some() && self.agents.occupied[s] > 0 {
            // Its start is taken: it enters under this id as soon as the cell is free.
            return Ok((self.agents).wait_to_enter((start, s), (goal, g), how));
        }
        let id = self.agents.insert((start, s), (goal, g), how);
        if let Some(group) = self.groups.by_goal.get_mut(&g) {
            group.enter(s);
        }
        Ok(id)
    }

    /// Removes an agent; its goal's planner goes with its last agent.
    pub fn remove_agent(&mut self, id: AgentId) -> Result<(), SimError> {
        if self.agents.remove_entering(id) {
            return Ok(());
        }
        let (_, place) = self.agents.remove(id)?;
        let (cell, g) = (place.cell as usize, place.goal as usize);
        if let Some(group) = self.groups.by_goal.get_mut(&g) {
            group.leave(cell);
        }
        self.from_scratch.paths.remove(&id);
        (self.groups).drop_if_unused(g, self.agents.goals[g], &mut self.history);
        Ok(())
    }

    /// Removes every agent and planner.
    pub fn clear_agents(&mut self) {
        self.agents.clear();
        self.groups.drop_all(&mut self.history);
        self.from_scratch.paths.clear();
        self.changed.clear();
    }

    /// Sends an agent to a new goal.
    pub fn set_goal(&mut self, id: AgentId, goal: Pos) -> Result<(), SimError> {
        let g = self.check_cell(goal)?;
        let (_, old_cell, cell) = self.agents.retarget(id, (goal, g))?;
        if let Some(group) = self.groups.by_goal.get_mut(&old_cell) {
            group.leave(cell);
        }
        if let Some(group) = self.groups.by_goal.get_mut(&g) {
            group.enter(cell);
        }
        let goals = self.agents.goals[old_cell];
        (self.groups).drop_if_unused(old_cell, goals, &mut self.history);
        Ok(())
    }

    /// Whether an edit of `pos` would be refused, and why. O(1) when it is not: per-cell
    /// counts of agents and goals say so; only a refusal looks up which agent. In crowd mode
    /// the starts and goals of the agents waiting to enter are refused too (a scan of them).
    pub fn check_edit(&self, pos: Pos) -> Result<usize, SimError> {
        let i = self.grid.index(pos)?;
        self.agents.check_edit(pos, i)?;
        Ok(i)
    }

    /// Sets `pos` to `terrain`, unless it holds an agent or is a goal. Returns whether the
    /// cell changed. Planners learn of it at the next [`replan`](Self::replan).
    pub fn edit(&mut self, pos: Pos, terrain: Terrain) -> Result<bool, SimError> {
        let i = self.check_edit(pos)?;
        if let Some(done) = self.edit_truth(pos, i, terrain) {
            return done;
        }
        let old = self.grid.set(pos, terrain)?;
        if old == terrain {
            return Ok(false);
        }
        let was_wall = old == Terrain::Wall;
        (self.pockets).edited(&self.grid, i, was_wall, terrain == Terrain::Wall);
        if was_wall {
            // A dropped wall taken away by any edit is no longer the dynamic world's to lift.
            self.seeded.forget_door(pos);
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
        let grid = self.grid();
        let walls: Vec<(Pos, Terrain)> = (0..grid.len())
            .filter(|&i| grid.weight(i) == 0)
            .map(|i| (grid.pos(i), Terrain::FREE))
            .collect();
        self.edit_batch(&walls).0
    }

    /// Lets every planner repair, then updates each agent's status, remaining cost and next
    /// cell.
    pub fn replan(&mut self) -> TickStats {
        self.replan_deferring(false)
    }

    /// One whole tick after the agents due now were added: apply `edits`, replan, move.
    pub fn tick(&mut self, edits: &[(Pos, Terrain)]) -> TickOutcome {
        let mut refused = Vec::new();
        for &(pos, terrain) in edits {
            if let Err(e) = self.edit(pos, terrain) {
                refused.push((pos, e));
            }
        }
        let stats = self.step();
        TickOutcome { refused, stats }
    }

    /// A tick after its edits: every planner repairs, then every agent with a path moves one
    /// cell, arrived agents follow their policy and the dynamic world acts. Exactly
    /// [`replan`](Self::replan) then [`advance`](Self::advance), but faster: unless a baseline
    /// is measured, the agents of large groups are settled by their memo as they move, in one
    /// pass over the agents instead of two. The game, `gridwalk-cli simulate` and
    /// [`tick`](Self::tick) all take this path.
    pub fn step(&mut self) -> TickStats {
        // The baseline plans from settled agents: with one due, they are settled first. Crowd
        // mode moves every agent by its step rule: none is left unsettled, and where the
        // groups' planners guide it, their costs are all it reads (no next move is looked up).
        self.groups.costs_only = self.crowd.is_some() && self.config.algorithm.honours_exact();
        let stats = self.replan_deferring(self.crowd.is_none() && !self.baseline_due());
        self.groups.costs_only = false;
        match std::mem::take(&mut self.groups.settle_pending) {
            true => self.settle_and_advance(),
            false => self.advance(),
        }
        stats
    }
}
