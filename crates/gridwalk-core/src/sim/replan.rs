//! The replan phase of a tick: new goals get their groups, the pockets catch up with the
//! edits, each group's starts are listed and its planner repairs, and the agents are
//! settled by their group's answer (those of large groups may wait for the move phase, see
//! [`settle`](super::settle)). The from-scratch algorithms plan in
//! [`from_scratch`](super::from_scratch), and within the budgets groups are served in
//! [`rationing`](super::rationing).

use web_time::Instant;

use super::agents::{Agent, AgentStatus, settle};
use super::crowd_step::exact_cells;
use super::goal_groups::NO_SLOT;
use super::group::{Group, LEARNT, MEMO_MIN_AGENTS, UNKNOWN, forget_moves};
use super::history::{History, RunSource};
use super::report::ComputeRecord;
use super::settle::{settle_cost, settle_member};
use super::{BASELINE_MAX_AGENTS, Simulation, TickStats, keep_expanded};
use crate::grid::Grid;
use crate::planner::Progress;
use crate::search::best_first::{Mode, SearchRequest};
use crate::stats::SearchStats;

impl Simulation {
    /// [`replan`](Self::replan); with `defer`, the agents of large groups are left unsettled
    /// for [`settle_and_advance`](Self::settle_and_advance), which must come next.
    pub(super) fn replan_deferring(&mut self, defer: bool) -> TickStats {
        self.sense();
        let mut stats = TickStats {
            replans: 1,
            ..TickStats::default()
        };
        self.expanded.clear();
        self.history.clear_runs();
        let started = Instant::now();
        if self.config.algorithm.is_incremental() {
            self.replan_incremental(&mut stats, defer);
        } else {
            self.replan_from_scratch(&mut stats);
        }
        let spent = stats.search.expanded;
        self.plan_crowd(&mut stats.search, spent);
        stats.micros = started.elapsed().as_micros() as u64;
        self.changed.clear();
        if self.baseline_due() {
            let t = Instant::now();
            for a in self.agents.slab.values() {
                if a.status == AgentStatus::Arrived {
                    continue;
                }
                let req = self.request(a, Mode::AStar);
                if let Ok(r) = self.from_scratch.baseline.search(&self.grid, &req, None) {
                    stats.baseline_expanded += r.stats.expanded;
                }
            }
            stats.baseline_micros = t.elapsed().as_micros() as u64;
        }
        self.last = stats;
        self.total += stats;
        stats
    }

    /// Whether a replan now measures A* from scratch
    /// ([`SimConfig::measure_baseline`](super::SimConfig::measure_baseline)): asked for, and at
    /// most [`BASELINE_MAX_AGENTS`] agents off their goal (those a replan leaves walking or with no
    /// path).
    pub(super) fn baseline_due(&self) -> bool {
        let walking = self.agents.slab.hot().iter().filter(|p| p.cell != p.goal);
        self.config.measure_baseline
            && walking.take(BASELINE_MAX_AGENTS + 1).count() <= BASELINE_MAX_AGENTS
    }

    /// The search request for agent `a` in `mode`, with the configured moves and heuristic.
    pub(super) fn request(&self, a: &Agent, mode: Mode) -> SearchRequest {
        SearchRequest {
            start: a.pos,
            goal: a.goal,
            mode,
            connectivity: self.config.connectivity,
            heuristic: self.config.heuristic,
        }
    }

    /// The replan of D* Lite and D*: one repair per goal. With `defer`, large groups' agents
    /// are left for [`settle_and_advance`](Self::settle_and_advance).
    fn replan_incremental(&mut self, stats: &mut TickStats, defer: bool) {
        if self.rationing.budget.plan_expansions.is_some() || self.memory_tight() {
            self.replan_budgeted(stats);
            return;
        }
        self.rationing.backlog = 0;
        // Paths kept for dropped planners' agents: every planner is built below.
        self.from_scratch.paths.clear();
        self.make_new_groups(false);
        if std::mem::take(&mut self.groups.unbuilt) {
            self.build_all();
        }
        self.groups.assign_slots(&self.grid, &self.changed);
        (self.pockets).update(&self.grid, self.config.connectivity);
        let tracked: usize = (self.groups.by_goal.iter())
            .filter(|(_, g)| g.tracked())
            .map(|(&goal, _)| self.agents.goals[goal] as usize)
            .sum();
        self.groups.all_tracked = defer && tracked == self.agents.slab.len() && tracked > 0;
        debug_assert!(self.trackers_agree());
        match self.groups.all_tracked {
            true => self.list_tracked_starts(),
            false => self.list_starts(false),
        }
        let scratch = &mut self.groups.scratch;
        scratch.settle_late.clear();
        scratch.settle_late.extend(
            (self.groups.by_goal.values().zip(&scratch.counts))
                .map(|(g, &n)| n as usize >= MEMO_MIN_AGENTS || (defer && g.tracked())),
        );
        self.compute_groups(stats);
        if self.groups.scratch.settle_late.iter().any(|&late| late) {
            if defer {
                self.groups.settle_pending = true;
                self.track_groups();
            } else {
                self.settle_large_groups();
            }
        }
        self.history.trim(&mut self.groups.by_goal);
    }

    /// The replan of D* Lite and D* within the budgets: every group with walking agents
    /// repairs, with what is left of the tick's expansions, and its agents are settled at once
    /// (or wait, if its search has not ended); past the memory budget, planners are dropped
    /// between two computes, those used least recently first. See [`Simulation::serve`].
    fn replan_budgeted(&mut self, stats: &mut TickStats) {
        self.make_new_groups(true);
        self.groups.assign_slots(&self.grid, &self.changed);
        (self.pockets).update(&self.grid, self.config.connectivity);
        self.groups.all_tracked = false;
        self.list_starts(true);
        let groups = self.groups.by_goal.len();
        let late = &mut self.groups.scratch.settle_late;
        late.clear();
        late.resize(groups, false);
        self.serve(stats);
        self.history.trim(&mut self.groups.by_goal);
    }

    /// Groups for the goals new since the last replan (or for every goal, after the groups
    /// were dropped); `lazy` ones get their planner at their first compute.
    fn make_new_groups(&mut self, lazy: bool) {
        let mut new_goals = std::mem::take(&mut self.agents.new_goals);
        if std::mem::take(&mut self.agents.rescan_goals) {
            new_goals.extend(self.agents.slab.hot().iter().map(|p| p.goal as usize));
        }
        let trace = self.history.planners_trace();
        // Planners made from now on choose their store for every goal, the new ones included
        // (each once: after a rescan, `new_goals` lists every agent's goal).
        if !new_goals.is_empty() {
            let by_goal = &self.groups.by_goal;
            let mut fresh: Vec<usize> = (new_goals.iter().copied())
                .filter(|&g| self.agents.goals[g] != 0 && !by_goal.contains_key(&g))
                .collect();
            fresh.sort_unstable();
            fresh.dedup();
            (self.groups.pool).set_planners(by_goal.len() + fresh.len());
        }
        for &g in &new_goals {
            if self.agents.goals[g] == 0 || self.groups.by_goal.contains_key(&g) {
                continue;
            }
            let group = match lazy {
                true => Some(self.groups.make_unbuilt(g)),
                false => (self.groups).make(&self.grid, &self.config, self.grid.pos(g), trace),
            };
            if let Some(group) = group {
                self.groups.by_goal.insert(g, group);
            }
        }
        new_goals.clear();
        self.agents.new_goals = new_goals;
    }

    /// Every group with walking agents repairs for their cells; a small group's agents are
    /// settled right after its compute, while the planner's memory is in cache (a large
    /// group's read its memo later, in agent order).
    fn compute_groups(&mut self, stats: &mut TickStats) {
        let mut computes = Computes {
            grid: &self.grid,
            changed: &self.changed,
            tick: self.tick,
            history: &mut self.history,
            expanded: &mut self.expanded,
            stats,
            exact_around: self.config.crowd.then_some(self.config.connectivity),
        };
        let goals = &self.agents.goals;
        let scratch = &self.groups.scratch;
        let costs_only = self.groups.costs_only;
        let (agents, places) = self.agents.slab.as_mut_slices();
        for (((((&goal, group), starts), members), &n), &late) in (self.groups.by_goal.iter_mut())
            .zip(&scratch.starts)
            .zip(&scratch.members)
            .zip(&scratch.counts)
            .zip(&scratch.settle_late)
        {
            let n = n as usize;
            if n == 0 {
                if computes.exact_around.is_some() && goals[goal] > 0 {
                    // Crowd mode: its arrived agents may be pushed off the goal, and rank the
                    // goal's neighbours by the planner's costs, which must be exact.
                    computes.run(goal, group, &[], 0, u64::MAX);
                } else {
                    computes.defer(group);
                }
                continue;
            }
            computes.run(goal, group, starts, n, u64::MAX);
            refresh_memo(group, computes.grid, n);
            if !late {
                for &i in members {
                    let (a, cell) = (&mut agents[i as usize], places[i as usize].cell);
                    match costs_only {
                        true => settle_cost(a, cell, group),
                        false => settle_member(a, cell, group, computes.grid),
                    }
                }
                for c in group.learnt.drain(..) {
                    group.memo[c] &= !LEARNT;
                }
            }
        }
    }

    /// Lists each group's starts, its walking agents' cells, and counts them; settles the
    /// agents no group serves now. The members of small groups are listed too, or with `all`
    /// those of every group.
    pub(super) fn list_starts(&mut self, all: bool) {
        let groups = self.groups.by_goal.len();
        // The cells of every agent still walking, bucketed by its goal's slot: no sort. Agents
        // of a goal walk in clumps, so a cell just listed for the same group is not listed
        // again (a planner's starts are a set: repeats only cost it time).
        self.groups.scratch.starts.resize_with(groups, Vec::new);
        self.groups.scratch.starts.iter_mut().for_each(Vec::clear);
        self.groups.scratch.members.resize_with(groups, Vec::new);
        self.groups.scratch.members.iter_mut().for_each(Vec::clear);
        self.groups.scratch.counts.clear();
        self.groups.scratch.counts.resize(groups, 0);
        // Every entry is written below.
        self.groups
            .scratch
            .member_slot
            .resize(self.agents.slab.len(), NO_SLOT);
        self.groups
            .scratch
            .firsts
            .resize(self.agents.slab.len(), (0, 0));
        let base = self.groups.marks.new_range(self.grid.len(), groups);
        let (agents, places) = self.agents.slab.as_mut_slices();
        let (slot, pocket, listed) = (
            &self.groups.slot[..],
            &self.pockets.pocket[..],
            &mut self.groups.marks.listed[..],
        );
        let counts = &mut self.groups.scratch.counts[..];
        // (slot, cell) of each cell listed, in agent order: written for every agent, kept
        // (`firsts` grows) only for the first of its group on its cell, without a branch.
        let mut firsts = 0;
        for (i, (p, member)) in places
            .iter()
            .zip(&mut self.groups.scratch.member_slot)
            .enumerate()
        {
            let (cell, goal) = (p.cell as usize, p.goal as usize);
            let k = slot[goal];
            // (An agent has arrived exactly when it stands on its goal.)
            if cell == goal || k as usize >= groups || pocket[cell] != pocket[goal] {
                // On its goal; or proven apart from it: in a closed pocket without it (or it in
                // one without the agent), left out of the starts so the group's search stays
                // focused on the agents it can serve.
                *member = NO_SLOT;
                settle(&mut agents[i], || None);
                continue;
            }
            *member = k;
            counts[k as usize] += 1;
            let mark = base + k;
            let first = std::mem::replace(&mut listed[cell], mark) != mark;
            self.groups.scratch.firsts[firsts] = (k, cell as u32);
            firsts += first as usize;
        }
        for &(k, cell) in &self.groups.scratch.firsts[..firsts] {
            self.groups.scratch.starts[k as usize].push(cell as usize);
        }
        // The small groups' members, to settle right after their computes.
        if all
            || counts
                .iter()
                .any(|&n| n > 0 && (n as usize) < MEMO_MIN_AGENTS)
        {
            for (i, &k) in self.groups.scratch.member_slot.iter().enumerate() {
                if counts
                    .get(k as usize)
                    .is_some_and(|&n| all || (n as usize) < MEMO_MIN_AGENTS)
                {
                    self.groups.scratch.members[k as usize].push(i as u32);
                }
            }
        }
    }
}

/// What the computes of one replan read, and where they add their work.
pub(super) struct Computes<'a> {
    pub(super) grid: &'a Grid,
    /// The cells changed since the last replan.
    pub(super) changed: &'a [usize],
    pub(super) tick: u64,
    pub(super) history: &'a mut History,
    pub(super) expanded: &'a mut Vec<u32>,
    pub(super) stats: &'a mut TickStats,
    /// Crowd mode's moves, while it is on: the computes make exact the cells around the
    /// agents and the goal ([`exact_cells`]).
    pub(super) exact_around: Option<crate::grid::Connectivity>,
}

impl Computes<'_> {
    /// Keeps the changes for a group none of whose agents walks, to tell its planner when one
    /// walks again. When they would hold more than a quarter of what its planner holds, it is
    /// told them now instead (the queue it repairs from lives in its own memory): so an idle
    /// group's list stays within half its planner's memory, whatever the edits.
    pub(super) fn defer(&self, group: &mut Group) {
        // An unbuilt planner is built on the map as it is then: nothing to tell it.
        if group.unbuilt || self.changed.is_empty() {
            return;
        }
        group.deferred.extend_from_slice(self.changed);
        let size = std::mem::size_of::<usize>();
        let limit = group.planner.get().memory_bytes() / 4;
        // Deduplicated only past the limit (or twice the map), so the sort is amortised over
        // edits: after it, the list must grow to twice its size before the next.
        if group.deferred.len() * size > limit || group.deferred.len() > 2 * self.grid.len() {
            group.deferred.sort_unstable();
            group.deferred.dedup();
            if group.deferred.len() * size > limit / 2 {
                let deferred = std::mem::take(&mut group.deferred);
                group.planner.get_mut().cells_changed(self.grid, &deferred);
            }
        }
    }

    /// Repairs `group`'s planner for `starts` (its `n` walking agents' cells) with at most
    /// `max` expansions, and records the compute: its work, its expansions, its run when
    /// tracing and its record when kept. Returns its work and whether it ended.
    pub(super) fn run(
        &mut self,
        goal: usize,
        group: &mut Group,
        starts: &[usize],
        n: usize,
        max: u64,
    ) -> (SearchStats, Progress) {
        let grid = self.grid;
        group.last_used = self.tick;
        let planner = group.planner.get_mut();
        planner.set_starts(grid, starts);
        if let Some(conn) = self.exact_around {
            // Crowd mode ranks every neighbour of the agents and of the goal (where the
            // arrived agent stands): they must be exact too.
            let mut cells = starts.to_vec();
            cells.push(goal);
            let mut exact = Vec::new();
            exact_cells(grid, conn, &cells, &mut exact);
            planner.set_exact(grid, &exact);
        }
        if !group.deferred.is_empty() {
            planner.cells_changed(grid, &group.deferred);
            group.deferred = Vec::new();
        }
        if !self.changed.is_empty() {
            planner.cells_changed(grid, self.changed);
        }
        let t = Instant::now();
        let (work, progress) = planner.compute_within(grid, max);
        let elapsed = t.elapsed();
        let micros = elapsed.as_micros() as u64;
        self.stats.search_nanos += elapsed.as_nanos() as u64;
        self.stats.search += work;
        keep_expanded(self.expanded, planner.last_expanded().iter().copied());
        if self.history.tracing {
            (self.history).push_run(RunSource::Goal(grid.pos(goal)), planner.last_trace());
        }
        // Taken, not copied: thousands of planners must not each hold their largest trace.
        // A compute that expanded nothing is not kept, and its trace stays in the planner,
        // whose next compute clears it and reuses its room.
        if self.history.keep > 0 && work.expanded > 0 && !planner.last_trace().truncated {
            let trace = planner.take_last_trace();
            let record = ComputeRecord {
                tick: self.tick,
                goal: grid.pos(goal),
                trace,
                stats: work,
                km: planner.km(),
                agents: n,
                micros,
            };
            self.history.push(group, goal, record);
        }
        (work, progress)
    }
}

/// After a compute of a D* Lite `group` with `n` walking agents: moves read `g` in the 3×3
/// block around them, so an expanded cell's block is forgotten; a group that grew large
/// starts a memo, one that shrank well below drops it (and stops being tracked).
pub(super) fn refresh_memo(group: &mut Group, grid: &Grid, n: usize) {
    if group.planner.is_lite() {
        if !group.memo.is_empty() {
            for &u in group.planner.get().last_expanded() {
                forget_moves(&mut group.memo, grid, u as usize);
            }
            if n < MEMO_MIN_AGENTS / 4 {
                group.memo = Vec::new();
                group.untrack();
            }
        } else if n >= MEMO_MIN_AGENTS {
            group.memo = vec![UNKNOWN; grid.len()];
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::cost::INFINITY;
    use crate::grid::{Connectivity, Grid, Pos, Terrain};
    use crate::planner::Algorithm;
    use crate::search::dijkstra;
    use crate::sim::{AgentStatus, MAX_EXPANDED_KEPT, SimConfig, Simulation};

    fn config(algorithm: Algorithm) -> SimConfig {
        SimConfig {
            algorithm,
            connectivity: Connectivity::Eight,
            ..SimConfig::default()
        }
    }

    #[test]
    fn a_replan_keeps_only_the_first_expanded_cells() {
        // Dijkstra from corner to corner of 512² expands most of the map for each agent.
        let mut sim = Simulation::new(Grid::new(512, 512).unwrap(), config(Algorithm::Dijkstra));
        for i in 0..6 {
            sim.add_agent(Pos::new(i, 0), Pos::new(511 - i, 511))
                .unwrap();
        }
        let stats = sim.replan();
        assert!(
            stats.search.expanded > MAX_EXPANDED_KEPT as u64,
            "{stats:?}"
        );
        assert_eq!(sim.last_expanded().len(), MAX_EXPANDED_KEPT);
        let first = sim.grid().index(Pos::new(0, 0)).unwrap() as u32;
        assert_eq!(
            sim.last_expanded()[0],
            first,
            "the first agent's search comes first"
        );
    }

    #[test]
    fn an_idle_group_holds_few_deferred_changes_and_repairs_exactly() {
        let mut sim = Simulation::new(Grid::new(120, 120).unwrap(), config(Algorithm::DStarLite));
        let goal = Pos::new(10, 5);
        let idle = sim.add_agent(Pos::new(5, 5), goal).unwrap();
        while sim.agent(idle).unwrap().status != AgentStatus::Arrived {
            sim.tick(&[]);
        }
        let g = sim.grid().index(goal).unwrap();
        let planner_bytes = |sim: &Simulation| sim.groups.by_goal[&g].planner.get().memory_bytes();
        // 150 ticks of 40 edits each, walls up then down, away from the idle group.
        let mut edits = 0;
        for t in 0..150u32 {
            let x = 20 + (t % 90);
            let terrain = if t < 90 { Terrain::Wall } else { Terrain::FREE };
            let column: Vec<(Pos, Terrain)> =
                (0..40).map(|y| (Pos::new(x, 60 + y), terrain)).collect();
            edits += column.len();
            sim.tick(&column);
            let deferred = sim.groups.by_goal[&g].deferred.len();
            assert!(
                deferred * 8 <= planner_bytes(&sim) / 4,
                "tick {t}: {deferred} deferred"
            );
        }
        assert!(edits > 4000);
        // A new agent of the idle goal, beyond the walls: its cost is Dijkstra's.
        let far = sim.add_agent(Pos::new(100, 110), goal).unwrap();
        sim.replan();
        let want = dijkstra(sim.grid(), Pos::new(100, 110), goal, Connectivity::Eight)
            .unwrap()
            .path
            .map_or(INFINITY, |p| p.cost);
        assert_eq!(sim.agent(far).unwrap().remaining, Some(want));
    }
}
