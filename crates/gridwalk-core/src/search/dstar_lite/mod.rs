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
//! # Memory that follows the search
//! A planner holds, per cell its searches wrote, 13 bytes: `g`, the queue's handle and the
//! start flags, in blocks of 16 ids, one per 4×4 tile of the map, behind a tile table of 4
//! bytes per tile (`search/cells.rs`). Untouched tiles read as block 0, which holds
//! the untouched state and is never written, so reads need no branch; only a write to a new
//! tile (a neighbour's first finite `rhs`, a start, an edit next to a reached cell) claims a
//! block. There is no per-cell `rhs`: queued cells are exactly the inconsistent ones, so a
//! cell not queued has `rhs = g`, and a queued cell's `rhs` rides in its queue key as a
//! payload outside the order ([`Key::rhs`]); every write of an `rhs` is a requeue or a drop
//! (`update_vertex_at`, `requeue`).
//! [`GoalPlanner::memory_bytes`](crate::GoalPlanner::memory_bytes) is the room allocated,
//! from capacities, in O(1). On the compare bench that is 29–31 bytes per touched cell
//! (table, heap and the last compute's expansions included), against 22 bytes per *map* cell
//! before.
//!
//! That is the [`Tiles`] store. The planner is generic over its store ([`Store`]), and with
//! [`Flat`] ([`FlatDStarLite`]) the ids are the cells' own indices: 13 bytes per map cell,
//! made at once, no table to read and no claim to check. The factory picks one per planner
//! when it makes it ([`Storage::by_size`](super::cells::Storage::by_size)); the two expand
//! the same cells in the same order, since the queue breaks ties by cell either way.
//!
//! Why tiles rather than arrays of map size whose untouched encoding is all zero bytes, left
//! for the OS to commit lazily: that memory is invisible to the program (a budget cannot count
//! it without asking the kernel), a transparent huge page commits 2 MB at one touch, a
//! reused allocation is zeroed (committed) by `calloc` again, and a 4 KiB page of state
//! covers 16×16 cells or more, of which the searches on the default map fill under half.
//! Tiles cost a few table loads per cell whose neighbours are read (`Tiles::around`), then a
//! lookup per neighbour; a cell's position comes back from its id without the division the
//! flat layout paid per expansion. Queue entries keep the cell
//! itself as the tie-break, so the expansion order, and every result, is the one of the flat
//! layout.
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

use super::bounds::Bounds;
use super::cells::{Flat, Near, Store, Tiles};
use crate::huge::HugeVec;

use crate::cost::{Cost, INFINITY, add};
use crate::grid::{Connectivity, Grid, GridError, Pos};
use crate::heuristic::Heuristic;

use crate::queue::{CellQueue, IndexedHeap};
use crate::stats::SearchStats;
use crate::trace::{Expansion, ExpansionKind, Recorder, Step};

mod changes;
mod key;
mod planner;
mod starts;

pub use key::{DStarLiteTowardStarts, Key};

/// [`DStarLite::flags`]: the cell is a start or a cell that must be exact (a target of the
/// stopping rule).
const START: u8 = 1;
/// [`DStarLite::flags`]: the cell is listed in `unsettled`.
const UNSETTLED: u8 = 2;

/// D* Lite for one goal and any number of starts. See the module docs.
///
/// `TOWARD_STARTS` picks the experimental tie-breaking of [`DStarLiteTowardStarts`]; the
/// default, `false`, is the standard key.
#[derive(Clone, Debug)]
pub struct DStarLite<
    Q: CellQueue<Key> = IndexedHeap<Key>,
    const TOWARD_STARTS: bool = false,
    S: Store = Tiles,
> {
    conn: Connectivity,
    heuristic: Heuristic,
    goal: usize,
    /// The ids of the cells: the map's own indices ([`Flat`]) or blocks claimed per tile
    /// ([`Tiles`], see `search/cells.rs`); the per-cell arrays below and the queue's handles
    /// are indexed by id.
    tiles: S,
    /// Per id: `g`. A cell's `rhs` is its `g` unless it is queued: then it is its key's
    /// payload ([`Key::rhs`]), since queued cells are exactly the inconsistent ones.
    g: HugeVec<Cost>,
    queue: Q,
    km: Cost,
    /// The starts' box; before any start, a box covering every cell, so that h is 0 there.
    bounds: Bounds,
    starts: Vec<usize>,
    /// Cells that must be exact besides the starts
    /// ([`GoalPlanner::set_exact`](crate::GoalPlanner::set_exact)).
    exact: Vec<usize>,
    /// The ids of `starts` and `exact`: the cells the stopping rule settles.
    start_ids: Vec<u32>,
    /// Per id: [`START`] (expanding one ends a batch so the starts are checked) and
    /// [`UNSETTLED`] (listed in `unsettled`).
    flags: HugeVec<u8>,
    /// The ids of the starts not yet known to be settled in this compute. A settled start
    /// leaves the list and comes back only by entering the queue, the one way its key can
    /// change.
    unsettled: Vec<u32>,
    expanded: Vec<u32>,
    rec: Recorder,
}

/// D\* Lite with whole-map arrays ([`Flat`]) instead of tiles: what the factory builds when a
/// planner's whole-map state is cheap (see [`Storage::by_size`](super::cells::Storage::by_size)).
pub type FlatDStarLite = DStarLite<IndexedHeap<Key>, false, Flat>;

impl DStarLite<IndexedHeap<Key>> {
    /// A planner toward `goal` with the default queue, its state in tiles. Out-of-range goals
    /// are an error.
    pub fn new(
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<Self, GridError> {
        Self::with_queue(grid, goal, conn, heuristic)
    }
}

impl<Q: CellQueue<Key>, const TOWARD_STARTS: bool, S: Store> DStarLite<Q, TOWARD_STARTS, S> {
    /// A planner toward `goal` using queue type `Q` (for the queue comparison benchmark) and
    /// store `S`. With tiles it holds no per-cell state yet (only the untouched block and the
    /// tile table); flat, its arrays are made at the map's size now.
    pub fn with_queue(
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<Self, GridError> {
        let goal = grid.index(goal)?;
        let tiles = S::new(grid);
        let ids = tiles.ids();
        let mut planner = DStarLite {
            conn,
            heuristic,
            goal,
            tiles,
            g: HugeVec::from_elem(INFINITY, ids),
            queue: Q::with_capacity(ids),
            km: 0,
            bounds: Bounds::EVERYWHERE,
            starts: Vec::new(),
            exact: Vec::new(),
            start_ids: Vec::new(),
            flags: HugeVec::from_elem(0, ids),
            unsettled: Vec::new(),
            expanded: Vec::new(),
            rec: Recorder::default(),
        };
        planner.queue_goal();
        Ok(planner)
    }

    /// The first step of every search: the goal's rhs is 0, and it is queued.
    fn queue_goal(&mut self) {
        let (x, y) = self.tiles.cell_xy(self.goal);
        let id = self.claim(x, y);
        let k = self.key_with(self.g[id as usize], 0, x, y);
        self.queue.insert_or_update_as(id, self.goal as u32, k);
    }

    /// The id of the cell at (x, y), to write: its tile gets a block of ids if it has none,
    /// and the arrays grow to hold it.
    #[inline]
    fn claim(&mut self, x: u32, y: u32) -> u32 {
        let before = self.tiles.ids();
        let id = self.tiles.claim(x, y);
        let n = self.tiles.ids();
        if n != before {
            self.grow_to(n);
        }
        id
    }

    /// Grows the per-id arrays and the queue's handles to `n` ids.
    #[cold]
    #[inline(never)]
    fn grow_to(&mut self, n: usize) {
        self.g.grow(n, INFINITY);
        self.flags.grow(n, 0);
        self.queue.grow(n);
    }

    /// `g` of the cell of `id`.
    #[inline(always)]
    fn g_of(&self, id: u32) -> Cost {
        self.g[id as usize]
    }

    /// The id of flat cell `cell`, to read.
    #[inline]
    fn id_of(&self, cell: usize) -> u32 {
        let (x, y) = self.tiles.cell_xy(cell);
        self.tiles.id(x, y)
    }

    /// The planner's `g` value of `cell` (cost to goal as last expanded), for overlays.
    #[inline]
    pub fn g(&self, cell: usize) -> Cost {
        self.g[self.id_of(cell) as usize]
    }

    /// The planner's `rhs` value of `cell` (one-step lookahead cost to goal).
    pub fn rhs(&self, cell: usize) -> Cost {
        self.rhs_at(self.id_of(cell))
    }

    /// The `rhs` of the cell of `id`: its key's payload when queued, else its `g`.
    #[inline(always)]
    fn rhs_at(&self, id: u32) -> Cost {
        self.rhs_and_key(id).0
    }

    /// The `rhs` of the cell of `id` and its key if it is queued (it is then inconsistent).
    #[inline(always)]
    fn rhs_and_key(&self, id: u32) -> (Cost, Option<Key>) {
        let key = self.queue.queued_key(id);
        (key.map_or_else(|| self.g_of(id), |k| k.rhs), key)
    }

    /// How many cells the searches wrote state for (a cost, a queue entry or a start), since
    /// the planner was made or reset: what its memory follows.
    pub fn touched(&self) -> usize {
        self.tiles
            .owned()
            .filter(|&(id, _)| {
                let i = id as usize;
                self.g[i] != INFINITY || self.flags[i] != 0 || self.queue.contains(id)
            })
            .count()
    }

    /// The heuristic of the cell at (x, y).
    #[inline]
    fn h_xy(&self, x: u32, y: u32) -> Cost {
        let (dx, dy) = self.bounds.outside(x, y);
        self.heuristic.estimate(dx, dy)
    }

    /// The key of the cell of `id`, which lies at (x, y).
    #[inline(always)]
    fn key_at(&self, id: u32, x: u32, y: u32) -> Key {
        self.key_with(self.g_of(id), self.rhs_at(id), x, y)
    }

    /// The key of a cell at (x, y) whose `g` and `rhs` are these.
    #[inline(always)]
    fn key_with(&self, g: Cost, rhs: Cost, x: u32, y: u32) -> Key {
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
            rhs,
        }
    }

    /// The key of the cell of `id` (an owned id).
    #[inline]
    fn key_of(&self, id: u32) -> Key {
        let (x, y) = self.tiles.xy(id);
        self.key_at(id, x, y)
    }

    /// rhs(u) = min over successors of c(u, s) + g(s); 0 at the goal. `u` lies at (x, y).
    #[inline]
    fn lookahead(&self, grid: &Grid, u: usize, x: u32, y: u32) -> Cost {
        if u == self.goal {
            return 0;
        }
        let around = self.tiles.around(x, y);
        let mut best = INFINITY;
        grid.for_each_neighbor_at(u, (x, y), self.conn, |_, _, _, c, dir| {
            best = best.min(add(c, self.g_of(around.near(dir))));
        });
        best
    }

    /// Sets the `rhs` of the cell `u` (id `id`, at (x, y)): queues it with its key if that
    /// makes it inconsistent, else drops it (its `rhs` is then its `g`). The one way an `rhs`
    /// is written; `id` must be owned if the cell ends up queued.
    #[inline]
    fn update_vertex_at(&mut self, u: usize, id: u32, x: u32, y: u32, rhs: Cost) {
        if self.g_of(id) != rhs {
            self.requeue(u, id, x, y, rhs);
        } else if self.queue.remove(id) {
            self.rec.step(Step::Drop(u as u32));
        }
    }

    /// Queues the inconsistent `u` (id `id`, at (x, y), whose `rhs` is now `rhs`) with its
    /// current key.
    #[inline]
    fn requeue(&mut self, u: usize, id: u32, x: u32, y: u32, rhs: Cost) {
        let k = self.key_with(self.g_of(id), rhs, x, y);
        // Most requeued neighbours already hold this key: check before calling the queue.
        if self.queue.queued_key(id) != Some(k) {
            self.queue.insert_or_update_as(id, u as u32, k);
        }
        self.opened(u, id);
    }

    /// [`requeue`](Self::requeue) for `u` queued with `old` (its `rhs` unchanged): its key
    /// again, with the current `h` and `km`.
    #[inline]
    fn refresh(&mut self, u: usize, id: u32, (x, y): (u32, u32), old: Key) {
        let k = self.key_with(self.g_of(id), old.rhs, x, y);
        if k != old {
            self.queue.insert_or_update_as(id, u as u32, k);
        }
        self.opened(u, id);
    }

    /// [`requeue`](Self::requeue), but when `u` is new to the queue and `vacant` names an id
    /// still queued that should leave it, `u` takes that entry's place.
    #[inline]
    fn requeue_into(
        &mut self,
        (u, id, x, y): (usize, u32, u32, u32),
        rhs: Cost,
        vacant: &mut Option<u32>,
    ) {
        let k = self.key_with(self.g_of(id), rhs, x, y);
        match *vacant {
            Some(v) if !self.queue.contains(id) => {
                self.queue.replace_as(v, id, u as u32, k);
                *vacant = None;
            }
            _ => self.queue.insert_or_update_as(id, u as u32, k),
        }
        self.opened(u, id);
    }

    /// Records that `u` (id `id`) was queued or rekeyed; a start queued is unsettled again.
    #[inline]
    fn opened(&mut self, u: usize, id: u32) {
        self.rec.step(Step::Open(u as u32));
        if self.flags[id as usize] == START {
            self.flags[id as usize] |= UNSETTLED;
            self.unsettled.push(id);
        }
    }

    /// Empties the list of the last compute's expansions, giving back most of its room when
    /// it is far larger than that compute needed: after a first plan of a hundred thousand
    /// cells, the repairs' short lists do not keep its megabyte.
    fn forget_expanded(&mut self) {
        let last = self.expanded.len();
        if self.expanded.capacity() > 4 * last + 1024 {
            self.expanded.clear();
            self.expanded.shrink_to(2 * last + 1024);
        }
        self.expanded.clear();
    }

    /// Expands the top cell `u` (id `id`), queued with `k_old`.
    fn expand(&mut self, grid: &Grid, u: usize, id: u32, k_old: Key, stats: &mut SearchStats) {
        let (x, y) = self.tiles.xy(id);
        // u is queued, with k_old: its rhs is k_old's.
        let k_new = self.key_with(self.g_of(id), k_old.rhs, x, y);
        if k_old < k_new {
            self.queue.insert_or_update_as(id, u as u32, k_new);
            self.rec.step(Step::Open(u as u32));
            return;
        }
        stats.expanded += 1;
        self.expanded.push(u as u32);
        if self.g_of(id) > k_new.rhs {
            self.lower(grid, u, id, (x, y), k_new.rhs);
        } else {
            self.raise(grid, u, id, (x, y), k_new.rhs);
        }
    }

    /// Expands the overconsistent `u` (id `id`): settles g, lowers the lookahead of the
    /// predecessors.
    #[inline(always)]
    fn lower(&mut self, grid: &Grid, u: usize, id: u32, (x, y): (u32, u32), gu: Cost) {
        self.g[id as usize] = gu;
        self.rec.step(Step::Expand(Expansion {
            cell: u as u32,
            kind: ExpansionKind::Lower,
            cost: gu,
        }));
        // Only a neighbour whose rhs went down or that is queued needs its key set; a
        // consistent one is not queued (queued cells are exactly the inconsistent ones).
        // The goal's rhs is 0, never above `via`. u leaves the queue, its heap slot going
        // to the first neighbour that enters it, if any: cheaper than a pop and a push.
        let mut vacant = Some(id);
        let around = self.tiles.around(x, y);
        grid.for_each_neighbor_at(
            u,
            (x, y),
            self.conn,
            // Inlined at each of the eight unrolled moves: a call per neighbour cost 5 % of
            // the repair walk's D* Lite instructions.
            #[inline(always)]
            |s, x, y, c, dir| {
                let via = add(c, gu);
                let mut sid = around.near(dir);
                // A neighbour is queued exactly when it is inconsistent.
                let (rhs, queued) = self.rhs_and_key(sid);
                if via < rhs {
                    if !S::owns(sid) {
                        sid = self.claim(x, y);
                    }
                    if self.g_of(sid) != via {
                        self.requeue_into((s, sid, x, y), via, &mut vacant);
                    } else if self.queue.remove(sid) {
                        self.rec.step(Step::Drop(s as u32));
                    }
                } else if let Some(k) = queued {
                    self.refresh(s, sid, (x, y), k);
                }
            },
        );
        if let Some(v) = vacant {
            self.queue.remove(v);
        }
    }

    /// Expands the underconsistent `u` (id `id`, at (x, y), its rhs `rhs_u`): raises g to
    /// infinity; predecessors that relied on u look again.
    #[inline(always)]
    fn raise(&mut self, grid: &Grid, u: usize, id: u32, (x, y): (u32, u32), rhs_u: Cost) {
        // rhs(u) does not depend on g(u), so it stands.
        let g_old = self.g_of(id);
        self.g[id as usize] = INFINITY;
        self.rec.step(Step::Expand(Expansion {
            cell: u as u32,
            kind: ExpansionKind::Raise,
            cost: INFINITY,
        }));
        let goal = self.goal;
        let around = self.tiles.around(x, y);
        grid.for_each_neighbor_at(
            u,
            (x, y),
            self.conn,
            // Inlined, as in `lower`.
            #[inline(always)]
            |s, sx, sy, c, dir| {
                // A neighbour whose rhs is finite or that is inconsistent owns its block.
                let sid = around.near(dir);
                let (rhs, queued) = self.rhs_and_key(sid);
                if s != goal && rhs == add(c, g_old) {
                    let rhs = self.lookahead(grid, s, sx, sy);
                    self.update_vertex_at(s, sid, sx, sy, rhs);
                } else if let Some(k) = queued {
                    self.refresh(s, sid, (sx, sy), k);
                }
            },
        );
        // u is requeued or dropped.
        debug_assert!(u == goal || rhs_u == self.lookahead(grid, u, x, y));
        self.update_vertex_at(u, id, x, y, rhs_u);
    }

    /// The first move of an optimal path from `cell`, as [`crate::path::best_move`] picks
    /// it (the first neighbour of least `c + g`), with each neighbour's id from its position:
    /// (the neighbour, `c + g`, its `g`).
    #[inline]
    fn best_move(&self, grid: &Grid, cell: usize) -> Option<(usize, Cost, Cost)> {
        let (x, y) = self.tiles.cell_xy(cell);
        let around = self.tiles.around(x, y);
        let mut best: Option<(usize, Cost, Cost)> = None;
        grid.for_each_neighbor_at(cell, (x, y), self.conn, |n, _, _, c, dir| {
            let v = self.g_of(around.near(dir));
            if v == INFINITY {
                return;
            }
            let total = add(c, v);
            if best.is_none_or(|(_, b, _)| total < b) {
                best = Some((n, total, v));
            }
        });
        best
    }
}

impl<Q: CellQueue<Key>, const TOWARD_STARTS: bool, S: Store> DStarLite<Q, TOWARD_STARTS, S> {
    /// Makes this planner anew toward `goal`, exactly as [`DStarLite::with_queue`] would.
    /// Its arrays are made anew too, not kept: they hold the room of the tiles the last goal's
    /// searches touched, which the new goal may not need, and a new planner's room is small
    /// (the tile table and one block). Whether it records traces is kept.
    pub fn reset(
        &mut self,
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<(), GridError> {
        let mut fresh = Self::with_queue(grid, goal, conn, heuristic)?;
        std::mem::swap(&mut fresh.rec, &mut self.rec);
        *self = fresh;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GoalPlanner;
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

    /// A blocked cell has no path, not even to itself, as Dijkstra says; D\* Lite used to
    /// answer a walled goal asked from itself with the one-cell path.
    #[test]
    fn blocked_ends_have_no_path_as_dijkstra_says() {
        // A wall down column 4 with gaps at both ends.
        let rows = [
            "....#....",
            "....#....",
            "....#....",
            "....#....",
            "....#....",
        ];
        let mut grid = Grid::new(9, 7).unwrap();
        for (y, row) in rows.iter().enumerate() {
            let walls = row.bytes().enumerate().filter(|&(_, b)| b == b'#');
            for (x, _) in walls {
                grid.set(Pos::new(x as u32, y as u32 + 1), Terrain::Wall)
                    .unwrap();
            }
        }
        let conn = Connectivity::Eight;
        let (wall, open, far) = (Pos::new(4, 3), Pos::new(1, 3), Pos::new(7, 5));
        for (from, to) in [
            (wall, wall),
            (open, wall),
            (wall, open),
            (open, far),
            (far, far),
        ] {
            let want = dijkstra(&grid, from, to, conn).unwrap().path;
            let s = grid.index(from).unwrap();
            let planners: [Box<dyn GoalPlanner>; 2] = [
                Box::new(DStarLite::new(&grid, to, conn, Heuristic::Octile).unwrap()),
                Box::new(crate::search::DStar::new(&grid, to, conn).unwrap()),
            ];
            for mut p in planners {
                p.set_starts(&grid, &[s]);
                p.compute(&grid);
                let got = p.path(&grid, s);
                assert_eq!(
                    got.as_ref().map(|p| p.cost),
                    want.as_ref().map(|p| p.cost),
                    "{from:?} to {to:?}"
                );
                assert_eq!(got.map(|p| p.cells), want.as_ref().map(|p| p.cells.clone()));
            }
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
        let rhs = |p: &DStarLite| (0..grid.len()).map(|c| p.rhs(c)).collect::<Vec<_>>();
        assert_eq!(rhs(&used), rhs(&new));
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
