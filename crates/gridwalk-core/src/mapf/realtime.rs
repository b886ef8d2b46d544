//! Real-time LaCAM (Liang, Veerapaneni, Harabor, Li and Likhachev, SoCS 2025): a LaCAM search
//! over configurations kept alive across ticks, so that a crowd moving one step a tick, with a
//! bounded amount of search a tick, still brings every agent to its goal. Crowd mode's engine
//! for agents that PIBT alone leaves stuck (issue 33).
//!
//! **A tick** ([`RealTime::tick`]) spends at most a budget of the search's tries (each one
//! constraint set and at most one PIBT call, [`Search::expand`]), then moves the agents one
//! step along the search's tree towards its *target*: the goal configuration once the search
//! has found it, otherwise the node on top of the depth-first stack, the configuration the
//! search is extending. The agents stand on a kept configuration at every tick, and the step
//! is one edge of the tree: to the parent when the target is not below them, else to the
//! child on the way down.
//!
//! **Why every move is legal.** A tree edge is a step PIBT generated: no shared cell, no swap,
//! no crossing diagonal, no cut corner. Each of these conditions reads the same backwards (a
//! swap reversed is a swap, two crossing diagonals reversed still cross, a grid move reversed
//! is a grid move), so a step up the tree, from child to parent, is as legal as the step down.
//! This is where the paper needs an undirected graph, and a grid is one.
//!
//! **Why every agent arrives** (the paper's argument, in our terms). The search never forgets:
//! moving the agents does not touch its stack, its kept configurations or their queues of
//! constraints; the agents' configuration only decides where the next step goes. Each try
//! takes one constraint set out of a finite supply (every kept configuration has finitely many,
//! and finitely many configurations exist), and every tick makes at least one try, so after
//! finitely many ticks the search has either found a configuration with every agent on its
//! goal, or exhausted every configuration reachable from its root, which proves there is none
//! (see [LaCAM's completeness](super)). From then on the target is fixed, the agents stand on
//! a node of the same tree, and each tick takes them one edge nearer to it along the tree's
//! unique path: they arrive within the length of that path. The memory cap breaks the
//! argument only when it is reached: the engine then roots a new search at the agents'
//! configuration (and says so, [`Tick::rooted`]), which forgets what was explored; a world
//! that changes (an edit, an agent that comes or goes, a new goal) does the same through
//! [`RealTime::reroot`]. On a world that stops changing, with a cap the search does not reach,
//! every agent of a solvable one-shot crowd reaches its goal.
//!
//! **Guidance** is any [`Guidance`] ([`RealTime::new`]): a simulation's exact costs per agent
//! and cell, say, with [`RealTimeOptions::unit`] the cost of one move. It must stay the same
//! between two roots. With distance tables ([`RealTime::with_tables`]) a root also gets the
//! one-shot search's initial paths (lacam3's scatter), and with the same seed and a scatter
//! that ends within [`RealTimeOptions::scatter_work`], the search is exactly the one
//! [`solve`](super::solve) runs: the crowd then walks `solve`'s first plan, plus the detours it
//! took while the search was still looking.
//!
//! **Cost per tick.** At most `budget` tries, each at most one PIBT step of every agent; then
//! one walk up the tree from the target (its depth in links, [`Tick::walk`]) and a copy of one
//! configuration. A root costs the scatter's paths once, at most `scatter_work` expansions,
//! outside the ticks' budget. Nothing is timed, so a run replays exactly for its seed.
//!
//! ```
//! use gridwalk_core::grid::Connectivity;
//! use gridwalk_core::mapf::{DistanceTables, RealTime, RealTimeOptions};
//!
//! // Two agents swap ends of a corridor with one side pocket.
//! let grid = gridwalk_core::format::grid_from_rows(&["#####", "#...#", "##.##"]).unwrap();
//! let (a, b) = (6, 8); // flat cells (1, 1) and (3, 1)
//! let dist = DistanceTables::new(&grid, Connectivity::Four, &[b, a]);
//! let options = RealTimeOptions { budget: 2, ..RealTimeOptions::default() };
//! let mut rt = RealTime::new(&grid, Connectivity::Four, &[a, b], &[b, a], &dist, options)
//!     .unwrap();
//! let mut ticks = 0;
//! while !rt.arrived() {
//!     let tick = rt.tick(&grid, &dist).unwrap();
//!     assert!(tick.tries <= 2);
//!     ticks += 1;
//!     assert!(ticks < 100);
//! }
//! assert_eq!(rt.cells(), &[b, a]);
//! ```

use std::time::Duration;

use super::lacam::Limits;
use super::{DistanceTables, ProblemError, Search};
use crate::crowd::Guidance;
use crate::grid::{Connectivity, Grid};
use crate::mapf::Progress;

/// The default budget of a tick, in tries ([`RealTimeOptions::budget`]).
pub const DEFAULT_BUDGET: usize = 16;

/// The default memory cap of the kept search, in bytes ([`RealTimeOptions::memory_cap`]):
/// 256 MiB.
pub const DEFAULT_RT_MEMORY_CAP: usize = 256 << 20;

/// A real-time search's budget, memory cap and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RealTimeOptions {
    /// The most tries a tick makes ([`DEFAULT_BUDGET`]); at least 1 (0 counts as 1, or the
    /// search could never end).
    pub budget: usize,
    /// The most bytes the kept search may take ([`DEFAULT_RT_MEMORY_CAP`]); reaching it roots
    /// a new search at the agents' configuration.
    pub memory_cap: usize,
    /// Seeds the search's tie-breaks and constraint orders (each new root mixes in its count).
    pub seed: u64,
    /// The guidance's cost of one straight move (1 by default, distance tables' unit; a
    /// simulation gives its planners' fixed-point cost): the first priorities need the agents'
    /// costs to go in moves.
    pub unit: u64,
    /// LaCAM's initial paths (lacam3's scatter, as [`super::Options::scatter_margin`]), for
    /// searches rooted with distance tables ([`RealTime::with_tables`]): each agent's path at
    /// most this many moves longer than its shortest. 10 by default; `None` turns them off.
    pub scatter_margin: Option<u32>,
    /// The most work a root's scatter may take, in expansions of its path searches
    /// ([`DEFAULT_SCATTER_WORK`]). Its paths are computed once per root, before the first tick
    /// and outside the ticks' budget; the longer they are refined, the fewer detours the crowd
    /// makes (see docs/benchmarks.md). Counted, not timed, so a root cut short replays.
    pub scatter_work: u64,
}

/// The default work a root's scatter may take ([`RealTimeOptions::scatter_work`]): about
/// 100 ms on the machine of docs/benchmarks.md.
pub const DEFAULT_SCATTER_WORK: u64 = 500_000;

impl Default for RealTimeOptions {
    fn default() -> Self {
        RealTimeOptions {
            budget: DEFAULT_BUDGET,
            memory_cap: DEFAULT_RT_MEMORY_CAP,
            seed: 0,
            unit: 1,
            scatter_margin: Some(10),
            scatter_work: DEFAULT_SCATTER_WORK,
        }
    }
}

/// Why a search was rooted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rooted {
    /// The caller asked ([`RealTime::new`] or [`RealTime::reroot`]).
    Asked,
    /// The kept search reached the memory cap.
    MemoryCap,
}

/// Where the search stands after a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No goal configuration known yet: the agents follow the search's frontier.
    Searching,
    /// The goal configuration is known: the agents follow the tree's path to it.
    Following,
    /// Every agent stands on its goal.
    Arrived,
    /// The search explored every configuration reachable from its root and none has every
    /// agent on its goal: the agents stay.
    Exhausted,
}

/// What one tick did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tick {
    /// Tries made (at most the budget).
    pub tries: usize,
    /// Links walked up the tree to choose the step.
    pub walk: usize,
    /// Whether the agents moved (some agent changed cell).
    pub moved: bool,
    /// Whether they moved up the tree, back towards the root (to reach another branch of
    /// it), rather than down towards the target.
    pub up: bool,
    /// Configurations kept after the tick.
    pub configurations: usize,
    /// Where the search stands.
    pub phase: Phase,
    /// Set when this tick rooted a new search, and why.
    pub rooted: Option<Rooted>,
}

/// A LaCAM search kept across ticks, and the agents' configuration, a node of its tree.
pub struct RealTime {
    conn: Connectivity,
    options: RealTimeOptions,
    /// The grid's size the search was made for (width, cells).
    size: (u32, usize),
    goals: Vec<u32>,
    cells: Vec<u32>,
    search: Search,
    /// The node of the agents' configuration.
    at: u32,
    /// The goal configuration's node, once found.
    solved: Option<u32>,
    exhausted: bool,
    /// Searches rooted so far, and how many of them the memory cap forced.
    roots: usize,
    memory_roots: usize,
}

impl RealTime {
    /// An engine for agents on `cells` going to `goals` (flat cells of `grid`, one per agent),
    /// guided by `guide`. Errors name what is wrong: no agents, lists of different lengths,
    /// a cell off the grid or not passable, two agents on one cell or with one goal, a goal
    /// the guidance says cannot be reached.
    pub fn new<G: Guidance>(
        grid: &Grid,
        conn: Connectivity,
        cells: &[u32],
        goals: &[u32],
        guide: &G,
        options: RealTimeOptions,
    ) -> Result<RealTime, ProblemError> {
        RealTime::make((grid, conn), (cells, goals), guide, None, options)
    }

    /// As [`new`](Self::new), guided by distance tables (`dist`, for `goals` in this order),
    /// which lets the search start from the scatter's paths, as the one-shot
    /// [`solve`](super::solve) does ([`RealTimeOptions::scatter_margin`]); with the same seed
    /// the search is the one `solve` runs. Ticks must then be given `dist` as their guidance.
    pub fn with_tables(
        grid: &Grid,
        conn: Connectivity,
        cells: &[u32],
        goals: &[u32],
        dist: &DistanceTables,
        options: RealTimeOptions,
    ) -> Result<RealTime, ProblemError> {
        RealTime::make((grid, conn), (cells, goals), dist, Some(dist), options)
    }

    fn make<G: Guidance>(
        (grid, conn): (&Grid, Connectivity),
        (cells, goals): (&[u32], &[u32]),
        guide: &G,
        tables: Option<&DistanceTables>,
        options: RealTimeOptions,
    ) -> Result<RealTime, ProblemError> {
        check(grid, cells, goals, guide)?;
        let (search, _) = root((grid, conn), (cells, goals), (guide, tables), options, 0);
        Ok(RealTime::from_search(
            grid,
            conn,
            (cells, goals),
            search,
            options,
        ))
    }

    /// An engine whose first search is `search`, rooted at `cells` for `goals` (checked).
    pub(super) fn from_search(
        grid: &Grid,
        conn: Connectivity,
        (cells, goals): (&[u32], &[u32]),
        search: Search,
        options: RealTimeOptions,
    ) -> RealTime {
        let at = search
            .top()
            .expect("a new search has its root on the stack");
        RealTime {
            conn,
            options,
            size: (grid.width(), grid.len()),
            goals: goals.to_vec(),
            cells: cells.to_vec(),
            search,
            at,
            solved: None,
            exhausted: false,
            roots: 1,
            memory_roots: 0,
        }
    }

    /// Roots a new search at `cells` for `goals`, on `grid` with `guide`: after any change to
    /// the world (an edit, an agent that comes or goes, a new goal, new guidance). Checks as
    /// [`new`](Self::new); on an error the engine is unchanged.
    pub fn reroot<G: Guidance>(
        &mut self,
        grid: &Grid,
        cells: &[u32],
        goals: &[u32],
        guide: &G,
    ) -> Result<(), ProblemError> {
        self.reroot_with(grid, (cells, goals), guide, None)
    }

    /// As [`reroot`](Self::reroot), with distance tables for `goals`, as
    /// [`with_tables`](Self::with_tables).
    pub fn reroot_with_tables(
        &mut self,
        grid: &Grid,
        cells: &[u32],
        goals: &[u32],
        dist: &DistanceTables,
    ) -> Result<(), ProblemError> {
        self.reroot_with(grid, (cells, goals), dist, Some(dist))
    }

    fn reroot_with<G: Guidance>(
        &mut self,
        grid: &Grid,
        (cells, goals): (&[u32], &[u32]),
        guide: &G,
        tables: Option<&DistanceTables>,
    ) -> Result<(), ProblemError> {
        check(grid, cells, goals, guide)?;
        self.size = (grid.width(), grid.len());
        self.goals = goals.to_vec();
        self.cells = cells.to_vec();
        self.root_here(grid, guide, tables);
        Ok(())
    }

    /// Roots a new search at the agents' configuration.
    fn root_here<G: Guidance>(&mut self, grid: &Grid, guide: &G, tables: Option<&DistanceTables>) {
        let at = (grid, self.conn);
        let (cells, goals) = (&self.cells[..], &self.goals[..]);
        let (search, at) = root(
            at,
            (cells, goals),
            (guide, tables),
            self.options,
            self.roots,
        );
        self.search = search;
        self.at = at;
        self.solved = None;
        self.exhausted = false;
        self.roots += 1;
    }

    /// One tick: at most the budget of tries, then one step of every agent (or none) along the
    /// search's tree; the new cells are [`cells`](Self::cells). `grid` and `guide` must be
    /// those of the last root (an error says when the grid's size is not, or when a kept
    /// configuration stands on a cell that became a wall: [`reroot`](Self::reroot) first).
    pub fn tick<G: Guidance>(&mut self, grid: &Grid, guide: &G) -> Result<Tick, ProblemError> {
        if (grid.width(), grid.len()) != self.size {
            return Err(whole("the grid is not the size the search was rooted on"));
        }
        let (tries, rooted) = self.think(grid, guide);
        let target = match (self.solved, self.exhausted) {
            (Some(goal), _) => goal,
            (None, true) => self.at,
            (None, false) => self.search.top().unwrap_or(self.at),
        };
        let (next, walk) = self.step_towards(target);
        let moved = next != self.at;
        let up = moved && self.search.parent(self.at) == Some(next);
        if moved {
            let config = self.search.config(next);
            if let Some(&c) = config.iter().find(|&&c| !passable(grid, c)) {
                return Err(whole(&format!(
                    "cell {} of a kept configuration is not passable: reroot after edits",
                    grid.pos(c as usize)
                )));
            }
            self.cells.copy_from_slice(config);
            self.at = next;
        }
        let phase = if self.arrived() {
            Phase::Arrived
        } else if self.solved.is_some() {
            Phase::Following
        } else if self.exhausted {
            Phase::Exhausted
        } else {
            Phase::Searching
        };
        Ok(Tick {
            tries,
            walk,
            moved,
            up,
            configurations: self.search.configurations(),
            phase,
            rooted,
        })
    }

    /// Spends the tick's budget on the search, one try at a time so the count is exact;
    /// roots a new search when the memory cap is reached.
    fn think<G: Guidance>(&mut self, grid: &Grid, guide: &G) -> (usize, Option<Rooted>) {
        let mut tries = 0;
        if self.solved.is_some() || self.exhausted {
            return (0, None);
        }
        while tries < self.options.budget.max(1) {
            match self.search.expand(grid, guide, 1) {
                Progress::Open => tries += 1,
                Progress::Solved(goal) => {
                    self.solved = Some(goal);
                    break;
                }
                Progress::Failed(super::Unsolved::MemoryCap) => {
                    self.memory_roots += 1;
                    // Without tables the new root has no scatter.
                    self.root_here(grid, guide, None);
                    return (tries + 1, Some(Rooted::MemoryCap));
                }
                // `Complete` follows a solution, and a solved search is not expanded again.
                Progress::Failed(_) | Progress::Complete => {
                    self.exhausted = true;
                    break;
                }
            }
        }
        (tries, None)
    }

    /// The node one tree edge from the agents' towards `target` (their own when they are on
    /// it), and the links walked to find it: up from `target` until the agents' node (then
    /// the step is down, to the node before it) or the root (then the step is up).
    fn step_towards(&self, target: u32) -> (u32, usize) {
        if target == self.at {
            return (self.at, 0);
        }
        let (mut u, mut walk) = (target, 0);
        while let Some(p) = self.search.parent(u) {
            walk += 1;
            if p == self.at {
                return (u, walk);
            }
            u = p;
        }
        let up = self.search.parent(self.at);
        (up.unwrap_or(self.at), walk)
    }

    /// The agents' cells now (flat indices).
    pub fn cells(&self) -> &[u32] {
        &self.cells
    }

    /// The agents' goals (flat indices).
    pub fn goals(&self) -> &[u32] {
        &self.goals
    }

    /// Whether every agent stands on its goal.
    pub fn arrived(&self) -> bool {
        self.cells == self.goals
    }

    /// The search's node of the agents' configuration: a number that stays the same while
    /// the search is kept, so two ticks on the same node stood on the same configuration.
    pub fn node(&self) -> u32 {
        self.at
    }

    /// The depth of the agents' configuration in the search's tree: the links from the root
    /// (where the search was last rooted) to it. Walks them, so it costs the depth.
    pub fn depth(&self) -> usize {
        let (mut u, mut d) = (self.at, 0);
        while let Some(p) = self.search.parent(u) {
            (u, d) = (p, d + 1);
        }
        d
    }

    /// Configurations the kept search holds.
    pub fn configurations(&self) -> usize {
        self.search.configurations()
    }

    /// Bytes the kept search takes.
    pub fn bytes(&self) -> usize {
        self.search.bytes()
    }

    /// Searches rooted so far (the first included), and how many the memory cap forced.
    pub fn roots(&self) -> (usize, usize) {
        (self.roots, self.memory_roots)
    }

    /// The options it was made with.
    pub fn options(&self) -> RealTimeOptions {
        self.options
    }
}

/// A new search rooted at `cells`, and its root's node: with the scatter when there are
/// tables and a margin (the one-shot search's), else [`Search::rooted`] (the number of roots
/// so far varies the seed). The first priorities are LaCAM's:
/// each agent's cost to go in moves ([`RealTimeOptions::unit`]) over the number of agents.
/// (Ranks instead of moves made the search several times slower on small random instances:
/// a far agent's head start of a few steps matters.)
fn root<G: Guidance>(
    (grid, conn): (&Grid, Connectivity),
    (cells, goals): (&[u32], &[u32]),
    (guide, tables): (&G, Option<&DistanceTables>),
    options: RealTimeOptions,
    roots: usize,
) -> (Search, u32) {
    let seed = options.seed ^ (roots as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let n = cells.len();
    if let (Some(dist), Some(margin)) = (tables, options.scatter_margin) {
        let limits = Limits {
            time: Duration::MAX,
            max_ticks: None,
            memory: options.memory_cap,
            seed,
            scatter: Some(margin),
            swap: false,
            first: true,
            scatter_work: Some(options.scatter_work),
        };
        let search = Search::with_limits((grid, conn), cells, goals, dist, limits);
        let root = search
            .top()
            .expect("a new search has its root on the stack");
        return (search, root);
    }
    let unit = options.unit.max(1);
    let to_go: Vec<u32> = (0..n)
        .map(|a| (guide.distance(a, cells[a] as usize) / unit).min(u32::MAX as u64 - 1) as u32)
        .collect();
    let search = Search::rooted(
        (grid, conn),
        (cells, goals),
        &to_go,
        seed,
        options.memory_cap,
    );
    let root = search
        .top()
        .expect("a new search has its root on the stack");
    (search, root)
}

/// Whether flat cell `c` is on `grid` and passable.
fn passable(grid: &Grid, c: u32) -> bool {
    (c as usize) < grid.len() && grid.is_passable(grid.pos(c as usize))
}

/// An error about the whole input.
pub(super) fn whole(message: &str) -> ProblemError {
    ProblemError {
        agent: None,
        message: message.to_string(),
    }
}

/// Checks an engine's input (see [`RealTime::new`]).
fn check<G: Guidance>(
    grid: &Grid,
    cells: &[u32],
    goals: &[u32],
    guide: &G,
) -> Result<(), ProblemError> {
    check_lists(grid, cells, goals)?;
    check_reachable(grid, cells, goals, guide)
}

/// Checks that there are agents, one cell and one goal each, all on passable cells, no two
/// agents on one cell or with one goal.
pub(super) fn check_lists(grid: &Grid, cells: &[u32], goals: &[u32]) -> Result<(), ProblemError> {
    if cells.is_empty() || cells.len() != goals.len() {
        return Err(whole(&format!(
            "{} cells and {} goals: need one of each per agent, and an agent",
            cells.len(),
            goals.len()
        )));
    }
    for (what, list) in [("cell", cells), ("goal", goals)] {
        let mut owner = vec![u32::MAX; grid.len()];
        for (a, &c) in list.iter().enumerate() {
            if (c as usize) >= grid.len() {
                return Err(at(a, format!("{what} {c} is off the grid")));
            }
            let p = grid.pos(c as usize);
            if !grid.is_passable(p) {
                return Err(at(a, format!("{what} {p} is not a passable cell")));
            }
            if owner[c as usize] != u32::MAX {
                let b = owner[c as usize];
                return Err(at(a, format!("{what} {p} is also agent {b}'s {what}")));
            }
            owner[c as usize] = a as u32;
        }
    }
    Ok(())
}

/// Checks that `guide` says every agent can reach its goal from its cell.
pub(super) fn check_reachable<G: Guidance>(
    grid: &Grid,
    cells: &[u32],
    goals: &[u32],
    guide: &G,
) -> Result<(), ProblemError> {
    for (a, &c) in cells.iter().enumerate() {
        if guide.distance(a, c as usize) == u64::MAX {
            return Err(at(
                a,
                format!(
                    "goal {} cannot be reached from {}",
                    grid.pos(goals[a] as usize),
                    grid.pos(c as usize)
                ),
            ));
        }
    }
    Ok(())
}

/// An error about agent `agent`.
fn at(agent: usize, message: String) -> ProblemError {
    ProblemError {
        agent: Some(agent),
        message,
    }
}
