//! The queries that answer for any algorithm: an agent's path and next cell, its cost
//! field, and the searches from scratch that explain it.

use super::Simulation;
use super::agents::{Agent, AgentId, AgentStatus};
use crate::cost::{Cost, INFINITY};
use crate::grid::Pos;
use crate::path::Path;
use crate::planner::GoalPlanner;
use crate::search::best_first::{Mode, SearchSpace};
use crate::trace::Trace;

/// Where an agent's plan lives ([`Simulation::path`], [`Simulation::next_cell`]).
enum Plan<'a> {
    /// Its group's planner, and the agent's cell.
    Planner(&'a dyn GoalPlanner, usize),
    /// The path kept for it, if any.
    Kept(Option<&'a Path>),
}

impl Simulation {
    /// The agent's current planned path, from its cell to its goal. Valid between ticks too:
    /// after [`advance`](Self::advance) it starts from the cell the agent moved to. It is the
    /// plan of the last replan: while [`changes_pending`](Self::changes_pending), an edit may
    /// cross it until the next replan repairs it.
    pub fn path(&self, id: AgentId) -> Option<Path> {
        let a = self.agents.slab.get(&id)?;
        if a.pos == a.goal {
            return Some(Path {
                cells: vec![a.pos],
                cost: 0,
            });
        }
        match self.plan_of(id, a)? {
            Plan::Planner(p, from) => p.path(&self.grid, from),
            Plan::Kept(path) => path.cloned(),
        }
    }

    /// The cell agent `id`'s plan steps to next: the second cell of [`path`](Self::path),
    /// found without walking the rest (its planner's next move, or its kept path's next
    /// cell), so it is cheap enough to ask every tick. `None` on its goal, while it plans or
    /// has no path, and for an unknown id. Like `path`, it is the last replan's plan; in
    /// crowd mode the step rule decides the move and may hold the agent or send it aside.
    pub fn next_cell(&self, id: AgentId) -> Option<Pos> {
        let a = self.agents.slab.get(&id)?;
        if a.pos == a.goal {
            return None;
        }
        match self.plan_of(id, a)? {
            Plan::Planner(p, from) => p.next_step(&self.grid, from).map(|n| self.grid.pos(n)),
            Plan::Kept(path) => path?.cells.get(1).copied(),
        }
    }

    /// Where agent `a` (of id `id`, off its goal) has its plan: its group's planner with the
    /// agent's cell, or the path kept for it (from-scratch algorithms, or a group whose
    /// planner was dropped to keep the memory budget). `None` while it plans or has no path.
    fn plan_of(&self, id: AgentId, a: &Agent) -> Option<Plan<'_>> {
        if matches!(a.status, AgentStatus::NoPath | AgentStatus::Planning) {
            return None;
        }
        let kept = || Plan::Kept(self.from_scratch.paths.get(&id));
        if !self.config.algorithm.is_incremental() {
            return Some(kept());
        }
        let group = self.groups.by_goal.get(&self.grid.index(a.goal).ok()?)?;
        if group.unbuilt {
            return Some(kept());
        }
        Some(Plan::Planner(
            group.planner.get(),
            self.grid.index(a.pos).ok()?,
        ))
    }

    /// The selected agent's cost field, one value per cell ([`INFINITY`] where unknown): its
    /// planner's costs to the goal, or for the from-scratch algorithms the costs from the
    /// agent found by an A* from scratch.
    pub fn cost_field(&self, id: AgentId) -> Option<Vec<Cost>> {
        let a = self.agents.slab.get(&id)?;
        if self.config.algorithm.is_incremental() {
            let goal = self.grid.index(a.goal).ok()?;
            let p = self.groups.by_goal.get(&goal)?.planner.get();
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

    /// A from-scratch search from the agent's cell to its goal with every open and close recorded,
    /// for replaying it step by step: Dijkstra for Dijkstra and D*, A* otherwise (the ghost of
    /// what planning from scratch costs).
    pub fn explain(&self, id: AgentId) -> Option<(Trace, Option<Path>)> {
        let a = self.agents.slab.get(&id)?;
        self.search_from_scratch(a, self.config.algorithm.fresh_mode())
    }

    /// The A* from scratch from the agent's cell to its goal on the current map, recorded.
    pub fn astar_from_scratch(&self, id: AgentId) -> Option<(Trace, Option<Path>)> {
        self.search_from_scratch(self.agents.slab.get(&id)?, Mode::AStar)
    }

    fn search_from_scratch(&self, a: &Agent, mode: Mode) -> Option<(Trace, Option<Path>)> {
        let mut trace = Trace::default();
        let r = SearchSpace::new()
            .search(&self.grid, &self.request(a, mode), Some(&mut trace))
            .ok()?;
        Some((trace, r.path))
    }
}
