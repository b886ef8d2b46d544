//! Guidance with traffic rules: distance tables over (cell, facing) where each forward move
//! has its own cost ([`EdgeCosts`]), so that robots prefer some directions on some cells.
//!
//! [`EdgeCosts::highways`] sets the rule the congestion-aware planners use on small maps:
//! every row and every column is a one-way street in preference, the rows alternating east
//! and west, the columns south and north, and going against a street's way costs more. Two
//! robots that follow the rule never meet head-on in a row or a column, so corridors do not
//! knot; they may still go against it where that saves more than it costs.
//!
//! [`WeightedTables`] holds one table a goal, made on demand by Dijkstra backwards from the
//! goal's four states (a turn costs [`EdgeCosts::turn`]) on a bucket queue (Dial's: the costs
//! are small integers, so a state's cost picks its bucket), two bytes a state of a passable
//! cell (costs above [`WEIGHTED_CAP`] read as it), held to a memory budget like
//! [`RotationTables`](crate::mapf::RotationTables). When many tables are missing at once (a
//! big map's first call: one a robot's first goal), [`WeightedTables::ensure_all`] makes them
//! on every core.

use std::collections::HashMap;

use crate::crowd::{RotationGuidance, par};
use crate::grid::Grid;

/// A table's value for a state from which the goal cannot be reached.
pub const WEIGHTED_UNREACHABLE: u16 = u16::MAX;

/// The largest cost a table holds: dearer states read this (exact below it).
pub const WEIGHTED_CAP: u16 = u16::MAX - 1;

/// What each action costs on a grid: a forward move by its cell and facing, a turn alike
/// everywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeCosts {
    /// Per cell and facing (`cell × 4 + facing`): the cost of moving forward from it.
    pub forward: Vec<u16>,
    /// The cost of a quarter turn, and of a wait.
    pub turn: u16,
    /// What a plain move costs: the scale of the costs, which [`Traffic`](super::Traffic)'s
    /// weights, in halves of a plain move, are turned into.
    pub unit: u16,
}

impl EdgeCosts {
    /// Every action costs one: the plain tables.
    pub fn uniform(grid: &Grid) -> EdgeCosts {
        EdgeCosts {
            forward: vec![1; grid.len() * 4],
            turn: 1,
            unit: 1,
        }
    }

    /// One-way streets in preference (see the module doc): a move with its row's or
    /// column's way costs `with`, one against it `against`. Even rows go east, odd rows west;
    /// even columns go south, odd columns north.
    pub fn highways(grid: &Grid, with: u16, against: u16) -> EdgeCosts {
        let east: Vec<bool> = (0..grid.height()).map(|y| y % 2 == 0).collect();
        let south: Vec<bool> = (0..grid.width()).map(|x| x % 2 == 0).collect();
        EdgeCosts::streets(grid, &east, &south, with, against)
    }

    /// As [`highways`](Self::highways), but the ways alternate between corridors rather
    /// than between rows: a row is a corridor when at least half its free cells have free
    /// cells on both sides along it, and the first corridor row goes east, the next west,
    /// and so on, each other row going as the corridor above it (columns alike, south
    /// first). On a map whose corridors are every other row (sortation_large), the rows'
    /// parity would send them all one way.
    pub fn corridors(grid: &Grid, with: u16, against: u16) -> EdgeCosts {
        let (w, h) = (grid.width(), grid.height());
        let free = |x: u32, y: u32| grid.weight((y * w + x) as usize) != 0;
        let alternate = |lines: u32, len: u32, at: &dyn Fn(u32, u32) -> bool| {
            let mut corridors = 0u32;
            (0..lines)
                .map(|i| {
                    let cells = (0..len).filter(|&j| at(i, j)).count();
                    let passages = (1..len.saturating_sub(1))
                        .filter(|&j| at(i, j - 1) && at(i, j) && at(i, j + 1))
                        .count();
                    if cells > 0 && 2 * passages >= cells {
                        corridors += 1;
                    }
                    corridors % 2 == 1 || corridors == 0
                })
                .collect::<Vec<bool>>()
        };
        let east = alternate(h, w, &|y, x| free(x, y));
        let south = alternate(w, h, &|x, y| free(x, y));
        EdgeCosts::streets(grid, &east, &south, with, against)
    }

    /// Costs for rows going east where `east[y]` (else west) and columns going south where
    /// `south[x]` (else north).
    fn streets(grid: &Grid, east: &[bool], south: &[bool], with: u16, against: u16) -> EdgeCosts {
        let w = grid.width() as usize;
        let mut forward = vec![with; grid.len() * 4];
        for c in 0..grid.len() {
            let (x, y) = (c % w, c / w);
            let (east, south) = (east[y], south[x]);
            for f in 0..4 {
                let follows = match f {
                    0 => east,
                    2 => !east,
                    1 => south,
                    _ => !south,
                };
                forward[c * 4 + f] = if follows { with } else { against };
            }
        }
        EdgeCosts {
            forward,
            turn: with,
            unit: with,
        }
    }

    /// These costs with moves near the map's edge made cheaper, a ring road around the map:
    /// a forward move from a cell `d` cells from the nearest edge (`d` < `width`) costs
    /// `cut × (width − d) / width` less, and at least one.
    ///
    /// The ring draws through-traffic out of the crowded middle; WPPL's hand-made weights for
    /// random-32-32-20 lower the costs toward its edges too. There it pays while the crowd
    /// flows, but a walled quarter can then fill up (docs/benchmarks.md, "A ring road").
    pub fn with_rim(mut self, grid: &Grid, cut: u16, width: u16) -> EdgeCosts {
        let (w, h) = (grid.width(), grid.height());
        for (cell, moves) in self.forward.chunks_exact_mut(4).enumerate() {
            let (x, y) = (cell as u32 % w, cell as u32 / w);
            let d = x.min(y).min(w - 1 - x).min(h - 1 - y);
            let Some(nearer) = u32::from(width).checked_sub(d).filter(|&n| n > 0) else {
                continue;
            };
            let off = (u32::from(cut) * nearer / u32::from(width)) as u16;
            for m in moves {
                *m = m.saturating_sub(off).max(1);
            }
        }
        self
    }
}

/// Weighted (cell, facing) tables, one a goal, made on demand (see the module doc).
#[derive(Clone, Debug)]
pub struct WeightedTables {
    grid: Grid,
    costs: EdgeCosts,
    /// Per cell: its rank among the passable cells, or `u32::MAX` for a wall.
    rank: Vec<u32>,
    free: usize,
    /// Per goal: its table, `rank × 4 + facing`.
    tables: HashMap<u32, Box<[u16]>>,
    /// Dropped tables' buffers, made into new tables before any is allocated: a fresh one
    /// costs a page fault every 4 KB. With them the tables never hold more than they once
    /// did.
    spare: Vec<Box<[u16]>>,
    /// One search's buffers a thread, kept from call to call.
    searches: Vec<Search>,
    /// The buckets a search needs (`bucket_span` of the costs).
    span: usize,
}

/// Tables each thread makes at least when [`WeightedTables::ensure_all`] spreads them.
const TABLES_PER_THREAD: usize = 4;

/// A search's buffers: costs by `cell × 4 + facing`, and its queue's buckets, one a cost
/// modulo their number (one more than the dearest action).
#[derive(Clone, Debug, Default)]
struct Search {
    dist: Vec<u32>,
    buckets: Vec<Vec<u32>>,
}

impl WeightedTables {
    /// No tables yet, for `grid` with action costs `costs`.
    pub fn new(grid: &Grid, costs: EdgeCosts) -> WeightedTables {
        let mut free = 0;
        let rank = (0..grid.len())
            .map(|c| {
                if grid.weight(c) == 0 {
                    return u32::MAX;
                }
                free += 1;
                free as u32 - 1
            })
            .collect();
        WeightedTables {
            grid: grid.clone(),
            rank,
            free,
            tables: HashMap::new(),
            spare: Vec::new(),
            searches: vec![Search::default()],
            span: bucket_span(&costs),
            costs,
        }
    }

    /// The action costs the tables are made with.
    pub fn costs(&self) -> &EdgeCosts {
        &self.costs
    }

    /// Replaces the action costs; every table is dropped.
    pub fn set_costs(&mut self, costs: EdgeCosts) {
        self.span = bucket_span(&costs);
        self.costs = costs;
        self.spare.extend(self.tables.drain().map(|(_, t)| t));
    }

    /// Makes `goal`'s table if it is not there yet. `goal` must be a passable cell.
    pub fn ensure(&mut self, goal: u32) -> Result<(), String> {
        self.ensure_all([goal])
    }

    /// Makes the tables of `goals` that are not there yet, spread over the machine's cores
    /// when there are many. Every passable goal gets its table; the first goal off the grid
    /// or on a wall is reported after.
    pub fn ensure_all(&mut self, goals: impl IntoIterator<Item = u32>) -> Result<(), String> {
        let mut bad = None;
        let mut missing: Vec<u32> = Vec::new();
        for goal in goals {
            if (goal as usize) >= self.grid.len() || self.grid.weight(goal as usize) == 0 {
                bad.get_or_insert(goal);
            } else if !self.tables.contains_key(&goal) {
                missing.push(goal);
            }
        }
        missing.sort_unstable();
        missing.dedup();
        let jobs = (missing.len() / TABLES_PER_THREAD).clamp(1, par::threads());
        // The tables are allocated here, on the calling thread: made on the others, they
        // would be held in those threads' allocator arenas, and a run's peak memory grew by a
        // quarter.
        let mut made: Vec<(u32, Box<[u16]>)> = missing.iter().map(|&g| (g, self.blank())).collect();
        let mut searches = std::mem::take(&mut self.searches);
        searches.resize_with(searches.len().max(jobs), Search::default);
        let this = &*self;
        let chunks = made.chunks_mut(missing.len().div_ceil(jobs).max(1));
        par::each(chunks.zip(&mut searches), |(chunk, search)| {
            for (goal, table) in chunk {
                search.run(this, *goal, table);
            }
        });
        self.searches = searches;
        self.tables.extend(made);
        match bad {
            Some(goal) => Err(format!("goal {goal} is off the grid or a wall")),
            None => Ok(()),
        }
    }

    /// The cost from `(cell, facing)` to `goal`, if its table is made and the state is on
    /// the grid: [`WEIGHTED_UNREACHABLE`] when there is no way (from a wall too).
    pub fn get(&self, goal: u32, cell: u32, facing: u8) -> Option<u16> {
        let t = self.tables.get(&goal)?;
        let r = *self.rank.get(cell as usize)?;
        if facing > 3 {
            return None;
        }
        Some(match r {
            u32::MAX => WEIGHTED_UNREACHABLE,
            r => t[r as usize * 4 + facing as usize],
        })
    }

    /// Bytes the tables hold, with the search's buffers and the action costs.
    pub fn memory_bytes(&self) -> usize {
        self.tables.len() * (self.free * 8 + 16)
            + self.rank.capacity() * 4
            + self
                .searches
                .iter()
                .map(|s| s.dist.capacity() * 4)
                .sum::<usize>()
            + self.costs.forward.len() * 2
    }

    /// A table to be searched into, which writes every entry: a spare one, else zeroed, not
    /// filled: fresh zeroed memory is not touched until the search writes it, so that on
    /// many threads each writes its own.
    fn blank(&mut self) -> Box<[u16]> {
        (self.spare.pop()).unwrap_or_else(|| vec![0; self.free * 4].into_boxed_slice())
    }

    /// Keeps only the tables of goals for which `keep` says true.
    pub fn retain(&mut self, mut keep: impl FnMut(u32) -> bool) {
        let dropped = self.tables.extract_if(|&g, _| !keep(g)).map(|(_, t)| t);
        self.spare.extend(dropped);
    }

    /// Guidance for robots heading for `goals` (one per robot), making the missing tables.
    pub fn guidance<'a>(&'a mut self, goals: &[u32]) -> Result<WeightedGoals<'a>, String> {
        self.ensure_all(goals.iter().copied())?;
        let tables = &self.tables;
        Ok(WeightedGoals {
            rank: &self.rank,
            per_agent: goals.iter().map(|g| &tables[g][..]).collect(),
            costs: &self.costs,
        })
    }

    /// As [`guidance`](Self::guidance), but a robot without a goal (`None`) gets no table:
    /// every state reads as unreachable for it, and no search is made for it.
    pub fn guidance_or_none<'a>(
        &'a mut self,
        goals: &[Option<u32>],
    ) -> Result<WeightedGoals<'a>, String> {
        self.ensure_all(goals.iter().flatten().copied())?;
        Ok(WeightedGoals {
            rank: &self.rank,
            per_agent: crate::mapf::tables_of(&self.tables, goals),
            costs: &self.costs,
        })
    }
}

impl Search {
    /// Dijkstra backwards from `goal`'s four states on `tables`' grid and costs, on a bucket
    /// queue, into `table` (from [`WeightedTables::blank`]: every entry is written).
    fn run(&mut self, tables: &WeightedTables, goal: u32, table: &mut [u16]) {
        let grid = &tables.grid;
        let n = grid.len();
        let w = grid.width();
        let costs = &tables.costs;
        let turn = u32::from(costs.turn);
        let span = tables.span;
        let dist = &mut self.dist;
        dist.clear();
        dist.resize(n * 4, u32::MAX);
        let buckets = &mut self.buckets;
        buckets.iter_mut().for_each(Vec::clear);
        buckets.resize_with(span, Vec::new);
        for f in 0..4u32 {
            dist[(goal * 4 + f) as usize] = 0;
            buckets[0].push(goal * 4 + f);
        }
        // Lowers `p`'s cost to `nd` if cheaper, queueing it; returns the states queued.
        let relax = |dist: &mut [u32], buckets: &mut [Vec<u32>], p: u32, nd: u32| {
            if nd >= dist[p as usize] {
                return 0;
            }
            dist[p as usize] = nd;
            buckets[nd as usize % span].push(p);
            1
        };
        // Every queued state costs less than `d + span`, so the bucket `d` comes round to
        // holds only states of cost `d`, and stale ones (a cheaper cost found since).
        let (mut d, mut queued) = (0u32, 4usize);
        while queued > 0 {
            let b = d as usize % span;
            while let Some(s) = buckets[b].pop() {
                queued -= 1;
                if dist[s as usize] != d {
                    continue;
                }
                let (c, o) = (s / 4, s % 4);
                // Predecessors: the two turns into (c, o), and the cell behind moving forward.
                queued += relax(dist, buckets, c * 4 + (o + 1) % 4, d + turn);
                queued += relax(dist, buckets, c * 4 + (o + 3) % 4, d + turn);
                let (x, y) = (c % w, c / w);
                let behind = match o {
                    0 => (x > 0).then(|| c - 1),
                    1 => (y > 0).then(|| c - w),
                    2 => (x + 1 < w).then(|| c + 1),
                    _ => (c + w < n as u32).then(|| c + w),
                };
                if let Some(b) = behind.filter(|&b| grid.weight(b as usize) != 0) {
                    let step = u32::from(costs.forward[(b * 4 + o) as usize]);
                    queued += relax(dist, buckets, b * 4 + o, d + step);
                }
            }
            d += 1;
        }
        for (c, &r) in tables.rank.iter().enumerate() {
            if r == u32::MAX {
                continue;
            }
            for f in 0..4 {
                table[r as usize * 4 + f] = match dist[c * 4 + f] {
                    u32::MAX => WEIGHTED_UNREACHABLE,
                    d => d.min(u32::from(WEIGHTED_CAP)) as u16,
                };
            }
        }
    }
}

/// One more than the dearest action's cost under `costs`: the buckets a search needs.
fn bucket_span(costs: &EdgeCosts) -> usize {
    let dearest = costs.forward.iter().copied().max().unwrap_or(0);
    usize::from(dearest.max(costs.turn)) + 1
}

/// Robots' guidance from [`WeightedTables`]: each robot's goal table.
#[derive(Clone, Debug)]
pub struct WeightedGoals<'a> {
    rank: &'a [u32],
    per_agent: Vec<&'a [u16]>,
    costs: &'a EdgeCosts,
}

impl super::spacetime::WindowGuidance for WeightedGoals<'_> {
    #[inline]
    fn action_cost(&self, (c, f): (u32, u8), act: crate::crowd::Action) -> u64 {
        use crate::crowd::Action::*;
        u64::from(match act {
            Forward => self.costs.forward[c as usize * 4 + f as usize],
            // Waiting takes a timestep, as a turn does.
            Clockwise | CounterClockwise | Wait => self.costs.turn,
        })
    }
}

impl RotationGuidance for WeightedGoals<'_> {
    #[inline]
    fn action(&self) -> u64 {
        u64::from(self.costs.turn)
    }

    #[inline]
    fn forward(&self, _agent: usize, cell: u32, facing: u8) -> u64 {
        u64::from(self.costs.forward[cell as usize * 4 + facing as usize])
    }

    #[inline]
    fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        let r = self.rank[cell as usize];
        if r == u32::MAX {
            return u64::MAX;
        }
        // A robot without a table (see `guidance_or_none`) reads nothing.
        match self.per_agent[agent].get(r as usize * 4 + facing as usize) {
            None | Some(&WEIGHTED_UNREACHABLE) => u64::MAX,
            Some(&d) => u64::from(d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapf::RotationTables;

    /// East and south moves' costs from `costs`: whether each row goes east (read in its
    /// first free cell with a free east neighbour), and each column south.
    fn ways(grid: &Grid, costs: &EdgeCosts) -> (Vec<Option<bool>>, Vec<Option<bool>>) {
        let (w, h) = (grid.width(), grid.height());
        let free = |x: u32, y: u32| grid.weight((y * w + x) as usize) != 0;
        let east = (0..h)
            .map(|y| {
                let x = (0..w - 1).find(|&x| free(x, y) && free(x + 1, y))?;
                Some(
                    costs.forward[((y * w + x) * 4) as usize]
                        < costs.forward[((y * w + x) * 4 + 2) as usize],
                )
            })
            .collect();
        let south = (0..w)
            .map(|x| {
                let y = (0..h - 1).find(|&y| free(x, y) && free(x, y + 1))?;
                Some(
                    costs.forward[((y * w + x) * 4 + 1) as usize]
                        < costs.forward[((y * w + x) * 4 + 3) as usize],
                )
            })
            .collect();
        (east, south)
    }

    #[test]
    fn corridors_alternate_where_rows_would_not() {
        // Open ground: every row and column a corridor, as the rows' parity.
        let open = Grid::new(6, 5).unwrap();
        assert_eq!(
            EdgeCosts::corridors(&open, 2, 10),
            EdgeCosts::highways(&open, 2, 10)
        );
        // Corridors on rows 1, 3, 5 and 7, between rows of pillars on every other cell
        // (sortation_large's pattern): by parity all four go west, by corridor they alternate.
        let (w, h) = (9u32, 9u32);
        let mut grid = Grid::new(w, h).unwrap();
        for y in (0..h).step_by(2) {
            for x in (1..w).step_by(2) {
                grid.set(crate::grid::Pos::new(x, y), crate::grid::Terrain::Wall)
                    .unwrap();
            }
        }
        let rows = |c: &EdgeCosts| {
            let (east, _) = ways(&grid, c);
            [1usize, 3, 5, 7].map(|y| east[y].unwrap())
        };
        assert_eq!(rows(&EdgeCosts::highways(&grid, 2, 10)), [false; 4]);
        assert_eq!(
            rows(&EdgeCosts::corridors(&grid, 2, 10)),
            [true, false, true, false]
        );
        // Its columns: 0, 2, 4, 6 and 8 are corridors, the pillars' columns not.
        let (_, south) = ways(&grid, &EdgeCosts::corridors(&grid, 2, 10));
        let cols: Vec<bool> = [0usize, 2, 4, 6, 8].map(|x| south[x].unwrap()).to_vec();
        assert_eq!(cols, [true, false, true, false, true]);
    }

    #[test]
    fn a_ring_road_costs_less_nearer_the_edge_and_nothing_past_its_width() {
        let grid = Grid::new(14, 11).unwrap();
        let (cut, width) = (9u16, 4u32);
        let base = EdgeCosts::highways(&grid, 10, 30);
        let rim = base.clone().with_rim(&grid, cut, width as u16);
        assert_eq!((rim.turn, rim.unit), (base.turn, base.unit));
        let edge = |c: usize| {
            let (x, y) = (c as u32 % 14, c as u32 / 14);
            x.min(y).min(13 - x).min(10 - y)
        };
        for (s, (&was, &now)) in base.forward.iter().zip(&rim.forward).enumerate() {
            let d = edge(s / 4);
            if d >= width {
                assert_eq!(now, was, "state {s}, {d} cells in");
                continue;
            }
            assert!(
                now < was && now >= 1,
                "state {s}, {d} cells in: {was} → {now}"
            );
            if d == 0 {
                assert_eq!(now, was - cut, "state {s} on the edge");
            }
            // One cell further in, the same move costs no less.
            let (x, y) = ((s / 4) as u32 % 14, (s / 4) as u32 / 14);
            let inward = [
                (x + 1, y),
                (x.wrapping_sub(1), y),
                (x, y + 1),
                (x, y.wrapping_sub(1)),
            ]
            .into_iter()
            .filter(|&(x, y)| x < 14 && y < 11)
            .map(|(x, y)| (y * 14 + x) as usize)
            .find(|&c| edge(c) == d + 1 && base.forward[c * 4 + s % 4] == was);
            if let Some(c) = inward {
                assert!(
                    rim.forward[c * 4 + s % 4] >= now,
                    "state {s} against cell {c}"
                );
            }
        }
    }

    #[test]
    fn uniform_costs_give_the_exact_tables() {
        let mut grid = Grid::new(7, 5).unwrap();
        for c in [8u32, 9, 10, 17, 24, 25] {
            grid.set(
                crate::grid::Pos::new(c % 7, c / 7),
                crate::grid::Terrain::Wall,
            )
            .unwrap();
        }
        let mut exact = RotationTables::new(&grid);
        let mut weighted = WeightedTables::new(&grid, EdgeCosts::uniform(&grid));
        for goal in [0u32, 13, 34] {
            weighted.ensure(goal).unwrap();
            for c in 0..35u32 {
                for f in 0..4u8 {
                    let e = exact.distance(goal, c, f).unwrap();
                    let w = weighted.get(goal, c, f).unwrap();
                    if grid.weight(c as usize) == 0 {
                        continue;
                    }
                    assert_eq!(e, w, "goal {goal}, cell {c}, facing {f}");
                }
            }
        }
    }

    /// Costs to `goal` by relaxing every action until nothing changes (Bellman–Ford): slow,
    /// but sharing nothing with the bucket queue.
    fn relaxed(grid: &Grid, costs: &EdgeCosts, goal: u32) -> Vec<u32> {
        let (w, len) = (grid.width(), grid.len() as u32);
        let mut d = vec![u32::MAX; grid.len() * 4];
        for f in 0..4 {
            d[(goal * 4 + f) as usize] = 0;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for s in 0..len * 4 {
                let (c, f) = (s / 4, (s % 4) as u8);
                if grid.weight(c as usize) == 0 {
                    continue;
                }
                let turn = u32::from(costs.turn);
                let mut best = d[s as usize];
                for t in [(f + 1) % 4, (f + 3) % 4] {
                    best = best.min(d[(c * 4 + u32::from(t)) as usize].saturating_add(turn));
                }
                let ahead = super::super::ahead(c, f, w, len);
                if let Some(a) = ahead.filter(|&a| grid.weight(a as usize) != 0) {
                    let step = u32::from(costs.forward[s as usize]);
                    best = best.min(d[(a * 4 + u32::from(f)) as usize].saturating_add(step));
                }
                if best < d[s as usize] {
                    d[s as usize] = best;
                    changed = true;
                }
            }
        }
        d
    }

    #[test]
    fn the_bucket_queue_agrees_with_plain_relaxation() {
        use crate::rng::{Draw, SeedableRng, SplitMix64};
        let mut rng = SplitMix64::seed_from_u64(7);
        for round in 0..6 {
            let mut grid = Grid::new(9, 7).unwrap();
            for _ in 0..14 {
                let (x, y) = (rng.below(9) as u32, rng.below(7) as u32);
                grid.set(crate::grid::Pos::new(x, y), crate::grid::Terrain::Wall)
                    .unwrap();
            }
            let mut costs = EdgeCosts::highways(&grid, 2, 2 + 8 * round as u16);
            if round % 2 == 1 {
                // Arbitrary costs a move, and dearer turns.
                costs
                    .forward
                    .iter_mut()
                    .for_each(|c| *c = 1 + rng.below(40) as u16);
                costs.turn = 3;
            }
            let mut t = WeightedTables::new(&grid, costs.clone());
            for goal in (0..63u32).filter(|&g| grid.weight(g as usize) != 0) {
                t.ensure(goal).unwrap();
                let reference = relaxed(&grid, &costs, goal);
                for c in (0..63u32).filter(|&c| grid.weight(c as usize) != 0) {
                    for f in 0..4u8 {
                        let want = match reference[(c * 4 + u32::from(f)) as usize] {
                            u32::MAX => WEIGHTED_UNREACHABLE,
                            d => d.min(u32::from(WEIGHTED_CAP)) as u16,
                        };
                        assert_eq!(t.get(goal, c, f), Some(want), "goal {goal}, ({c}, {f})");
                    }
                }
            }
        }
    }

    #[test]
    fn tables_made_together_on_every_core_or_in_dropped_ones_equal_tables_made_one_by_one() {
        use crate::rng::{Draw, SeedableRng, SplitMix64};
        let mut rng = SplitMix64::seed_from_u64(11);
        let (w, h) = (14u32, 11u32);
        let mut grid = Grid::new(w, h).unwrap();
        for _ in 0..30 {
            let (x, y) = (rng.below(w as usize) as u32, rng.below(h as usize) as u32);
            grid.set(crate::grid::Pos::new(x, y), crate::grid::Terrain::Wall)
                .unwrap();
        }
        let costs = EdgeCosts::corridors(&grid, 2, 10);
        let (mut together, mut alone) = (
            WeightedTables::new(&grid, costs.clone()),
            WeightedTables::new(&grid, costs),
        );
        let wall = (0..w * h).find(|&c| grid.weight(c as usize) == 0).unwrap();
        // Every cell twice, a wall and a cell off the grid among them: enough missing tables
        // for several threads, and the bad goals reported without stopping the others.
        let goals: Vec<u32> = (0..w * h).chain(0..w * h).chain([w * h + 3]).collect();
        let err = together.ensure_all(goals).unwrap_err();
        assert!(err.contains(&wall.to_string()), "{err}");
        let free: Vec<u32> = (0..w * h)
            .filter(|&g| grid.weight(g as usize) != 0)
            .collect();
        let agree = |together: &WeightedTables, alone: &mut WeightedTables, goal: u32| {
            alone.ensure(goal).unwrap();
            for c in 0..w * h {
                for f in 0..4u8 {
                    let (t, a) = (together.get(goal, c, f), alone.get(goal, c, f));
                    assert_eq!(t, a, "{goal} {c}");
                }
            }
        };
        for &goal in &free {
            agree(&together, &mut alone, goal);
        }
        // The odd goals' tables dropped and made again in the buffers they leave, each
        // written over another goal's costs.
        let bytes = together.memory_bytes();
        together.retain(|g| g % 2 == 0);
        assert!(together.memory_bytes() < bytes);
        together.ensure_all(free.iter().rev().copied()).unwrap();
        assert!(together.spare.is_empty());
        for &goal in &free {
            agree(&together, &mut alone, goal);
        }
    }

    #[test]
    fn a_robot_without_a_goal_gets_no_table_and_reads_unreachable() {
        use crate::crowd::RotationGuidance;
        let grid = Grid::new(6, 4).unwrap();
        let goals = [Some(3u32), None, Some(20)];
        let mut exact = RotationTables::new(&grid);
        let mut weighted = WeightedTables::new(&grid, EdgeCosts::uniform(&grid));
        let e = exact.guidance_or_none(&goals).unwrap();
        let w = weighted.guidance_or_none(&goals).unwrap();
        for c in 0..24u32 {
            for f in 0..4u8 {
                assert_eq!(e.cost(1, c, f), u64::MAX);
                assert_eq!(w.cost(1, c, f), u64::MAX);
                assert_eq!(e.cost(0, c, f), w.cost(0, c, f));
                assert_eq!(e.cost(2, c, f), w.cost(2, c, f));
            }
        }
        assert_eq!(e.cost(0, 3, 0), 0);
        // Only the two goals were searched.
        assert_eq!(exact.len(), 2);
        assert_eq!(weighted.tables.len(), 2);
    }

    #[test]
    fn highways_make_the_wrong_way_dearer_and_never_cheaper() {
        let grid = Grid::new(6, 6).unwrap();
        let costs = EdgeCosts::highways(&grid, 1, 3);
        // Row 0 goes east: from cell 0 to 5 facing east is 5 either way; from 5 to 0 facing
        // west, the wrong way, it is dearer than by the odd row below and back.
        let mut t = WeightedTables::new(&grid, costs);
        t.ensure(5).unwrap();
        assert_eq!(t.get(5, 0, 0), Some(5));
        t.ensure(0).unwrap();
        let back = t.get(0, 5, 2).unwrap();
        assert!(back > 5 && back < 15, "{back}");
        let mut plain = WeightedTables::new(&grid, EdgeCosts::uniform(&grid));
        for goal in 0..36u32 {
            t.ensure(goal).unwrap();
            plain.ensure(goal).unwrap();
            for s in 0..36 * 4u32 {
                let (c, f) = (s / 4, (s % 4) as u8);
                let (a, b) = (t.get(goal, c, f).unwrap(), plain.get(goal, c, f).unwrap());
                assert!(
                    a >= b && a <= 3 * b,
                    "goal {goal}, state {s}: {a} against {b}"
                );
            }
        }
    }
}
