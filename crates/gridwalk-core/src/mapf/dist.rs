//! Distance tables: for each goal, the number of moves to it from every cell, by breadth-first
//! search on the move graph (one move, straight or diagonal, costs one), kept as adjacency
//! lists ([`Moves`]) that the scatter's searches read too.

use crate::crowd::Guidance;
use crate::grid::{Connectivity, Grid};
use crate::huge::HugeVec;

/// The value of a cell from which the goal cannot be reached.
pub const UNREACHABLE: u32 = u32::MAX;

/// The move graph as adjacency lists: each passable cell's neighbours, in the grid's order
/// ([`Grid::for_each_neighbor`]), so that searches over them break ties as searches over the
/// grid do.
#[derive(Clone, Debug)]
pub(super) struct Moves {
    /// Cell c's neighbours are `to[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    to: Vec<u32>,
}

impl Moves {
    /// The most bytes the lists of a grid of `cells` cells can take (eight moves a cell).
    pub(super) fn bytes_needed(cells: usize) -> usize {
        cells.saturating_add(1).saturating_mul(4 + 8 * 4)
    }

    /// The lists of `grid` under `conn`.
    pub(super) fn new(grid: &Grid, conn: Connectivity) -> Moves {
        let mut start = Vec::with_capacity(grid.len() + 1);
        let per_cell = match conn {
            Connectivity::Four => 4,
            Connectivity::Eight => 8,
        };
        let mut to = Vec::with_capacity(grid.len() * per_cell);
        start.push(0);
        for c in 0..grid.len() {
            grid.for_each_neighbor(c, conn, |m, _| to.push(m as u32));
            start.push(to.len() as u32);
        }
        Moves { start, to }
    }

    /// The cells one move from `cell` (none from a wall).
    #[inline]
    pub(super) fn of(&self, cell: usize) -> &[u32] {
        &self.to[self.start[cell] as usize..self.start[cell + 1] as usize]
    }
}

/// One flat table per distinct goal (agents with one goal share it), each `u32` per cell.
#[derive(Clone, Debug)]
pub struct DistanceTables {
    cells: usize,
    tables: HugeVec<u32>,
    /// Per agent: the offset of its goal's table in `tables`.
    offset: Vec<usize>,
    moves: Moves,
}

impl DistanceTables {
    /// The bytes the tables for `goals` on a grid of `cells` cells would take, with the move
    /// graph's lists.
    pub fn bytes_needed(cells: usize, goals: &[u32]) -> usize {
        let mut distinct: Vec<u32> = goals.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        (distinct.len().saturating_mul(cells).saturating_mul(4))
            .saturating_add(Moves::bytes_needed(cells))
    }

    /// The tables for agents whose goals are `goals` (flat indices of passable cells).
    pub fn new(grid: &Grid, conn: Connectivity, goals: &[u32]) -> DistanceTables {
        let mut filling = Filling::new(grid, conn, goals);
        filling.fill(usize::MAX);
        filling.finish()
    }

    /// The tables of `problem`'s goals.
    pub fn of(problem: &super::Problem) -> DistanceTables {
        DistanceTables::new(&problem.grid, problem.conn, &problem.goals)
    }

    /// The move graph the tables were searched on.
    pub(super) fn moves(&self) -> &Moves {
        &self.moves
    }

    /// Moves from `cell` to agent `agent`'s goal, [`UNREACHABLE`] when there is no way.
    #[inline]
    pub fn get(&self, agent: usize, cell: usize) -> u32 {
        self.tables[self.offset[agent] + cell]
    }

    /// The number of cells each table covers.
    pub fn cells(&self) -> usize {
        self.cells
    }
}

impl Guidance for DistanceTables {
    #[inline]
    fn distance(&self, agent: usize, cell: usize) -> u64 {
        let d = self.get(agent, cell);
        if d == UNREACHABLE { u64::MAX } else { d as u64 }
    }

    #[inline]
    fn prefetch(&self, agent: usize, cell: usize, stage: u8) {
        if stage == 0 {
            crate::prefetch::prefetch(&self.tables, self.offset[agent] + cell);
        }
    }
}

/// Distance tables filled a goal at a time, so that a caller can spread the work over several
/// calls ([`fill`](Self::fill)); [`DistanceTables::new`] fills them in one.
pub(super) struct Filling {
    tables: DistanceTables,
    /// (goal, agent) pairs sorted by goal: agents with one goal share its table.
    by_goal: Vec<(u32, usize)>,
    /// The first pair of `by_goal` whose goal has no table yet, and where its table goes.
    done: usize,
    next: usize,
    queue: Vec<u32>,
    /// Cells visited by the searches so far.
    visited: u64,
}

impl Filling {
    /// Tables for `goals` on `grid`, none filled yet.
    pub(super) fn new(grid: &Grid, conn: Connectivity, goals: &[u32]) -> Filling {
        let cells = grid.len();
        let mut by_goal: Vec<(u32, usize)> = goals.iter().copied().zip(0..).collect();
        by_goal.sort_unstable();
        let distinct = by_goal.chunk_by(|a, b| a.0 == b.0).count();
        Filling {
            tables: DistanceTables {
                cells,
                tables: HugeVec::from_elem(UNREACHABLE, distinct * cells),
                offset: vec![0; goals.len()],
                moves: Moves::new(grid, conn),
            },
            by_goal,
            done: 0,
            next: 0,
            queue: Vec::with_capacity(cells),
            visited: 0,
        }
    }

    /// Fills tables, each a breadth-first search over the grid's cells, until every goal has
    /// one or `cells` cells have been visited; true once every goal has its table.
    pub(super) fn fill(&mut self, cells: usize) -> bool {
        let n = self.tables.cells;
        let t = &mut self.tables;
        let mut visited = 0;
        while let Some(same) = self.by_goal[self.done..].chunk_by(|a, b| a.0 == b.0).next() {
            if visited >= cells {
                return false;
            }
            let table = &mut t.tables[self.next..self.next + n];
            bfs(&t.moves, same[0].0, table, &mut self.queue);
            visited += self.queue.len();
            self.visited += self.queue.len() as u64;
            for &(_, agent) in same {
                t.offset[agent] = self.next;
            }
            self.done += same.len();
            self.next += n;
        }
        true
    }

    /// Cells visited by the searches so far: the work done.
    pub(super) fn visited(&self) -> u64 {
        self.visited
    }

    /// The tables, once [`fill`](Self::fill) has said they are all filled.
    pub(super) fn finish(self) -> DistanceTables {
        debug_assert_eq!(self.done, self.by_goal.len());
        self.tables
    }
}

/// Fills `dist` (all [`UNREACHABLE`]) with each cell's number of moves to `goal`.
fn bfs(moves: &Moves, goal: u32, dist: &mut [u32], queue: &mut Vec<u32>) {
    queue.clear();
    dist[goal as usize] = 0;
    queue.push(goal);
    let mut head = 0;
    while let Some(&c) = queue.get(head) {
        head += 1;
        let d = dist[c as usize] + 1;
        // Moves are symmetric, so the neighbours out of `c` are the cells that move into it.
        for &m in moves.of(c as usize) {
            let slot = &mut dist[m as usize];
            if *slot == UNREACHABLE {
                *slot = d;
                queue.push(m);
            }
        }
    }
}
