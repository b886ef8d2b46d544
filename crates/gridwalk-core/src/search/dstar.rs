//! D* (Stentz 1994): an incremental backward search that repairs its cost field when the map
//! changes, instead of planning again.
//!
//! # The algorithm
//!
//! D* searches backward from the goal. Every cell X is a *state* with
//!
//! - a tag t(X): NEW (never queued), OPEN (queued) or CLOSED (queued once, not now);
//! - the path cost h(X): its estimate of the cost from X to the goal (∞ while NEW);
//! - the key k(X): the smallest h(X) has been since X last entered OPEN;
//! - the back-pointer b(X): the neighbour whose h gave X its h.
//!
//! OPEN is ordered by k. INSERT(X, h′) sets h(X) = h′ and queues X with k(X) = h′ if X was NEW,
//! min(k(X), h′) if OPEN, and min(h(X), h′) if CLOSED: the key remembers the lowest cost X was
//! known by, so a state whose cost went *up* is still processed in the order of the old, lower
//! cost, before anything that was built on it.
//!
//! PROCESS-STATE pops the state X of least key k_old and closes it.
//!
//! - **RAISE** (k_old < h(X)): X's cost went up. First X tries to lower h(X) through a neighbour
//!   Y with h(Y) ≤ k_old, which is known to be optimal. If h(X) is still above k_old, X passes
//!   the raise on: every child (b(Y) = X) whose cost no longer matches is queued with its new
//!   cost; a neighbour X could now improve makes X queue itself again at k = h(X), so that
//!   improvement waits until h(X) is known to be optimal; a CLOSED neighbour above k_old that
//!   could improve X is queued at k = h(Y), so it is processed as a LOWER state later.
//! - **LOWER** (k_old = h(X)): h(X) is optimal. Like Dijkstra's expansion, X offers h(X) + c to
//!   every neighbour; a neighbour that is NEW, cheaper through X, or a child of X whose cost no
//!   longer matches takes b = X and the new cost.
//!
//! MODIFY-COST, when the cost of the move between X and Y changes, queues each CLOSED endpoint
//! again with INSERT(X, h(X)), which leaves h unchanged and sets k = h: processing it (LOWER)
//! offers the new cost to the other endpoint, or re-costs it if it was a child.
//!
//! [`GoalPlanner::compute`] runs PROCESS-STATE until every start is settled: no start is NEW and
//! k_min ≥ h(S) for every start S, or the queue holds only keys of ∞, or none at all.
//!
//! # Walls and edits
//!
//! A move into or out of a wall, or a diagonal past a wall corner, costs ∞. So PROCESS-STATE
//! looks at every cell next to X on the board, not just the legal moves, and a missing move
//! reads as ∞: a child whose parent became a wall (or whose diagonal got a corner) is raised.
//! All sums saturate at [`INFINITY`], so "∞ + c" stays ∞ and "∞ ≠ ∞" never holds. A NEW cell
//! offered ∞ is left NEW (that is what NEW already means), so raises never flood unexplored
//! ground.
//!
//! An edited cell changes only moves between cells of its 3×3 block ([`Grid::affected_by`]): its
//! own moves and the diagonals passing its corner. [`GoalPlanner::cells_changed`] therefore does
//! MODIFY-COST for every move inside the block at once, by queuing every CLOSED cell of the block
//! with INSERT(X, h(X)). A CLOSED cell with h = ∞ gets key ∞: it can lower nothing.
//!
//! A wall keeps whatever h it had, but all its moves are ∞, so it takes part in no sum: queries
//! report ∞ for it. When the goal itself is a wall, every cost is ∞; the queued repairs simply
//! wait until the goal opens again.
//!
//! # Shared goals
//!
//! One search serves every agent with the same goal: [`GoalPlanner::set_starts`] lists their
//! cells and `compute` stops only when all of them are settled, so every agent gets an optimal
//! path from the same cost field.
//!
//! # Why the answer is optimal
//!
//! Two facts hold whenever compute stops (h* is the true cost to the goal):
//!
//! 1. *No cell with h(X) ≤ k_min is too cheap.* When a parent's cost changes, its children are
//!    either fixed at once or the parent (or the changed move's endpoint) is OPEN with a key no
//!    larger than the cost the children were built on, which is below theirs. So a cell whose
//!    chain of back-pointers is out of date has an OPEN ancestor with key < h(X). With
//!    h(X) ≤ k_min there is none: the chain is a real path to the goal and h(X) ≥ h*(X).
//! 2. *No cell with h*(X) < k_min is too dear.* Follow an optimal path from X; if some cell on it
//!    were above h*, take the one nearest the goal, W, and its successor V (exact). V, being
//!    exact and below k_min, is CLOSED and was processed with its current h after the last
//!    change of the move V–W, and at that time either offered W the cost h(V) + c = h*(W) or
//!    queued itself again (RAISE); either leaves an OPEN key ≤ h*(W) < k_min, impossible. (If W
//!    later rose again, it went back on OPEN with a key at most its old cost, and a RAISE state
//!    that cannot use V queues V, which is what the last two RAISE rules are for.)
//!
//! So each start S (k_min ≥ h(S)) has h(S) ≥ h*(S) by 1, and h(S) ≤ h*(S) by 2 (or because
//! h*(S) ≤ h(S) ≤ k_min leaves only h*(S) = k_min = h(S)): h(S) = h*(S). Every neighbour cheaper
//! than h(S) is exact by the same two facts. [`path::best_move`] from S therefore picks a neighbour N with c + h(N) = h*(S),
//! which is again exact, and [`path::descend`] walks an optimal path down a strictly decreasing
//! h. An unreachable start ends with h = ∞ (it is either NEW, or was raised to ∞), because
//! compute then runs until only ∞ keys are left, and fact 2 says every reachable cell is finite.

use super::goal_planner::{CellInfo, GoalPlanner, Progress};
use crate::cost::{Cost, INFINITY, add};
use crate::grid::{Connectivity, Grid, GridError, Pos};
use crate::path::{self, Path};
use crate::queue::{CellQueue, IndexedHeap};
use crate::stats::SearchStats;
use crate::trace::{Expansion, ExpansionKind, Recorder, Step};

/// A queue key: (k, h). States are ordered by k; among equal k, LOWER states (h = k) come
/// before RAISE states (h > k).
pub type Key = (Cost, Cost);

/// No back-pointer.
const NONE: u32 = u32::MAX;

// The `flags` byte of a cell: two bits of tag, plus whether the cell is a wall or a start.
const TAG_MASK: u8 = 0b11;
const NEW: u8 = 0;
const OPEN: u8 = 1;
const CLOSED: u8 = 2;
const WALL: u8 = 0b100;
const START: u8 = 0b1000;

// The board neighbours in the grid's own move order: N, E, S, W, then NE, SE, SW, NW.
const DX: [i64; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
const DY: [i64; 8] = [-1, 0, 1, 0, -1, 1, 1, -1];

/// The D* tag of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tag {
    /// Never queued: its cost is unknown (∞).
    New,
    /// Queued.
    Open,
    /// Processed and not queued since.
    Closed,
}

/// The D* planner for one goal and all the agents heading to it. See the module docs.
///
/// The planner is made for one grid size. Handed a grid of another size, it starts over on
/// that grid; if the goal lies off it, [`goal`](GoalPlanner::goal) is `usize::MAX` and nothing
/// is reachable.
///
/// ```
/// use gridwalk_core::{Connectivity, GoalPlanner, Grid, Pos, Terrain, search::DStar};
/// let mut grid = Grid::new(5, 3).unwrap();
/// let mut d = DStar::new(&grid, Pos::new(4, 1), Connectivity::Four).unwrap();
/// let start = grid.index(Pos::new(0, 1)).unwrap();
/// d.set_starts(&grid, &[start]);
/// d.compute(&grid);
/// assert_eq!(d.path(&grid, start).unwrap().moves(), 4);
///
/// // A wall in the way: tell the planner, and it repairs its field.
/// grid.set(Pos::new(2, 1), Terrain::Wall).unwrap();
/// d.cells_changed(&grid, &[grid.index(Pos::new(2, 1)).unwrap()]);
/// d.compute(&grid);
/// assert_eq!(d.path(&grid, start).unwrap().moves(), 6);
/// ```
#[derive(Clone, Debug)]
pub struct DStar<Q: CellQueue<Key> = IndexedHeap<Key>> {
    width: u32,
    height: u32,
    conn: Connectivity,
    goal_pos: Pos,
    /// The goal's index, or `None` when the grid was swapped for one the goal is not on.
    goal: Option<usize>,
    /// h(X); ∞ while NEW.
    h: Vec<Cost>,
    /// k(X); meaningful while OPEN.
    k: Vec<Cost>,
    /// b(X), or [`NONE`].
    b: Vec<u32>,
    /// Tag, wall and start bits.
    flags: Vec<u8>,
    open: Q,
    /// The cells the stopping rule makes exact, each once: the starts' cells first (the
    /// first `given_starts`), then the other cells given to [`GoalPlanner::set_exact`].
    starts: Vec<u32>,
    /// How many of `starts` are starts.
    given_starts: usize,
    /// The cells given to [`GoalPlanner::set_exact`].
    exact: Vec<usize>,
    /// Whether a start's h, tag or wall bit changed since `bound` was computed.
    starts_dirty: bool,
    /// `None` when some start is NEW, else the largest h over the starts that are not walls.
    bound: Option<Cost>,
    expanded: Vec<u32>,
    rec: Recorder,
}

impl DStar<IndexedHeap<Key>> {
    /// A planner for `goal` on `grid`, with the default queue. Nothing is searched until
    /// [`compute`](GoalPlanner::compute). Fails when `goal` is off the grid.
    pub fn new(grid: &Grid, goal: Pos, conn: Connectivity) -> Result<Self, GridError> {
        Self::with_queue(grid, goal, conn)
    }
}

impl<Q: CellQueue<Key>> DStar<Q> {
    /// Like [`DStar::new`], with the queue `Q` (for the queue comparison).
    pub fn with_queue(grid: &Grid, goal: Pos, conn: Connectivity) -> Result<Self, GridError> {
        grid.index(goal)?;
        let mut d = DStar {
            width: 0,
            height: 0,
            conn,
            goal_pos: goal,
            goal: None,
            h: Vec::new(),
            k: Vec::new(),
            b: Vec::new(),
            flags: Vec::new(),
            open: Q::with_capacity(0),
            starts: Vec::new(),
            given_starts: 0,
            exact: Vec::new(),
            starts_dirty: true,
            bound: None,
            expanded: Vec::new(),
            rec: Recorder::default(),
        };
        d.reset(grid);
        Ok(d)
    }

    /// Forgets everything and starts over on `grid`: only the goal is queued, at cost 0.
    fn reset(&mut self, grid: &Grid) {
        let n = grid.len();
        self.width = grid.width();
        self.height = grid.height();
        self.goal = grid.index(self.goal_pos).ok();
        self.h = vec![INFINITY; n];
        self.k = vec![INFINITY; n];
        self.b = vec![NONE; n];
        self.flags = (0..n)
            .map(|i| if grid.weight(i) == 0 { WALL } else { 0 })
            .collect();
        self.open = Q::with_capacity(n);
        self.starts.clear();
        self.given_starts = 0;
        self.starts_dirty = true;
        self.expanded.clear();
        if let Some(g) = self.goal {
            self.insert(g, 0);
        }
    }

    /// Starts over if `grid` is not the size the planner was made for.
    fn sync(&mut self, grid: &Grid) {
        if grid.width() != self.width || grid.height() != self.height {
            self.reset(grid);
        }
    }

    /// The connectivity the planner searches with.
    pub fn connectivity(&self) -> Connectivity {
        self.conn
    }

    /// The D* tag of `cell` (NEW for a cell off the grid).
    pub fn tag(&self, cell: usize) -> Tag {
        match self.flags.get(cell).map(|f| f & TAG_MASK) {
            Some(OPEN) => Tag::Open,
            Some(CLOSED) => Tag::Closed,
            _ => Tag::New,
        }
    }

    /// The raw h(X) of `cell`: unlike [`cost_to_goal`](GoalPlanner::cost_to_goal) it is not
    /// masked for walls, and may be out of date where a repair is still queued.
    pub fn h(&self, cell: usize) -> Cost {
        self.h.get(cell).copied().unwrap_or(INFINITY)
    }

    /// The key k(X) of `cell` if it is OPEN.
    pub fn key(&self, cell: usize) -> Option<Cost> {
        (self.tag(cell) == Tag::Open).then(|| self.k[cell])
    }

    /// The back-pointer b(X) of `cell`: the neighbour its cost came from.
    pub fn back_pointer(&self, cell: usize) -> Option<usize> {
        match self.b.get(cell) {
            Some(&p) if p != NONE => Some(p as usize),
            _ => None,
        }
    }

    #[inline]
    fn tag_of(&self, x: usize) -> u8 {
        self.flags[x] & TAG_MASK
    }

    #[inline]
    fn set_tag(&mut self, x: usize, tag: u8) {
        self.flags[x] = (self.flags[x] & !TAG_MASK) | tag;
        if self.flags[x] & START != 0 {
            self.starts_dirty = true;
        }
    }

    #[inline]
    fn set_h(&mut self, x: usize, h: Cost) {
        self.h[x] = h;
        if self.flags[x] & START != 0 {
            self.starts_dirty = true;
        }
    }

    /// Stentz's INSERT(X, h_new).
    #[inline]
    fn insert(&mut self, x: usize, h_new: Cost) {
        let k = match self.tag_of(x) {
            NEW => h_new,
            OPEN => self.k[x].min(h_new),
            _ => self.h[x].min(h_new),
        };
        self.k[x] = k;
        self.set_h(x, h_new);
        self.set_tag(x, OPEN);
        self.open.insert_or_update(x as u32, (k, h_new));
        self.rec.step(Step::Open(x as u32));
    }

    /// The board neighbours of `x` with the cost of the move to each, ∞ where the move does
    /// not exist (a wall at either end, or a cut corner). Returns how many were written.
    #[inline]
    fn arcs(&self, grid: &Grid, x: usize, out: &mut [(u32, Cost); 8]) -> usize {
        let w = self.width as i64;
        let (px, py) = ((x as i64) % w, (x as i64) / w);
        let dirs = match self.conn {
            Connectivity::Four => 4,
            Connectivity::Eight => 8,
        };
        let mut n = 0;
        for d in 0..dirs {
            let (nx, ny) = (px + DX[d], py + DY[d]);
            if nx >= 0 && ny >= 0 && nx < w && ny < self.height as i64 {
                out[n] = ((ny * w + nx) as u32, INFINITY);
                n += 1;
            }
        }
        // The grid lists legal moves in the same order, so a cursor finds each one at once;
        // the scan only wraps if that order ever changes.
        let mut cursor = 0;
        grid.for_each_neighbor(x, self.conn, |m, c| {
            for step in 0..n {
                let i = (cursor + step) % n;
                if out[i].0 == m as u32 {
                    out[i].1 = c;
                    cursor = i + 1;
                    return;
                }
            }
            debug_assert!(false, "legal move to a non-neighbour");
        });
        n
    }

    /// Stentz's PROCESS-STATE, on the state of least key (the queue must not be empty).
    fn process_state(&mut self, grid: &Grid) {
        let Some(((k_old, _), x)) = self.open.pop() else {
            return;
        };
        let x = x as usize;
        let xu = x as u32;
        self.set_tag(x, CLOSED);
        self.expanded.push(xu);
        let kind = if k_old < self.h[x] {
            ExpansionKind::Raise
        } else {
            ExpansionKind::Lower
        };
        let at = self.rec.mark();
        self.rec.step(Step::Expand(Expansion {
            cell: xu,
            kind,
            cost: INFINITY,
        }));
        let mut arcs = [(0u32, INFINITY); 8];
        let n = self.arcs(grid, x, &mut arcs);
        let arcs = &arcs[..n];

        if k_old < self.h[x] {
            // RAISE: try to lower h(X) through a neighbour already known to be optimal.
            for &(y, c) in arcs {
                let y = y as usize;
                let via_y = add(self.h[y], c);
                if self.tag_of(y) != NEW && self.h[y] <= k_old && self.h[x] > via_y {
                    self.b[x] = y as u32;
                    self.set_h(x, via_y);
                }
            }
        }

        if k_old == self.h[x] {
            // LOWER: h(X) is optimal; offer it to every neighbour.
            for &(y, c) in arcs {
                let y = y as usize;
                let via_x = add(self.h[x], c);
                let improve = match self.tag_of(y) {
                    NEW => via_x != INFINITY,
                    _ if self.b[y] == xu => self.h[y] != via_x,
                    _ => self.h[y] > via_x,
                };
                if improve {
                    self.b[y] = xu;
                    self.insert(y, via_x);
                }
            }
        } else {
            // RAISE, still above k_old: pass the raise on to the children.
            for &(y, c) in arcs {
                let y = y as usize;
                let via_x = add(self.h[x], c);
                let tag_y = self.tag_of(y);
                if (tag_y == NEW && via_x != INFINITY) || (self.b[y] == xu && self.h[y] != via_x) {
                    self.b[y] = xu;
                    self.insert(y, via_x);
                } else if tag_y != NEW && self.b[y] != xu && self.h[y] > via_x {
                    // X could improve Y, but h(X) is not known to be optimal yet.
                    let hx = self.h[x];
                    self.insert(x, hx);
                } else if tag_y == CLOSED
                    && self.b[y] != xu
                    && self.h[x] > add(self.h[y], c)
                    && self.h[y] > k_old
                {
                    // Y could improve X, but h(Y) is not known to be optimal yet.
                    let hy = self.h[y];
                    self.insert(y, hy);
                }
            }
        }
        let hx = self.h[x];
        self.rec.patch_cost(at, hx);
    }

    /// Adds `cells` to the stopping rule's targets, each once.
    fn flag_targets(&mut self, cells: &[usize]) {
        for &s in cells {
            if s < self.flags.len() && self.flags[s] & START == 0 {
                self.flags[s] |= START;
                self.starts.push(s as u32);
            }
        }
    }

    /// Recomputes `bound` if a start changed.
    fn refresh_bound(&mut self) {
        if !self.starts_dirty {
            return;
        }
        self.starts_dirty = false;
        let mut bound = Some(0);
        for &s in &self.starts {
            let s = s as usize;
            let f = self.flags[s];
            if f & WALL != 0 {
                continue; // a wall has no path, whatever its h says
            }
            if f & TAG_MASK == NEW {
                bound = None;
                break;
            }
            bound = bound.map(|m: Cost| m.max(self.h[s]));
        }
        self.bound = bound;
    }

    /// h as seen by the queries: ∞ for NEW cells, walls and cells off the planner's grid.
    #[inline]
    fn value(&self, cell: usize) -> Cost {
        match self.flags.get(cell) {
            Some(&f) if f & WALL == 0 && f & TAG_MASK != NEW => self.h[cell],
            _ => INFINITY,
        }
    }

    /// Whether queries on `grid` can be answered: same size, goal on it and passable.
    fn goal_open(&self, grid: &Grid) -> Option<usize> {
        let g = self.goal?;
        (grid.width() == self.width && grid.height() == self.height && grid.weight(g) != 0)
            .then_some(g)
    }
}

impl<Q: CellQueue<Key> + Send + Sync> GoalPlanner for DStar<Q> {
    fn goal(&self) -> usize {
        self.goal.unwrap_or(usize::MAX)
    }

    fn set_starts(&mut self, grid: &Grid, starts: &[usize]) {
        self.sync(grid);
        for &s in &self.starts {
            self.flags[s as usize] &= !START;
        }
        self.starts.clear();
        self.flag_targets(starts);
        self.given_starts = self.starts.len();
        let exact = std::mem::take(&mut self.exact);
        self.flag_targets(&exact);
        self.exact = exact;
        self.starts_dirty = true;
    }

    fn set_exact(&mut self, grid: &Grid, cells: &[usize]) {
        self.sync(grid);
        for &s in &self.starts[self.given_starts.min(self.starts.len())..] {
            self.flags[s as usize] &= !START;
        }
        self.starts.truncate(self.given_starts);
        self.flag_targets(cells);
        self.exact.clear();
        self.exact.extend_from_slice(cells);
        self.starts_dirty = true;
    }

    fn cells_changed(&mut self, grid: &Grid, cells: &[usize]) {
        if grid.width() != self.width || grid.height() != self.height {
            self.reset(grid);
            return;
        }
        for &c in cells {
            if c >= grid.len() {
                continue;
            }
            let wall = if grid.weight(c) == 0 { WALL } else { 0 };
            if self.flags[c] & WALL != wall {
                self.flags[c] ^= WALL;
                if self.flags[c] & START != 0 {
                    self.starts_dirty = true;
                }
            }
            // MODIFY-COST for every move inside the 3×3 block: queue its CLOSED states again.
            for a in grid.affected_by(c) {
                if self.tag_of(a) == CLOSED {
                    let ha = self.h[a];
                    self.insert(a, ha);
                }
            }
        }
    }

    fn compute_within(&mut self, grid: &Grid, max_expansions: u64) -> (SearchStats, Progress) {
        self.sync(grid);
        self.expanded.clear();
        self.rec.begin();
        let before = self.open.stats();
        let mut stats = SearchStats::default();
        let mut progress = Progress::Done;
        if self.goal_open(grid).is_some() {
            while let Some(((k_min, _), _)) = self.open.top() {
                if k_min == INFINITY {
                    break; // only unreachable states are left: nothing can get cheaper
                }
                self.refresh_bound();
                if self.bound.is_some_and(|m| k_min >= m) {
                    break;
                }
                if stats.expanded >= max_expansions {
                    progress = Progress::Pending;
                    break;
                }
                let open = &self.open;
                self.rec.snapshot(|out| open.queued_cells(out));
                self.process_state(grid);
                stats.expanded += 1;
            }
        }
        let after = self.open.stats();
        stats.set_queue_work(before, after);
        (stats, progress)
    }

    fn cost_to_goal(&self, cell: usize) -> Cost {
        match self.goal {
            Some(g) if self.flags[g] & WALL == 0 => self.value(cell),
            _ => INFINITY,
        }
    }

    fn next_move(&self, grid: &Grid, cell: usize) -> Option<(usize, Cost)> {
        let goal = self.goal_open(grid)?;
        if cell == goal || cell >= grid.len() || grid.weight(cell) == 0 {
            return None;
        }
        let here = self.value(cell);
        if here == INFINITY {
            return None;
        }
        let (next, total) = path::best_move(grid, self.conn, cell, |n| self.value(n))?;
        let v = self.value(next);
        (v < here).then(|| (next, total - v))
    }

    fn path(&self, grid: &Grid, from: usize) -> Option<Path> {
        let goal = self.goal_open(grid)?;
        if from >= grid.len() || grid.weight(from) == 0 {
            return None;
        }
        path::descend(grid, self.conn, from, goal, |n| self.value(n))
    }

    fn last_expanded(&self) -> &[u32] {
        &self.expanded
    }

    fn memory_bytes(&self) -> usize {
        self.h.capacity() * size_of::<Cost>()
            + self.k.capacity() * size_of::<Cost>()
            + self.b.capacity() * size_of::<u32>()
            + self.flags.capacity()
            + self.starts.capacity() * size_of::<u32>()
            + self.exact.capacity() * size_of::<usize>()
            + self.expanded.capacity() * size_of::<u32>()
            + self.open.memory_bytes()
    }

    recorder_methods!(rec);

    fn inspect(&self, _grid: &Grid, cell: usize) -> Option<CellInfo> {
        let flags = *self.flags.get(cell)?;
        let open = flags & TAG_MASK == OPEN;
        let state = match flags & TAG_MASK {
            NEW => "new",
            CLOSED => "closed",
            _ if self.k[cell] < self.h[cell] => "open raise",
            _ => "open lower",
        };
        Some(CellInfo {
            g: self.value(cell),
            rhs: None,
            h: None,
            key: open.then(|| (self.k[cell], self.h[cell])),
            queued: open,
            state: Some(state),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Terrain;
    use crate::rng::{Draw, SeedableRng, SplitMix64};
    use proptest::prelude::*;

    /// The true cost from every cell to `goal`, by the best-first Dijkstra (separate code).
    fn true_costs(grid: &Grid, goal: usize, conn: Connectivity) -> Vec<Cost> {
        (0..grid.len())
            .map(|x| {
                let r = crate::search::dijkstra(grid, grid.pos(x), grid.pos(goal), conn);
                r.ok().and_then(|r| r.path).map_or(INFINITY, |p| p.cost)
            })
            .collect()
    }

    /// The two facts of the module docs, checked on every cell, plus the back-pointer chains.
    fn check_facts(d: &DStar, grid: &Grid) -> Result<(), String> {
        let truth = true_costs(grid, d.goal.unwrap(), d.conn);
        let k_min = d.open.clone().top().map_or(INFINITY, |((k, _), _)| k);
        for (x, &t) in truth.iter().enumerate() {
            if grid.weight(x) == 0 {
                continue;
            }
            let h = d.value(x);
            if h != INFINITY && h <= k_min && h < t {
                return Err(format!("{} too cheap: {h} < {t}", grid.pos(x)));
            }
            if t < k_min && h != t {
                return Err(format!("{} wrong: {h} vs {t}", grid.pos(x)));
            }
            // Below k_min the back-pointers form real paths with exactly these costs.
            if h != INFINITY && h <= k_min && x != d.goal.unwrap() {
                let p = d.back_pointer(x).ok_or("no back-pointer")?;
                let c = grid
                    .move_cost(x, p, d.conn)
                    .ok_or("back-pointer is no move")?;
                if d.value(p) + c != h {
                    return Err(format!("{}: chain out of date", grid.pos(x)));
                }
            }
        }
        Ok(())
    }

    #[test]
    fn arcs_match_the_grid_moves() {
        let mut rng = SplitMix64::seed_from_u64(0x9e37_79b9_7f4a_7c15);
        for conn in [Connectivity::Four, Connectivity::Eight] {
            let mut grid = Grid::new(7, 5).unwrap();
            for i in 0..grid.len() {
                if rng.below(3) == 0 {
                    grid.set(grid.pos(i), Terrain::Wall).unwrap();
                } else {
                    let w = 1 + rng.below(9) as u8;
                    grid.set(grid.pos(i), Terrain::Weight(w)).unwrap();
                }
            }
            let d = DStar::new(&grid, Pos::new(0, 0), conn).unwrap();
            for x in 0..grid.len() {
                let mut arcs = [(0, 0); 8];
                let n = d.arcs(&grid, x, &mut arcs);
                let want = if conn == Connectivity::Four { 4 } else { 8 };
                let p = grid.pos(x);
                let inside = (0..want)
                    .filter(|&k| {
                        let (nx, ny) = (p.x as i64 + DX[k], p.y as i64 + DY[k]);
                        nx >= 0 && ny >= 0 && nx < 7 && ny < 5
                    })
                    .count();
                assert_eq!(n, inside);
                for &(y, c) in &arcs[..n] {
                    let legal = grid.move_cost(x, y as usize, conn);
                    assert_eq!(legal.unwrap_or(INFINITY), c);
                }
            }
        }
    }

    #[test]
    fn raised_walls_and_keys_of_infinity() {
        // A corridor: goal at the east end. Walling it off raises the west side to ∞.
        let mut grid = Grid::new(6, 1).unwrap();
        let conn = Connectivity::Four;
        let mut d = DStar::new(&grid, Pos::new(5, 0), conn).unwrap();
        d.set_starts(&grid, &[0]);
        d.compute(&grid);
        assert_eq!(d.cost_to_goal(0), 5 * crate::cost::COST_ONE);
        grid.set(Pos::new(3, 0), Terrain::Wall).unwrap();
        d.cells_changed(&grid, &[3]);
        d.compute(&grid);
        assert_eq!(d.cost_to_goal(0), INFINITY);
        assert_eq!(d.h(0), INFINITY);
        assert_eq!(d.cost_to_goal(3), INFINITY);
        check_facts(&d, &grid).unwrap();
        // Nothing finite is left to do.
        assert!(d.open.clone().top().is_none_or(|((k, _), _)| k == INFINITY));
        grid.set(Pos::new(3, 0), Terrain::FREE).unwrap();
        d.cells_changed(&grid, &[3]);
        d.compute(&grid);
        assert_eq!(d.cost_to_goal(0), 5 * crate::cost::COST_ONE);
        check_facts(&d, &grid).unwrap();
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// After every compute, the facts the correctness argument rests on hold on every cell,
        /// not only at the starts.
        #[test]
        fn the_documented_facts_hold(seed in 1u64.., eight in any::<bool>()) {
            let mut rng = SplitMix64::seed_from_u64(seed);
            let conn = if eight { Connectivity::Eight } else { Connectivity::Four };
            let (w, h) = (1 + rng.below(14) as u32, 1 + rng.below(14) as u32);
            let mut grid = Grid::new(w, h).unwrap();
            let n = grid.len();
            let density = rng.below(50);
            for i in 0..grid.len() {
                let t = if rng.below(100) < density {
                    Terrain::Wall
                } else {
                    Terrain::Weight(1 + rng.below(9) as u8)
                };
                grid.set(grid.pos(i), t).unwrap();
            }
            let goal = rng.below(n);
            grid.set(grid.pos(goal), Terrain::FREE).unwrap();
            let mut d = DStar::new(&grid, grid.pos(goal), conn).unwrap();
            for _ in 0..8 {
                let starts: Vec<usize> =
                    (0..1 + rng.below(3)).map(|_| rng.below(n)).collect();
                d.set_starts(&grid, &starts);
                let stats = d.compute(&grid);
                prop_assert_eq!(stats.expanded as usize, d.last_expanded().len());
                if let Err(e) = check_facts(&d, &grid) {
                    prop_assert!(false, "{}", e);
                }
                let truth = true_costs(&grid, goal, conn);
                for &s in &starts {
                    let want = if grid.weight(s) == 0 { INFINITY } else { truth[s] };
                    prop_assert_eq!(d.cost_to_goal(s), want);
                }
                let mut changed = Vec::new();
                for _ in 0..rng.below(6) {
                    let c = rng.below(n);
                    if c == goal {
                        continue;
                    }
                    let t = match rng.below(3) {
                        0 => Terrain::Wall,
                        _ => Terrain::Weight(1 + rng.below(9) as u8),
                    };
                    grid.set(grid.pos(c), t).unwrap();
                    changed.push(c);
                }
                d.cells_changed(&grid, &changed);
            }
        }
    }
}
