//! Crowd mode's move phase ([`SimConfig::crowd`](super::SimConfig::crowd)): instead of each
//! agent taking its planned step, the crowd's step rule ([`crate::crowd`], PIBT with a pass
//! for dead ends) moves every agent to a neighbour or keeps it, so that no two agents share a
//! cell, swap, or cross diagonals.
//!
//! **Guidance.** Each agent ranks its cell and its neighbours by their exact cost to its goal
//! on the map the agents know, ignoring agents, read through one interface,
//! [`GoalPlanner::cost_to_goal`], whichever route planned it:
//! - D\* Lite and D\*: the goal's own planner, told by
//!   [`GoalPlanner::set_exact`] to settle every cell one move from its agents and from the goal
//!   (where its arrived agent stands) besides its starts; see `replan.rs`.
//! - A\*, Dijkstra and MPGAA\*, which search forward from each agent and would need up to nine
//!   searches an agent: one D\* Lite *guide* per goal here, told the same cells, repaired
//!   from the same changes. It costs what D\* Lite's planners cost, beside the algorithm's own
//!   plans (which the game still draws).
//!
//! An agent without exact guidance (its plan not ready under a planning budget, or no path)
//! prefers to stay, has low priority, and can be pushed.
//!
//! **Priorities.** Agents with guidance first, by ticks since their last arrival (or since they
//! appeared), most first; ties by a number each agent draws once from the simulation's seeded
//! generator (its own stream), so runs replay exactly. Then agents waiting for a plan, then
//! arrived agents, lowest: they can be pushed aside, and walk back when they can.
//!
//! **Arrivals.** Under wander and patrol, an agent that steps onto its goal counts an arrival
//! and draws its next goal at once, so a destination's agents take turns on it. Under stay,
//! the agent on the goal is arrived, and the others of that goal wait near it
//! ([`AgentStatus::Waiting`]). An agent that has not come closer to its goal for
//! [`STUCK_TICKS`] ticks is [`AgentStatus::Stuck`] until it does.
//!
//! **Overlaps.** Agents that share a cell when crowd mode comes on (or that a caller placed
//! so) are separated before the step: all but the first (by id) go to the nearest free cells.

use std::collections::BTreeMap;

use super::Simulation;
use super::agents::{AgentId, AgentStatus};
use super::crowd_state::{CrowdState, Member};
use super::living::OnArrival;
use crate::cost::{Cost, INFINITY};
use crate::crowd::{Crowd, Guidance, Rule, hint_ahead};
use crate::grid::{Connectivity, Grid};
use crate::planner::{Algorithm, GoalPlanner, new_planner};
use crate::rng::Rng;
use crate::stats::SearchStats;
use web_time::Instant;

pub use super::crowd_state::{CrowdStats, STUCK_TICKS};

/// The fewest moves from `a` to `b` on an empty map.
fn lower_bound(grid: &Grid, a: usize, b: usize, conn: Connectivity) -> u64 {
    let (pa, pb) = (grid.pos(a), grid.pos(b));
    let (dx, dy) = (pa.x.abs_diff(pb.x) as u64, pa.y.abs_diff(pb.y) as u64);
    match conn {
        Connectivity::Four => dx + dy,
        Connectivity::Eight => dx.max(dy),
    }
}

/// The cells one legal move from each of `cells`, and the cells themselves.
pub(super) fn around(grid: &Grid, conn: Connectivity, cells: &[usize], out: &mut Vec<usize>) {
    out.clear();
    for &c in cells {
        out.push(c);
        grid.for_each_neighbor(c, conn, |n, _| out.push(n));
    }
    out.sort_unstable();
    out.dedup();
}

/// Each agent's guidance in a step: its planner's cost to its goal, or for an agent without
/// one, 0 on its own cell and 1 elsewhere (it prefers to stay).
struct PlannerGuide<'a> {
    planners: &'a [Option<&'a dyn GoalPlanner>],
    cur: &'a [u32],
}

impl Guidance for PlannerGuide<'_> {
    #[inline]
    fn distance(&self, i: usize, cell: usize) -> u64 {
        match self.planners[i] {
            Some(p) => {
                let c = p.cost_to_goal(cell);
                if c == INFINITY { u64::MAX } else { c }
            }
            None => u64::from(cell != self.cur[i] as usize),
        }
    }

    #[inline]
    fn prefetch(&self, i: usize, cell: usize, stage: u8) {
        if let Some(p) = self.planners[i] {
            p.prefetch_cost(cell, stage);
        }
    }
}

impl Simulation {
    /// Turns crowd mode on or off: [`SimConfig::crowd`](super::SimConfig::crowd).
    pub(super) fn sync_crowd(&mut self) {
        match (self.config.crowd, self.crowd.is_some()) {
            (true, false) => self.crowd = Some(CrowdState::new(self.seeded.seed)),
            (false, true) => {
                // Agents still waiting to enter do so now: off, agents may share cells.
                let crowd = self.crowd.take().expect("on");
                for (id, start, goal, policy) in crowd.entering {
                    self.enter(id, start, goal, policy);
                }
            }
            _ => {}
        }
    }

    /// Places an agent that waited to enter.
    fn enter(
        &mut self,
        id: AgentId,
        start: (crate::grid::Pos, usize),
        goal: (crate::grid::Pos, usize),
        policy: OnArrival,
    ) {
        self.agents.insert_as(id, start, goal, policy);
        if let Some(group) = self.groups.by_goal.get_mut(&goal.1) {
            group.enter(start.1);
        }
    }

    /// Lets in the agents waiting to enter whose start is free, in id order.
    fn admit(&mut self) {
        let Some(crowd) = self.crowd.as_mut() else {
            return;
        };
        if crowd.entering.is_empty() {
            return;
        }
        let waiting = std::mem::take(&mut crowd.entering);
        let mut still = Vec::new();
        for e in waiting {
            if self.agents.occupied[e.1.1] == 0 && self.grid().weight(e.1.1) != 0 {
                self.enter(e.0, e.1, e.2, e.3);
            } else {
                still.push(e);
            }
        }
        if let Some(crowd) = self.crowd.as_mut() {
            crowd.entering = still;
        }
    }

    /// How many agents wait to enter (crowd mode: their start was taken).
    pub fn entering_count(&self) -> usize {
        self.crowd.as_ref().map_or(0, |c| c.entering.len())
    }

    /// The crowd's figures, while crowd mode is on.
    pub fn crowd_stats(&self) -> Option<CrowdStats> {
        self.crowd.as_ref().map(|c| c.stats)
    }

    /// In crowd mode, agent `id`'s candidate cells in its last step, in the order it tried
    /// them, and the agents whose pushes moved it (from the one that chose freely to its own
    /// pusher): what explain shows.
    pub fn crowd_step_of(&self, id: AgentId) -> Option<(Vec<crate::grid::Pos>, Vec<AgentId>)> {
        let crowd = self.crowd.as_ref()?;
        let i = crowd.last_ids.binary_search(&id).ok()?;
        let rule = crowd.rule.as_ref()?;
        let cells = rule
            .candidates(i)
            .iter()
            .map(|&c| self.grid.pos(c as usize));
        let chain = rule.push_chain(i);
        let chain = chain.iter().map(|&k| crowd.last_ids[k as usize]);
        Some((cells.collect(), chain.collect()))
    }

    /// In crowd mode, the cost from `cell` to agent `id`'s goal by which its next step ranks
    /// the cell: its planner's (D\* Lite, D\*) or its goal's guide's (A\*, Dijkstra, MPGAA\*),
    /// as of the last replan. `None` off crowd mode, or with no planner for its goal yet.
    pub fn crowd_guidance(&self, id: AgentId, cell: crate::grid::Pos) -> Option<Cost> {
        let crowd = self.crowd.as_ref()?;
        let a = self.agents.slab.get(&id)?;
        let (goal, cell) = (self.grid.index(a.goal).ok()?, self.grid.index(cell).ok()?);
        match self.config.algorithm {
            Algorithm::DStarLite | Algorithm::DStar => {
                let group = self.groups.by_goal.get(&goal)?;
                (!group.unbuilt).then(|| group.planner.get().cost_to_goal(cell))
            }
            _ => Some(crowd.guides.get(&goal)?.cost_to_goal(cell)),
        }
    }

    /// Plans the guides of the algorithms whose planners decline exact neighbours, within
    /// what is left of the tick's planning budget, on the changes of this replan.
    pub(super) fn plan_guides(&mut self, search: &mut SearchStats, spent: u64) {
        let Some(crowd) = self.crowd.as_mut() else {
            return;
        };
        if matches!(
            self.config.algorithm,
            Algorithm::DStarLite | Algorithm::DStar
        ) {
            crowd.guides.clear();
            return;
        }
        let conn = self.config.connectivity;
        let mut by_goal: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for p in self.agents.slab.hot() {
            by_goal
                .entry(p.goal as usize)
                .or_default()
                .push(p.cell as usize);
        }
        crowd.guides.retain(|g, _| by_goal.contains_key(g));
        let mut left = self
            .rationing
            .budget
            .plan_expansions
            .map(|b| b.saturating_sub(spent));
        let mut exact = Vec::new();
        for (&goal, cells) in &by_goal {
            let guide = match crowd.guides.entry(goal) {
                std::collections::btree_map::Entry::Occupied(e) => {
                    let g = e.into_mut();
                    g.cells_changed(&self.grid, &self.changed);
                    g
                }
                std::collections::btree_map::Entry::Vacant(e) => {
                    let pos = self.grid.pos(goal);
                    let heuristic = self.config.heuristic;
                    match new_planner(Algorithm::DStarLite, &self.grid, pos, conn, heuristic) {
                        Ok(p) => e.insert(p),
                        Err(_) => continue,
                    }
                }
            };
            let starts: Vec<usize> = cells.iter().copied().filter(|&c| c != goal).collect();
            guide.set_starts(&self.grid, &starts);
            let mut all = cells.clone();
            all.push(goal);
            around(&self.grid, conn, &all, &mut exact);
            guide.set_exact(&self.grid, &exact);
            let max = left.unwrap_or(u64::MAX);
            let (work, _) = guide.compute_within(&self.grid, max);
            *search += work;
            if let Some(l) = left.as_mut() {
                *l = l.saturating_sub(work.expanded);
            }
        }
    }

    /// The move phase in crowd mode, after a replan: every agent moves to a neighbour or
    /// waits by the crowd's step rule; then arrivals and the dynamic world, as after
    /// [`advance`](Self::advance).
    pub(super) fn crowd_advance(&mut self) {
        let Some(crowd) = self.crowd.take() else {
            return self.advance();
        };
        self.groups.untrack_all();
        self.agents.arrived.clear();
        // Kept paths no longer match where agents go: they plan again next tick.
        self.from_scratch.paths.clear();
        self.separate();
        self.crowd = Some(crowd);
        self.admit();
        let mut crowd = self.crowd.take().expect("put back above");
        let conn = self.config.connectivity;
        let truth = self.knowledge.truth(&self.grid);
        if crowd.rule.as_ref().is_none_or(|r| !r.fits(truth)) {
            crowd.rule = Some(Crowd::new(truth, conn, Rule::default()));
        }
        let tick = self.tick;
        let ids: Vec<AgentId> = self.agents.slab.keys().collect();
        let places = self.agents.slab.hot();
        let cur: Vec<u32> = places.iter().map(|p| p.cell).collect();
        // The members in the agents' order (both by id): the kept ones carried over, agents
        // that left dropped, new ones made, drawing their tie-break in id order.
        let mut members = Vec::with_capacity(ids.len());
        let mut old = std::mem::take(&mut crowd.members).into_iter().peekable();
        for (i, &id) in ids.iter().enumerate() {
            let p = places[i];
            while old.next_if(|&(o, _)| o < id).is_some() {}
            let kept = old.next_if(|&(o, _)| o == id).map(|(_, m)| m);
            members.push((
                id,
                kept.unwrap_or_else(|| Member {
                    leg_start: tick,
                    leg_lb: lower_bound(truth, p.cell as usize, p.goal as usize, conn),
                    goal: p.goal,
                    tie: 0,
                    arrived: false,
                    best: INFINITY,
                    since_better: 0,
                }),
            ));
            let m = &mut members[i].1;
            if m.tie == 0 {
                m.tie = crowd.rng.next_u64() | 1;
            }
            if m.goal != p.goal {
                // A new goal (drawn on arrival, or set by a caller): a new leg from here.
                m.goal = p.goal;
                m.leg_start = tick;
                m.leg_lb = lower_bound(truth, p.cell as usize, p.goal as usize, conn);
                m.arrived = false;
                m.best = INFINITY;
                m.since_better = 0;
            }
        }
        let began = Instant::now();
        // Guidance: the planner serving each agent, when its plan is ready (only the rationed
        // route leaves a compute unfinished).
        let rationed = self.rationing.budget.plan_expansions.is_some() || self.memory_tight();
        let agents = self.agents.slab.values().collect::<Vec<_>>();
        let guides = &crowd.guides;
        let groups = &self.groups.by_goal;
        let exact_own = matches!(
            self.config.algorithm,
            Algorithm::DStarLite | Algorithm::DStar
        );
        let planners: Vec<Option<&dyn GoalPlanner>> = (0..ids.len())
            .map(|i| {
                let a = agents[i];
                if matches!(a.status, AgentStatus::Planning | AgentStatus::NoPath) {
                    return None;
                }
                let goal = places[i].goal as usize;
                if exact_own {
                    groups
                        .get(&goal)
                        .filter(|g| !g.unbuilt && (g.ready || !rationed))
                        .map(|g| g.planner.get())
                } else {
                    guides.get(&goal).map(|g| &**g)
                }
            })
            .collect();
        let guide = PlannerGuide {
            planners: &planners,
            cur: &cur,
        };
        // Priorities: guided agents by ticks since their leg began, then the rest, arrived last.
        let mut order: Vec<(u8, u64, u64, u32)> = (0..ids.len())
            .map(|i| {
                let m = &members[i].1;
                let class = match (planners[i].is_some(), places[i].cell == places[i].goal) {
                    (_, true) => 2,
                    (true, false) => 0,
                    (false, false) => 1,
                };
                (
                    class,
                    u64::MAX - (tick - m.leg_start.min(tick)),
                    m.tie,
                    i as u32,
                )
            })
            .collect();
        order.sort_unstable();
        let order: Vec<u32> = order.into_iter().map(|o| o.3).collect();
        let rule = crowd.rule.as_mut().expect("made above");
        let next = match rule.step(truth, &cur, &order, None, &guide, &mut crowd.rng) {
            Ok(next) => next.to_vec(),
            // Cannot happen for distinct passable cells; keep everyone where they are.
            Err(_) => cur.clone(),
        };
        let step_nanos = began.elapsed().as_nanos() as u64;
        let report = rule.report();
        let pushed = (report.pushed.len() + report.pulled.len()) as u32;
        // Each agent's cost at its new cell, the loads asked for a few agents ahead.
        let costs: Vec<Cost> = (0..ids.len())
            .map(|i| {
                hint_ahead(i, ids.len(), |j, stage| {
                    guide.prefetch(j, next[j] as usize, stage)
                });
                guide.distance(i, next[i] as usize)
            })
            .collect();
        let guided: Vec<bool> = planners.iter().map(Option::is_some).collect();
        drop(planners);
        // Apply the moves.
        let mut stats = CrowdStats {
            arrivals_total: crowd.stats.arrivals_total,
            soc: crowd.stats.soc,
            soc_lb: crowd.stats.soc_lb,
            step_nanos,
            ..CrowdStats::default()
        };
        let (agents, places) = self.agents.slab.as_mut_slices();
        for i in 0..ids.len() {
            let (a, p) = (&mut agents[i], &mut places[i]);
            let (from, to) = (p.cell as usize, next[i] as usize);
            if from != to {
                self.agents.occupied[from] -= 1;
                self.agents.occupied[to] += 1;
                p.cell = to as u32;
                a.pos = truth.pos(to);
            } else if from != p.goal as usize {
                stats.waited += 1;
            }
            a.next = None;
            a.carried = false;
            let m = &mut members[i].1;
            if to == p.goal as usize {
                a.status = AgentStatus::Arrived;
                a.remaining = Some(0);
                if from != to && !m.arrived {
                    m.arrived = true;
                    stats.arrivals += 1;
                    stats.soc += tick + 1 - m.leg_start;
                    stats.soc_lb += m.leg_lb;
                    m.leg_start = tick + 1;
                    m.best = INFINITY;
                    m.since_better = 0;
                }
                if a.on_arrival != OnArrival::Stay {
                    self.agents.arrived.push(a.id);
                }
                continue;
            }
            let cost = costs[i];
            a.remaining = (cost != u64::MAX && guided[i]).then_some(cost);
            if guided[i] && cost < m.best {
                m.best = cost;
                m.since_better = 0;
            } else {
                m.since_better = m.since_better.saturating_add(1);
            }
            a.status = if !guided[i] {
                a.status
            } else if m.since_better >= STUCK_TICKS {
                stats.stuck += 1;
                AgentStatus::Stuck
            } else if from == to && self.agents.occupied[p.goal as usize] > 0 {
                AgentStatus::Waiting
            } else if cost == u64::MAX {
                AgentStatus::NoPath
            } else {
                AgentStatus::Walking
            };
        }
        stats.pushed = pushed;
        stats.arrivals_total += stats.arrivals as u64;
        crowd.stats = stats;
        crowd.members = members;
        crowd.last_ids = ids;
        self.crowd = Some(crowd);
        self.after_moves();
    }

    /// Moves all but the first agent (by id) of every shared cell to the nearest free cells.
    fn separate(&mut self) {
        let occupied = &self.agents.occupied;
        if self
            .agents
            .slab
            .hot()
            .iter()
            .all(|p| occupied[p.cell as usize] <= 1)
        {
            return;
        }
        let conn = self.config.connectivity;
        let truth = self.knowledge.truth(&self.grid);
        let mut flood = crate::grid::Flood::default();
        let (agents, places) = self.agents.slab.as_mut_slices();
        let occupied = &mut self.agents.occupied;
        for (a, p) in agents.iter_mut().zip(places) {
            let c = p.cell as usize;
            if occupied[c] <= 1 {
                continue;
            }
            // The nearest passable cell nobody stands on.
            let Some(found) = flood.nearest(truth, c, conn, |u| occupied[u] == 0) else {
                continue;
            };
            occupied[c] -= 1;
            occupied[found] += 1;
            p.cell = found as u32;
            a.pos = truth.pos(found);
            a.next = None;
        }
    }
}
