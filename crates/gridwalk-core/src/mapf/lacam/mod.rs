//! LaCAM (Okumura, AAAI 2023): a depth-first search over configurations whose successors are
//! generated lazily, one at a time, by PIBT under constraints. See the [module doc](super) for
//! why it is complete.
//!
//! The pieces follow the reference's: high-level nodes in an [`arena`] (each with its
//! priorities and order), the low-level [`constraint`] nodes and their branching, and
//! [`Search`], whose [`expand`](Search::expand) takes one constraint from the node on top of
//! the stack and asks PIBT for a successor that obeys it. The search is resumable: `expand`
//! does at most a given number of those tries and returns, and a later call goes on where it
//! stopped. This is what lets a caller give the search a budget at a time, as crowd mode's
//! real-time search does ([`RealTime`](super::realtime::RealTime)), keeping one search alive
//! across ticks; [`search`] is the one-shot run on top of it.

mod anytime;
mod arena;
mod constraint;

use std::time::Duration;
use web_time::Instant;

use anytime::{Best, REFINER_SEED, Run, TRIES_BESIDE_REFINER};
use arena::Arena;
use constraint::Constraints;

use super::dist::DistanceTables;
use super::scatter::{self, Guide, Scatter, Stop};
use super::swap::SwapPibt;
use crate::crowd::{Guidance, NONE, StepError, StepOptions, StepRule};
use crate::grid::{Connectivity, Grid};
use crate::rng::{Draw, SeedableRng, SplitMix64};

/// How a search ended without a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsolved {
    /// The time limit passed.
    TimeLimit,
    /// The memory cap was reached: too many configurations kept.
    MemoryCap,
    /// Every configuration within the tick limit was explored (with no tick limit: the
    /// instance has no solution).
    Exhausted,
}

/// A search's limits and seed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    /// The time limit, counted from the `began` given to [`search`].
    pub time: Duration,
    pub max_ticks: Option<u32>,
    pub memory: usize,
    pub seed: u64,
    /// The scatter's margin over each agent's shortest path; `None` for no scatter.
    pub scatter: Option<u32>,
    /// Generate configurations by PIBT with swaps, without the scatter (4 moves only).
    pub swap: bool,
    /// Stop at the first solution (else go on as LaCAM\* until the time limit).
    pub first: bool,
    /// Bounds the scatter by its expansions instead of by half the time limit, so that a
    /// search cut short there still replays.
    pub scatter_work: Option<u64>,
}

/// The search's outcome: the configurations from start to goal, or why there are none; and the
/// number of configurations kept.
pub(super) struct Outcome {
    pub plan: Result<Vec<Vec<u32>>, Unsolved>,
    pub configurations: usize,
    /// Each better plan as it was found: (milliseconds from the caller's start, its soc).
    pub history: Vec<(u64, u64)>,
}

/// Where a resumable search stands after [`Search::expand`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The budget ran out; call again to go on.
    Open,
    /// The configuration of this node has every agent on its goal.
    Solved(u32),
    /// The search ended without a solution ([`Unsolved::TimeLimit`] is never returned here:
    /// time is the caller's to keep).
    Failed(Unsolved),
    /// After a solution, the search has nothing left under its best cost: the best plan
    /// ([`Search::goal`]) is optimal for the sum of loss (within the tick limit).
    Complete,
}

/// The chance that a successor already kept is searched on again from the top of the stack
/// (lacam2 and lacam3 always do; the original LaCAM never does). On random-32-32-20 one time
/// in ten was both faster than either and as good as always (see docs/benchmarks.md, "Design
/// choices measured").
const REVISIT: f64 = 0.1;

/// How many tries [`search`] makes between looks at the clock.
const TRIES_PER_CLOCK: usize = 64;

/// Per-try buffers, indexed by agent.
struct Scratch {
    /// The configuration being expanded.
    cur: Vec<u32>,
    /// Its order.
    order: Vec<u32>,
    /// The constraints' cells, `None` for free agents.
    fixed: Vec<Option<u32>>,
    /// Each agent's next cell on its scatter path, or [`NONE`].
    pref: Vec<u32>,
    /// The successor generated.
    next: Vec<u32>,
}

/// A LaCAM search that can be run a budget at a time: [`expand`](Self::expand) makes at most
/// a given number of tries and returns, and the next call goes on from there. It owns its
/// state; the grid and the distance tables it was made with are passed again to each call.
///
/// This is the search crowd mode keeps alive across ticks (the real-time LaCAM): each tick
/// spends a budget of tries, and the search resumes on the next. The one-shot
/// [`solve`](super::solve) runs it to the end, 64 tries between looks at the clock, so a
/// search driven a try at a time finds the same plan.
///
/// ```
/// use gridwalk_core::grid::{Connectivity, Pos};
/// use gridwalk_core::mapf::{DistanceTables, Options, Problem, Progress, Search};
///
/// let grid = gridwalk_core::format::grid_from_rows(&["#####", "#...#", "##.##"]).unwrap();
/// let (a, b) = (Pos::new(1, 1), Pos::new(3, 1));
/// let problem = Problem::new(grid, Connectivity::Four, vec![a, b], vec![b, a]).unwrap();
/// let dist = DistanceTables::of(&problem);
/// let mut search = Search::new(&problem, &dist, &Options::default());
/// let plan = loop {
///     match search.expand(problem.grid(), &dist, 1) {
///         Progress::Open => continue,
///         Progress::Solved(goal) => break search.plan(goal),
///         other => panic!("{other:?}"),
///     }
/// };
/// assert_eq!(plan.first().unwrap(), &[6, 8]);
/// assert_eq!(plan.last().unwrap(), &[8, 6]);
/// ```
pub struct Search {
    conn: Connectivity,
    goals: Vec<u32>,
    max_ticks: Option<u32>,
    /// The most bytes the arena, the constraints and the stack may take.
    memory: usize,
    rng: SplitMix64,
    pibt: StepRule,
    /// PIBT with swaps, the generator of dense instances ([`super::Options::dense_from`]),
    /// with its own copy of the distance tables it ranks moves by.
    swap: Option<(SwapPibt, DistanceTables)>,
    paths: Option<Scatter>,
    arena: Arena,
    constraints: Constraints,
    /// The depth-first stack of node ids.
    open: Vec<u32>,
    /// The goal's node once found, and whether the costs were recomputed over every known
    /// transition since (LaCAM\* starts then).
    goal: Option<(u32, bool)>,
    scratch: Scratch,
}

impl Search {
    /// A search of `problem`, guided by `dist` (its tables, [`DistanceTables::of`]), with
    /// `options`' seed, tick limit, memory cap (less the tables') and scatter; its scatter
    /// takes at most half the time limit. The time limit itself is the caller's to keep.
    pub fn new(
        problem: &super::Problem,
        dist: &DistanceTables,
        options: &super::Options,
    ) -> Search {
        let table_bytes = DistanceTables::bytes_needed(problem.grid.len(), &problem.goals);
        let limits = Limits {
            time: options.time_limit,
            max_ticks: options.max_ticks,
            memory: options.memory_cap.saturating_sub(table_bytes),
            seed: options.seed,
            scatter: options.scatter_margin,
            swap: problem.dense(options),
            first: !options.anytime,
            scatter_work: None,
        };
        let at = (&problem.grid, problem.conn);
        Search::with_limits(at, &problem.starts, &problem.goals, dist, limits)
    }

    /// A search from `starts` to `goals` (flat cells, one per agent, distinct) on `grid`: the
    /// [`rooted`](Self::rooted) search with the tables' distances as the first priorities, a
    /// tick limit, PIBT with swaps when `limits.swap`, and otherwise the scatter's paths,
    /// computed first (bounded by `limits.scatter_work`, or else by half of `limits.time` as
    /// lacam3; not when their memory would not fit in half of `limits.memory`).
    pub(super) fn with_limits(
        (grid, conn): (&Grid, Connectivity),
        starts: &[u32],
        goals: &[u32],
        dist: &DistanceTables,
        limits: Limits,
    ) -> Search {
        let began = Instant::now();
        let mut rng = SplitMix64::seed_from_u64(limits.seed);
        let mut memory = limits.memory;
        let scatter = if limits.swap { None } else { limits.scatter };
        let paths = scatter.and_then(|margin| {
            let need = scatter_bytes(grid.len(), starts, dist, margin);
            (need < memory / 2).then(|| {
                memory -= need;
                let stop = match limits.scatter_work {
                    Some(work) => Stop::Work(work),
                    None => Stop::Deadline(began + limits.time / 2),
                };
                scatter::build(grid, (starts, goals), dist, margin, stop, &mut rng)
            })
        });
        let at = (grid, conn);
        let mut search = Search::from_scatter(at, (starts, goals), dist, (paths, rng), memory);
        search.max_ticks = limits.max_ticks;
        search.swap = limits
            .swap
            .then(|| (SwapPibt::new(grid.len(), goals), dist.clone()));
        search
    }

    /// The [`rooted`](Self::rooted) search with the tables' distances as the first priorities,
    /// `paths` (the scatter's, if any) as the preferred moves, and `rng` its generator.
    pub(in crate::mapf) fn from_scatter(
        (grid, conn): (&Grid, Connectivity),
        (starts, goals): (&[u32], &[u32]),
        dist: &DistanceTables,
        (paths, rng): (Option<Scatter>, SplitMix64),
        memory: usize,
    ) -> Search {
        let to_go: Vec<u32> = (0..starts.len())
            .map(|i| dist.get(i, starts[i] as usize))
            .collect();
        let mut search = Search::rooted((grid, conn), (starts, goals), &to_go, 0, memory);
        search.paths = paths;
        search.rng = rng;
        search
    }

    /// A search from `starts` to `goals` (flat cells of `grid`, one per agent, each list
    /// distinct; the caller checks them) with no scatter and no tick limit, for a guidance
    /// other than distance tables: `to_go` ranks the agents for the first priorities (larger
    /// first, as distances to go; only their order and their size against the number of
    /// agents matter), and the nodes, constraints and stack may take at most `memory` bytes.
    /// This is the search the real-time engine keeps across ticks.
    pub fn rooted(
        (grid, conn): (&Grid, Connectivity),
        (starts, goals): (&[u32], &[u32]),
        to_go: &[u32],
        seed: u64,
        memory: usize,
    ) -> Search {
        let n = starts.len();
        let mut arena = Arena::new(n);
        let root = arena.push_root(starts, goals, to_go);
        Search {
            conn,
            goals: goals.to_vec(),
            max_ticks: None,
            memory,
            rng: SplitMix64::seed_from_u64(seed),
            pibt: StepRule::new(grid, conn, StepOptions::default()),
            swap: None,
            paths: None,
            arena,
            constraints: Constraints::new(),
            open: vec![root],
            goal: None,
            scratch: Scratch {
                cur: vec![0; n],
                order: vec![0; n],
                fixed: vec![None; n],
                pref: vec![NONE; n],
                next: vec![NONE; n],
            },
        }
    }

    /// The node on top of the depth-first stack: the one the next try expands (none once the
    /// search is exhausted).
    pub fn top(&self) -> Option<u32> {
        self.open.last().copied()
    }

    /// The node node `id` was first reached from (none for the root). Every kept node is
    /// reached from the root along these links, each a legal step of all agents.
    pub fn parent(&self, id: u32) -> Option<u32> {
        Some(self.arena.node(id).parent).filter(|&p| p != NONE)
    }

    /// Node `id`'s configuration: each agent's cell, a flat index of the grid.
    pub fn config(&self, id: u32) -> &[u32] {
        self.arena.config(id)
    }

    /// The bytes the search's nodes, constraints and stack take now.
    pub fn bytes(&self) -> usize {
        bytes(&self.arena, &self.constraints, &self.open)
    }

    /// The goal's node once a solution is found, and its cost (the sum of loss: per
    /// transition, the agents not staying on their goals). Its plan improves as the search
    /// goes on.
    pub fn goal(&self) -> Option<(u32, u64)> {
        self.goal.map(|(id, _)| (id, self.arena.node(id).g))
    }

    /// The configurations kept.
    pub fn configurations(&self) -> usize {
        self.arena.len()
    }

    /// Goes on with the search for at most `budget` tries (each takes one constraint set from
    /// the node on top of the stack and asks PIBT for a successor), on the grid and guidance it
    /// was made with (its distance tables, or for [`rooted`](Self::rooted) any guidance). A
    /// budget of 0 does nothing and returns [`Progress::Open`].
    ///
    /// After the first solution the search goes on as LaCAM\* (Okumura, IJCAI 2023): nodes
    /// whose cost plus estimate reach the best plan's cost are dropped, and a transition found
    /// to a known node passes a cheaper way on (the arena's rewiring); the goal's node then holds
    /// the best plan known ([`goal`](Self::goal), [`plan`](Self::plan)).
    pub fn expand<G: Guidance>(&mut self, grid: &Grid, dist: &G, budget: usize) -> Progress {
        if let Some((goal, false)) = self.goal {
            self.arena.rewire_all(&self.goals);
            self.goal = Some((goal, true));
        }
        for _ in 0..budget {
            let Some(&h) = self.open.last() else {
                return match self.goal {
                    Some(_) => Progress::Complete,
                    None => Progress::Failed(Unsolved::Exhausted),
                };
            };
            let node = self.arena.node(h);
            match self.goal {
                None if node.at_goal as usize == self.goals.len() => {
                    self.goal = Some((h, false));
                    return Progress::Solved(h);
                }
                Some((goal, _)) if node.g + node.h >= self.arena.node(goal).g => {
                    self.open.pop();
                    continue;
                }
                _ => {}
            }
            if self.max_ticks.is_some_and(|m| node.depth >= m) {
                self.open.pop();
                continue;
            }
            let Some(c) = self.arena.node_mut(h).low.pop_front() else {
                self.open.pop();
                continue;
            };
            self.scratch.cur.copy_from_slice(self.arena.config(h));
            self.scratch.order.copy_from_slice(self.arena.order(h));
            if self.constraints.depth(c) < self.goals.len() && !self.branch(grid, h, c) {
                return Progress::Failed(Unsolved::MemoryCap);
            }
            if !self.try_successor(grid, dist, h, c) {
                return Progress::Failed(Unsolved::MemoryCap);
            }
        }
        Progress::Open
    }

    /// Queues the children of constraint `c` at node `h` (whose configuration and order are in
    /// the scratch buffers); false when the memory cap is passed.
    fn branch(&mut self, grid: &Grid, h: u32, c: u32) -> bool {
        let queue = &mut self.arena.node_mut(h).low;
        let s = &self.scratch;
        self.constraints.branch(
            c,
            (grid, self.conn),
            (&s.cur, &s.order),
            &mut self.rng,
            |id| queue.push_back(id),
        );
        self.bytes() <= self.memory
    }

    /// Asks PIBT for a successor of node `h` (in the scratch buffers) that obeys constraint
    /// `c`, and keeps it (or, if known, sometimes searches on from it again); false when the
    /// memory cap is passed.
    fn try_successor<G: Guidance>(&mut self, grid: &Grid, dist: &G, h: u32, c: u32) -> bool {
        let s = &mut self.scratch;
        self.constraints.apply(c, &mut s.fixed);
        if let Some(paths) = &self.paths {
            for (i, p) in s.pref.iter_mut().enumerate() {
                *p = paths.next(i, s.cur[i]);
            }
        }
        let found = self.generate(grid, dist);
        self.constraints.clear(c, &mut self.scratch.fixed);
        !found || self.keep(h, dist)
    }

    /// Writes into `scratch.next` a successor of `scratch.cur` under `scratch.fixed`, by the
    /// search's generator; false when there is none.
    fn generate<G: Guidance>(&mut self, grid: &Grid, dist: &G) -> bool {
        let s = &mut self.scratch;
        let fixed = Some(&s.fixed[..]);
        let next = match (&mut self.swap, &self.paths) {
            (Some((swap, tables)), _) => swap
                .best_step(&s.cur, &s.order, &s.fixed, tables, &s.pref, &mut self.rng)
                .ok_or(StepError::Infeasible),
            (None, Some(_)) => {
                let guide = Guide {
                    dist,
                    cur: &s.cur,
                    pref: &s.pref,
                };
                self.pibt
                    .step(grid, &s.cur, &s.order, fixed, &guide, &mut self.rng)
            }
            (None, None) => self
                .pibt
                .step(grid, &s.cur, &s.order, fixed, dist, &mut self.rng),
        };
        match next {
            Ok(next) => {
                s.next.copy_from_slice(next);
                true
            }
            Err(StepError::Infeasible) => false,
            Err(StepError::BadInput(why)) => unreachable!("LaCAM's own step input: {why}"),
        }
    }

    /// Keeps `scratch.next`, a successor of node `h` (or, if known, sometimes searches on from
    /// it again); false when the memory cap is passed.
    fn keep<G: Guidance>(&mut self, h: u32, dist: &G) -> bool {
        let next = &self.scratch.next;
        if let Some(old) = self.arena.find(next) {
            self.arena.link(h, old);
            if let Some((goal, _)) = self.goal {
                let open = &mut self.open;
                let best = self.arena.node(goal).g;
                self.arena.rewire(h, &self.goals, |id, node| {
                    if node.g + node.h < best {
                        open.push(id);
                    }
                });
            }
            if self.rng.chance(REVISIT) {
                self.open.push(old);
                return bytes(&self.arena, &self.constraints, &self.open) <= self.memory;
            }
            return true;
        }
        let used = bytes(&self.arena, &self.constraints, &self.open);
        if used + Arena::node_bytes(self.goals.len()) > self.memory {
            return false;
        }
        let to_go = next.iter().enumerate();
        // As the tables' `get`: an unreachable cell counts `u32::MAX`, so the sum cannot overflow.
        let estimate = to_go
            .map(|(i, &c)| dist.distance(i, c as usize).min(u32::MAX as u64))
            .sum();
        let id = self.arena.push_child(h, next, &self.goals, estimate);
        self.open.push(id);
        true
    }

    /// The configurations from the start to node `id` (as [`Progress::Solved`] names it),
    /// along the search's parents: each agent's cell, a flat index of the grid.
    pub fn plan(&self, id: u32) -> Vec<Vec<u32>> {
        let mut plan = Vec::new();
        let mut at = id;
        while at != NONE {
            plan.push(self.arena.config(at).to_vec());
            at = self.arena.node(at).parent;
        }
        plan.reverse();
        plan
    }
}

/// The bytes a search's nodes, constraints and stack take.
fn bytes(arena: &Arena, constraints: &Constraints, open: &[u32]) -> usize {
    arena.bytes() + constraints.bytes() + std::mem::size_of_val(open)
}

/// The most bytes the scatter's paths from `starts` take, with `margin`, on a grid of `cells`
/// cells.
pub(super) fn scatter_bytes(
    cells: usize,
    starts: &[u32],
    dist: &DistanceTables,
    margin: u32,
) -> usize {
    let moves = (0..starts.len()).map(|i| (dist.get(i, starts[i] as usize) + margin + 1) as usize);
    Scatter::bytes_needed(cells, moves.sum())
}

/// Runs LaCAM from `starts` to `goals` (flat cells, one per agent, distinct) on `grid`: to the
/// first solution with `limits.first`, else on until the time limit or an optimal plan, as
/// LaCAM\* with, between its budgets, rounds of refinement of the best plan ([`Refiner`]; 4
/// moves and no tick limit only). `began` is when the caller's clock started (the history's
/// times count from it).
pub(super) fn search(
    (grid, conn): (&Grid, Connectivity),
    (starts, goals): (&[u32], &[u32]),
    dist: &DistanceTables,
    limits: Limits,
    began: Instant,
) -> Outcome {
    let mut search = Search::with_limits((grid, conn), starts, goals, dist, limits);
    let refines = conn == Connectivity::Four && limits.max_ticks.is_none();
    let mut rng = SplitMix64::seed_from_u64(limits.seed ^ REFINER_SEED);
    let mut best = Best::default();
    let run = Run {
        at: (grid, conn),
        goals,
        dist,
        limits,
        began,
    };
    let mut cost = u64::MAX;
    let ended = loop {
        let tries = match best.soc {
            Some(_) if refines => TRIES_BESIDE_REFINER,
            _ => TRIES_PER_CLOCK,
        };
        let progress = search.expand(grid, dist, tries);
        if let Some((goal, g)) = search.goal().filter(|&(_, g)| g < cost) {
            cost = g;
            let plan = search.plan(goal);
            let fits = limits
                .max_ticks
                .is_none_or(|m| plan.len() as u64 <= m as u64 + 1);
            if fits {
                best.offer(plan, &run, refines);
            }
        }
        match progress {
            Progress::Solved(_) if limits.first => break None,
            Progress::Open | Progress::Solved(_) if began.elapsed() >= limits.time => {
                break Some(Unsolved::TimeLimit);
            }
            Progress::Open | Progress::Solved(_) => {}
            Progress::Complete => break None,
            Progress::Failed(why) => break Some(why),
        }
        best.refine(&run, search.bytes(), &mut rng);
    };
    let history = std::mem::take(&mut best.history);
    Outcome {
        plan: best.plan().ok_or(ended.unwrap_or(Unsolved::Exhausted)),
        configurations: search.configurations(),
        history,
    }
}
