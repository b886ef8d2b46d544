//! One-shot best-first search: A*, Dijkstra and greedy best-first on the same code.
//!
//! The per-cell arrays live in a reusable [`SearchSpace`] and are reset by bumping a
//! generation stamp, so a search allocates nothing once the space has grown to the grid.
//!
//! - A* orders by f = g + h. It is optimal when the heuristic is admissible for the
//!   connectivity (see [`crate::heuristic`]).
//! - Dijkstra orders by g. Always optimal.
//! - Greedy best-first orders by h alone. Fast, not optimal.
//!
//! The open list depends on whether keys can go down:
//!
//! - Dijkstra, and A* with a heuristic admissible (hence consistent) for the connectivity, never
//!   queue a key below the last one popped, so they use the [`BucketQueue`] keyed on g or f. An
//!   improved cell is pushed again and its older entries are skipped when they come out
//!   ([`SearchStats::stale_pops`]). Among equal f the smaller h comes out first, then the
//!   smaller cell: the indexed heap's order, so both queues expand the same cells in turn.
//! - Greedy best-first, and A* with an inadmissible heuristic, use the [`IndexedHeap`]: an
//!   improved cell has its key decreased in place. A* there orders by f, ties by smaller h.
//!
//! A cell found again with a lower g is re-queued even after expansion, so an inadmissible
//! heuristic still yields a legal path.

use crate::cost::{Cost, INFINITY};
use crate::grid::{Connectivity, Grid, GridError, Pos};
use crate::heuristic::Heuristic;
use crate::path::Path;
use crate::prefetch::prefetch;
use crate::queue::{BucketQueue, CellQueue, IndexedHeap};
use crate::search::goal_planner::Progress;
use crate::stats::SearchStats;
use crate::trace::{Expansion, ExpansionKind, Step, Trace};

// The stale-cell mask in `search` relies on this.
const _: () = assert!(INFINITY == Cost::MAX);

/// Which best-first search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Order by g + h.
    AStar,
    /// Order by g; the heuristic is ignored.
    Dijkstra,
    /// Order by h alone.
    Greedy,
}

/// What a search returns: the path if there is one, and the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The path from start to goal, or `None` when the goal is unreachable.
    pub path: Option<Path>,
    /// Work counters.
    pub stats: SearchStats,
}

/// One search: from where to where, how, on which moves.
///
/// ```
/// use gridwalk_core::search::{SearchRequest, SearchSpace};
/// use gridwalk_core::{Connectivity, Grid, Heuristic, Pos};
/// let grid = Grid::new(8, 3).unwrap();
/// let req = SearchRequest::astar(Pos::new(0, 0), Pos::new(7, 0), Connectivity::Eight, Heuristic::Octile);
/// let r = SearchSpace::new().search(&grid, &req, None).unwrap();
/// assert_eq!(r.path.unwrap().moves(), 7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchRequest {
    /// Where the search starts.
    pub start: Pos,
    /// Where it ends.
    pub goal: Pos,
    /// A*, Dijkstra or greedy best-first.
    pub mode: Mode,
    /// Which moves are legal.
    pub connectivity: Connectivity,
    /// The heuristic (ignored by Dijkstra).
    pub heuristic: Heuristic,
}

impl SearchRequest {
    /// An A* search.
    pub fn astar(start: Pos, goal: Pos, connectivity: Connectivity, heuristic: Heuristic) -> Self {
        SearchRequest {
            start,
            goal,
            mode: Mode::AStar,
            connectivity,
            heuristic,
        }
    }

    /// A Dijkstra search.
    pub fn dijkstra(start: Pos, goal: Pos, connectivity: Connectivity) -> Self {
        SearchRequest {
            start,
            goal,
            mode: Mode::Dijkstra,
            connectivity,
            heuristic: Heuristic::Zero,
        }
    }

    /// The same request with another mode.
    pub fn with_mode(self, mode: Mode) -> Self {
        SearchRequest { mode, ..self }
    }
}

/// An open-list key: ordered by `first`, then `second`, exactly like the tuple
/// `(first, second)`.
#[derive(Clone, Copy, Debug)]
struct Key {
    first: Cost,
    second: Cost,
}

wide_order!(Key: first, second);

/// What a search knows about one cell, in 12 bytes (4-byte aligned), so that the nodes of a
/// 512×512 map take 3 MB rather than 4 and a neighbour is one cache line more often.
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(4))]
struct Node {
    /// Best known cost from the start; valid only when `stamp` is of the current generation.
    g: Cost,
    /// The generation (a multiple of [`GENERATION_STEP`]) that last reached the cell, the
    /// direction back to its parent times 2 ([`BACK`]), and [`CLOSED`] once it is expanded
    /// with its g. A lower g clears that bit again.
    stamp: u32,
}

/// The low bit of [`Node::stamp`]: the cell was expanded with its current g.
const CLOSED: u32 = 1;

/// Bits 1–3 of [`Node::stamp`]: the direction from the cell to its parent, as numbered by
/// [`Grid::for_each_neighbor_dir`] (the start has none; the path ends there).
const BACK: u32 = 0b1110;

/// What a search adds to the generation: the stamp's low bits are [`CLOSED`] and [`BACK`].
const GENERATION_STEP: u32 = 16;

const UNSEEN: Node = Node {
    g: INFINITY,
    stamp: 0,
};

/// An open list the search loop can drive: the indexed heap (keys change in place) or the
/// bucket queue (an improved cell is pushed again and its old entries come out stale).
trait OpenList {
    /// Queues `cell` with `key`, or lowers its key.
    fn offer(&mut self, cell: u32, key: Key);
    /// Takes out the cell with the smallest key. A lazy queue may skip entries that are out
    /// of date in `cells` (see [`Cells::live`]), counting them in its stale pops.
    fn take(&mut self, cells: &Cells) -> Option<u32>;
    /// Whether no entry is queued (stale ones count).
    fn is_empty(&self) -> bool;
    /// A cell likely to come out soon, if the queue can tell cheaply (for prefetching).
    fn peek_cell(&self) -> Option<u32> {
        None
    }
}

impl OpenList for IndexedHeap<Key> {
    #[inline(always)]
    fn offer(&mut self, cell: u32, key: Key) {
        self.insert_or_update(cell, key);
    }

    #[inline(always)]
    fn take(&mut self, _: &Cells) -> Option<u32> {
        self.pop().map(|(_, c)| c)
    }

    #[inline(always)]
    fn is_empty(&self) -> bool {
        CellQueue::is_empty(self)
    }
}

/// Keyed by the first component, ties by the second and then the cell: the indexed heap's
/// order, so both queues expand the same cells in the same order.
impl OpenList for BucketQueue {
    #[inline(always)]
    fn offer(&mut self, cell: u32, key: Key) {
        self.push(key.first, key.second, cell);
    }

    #[inline(always)]
    fn take(&mut self, cells: &Cells) -> Option<u32> {
        // Key = g + tie for A* (f, h) and Dijkstra (g, 0).
        self.pop_live(|cell, key, tie| cells.live(cell as usize, key - tie))
            .map(|(_, c)| c)
    }

    #[inline(always)]
    fn is_empty(&self) -> bool {
        BucketQueue::is_empty(self)
    }

    #[inline(always)]
    fn peek_cell(&self) -> Option<u32> {
        BucketQueue::peek_cell(self)
    }
}

/// Prefetches what expanding cell `c` reads: its neighbours' nodes and weights, on the rows
/// above, through and below it.
#[inline(always)]
fn prefetch_around(nodes: &[Node], weights: &[u8], width: usize, c: usize) {
    for row in [c.wrapping_sub(width), c, c + width] {
        let left = row.wrapping_sub(1);
        prefetch(nodes, left);
        prefetch(nodes, row + 1);
        prefetch(weights, left);
    }
}

/// What the search loop counts beside the queue.
#[derive(Default)]
struct LoopWork {
    /// Whether the goal was expanded.
    found: bool,
    /// Whether the loop stopped at its expansion limit with cells still queued.
    paused: bool,
    expanded: u64,
    /// Improvements of a cell that was already reached (lazy decrease-keys for the bucket queue).
    improved_again: u64,
    /// Pops of a cell already expanded with its current g.
    stale_pops: u64,
}

/// Whether `req`'s keys never go below the last one popped, so the bucket queue can order them:
/// Dijkstra, and A* with a heuristic admissible for the connectivity (every admissible pick in
/// [`crate::heuristic`] is also consistent, so f = g + h never decreases along a move).
fn monotone(req: &SearchRequest) -> bool {
    match req.mode {
        Mode::Dijkstra => true,
        Mode::AStar => req.heuristic.is_admissible(req.connectivity),
        Mode::Greedy => false,
    }
}

/// The per-cell records, reset by bumping the generation.
#[derive(Clone, Debug, Default)]
struct Cells {
    nodes: Vec<Node>,
    /// Bumped by [`GENERATION_STEP`] per search, so the low bits of a stamp are free.
    generation: u32,
}

/// Reusable per-cell arrays for best-first searches on grids of up to `len` cells.
#[derive(Clone, Debug, Default)]
pub struct SearchSpace {
    cells: Cells,
    /// For greedy best-first and inadmissible heuristics; made on first use.
    open: Option<IndexedHeap<Key>>,
    /// For Dijkstra and A* with a consistent heuristic.
    buckets: BucketQueue,
    /// The search that stopped at its expansion limit and can go on
    /// ([`SearchSpace::search_within`]).
    paused: Option<SearchRequest>,
}

impl SearchSpace {
    /// An empty space; it grows to the grid on first use.
    pub fn new() -> Self {
        Self::default()
    }

    fn prepare(&mut self, len: usize) {
        self.paused = None;
        let cells = &mut self.cells;
        if cells.nodes.len() != len {
            cells.nodes = vec![UNSEEN; len];
            cells.generation = 0;
            self.open = None;
        }
        cells.generation = cells.generation.wrapping_add(GENERATION_STEP);
        if cells.generation == 0 {
            cells.nodes.fill(UNSEEN);
            cells.generation = GENERATION_STEP;
        }
        if let Some(open) = &mut self.open {
            open.clear();
        }
        self.buckets.clear();
    }

    /// Runs the search `req`. Out-of-range cells are an error; a wall start or goal simply
    /// has no path. With `trace`, every open and close is recorded in order (see
    /// [`crate::trace`]; a close carries the cell's cost from the start).
    pub fn search(
        &mut self,
        grid: &Grid,
        req: &SearchRequest,
        trace: Option<&mut Trace>,
    ) -> Result<SearchResult, GridError> {
        Ok(self.search_within(grid, req, trace, u64::MAX)?.0)
    }

    /// The request of the search that stopped at its limit, if the space still holds it.
    pub fn paused(&self) -> Option<&SearchRequest> {
        self.paused.as_ref()
    }

    /// Forgets the search that stopped at its limit: the map it ran on changed.
    pub fn forget_paused(&mut self) {
        self.paused = None;
    }

    /// [`search`](Self::search) with at most `max` expansions: [`Progress::Pending`] (and no
    /// path) when it stopped there with cells still queued. The next call for the same request goes on from where it
    /// stopped, unless the space ran another search or was told the map changed
    /// ([`forget_paused`](Self::forget_paused)): the caller must do so when it changes the
    /// grid. The stats and the trace are those of this call's part of the search; the parts
    /// together expand what one whole search does, in the same order.
    pub fn search_within(
        &mut self,
        grid: &Grid,
        req: &SearchRequest,
        mut trace: Option<&mut Trace>,
        max: u64,
    ) -> Result<(SearchResult, Progress), GridError> {
        if let Some(tr) = trace.as_deref_mut() {
            tr.clear();
        }
        let s = grid.index(req.start)?;
        let t = grid.index(req.goal)?;
        let resume = self.paused == Some(*req) && self.cells.nodes.len() == grid.len();
        if !resume {
            self.prepare(grid.len());
        }
        let ends = (s, t, resume, max);
        let mut stats = SearchStats::default();
        let (gx, gy) = (req.goal.x, req.goal.y);
        let h = move |heuristic: Heuristic, x: u32, y: u32| {
            heuristic.estimate(x.abs_diff(gx), y.abs_diff(gy))
        };
        // A*'s key: f, ties by smaller h.
        let key_of = |g: Cost, h: Cost| Key {
            first: g + h,
            second: h,
        };
        // Each common (mode, heuristic) gets its own copy of the loop, with the key's
        // arithmetic inlined instead of matched per neighbour.
        let found = if monotone(req) {
            let open = &mut self.buckets;
            let before = open.stats();
            let cells = &mut self.cells;
            // Dijkstra, or A* (greedy is never monotone).
            let work = match (req.mode, req.heuristic) {
                (Mode::Dijkstra, _) => cells.run(grid, req, ends, open, trace, |g, _, _| Key {
                    first: g,
                    second: 0,
                }),
                (_, Heuristic::Octile) => cells.run(grid, req, ends, open, trace, |g, x, y| {
                    key_of(g, h(Heuristic::Octile, x, y))
                }),
                (_, heuristic) => cells.run(grid, req, ends, open, trace, |g, x, y| {
                    key_of(g, h(heuristic, x, y))
                }),
            };
            let after = open.stats();
            stats.set_queue_work(before, after);
            // Entries the queue dropped as out of date count as stale pops.
            stats.stale_pops = after.stale_pops - before.stale_pops;
            // A lazy decrease-key is a push; count it as the update it stands for.
            stats.pushes -= work.improved_again;
            stats.updates = work.improved_again;
            stats.expanded = work.expanded;
            stats.stale_pops += work.stale_pops;
            work
        } else {
            let mut open = self
                .open
                .take()
                .unwrap_or_else(|| IndexedHeap::with_capacity(grid.len()));
            let before = open.stats();
            let heuristic = req.heuristic;
            let work = if req.mode == Mode::Greedy {
                self.cells
                    .run(grid, req, ends, &mut open, trace, |g, x, y| Key {
                        first: h(heuristic, x, y),
                        second: g,
                    })
            } else {
                self.cells
                    .run(grid, req, ends, &mut open, trace, |g, x, y| {
                        key_of(g, h(heuristic, x, y))
                    })
            };
            stats.set_queue_work(before, open.stats());
            stats.expanded = work.expanded;
            stats.stale_pops = work.stale_pops;
            self.open = Some(open);
            work
        };
        if found.paused {
            self.paused = Some(*req);
            return Ok((SearchResult { path: None, stats }, Progress::Pending));
        }
        self.paused = None;
        let path = found.found.then(|| self.cells.path_to(grid, s, t));
        Ok((SearchResult { path, stats }, Progress::Done))
    }

    /// Cost of the cheapest known route from the last search's start to `pos`, if reached.
    pub fn reached_cost(&self, grid: &Grid, pos: Pos) -> Option<Cost> {
        let i = grid.index(pos).ok()?;
        if self.cells.nodes.len() != grid.len() {
            return None;
        }
        let g = self.cells.g(i);
        (g != INFINITY).then_some(g)
    }
}

impl Cells {
    /// Whether a queue entry of cell `i` with cost `g` is still to be expanded: the cell is
    /// reached in this search, not yet expanded, and `g` is its best cost.
    #[inline(always)]
    fn live(&self, i: usize, g: Cost) -> bool {
        let node = self.nodes[i];
        let g_now = node.g;
        node.stamp & !BACK == self.generation && g_now == g
    }

    #[inline]
    fn g(&self, i: usize) -> Cost {
        let node = &self.nodes[i];
        if node.stamp & !(CLOSED | BACK) == self.generation {
            node.g
        } else {
            INFINITY
        }
    }

    /// The path from `s` to `t` found by the last search, following the directions back.
    fn path_to(&self, grid: &Grid, s: usize, t: usize) -> Path {
        let mut cells = vec![grid.pos(t)];
        let mut at = t;
        while at != s {
            at = grid.step(at, ((self.nodes[at].stamp & BACK) >> 1) as u8);
            cells.push(grid.pos(at));
        }
        cells.reverse();
        Path {
            cells,
            cost: self.nodes[t].g,
        }
    }

    /// The search loop on the open list `open` (empty, as are the nodes of this generation,
    /// unless it `resumes` a search that stopped), for at most `max` expansions. `s` and `t`
    /// are the start's and the goal's indices; `key(g, x, y)` is the open-list key of cell
    /// (x, y) reached at cost g.
    #[inline(always)]
    fn run<Q: OpenList>(
        &mut self,
        grid: &Grid,
        req: &SearchRequest,
        (s, t, resumes, max): (usize, usize, bool, u64),
        open: &mut Q,
        mut trace: Option<&mut Trace>,
        key: impl Fn(Cost, u32, u32) -> Key,
    ) -> LoopWork {
        let (start, conn) = (req.start, req.connectivity);
        let mut work = LoopWork::default();

        let generation = self.generation;
        if !resumes && grid.weight(s) != 0 && grid.weight(t) != 0 {
            self.nodes[s] = Node {
                g: 0,
                stamp: generation,
            };
            open.offer(s as u32, key(0, start.x, start.y));
            if let Some(tr) = trace.as_deref_mut() {
                tr.push(Step::Open(s as u32));
            }
        }
        let (weights, width) = (grid.weights(), grid.width() as usize);
        loop {
            if work.expanded >= max {
                work.paused = !open.is_empty();
                break;
            }
            let Some(u) = open.take(self) else {
                break;
            };
            if let Some(next) = open.peek_cell() {
                prefetch_around(&self.nodes, weights, width, next as usize);
            }
            let u = u as usize;
            let here = &mut self.nodes[u];
            if here.stamp & !BACK != generation {
                // Expanded already with this g: an out-of-date entry of a lazy queue.
                work.stale_pops += 1;
                continue;
            }
            here.stamp |= CLOSED;
            let gu = here.g;
            work.expanded += 1;
            if let Some(tr) = trace.as_deref_mut() {
                tr.push(Step::Expand(Expansion {
                    cell: u as u32,
                    kind: ExpansionKind::Close,
                    cost: gu,
                }));
            }
            if u == t {
                work.found = true;
                break;
            }
            let nodes = &mut self.nodes;
            // Inlined at both of the grid's call sites (orthogonal and diagonal moves), so no
            // call per neighbour and no loop over a gathered list with an unpredictable length.
            grid.for_each_neighbor_dir(
                u,
                conn,
                #[inline(always)]
                |n, nx, ny, c, dir| {
                    let gn = gu + c;
                    let node = &mut nodes[n];
                    // Below GENERATION_STEP when reached in this search (queued or expanded),
                    // else the cell is from an older one: its g counts as INFINITY, without a
                    // branch.
                    let unseen = ((node.stamp ^ generation) >= GENERATION_STEP) as Cost;
                    let gold = node.g | unseen.wrapping_neg();
                    if gn < gold {
                        work.improved_again += 1 - unseen;
                        *node = Node {
                            g: gn,
                            stamp: generation | ((dir ^ 2) as u32) << 1,
                        };
                        open.offer(n as u32, key(gn, nx, ny));
                        if let Some(tr) = trace.as_deref_mut() {
                            tr.push(Step::Open(n as u32));
                        }
                    }
                },
            );
        }
        work
    }
}

/// A* from `start` to `goal`. Optimal when `heuristic` is admissible for `conn`.
///
/// ```
/// use gridwalk_core::{Connectivity, Grid, Heuristic, Pos, search::astar};
/// let grid = Grid::new(5, 5).unwrap();
/// let r = astar(&grid, Pos::new(0, 0), Pos::new(4, 2), Connectivity::Eight, Heuristic::Octile).unwrap();
/// let path = r.path.unwrap();
/// assert_eq!(path.cells.len(), 5);
/// assert!((gridwalk_core::cost::to_f64(path.cost) - (2.0 + 2.0 * 2f64.sqrt())).abs() < 1e-6);
/// ```
pub fn astar(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    conn: Connectivity,
    heuristic: Heuristic,
) -> Result<SearchResult, GridError> {
    SearchSpace::new().search(
        grid,
        &SearchRequest::astar(start, goal, conn, heuristic),
        None,
    )
}

/// Dijkstra from `start` to `goal`: the reference every other search is checked against.
pub fn dijkstra(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    conn: Connectivity,
) -> Result<SearchResult, GridError> {
    SearchSpace::new().search(grid, &SearchRequest::dijkstra(start, goal, conn), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Terrain;
    use proptest::prelude::*;

    /// Runs A* or Dijkstra `req` on the indexed heap, keys written out here rather than taken
    /// from [`SearchSpace::search`], and returns the trace and the path.
    fn on_indexed_heap(
        space: &mut SearchSpace,
        grid: &Grid,
        req: &SearchRequest,
    ) -> (Vec<Step>, Option<Path>) {
        let s = grid.index(req.start).unwrap();
        let t = grid.index(req.goal).unwrap();
        space.prepare(grid.len());
        let mut open = IndexedHeap::with_capacity(grid.len());
        let mut trace = Trace::default();
        let key = |g: Cost, x: u32, y: u32| {
            let h = match req.mode {
                Mode::Dijkstra => 0,
                _ => req.heuristic.between(Pos::new(x, y), req.goal),
            };
            Key {
                first: g + h,
                second: h,
            }
        };
        let found = space
            .cells
            .run(
                grid,
                req,
                (s, t, false, u64::MAX),
                &mut open,
                Some(&mut trace),
                key,
            )
            .found;
        (trace.steps, found.then(|| space.cells.path_to(grid, s, t)))
    }

    /// A grid of up to 24×24 cells: walls with probability `walls`/8, and either plain ground
    /// (many equal keys, so the tie order shows) or weights 1–9.
    fn grid() -> impl Strategy<Value = Grid> {
        (1u32..=24, 1u32..=24, 0u8..4, any::<bool>()).prop_flat_map(|(w, h, walls, weighted)| {
            prop::collection::vec(0u8..8, (w * h) as usize).prop_map(move |cells| {
                let mut g = Grid::new(w, h).unwrap();
                for (i, &c) in cells.iter().enumerate() {
                    let terrain = if c < walls {
                        Terrain::Wall
                    } else if weighted {
                        Terrain::Weight(1 + (c * 7 + i as u8) % 9)
                    } else {
                        Terrain::FREE
                    };
                    g.set(g.pos(i), terrain).unwrap();
                }
                g
            })
        })
    }

    /// A grid from [`grid`], 4 or 8 moves, and `pairs` (start, goal) pairs of its cells.
    fn grid_and_ends(
        pairs: std::ops::Range<usize>,
    ) -> impl Strategy<Value = (Grid, Connectivity, Vec<(Pos, Pos)>)> {
        let index = any::<prop::sample::Index>;
        let ends = prop::collection::vec((index(), index()), pairs);
        (grid(), any::<bool>(), ends).prop_map(|(grid, eight, ends)| {
            let conn = if eight {
                Connectivity::Eight
            } else {
                Connectivity::Four
            };
            let cell = |i: &prop::sample::Index| grid.pos(i.index(grid.len()));
            let ends = ends.iter().map(|(a, b)| (cell(a), cell(b))).collect();
            (grid, conn, ends)
        })
    }

    proptest! {
        /// The bucket queue and the indexed heap expand the same cells in the same order and
        /// give the same path, for Dijkstra and A* with every consistent heuristic.
        #[test]
        fn bucket_queue_and_indexed_heap_expand_alike(
            (grid, conn, ends) in grid_and_ends(1..6),
            pick in 0usize..6,
        ) {
            // 5: Dijkstra; an inadmissible pick is run as Dijkstra too.
            let heuristic = Heuristic::ALL[pick.min(4)];
            let mode = if pick < 5 && heuristic.is_admissible(conn) {
                Mode::AStar
            } else {
                Mode::Dijkstra
            };
            // One space for each queue, reused across searches as the real ones are.
            let (mut bucket_space, mut heap_space) = (SearchSpace::new(), SearchSpace::new());
            for (start, goal) in ends {
                let req = SearchRequest { start, goal, mode, connectivity: conn, heuristic };
                // The public entry point takes the bucket queue for this request.
                prop_assert!(monotone(&req));
                let mut trace = Trace::default();
                let r = bucket_space.search(&grid, &req, Some(&mut trace)).unwrap();
                let by_heap = on_indexed_heap(&mut heap_space, &grid, &req);
                prop_assert_eq!((trace.steps, r.path), by_heap);
            }
        }
    }

    proptest! {
        /// A search stopped every few expansions and resumed takes the same steps, in the
        /// same order, and finds the same path as one whole search, for every mode (greedy
        /// and inadmissible heuristics on the indexed heap included); another search or
        /// `forget_paused` in between starts it over.
        #[test]
        fn a_search_in_parts_is_the_whole_search(
            (grid, connectivity, ends) in grid_and_ends(1..4),
            pick in 0usize..5,
            mode in 0usize..3,
            part in 1u64..40,
        ) {
            let heuristic = Heuristic::ALL[pick];
            let mode = [Mode::AStar, Mode::Dijkstra, Mode::Greedy][mode];
            let (mut whole, mut parts) = (SearchSpace::new(), SearchSpace::new());
            for (start, goal) in ends {
                let req = SearchRequest { start, goal, mode, connectivity, heuristic };
                let mut trace = Trace::default();
                let want = whole.search(&grid, &req, Some(&mut trace)).unwrap();
                let (mut steps, mut expanded) = (Vec::new(), 0);
                let mut piece = Trace::default();
                let got = loop {
                    let (r, progress) = parts.search_within(&grid, &req, Some(&mut piece), part).unwrap();
                    prop_assert!(r.stats.expanded <= part);
                    expanded += r.stats.expanded;
                    steps.extend_from_slice(&piece.steps);
                    if progress == Progress::Done {
                        prop_assert!(parts.paused().is_none());
                        break r;
                    }
                    prop_assert_eq!(parts.paused(), Some(&req));
                    prop_assert!(got_none(&r));
                };
                prop_assert_eq!(&steps, &trace.steps);
                prop_assert_eq!(expanded, want.stats.expanded);
                prop_assert_eq!(got.path, want.path);
            }
            // Forgotten, a paused search starts over.
            let req = SearchRequest {
                start: grid.pos(0),
                goal: grid.pos(grid.len() - 1),
                mode,
                connectivity,
                heuristic,
            };
            let mut first = Trace::default();
            let (_, progress) = parts.search_within(&grid, &req, Some(&mut first), 1).unwrap();
            if progress == Progress::Pending {
                parts.forget_paused();
                let mut again = Trace::default();
                parts.search_within(&grid, &req, Some(&mut again), 1).unwrap();
                prop_assert_eq!(first.steps, again.steps);
            }
        }
    }

    /// A paused part has no path.
    fn got_none(r: &SearchResult) -> bool {
        r.path.is_none()
    }
}
