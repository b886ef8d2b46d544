//! The simulation's two budgets ([`Budget`]): how much memory its planners may hold, and how
//! many expansions a tick's planning may make; and the placeholder ([`Unbuilt`](super::unbuilt::Unbuilt)) a goal's
//! planner is while it holds no memory.
//!
//! Past the memory budget, the planners least recently used are dropped (their goals keep
//! their groups, with an [`Unbuilt`](super::unbuilt::Unbuilt) planner) and built again from scratch when their agents
//! need them; a rebuilt planner's costs are exact, so the budget changes the work, never a
//! cost. The expansion budget spreads a long search over several ticks: an agent whose plan
//! is not ready waits on its cell as [`AgentStatus::Planning`](super::AgentStatus::Planning).
//! See `replan.rs` for the order in which goals are served.

use std::collections::VecDeque;

use super::agents::{Agent, AgentId, Place, settle, wait};
use super::fresh::Paths;
use super::group::{Group, unfresh};
use super::groups::Groups;
use super::replan::{Computes, refresh_memo};
use super::settle::settle_member;
use super::{SimConfig, Simulation, TickStats};
use crate::cost::Cost;
use crate::grid::{Connectivity, Grid, Pos};
use crate::path::Path;
use crate::planner::{GoalPlanner, PlannerPool, Progress};

/// The planner-memory budget unless one is set: 2 GiB.
pub const DEFAULT_PLANNER_MEMORY: usize = 2 << 30;

/// The smallest planner-memory budget accepted: 1 MiB.
pub const MIN_PLANNER_MEMORY: usize = 1 << 20;

/// The largest planner-memory budget accepted: 1 TiB, or the whole address space where it
/// is smaller (wasm32).
pub const MAX_PLANNER_MEMORY: usize = if usize::BITS >= 64 {
    (1u64 << 40) as usize
} else {
    usize::MAX
};

/// Bytes a goal's group may hold per cell of the map at most, the worst case of a search that
/// touches every cell (the planner's arrays and queue, its list of expansions, the memo of its
/// moves and the count of its agents per cell): how a replan tells, before building planners,
/// whether it could pass the memory budget.
pub(super) const WORST_BYTES_PER_CELL: usize = 48;

/// The simulation's budgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Bytes all planners may hold together ([`Simulation::planner_memory`](super::Simulation::planner_memory)).
    pub planner_memory: usize,
    /// Expansions a tick's planning may make, or `None` for no limit. The from-scratch
    /// algorithms (A*, Dijkstra) stop the search that reaches it and go on with it next tick.
    pub plan_expansions: Option<u64>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            planner_memory: DEFAULT_PLANNER_MEMORY,
            plan_expansions: None,
        }
    }
}

impl Budget {
    /// The scenario fields `planner_memory` and `plan_budget` of these budgets: `None` where
    /// they are the defaults, so a file without budgets still means what it meant.
    pub fn in_scenario(&self) -> (Option<usize>, Option<u64>) {
        let memory = self.planner_memory != DEFAULT_PLANNER_MEMORY;
        (memory.then_some(self.planner_memory), self.plan_expansions)
    }
}

/// Reads a memory size: a whole number of bytes, or with a suffix `K`, `M`, `G` or `T`
/// (powers of 1024; `KB`, `MiB` and lower case are accepted too), between 1 MiB and 1 TiB.
///
/// ```
/// use gridwalk_core::sim::parse_memory;
/// assert_eq!(parse_memory("512M"), Ok(512 << 20));
/// assert_eq!(parse_memory("2G"), Ok(2 << 30));
/// assert!(parse_memory("2X").unwrap_err().contains("2X"));
/// assert!(parse_memory("1K").is_err(), "below 1 MiB");
/// ```
pub fn parse_memory(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => {
            return Err(format!(
                "{text:?} is not a memory size: expected a whole number with K, M, G or T, as 512M or 2G"
            ));
        }
    };
    let n: u64 = number.parse().map_err(|_| {
        format!("{text:?} is not a memory size: expected a whole number with K, M, G or T, as 512M or 2G")
    })?;
    let bytes = n.checked_shl(shift).filter(|b| b >> shift == n);
    match bytes {
        Some(b) if (MIN_PLANNER_MEMORY as u64..=MAX_PLANNER_MEMORY as u64).contains(&b) => {
            Ok(b as usize)
        }
        _ => Err(format!(
            "memory size {text:?} is outside 1M to 1T (1 MiB to 1 TiB)"
        )),
    }
}

/// A memory size as [`parse_memory`] reads it, in the largest unit that divides it.
///
/// ```
/// use gridwalk_core::sim::{format_memory, parse_memory};
/// assert_eq!(format_memory(2 << 30), "2G");
/// assert_eq!(format_memory(1536 << 20), "1536M");
/// assert_eq!(parse_memory(&format_memory(123_456_789)), Ok(123_456_789));
/// ```
pub fn format_memory(bytes: usize) -> String {
    for (shift, unit) in [(40, "T"), (30, "G"), (20, "M"), (10, "K")] {
        if bytes > 0 && bytes.trailing_zeros() >= shift {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    bytes.to_string()
}

/// The budgets of a [`Simulation`] and where its planning stands against them.
#[derive(Debug, Default)]
pub(super) struct Budgeting {
    pub(super) budget: Budget,
    /// The goal cell whose group is served first among those not ready: the first one the
    /// last replan left pending, so that every search ends in turn.
    pub(super) cursor: usize,
    /// The agent served first by the next budgeted replan of A* or Dijkstra.
    pub(super) fresh_cursor: AgentId,
    /// Agents the last replan left waiting for their plan.
    pub(super) backlog: usize,
    /// Planners dropped to keep the memory budget, over the whole run.
    pub(super) dropped: u64,
}

impl Simulation {
    /// The budgets.
    pub fn budget(&self) -> Budget {
        self.budgeting.budget
    }

    /// Sets the budgets; they apply from the next replan. Plans already made stay.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budgeting.budget = budget;
        // Dropped planners kept for reuse hold at most an eighth of the budget.
        self.groups.pool.set_cap(budget.planner_memory / 8);
    }

    /// Agents the last replan left waiting for their plan ([`AgentStatus::Planning`](super::AgentStatus::Planning)).
    pub fn backlog(&self) -> usize {
        self.budgeting.backlog
    }

    /// Planners dropped to keep the memory budget so far (each is built again when needed).
    pub fn planners_dropped(&self) -> u64 {
        self.budgeting.dropped
    }

    /// Bytes held by the dropped planners kept for reuse.
    pub fn pool_memory(&self) -> usize {
        self.groups.pool.bytes()
    }

    /// Whether the next replan must keep to the memory budget goal by goal: its groups (those
    /// alive and those its new goals need) could hold more than three quarters of the budget,
    /// each at most [`WORST_BYTES_PER_CELL`] per cell. Cheap when they cannot.
    pub(super) fn memory_tight(&self) -> bool {
        let budget = self.budgeting.budget.planner_memory / 4 * 3;
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
        let budget = self.budgeting.budget;
        let mut left = budget.plan_expansions.unwrap_or(u64::MAX);
        let trace = self.history.planners_trace();
        let (grid, config) = (&self.grid, &self.config);
        let Groups {
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
        let (order, mut victims) = serving_order(&groups, &scratch.counts, self.budgeting.cursor);
        let mut held: usize = groups.iter().map(|(_, g)| g.bytes()).sum();
        let (agents, places) = self.agents.slab.as_mut_slices();
        // Paths kept for the agents of dropped planners hold while the map does not change.
        let paths = &mut self.fresh.paths;
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
        self.budgeting.backlog = backlog;
        self.budgeting.cursor = cursor.unwrap_or(0);
        self.budgeting.dropped += dropped;
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
    places: &[Place],
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
    places: &[Place],
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
    unfresh(std::iter::once(group));
    true
}

/// Keeps, for each of `members`, its path on the planner about to be dropped: exact while
/// the map stands, while all kept paths fit in `room` bytes; an agent without one waits for
/// its planner to be built again.
fn keep_paths(
    members: &[u32],
    agents: &[Agent],
    places: &[Place],
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
        group.fresh.clear();
    }
}
