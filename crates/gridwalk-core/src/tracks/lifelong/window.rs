//! [`WindowLns`]: a window of several timesteps planned for every robot and refined by large
//! neighbourhood search (LNS) with space-time A\*; only the first timestep is executed, and
//! the next step plans again. The planner of small maps below 0.8 robots a free cell
//! (`--planner window`, and `auto`'s choice there).
//!
//! **The window.** Every robot holds a path of [`WindowConfig::window`] timesteps from its
//! state now, clear of every other's (no shared cell, no swap: [`Reservations`]). Its cost
//! ([`path_cost`]) is what its actions cost until it stands on its goal, or, if it does not
//! get there within the window, what they cost plus the cost to go from where the window
//! leaves it; ties go to the path that gets nearer sooner. The search lowers the sum over all
//! robots. The costs are the guidance's: exact (cell, facing) tables, or tables with traffic
//! rules ([`EdgeCosts`], one-way streets in preference) on the denser maps; either may be
//! priced again every few steps by the traffic the robots make ([`WindowLns::with_traffic`]).
//!
//! **Each step** starts from a rollout: PIBT over 3-step operations ([`OperationStep`],
//! priority to the robots longest on their goal, a robot held up yielding to the one in its
//! way) played over the window, a robot that reaches its goal staying there, pushable, for
//! the rest of it. Its pushes are what move robots out of each other's way: LNS alone,
//! started from last step's window, knotted from 0.5 robots a free cell
//! (docs/benchmarks.md). Without the rollout
//! ([`WindowConfig::rollout`] false), a step starts from last step's window without its first
//! timestep, every robot waiting one more timestep at its end (still clear), and every robot
//! waits the whole window at the first step or when the robots do not stand where the last
//! window put them.
//!
//! **Refining.** A neighbourhood of robots is taken out of the window and planned again one by
//! one, in a random order, each by space-time A\* ([`SpaceTimeAstar`]) against the others'
//! paths; a robot for which A\* finds nothing keeps its old path if that is still clear. The
//! new paths are kept if all were found and their costs sum to less than before, otherwise
//! the old ones are put back. A neighbourhood grows from a late robot (its cost above its
//! cost alone on the map; the latest of four drawn): the robots on the cells of its path
//! alone over the window (at that timestep or one either side), then on theirs, up to
//! [`WindowConfig::neighbourhood`] robots. Refining stops when no robot is late, after
//! [`WindowConfig::work`] A\* expansions (deterministic), or at [`WindowConfig::plan_time`],
//! a safety net: when the time cuts first, results depend on the machine.
//!
//! **Validity.** Every window kept is clear, so its first timestep puts no two robots on one
//! cell and makes no two swap: the step is valid by LoRR's rules.
//!
//! **Cost.** Memory: the reservation table and A\*'s buffers, O((window + 1) × cells); the
//! tables, one a goal, held to the budget. Time: the rollout, a window of operations steps,
//! then the refining's bound.

use std::time::{Duration, Instant};

use crate::crowd::{Action, NONE, OperationStep};
use crate::grid::Grid;
use crate::rng::{Draw, Rng, SeedableRng, SplitMix64};

use super::State;
use super::operations::yielding_step;
use super::planner::Planner;
use super::priority::GoalAge;
use super::spacetime::{
    Reservations, SpaceTimeAstar, St, WindowGuidance, action_between, path_cost,
};
use super::tables::Tables;
use super::traffic::{Traffic, TrafficConfig};
use super::weighted::EdgeCosts;

/// How the window is planned and refined.
#[derive(Clone, Copy, Debug)]
pub struct WindowConfig {
    /// Timesteps planned ahead.
    pub window: usize,
    /// Robots replanned together.
    pub neighbourhood: usize,
    /// Time a step may spend, the rollout's included (the planner's own clock, from its
    /// call): a safety net under [`work`](Self::work). The rollout stops at half of it.
    pub plan_time: Duration,
    /// A\* expansions a step's refining may make (`None`: no bound but the time).
    pub work: Option<u64>,
    /// Neighbourhoods a step may try at most (`None`: no bound).
    pub iterations: Option<usize>,
    /// Whether each step starts from the rollout (see the module doc).
    pub rollout: bool,
}

/// The default bound on a step's refining: about half a second on the machine of
/// docs/benchmarks.md's figures, within [`DEFAULT_PLAN_SHARE`] of LoRR's second.
pub const DEFAULT_WINDOW_WORK: u64 = 8_000_000;

/// The default share of the step time limit after which refining stops whatever its work: a
/// safety net that [`DEFAULT_WINDOW_WORK`] stays under, leaving the rest of the step for
/// the scheduler and the answer.
pub const DEFAULT_PLAN_SHARE: f64 = 0.8;

impl Default for WindowConfig {
    fn default() -> WindowConfig {
        WindowConfig {
            window: 10,
            neighbourhood: 8,
            // The share of LoRR's one-second step.
            plan_time: Duration::from_secs(1).mul_f64(DEFAULT_PLAN_SHARE),
            work: Some(DEFAULT_WINDOW_WORK),
            iterations: None,
            rollout: true,
        }
    }
}

/// What the planner did, summed over the steps.
#[derive(Clone, Copy, Debug, Default)]
pub struct WindowStats {
    /// Steps planned.
    pub steps: u64,
    /// Neighbourhoods tried.
    pub iterations: u64,
    /// Neighbourhoods whose new paths were kept (they cost less).
    pub improved: u64,
    /// Neighbourhoods where A\* found no path for some robot.
    pub failed: u64,
    /// A\* expansions.
    pub expanded: u64,
    /// Steps without the rollout whose robots did not stand where the last window put them.
    pub resets: u64,
    /// Steps whose rollout the time cut short.
    pub short_rollouts: u64,
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
    /// Per robot: its cost alone on the map (what its lateness is measured from).
    alone: Vec<u64>,
    goals: Vec<Option<u32>>,
    goal_cells: Vec<u32>,
    /// Robots late when refining began (some may have caught up since).
    late: Vec<u32>,
    /// Scratch: a neighbourhood, its marks, its old paths and costs.
    members: Vec<u32>,
    mark: Vec<u32>,
    mark_gen: u32,
    saved: Vec<Vec<St>>,
    saved_cost: Vec<u64>,
    /// The rollout's PIBT over operations, and its priorities: steps on the same goal.
    op_step: OperationStep,
    age: GoalAge,
    order: Vec<u32>,
    /// Traffic learnt from the robots' moves, pricing the tables' moves (`None`: fixed).
    traffic: Option<Traffic>,
    /// What the planner did.
    pub stats: WindowStats,
}

impl WindowLns {
    /// A planner for robots on `grid` guided by exact tables, or by tables with the action
    /// costs `costs`; its tables held to about `budget` bytes.
    pub fn new(
        grid: &Grid,
        budget: usize,
        seed: u64,
        cfg: WindowConfig,
        costs: Option<EdgeCosts>,
    ) -> WindowLns {
        let window = cfg.window.max(1);
        let cfg = WindowConfig { window, ..cfg };
        WindowLns {
            grid: grid.clone(),
            tables: Some(Tables::new(grid, costs)),
            budget,
            cfg,
            rng: SplitMix64::seed_from_u64(seed),
            res: Reservations::new(grid.len(), window),
            astar: SpaceTimeAstar::new(grid, window),
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
            op_step: yielding_step(grid),
            age: GoalAge::default(),
            order: Vec::new(),
            traffic: None,
            stats: WindowStats::default(),
        }
    }

    /// The same planner with its moves priced by the traffic it sees (see
    /// [`Traffic`]): over its traffic rules, or over plain moves if it has none.
    pub fn with_traffic(mut self, cfg: TrafficConfig) -> WindowLns {
        let tables = self
            .tables
            .as_mut()
            .expect("the tables are home between steps");
        self.traffic = Some(Traffic::over(&self.grid, tables, cfg));
        self
    }

    /// Bytes held: the tables, the reservation table, A\*'s buffers, the paths.
    pub fn memory_bytes(&self) -> usize {
        self.tables.as_ref().map_or(0, Tables::memory_bytes)
            + self.res.memory_bytes()
            + self.astar.memory_bytes()
            + self.op_step.memory_bytes()
            + self.paths.len() * (self.cfg.window + 1) * std::mem::size_of::<St>()
    }

    /// Without the rollout: last step's window shifted, or every robot waiting.
    fn shifted_window(&mut self, states: &[State]) {
        let h = self.cfg.window;
        let follows = self.paths.len() == states.len()
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

    /// PIBT over operations played over the window from `states` (every robot waits once
    /// half the step's time is spent): the window it makes.
    fn rollout<G: WindowGuidance + ?Sized>(&mut self, g: &G, states: &[State], started: Instant) {
        let n = states.len();
        let h = self.cfg.window;
        let mut at: Vec<St> = states.iter().map(|s| (s.cell, s.facing)).collect();
        let mut goals = self.goals.clone();
        for (a, p) in self.paths.iter().enumerate() {
            self.res.remove(a as u32, p);
        }
        self.paths.resize_with(n, Vec::new);
        for (p, &s) in self.paths.iter_mut().zip(&at) {
            p.clear();
            p.push(s);
        }
        let mut acts = Vec::new();
        let mut roll: Option<OperationStep> = None;
        let mut cut = false;
        for k in 0..h {
            acts.clear();
            if !cut && started.elapsed() < self.cfg.plan_time / 2 {
                // The first timestep on the step kept from step to step (its robots go on
                // with the operations they started), the others on a copy.
                let step = roll.as_mut().unwrap_or(&mut self.op_step);
                if let Ok(a) = step.step(&self.grid, &at, &goals, &self.order, g, &mut self.rng) {
                    acts.extend_from_slice(a);
                }
                if k == 0 {
                    roll = Some(self.op_step.clone());
                }
            } else if !cut {
                cut = true;
                self.stats.short_rollouts += 1;
            }
            acts.resize(n, Action::Wait);
            for (a, act) in acts.iter().enumerate() {
                let s = act.apply(&self.grid, at[a]).unwrap_or(at[a]);
                at[a] = s;
                self.paths[a].push(s);
                if goals[a] == Some(s.0) {
                    goals[a] = None;
                }
            }
        }
        for (a, p) in self.paths.iter().enumerate() {
            self.res.add(a as u32, p);
        }
    }

    /// The rollout's priorities: the longest on their goal first, ties drawn.
    fn prioritise(&mut self) {
        self.age.order(&self.goals, &mut self.rng, &mut self.order);
    }

    /// The cost robot `a` would have alone on the map from `s`: down its table, the cheapest
    /// action each timestep.
    fn alone_cost<G: WindowGuidance + ?Sized>(
        &self,
        g: &G,
        a: usize,
        goal: Option<u32>,
        s: St,
    ) -> u64 {
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
                for act in [
                    Action::Forward,
                    Action::Clockwise,
                    Action::CounterClockwise,
                    Action::Wait,
                ] {
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
        let Some(seed) = self.draw_seed() else {
            return false;
        };
        let gen_ = self.next_mark(n);
        self.members.clear();
        self.members.push(seed);
        self.mark[seed as usize] = gen_;
        let mut grown = 0;
        while self.members.len() < k && grown < self.members.len() {
            let a = self.members[grown] as usize;
            grown += 1;
            self.grow_along(g, a, k, gen_);
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

    /// The latest of up to four late robots drawn (those no longer late leave the list), or
    /// `None` if none is late.
    fn draw_seed(&mut self) -> Option<u32> {
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
        (seed != NONE).then_some(seed)
    }

    /// A new mark for the `n` robots, none of them marked with it.
    fn next_mark(&mut self, n: usize) -> u32 {
        self.mark_gen = self.mark_gen.wrapping_add(1);
        if self.mark.len() != n || self.mark_gen == 0 {
            self.mark = vec![0; n];
            self.mark_gen = 1;
        }
        self.mark_gen
    }

    /// Adds to the neighbourhood, up to `k` robots, those on the cells of robot `a`'s path
    /// alone over the window, at that timestep or one either side.
    fn grow_along<G: WindowGuidance + ?Sized>(&mut self, g: &G, a: usize, k: usize, gen_: u32) {
        let Some(goal) = self.goals[a] else {
            return;
        };
        let h = self.cfg.window;
        let mut s = self.paths[a][0];
        for t in 1..=h {
            if s.0 == goal {
                break;
            }
            s = self.step_alone(g, a, s);
            for dt in [t, t - 1, (t + 1).min(h)] {
                let b = self.res.get(dt, s.0);
                if b != NONE && self.mark[b as usize] != gen_ && self.members.len() < k {
                    self.mark[b as usize] = gen_;
                    self.members.push(b);
                }
            }
        }
    }

    /// Robot `a`'s next state on its path alone from `s`: down the table, ties drawn.
    #[inline]
    fn step_alone<G: WindowGuidance + ?Sized>(&mut self, g: &G, a: usize, s: St) -> St {
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
        best.2
    }

    /// Plans `self.members` again; keeps the new paths if they cost less.
    fn refine_once<G: WindowGuidance + ?Sized>(&mut self, g: &G) {
        self.stats.iterations += 1;
        let members = std::mem::take(&mut self.members);
        self.saved.resize(members.len(), Vec::new());
        self.saved_cost.clear();
        let mut before = 0u64;
        for (i, &a) in members.iter().enumerate() {
            let p = &self.paths[a as usize];
            self.res.remove(a, p);
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
            let (start, goal) = (self.saved[i][0], self.goals[a as usize]);
            let found = self
                .astar
                .search(&self.grid, &self.res, g, a, start, goal, &mut path);
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
        if done == order.len() && after < before {
            self.stats.improved += 1;
        } else {
            if done < order.len() {
                self.stats.failed += 1;
            }
            for &i in &order[..done] {
                let a = members[i];
                self.res.remove(a, &self.paths[a as usize]);
            }
            for (i, &a) in members.iter().enumerate() {
                self.paths[a as usize].clone_from(&self.saved[i]);
                self.cost[a as usize] = self.saved_cost[i];
                self.res.add(a, &self.paths[a as usize]);
            }
        }
        self.members = members;
    }

    /// Whether `path` is clear of every other robot's for robot `a`.
    fn clear(&self, a: u32, path: &[St]) -> bool {
        path.windows(2)
            .enumerate()
            .all(|(t, w)| self.res.free(a, t, w[0].0, w[1].0))
    }

    /// The step's planning once the guidance is at hand: the start, then refining.
    fn plan_with<G: WindowGuidance + ?Sized>(&mut self, g: &G, states: &[State], started: Instant) {
        let n = states.len();
        self.prioritise();
        if self.cfg.rollout {
            self.rollout(g, states, started);
        } else {
            self.shifted_window(states);
        }
        let goals = std::mem::take(&mut self.goals);
        self.cost = (0..n)
            .map(|a| path_cost(g, a, goals[a], &self.paths[a]))
            .collect();
        self.alone = (0..n)
            .map(|a| self.alone_cost(g, a, goals[a], self.paths[a][0]))
            .collect();
        self.goals = goals;
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
    }
}

impl Planner for WindowLns {
    fn preprocess(&mut self, _states: &[State], goals: &[Option<u32>]) {
        if let Some(t) = &mut self.tables {
            // A goal off the map or on a wall is refused again when planned.
            let _ = t.ensure_all(goals.iter().flatten().copied());
        }
    }

    /// Every robot waits when a goal is off the map or a wall.
    fn plan(&mut self, states: &[State], goals: &[Option<u32>], actions: &mut Vec<Action>) {
        let started = Instant::now();
        self.stats.steps += 1;
        let n = states.len();
        actions.clear();
        if let (Some(traffic), Some(tables)) = (&mut self.traffic, &mut self.tables) {
            traffic.watch(&self.grid, tables, states, goals);
        }
        self.goals.clear();
        self.goals.extend_from_slice(goals);
        self.goal_cells.clear();
        self.goal_cells
            .extend(states.iter().zip(goals).map(|(s, g)| g.unwrap_or(s.cell)));
        let mut tables = self
            .tables
            .take()
            .expect("the tables are home between steps");
        tables.hold_to(self.budget, self.goal_cells.iter().copied());
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
            Err(_) => {
                // The window is not what the robots will do: the next step starts afresh.
                self.paths.clear();
                self.res.clear();
                actions.resize(n, Action::Wait);
            }
        }
        self.tables = Some(tables);
        self.goal_cells = goal_cells;
    }

    fn summary(&self) -> Option<String> {
        let s = &self.stats;
        Some(format!(
            "window: steps {}, neighbourhoods {}, kept {}, failed {}, expanded {}, resets {}, rollouts cut short {}",
            s.steps, s.iterations, s.improved, s.failed, s.expanded, s.resets, s.short_rollouts
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Pos, Terrain};

    /// Robots on a 12 × 12 grid with a few walls, each given a new random goal when it
    /// reaches one, planned by `planner` for `steps` steps: every joint step must pass the
    /// rules ([`super::super::check_step`]). Returns the goals reached.
    fn play(
        planner: &mut dyn Planner,
        grid: &Grid,
        robots: usize,
        seed: u64,
        steps: usize,
    ) -> usize {
        use crate::rng::Draw;
        let mut rng = SplitMix64::seed_from_u64(seed);
        let free: Vec<u32> = (0..grid.len() as u32)
            .filter(|&c| grid.weight(c as usize) != 0)
            .collect();
        let mut cells = free.clone();
        rng.shuffle(&mut cells);
        let (mut states, mut goals) = super::super::random_robots(&cells, &free, robots, &mut rng);
        let pick = |rng: &mut SplitMix64| free[rng.below(free.len())];
        super::super::play_checked(
            planner,
            grid,
            (&mut states, &mut goals),
            (steps, seed),
            || pick(&mut rng),
        )
    }

    /// A 12 × 12 grid whose walls leave every free cell connected (a few pillars).
    fn pillars() -> Grid {
        let mut grid = Grid::new(12, 12).unwrap();
        for (x, y) in [
            (3, 3),
            (8, 3),
            (3, 8),
            (8, 8),
            (5, 6),
            (6, 1),
            (1, 10),
            (10, 6),
        ] {
            grid.set(Pos::new(x, y), Terrain::Wall).unwrap();
        }
        grid
    }

    fn config(rollout: bool) -> WindowConfig {
        WindowConfig {
            plan_time: Duration::from_secs(60),
            work: Some(200_000),
            rollout,
            ..WindowConfig::default()
        }
    }

    #[test]
    fn every_step_is_valid_from_sparse_to_packed() {
        let grid = pillars();
        let highways = EdgeCosts::highways(&grid, 2, 10);
        let light = |rollout| WindowConfig {
            work: Some(20_000),
            ..config(rollout)
        };
        for seed in 0..2 {
            for robots in [4, 60, 130] {
                for (rollout, costs) in
                    [(true, None), (false, None), (true, Some(highways.clone()))]
                {
                    let mut p = WindowLns::new(&grid, 1 << 24, seed, light(rollout), costs);
                    play(&mut p, &grid, robots, seed, 40);
                }
                // Tables priced again every five steps by the traffic, over plain moves.
                let traffic = TrafficConfig {
                    period: 5,
                    ..TrafficConfig::default()
                };
                let p = WindowLns::new(&grid, 1 << 24, seed, light(true), None);
                play(&mut p.with_traffic(traffic), &grid, robots, seed, 40);
            }
        }
    }

    #[test]
    fn refining_the_rollout_reaches_more_goals_than_the_rollout_alone() {
        // 50 robots on 136 free cells: the rollout alone is PIBT over operations, executed
        // one timestep at a time; the refined window must do better over 150 steps, summed
        // over three seeds.
        let grid = pillars();
        let (mut refined, mut alone) = (0, 0);
        for seed in 0..3 {
            let mut p = WindowLns::new(&grid, 1 << 24, seed, config(true), None);
            refined += play(&mut p, &grid, 50, seed, 150);
            let bare = WindowConfig {
                iterations: Some(0),
                ..config(true)
            };
            let mut p = WindowLns::new(&grid, 1 << 24, seed, bare, None);
            alone += play(&mut p, &grid, 50, seed, 150);
        }
        eprintln!("refined {refined}, rollout alone {alone}");
        assert!(refined > alone, "refined {refined}, rollout alone {alone}");
    }

    #[test]
    fn the_same_seed_and_work_plan_the_same_steps() {
        let grid = pillars();
        let a = play(
            &mut WindowLns::new(&grid, 1 << 24, 7, config(true), None),
            &grid,
            40,
            7,
            40,
        );
        let b = play(
            &mut WindowLns::new(&grid, 1 << 24, 7, config(true), None),
            &grid,
            40,
            7,
            40,
        );
        assert_eq!(a, b);
    }
}
