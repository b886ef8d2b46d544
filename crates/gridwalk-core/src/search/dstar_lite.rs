//! D* Lite (Koenig & Likhachev 2002, the optimized version), shared by every agent of a goal.
//!
//! The search runs backward from the goal, so `g` and `rhs` are costs *to the goal* and stay
//! valid whichever agent reads them: one search serves every agent heading to that goal.
//! When cells change, only the vertices whose moves they touch (the 3×3 block around each
//! changed cell, see [`Grid::affected_by`]) get their `rhs` recomputed and re-queued; the
//! repair then spreads only as far as the change matters.
//!
//! # Many starts
//! Classic D* Lite focuses on one start `s` with `h(s, ·)` and `km`. Here a planner has a set
//! of starts `S` (its agents' cells), and:
//! - **Heuristic.** `h(u)` is the distance from `u` to the bounding box `B` of `S` (per axis,
//!   how far `u` lies outside the box, then the chosen heuristic of that displacement). It is
//!   0 at every start, never above `h(a, u)` for any start `a` (each start lies in `B`), and
//!   consistent: distance to a set under a norm is 1-Lipschitz in that norm, which admissible
//!   heuristics keep below move costs. It costs O(1), whatever the number of agents.
//! - **km.** When the box moves from `B` to `B'`, every stored key must stay a lower bound of
//!   its current key, which needs `h_B(u) ≤ h_B'(u) + Δ` for all `u`. By the triangle
//!   inequality that holds for Δ = the largest distance from a point of `B'` to `B` (the
//!   directed Hausdorff distance, the heuristic of the per-axis overshoot). So `km += Δ`, plus
//!   1 only for a heuristic that rounds down ([`Heuristic::floors`], Euclidean), where two
//!   floored estimates can sum one unit short; octile, Manhattan and Chebyshev are exact integer
//!   norms (maxima of linear forms), so the inequality holds to the unit. When agents move one
//!   cell, Δ is at most one diagonal: the "largest move of the tick".
//! - **Stopping.** Compute stops only when, for every start `a`, `g(a) = rhs(a)` and
//!   `key(a) ≤ top key` (or the queue is empty). Each start then meets the single-start
//!   termination condition of LPA*/D* Lite, whose proof uses only that the heuristic is
//!   consistent and 0 at that start, so every start's `g` is exact and descending `c + g`
//!   from it yields an optimal path. The check over all starts runs once per batch of
//!   expansions (a batch runs while the top key is at most the largest start key and ends
//!   early when a start is expanded), not once per expansion.
//!
//! Adding, removing or moving agents changes `S` and therefore `km`; it never restarts the
//! search, and other goals' planners are untouched.
//!
//! # Example
//! Two agents share one search toward a goal; a wall drops across their way and the planner
//! repairs both paths at once:
//! ```
//! use gridwalk_core::search::dstar_lite::DStarLite;
//! use gridwalk_core::search::dijkstra;
//! use gridwalk_core::{Connectivity, GoalPlanner, Grid, Heuristic, Pos, Terrain};
//!
//! let mut grid = Grid::new(20, 9).unwrap();
//! let goal = Pos::new(18, 4);
//! let agents = [Pos::new(1, 1), Pos::new(1, 7)];
//! let starts: Vec<usize> = agents.iter().map(|&a| grid.index(a).unwrap()).collect();
//! let mut planner = DStarLite::new(&grid, goal, Connectivity::Eight, Heuristic::Octile).unwrap();
//! planner.set_starts(&grid, &starts);
//! planner.compute(&grid);
//!
//! // A wall across both paths, with a gap at the bottom.
//! let wall: Vec<usize> = (0..8).map(|y| grid.index(Pos::new(10, y)).unwrap()).collect();
//! for &c in &wall {
//!     grid.set(grid.pos(c), Terrain::Wall).unwrap();
//! }
//! planner.cells_changed(&grid, &wall);
//! let repair = planner.compute(&grid);
//! assert!(repair.expanded > 0);
//! for (&a, &s) in agents.iter().zip(&starts) {
//!     let best = dijkstra(&grid, a, goal, Connectivity::Eight).unwrap().path.unwrap();
//!     assert_eq!(planner.cost_to_goal(s), best.cost);
//!     assert!(planner.path(&grid, s).unwrap().cells.contains(&Pos::new(10, 8)));
//! }
//! ```

use super::goal_planner::{CellInfo, GoalPlanner, Progress};
use crate::cost::{Cost, INFINITY, add};
use crate::grid::{Connectivity, Grid, GridError, Pos};
use crate::heuristic::Heuristic;
use crate::path::{Path, best_move, descend};
use crate::queue::{CellQueue, IndexedHeap};
use crate::stats::SearchStats;
use crate::trace::{Expansion, ExpansionKind, Recorder, Step};

/// A D* Lite priority: `[min(g, rhs) + h + km, min(g, rhs)]`, compared lexicographically,
/// exactly like the tuple `(k1, k2)`. Compared as one 128-bit number, which compiles to a
/// couple of branch-free instructions where the tuple comparison branches.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// `min(g, rhs) + h + km`.
    pub k1: Cost,
    /// `min(g, rhs)`.
    pub k2: Cost,
}

impl Key {
    /// The key of a cell with no path: above every other.
    pub const INFINITE: Key = Key {
        k1: INFINITY,
        k2: INFINITY,
    };
}

wide_order!(Key: k1, k2);

impl From<Key> for (Cost, Cost) {
    fn from(k: Key) -> (Cost, Cost) {
        (k.k1, k.k2)
    }
}

/// **Experimental.** D* Lite whose plateau ties go toward the agents.
///
/// `k2` is "under-consistent first, then larger `min(g, rhs)`", which on a plateau (equal
/// `k1 = min(g, rhs) + h + km`) means smaller `h`: the raises come first, then the cells
/// nearer the agents, so the search runs along the plateau to a start instead of sweeping
/// all of it. Paths stay optimal, but among paths of equal cost
/// another one may be taken, so results are not those of [`DStarLite`]'s standard key
/// `[k1, min(g, rhs)]` (on a plateau, the cell nearer the goal first).
///
/// Why it stays correct: the proofs of LPA*/D* Lite use `k2` only when a vertex `w` that
/// makes another one wrong has the same `k1`. An over-consistent top `u` whose rhs is too
/// high has such a `w` (over-consistent, on its optimal path) with a *smaller* `k1`, since
/// `rhs(u) > g*(u)`; one whose rhs is too low, or a settled start whose g is too low,
/// leads down a chain of consistent cells to an inconsistent `w` with `k1(w) ≤ k1`,
/// strictly unless `w` is under-consistent. Ranking under-consistent cells first among
/// equal `k1` is therefore all the proofs need: every LOWER expansion still sets an exact
/// g and the stopping rule still holds. Stored keys stay lower bounds of current ones
/// (class and `min(g, rhs)` change only through a requeue). Tie-breaking by `h` itself
/// would not: after the agents move, a stored `h` can overstate the current one, and a
/// start queued with such a key would never be reached (compute would spin).
pub type DStarLiteTowardStarts = DStarLite<IndexedHeap<Key>, true>;

/// The bounding box of the starts, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bounds {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

impl Bounds {
    /// A box holding every cell: nothing lies outside it.
    const EVERYWHERE: Bounds = Bounds {
        x0: 0,
        y0: 0,
        x1: u32::MAX,
        y1: u32::MAX,
    };

    fn of(grid: &Grid, starts: &[usize]) -> Option<Bounds> {
        let mut it = starts.iter().map(|&s| grid.pos(s));
        let p = it.next()?;
        let mut b = Bounds {
            x0: p.x,
            y0: p.y,
            x1: p.x,
            y1: p.y,
        };
        for p in it {
            b.x0 = b.x0.min(p.x);
            b.y0 = b.y0.min(p.y);
            b.x1 = b.x1.max(p.x);
            b.y1 = b.y1.max(p.y);
        }
        Some(b)
    }

    /// How far (x, y) lies outside the box, per axis.
    #[inline]
    fn outside(&self, x: u32, y: u32) -> (u32, u32) {
        let dx = if x < self.x0 {
            self.x0 - x
        } else {
            x.saturating_sub(self.x1)
        };
        let dy = if y < self.y0 {
            self.y0 - y
        } else {
            y.saturating_sub(self.y1)
        };
        (dx, dy)
    }

    /// The per-axis overshoot of `new` beyond `self`: the farthest point of `new` from `self`.
    fn overshoot(&self, new: &Bounds) -> (u32, u32) {
        let dx = self
            .x0
            .saturating_sub(new.x0)
            .max(new.x1.saturating_sub(self.x1));
        let dy = self
            .y0
            .saturating_sub(new.y0)
            .max(new.y1.saturating_sub(self.y1));
        (dx, dy)
    }
}

/// [`DStarLite::start_flags`]: the cell is a start.
const START: u8 = 1;
/// [`DStarLite::start_flags`]: the cell is listed in `unsettled`.
const UNSETTLED: u8 = 2;

/// D* Lite for one goal and any number of starts. See the module docs.
#[derive(Clone, Debug)]
///
/// `TOWARD_STARTS` picks the experimental tie-breaking of [`DStarLiteTowardStarts`]; the
/// default, `false`, is the standard key.
pub struct DStarLite<Q: CellQueue<Key> = IndexedHeap<Key>, const TOWARD_STARTS: bool = false> {
    conn: Connectivity,
    heuristic: Heuristic,
    width: usize,
    goal: usize,
    g: Vec<Cost>,
    rhs: Vec<Cost>,
    queue: Q,
    km: Cost,
    /// The starts' box; before any start, a box covering every cell, so that h is 0 there.
    bounds: Bounds,
    starts: Vec<usize>,
    /// Per cell: [`START`] (expanding one ends a batch so the starts are checked) and
    /// [`UNSETTLED`] (listed in `unsettled`).
    start_flags: Vec<u8>,
    /// The starts not yet known to be settled in this compute. A settled start leaves the
    /// list and comes back only by entering the queue, the one way its key can change.
    unsettled: Vec<usize>,
    expanded: Vec<u32>,
    rec: Recorder,
}

impl DStarLite<IndexedHeap<Key>> {
    /// A planner toward `goal` with the default queue. Out-of-range goals are an error.
    pub fn new(
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<Self, GridError> {
        Self::with_queue(grid, goal, conn, heuristic)
    }
}

impl<Q: CellQueue<Key>, const TOWARD_STARTS: bool> DStarLite<Q, TOWARD_STARTS> {
    /// A planner toward `goal` using queue type `Q` (for the queue comparison benchmark).
    pub fn with_queue(
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<Self, GridError> {
        let goal = grid.index(goal)?;
        let n = grid.len();
        let mut planner = DStarLite {
            conn,
            heuristic,
            width: grid.width() as usize,
            goal,
            g: vec![INFINITY; n],
            rhs: vec![INFINITY; n],
            queue: Q::with_capacity(n),
            km: 0,
            bounds: Bounds::EVERYWHERE,
            starts: Vec::new(),
            start_flags: vec![0; n],
            unsettled: Vec::new(),
            expanded: Vec::new(),
            rec: Recorder::default(),
        };
        planner.queue_goal();
        Ok(planner)
    }

    /// The first step of every search: the goal's rhs is 0, and it is queued.
    fn queue_goal(&mut self) {
        self.rhs[self.goal] = 0;
        let k = self.key(self.goal);
        self.queue.insert_or_update(self.goal as u32, k);
    }

    /// The planner's `g` value of `cell` (cost to goal as last expanded), for overlays.
    pub fn g(&self, cell: usize) -> Cost {
        self.g[cell]
    }

    /// The planner's `rhs` value of `cell` (one-step lookahead cost to goal).
    pub fn rhs(&self, cell: usize) -> Cost {
        self.rhs[cell]
    }

    /// The column and row of `cell` (32-bit division: grids hold at most 2^26 cells).
    #[inline]
    fn xy(&self, cell: usize) -> (u32, u32) {
        let (c, w) = (cell as u32, self.width as u32);
        (c % w, c / w)
    }

    #[inline]
    fn h(&self, cell: usize) -> Cost {
        let (x, y) = self.xy(cell);
        self.h_xy(x, y)
    }

    /// The heuristic of the cell at (x, y).
    #[inline]
    fn h_xy(&self, x: u32, y: u32) -> Cost {
        let (dx, dy) = self.bounds.outside(x, y);
        self.heuristic.estimate(dx, dy)
    }

    #[inline]
    fn key(&self, cell: usize) -> Key {
        let (x, y) = self.xy(cell);
        self.key_xy(cell, x, y)
    }

    /// The key of `cell`, which lies at (x, y).
    #[inline(always)]
    fn key_xy(&self, cell: usize, x: u32, y: u32) -> Key {
        let (g, rhs) = (self.g[cell], self.rhs[cell]);
        let m = g.min(rhs);
        if m == INFINITY {
            return Key::INFINITE;
        }
        let h = self.h_xy(x, y);
        let k2 = if TOWARD_STARTS {
            // Bit 63: not under-consistent; below it, larger m first (m is far below 2^63).
            const LOW: Cost = (1 << 63) - 1;
            (((g >= rhs) as Cost) << 63) | (LOW - m.min(LOW))
        } else {
            m
        };
        Key {
            k1: add(add(m, h), self.km),
            k2,
        }
    }

    /// rhs(u) = min over successors of c(u, s) + g(s); 0 at the goal.
    #[inline]
    fn lookahead(&self, grid: &Grid, u: usize) -> Cost {
        if u == self.goal {
            return 0;
        }
        let mut best = INFINITY;
        grid.for_each_neighbor(u, self.conn, |s, c| {
            best = best.min(add(c, self.g[s]));
        });
        best
    }

    #[inline]
    fn update_vertex(&mut self, u: usize) {
        let (x, y) = self.xy(u);
        self.update_vertex_xy(u, x, y);
    }

    /// Queues `u` (at (x, y)) with its current key if it is inconsistent, else drops it.
    #[inline]
    fn update_vertex_xy(&mut self, u: usize, x: u32, y: u32) {
        if self.g[u] != self.rhs[u] {
            self.requeue(u, x, y);
        } else if self.queue.remove(u as u32) {
            self.rec.step(Step::Drop(u as u32));
        }
    }

    /// Queues the inconsistent `u` (at (x, y)) with its current key.
    #[inline]
    fn requeue(&mut self, u: usize, x: u32, y: u32) {
        let k = self.key_xy(u, x, y);
        // Most requeued neighbours already hold this key: check before calling the queue.
        if self.queue.queued_key(u as u32) != Some(k) {
            self.queue.insert_or_update(u as u32, k);
        }
        self.opened(u);
    }

    /// [`requeue`](Self::requeue), but when `u` is new to the queue and `vacant` names a
    /// cell still queued that should leave it, `u` takes that cell's place.
    #[inline]
    fn requeue_into(&mut self, u: usize, x: u32, y: u32, vacant: &mut Option<u32>) {
        let k = self.key_xy(u, x, y);
        match *vacant {
            Some(v) if !self.queue.contains(u as u32) => {
                self.queue.replace(v, u as u32, k);
                *vacant = None;
            }
            _ => self.queue.insert_or_update(u as u32, k),
        }
        self.opened(u);
    }

    /// Records that `u` was queued or rekeyed; a start queued is unsettled again.
    #[inline]
    fn opened(&mut self, u: usize) {
        self.rec.step(Step::Open(u as u32));
        if self.start_flags[u] == START {
            self.start_flags[u] |= UNSETTLED;
            self.unsettled.push(u);
        }
    }

    /// Whether every start is settled: consistent and keyed no better than `top`. Returns
    /// the largest key of the starts still unsettled as well. Settled starts leave the list:
    /// `top` never decreases within a compute, so they stay settled until they are queued.
    fn starts_settled(&mut self, top: Key) -> (bool, Key) {
        let mut kmax = Key { k1: 0, k2: 0 };
        let mut i = 0;
        while i < self.unsettled.len() {
            let s = self.unsettled[i];
            let k = self.key(s);
            if k <= top && self.g[s] == self.rhs[s] {
                self.start_flags[s] &= !UNSETTLED;
                self.unsettled.swap_remove(i);
            } else {
                kmax = kmax.max(k);
                i += 1;
            }
        }
        (self.unsettled.is_empty(), kmax)
    }

    /// Lists every start as unsettled, at the beginning of a compute.
    fn unsettle_all(&mut self) {
        for &s in &self.unsettled {
            self.start_flags[s] &= !UNSETTLED;
        }
        self.unsettled.clear();
        for &s in &self.starts {
            if self.start_flags[s] & UNSETTLED == 0 {
                self.start_flags[s] |= UNSETTLED;
                self.unsettled.push(s);
            }
        }
    }

    fn expand(&mut self, grid: &Grid, u: usize, k_old: Key, stats: &mut SearchStats) {
        let k_new = self.key(u);
        if k_old < k_new {
            self.queue.insert_or_update(u as u32, k_new);
            self.rec.step(Step::Open(u as u32));
            return;
        }
        stats.expanded += 1;
        self.expanded.push(u as u32);
        if self.g[u] > self.rhs[u] {
            // Overconsistent: settle g, lower the lookahead of the predecessors.
            let gu = self.rhs[u];
            self.g[u] = gu;
            self.rec.step(Step::Expand(Expansion {
                cell: u as u32,
                kind: ExpansionKind::Lower,
                cost: gu,
            }));
            // Only a neighbour whose rhs went down or that is queued needs its key set; a
            // consistent one is not queued (queued cells are exactly the inconsistent ones).
            // The goal's rhs is 0, never above `via`. u leaves the queue, its heap slot going
            // to the first neighbour that enters it, if any: cheaper than a pop and a push.
            let mut vacant = Some(u as u32);
            grid.for_each_neighbor_xy(u, self.conn, |s, x, y, c| {
                let via = add(c, gu);
                let rhs = self.rhs[s];
                if via < rhs {
                    self.rhs[s] = via;
                    if self.g[s] != via {
                        self.requeue_into(s, x, y, &mut vacant);
                    } else if self.queue.remove(s as u32) {
                        self.rec.step(Step::Drop(s as u32));
                    }
                } else if self.g[s] != rhs {
                    self.requeue(s, x, y);
                }
            });
            if let Some(u) = vacant {
                self.queue.remove(u);
            }
        } else {
            // Underconsistent: raise g to infinity; predecessors that relied on u look again.
            let g_old = self.g[u];
            self.g[u] = INFINITY;
            self.rec.step(Step::Expand(Expansion {
                cell: u as u32,
                kind: ExpansionKind::Raise,
                cost: INFINITY,
            }));
            let goal = self.goal;
            grid.for_each_neighbor_xy(u, self.conn, |s, x, y, c| {
                if s != goal && self.rhs[s] == add(c, g_old) {
                    self.rhs[s] = self.lookahead(grid, s);
                    self.update_vertex_xy(s, x, y);
                } else if self.g[s] != self.rhs[s] {
                    self.requeue(s, x, y);
                }
            });
            // rhs(u) does not depend on g(u), so it stands; u is requeued or dropped.
            debug_assert!(u == goal || self.rhs[u] == self.lookahead(grid, u));
            self.update_vertex(u);
        }
    }
}

impl<Q: CellQueue<Key> + Send + Sync, const TOWARD_STARTS: bool> GoalPlanner
    for DStarLite<Q, TOWARD_STARTS>
{
    fn goal(&self) -> usize {
        self.goal
    }

    fn set_starts(&mut self, grid: &Grid, starts: &[usize]) {
        for &s in &self.starts {
            self.start_flags[s] &= !START;
        }
        self.starts.clear();
        self.starts.extend_from_slice(starts);
        for &s in starts {
            self.start_flags[s] |= START;
        }
        // With no agent left, keep the old box: shrinking to "no box" could break the keys.
        let Some(new) = Bounds::of(grid, starts) else {
            return;
        };
        // From the first box (every cell) the overshoot is 0: keys made with h = 0 stay below.
        let (dx, dy) = self.bounds.overshoot(&new);
        if dx > 0 || dy > 0 {
            let slack = self.heuristic.floors() as Cost;
            self.km = add(self.km, add(self.heuristic.estimate(dx, dy), slack));
        }
        self.bounds = new;
    }

    fn cells_changed(&mut self, grid: &Grid, cells: &[usize]) {
        for &c in cells {
            for u in grid.affected_by(c) {
                if u != self.goal {
                    self.rhs[u] = self.lookahead(grid, u);
                }
                self.update_vertex(u);
            }
        }
    }

    fn compute(&mut self, grid: &Grid) -> SearchStats {
        self.compute_within(grid, u64::MAX).0
    }

    fn compute_within(&mut self, grid: &Grid, max_expansions: u64) -> (SearchStats, Progress) {
        self.expanded.clear();
        self.rec.begin();
        let before = self.queue.stats();
        let mut stats = SearchStats::default();
        let mut progress = Progress::Done;
        self.unsettle_all();
        while let Some((top, _)) = self.queue.top() {
            let (settled, kmax) = self.starts_settled(top);
            if settled {
                break;
            }
            if stats.expanded >= max_expansions {
                progress = Progress::Pending;
                break;
            }
            let queue = &self.queue;
            self.rec.snapshot(|out| queue.queued_cells(out));
            // Expand in a batch while the top key is not above the largest start key and no
            // start has been expanded, then check the starts again: a start settles either
            // when the top key passes its key or when it is expanded.
            while let Some((k_old, u)) = self.queue.top() {
                if k_old > kmax || stats.expanded >= max_expansions {
                    break;
                }
                self.expand(grid, u as usize, k_old, &mut stats);
                if self.start_flags[u as usize] & START != 0 {
                    break;
                }
            }
        }
        let after = self.queue.stats();
        stats.set_queue_work(before, after);
        (stats, progress)
    }

    fn cost_to_goal(&self, cell: usize) -> Cost {
        self.g[cell]
    }

    fn next_move(&self, grid: &Grid, cell: usize) -> Option<(usize, Cost)> {
        if cell == self.goal || self.g[cell] == INFINITY {
            return None;
        }
        let (n, total) = best_move(grid, self.conn, cell, |s| self.g[s])?;
        (self.g[n] < self.g[cell]).then(|| (n, total - self.g[n]))
    }

    fn path(&self, grid: &Grid, from: usize) -> Option<Path> {
        descend(grid, self.conn, from, self.goal, |s| self.g[s])
    }

    fn last_expanded(&self) -> &[u32] {
        &self.expanded
    }

    fn memory_bytes(&self) -> usize {
        (self.g.capacity() + self.rhs.capacity()) * std::mem::size_of::<Cost>()
            + self.queue.memory_bytes()
            + self.expanded.capacity() * 4
            + self.starts.capacity() * std::mem::size_of::<usize>()
            + self.start_flags.capacity()
            + self.unsettled.capacity() * std::mem::size_of::<usize>()
    }

    recorder_methods!(rec);

    fn inspect(&self, _grid: &Grid, cell: usize) -> Option<CellInfo> {
        let g = *self.g.get(cell)?;
        let key = self.queue.queued_key(cell as u32).map(Into::into);
        Some(CellInfo {
            g,
            rhs: Some(self.rhs[cell]),
            h: Some(self.h(cell)),
            key,
            queued: key.is_some(),
            state: None,
        })
    }

    fn km(&self) -> Cost {
        self.km
    }
}

impl<Q: CellQueue<Key>, const TOWARD_STARTS: bool> DStarLite<Q, TOWARD_STARTS> {
    /// Makes this planner anew toward `goal`, exactly as [`DStarLite::with_queue`] would, but
    /// keeping its arrays when `grid` has the size it was made for: a pool of dropped planners
    /// serves new goals without allocating. Whether it records traces is kept.
    pub fn reset(
        &mut self,
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<(), GridError> {
        let goal = grid.index(goal)?;
        if self.g.len() != grid.len() || self.width != grid.width() as usize {
            let mut fresh = Self::with_queue(grid, grid.pos(goal), conn, heuristic)?;
            std::mem::swap(&mut fresh.rec, &mut self.rec);
            *self = fresh;
            return Ok(());
        }
        self.conn = conn;
        self.heuristic = heuristic;
        self.goal = goal;
        self.g.fill(INFINITY);
        self.rhs.fill(INFINITY);
        self.queue.clear();
        self.km = 0;
        self.bounds = Bounds::EVERYWHERE;
        self.starts.clear();
        self.start_flags.fill(0);
        self.unsettled.clear();
        self.expanded.clear();
        self.queue_goal();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Terrain;
    use crate::search::dijkstra;
    use proptest::prelude::*;

    /// Random walls and weights, up to three agents stepping along their paths, one goal:
    /// after every repair, [`DStarLiteTowardStarts`] must give every agent Dijkstra's cost.
    fn check_ties_world(
        (w, h): (u32, u32),
        walls: Vec<(u32, u32)>,
        agents: Vec<(u32, u32)>,
        rounds: Vec<Vec<(u32, u32, u8)>>,
    ) {
        let conn = Connectivity::Eight;
        let mut grid = Grid::new(w, h).unwrap();
        let goal = Pos::new(w - 1, h - 1);
        let mut agents: Vec<Pos> = agents
            .into_iter()
            .map(|(x, y)| Pos::new(x % w, y % h))
            .filter(|&p| p != goal)
            .collect();
        for (x, y) in walls {
            let p = Pos::new(x % w, y % h);
            if p != goal && !agents.contains(&p) {
                grid.set(p, Terrain::Wall).unwrap();
            }
        }
        let mut planner =
            DStarLiteTowardStarts::with_queue(&grid, goal, conn, Heuristic::Octile).unwrap();
        let idx = |g: &Grid, v: &[Pos]| v.iter().map(|&p| g.index(p).unwrap()).collect::<Vec<_>>();
        let check = |planner: &DStarLiteTowardStarts, grid: &Grid, agents: &[Pos]| {
            for &a in agents {
                let best = dijkstra(grid, a, goal, conn)
                    .unwrap()
                    .path
                    .map_or(INFINITY, |p| p.cost);
                assert_eq!(planner.cost_to_goal(grid.index(a).unwrap()), best);
            }
        };
        planner.set_starts(&grid, &idx(&grid, &agents));
        planner.compute(&grid);
        check(&planner, &grid, &agents);
        for round in rounds {
            for a in agents.iter_mut() {
                if let Some(n) = planner.next_step(&grid, grid.index(*a).unwrap()) {
                    *a = grid.pos(n);
                }
            }
            let mut changed = Vec::new();
            for (x, y, weight) in round {
                let p = Pos::new(x % w, y % h);
                if p == goal || agents.contains(&p) {
                    continue;
                }
                let t = if weight > 6 {
                    Terrain::Wall
                } else {
                    Terrain::Weight(weight)
                };
                grid.set(p, t).unwrap();
                changed.push(grid.index(p).unwrap());
            }
            planner.set_starts(&grid, &idx(&grid, &agents));
            planner.cells_changed(&grid, &changed);
            planner.compute(&grid);
            check(&planner, &grid, &agents);
        }
    }

    #[test]
    fn a_reset_planner_searches_like_a_new_one() {
        let conn = Connectivity::Eight;
        let mut grid = Grid::new(20, 12).unwrap();
        for y in 0..9 {
            grid.set(Pos::new(9, y), Terrain::Wall).unwrap();
        }
        let cell = |g: &Grid, x, y| g.index(Pos::new(x, y)).unwrap();
        // Used first: another goal, agents that move (km grows), an edit.
        let mut used = DStarLite::new(&grid, Pos::new(18, 2), conn, Heuristic::Octile).unwrap();
        used.set_tracing(true);
        for x in 0..4 {
            used.set_starts(&grid, &[cell(&grid, x, 1), cell(&grid, x, 10)]);
            used.compute(&grid);
        }
        assert!(used.km() > 0);
        grid.set(Pos::new(9, 10), Terrain::Wall).unwrap();
        used.cells_changed(&grid, &[cell(&grid, 9, 10)]);
        used.compute(&grid);

        used.reset(&grid, Pos::new(15, 6), conn, Heuristic::Octile)
            .unwrap();
        let mut new = DStarLite::new(&grid, Pos::new(15, 6), conn, Heuristic::Octile).unwrap();
        new.set_tracing(true);
        for p in [&mut used, &mut new] {
            p.set_starts(&grid, &[cell(&grid, 2, 3), cell(&grid, 5, 8)]);
            p.compute(&grid);
        }
        assert_eq!(used.km(), new.km());
        assert_eq!(used.last_trace(), new.last_trace());
        assert_eq!(used.g, new.g);
        assert_eq!(used.rhs, new.rhs);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        #[test]
        fn ties_toward_starts_matches_dijkstra_after_every_repair(
            size in (2u32..24, 2u32..24),
            walls in prop::collection::vec((0u32..24, 0u32..24), 0..120),
            agents in prop::collection::vec((0u32..24, 0u32..24), 1..4),
            rounds in prop::collection::vec(
                prop::collection::vec((0u32..24, 0u32..24, 1u8..=9), 1..6),
                1..8,
            ),
        ) {
            check_ties_world(size, walls, agents, rounds);
        }
    }
}
