//! Crowd mode's move phase ([`SimConfig::crowd`](super::SimConfig::crowd)): instead of each
//! agent taking its planned step, the crowd's step rule ([`crate::crowd`], PIBT) moves every
//! agent to a neighbour or keeps it, so that no two agents share a cell, swap, or cross
//! diagonals.
//!
//! **Which rule.** A one-shot crowd (every agent stays on arrival) steps with trap handling
//! (the pass and the step aside, [`StepOptions::default`]), and the real-time search takes over
//! when it stalls (`crowd_search.rs`). A lifelong crowd (some agent wanders or patrols) steps
//! by plain PIBT ([`StepOptions::PLAIN`]): the pass makes the agent of highest priority
//! retreat, which undoes what lifelong PIBT rests on, and knotted such crowds for good at
//! one-cell doorways under 8 moves (see docs/benchmarks.md).
//!
//! **What a lifelong crowd is promised.** Priorities grow with the ticks since an agent's
//! last arrival and fall on arrival (below), as in PIBT's lifelong form (Okumura et al.), so
//! each step moves the agent of highest priority to its best cell when pushes can clear it.
//! On a map where every two neighbouring cells lie on a cycle, that makes every agent reach
//! every goal it is given, shared or not, and whenever it entered (the PIBT papers' theorem).
//! Doorways one cell wide and dead ends break the condition; there the flow is measured,
//! not proved: the no-knots test (`tests/it/no_knots.rs`) plays 100 wanderers through
//! doorways for 3,000 ticks under 4 and 8 moves, with shared goals and late entries, and
//! holds the late arrivals to at least half the early ones and every stuck spell to 200
//! ticks. Not yet kept: 100 wanderers sharing 100 destinations on random-32-32-20, whose
//! dead ends knot the crowd within about 1,000 ticks under either rule (the test ignored
//! there).
//!
//! **Guidance.** Each agent ranks its cell and its neighbours by their exact cost to its goal
//! on the map the agents know, ignoring agents, read through one interface,
//! [`GoalPlanner::cost_to_goal`], whichever route planned it:
//! - D\* Lite and D\*: the goal's own planner, told by
//!   [`GoalPlanner::set_exact`] to settle every cell one move from its agents and from the goal
//!   (where its arrived agent stands) besides its starts; see `replan.rs`.
//! - A\*, Dijkstra and MPGAA\*, which search forward from each agent and would need up to nine
//!   searches an agent: crowd mode's own D\* Lite planner per goal here, told the same cells,
//!   repaired from the same changes. It costs what D\* Lite's planners cost, beside the
//!   algorithm's own plans (which the game still draws).
//!
//! [`Algorithm::honours_exact`] says which of the two an algorithm takes.
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
//! and draws its next goal at once, so a destination's agents take turns on it. An agent
//! given a goal on the cell it stands on (or added on its goal) arrives at once, in that
//! tick, counting no timestep (under wander and patrol it draws its next goal). Under stay,
//! the agent on the goal is arrived, and the others of that goal wait near it
//! ([`AgentStatus::Waiting`]). An agent that has not come closer to its goal for
//! [`STUCK_TICKS`] ticks is [`AgentStatus::Stuck`] until it does.
//!
//! **Overlaps.** Agents that share a cell when crowd mode comes on (or that a caller placed
//! so) are separated before the step ([`separate`](super::separate())): all but the first (by
//! id) go to the nearest free cells. Agents added onto a taken cell wait to enter (in
//! `Agents`) until it is free.
//!
//! **Parts.** [`CrowdPhase`] owns crowd mode's data. A replan calls its plan part
//! ([`CrowdPhase::plan_own_planners`]) once the groups have computed, and the move phase its
//! advance part ([`CrowdPhase::advance`]); each takes the simulation's parts it reads as
//! disjoint borrows ([`PlanBorrows`], [`MoveBorrows`]). The advance part's jobs are separate
//! functions: the members' bookkeeping, each agent's guidance, the priorities, the step, and
//! each agent's arrival and status.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use super::agents::{Agent, AgentCells, AgentId, AgentStatus, Agents};
use super::crowd_members::{Member, ordered_by};
use super::crowd_phase::CrowdPhase;
use super::group::Group;
use super::living::OnArrival;
use super::{SimConfig, Simulation};
use crate::cost::{Cost, INFINITY};
use crate::crowd::{Guidance, StepOptions, StepRule, hint_ahead};
use crate::grid::{Connectivity, Grid, Pos};
use crate::planner::{Algorithm, GoalPlanner, new_planner};
use crate::rng::Rng;
use crate::stats::SearchStats;
use web_time::Instant;

use super::crowd_phase::{CrowdStats, STUCK_TICKS};
use super::crowd_search::{CrowdView, ENGAGE_TICKS, SearchStep};
use super::crowd_turns::{Turns, turn_agents, turn_step};
use crate::rng::SplitMix64;

/// The fewest moves from `a` to `b` on an empty map.
fn lower_bound(grid: &Grid, a: usize, b: usize, conn: Connectivity) -> u64 {
    let (pa, pb) = (grid.pos(a), grid.pos(b));
    let (dx, dy) = (pa.x.abs_diff(pb.x) as u64, pa.y.abs_diff(pb.y) as u64);
    match conn {
        Connectivity::Four => dx + dy,
        Connectivity::Eight => dx.max(dy),
    }
}

/// The cells whose cost crowd mode reads for a goal's agents on `cells` (with the goal, where
/// its arrived agent stands): each of them and the cells one legal move away, sorted, into
/// `out`. A planner is told them through [`GoalPlanner::set_exact`].
pub(super) fn exact_cells(grid: &Grid, conn: Connectivity, cells: &[usize], out: &mut Vec<usize>) {
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
struct PlannerGuidance<'a> {
    planners: &'a [Option<&'a dyn GoalPlanner>],
    cur: &'a [u32],
}

impl Guidance for PlannerGuidance<'_> {
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

/// What the plan part reads: the known map and its changes since the last replan, the
/// configuration, the agents' cells, and the expansions left of the tick's planning budget.
pub(super) struct PlanBorrows<'a> {
    pub(super) grid: &'a Grid,
    pub(super) changed: &'a [usize],
    pub(super) config: SimConfig,
    pub(super) places: &'a [AgentCells],
    /// `None`: no planning budget.
    pub(super) left: Option<u64>,
}

/// What the advance part reads and moves: the true and known maps, the configuration, the tick, the
/// goals' groups (their planners give the guidance for algorithms that honour exact cells),
/// whether planning is rationed (a plan may then be unfinished), and the agents.
pub(super) struct MoveBorrows<'a> {
    pub(super) truth: &'a Grid,
    pub(super) known: &'a Grid,
    pub(super) config: SimConfig,
    pub(super) tick: u64,
    pub(super) groups: &'a BTreeMap<usize, Group>,
    pub(super) rationed: bool,
    pub(super) agents: &'a mut Agents,
}

impl CrowdPhase {
    /// The plan part: repairs crowd mode's own planners (one per goal, for the algorithms
    /// whose planners do not honour exact cells) within what is left of the tick's planning
    /// budget, on this replan's changes, and adds their work to `search`.
    pub(super) fn plan_own_planners(&mut self, b: PlanBorrows, search: &mut SearchStats) {
        if b.config.algorithm.honours_exact() {
            self.own_planners.clear();
            return;
        }
        let (grid, conn) = (b.grid, b.config.connectivity);
        let mut by_goal: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for p in b.places {
            let cells = by_goal.entry(p.goal as usize).or_default();
            cells.push(p.cell as usize);
        }
        self.own_planners.retain(|g, _| by_goal.contains_key(g));
        let mut left = b.left;
        let mut exact = Vec::new();
        for (&goal, cells) in &by_goal {
            let planner = match self.own_planners.entry(goal) {
                Entry::Occupied(e) => {
                    let p = e.into_mut();
                    p.cells_changed(grid, b.changed);
                    p
                }
                Entry::Vacant(e) => {
                    let (pos, h) = (grid.pos(goal), b.config.heuristic);
                    match new_planner(Algorithm::DStarLite, grid, pos, conn, h) {
                        Ok(p) => e.insert(p),
                        Err(_) => continue,
                    }
                }
            };
            let starts: Vec<usize> = cells.iter().copied().filter(|&c| c != goal).collect();
            planner.set_starts(grid, &starts);
            let mut all = cells.clone();
            all.push(goal);
            exact_cells(grid, conn, &all, &mut exact);
            planner.set_exact(grid, &exact);
            let (work, _) = planner.compute_within(grid, left.unwrap_or(u64::MAX));
            *search += work;
            if let Some(l) = left.as_mut() {
                *l = l.saturating_sub(work.expanded);
            }
        }
    }

    /// The advance part: every agent moves to a neighbour or waits by the crowd's step rule,
    /// and its arrival, remaining cost and status follow. The agents waiting to enter were
    /// admitted, and agents sharing a cell separated, before.
    pub(super) fn advance(&mut self, b: MoveBorrows) {
        let (truth, conn) = (b.truth, b.config.connectivity);
        let one_shot = (b.agents.slab.values()).all(|a| a.on_arrival == OnArrival::Stay);
        let options = if one_shot {
            StepOptions::default()
        } else {
            StepOptions::PLAIN
        };
        if (self.rule.as_ref()).is_none_or(|(r, o)| !r.fits(truth) || *o != options) {
            self.rule = Some((StepRule::new(truth, conn, options), options));
        }
        let ids: Vec<AgentId> = b.agents.slab.keys().collect();
        let places = b.agents.slab.hot();
        let cur: Vec<u32> = places.iter().map(|p| p.cell).collect();
        let at_once = self.sync_members(&ids, places, truth, conn, b.tick);
        let began = Instant::now();
        let exact_own = b.config.algorithm.honours_exact();
        let agents = b.agents.slab.values();
        let planners = guiding_planners(
            agents,
            places,
            b.groups,
            &self.own_planners,
            exact_own,
            b.rationed,
        );
        let goals: Vec<u32> = places.iter().map(|p| p.goal).collect();
        let guidance = PlannerGuidance {
            planners: &planners,
            cur: &cur,
        };
        let guided: Vec<bool> = planners.iter().map(Option::is_some).collect();
        let view = CrowdView {
            truth,
            conn,
            ids: &ids,
            one_shot,
            cur: &cur,
            goals: &goals,
            guided: &guided,
            stalled: (self.members.iter()).any(|(_, m)| m.since_better >= ENGAGE_TICKS),
            entering: !b.agents.entering.is_empty(),
            tick: b.tick,
        };
        let turning = b.config.turns();
        let searched = (!turning).then(|| self.search.next(&view)).flatten();
        let was_searched = searched.is_some();
        let mut facings = None;
        let (next, pushed) = match searched {
            Some(next) => (next, 0),
            None if turning => {
                let mine = (&mut self.turns, &self.members[..], &mut self.rng);
                let (next, now) = turn_step(
                    mine,
                    (b.known, b.truth, b.tick),
                    b.agents,
                    &planners,
                    &goals,
                );
                facings = Some(now);
                (next, 0)
            }
            None => {
                let order = priority_order(&self.members, &planners, places, b.tick);
                let (rule, _) = self.rule.as_mut().expect("made above");
                pibt_step(truth, rule, &mut self.rng, (&cur, &order), &guidance)
            }
        };
        self.turns = self.turns.take().filter(|_| turning);
        let step_nanos = began.elapsed().as_nanos() as u64;
        // Each agent's cost at its new cell, the loads asked for a few agents ahead.
        let costs: Vec<Cost> = (0..ids.len())
            .map(|i| {
                hint_ahead(i, ids.len(), |j, stage| {
                    guidance.prefetch(j, next[j] as usize, stage)
                });
                guidance.distance(i, next[i] as usize)
            })
            .collect();
        let mut stats = CrowdStats {
            arrivals_total: self.stats.arrivals_total,
            soc: self.stats.soc,
            soc_lb: self.stats.soc_lb,
            step_nanos,
            pushed,
            searched: was_searched,
            configurations: self.search.configurations() as u64,
            tries: self.search.tries() as u64,
            ..CrowdStats::default()
        };
        let outcome = Outcome {
            next: &next,
            costs: &costs,
            guided: &guided,
            at_once: &at_once,
            truth,
            tick: b.tick,
        };
        outcome.apply(b.agents, &mut self.members, &mut stats);
        if let Some(facings) = facings {
            turn_agents(b.agents, &facings);
        }
        self.last_turned = turning;
        stats.arrivals_total += stats.arrivals as u64;
        self.stats = stats;
        self.last_ids = ids;
    }

    /// The members in the agents' order (both by id): the kept ones carried over, agents that
    /// left dropped, new ones made, drawing their tie-break in id order. A member whose agent
    /// has a new goal (drawn on arrival, or set by a caller) begins a new leg. Returns, for
    /// each agent, whether its leg begins now on the cell it stands on (it arrives at once).
    fn sync_members(
        &mut self,
        ids: &[AgentId],
        places: &[AgentCells],
        truth: &Grid,
        conn: Connectivity,
        tick: u64,
    ) -> Vec<bool> {
        let mut at_once = Vec::with_capacity(ids.len());
        let mut members = Vec::with_capacity(ids.len());
        let mut old = std::mem::take(&mut self.members).into_iter().peekable();
        for (&id, p) in ids.iter().zip(places) {
            while old.next_if(|&(o, _)| o < id).is_some() {}
            let kept = old.next_if(|&(o, _)| o == id).map(|(_, m)| m);
            let leg = || {
                let lb = lower_bound(truth, p.cell as usize, p.goal as usize, conn);
                Member::new(p.goal, tick, lb)
            };
            let mut m = match kept {
                Some(m) if m.goal == p.goal => m,
                Some(m) => Member {
                    tie: m.tie,
                    ..leg()
                },
                None => leg(),
            };
            at_once.push(m.leg_start == tick && !m.arrived && p.cell == p.goal);
            if m.tie == 0 {
                m.tie = self.rng.next_u64() | 1;
            }
            members.push((id, m));
        }
        self.members = members;
        at_once
    }
}

/// The step rule's move of every agent on `cur`, in `order`, and how many were pushed.
fn pibt_step(
    truth: &Grid,
    rule: &mut StepRule,
    rng: &mut SplitMix64,
    (cur, order): (&[u32], &[u32]),
    guidance: &PlannerGuidance,
) -> (Vec<u32>, u32) {
    let next = match rule.step(truth, cur, order, None, guidance, rng) {
        Ok(next) => next.to_vec(),
        // Cannot happen for distinct passable cells; keep everyone where they are.
        Err(_) => cur.to_vec(),
    };
    let report = rule.report();
    (next, (report.pushed.len() + report.pulled.len()) as u32)
}

/// Each agent's planner for guidance, when its plan is ready: its group's (`exact_own`: the
/// algorithm's planners honour exact cells; only the rationed route leaves a compute
/// unfinished), else crowd mode's own for its goal. `None` for an agent waiting for a plan or
/// with no path.
fn guiding_planners<'a>(
    agents: impl Iterator<Item = &'a Agent>,
    places: &[AgentCells],
    groups: &'a BTreeMap<usize, Group>,
    own: &'a BTreeMap<usize, Box<dyn GoalPlanner>>,
    exact_own: bool,
    rationed: bool,
) -> Vec<Option<&'a dyn GoalPlanner>> {
    (agents.zip(places))
        .map(|(a, p)| {
            if matches!(a.status, AgentStatus::Planning | AgentStatus::NoPath) {
                return None;
            }
            let goal = p.goal as usize;
            if exact_own {
                groups
                    .get(&goal)
                    .filter(|g| !g.unbuilt && (g.ready || !rationed))
                    .map(|g| g.planner.get())
            } else {
                own.get(&goal).map(|g| &**g)
            }
        })
        .collect()
}

/// The agents in priority order, highest first ([`Priority`]), their waiting told by the
/// ticks since their leg began.
fn priority_order(
    members: &[(AgentId, Member)],
    planners: &[Option<&dyn GoalPlanner>],
    places: &[AgentCells],
    tick: u64,
) -> Vec<u32> {
    ordered_by(members, planners, places, |m| tick - m.leg_start.min(tick))
}

/// What a step decided: each agent's next cell, its cost there, whether it was guided, and
/// whether its leg began this tick on its cell (it arrived at once).
struct Outcome<'a> {
    next: &'a [u32],
    costs: &'a [Cost],
    guided: &'a [bool],
    at_once: &'a [bool],
    truth: &'a Grid,
    tick: u64,
}

impl Outcome<'_> {
    /// Moves the agents, in id order, and settles each: an arrival, or its remaining cost and
    /// status. A status reads the count of agents on the goal as the moves so far left it.
    fn apply(
        &self,
        agents: &mut Agents,
        members: &mut [(AgentId, Member)],
        stats: &mut CrowdStats,
    ) {
        let (slab, places) = agents.slab.as_mut_slices();
        for (i, ((a, p), (_, m))) in slab.iter_mut().zip(places).zip(members).enumerate() {
            let (from, to) = (p.cell as usize, self.next[i] as usize);
            if from != to {
                agents.occupied.shift(from, to, 1);
                p.cell = to as u32;
                a.pos = self.truth.pos(to);
            } else if from != p.goal as usize {
                stats.waited += 1;
            }
            a.next = None;
            a.carried = false;
            let on_goal = to == p.goal as usize;
            if self.at_once[i] || (on_goal && from != to) {
                self.count_arrival(m, self.at_once[i], stats);
            }
            if (on_goal || self.at_once[i]) && a.on_arrival != OnArrival::Stay {
                agents.arrived.push(a.id);
            }
            if on_goal {
                a.status = AgentStatus::Arrived;
                a.remaining = Some(0);
                continue;
            }
            let goal_taken = agents.occupied[p.goal as usize] > 0;
            self.settle(a, m, (i, from == to, goal_taken), stats);
        }
    }

    /// Member `m` stepped onto its goal, or (`at_once`) its leg began on it this tick: unless
    /// it arrived on this leg already, it counts an arrival (one that took no timestep when
    /// at once), and its next leg begins next tick.
    fn count_arrival(&self, m: &mut Member, at_once: bool, stats: &mut CrowdStats) {
        if m.arrived {
            return;
        }
        m.arrived = true;
        stats.arrivals += 1;
        if !at_once {
            stats.soc += self.tick + 1 - m.leg_start;
        }
        stats.soc_lb += m.leg_lb;
        m.leg_start = self.tick + 1;
        m.best = INFINITY;
        m.since_better = 0;
    }

    /// Agent `i` (`a`, `m`) off its goal: its remaining cost, its best so far, and its status
    /// (stuck, waiting near its taken goal, no path, or walking). An unguided agent keeps its
    /// status.
    fn settle(
        &self,
        a: &mut Agent,
        m: &mut Member,
        (i, stayed, goal_taken): (usize, bool, bool),
        stats: &mut CrowdStats,
    ) {
        let (cost, guided) = (self.costs[i], self.guided[i]);
        a.remaining = (cost != u64::MAX && guided).then_some(cost);
        if guided && cost < m.best {
            m.best = cost;
            m.since_better = 0;
        } else {
            m.since_better = m.since_better.saturating_add(1);
        }
        if !guided {
            return;
        }
        a.status = if m.since_better >= STUCK_TICKS {
            stats.stuck += 1;
            AgentStatus::Stuck
        } else if stayed && goal_taken {
            AgentStatus::Waiting
        } else if cost == u64::MAX {
            AgentStatus::NoPath
        } else {
            AgentStatus::Walking
        };
    }
}

impl Simulation {
    /// Turns crowd mode on or off: [`SimConfig::crowd`](super::SimConfig::crowd). Off, the
    /// agents still waiting to enter do so at once (agents may share cells then).
    pub(super) fn sync_crowd(&mut self) {
        match (self.config.crowd, self.crowd.is_some()) {
            (true, false) => {
                let mut crowd = CrowdPhase::new(self.seeded.seed);
                crowd.search.budget = self.crowd_budget;
                self.crowd = Some(crowd);
            }
            (false, true) => {
                self.crowd = None;
                self.admit(true);
            }
            _ => {}
        }
    }

    /// Lets in the agents waiting to enter whose start is free (or with `all`, every one), in
    /// id order, each into its goal's group.
    fn admit(&mut self, all: bool) {
        let truth = self.knowledge.truth(&self.grid);
        let groups = &mut self.groups.by_goal;
        let passable = |c: usize| truth.weight(c) != 0;
        self.agents.admit(all, passable, |start, goal| {
            if let Some(group) = groups.get_mut(&goal) {
                group.enter(start);
            }
        });
    }

    /// The crowd phase's plan part, in a replan after the groups computed: `spent` expansions
    /// of the planning budget are gone.
    pub(super) fn plan_crowd(&mut self, search: &mut SearchStats, spent: u64) {
        let Some(crowd) = self.crowd.as_mut() else {
            return;
        };
        // The real-time search roots again on the changed map; rotation's tables are remade.
        crowd.search.changed |= !self.changed.is_empty();
        (crowd.turns.as_mut())
            .filter(|_| !self.changed.is_empty())
            .map(Turns::map_changed);
        let b = PlanBorrows {
            grid: &self.grid,
            changed: &self.changed,
            config: self.config,
            places: self.agents.slab.hot(),
            left: (self.rationing.budget.plan_expansions).map(|b| b.saturating_sub(spent)),
        };
        crowd.plan_own_planners(b, search);
    }

    /// The move phase in crowd mode, after a replan: agents sharing a cell are separated,
    /// those waiting to enter enter where they can, and every agent moves to a neighbour or
    /// waits by the crowd's step rule; then arrivals and the dynamic world, as after
    /// [`advance`](Self::advance).
    pub(super) fn crowd_advance(&mut self) {
        self.groups.untrack_all();
        self.agents.arrived.clear();
        // Kept paths no longer match where agents go: they plan again next tick.
        self.from_scratch.paths.clear();
        let truth = self.knowledge.truth(&self.grid);
        self.agents.separate(truth, self.config.connectivity);
        self.admit(false);
        let rationed = self.rationing.budget.plan_expansions.is_some() || self.memory_tight();
        if let Some(crowd) = self.crowd.as_mut() {
            crowd.advance(MoveBorrows {
                truth: self.knowledge.truth(&self.grid),
                known: &self.grid,
                config: self.config,
                tick: self.tick,
                groups: &self.groups.by_goal,
                rationed,
                agents: &mut self.agents,
            });
        }
        self.after_moves();
    }

    /// The most tries a tick of crowd mode's real-time search makes (`crowd_search.rs`); at
    /// least 1.
    pub fn crowd_budget(&self) -> usize {
        self.crowd_budget
    }

    /// Sets [`crowd_budget`](Self::crowd_budget) (0 counts as 1); an engaged search takes it
    /// from its next root.
    pub fn set_crowd_budget(&mut self, tries: usize) {
        self.crowd_budget = tries.max(1);
        if let Some(crowd) = self.crowd.as_mut() {
            crowd.search.budget = self.crowd_budget;
        }
    }

    /// How many agents wait to enter (crowd mode: their start was taken).
    pub fn entering_count(&self) -> usize {
        self.agents.entering.len()
    }

    /// The crowd's figures, while crowd mode is on.
    pub fn crowd_stats(&self) -> Option<CrowdStats> {
        self.crowd.as_ref().map(|c| c.stats)
    }

    /// In crowd mode, agent `id`'s candidate cells in its last step, in the order it tried
    /// them, and the agents whose pushes moved it (from the one that chose freely to its own
    /// pusher): what explain shows. `None` when the real-time search moved the agents
    /// ([`CrowdStats::searched`]; [`crowd_search_step`](Self::crowd_search_step) explains).
    pub fn crowd_step_of(&self, id: AgentId) -> Option<(Vec<Pos>, Vec<AgentId>)> {
        let crowd = (self.crowd.as_ref()).filter(|c| !c.stats.searched && !c.last_turned)?;
        let i = crowd.last_ids.binary_search(&id).ok()?;
        let (rule, _) = crowd.rule.as_ref()?;
        let cells = rule
            .candidates(i)
            .iter()
            .map(|&c| self.grid.pos(c as usize));
        let chain = rule.push_chain(i);
        let chain = chain.iter().map(|&k| crowd.last_ids[k as usize]);
        Some((cells.collect(), chain.collect()))
    }

    /// The tick at which crowd mode's real-time search took over from the step rule (its
    /// latest root), while it moves the agents; `None` otherwise.
    pub fn crowd_search_since(&self) -> Option<u64> {
        self.crowd.as_ref()?.search.since()
    }

    /// Whether crowd mode's real-time search held the crowd still on the last tick while it
    /// prepared its root ([`Went::Waited`](super::Went::Waited)).
    pub fn crowd_search_preparing(&self) -> bool {
        self.crowd.as_ref().is_some_and(|c| c.search.waited())
    }

    /// How crowd mode's real-time search moved agent `id` on the last tick, when it did
    /// ([`CrowdStats::searched`]); `None` when the step rule moved the agents (then
    /// [`crowd_step_of`](Self::crowd_step_of) explains the step), off crowd mode, or for an
    /// agent that was not in the step. Costs the configuration's depth.
    pub fn crowd_search_step(&self, id: AgentId) -> Option<SearchStep> {
        self.crowd.as_ref()?.search.step_of(id, &self.grid)
    }

    /// In crowd mode, the cost from `cell` to agent `id`'s goal by which its next step ranks
    /// the cell: its planner's (D\* Lite, D\*) or crowd mode's own planner's for its goal (A\*,
    /// Dijkstra, MPGAA\*), as of the last replan. `None` off crowd mode, or with no planner for
    /// its goal yet.
    pub fn crowd_guidance(&self, id: AgentId, cell: Pos) -> Option<Cost> {
        let crowd = self.crowd.as_ref()?;
        let a = self.agents.slab.get(&id)?;
        let (goal, cell) = (self.grid.index(a.goal).ok()?, self.grid.index(cell).ok()?);
        if self.config.algorithm.honours_exact() {
            let group = self.groups.by_goal.get(&goal)?;
            (!group.unbuilt).then(|| group.planner.get().cost_to_goal(cell))
        } else {
            Some(crowd.own_planners.get(&goal)?.cost_to_goal(cell))
        }
    }
}
