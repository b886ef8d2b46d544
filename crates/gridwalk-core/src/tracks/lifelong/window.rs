//! [`WindowLns`]: a window of several timesteps planned for every robot and refined by large
//! neighbourhood search (LNS) while the step's time lasts; only the first timestep is
//! executed, and the next step starts from the rest of the window.
//!
//! **The window.** Every robot holds a path of [`WindowConfig::window`] timesteps from its
//! state now, clear of every other's (no shared cell, no swap: [`Reservations`]). Its cost
//! is the timestep it reaches its goal, or the window plus the exact cost to go from where
//! the window leaves it ([`path_cost`]); the search lowers the sum over all robots.
//!
//! **Each step** starts from last step's window without its first timestep (which was
//! executed), every robot waiting one more timestep at its end: still clear of every other.
//! At the first step, or when the robots do not stand where last step's window put them, every
//! robot waits the whole window.
//!
//! **Refining.** A neighbourhood of robots is taken out of the window and planned again one by
//! one, in a random order, each by space-time A\* ([`SpaceTimeAstar`]) against the others'
//! paths; the new paths are kept if all were found and their costs sum to less than before
//! (or the same), otherwise the old ones are put back. A neighbourhood grows from a robot that
//! is late (its cost above its cost alone on the map): the robots on the cells of its path
//! alone, over the window, and then theirs, up to [`WindowConfig::neighbourhood`] robots.
//! Refining stops at the step's time ([`WindowConfig::plan_time`]) or after
//! [`WindowConfig::iterations`] neighbourhoods.
//!
//! **Validity.** Every window the search keeps is clear, so its first timestep puts no two
//! robots on one cell and makes no two swap: the step is valid by LoRR's rules whenever the
//! robots stand where the window starts, which the planner checks.

use std::time::{Duration, Instant};

use crate::crowd::{Action, NONE, OperationStep};
use crate::grid::Grid;
use crate::mapf::RotationTables;
use crate::rng::{Draw, Rng, SeedableRng, SplitMix64};

use super::planner::Planner;
use super::spacetime::{
    Reservations, SpaceTimeAstar, St, WindowGuidance, action_between, path_cost,
};
use super::weighted::{EdgeCosts, WeightedTables};
use super::State;

/// How the window is planned and refined.
#[derive(Clone, Copy, Debug)]
pub struct WindowConfig {
    /// Timesteps planned ahead.
    pub window: usize,
    /// Robots replanned together.
    pub neighbourhood: usize,
    /// Time a step may spend refining (the planner's own clock, from its call).
    pub plan_time: Duration,
    /// Neighbourhoods a step may try at most (`None`: no bound but the time).
    pub iterations: Option<usize>,
    /// A\* expansions a step's refining may make (`None`: no bound but the time). With a
    /// bound that the time never cuts, the planner is deterministic.
    pub work: Option<u64>,
    /// Whether each step also rolls PIBT over operations out over the window and starts
    /// from it when it costs less than last step's window.
    pub rollout: bool,
    /// Whether the rollout is started from even when last step's window costs less.
    pub always_rollout: bool,
    /// Rollouts a step tries (the later ones with their priorities perturbed); the cheapest
    /// is started from.
    pub rollouts: usize,
    /// The share of neighbourhoods whose members' paths are all taken out before any is
    /// planned again (the others: each just before it is planned).
    pub together: f64,
    /// Whether only neighbourhoods that lower the cost are kept (not those that keep it).
    pub strict: bool,
    /// Whether a robot that has arrived within the window rather stays there.
    pub stay_after: bool,
}

impl Default for WindowConfig {
    fn default() -> WindowConfig {
        WindowConfig {
            window: 10,
            neighbourhood: 8,
            plan_time: Duration::from_millis(500),
            iterations: None,
            work: None,
            rollout: true,
            always_rollout: true,
            rollouts: 1,
            together: 1.0,
            strict: false,
            stay_after: true,
        }
    }
}

/// What the refining did, summed over the steps.
#[derive(Clone, Copy, Debug, Default)]
pub struct WindowStats {
    pub steps: u64,
    pub iterations: u64,
    pub accepted: u64,
    pub improved: u64,
    pub failed: u64,
    pub expanded: u64,
    pub resets: u64,
    pub rollouts: u64,
    pub better_rollouts: u64,
}

/// The guidance tables: exact, or with traffic rules.
enum Tables {
    Exact(RotationTables),
    Weighted(WeightedTables),
}

impl Tables {
    fn memory_bytes(&self) -> usize {
        match self {
            Tables::Exact(t) => t.memory_bytes(),
            Tables::Weighted(t) => t.memory_bytes(),
        }
    }

    fn retain(&mut self, keep: impl FnMut(u32) -> bool) {
        match self {
            Tables::Exact(t) => t.retain(keep),
            Tables::Weighted(t) => t.retain(keep),
        }
    }

    fn ensure(&mut self, goal: u32) -> Result<(), String> {
        match self {
            Tables::Exact(t) => t.ensure(goal),
            Tables::Weighted(t) => t.ensure(goal),
        }
    }
}

/// The windowed planner (see the module doc).
pub struct WindowLns {
    grid: Grid,
    /// Home between steps (taken out while a step plans).
    tables: Option<Tables>,
    budget: usize,
    cfg: WindowConfig,
    rng: SplitMix64,
    res: Reservations,
    astar: SpaceTimeAstar,
    /// Per robot: its window path, `window + 1` states from now.
    paths: Vec<Vec<St>>,
    cost: Vec<u64>,
    /// Per robot: its cost alone on the map (what its delay is measured from).
    alone: Vec<u64>,
    goals: Vec<Option<u32>>,
    goal_cells: Vec<u32>,
    /// Robots late at the step's start (some may have caught up since).
    late: Vec<u32>,
    /// Scratch.
    members: Vec<u32>,
    mark: Vec<u32>,
    mark_gen: u32,
    saved: Vec<Vec<St>>,
    saved_cost: Vec<u64>,
    /// The planner rolled out over the window, if not the built-in PIBT over operations.
    inner: Option<Box<dyn Planner>>,
    /// Without an inner planner, PIBT over operations is rolled out, robots ordered by the
    /// steps since their goal changed.
    op_step: OperationStep,
    waited: Vec<u32>,
    last_goal: Vec<Option<u32>>,
    order: Vec<u32>,
    /// What the refining did.
    pub stats: WindowStats,
}

impl WindowLns {
    /// A planner for robots on `grid`, its distance tables held to about `budget` bytes.
    pub fn new(
        grid: &Grid,
        budget: usize,
        seed: u64,
        cfg: WindowConfig,
        inner: Option<Box<dyn Planner>>,
        costs: Option<EdgeCosts>,
    ) -> WindowLns {
        let window = cfg.window.max(1);
        let cfg = WindowConfig { window, ..cfg };
        WindowLns {
            grid: grid.clone(),
            tables: Some(match costs {
                Some(c) => Tables::Weighted(WeightedTables::new(grid, c)),
                None => Tables::Exact(RotationTables::new(grid)),
            }),
            budget,
            cfg,
            rng: SplitMix64::seed_from_u64(seed),
            res: Reservations::new(grid.len(), window),
            astar: {
                let mut a = SpaceTimeAstar::new(grid, window);
                a.stay_after = cfg.stay_after;
                a
            },
            paths: Vec::new(),
            cost: Vec::new(),
            alone: Vec::new(),
            goals: Vec::new(),
            goal_cells: Vec::new(),
            late: Vec::new(),
            members: Vec::new(),
            mark: Vec::new(),
            mark_gen: 0,
            saved: Vec::new(),
            saved_cost: Vec::new(),
            inner,
            op_step: OperationStep::new(grid),
            waited: Vec::new(),
            last_goal: Vec::new(),
            order: Vec::new(),
            stats: WindowStats::default(),
        }
    }

    /// The window's paths to start from: last step's shifted, or every robot waiting.
    fn start_window(&mut self, states: &[State]) {
        let n = states.len();
        let h = self.cfg.window;
        let follows = self.paths.len() == n
            && self
                .paths
                .iter()
                .zip(states)
                .all(|(p, s)| p[1] == (s.cell, s.facing));
        for (a, p) in self.paths.iter().enumerate() {
            self.res.remove(a as u32, p);
        }
        if follows {
            for p in &mut self.paths {
                p.remove(0);
                let last = *p.last().expect("a path has states");
                p.push(last);
            }
        } else {
            if !self.paths.is_empty() {
                self.stats.resets += 1;
            }
            self.paths = states
                .iter()
                .map(|s| vec![(s.cell, s.facing); h + 1])
                .collect();
        }
        for (a, p) in self.paths.iter().enumerate() {
            self.res.add(a as u32, p);
        }
    }

    /// The inner planner played over the window from `states` (for at most half the step's
    /// time, waits after that): each robot's path and their summed cost.
    fn rollout<G: WindowGuidance + ?Sized>(
        &mut self,
        g: &G,
        states: &[State],
        started: Instant,
    ) -> (Vec<Vec<St>>, u64) {
        let n = states.len();
        let h = self.cfg.window;
        let mut at: Vec<State> = states.to_vec();
        let mut goals = self.goals.clone();
        let mut paths: Vec<Vec<St>> = at
            .iter()
            .map(|s| {
                let mut p = Vec::with_capacity(h + 1);
                p.push((s.cell, s.facing));
                p
            })
            .collect();
        let mut acts = Vec::new();
        let mut roll: Option<OperationStep> = None;
        let mut cells: Vec<St> = Vec::with_capacity(n);
        for k in 0..h {
            acts.clear();
            if started.elapsed() < self.cfg.plan_time / 2 {
                if let Some(inner) = &mut self.inner {
                    inner.plan(&at, &goals, &mut acts);
                } else {
                    cells.clear();
                    cells.extend(at.iter().map(|s| (s.cell, s.facing)));
                    // The first timestep on the step kept from step to step (its robots go on
                    // with the operations they started), the others on a copy.
                    let step = roll.as_mut().unwrap_or(&mut self.op_step);
                    if let Ok(a) = step.step(&self.grid, &cells, &goals, &self.order, g, &mut self.rng) {
                        acts.extend_from_slice(a);
                    }
                    if k == 0 {
                        roll = Some(self.op_step.clone());
                    }
                }
            }
            acts.resize(n, Action::Wait);
            for (a, act) in acts.iter().enumerate() {
                let s = act
                    .apply(&self.grid, (at[a].cell, at[a].facing))
                    .unwrap_or((at[a].cell, at[a].facing));
                at[a] = State {
                    cell: s.0,
                    facing: s.1,
                };
                paths[a].push(s);
                if goals[a] == Some(s.0) {
                    goals[a] = None;
                }
            }
        }
        let total = (0..n)
            .map(|a| path_cost(g, a, self.goals[a], &paths[a]))
            .fold(0u64, u64::saturating_add);
        (paths, total)
    }

    /// Another order for another rollout: the steps on the goal plus a draw below `spread`.
    fn perturb(&mut self, spread: u32) {
        let n = self.goals.len();
        let keys: Vec<(u32, u32)> = (0..n)
            .map(|a| {
                let noise = self.rng.below(spread as usize + 1) as u32;
                (self.waited[a].saturating_add(noise), self.rng.next_u32())
            })
            .collect();
        self.order
            .sort_unstable_by_key(|&a| std::cmp::Reverse(keys[a as usize]));
    }

    /// The rollout's priorities: the longest on their goal first, ties drawn.
    fn prioritise(&mut self) {
        let n = self.goals.len();
        if self.waited.len() != n {
            self.waited = vec![0; n];
            self.last_goal = vec![None; n];
        }
        for (a, &goal) in self.goals.iter().enumerate() {
            if goal != self.last_goal[a] {
                self.waited[a] = 0;
                self.last_goal[a] = goal;
            } else {
                self.waited[a] = self.waited[a].saturating_add(1);
            }
        }
        let draws: Vec<u32> = (0..n).map(|_| self.rng.next_u32()).collect();
        self.order.clear();
        self.order.extend(0..n as u32);
        let waited = &self.waited;
        self.order
            .sort_unstable_by_key(|&a| std::cmp::Reverse((waited[a as usize], draws[a as usize])));
    }

    /// The cost robot `a` would have alone on the map from `s`: down its table, the cheapest
    /// action each timestep.
    fn alone_cost<G: WindowGuidance + ?Sized>(&self, g: &G, a: usize, goal: Option<u32>, s: St) -> u64 {
        let Some(goal) = goal else {
            return 0;
        };
        let mut path = Vec::with_capacity(self.cfg.window + 1);
        path.push(s);
        let mut at = s;
        let mut arrived = false;
        for _ in 0..self.cfg.window {
            if !arrived {
                let mut best = (u64::MAX, at);
                for act in [Action::Forward, Action::Clockwise, Action::CounterClockwise, Action::Wait] {
                    if let Some(nx) = act.apply(&self.grid, at) {
                        let c = g.action_cost(at, act).saturating_add(g.cost(a, nx.0, nx.1));
                        if c < best.0 {
                            best = (c, nx);
                        }
                    }
                }
                at = best.1;
                arrived = at.0 == goal;
            }
            path.push(at);
        }
        path_cost(g, a, Some(goal), &path)
    }

    /// Grows a neighbourhood from a late robot into `self.members`; false if no robot is late.
    fn neighbourhood<G: WindowGuidance + ?Sized>(&mut self, g: &G) -> bool {
        let n = self.paths.len();
        let k = self.cfg.neighbourhood.min(n);
        // The latest of a few late robots drawn (those no longer late leave the list).
        let mut seed = NONE;
        let mut worst = 0;
        let mut draws = 0;
        while draws < 4 && !self.late.is_empty() {
            let i = self.rng.below(self.late.len());
            let a = self.late[i] as usize;
            let late = self.cost[a].saturating_sub(self.alone[a]);
            if late == 0 {
                self.late.swap_remove(i);
                continue;
            }
            draws += 1;
            if late > worst {
                worst = late;
                seed = a as u32;
            }
        }
        if seed == NONE {
            return false;
        }
        self.mark_gen = self.mark_gen.wrapping_add(1);
        if self.mark.len() != n || self.mark_gen == 0 {
            self.mark = vec![0; n];
            self.mark_gen = 1;
        }
        let gen_ = self.mark_gen;
        self.members.clear();
        self.members.push(seed);
        self.mark[seed as usize] = gen_;
        let h = self.cfg.window;
        let mut grown = 0;
        while self.members.len() < k && grown < self.members.len() {
            let a = self.members[grown] as usize;
            grown += 1;
            let Some(goal) = self.goals[a] else {
                continue;
            };
            // Its path alone: down the table, ties drawn.
            let mut s = self.paths[a][0];
            for t in 1..=h {
                if s.0 == goal {
                    break;
                }
                let mut best = (u64::MAX, 0u64, s);
                for act in [Action::Forward, Action::Clockwise, Action::CounterClockwise] {
                    if let Some(nx) = act.apply(&self.grid, s) {
                        let c = g.cost(a, nx.0, nx.1);
                        let draw = self.rng.next_u64();
                        if (c, draw) < (best.0, best.1) {
                            best = (c, draw, nx);
                        }
                    }
                }
                s = best.2;
                for dt in [t, t - 1, (t + 1).min(h)] {
                    let b = self.res.get(dt, s.0);
                    if b != NONE && self.mark[b as usize] != gen_ && self.members.len() < k {
                        self.mark[b as usize] = gen_;
                        self.members.push(b);
                    }
                }
            }
        }
        while self.members.len() < k.min(3) {
            let b = self.rng.below(n) as u32;
            if self.mark[b as usize] != gen_ {
                self.mark[b as usize] = gen_;
                self.members.push(b);
            }
        }
        true
    }

    /// Plans `self.members` again; keeps the new paths if they are no worse.
    fn refine_once<G: WindowGuidance + ?Sized>(&mut self, g: &G) {
        self.stats.iterations += 1;
        let members = std::mem::take(&mut self.members);
        // Together: every member's path is taken out first; one by one: each just before
        // it is planned, so that the old path is always open to it.
        let together = self.rng.unit() < self.cfg.together;
        self.saved.resize(members.len(), Vec::new());
        self.saved_cost.clear();
        let mut before = 0u64;
        for (i, &a) in members.iter().enumerate() {
            let p = &self.paths[a as usize];
            if together {
                self.res.remove(a, p);
            }
            self.saved[i].clone_from(p);
            self.saved_cost.push(self.cost[a as usize]);
            before = before.saturating_add(self.cost[a as usize]);
        }
        let mut order: Vec<usize> = (0..members.len()).collect();
        self.rng.shuffle(&mut order);
        let mut after = 0u64;
        let mut done = 0;
        let mut path = Vec::new();
        for &i in &order {
            let a = members[i];
            if !together {
                self.res.remove(a, &self.saved[i]);
            }
            let start = self.saved[i][0];
            let found = self.astar.search(
                &self.grid,
                &self.res,
                g,
                a,
                start,
                self.goals[a as usize],
                &mut path,
            );
            let c = match found {
                Some(c) => c,
                None if self.clear(a, &self.saved[i]) => {
                    path.clone_from(&self.saved[i]);
                    self.saved_cost[i]
                }
                None => break,
            };
            after = after.saturating_add(c);
            self.res.add(a, &path);
            std::mem::swap(&mut self.paths[a as usize], &mut path);
            self.cost[a as usize] = c;
            done += 1;
        }
        if done == order.len() && (after < before || (after == before && !self.cfg.strict)) {
            self.stats.accepted += 1;
            if after < before {
                self.stats.improved += 1;
            }
        } else {
            if done < order.len() {
                self.stats.failed += 1;
            }
            for &i in &order[..done] {
                let a = members[i];
                let p = &self.paths[a as usize];
                self.res.remove(a, p);
            }
            if !together {
                // The members not reached still hold their old paths.
                for &i in &order[done + 1..] {
                    self.res.remove(members[i], &self.saved[i]);
                }
            }
            for (i, &a) in members.iter().enumerate() {
                self.paths[a as usize].clone_from(&self.saved[i]);
                self.cost[a as usize] = self.saved_cost[i];
                self.res.add(a, &self.paths[a as usize]);
            }
        }
        self.members = members;
    }

    /// The step's planning once the guidance is at hand: the rollout, then refining.
    fn plan_with<G: WindowGuidance + ?Sized>(&mut self, g: &G, states: &[State], started: Instant) {
        let n = states.len();
        let goals = std::mem::take(&mut self.goals);
        self.cost = (0..n)
            .map(|a| path_cost(g, a, goals[a], &self.paths[a]))
            .collect();
        self.alone = (0..n)
            .map(|a| self.alone_cost(g, a, goals[a], self.paths[a][0]))
            .collect();
        self.goals = goals;
        let shifted = self.cost.iter().fold(0u64, |s, &c| s.saturating_add(c));
        let alone_sum = self.alone.iter().fold(0u64, |s, &c| s.saturating_add(c));
        let mut rolled = 0;
        if self.cfg.rollout {
            if self.inner.is_none() {
                self.prioritise();
            }
            // Each rollout starts from the operations step as last step left it; the step
            // goes on from the cheapest rollout's first timestep.
            let kept = (self.cfg.rollouts > 1 && self.inner.is_none()).then(|| self.op_step.clone());
            let (mut paths, mut total) = self.rollout(g, states, started);
            if let Some(base) = kept {
                let mut best_step = self.op_step.clone();
                for r in 1..self.cfg.rollouts {
                    if started.elapsed() > self.cfg.plan_time / 4 {
                        break;
                    }
                    self.op_step = base.clone();
                    self.perturb(8 * r as u32);
                    let (p2, t2) = self.rollout(g, states, started);
                    if t2 < total {
                        (paths, total) = (p2, t2);
                        self.stats.better_rollouts += 1;
                        best_step = self.op_step.clone();
                    }
                }
                self.op_step = best_step;
            }
            rolled = total;
            if total < shifted || self.cfg.always_rollout {
                self.stats.rollouts += 1;
                for (a, p) in self.paths.iter().enumerate() {
                    self.res.remove(a as u32, p);
                }
                self.paths = paths;
                for (a, p) in self.paths.iter().enumerate() {
                    self.res.add(a as u32, p);
                }
                self.cost = (0..n)
                    .map(|a| path_cost(g, a, self.goals[a], &self.paths[a]))
                    .collect();
            }
        }
        self.late.clear();
        self.late
            .extend((0..n as u32).filter(|&a| self.cost[a as usize] > self.alone[a as usize]));
        let mut iters = 0;
        self.astar.expanded = 0;
        while started.elapsed() < self.cfg.plan_time
            && self.cfg.iterations.is_none_or(|m| iters < m)
            && self.cfg.work.is_none_or(|w| self.astar.expanded < w)
        {
            iters += 1;
            if !self.neighbourhood(g) {
                break;
            }
            self.refine_once(g);
        }
        self.stats.expanded += std::mem::take(&mut self.astar.expanded);
        if std::env::var_os("GRIDWALK_WINDOW_TRACE").is_some() {
            let fin = self.cost.iter().fold(0u64, |s, &c| s.saturating_add(c));
            let fwd = self.paths.iter().filter(|p| p[0].0 != p[1].0).count();
            eprintln!(
                "step {}: alone {alone_sum} shifted {shifted} rollout {rolled} refined {fin} iters {iters} forward {fwd}",
                self.stats.steps
            );
        }
    }

    /// Whether `path` is clear of every other robot's for robot `a`.
    fn clear(&self, a: u32, path: &[St]) -> bool {
        path.windows(2)
            .enumerate()
            .all(|(t, w)| self.res.free(a, t, w[0].0, w[1].0))
    }
}

impl Planner for WindowLns {
    fn preprocess(&mut self, states: &[State], goals: &[Option<u32>]) {
        if let Some(inner) = &mut self.inner {
            inner.preprocess(states, goals);
        }
        if let Some(t) = &mut self.tables {
            for g in goals.iter().flatten() {
                let _ = t.ensure(*g);
            }
        }
    }

    /// Every robot waits when a goal is off the map or a wall.
    fn plan(&mut self, states: &[State], goals: &[Option<u32>], actions: &mut Vec<Action>) {
        let started = Instant::now();
        self.stats.steps += 1;
        let n = states.len();
        actions.clear();
        self.goals.clear();
        self.goals.extend_from_slice(goals);
        self.goal_cells.clear();
        self.goal_cells
            .extend(states.iter().zip(goals).map(|(s, g)| g.unwrap_or(s.cell)));
        let mut tables = self.tables.take().expect("the tables are home between steps");
        if tables.memory_bytes() > self.budget {
            let mut keep = self.goal_cells.clone();
            keep.sort_unstable();
            keep.dedup();
            tables.retain(|g| keep.binary_search(&g).is_ok());
        }
        self.start_window(states);
        let goal_cells = std::mem::take(&mut self.goal_cells);
        let planned = match &mut tables {
            Tables::Exact(t) => t
                .guidance(&goal_cells)
                .map(|g| self.plan_with(&g, states, started)),
            Tables::Weighted(t) => t
                .guidance(&goal_cells)
                .map(|g| self.plan_with(&g, states, started)),
        };
        match planned {
            Ok(()) => actions.extend(
                self.paths
                    .iter()
                    .map(|p| action_between(&self.grid, p[0], p[1])),
            ),
            Err(_) => actions.resize(n, Action::Wait),
        }
        self.tables = Some(tables);
        self.goal_cells = goal_cells;
    }

    fn summary(&self) -> Option<String> {
        let s = &self.stats;
        Some(format!(
            "window: steps {}, neighbourhoods {}, kept {}, better {}, failed {}, expanded {}, resets {}, rollouts taken {}, better rollouts {}",
            s.steps, s.iterations, s.accepted, s.improved, s.failed, s.expanded, s.resets, s.rollouts, s.better_rollouts
        ))
    }
}
