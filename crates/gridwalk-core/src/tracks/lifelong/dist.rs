//! Distances to goals for the lifelong runner: one breadth-first table a goal cell (four
//! moves, each one step), computed when first asked and kept in a cache bounded in bytes,
//! the least recently used table going first. A cached table holds the passable cells alone
//! (on brc202d a sixth of the cells).
//!
//! Tables are `u16`: every LoRR map has fewer than 65,535 free cells, so no distance on them
//! reaches [`FAR`]; on a larger map, distances beyond it are clamped to it.

use std::collections::HashMap;

use crate::grid::Grid;

/// "Unreachable" in a table.
pub const FAR: u16 = u16::MAX;

/// The default bound on the tables' bytes: 2 GiB.
pub const DEFAULT_BUDGET: usize = 2 << 30;

/// A breadth-first search over a grid's free cells, with its buffers reused.
#[derive(Clone, Debug)]
pub struct Bfs {
    width: usize,
    free: Vec<bool>,
    queue: Vec<u32>,
}

impl Bfs {
    /// A search over `grid`'s passable cells.
    pub fn new(grid: &Grid) -> Bfs {
        Bfs {
            width: grid.width() as usize,
            free: (0..grid.len()).map(|c| grid.weight(c) != 0).collect(),
            queue: Vec::new(),
        }
    }

    /// Fills `out` (one entry a cell) with the number of moves from `source` to each cell,
    /// [`FAR`] for walls and cells it cannot reach.
    pub fn fill(&mut self, source: u32, out: &mut [u16]) {
        let free = &self.free;
        let cells = (self.width, free.len());
        Bfs::search(cells, &mut self.queue, source, out, |c| {
            free[c].then_some(c)
        });
    }

    /// As [`fill`](Self::fill), but `out` holds the passable cells alone, by `rank` (a
    /// cell's rank among the passable cells, `u32::MAX` for a wall): on a map mostly of
    /// walls the search neither clears nor copies a whole-grid table.
    pub fn fill_ranked(&mut self, source: u32, rank: &[u32], out: &mut [u16]) {
        let cells = (self.width, self.free.len());
        Bfs::search(cells, &mut self.queue, source, out, |c| {
            let r = rank[c];
            (r != u32::MAX).then_some(r as usize)
        });
    }

    /// Breadth-first from `source` over a grid of `(width, cells)`, with `queue` as its
    /// queue, into `out`: a cell's entry at `slot(cell)`, `None` for a wall.
    fn search(
        (w, n): (usize, usize),
        queue: &mut Vec<u32>,
        source: u32,
        out: &mut [u16],
        slot: impl Fn(usize) -> Option<usize>,
    ) {
        out.fill(FAR);
        queue.clear();
        let Some(s) = slot(source as usize) else {
            return;
        };
        out[s] = 0;
        queue.push(source);
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head] as usize;
            head += 1;
            let d = slot(c)
                .map_or(FAR, |i| out[i])
                .saturating_add(1)
                .min(FAR - 1);
            let x = c % w;
            let mut visit = |m: usize| {
                if let Some(i) = slot(m).filter(|&i| out[i] == FAR) {
                    out[i] = d;
                    queue.push(m as u32);
                }
            };
            if x + 1 < w {
                visit(c + 1);
            }
            if x > 0 {
                visit(c - 1);
            }
            if c + w < n {
                visit(c + w);
            }
            if c >= w {
                visit(c - w);
            }
        }
    }
}

/// Distance tables by goal cell, computed on demand, least recently used evicted first.
#[derive(Clone, Debug)]
pub struct DistCache {
    bfs: Bfs,
    /// Per cell: its rank among the passable cells, or `u32::MAX` for a wall.
    rank: Vec<u32>,
    /// The passable cells: a table's length.
    free: usize,
    /// Per slot: distances to its goal, by rank.
    tables: Vec<Box<[u16]>>,
    goal_of: Vec<u32>,
    slot_of: HashMap<u32, u32>,
    last_used: Vec<u64>,
    clock: u64,
    capacity: usize,
}

impl DistCache {
    /// A cache for `grid` holding at most `budget` bytes of tables (but always the tables one
    /// step needs).
    pub fn new(grid: &Grid, budget: usize) -> DistCache {
        let bfs = Bfs::new(grid);
        let mut free = 0u32;
        let rank: Vec<u32> = (0..grid.len())
            .map(|c| {
                if grid.weight(c) == 0 {
                    return u32::MAX;
                }
                free += 1;
                free - 1
            })
            .collect();
        let free = free as usize;
        let capacity = (budget / (2 * free.max(1))).max(1);
        DistCache {
            free,
            bfs,
            rank,
            tables: Vec::new(),
            goal_of: Vec::new(),
            slot_of: HashMap::new(),
            last_used: Vec::new(),
            clock: 0,
            capacity,
        }
    }

    /// Starts a new step: tables asked for from now on are the ones kept from eviction.
    pub fn begin_step(&mut self) {
        self.clock += 1;
    }

    /// The slot of `goal`'s table, computing it (and evicting a table unused this step when
    /// the cache is full) if it is not held.
    pub fn slot(&mut self, goal: u32) -> u32 {
        if let Some(&s) = self.slot_of.get(&goal) {
            self.last_used[s as usize] = self.clock;
            return s;
        }
        let victim = if self.tables.len() >= self.capacity {
            (0..self.tables.len())
                .filter(|&s| self.last_used[s] < self.clock)
                .min_by_key(|&s| self.last_used[s])
        } else {
            None
        };
        let s = match victim {
            Some(s) => {
                self.slot_of.remove(&self.goal_of[s]);
                s
            }
            None => {
                self.tables.push(vec![FAR; self.free].into_boxed_slice());
                self.goal_of.push(goal);
                self.last_used.push(0);
                self.tables.len() - 1
            }
        };
        self.bfs.fill_ranked(goal, &self.rank, &mut self.tables[s]);
        self.goal_of[s] = goal;
        self.last_used[s] = self.clock;
        self.slot_of.insert(goal, s as u32);
        s as u32
    }

    /// Moves from `from` to the goal of the table in `slot`: `FAR` (`u16::MAX`) from a wall or a cell
    /// off the grid.
    #[inline]
    pub fn get(&self, slot: u32, from: u32) -> u16 {
        match self.rank.get(from as usize) {
            Some(&r) if r != u32::MAX => self.tables[slot as usize][r as usize],
            _ => FAR,
        }
    }

    /// Moves from `from` to `goal`, computing `goal`'s table if needed.
    pub fn distance(&mut self, from: u32, goal: u32) -> u16 {
        let s = self.slot(goal);
        self.get(s, from)
    }

    /// The tables the budget holds (at least one).
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Bytes held by the tables.
    pub fn bytes(&self) -> usize {
        self.tables.len() * self.free * 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Pos, Terrain};

    #[test]
    fn the_ranked_search_equals_the_whole_grid_one_packed_by_rank() {
        use crate::rng::{Draw, SeedableRng, SplitMix64};
        let mut rng = SplitMix64::seed_from_u64(5);
        for _ in 0..20 {
            let (w, h) = (1 + rng.below(12) as u32, 1 + rng.below(9) as u32);
            let mut g = Grid::new(w, h).unwrap();
            for _ in 0..rng.below((w * h) as usize) {
                let p = Pos::new(rng.below(w as usize) as u32, rng.below(h as usize) as u32);
                g.set(p, Terrain::Wall).unwrap();
            }
            let mut free = 0;
            let mut rank = vec![u32::MAX; g.len()];
            for (c, r) in rank.iter_mut().enumerate() {
                if g.weight(c) != 0 {
                    *r = free;
                    free += 1;
                }
            }
            let mut bfs = Bfs::new(&g);
            let (mut whole, mut packed) = (vec![0; g.len()], vec![0; free as usize]);
            for source in 0..w * h {
                bfs.fill(source, &mut whole);
                bfs.fill_ranked(source, &rank, &mut packed);
                let want: Vec<u16> = (0..g.len())
                    .filter(|&c| rank[c] != u32::MAX)
                    .map(|c| whole[c])
                    .collect();
                assert_eq!(packed, want, "{w}×{h} from {source}");
            }
        }
    }

    #[test]
    fn bfs_goes_around_walls_and_cache_evicts() {
        // 3 × 2: a wall at (1, 0).
        let mut g = Grid::new(3, 2).unwrap();
        g.set(Pos::new(1, 0), Terrain::Wall).unwrap();
        let mut c = DistCache::new(&g, 2 * 5); // room for one table of the 5 free cells
        c.begin_step();
        let s = c.slot(0);
        let row: Vec<u16> = (0..6).map(|cell| c.get(s, cell)).collect();
        assert_eq!(row, [0, FAR, 4, 1, 2, 3]);
        assert_eq!(c.get(s, 6), FAR, "off the grid");
        c.begin_step();
        let t = c.slot(2);
        assert_eq!(t, s, "the table unused this step is reused");
        assert_eq!(c.get(t, 0), 4);
        assert_eq!(c.slot(0), 1, "both needed in one step: the cache grows");
        assert_eq!(c.bytes(), 20);
    }
}
