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
//! chain is tight: [`cost_to_goal`](GoalPlanner::cost_to_goal), [`next_move`](GoalPlanner::next_move)
//! and [`path`](GoalPlanner::path) read it. A cell whose chain was not walked since the last
//! change reads as unknown (∞), as the trait allows.
//!
//! # Memory
//!
//! Per cell: h (8 bytes), g (8), a search stamp with a closed bit (4), a verification epoch (4),
//! and the `next` and parent pointers as directions (1 each). A new search costs no clear:
//! a cell's g counts only when its stamp names the current search. All reads and writes go
//! through a few small functions of [`Cells`], so the storage can change without the search.

use super::goal_planner::{CellInfo, GoalPlanner};
use crate::cost::{Cost, INFINITY, add, step_cost};
use crate::grid::{Connectivity, Grid, GridError, Pos};
use crate::heuristic::Heuristic;
use crate::path::Path;
use crate::queue::{CellQueue, IndexedHeap};
use crate::stats::SearchStats;
use crate::trace::{Expansion, ExpansionKind, Recorder, Step, Trace};

/// A queue key: (f, ∞ − g) in a search, so ties go to the larger g; (h, 0) in the
/// consistency pass.
type Key = (Cost, Cost);

/// The stamp of a cell seen but in no current search: search 1, which is never current
/// (every search first moves the counter on).
const SEEN: u32 = 1 << 1;

/// No direction: no `next` pointer.
const NO_DIR: u8 = u8::MAX;

// The moves in the grid's direction order: N, E, S, W, NE, SE, SW, NW (`dir ^ 2` is the
// opposite move).
const DX: [i64; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
const DY: [i64; 8] = [-1, 0, 1, 0, -1, 1, 1, -1];

/// The inspector's [`CellInfo::state`] of a cell whose `next` points in each direction.
pub const NEXT_STATES: [&str; 8] = [
    "next N", "next E", "next S", "next W", "next NE", "next SE", "next SW", "next NW",
];

/// The direction of `next` an inspector's [`CellInfo::state`] names (see [`NEXT_STATES`]).
pub fn next_direction(info: &CellInfo) -> Option<u8> {
    let s = info.state?;
    NEXT_STATES.iter().position(|&n| n == s).map(|d| d as u8)
}

/// The cell one move in direction `dir` from `cell` with its cost, if that move is legal.
#[inline]
fn link(grid: &Grid, conn: Connectivity, cell: usize, dir: u8) -> Option<(usize, Cost)> {
    let d = dir as usize;
    if d >= 8 || (d >= 4 && conn == Connectivity::Four) {
        return None;
    }
    let w = grid.width() as i64;
    let (x, y) = (cell as i64 % w, cell as i64 / w);
    let (nx, ny) = (x + DX[d], y + DY[d]);
    if nx < 0 || ny < 0 || nx >= w || ny >= grid.height() as i64 {
        return None;
    }
    let n = (ny * w + nx) as usize;
    let (a, b) = (grid.weight(cell), grid.weight(n));
    if a == 0 || b == 0 {
        return None;
    }
    let diagonal = d >= 4;
    if diagonal
        && (grid.weight((y * w + nx) as usize) == 0 || grid.weight((ny * w + x) as usize) == 0)
    {
        return None;
    }
    Some((n, step_cost(diagonal, a, b)))
}

/// The planner's per-cell state, as a struct of arrays behind a narrow interface.
#[derive(Clone, Debug, Default)]
struct Cells {
    /// Learned h; meaningful once the cell is seen (stamp ≠ 0).
    h: Vec<Cost>,
    /// g of the search named by the stamp.
    g: Vec<Cost>,
    /// `search << 1 | closed`; 0 while never seen.
    stamp: Vec<u32>,
    /// The epoch in which the cell's chain was walked and found tight.
    verified: Vec<u32>,
    /// Direction of `next`, or [`NO_DIR`].
    next: Vec<u8>,
    /// Direction back to the search-tree parent.
    parent: Vec<u8>,
}

impl Cells {
    fn new(n: usize) -> Cells {
        Cells {
            h: vec![0; n],
            g: vec![0; n],
            stamp: vec![0; n],
            verified: vec![0; n],
            next: vec![NO_DIR; n],
            parent: vec![NO_DIR; n],
        }
    }

    fn bytes(&self) -> usize {
        self.h.capacity() * 8
            + self.g.capacity() * 8
            + self.stamp.capacity() * 4
            + self.verified.capacity() * 4
            + self.next.capacity()
            + self.parent.capacity()
    }
}

/// The MPGAA\* planner for one goal and every agent heading to it. See the module docs.
///
/// ```
/// use gridwalk_core::{Connectivity, GoalPlanner, Grid, Heuristic, Pos, Terrain};
/// use gridwalk_core::search::mpgaa::Mpgaa;
/// let mut grid = Grid::new(5, 3).unwrap();
/// let mut p = Mpgaa::new(&grid, Pos::new(4, 1), Connectivity::Four, Heuristic::Manhattan).unwrap();
/// let start = grid.index(Pos::new(0, 1)).unwrap();
/// p.set_starts(&grid, &[start]);
/// p.compute(&grid);
/// assert_eq!(p.path(&grid, start).unwrap().moves(), 4);
///
/// grid.set(Pos::new(2, 1), Terrain::Wall).unwrap();
/// p.cells_changed(&grid, &[grid.index(Pos::new(2, 1)).unwrap()]);
/// p.compute(&grid);
/// assert_eq!(p.path(&grid, start).unwrap().moves(), 6);
/// ```
#[derive(Clone, Debug)]
pub struct Mpgaa {
    width: u32,
    height: u32,
    conn: Connectivity,
    heuristic: Heuristic,
    goal_pos: Pos,
    /// The goal's index, or `None` when the grid was swapped for one the goal is not on.
    goal: Option<usize>,
    cells: Cells,
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
    rec: Recorder,
    /// Whether `rec` records (it keeps that to itself).
    tracing: bool,
}

impl Mpgaa {
    /// A planner for `goal` on `grid`, guided by `heuristic` (which must be admissible with
    /// `conn` for the answers to be optimal). Fails when `goal` is off the grid.
    pub fn new(
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<Mpgaa, GridError> {
        grid.index(goal)?;
        let mut p = Mpgaa {
            width: 0,
            height: 0,
            conn,
            heuristic,
            goal_pos: goal,
            goal: None,
            cells: Cells::default(),
            search: 1,
            epoch: 1,
            open: IndexedHeap::with_capacity(0),
            starts: Vec::new(),
            pending: Vec::new(),
            expanded: Vec::new(),
            rec: Recorder::default(),
            tracing: false,
        };
        p.reset(grid);
        Ok(p)
    }

    /// Forgets everything and starts over on `grid`.
    fn reset(&mut self, grid: &Grid) {
        (self.width, self.height) = (grid.width(), grid.height());
        self.goal = grid.index(self.goal_pos).ok();
        self.cells = Cells::new(grid.len());
        (self.search, self.epoch) = (1, 1);
        self.open = IndexedHeap::with_capacity(grid.len());
        for list in [&mut self.starts, &mut self.pending, &mut self.expanded] {
            list.clear();
        }
    }

    fn sync(&mut self, grid: &Grid) {
        if grid.width() != self.width || grid.height() != self.height {
            self.reset(grid);
        }
    }

    // ---- storage: every access to the per-cell state goes through these ----

    /// The learned h of `s` (the heuristic while never seen).
    #[inline]
    fn h(&self, s: usize) -> Cost {
        match self.cells.stamp[s] {
            0 => self.initial_h(s),
            _ => self.cells.h[s],
        }
    }

    #[inline]
    fn initial_h(&self, s: usize) -> Cost {
        let w = self.width as usize;
        let p = Pos::new((s % w) as u32, (s / w) as u32);
        self.heuristic.between(p, self.goal_pos)
    }

    /// Sets h of a seen cell.
    #[inline]
    fn set_h(&mut self, s: usize, h: Cost) {
        self.cells.h[s] = h;
    }

    /// Marks `s` seen (writing its initial h) without making it part of the current search.
    #[inline]
    fn see(&mut self, s: usize) {
        if self.cells.stamp[s] == 0 {
            self.cells.h[s] = self.initial_h(s);
            self.cells.stamp[s] = SEEN;
        }
    }

    /// g of `s` in the current search (∞ when not reached).
    #[inline]
    fn g(&self, s: usize) -> Cost {
        match self.cells.stamp[s] >> 1 == self.search {
            true => self.cells.g[s],
            false => INFINITY,
        }
    }

    /// Reaches `s` in the current search at cost `g` through a move in direction `back` back
    /// to its parent.
    #[inline]
    fn reach(&mut self, s: usize, g: Cost, back: u8) {
        self.see(s);
        self.cells.stamp[s] = self.search << 1;
        self.cells.g[s] = g;
        self.cells.parent[s] = back;
    }

    #[inline]
    fn closed(&self, s: usize) -> bool {
        self.cells.stamp[s] == (self.search << 1 | 1)
    }

    #[inline]
    fn close(&mut self, s: usize) {
        self.cells.stamp[s] |= 1;
    }

    #[inline]
    fn next_dir(&self, s: usize) -> u8 {
        self.cells.next[s]
    }

    #[inline]
    fn set_next(&mut self, s: usize, dir: u8) {
        self.cells.next[s] = dir;
    }

    #[inline]
    fn verified(&self, s: usize) -> bool {
        self.cells.verified[s] == self.epoch
    }

    #[inline]
    fn verify(&mut self, s: usize) {
        self.cells.verified[s] = self.epoch;
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

    /// Whether `s`'s `next` chain is tight all the way to the goal; on success every cell of
    /// the chain is marked verified for this epoch.
    fn chain_tight(&mut self, grid: &Grid, s: usize, goal: usize) -> bool {
        let mut x = s;
        let mut walked = 0usize;
        let tight = loop {
            if x == goal || self.verified(x) {
                break true;
            }
            let hx = self.h(x);
            let d = self.next_dir(x);
            if hx == INFINITY || d == NO_DIR {
                break false;
            }
            let Some((n, c)) = link(grid, self.conn, x, d) else {
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
            let mut x = s;
            while x != goal && !self.verified(x) {
                self.verify(x);
                x = link(grid, self.conn, x, self.next_dir(x)).map_or(goal, |(n, _)| n);
            }
        }
        tight
    }

    /// ReestablishConsistency: lowers h from the pending cells outward wherever a move now
    /// makes it too high.
    fn reestablish(&mut self, grid: &Grid, stats: &mut SearchStats) {
        if self.pending.is_empty() {
            return;
        }
        self.open.clear();
        let pending = std::mem::take(&mut self.pending);
        for &a in &pending {
            let a = a as usize;
            if grid.weight(a) == 0 || self.cells.stamp[a] == 0 {
                continue; // a wall, or never seen (consistent by construction)
            }
            let mut best = (self.h(a), NO_DIR);
            grid.for_each_neighbor_dir(a, self.conn, |n, _, _, c, dir| {
                let via = add(c, self.h(n));
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
        while let Some(((hx, _), x)) = self.open.pop() {
            let x = x as usize;
            self.expanded.push(x as u32);
            stats.expanded += 1;
            self.rec.step(Step::Expand(Expansion {
                cell: x as u32,
                kind: ExpansionKind::Lower,
                cost: hx,
            }));
            grid.for_each_neighbor_dir(x, self.conn, |y, _, _, c, dir| {
                let via = add(c, hx);
                if self.h(y) > via {
                    self.lower(y, via, dir ^ 2);
                }
            });
        }
    }

    /// Lowers h of `s` to `h`, pointing `next` in direction `dir`, and queues it.
    fn lower(&mut self, s: usize, h: Cost, dir: u8) {
        self.see(s);
        self.set_h(s, h);
        self.set_next(s, dir);
        self.open.insert_or_update(s as u32, (h, 0));
        self.rec.step(Step::Open(s as u32));
    }

    /// One A\* from `s0`; returns whether it found a path (its prefix and the h updates are
    /// then written).
    fn search_from(&mut self, grid: &Grid, s0: usize, goal: usize, stats: &mut SearchStats) {
        self.next_search();
        self.open.clear();
        let first = self.expanded.len();
        let h0 = self.h(s0);
        if h0 == INFINITY {
            return; // known not to reach the goal
        }
        self.reach(s0, 0, NO_DIR);
        self.open.insert_or_update(s0 as u32, (h0, INFINITY));
        self.rec.step(Step::Open(s0 as u32));
        let mut stop = None;
        while let Some((_, u)) = self.open.pop() {
            let u = u as usize;
            self.close(u);
            self.expanded.push(u as u32);
            stats.expanded += 1;
            let gu = self.g(u);
            self.rec.step(Step::Expand(Expansion {
                cell: u as u32,
                kind: ExpansionKind::Close,
                cost: gu,
            }));
            if self.chain_tight(grid, u, goal) {
                stop = Some(u);
                break;
            }
            grid.for_each_neighbor_dir(u, self.conn, |n, _, _, c, dir| {
                if self.closed(n) {
                    return;
                }
                let gn = gu + c;
                if gn < self.g(n) {
                    self.reach(n, gn, dir ^ 2);
                    let hn = self.h(n);
                    if hn != INFINITY {
                        self.open
                            .insert_or_update(n as u32, (gn + hn, INFINITY - gn));
                        self.rec.step(Step::Open(n as u32));
                    }
                }
            });
        }
        if self.tracing {
            let mut left = Vec::new();
            self.open.queued_cells(&mut left);
            left.sort_unstable();
            for c in left {
                self.rec.step(Step::Drop(c));
            }
        }
        self.open.clear();
        let closed = first..self.expanded.len();
        match stop {
            Some(s) => {
                // Adaptive A*: every closed cell learns f* − g (never less than it knew: with
                // an inconsistent heuristic a closed cell's f may exceed f*).
                let f = self.g(s) + self.h(s);
                for i in closed {
                    let x = self.expanded[i] as usize;
                    let hx = f.saturating_sub(self.g(x)).max(self.h(x));
                    self.set_h(x, hx);
                }
                // The prefix, from s* back to s0, becomes `next` pointers.
                let mut x = s;
                while x != s0 {
                    let back = self.cells.parent[x];
                    let (p, _) = link(grid, self.conn, x, back).expect("a search-tree move");
                    self.set_next(p, back ^ 2);
                    x = p;
                }
                self.chain_tight(grid, s0, goal);
            }
            None => {
                // Nothing reachable from s0 reaches the goal.
                for i in closed {
                    let x = self.expanded[i] as usize;
                    self.set_h(x, INFINITY);
                    self.set_next(x, NO_DIR);
                }
            }
        }
    }

    /// The goal's index if queries on `grid` can be answered: same size, goal passable.
    fn goal_open(&self, grid: &Grid) -> Option<usize> {
        let g = self.goal?;
        (grid.width() == self.width && grid.height() == self.height && grid.weight(g) != 0)
            .then_some(g)
    }

    /// The learned h of `cell` (the heuristic where never written), ∞ off the map.
    pub fn learned_h(&self, cell: usize) -> Cost {
        if cell < self.cells.stamp.len() {
            self.h(cell)
        } else {
            INFINITY
        }
    }

    /// The cell `next` points to from `cell`, if it points anywhere legal on `grid`.
    pub fn next_cell(&self, grid: &Grid, cell: usize) -> Option<usize> {
        let d = *self.cells.next.get(cell)?;
        link(grid, self.conn, cell, d).map(|(n, _)| n)
    }
}

impl GoalPlanner for Mpgaa {
    fn goal(&self) -> usize {
        self.goal.unwrap_or(usize::MAX)
    }

    fn set_starts(&mut self, grid: &Grid, starts: &[usize]) {
        self.sync(grid);
        self.starts.clear();
        self.starts.extend(
            starts
                .iter()
                .filter(|&&s| s < grid.len())
                .map(|&s| s as u32),
        );
        self.starts.sort_unstable();
        self.starts.dedup();
    }

    fn cells_changed(&mut self, grid: &Grid, cells: &[usize]) {
        if grid.width() != self.width || grid.height() != self.height {
            self.reset(grid);
            return;
        }
        if cells.is_empty() {
            return;
        }
        self.new_epoch();
        for &c in cells {
            if c >= grid.len() {
                continue;
            }
            for a in grid.affected_by(c) {
                // Every move whose cost may have changed has both ends in the block.
                let d = self.next_dir(a);
                if d != NO_DIR {
                    let w = self.width as i64;
                    let (x, y) = (a as i64 % w, a as i64 / w);
                    let (nx, ny) = (x + DX[d as usize], y + DY[d as usize]);
                    let (cx, cy) = (c as i64 % w, c as i64 / w);
                    if (nx - cx).abs() <= 1 && (ny - cy).abs() <= 1 {
                        self.set_next(a, NO_DIR);
                    }
                }
                self.pending.push(a as u32);
            }
        }
    }

    fn compute(&mut self, grid: &Grid) -> SearchStats {
        self.sync(grid);
        self.expanded.clear();
        self.rec.begin();
        self.rec.snapshot(|_| {});
        let before = self.open.stats();
        let mut stats = SearchStats::default();
        self.reestablish(grid, &mut stats);
        if let Some(goal) = self.goal_open(grid) {
            self.verify(goal);
            for i in 0..self.starts.len() {
                let s = self.starts[i] as usize;
                if s == goal || grid.weight(s) == 0 || self.verified(s) {
                    continue;
                }
                self.search_from(grid, s, goal, &mut stats);
            }
        }
        stats.set_queue_work(before, self.open.stats());
        stats
    }

    fn cost_to_goal(&self, cell: usize) -> Cost {
        // Verification is dropped by every change and given only while the goal is open.
        match cell < self.cells.verified.len() && self.verified(cell) {
            true => self.h(cell),
            false => INFINITY,
        }
    }

    fn next_move(&self, grid: &Grid, cell: usize) -> Option<(usize, Cost)> {
        let goal = self.goal_open(grid)?;
        if cell == goal || cell >= grid.len() || !self.verified(cell) {
            return None;
        }
        link(grid, self.conn, cell, self.next_dir(cell))
    }

    fn path(&self, grid: &Grid, from: usize) -> Option<Path> {
        let goal = self.goal_open(grid)?;
        if from >= grid.len() || grid.weight(from) == 0 {
            return None;
        }
        if from != goal && !self.verified(from) {
            return None;
        }
        let mut cells = vec![grid.pos(from)];
        let mut cost = 0;
        let mut at = from;
        while at != goal {
            let (n, c) = link(grid, self.conn, at, self.next_dir(at))?;
            cost += c;
            cells.push(grid.pos(n));
            at = n;
            if cells.len() > grid.len() {
                return None;
            }
        }
        Some(Path { cells, cost })
    }

    fn last_expanded(&self) -> &[u32] {
        &self.expanded
    }

    fn memory_bytes(&self) -> usize {
        self.cells.bytes()
            + self.open.memory_bytes()
            + (self.starts.capacity() + self.pending.capacity() + self.expanded.capacity()) * 4
    }

    fn set_tracing(&mut self, on: bool) {
        self.rec.set(on);
        self.tracing = on;
    }

    fn last_trace(&self) -> &Trace {
        self.rec.trace()
    }

    fn take_last_trace(&mut self) -> Trace {
        self.rec.take()
    }

    fn inspect(&self, _grid: &Grid, cell: usize) -> Option<CellInfo> {
        let d = *self.cells.next.get(cell)?;
        let state = match (Some(cell) == self.goal, NEXT_STATES.get(d as usize)) {
            (true, _) => "goal",
            (false, Some(&s)) => s,
            (false, None) => "no next",
        };
        Some(CellInfo {
            g: self.cost_to_goal(cell),
            rhs: None,
            h: Some(self.h(cell)),
            key: None,
            queued: false,
            state: Some(state),
        })
    }
}
