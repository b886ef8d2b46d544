//! Distance tables: for each goal, the number of moves to it from every cell, by breadth-first
//! search on the move graph (one move, straight or diagonal, costs one).

use crate::crowd::Guidance;
use crate::grid::{Connectivity, Grid};

/// The value of a cell from which the goal cannot be reached.
pub const UNREACHABLE: u32 = u32::MAX;

/// One flat table per distinct goal (agents with one goal share it), each `u32` per cell.
#[derive(Clone, Debug)]
pub struct DistanceTables {
    cells: usize,
    tables: Vec<u32>,
    /// Per agent: the offset of its goal's table in `tables`.
    offset: Vec<usize>,
}

impl DistanceTables {
    /// The bytes the tables for `goals` on a grid of `cells` cells would take.
    pub fn bytes_needed(cells: usize, goals: &[u32]) -> usize {
        let mut distinct: Vec<u32> = goals.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        distinct.len().saturating_mul(cells).saturating_mul(4)
    }

    /// The tables for agents whose goals are `goals` (flat indices of passable cells).
    pub fn new(grid: &Grid, conn: Connectivity, goals: &[u32]) -> DistanceTables {
        let cells = grid.len();
        let mut by_goal: Vec<(u32, usize)> = goals.iter().copied().zip(0..).collect();
        by_goal.sort_unstable();
        let mut offset = vec![0; goals.len()];
        let mut tables = Vec::new();
        let mut queue = Vec::with_capacity(cells);
        let mut last = None;
        for (goal, agent) in by_goal {
            if last != Some(goal) {
                last = Some(goal);
                let start = tables.len();
                tables.resize(start + cells, UNREACHABLE);
                bfs(grid, conn, goal, &mut tables[start..], &mut queue);
            }
            offset[agent] = tables.len() - cells;
        }
        DistanceTables {
            cells,
            tables,
            offset,
        }
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
            crate::search::best_first::prefetch(&self.tables, self.offset[agent] + cell);
        }
    }
}

/// Fills `dist` (all [`UNREACHABLE`]) with each cell's number of moves to `goal`.
fn bfs(grid: &Grid, conn: Connectivity, goal: u32, dist: &mut [u32], queue: &mut Vec<u32>) {
    queue.clear();
    dist[goal as usize] = 0;
    queue.push(goal);
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head];
        head += 1;
        let d = dist[c as usize] + 1;
        // Moves are symmetric, so the neighbours out of `c` are the cells that move into it.
        grid.for_each_neighbor(c as usize, conn, |m, _| {
            if dist[m] == UNREACHABLE {
                dist[m] = d;
                queue.push(m as u32);
            }
        });
    }
}
