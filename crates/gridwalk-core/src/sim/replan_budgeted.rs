//! The rationed replan, how a tick keeps to the [`Budget`]: rationing memory and planning
//! (where planning stands against the budgets is [`Rationing`](super::rationing::Rationing)).
//!
//! Past the memory budget, the planners least recently used are dropped (their goals keep
//! their groups, with a [`PlaceholderPlanner`](super::placeholder::PlaceholderPlanner)) and
//! built again from scratch when their agents need them; a rebuilt planner's costs are exact,
//! so the budget changes the work, never a cost. The expansion budget spreads a long search
//! over several ticks: an agent whose plan is not ready waits on its cell as
//! [`AgentStatus::Planning`](super::AgentStatus::Planning). See `replan.rs` for the order in
//! which goals are served.

use std::collections::VecDeque;

use super::agents::{Agent, AgentCells, settle, wait};
use super::budget::{Budget, WORST_BYTES_PER_CELL};
use super::from_scratch::Paths;
use super::goal_groups::GoalGroups;
use super::group::{Group, clear_learnt};
use super::replan::{Computes, refresh_memo};
use super::settle::settle_member;
use super::{SimConfig, Simulation, TickStats};
use crate::cost::Cost;
use crate::grid::{Connectivity, Grid, Pos};
use crate::path::Path;
use crate::planner::{GoalPlanner, PlannerPool, Progress};

impl Simulation {
    /// The budgets.
    pub fn budget(&self) -> Budget {
        self.rationing.budget
    }

    /// Sets the budgets; they apply from the next replan. Plans already made stay.
    pub fn set_budget(&mut self, budget: Budget) {
        self.rationing.budget = budget;
        // New planners choose their store by it; dropped planners kept for reuse hold at most
        // an eighth of it.
        self.groups.pool.set_budget(budget.planner_memory);
    }

    /// Agents the last replan left waiting for their plan
    /// ([`AgentStatus::Planning`](super::AgentStatus::Planning)).
    pub fn backlog(&self) -> usize {
        self.rationing.backlog
    }

    /// Planners dropped to keep the memory budget so far (each is built again when needed).
    pub fn planners_dropped(&self) -> u64 {
        self.rationing.dropped
    }

    /// Bytes held by the dropped planners kept for reuse.
    pub fn pool_memory(&self) -> usize {
        self.groups.pool.bytes()
    }

    /// Whether the next replan must keep to the memory budget goal by goal: its groups (those
    /// alive and those its new goals need) could hold more than three quarters of the budget,
    /// each at most [`WORST_BYTES_PER_CELL`] per cell. Cheap when they cannot.
    pub(super) fn memory_tight(&self) -> bool {
        let budget = self.rationing.budget.planner_memory / 4 * 3;
        let cells = self.grid.len();
        let new = match self.agents.rescan_goals {
            true => self.agents.slab.len(),
            false => self.agents.new_goals.len(),
        };
        let worst = |groups: usize| groups.saturating_mul(cells * WORST_BYTES_PER_CELL);
        if worst(self.groups.by_goal.len() + new) <= budget {
            return false;
        }
        // An unbuilt planner is built when its agents walk: counted at its worst too.
        let (held, unbuilt) = (self.groups.by_goal.values())
            .fold((0, 0), |(b, u), g| (b + g.bytes(), u + g.unbuilt as usize));
        held.saturating_add(worst(new + unbuilt)) > budget
    }
}

impl Simulation {
    /// Builds the planner of every group whose planner is unbuilt, before a replan that does
    /// not keep to the budgets.
    pub(super) fn build_all(&mut self) {
        let trace = self.history.planners_trace();
        let pool = &mut self.groups.pool;
        for (&goal, group) in self.groups.by_goal.iter_mut() {
            if group.unbuilt {
                build(pool, group, &self.grid, &self.config, goal, trace);
            }
        }
    }

    /// The computes of a budgeted replan, its starts and members listed: the groups whose last
    /// compute ended first (their repairs are small, and keep their agents walking), then the
    /// others, from the one the last replan left pending on; each with the expansions left.
    /// A group that gets none keeps its agents waiting, unbuilt ones stay unbuilt. After each
    /// compute, while the planners hold more than the memory budget, planners are dropped:
    /// first those of groups without walking agents, least recently used first, then those
    /// served already in this replan, in the order served, and last those left pending (never
    /// the one served now, nor the first pending, so that searches end in turn).
    pub(super) fn serve(&mut self, stats: &mut TickStats) {
        let budget = self.rationing.budget;
        let mut left = budget.plan_expansions.unwrap_or(u64::MAX);
        let trace = self.history.planners_trace();
        let (grid, config) = (&self.grid, &self.config);
        let GoalGroups {
            by_goal,
            pool,
            scratch,
            unbuilt,
            ..
        } = &mut self.groups;
        // The groups made or dropped here are unbuilt until served.
        *unbuilt = true;
        let mut groups: Vec<(usize, &mut Group)> =
            by_goal.iter_mut().map(|(&g, x)| (g, x)).collect();
        let (order, mut victims) = serving_order(&groups, &scratch.counts, self.rationing.cursor);
        let mut held: usize = groups.iter().map(|(_, g)| g.bytes()).sum();
        let (agents, places) = self.agents.slab.as_mut_slices();
        // Paths kept for the agents of dropped planners hold while the map does not change.
        let paths = &mut self.from_scratch.paths;
        if !self.changed.is_empty() {
            paths.clear();
        }
        // Kept paths hold at most a sixteenth of the budget; past it, a dropped planner's
        // agents wait for it to be built again.
        let room = budget.planner_memory / 16;
        let conn = config.connectivity;
        let mut computes = Computes {
            grid,
            changed: &self.changed,
            tick: self.tick,
            history: &mut self.history,
            expanded: &mut self.expanded,
            stats,
            exact_around: self.config.crowd.then_some(conn),
        };
        let (mut backlog, mut cursor, mut dropped) = (0, None, 0);
        for k in order {
            let count = scratch.counts[k] as usize;
            let members = &scratch.members[k];
            let (goal, group) = (groups[k].0, &mut *groups[k].1);
            if count == 0 {
                let before = group.bytes();
                computes.defer(group);
                held = (held + group.bytes()).saturating_sub(before);
                continue;
            }
            if group.unbuilt {
                if walk_on_kept(members, agents, places, paths, grid, conn) {
                    continue;
                }
                if left == 0 {
                    members.iter().for_each(|&i| wait(&mut agents[i as usize]));
                    backlog += count;
                    continue;
                }
                held -= group.bytes();
                for &i in members {
                    paths.remove(&agents[i as usize].id);
                }
                build(pool, group, grid, config, goal, trace);
                held += group.bytes();
            }
            let before = group.bytes();
            let (work, progress) = computes.run(goal, group, &scratch.starts[k], count, left);
            left = left.saturating_sub(work.expanded);
            refresh_memo(group, grid, count);
            held = (held + group.bytes()).saturating_sub(before);
            let queue = if settle_served(progress, members, agents, places, group, grid) {
                1
            } else {
                backlog += count;
                cursor.get_or_insert(goal);
                2
            };
            let (members, agents, places) = (&scratch.members, &*agents, &*places);
            let keep = |v: usize, p: &dyn GoalPlanner| {
                keep_paths(&members[v], agents, places, p, grid, paths, room)
            };
            let (limit, victims) = (budget.planner_memory, &mut victims);
            dropped += evict(victims, &mut groups, &mut held, limit, cursor, keep, pool);
            victims[queue].push_back(k);
        }
        self.rationing.backlog = backlog;
        self.rationing.cursor = cursor.unwrap_or(0);
        self.rationing.dropped += dropped;
    }
}

/// The order a budgeted replan serves `groups` in (the ready ones, then the others from the
/// goal `cursor` on, round), and the first of the orders the memory budget drops them in:
/// built groups nobody walks to, least recently used first (the served and the pending
/// join the other two as they are served).
fn serving_order(
    groups: &[(usize, &mut Group)],
    counts: &[u32],
    cursor: usize,
) -> (Vec<usize>, [VecDeque<usize>; 3]) {
    let n = groups.len();
    let first = groups.partition_point(|(g, _)| *g < cursor);
    let ready = |g: &Group| g.ready && !g.unbuilt;
    let mut order: Vec<usize> = (0..n).filter(|&k| ready(groups[k].1)).collect();
    order.extend((first..n).chain(0..first).filter(|&k| !ready(groups[k].1)));
    let mut idle: Vec<usize> = (0..n)
        .filter(|&k| counts[k] == 0 && !groups[k].1.unbuilt)
        .collect();
    idle.sort_by_key(|&k| groups[k].1.last_used);
    (
        order,
        [VecDeque::from(idle), VecDeque::new(), VecDeque::new()],
    )
}

/// Walks the `members` of a group whose planner was dropped after its last plan on along
/// their kept paths, if every one has a path that starts on its cell; `false` otherwise.
fn walk_on_kept(
    members: &[u32],
    agents: &mut [Agent],
    places: &[AgentCells],
    paths: &Paths,
    grid: &Grid,
    conn: Connectivity,
) -> bool {
    let kept = |&i: &u32| {
        let a = &agents[i as usize];
        (paths.get(&a.id)).is_some_and(|p| p.cells.first() == Some(&a.pos))
    };
    if !members.iter().all(kept) {
        return false;
    }
    for &i in members {
        let a = &mut agents[i as usize];
        let cell = places[i as usize].cell as usize;
        let path = paths.get(&a.id);
        settle(a, || walk_on(path?, grid, cell, conn));
    }
    true
}

/// After a group's compute: its members move on its plan when the compute ended (`true`),
/// or wait on their cells for the next tick's.
fn settle_served(
    progress: Progress,
    members: &[u32],
    agents: &mut [Agent],
    places: &[AgentCells],
    group: &mut Group,
    grid: &Grid,
) -> bool {
    group.ready = progress == Progress::Done;
    if !group.ready {
        members.iter().for_each(|&i| wait(&mut agents[i as usize]));
        return false;
    }
    for &i in members {
        let i = i as usize;
        settle_member(&mut agents[i], places[i].cell, group, grid);
    }
    clear_learnt(std::iter::once(group));
    true
}

/// Keeps, for each of `members`, its path on the planner about to be dropped: exact while
/// the map stands, while all kept paths fit in `room` bytes; an agent without one waits for
/// its planner to be built again.
fn keep_paths(
    members: &[u32],
    agents: &[Agent],
    places: &[AgentCells],
    planner: &dyn GoalPlanner,
    grid: &Grid,
    paths: &mut Paths,
    room: usize,
) {
    for &i in members {
        let cell = places[i as usize].cell as usize;
        if let Some(p) = planner.path(grid, cell)
            && paths.bytes() + Paths::bytes_of(&p) <= room
        {
            paths.insert(agents[i as usize].id, p);
        }
    }
}

/// Drops planners, in the order of `victims`, until the built ones hold at most `limit` bytes
/// (`held`): never an unbuilt group, nor the pending one at `cursor`. `keep` sees each ready
/// planner before it goes, to keep its agents' paths. Returns how many were dropped.
fn evict(
    victims: &mut [VecDeque<usize>; 3],
    groups: &mut [(usize, &mut Group)],
    held: &mut usize,
    limit: usize,
    cursor: Option<usize>,
    mut keep: impl FnMut(usize, &dyn GoalPlanner),
    pool: &mut PlannerPool,
) -> u64 {
    let mut dropped = 0;
    while *held > limit {
        let Some(v) = victims.iter_mut().find_map(VecDeque::pop_front) else {
            break;
        };
        let (vgoal, victim) = (groups[v].0, &mut *groups[v].1);
        if victim.unbuilt || cursor == Some(vgoal) {
            continue;
        }
        if victim.ready {
            keep(v, victim.planner.get());
        }
        *held = held.saturating_sub(victim.bytes());
        pool.recycle(victim.unbuild());
        dropped += 1;
    }
    dropped
}

/// The answer for an agent on `cell` walking on along its kept `path` (which starts there):
/// (cost to the goal, next cell, its index, the step's cost).
fn walk_on(
    path: &Path,
    grid: &Grid,
    cell: usize,
    conn: Connectivity,
) -> Option<(Cost, Pos, u32, Cost)> {
    let next = *path.cells.get(1)?;
    let n = grid.index(next).ok()?;
    let step = grid.move_cost(cell, n, conn)?;
    Some((path.cost, next, n as u32, step))
}

/// Builds `group`'s planner toward goal cell `goal`, from `pool`, tracing when `trace`.
fn build(
    pool: &mut PlannerPool,
    group: &mut Group,
    grid: &Grid,
    config: &SimConfig,
    goal: usize,
    trace: bool,
) {
    let (conn, h) = (config.connectivity, config.heuristic);
    if let Ok(mut planner) = pool.make(config.algorithm, grid, grid.pos(goal), conn, h) {
        planner.get_mut().set_tracing(trace);
        group.planner = planner;
        group.unbuilt = false;
        group.ready = false;
        group.deferred = Vec::new();
        group.memo = Vec::new();
        group.learnt.clear();
    }
}
