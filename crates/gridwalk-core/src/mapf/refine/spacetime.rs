//! The refiner's space-time view of a plan and its single-agent repair: who stands on which
//! cell at which timestep, as flat layers of the grid (one per timestep up to a horizon), and
//! a space-time A* around everyone else on them (prioritized planning's step). Flat layers with
//! a generation stamp make a lookup an index and a search allocation-free.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::crowd::NONE;
use crate::mapf::dist::DistanceTables;

/// Who stands where and when, over all paths but their tails on the goals.
pub(super) struct Table {
    cells: usize,
    /// Timesteps 0 to `layers - 1` are kept; searches end before the last.
    layers: usize,
    /// `occ[t * cells + c]`: the agent on c at t, or [`NONE`].
    occ: Vec<u32>,
    /// Per cell: the timestep from which an agent whose goal it is stands there for good.
    parked: Vec<u32>,
    /// Per cell: the agent whose goal it is, or [`NONE`].
    goal_of: Vec<u32>,
}

impl Table {
    /// The bytes a table and its [`Planner`] take for `layers` timesteps of `cells` cells.
    pub(super) fn bytes_needed(cells: usize, layers: usize) -> usize {
        cells.saturating_mul(layers).saturating_mul(3 * 4)
    }

    /// An empty table of `layers` timesteps for agents with these `goals`.
    pub(super) fn new(cells: usize, layers: usize, goals: &[u32]) -> Table {
        let mut goal_of = vec![NONE; cells];
        for (a, &g) in goals.iter().enumerate() {
            goal_of[g as usize] = a as u32;
        }
        Table {
            cells,
            layers,
            occ: vec![NONE; cells * layers],
            parked: vec![NONE; cells],
            goal_of,
        }
    }

    /// The last timestep a search may reach.
    pub(super) fn horizon(&self) -> u32 {
        self.layers as u32 - 1
    }

    /// Adds agent `a`'s `path` (shorter than the layers), which ends on its goal for good.
    pub(super) fn enroll(&mut self, a: usize, path: &[u32]) {
        for (t, &c) in path.iter().enumerate() {
            self.occ[t * self.cells + c as usize] = a as u32;
        }
        let goal = *path.last().expect("a path has a cell");
        self.parked[goal as usize] = path.len() as u32 - 1;
    }

    /// Removes agent `a`'s `path`, as enrolled.
    pub(super) fn withdraw(&mut self, path: &[u32]) {
        for (t, &c) in path.iter().enumerate() {
            self.occ[t * self.cells + c as usize] = NONE;
        }
        let goal = *path.last().expect("a path has a cell");
        self.parked[goal as usize] = NONE;
    }

    /// Who stands on `cell` at `t`, on the way or parked on its goal.
    pub(super) fn who(&self, cell: u32, t: u32) -> Option<u32> {
        let on = self.on(cell, t);
        if on != NONE {
            return Some(on);
        }
        let p = self.parked[cell as usize];
        (p != NONE && p <= t).then(|| self.goal_of[cell as usize])
    }

    /// The agent on its way over `cell` at `t` ([`NONE`] past the layers).
    #[inline]
    fn on(&self, cell: u32, t: u32) -> u32 {
        let t = t as usize;
        if t >= self.layers {
            return NONE;
        }
        self.occ[t * self.cells + cell as usize]
    }

    /// Whether agent `a` may be on `cell` at timestep `t`.
    #[inline]
    fn free(&self, a: usize, cell: u32, t: u32) -> bool {
        let p = self.parked[cell as usize];
        let on = self.on(cell, t);
        (p == NONE || t < p) && (on == NONE || on as usize == a)
    }

    /// The first timestep from which nobody but `a` stands on `cell`.
    fn free_from(&self, a: usize, cell: u32) -> u32 {
        (0..self.layers as u32)
            .rev()
            .find(|&s| !self.free(a, cell, s))
            .map_or(0, |s| s + 1)
    }
}

/// Space-time A* on a [`Table`]'s layers, its buffers kept between searches.
pub(super) struct Planner {
    /// Per (timestep, cell): `generation` once reached in the current search.
    stamp: Vec<u32>,
    generation: u32,
    /// Per (timestep, cell): the cell it was reached from.
    parent: Vec<u32>,
    /// Open entries: (f, the last timestep first, cell), packed by [`entry`].
    open: BinaryHeap<Reverse<u128>>,
    /// Expansions over all searches: the refiner's measure of work.
    pub(super) expansions: u64,
}

/// Expansions one agent's search may take before the repair gives up on it.
const EXPANSIONS: u64 = 4_000;

impl Planner {
    /// A planner for `table`'s layers.
    pub(super) fn new(table: &Table) -> Planner {
        Planner {
            stamp: vec![0; table.occ.len()],
            generation: 0,
            parent: vec![NONE; table.occ.len()],
            open: BinaryHeap::new(),
            expansions: 0,
        }
    }

    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
    }

    /// Agent `a`'s cheapest path from `start` to `goal` around the others in `table`, arriving
    /// for good at most `bound` timesteps in; `None` if there is none within the horizon and
    /// the expansion limit.
    pub(super) fn search(
        &mut self,
        table: &Table,
        dist: &DistanceTables,
        (a, start, goal): (usize, u32, u32),
        bound: u64,
    ) -> Option<Vec<u32>> {
        // The agent can stay on its goal from `settle` on: arrival before that is no arrival.
        let settle = table.free_from(a, goal);
        if settle as u64 > bound {
            return None;
        }
        self.next_generation();
        self.open.clear();
        let cells = table.cells;
        let horizon = table.horizon();
        let moves = dist.moves();
        let h = |c: u32, t: u32| dist.get(a, c as usize).max(settle.saturating_sub(t));
        self.open.push(Reverse(entry(h(start, 0), 0, start)));
        self.stamp[start as usize] = self.generation;
        let limit = self.expansions + EXPANSIONS;
        while let Some(Reverse(e)) = self.open.pop() {
            let (f, t, cell) = unpack(e);
            if f as u64 > bound || t >= horizon {
                return None;
            }
            if cell == goal && t >= settle {
                return Some(self.path(cells, cell, t));
            }
            self.expansions += 1;
            if self.expansions > limit {
                return None;
            }
            for &next in moves.of(cell as usize).iter().chain([&cell]) {
                let key = (t as usize + 1) * cells + next as usize;
                if self.stamp[key] == self.generation || !table.free(a, next, t + 1) {
                    continue;
                }
                // No trading cells with the agent on `next` now.
                let b = table.on(next, t);
                if b != NONE && b as usize != a && table.on(cell, t + 1) == b {
                    continue;
                }
                self.stamp[key] = self.generation;
                self.parent[key] = cell;
                self.open.push(Reverse(entry(
                    (t + 1).saturating_add(h(next, t + 1)),
                    t + 1,
                    next,
                )));
            }
        }
        None
    }

    /// The path to `cell` at `t` along the parents.
    fn path(&self, cells: usize, mut cell: u32, t: u32) -> Vec<u32> {
        let mut path = Vec::with_capacity(t as usize + 1);
        path.push(cell);
        for s in (1..=t as usize).rev() {
            cell = self.parent[s * cells + cell as usize];
            path.push(cell);
        }
        path.reverse();
        path
    }
}

/// An open entry as one number that orders as (f, later timestep first, cell).
#[inline]
fn entry(f: u32, t: u32, cell: u32) -> u128 {
    (f as u128) << 64 | ((u32::MAX - t) as u128) << 32 | cell as u128
}

/// An entry's (f, timestep, cell).
#[inline]
fn unpack(e: u128) -> (u32, u32, u32) {
    ((e >> 64) as u32, u32::MAX - (e >> 32) as u32, e as u32)
}
