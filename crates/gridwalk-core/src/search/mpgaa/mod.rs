//! MPGAA\*, Multipath Generalized Adaptive A\* (Hernández, Asín & Baier, AAAI 2015): an
//! incremental planner made of forward A\* searches that learn their heuristic and reuse the
//! paths found before.
//!
//! # The algorithm
//!
//! One planner serves one goal and every agent heading to it. Each agent's plan is a forward
//! A\* from its cell toward the goal, on a heuristic h the planner keeps per cell. It starts as
//! the simulation's [`Heuristic`] (never written until a search touches the cell) and learns:
//!
//! - **Adaptive A\*.** After a search from s₀ that stopped at s\* with f\* = g(s\*) + h(s\*),
//!   every cell s it closed gets h(s) = f\* − g(s). With a consistent h this stays consistent,
//!   never exceeds the true cost, and grows toward it.
//! - **Paths as `next` pointers.** The path found is kept as a `next` pointer per cell
//!   toward the goal. A search stops when it pops a cell whose `next` chain is *tight* to the
//!   goal: every link has h(s) = c(s, next(s)) + h(next(s)). A tight chain's cost is then
//!   exactly h at its head, and h is a lower bound, so it is an optimal path: a second agent
//!   of the same goal stops as soon as it reaches the first one's path. The plan is the A\*
//!   prefix plus the reused chain; the prefix's pointers are set from s\* back to s₀.
//! - **Cost increases** keep h admissible and consistent. A link whose move changed is
//!   cleared; the chains built on it fail the tightness walk and are found again by search.
//! - **Cost decreases** may make h inconsistent. Before the next search, ReestablishConsistency
//!   (Generalized Adaptive A\*) runs a Dijkstra-like pass from the cells around each change,
//!   lowering h(s) to c(s, s′) + h(s′) wherever h(s) > c(s, s′) + h(s′), and pointing `next`
//!   at s′ (the tightness walk decides later whether that chain reaches the goal).
//! - A search that runs out of cells proves its closed cells cannot reach the goal: their h
//!   becomes ∞ (consistent: no move leaves that region), until a decrease lowers it again.
//!
//! Every h stays at least the initial heuristic (a lowering adds a move cost to a neighbour's
//! h, and the heuristic is consistent), so a cell never written is always consistent with its
//! neighbours and needs no pass.
//!
//! # Exactness
//!
//! [`GoalPlanner::compute`] searches from every start whose chain is not already known to be
//! tight in this epoch (the memo is dropped whenever cells change). Afterwards every start's
//! chain is tight: [`cost_to_goal`][cost_to_goal], [`next_move`][next_move] and
//! [`path`][path] read it. A cell whose chain was not walked since the last change reads as
//! unknown (∞), as the trait allows.
//!
//! # Memory
//!
//! Memory follows the cells the searches touched, not the map, by D\* Lite's mechanism
//! (`search/cells.rs`): the map is cut into 4×4 tiles, and a tile gets a block of 16 ids the
//! first time a search writes one of its cells (`state.rs`). Per id: h (8 bytes), g (8), a
//! search stamp with a closed bit (4), a verification epoch (4), and the `next` and parent
//! pointers as directions (1 each); the open list's handles are per id too (4). A tile never
//! written reads as block 0: never seen (h is the heuristic), g unset, no `next`, not verified.
//! A new search costs no clear: a cell's g counts only when its stamp names the current
//! search. [`GoalPlanner::memory_bytes`] is the room allocated, from capacities.
//! With the [`Flat`] store instead ([`FlatMpgaa`]) the same state is kept per map cell, for
//! planners whose whole-map state is cheap; the factory chooses when it makes the planner.
//!
//! The planner answers the simulation through [`GoalPlanner`], in `planner.rs`.
//!
//! [`GoalPlanner`]: super::goal_planner::GoalPlanner
//! [`GoalPlanner::compute`]: super::goal_planner::GoalPlanner::compute
//! [`GoalPlanner::memory_bytes`]: super::goal_planner::GoalPlanner::memory_bytes
//! [cost_to_goal]: super::goal_planner::GoalPlanner::cost_to_goal
//! [next_move]: super::goal_planner::GoalPlanner::next_move
//! [path]: super::goal_planner::GoalPlanner::path

use super::cells::{Flat, Near, Store, Tiles};
use super::goal_planner::{CellInfo, Progress};
use crate::cost::{Cost, INFINITY, add};
use crate::grid::{Connectivity, Grid, GridError, Pos};
use crate::heuristic::Heuristic;
use crate::queue::{CellQueue, IndexedHeap};
use crate::stats::SearchStats;
use crate::trace::{Expansion, ExpansionKind, Recorder, Step};
use state::{At, Cells, NO_DIR, link};

mod planner;
mod state;

/// A queue key: (f, ∞ − g) in a search, so ties go to the larger g; (h, 0) in the
/// consistency pass.
type Key = (Cost, Cost);

/// The stamp of a cell seen but in no current search: search 1, which is never current
/// (every search first moves the counter on).
const SEEN: u32 = 1 << 1;

/// The inspector's [`CellInfo::state`] of a cell whose `next` points in each direction.
pub const NEXT_STATES: [&str; 8] = [
    "next N", "next E", "next S", "next W", "next NE", "next SE", "next SW", "next NW",
];

/// The direction of `next` an inspector's [`CellInfo::state`] names (see [`NEXT_STATES`]).
pub fn next_direction(info: &CellInfo) -> Option<u8> {
    let s = info.state?;
    NEXT_STATES.iter().position(|&n| n == s).map(|d| d as u8)
}

/// The MPGAA\* planner for one goal and every agent heading to it. See the module docs.
///
/// ```
/// use gridwalk_core::{Connectivity, GoalPlanner, Grid, Heuristic, Pos, Terrain}; use
/// gridwalk_core::search::mpgaa::Mpgaa; let mut grid = Grid::new(5, 3).unwrap(); let mut p =
/// Mpgaa::new(&grid, Pos::new(4, 1), Connectivity::Four, Heuristic::Manhattan).unwrap(); let start
/// = grid.index(Pos::new(0, 1)).unwrap(); p.set_starts(&grid, &[start]); p.compute(&grid);
/// assert_eq!(p.path(&grid, start).unwrap().moves(), 4);
///
/// grid.set(Pos::new(2, 1), Terrain::Wall).unwrap();
/// p.cells_changed(&grid, &[grid.index(Pos::new(2, 1)).unwrap()]);
/// p.compute(&grid);
/// assert_eq!(p.path(&grid, start).unwrap().moves(), 6);
/// ```
#[derive(Clone, Debug)]
pub struct Mpgaa<S: Store = Tiles> {
    width: u32,
    height: u32,
    conn: Connectivity,
    heuristic: Heuristic,
    goal_pos: Pos,
    /// The goal's index, or `None` when the grid was swapped for one the goal is not on.
    goal: Option<usize>,
    cells: Cells<S>,
    /// The current search number (≥ 1).
    search: u32,
    /// The verification epoch (≥ 1): a cell with `verified == epoch` has a tight chain.
    epoch: u32,
    open: IndexedHeap<Key>,
    /// Distinct starts.
    starts: Vec<u32>,
    /// Cells around changes whose consistency must be re-established.
    pending: Vec<u32>,
    expanded: Vec<u32>,
    /// Where the last compute stopped when it ran out of expansions ([`Paused`]).
    paused: Option<Paused>,
    /// The cells a search stopped by the budget closed in the computes before this one.
    carried: Vec<u32>,
    rec: Recorder,
    /// Whether `rec` records (it keeps that to itself).
    tracing: bool,
}

/// Where a compute that ran out of expansions stopped; the next one goes on from there.
#[derive(Clone, Copy, Debug)]
enum Paused {
    /// In the consistency pass, whose queue is `open`.
    Reestablish,
    /// In the search from this start, whose queue is `open`; what it closed before is in
    /// `carried`. An edit abandons it (the next search starts over).
    Search(At),
}

/// MPGAA\* with whole-map arrays ([`Flat`]) instead of tiles: what the factory builds when a
/// planner's whole-map state is cheap (see [`Storage::by_size`](super::cells::Storage::by_size)).
pub type FlatMpgaa = Mpgaa<Flat>;

impl Mpgaa {
    /// A planner for `goal` on `grid`, guided by `heuristic` (which must be admissible with
    /// `conn` for the answers to be optimal), its state in tiles. Fails when `goal` is off the
    /// grid.
    pub fn new(
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<Mpgaa, GridError> {
        Self::with_store(grid, goal, conn, heuristic)
    }
}

impl<S: Store> Mpgaa<S> {
    /// [`Mpgaa::new`] with its state in store `S` ([`Tiles`] or [`Flat`]).
    pub fn with_store(
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<Self, GridError> {
        grid.index(goal)?;
        let cells = Cells::new(grid);
        Ok(Mpgaa {
            width: grid.width(),
            height: grid.height(),
            conn,
            heuristic,
            goal_pos: goal,
            goal: grid.index(goal).ok(),
            open: IndexedHeap::with_capacity(cells.ids()),
            cells,
            search: 1,
            epoch: 1,
            starts: Vec::new(),
            pending: Vec::new(),
            expanded: Vec::new(),
            paused: None,
            carried: Vec::new(),
            rec: Recorder::default(),
            tracing: false,
        })
    }

    /// Forgets everything and starts over on `grid`.
    fn reset(&mut self, grid: &Grid) {
        (self.width, self.height) = (grid.width(), grid.height());
        self.goal = grid.index(self.goal_pos).ok();
        self.cells = Cells::new(grid);
        (self.search, self.epoch) = (1, 1);
        self.open = IndexedHeap::with_capacity(self.cells.ids());
        for list in [&mut self.starts, &mut self.pending, &mut self.expanded] {
            list.clear();
        }
        self.paused = None;
        self.carried.clear();
    }

    fn sync(&mut self, grid: &Grid) {
        if grid.width() != self.width || grid.height() != self.height {
            self.reset(grid);
        }
    }

    // ---- storage: every access to the per-cell state goes through these ----

    /// The learned h of `s` (the heuristic while never seen).
    #[inline]
    fn h(&self, s: At) -> Cost {
        match self.cells.stamp[s.id as usize] {
            0 => self.heuristic.between(Pos::new(s.x, s.y), self.goal_pos),
            _ => self.cells.h[s.id as usize],
        }
    }

    /// `s`, to write (see [`Cells::claim`]); the queue's handles grow with the ids.
    #[inline]
    fn claim(&mut self, s: At) -> At {
        let (s, grew) = self.cells.claim(s);
        if grew {
            self.open.grow(self.cells.ids());
        }
        s
    }

    /// Sets h of a seen cell.
    #[inline]
    fn set_h(&mut self, id: u32, h: Cost) {
        self.cells.h[id as usize] = h;
    }

    /// Marks `s` seen (writing its initial h) without making it part of the current search;
    /// returns it claimed.
    #[inline]
    fn see(&mut self, s: At) -> At {
        if self.cells.stamp[s.id as usize] != 0 {
            return s;
        }
        let h = self.h(s);
        let s = self.claim(s);
        self.cells.h[s.id as usize] = h;
        self.cells.stamp[s.id as usize] = SEEN;
        s
    }

    /// g of the cell of `id` in the current search (∞ when not reached).
    #[inline]
    fn g(&self, id: u32) -> Cost {
        match self.cells.stamp[id as usize] >> 1 == self.search {
            true => self.cells.g[id as usize],
            false => INFINITY,
        }
    }

    /// Reaches `s` in the current search at cost `g` through a move in direction `back` back
    /// to its parent; returns it claimed.
    #[inline]
    fn reach(&mut self, s: At, g: Cost, back: u8) -> At {
        let s = self.see(s);
        let i = s.id as usize;
        self.cells.stamp[i] = self.search << 1;
        self.cells.g[i] = g;
        self.cells.parent[i] = back;
        s
    }

    #[inline]
    fn closed(&self, id: u32) -> bool {
        self.cells.stamp[id as usize] == (self.search << 1 | 1)
    }

    #[inline]
    fn close(&mut self, id: u32) {
        self.cells.stamp[id as usize] |= 1;
    }

    #[inline]
    fn next_dir(&self, id: u32) -> u8 {
        self.cells.next[id as usize]
    }

    /// Sets `next` of an owned cell.
    #[inline]
    fn set_next(&mut self, id: u32, dir: u8) {
        self.cells.next[id as usize] = dir;
    }

    #[inline]
    fn verified(&self, id: u32) -> bool {
        self.cells.verified[id as usize] == self.epoch
    }

    /// Marks an owned cell's chain tight in this epoch.
    #[inline]
    fn verify(&mut self, id: u32) {
        self.cells.verified[id as usize] = self.epoch;
    }

    /// Starts a new search number, renumbering the stamps when the counter runs out.
    fn next_search(&mut self) {
        if self.search >= (u32::MAX >> 1) - 1 {
            for st in &mut self.cells.stamp {
                if *st != 0 {
                    *st = SEEN;
                }
            }
            self.search = 1;
        }
        self.search += 1;
    }

    /// Drops every verification, when h or a link may have changed.
    fn new_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.cells.verified.iter_mut().for_each(|v| *v = 0);
            self.epoch = 1;
        }
    }

    // ---- the algorithm ----

    /// The cell one move in direction `dir` from `s`, with the move's cost, if it is legal.
    #[inline]
    fn step(&self, grid: &Grid, s: At, dir: u8) -> Option<(At, Cost)> {
        link(grid, self.conn, s.cell, dir).map(|(n, c)| (self.cells.at(n), c))
    }

    /// Whether `s`'s `next` chain is tight all the way to the goal; on success every cell of
    /// the chain is marked verified for this epoch.
    fn chain_tight(&mut self, grid: &Grid, s: At, goal: usize) -> bool {
        let mut x = s;
        let mut walked = 0usize;
        let tight = loop {
            if x.cell == goal || self.verified(x.id) {
                break true;
            }
            let hx = self.h(x);
            let d = self.next_dir(x.id);
            if hx == INFINITY || d == NO_DIR {
                break false;
            }
            let Some((n, c)) = self.step(grid, x, d) else {
                break false;
            };
            if hx != add(c, self.h(n)) {
                break false;
            }
            x = n;
            walked += 1;
            if walked > grid.len() {
                break false; // cannot happen: tight links strictly lower h
            }
        };
        if tight {
            // Every cell before the goal or a verified one has a `next`: it is owned.
            let mut x = s;
            while x.cell != goal && !self.verified(x.id) {
                self.verify(x.id);
                match self.step(grid, x, self.next_dir(x.id)) {
                    Some((n, _)) => x = n,
                    None => break,
                }
            }
        }
        tight
    }

    /// Drops a search the budget stopped, if any: the map it ran on changed.
    fn abandon_search(&mut self) {
        if let Some(Paused::Search(_)) = self.paused {
            self.paused = None;
            self.open.clear();
            self.carried.clear();
        }
    }

    /// ReestablishConsistency: lowers h from the pending cells outward wherever a move now
    /// makes it too high, expanding at most until `stats` counts `max`. Returns whether it
    /// ended; if not, the next call goes on (with any cells pending since).
    fn reestablish(&mut self, grid: &Grid, stats: &mut SearchStats, max: u64) -> bool {
        let resumes = matches!(self.paused, Some(Paused::Reestablish));
        if self.pending.is_empty() && !resumes {
            return true;
        }
        if !resumes {
            self.open.clear();
        }
        self.paused = None;
        let pending = std::mem::take(&mut self.pending);
        for &a in &pending {
            let a = self.cells.at(a as usize);
            if grid.weight(a.cell) == 0 || self.cells.stamp[a.id as usize] == 0 {
                continue; // a wall, or never seen (consistent by construction)
            }
            let mut best = (self.h(a), NO_DIR);
            let around = self.cells.around(a.x, a.y);
            grid.for_each_neighbor_at(a.cell, (a.x, a.y), self.conn, |n, x, y, c, dir| {
                let id = around.near(dir);
                let via = add(c, self.h(At { cell: n, x, y, id }));
                if via < best.0 {
                    best = (via, dir);
                }
            });
            if best.1 != NO_DIR {
                self.lower(a, best.0, best.1);
            }
        }
        self.pending = pending;
        self.pending.clear();
        while let Some(((hx, _), x, id)) = self.open.top_as() {
            if stats.expanded >= max {
                self.paused = Some(Paused::Reestablish);
                return false;
            }
            self.open.pop();
            let x = self.cells.owned(x as usize, id);
            self.expanded.push(x.cell as u32);
            stats.expanded += 1;
            self.rec.step(Step::Expand(Expansion {
                cell: x.cell as u32,
                kind: ExpansionKind::Lower,
                cost: hx,
            }));
            let around = self.cells.around(x.x, x.y);
            grid.for_each_neighbor_at(x.cell, (x.x, x.y), self.conn, |n, nx, ny, c, dir| {
                let via = add(c, hx);
                let n = At {
                    cell: n,
                    x: nx,
                    y: ny,
                    id: around.near(dir),
                };
                if self.h(n) > via {
                    self.lower(n, via, dir ^ 2);
                }
            });
        }
        true
    }

    /// Lowers h of `s` to `h`, pointing `next` in direction `dir`, and queues it.
    fn lower(&mut self, s: At, h: Cost, dir: u8) {
        let s = self.see(s);
        self.set_h(s.id, h);
        self.set_next(s.id, dir);
        self.open.insert_or_update_as(s.id, s.cell as u32, (h, 0));
        self.rec.step(Step::Open(s.cell as u32));
    }

    /// One A\* from `s0`, expanding at most until `stats` counts `max`; when it finds a path,
    /// its prefix and the h updates are written. Returns whether it ended; if not, the next
    /// call for the same start goes on with it.
    fn search_from(
        &mut self,
        grid: &Grid,
        s0: At,
        goal: usize,
        stats: &mut SearchStats,
        max: u64,
    ) -> bool {
        let first = self.expanded.len();
        let s0 = match self.paused.take() {
            Some(Paused::Search(s)) if s.cell == s0.cell => s,
            _ => {
                self.next_search();
                self.open.clear();
                self.carried.clear();
                let h0 = self.h(s0);
                if h0 == INFINITY {
                    return true; // known not to reach the goal
                }
                let s0 = self.reach(s0, 0, NO_DIR);
                self.open
                    .insert_or_update_as(s0.id, s0.cell as u32, (h0, INFINITY));
                self.rec.step(Step::Open(s0.cell as u32));
                s0
            }
        };
        let Some(stop) = self.run_search(grid, goal, stats, max) else {
            self.carried.extend_from_slice(&self.expanded[first..]);
            self.paused = Some(Paused::Search(s0));
            return false;
        };
        if self.tracing {
            let mut left = Vec::new();
            self.open.queued_cells(&mut left);
            left.sort_unstable();
            for c in left {
                self.rec.step(Step::Drop(c));
            }
        }
        self.open.clear();
        let mut closed = std::mem::take(&mut self.carried);
        closed.extend_from_slice(&self.expanded[first..]);
        self.learn(grid, s0, stop, &closed, goal);
        closed.clear();
        self.carried = closed;
        true
    }

    /// The A\* loop of [`search_from`](Self::search_from): expands until it pops a cell whose
    /// chain is tight (`Some(Some(it))`), runs out of cells (`Some(None)`) or `stats` counts
    /// `max` expansions (`None`).
    fn run_search(
        &mut self,
        grid: &Grid,
        goal: usize,
        stats: &mut SearchStats,
        max: u64,
    ) -> Option<Option<At>> {
        while let Some((_, u, id)) = self.open.top_as() {
            if stats.expanded >= max {
                return None;
            }
            self.open.pop();
            let u = self.cells.owned(u as usize, id);
            self.close(u.id);
            self.expanded.push(u.cell as u32);
            stats.expanded += 1;
            let gu = self.g(u.id);
            self.rec.step(Step::Expand(Expansion {
                cell: u.cell as u32,
                kind: ExpansionKind::Close,
                cost: gu,
            }));
            if self.chain_tight(grid, u, goal) {
                return Some(Some(u));
            }
            let around = self.cells.around(u.x, u.y);
            grid.for_each_neighbor_at(u.cell, (u.x, u.y), self.conn, |n, x, y, c, dir| {
                let id = around.near(dir);
                if self.closed(id) {
                    return;
                }
                let gn = gu + c;
                if gn < self.g(id) {
                    let n = self.reach(At { cell: n, x, y, id }, gn, dir ^ 2);
                    let hn = self.h(n);
                    if hn != INFINITY {
                        self.open.insert_or_update_as(
                            n.id,
                            n.cell as u32,
                            (gn + hn, INFINITY - gn),
                        );
                        self.rec.step(Step::Open(n.cell as u32));
                    }
                }
            });
        }
        Some(None)
    }

    /// After a search from `s0` that closed `closed`: on reaching `stop`, the closed cells
    /// learn their h and the prefix becomes `next` pointers; without, the closed cells are
    /// known not to reach the goal.
    fn learn(&mut self, grid: &Grid, s0: At, stop: Option<At>, closed: &[u32], goal: usize) {
        let Some(s) = stop else {
            // Nothing reachable from s0 reaches the goal.
            for &c in closed {
                let x = self.cells.at(c as usize);
                self.set_h(x.id, INFINITY);
                self.set_next(x.id, NO_DIR);
            }
            return;
        };
        // Adaptive A*: every closed cell learns f* − g (never less than it knew: with an
        // inconsistent heuristic a closed cell's f may exceed f*).
        let f = self.g(s.id) + self.h(s);
        for &c in closed {
            let x = self.cells.at(c as usize);
            let hx = f.saturating_sub(self.g(x.id)).max(self.h(x));
            self.set_h(x.id, hx);
        }
        // The prefix, from s* back to s0, becomes `next` pointers.
        let mut x = s;
        while x.cell != s0.cell {
            let back = self.cells.parent[x.id as usize];
            let (p, _) = self.step(grid, x, back).expect("a search-tree move");
            self.set_next(p.id, back ^ 2);
            x = p;
        }
        self.chain_tight(grid, s0, goal);
    }

    /// [`GoalPlanner::compute_within`](super::goal_planner::GoalPlanner::compute_within)'s
    /// work, once its records are begun.
    fn serve(&mut self, grid: &Grid, stats: &mut SearchStats, max: u64) -> Progress {
        if !self.reestablish(grid, stats, max) {
            return Progress::Pending;
        }
        let Some(goal) = self.goal_open(grid) else {
            self.abandon_search();
            return Progress::Done;
        };
        let g = self.claim(self.cells.at(goal));
        self.verify(g.id);
        // A search the budget stopped first, while its start is still one.
        if let Some(Paused::Search(s)) = self.paused {
            match self.starts.binary_search(&(s.cell as u32)) {
                Ok(_) if !self.search_from(grid, s, goal, stats, max) => return Progress::Pending,
                Ok(_) => {}
                Err(_) => self.abandon_search(),
            }
        }
        for i in 0..self.starts.len() {
            let s = self.cells.at(self.starts[i] as usize);
            if s.cell == goal || grid.weight(s.cell) == 0 || self.verified(s.id) {
                continue;
            }
            if !self.search_from(grid, s, goal, stats, max) {
                return Progress::Pending;
            }
        }
        Progress::Done
    }

    /// The goal's index if queries on `grid` can be answered: same size, goal passable.
    fn goal_open(&self, grid: &Grid) -> Option<usize> {
        let g = self.goal?;
        (grid.width() == self.width && grid.height() == self.height && grid.weight(g) != 0)
            .then_some(g)
    }

    /// The cell `cell` if it is on the planner's map.
    #[inline]
    fn on_map(&self, cell: usize) -> Option<At> {
        (cell < self.width as usize * self.height as usize).then(|| self.cells.at(cell))
    }

    /// The learned h of `cell` (the heuristic where never written), ∞ off the map.
    pub fn learned_h(&self, cell: usize) -> Cost {
        self.on_map(cell).map_or(INFINITY, |s| self.h(s))
    }

    /// The cell `next` points to from `cell`, if it points anywhere legal on `grid`.
    pub fn next_cell(&self, grid: &Grid, cell: usize) -> Option<usize> {
        let s = self.on_map(cell)?;
        link(grid, self.conn, cell, self.next_dir(s.id)).map(|(n, _)| n)
    }

    /// How many cells the searches wrote state for since the planner was made or reset
    /// (seen, verified or given a `next`): what its memory follows.
    pub fn touched(&self) -> usize {
        self.cells.touched()
    }
}
