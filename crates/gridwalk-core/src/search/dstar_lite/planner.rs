//! D\* Lite as a [`GoalPlanner`]: the protocol, the answers and the introspection, over the
//! search in the parent module.

use super::{DStarLite, Key, START};
use crate::cost::{Cost, INFINITY};
use crate::grid::Grid;
use crate::path::{Path, descend};
use crate::queue::CellQueue;
use crate::search::cells::Store;
use crate::search::goal_planner::{CellInfo, GoalPlanner, Progress};
use crate::stats::SearchStats;

impl<Q: CellQueue<Key> + Send + Sync, const TOWARD_STARTS: bool, S: Store> GoalPlanner
    for DStarLite<Q, TOWARD_STARTS, S>
{
    fn goal(&self) -> usize {
        self.goal
    }

    fn set_starts(&mut self, grid: &Grid, starts: &[usize]) {
        self.starts.clear();
        self.starts.extend_from_slice(starts);
        self.mark_targets(grid);
    }

    fn set_exact(&mut self, grid: &Grid, cells: &[usize]) {
        self.exact.clear();
        self.exact.extend_from_slice(cells);
        self.mark_targets(grid);
    }

    fn cells_changed(&mut self, grid: &Grid, cells: &[usize]) {
        self.update_changed(grid, cells);
    }

    fn compute_within(&mut self, grid: &Grid, max_expansions: u64) -> (SearchStats, Progress) {
        self.forget_expanded();
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
            while let Some((k_old, u, id)) = self.queue.top_as() {
                if k_old > kmax || stats.expanded >= max_expansions {
                    break;
                }
                self.expand(grid, u as usize, id, k_old, &mut stats);
                if self.flags[id as usize] & START != 0 {
                    break;
                }
            }
        }
        let after = self.queue.stats();
        stats.set_queue_work(before, after);
        (stats, progress)
    }

    fn cost_to_goal(&self, cell: usize) -> Cost {
        self.g(cell)
    }

    #[inline]
    fn prefetch_cost(&self, cell: usize, stage: u8) {
        let (x, y) = self.tiles.cell_xy(cell);
        if stage == 0 {
            self.tiles.prefetch_id(x, y);
        } else {
            crate::prefetch::prefetch(&self.g, self.tiles.id(x, y) as usize);
        }
    }

    fn next_move(&self, grid: &Grid, cell: usize) -> Option<(usize, Cost)> {
        let here = self.g(cell);
        if cell == self.goal || here == INFINITY {
            return None;
        }
        let (n, total, gn) = self.best_move(grid, cell)?;
        (gn < here).then(|| (n, total - gn))
    }

    fn path(&self, grid: &Grid, from: usize) -> Option<Path> {
        // A path crosses only passable cells: a blocked cell has none, not even to itself
        // (the goal's g is 0 whatever its terrain).
        if grid.weight(from) == 0 {
            return None;
        }
        descend(grid, self.conn, from, self.goal, |s| self.g(s))
    }

    fn last_expanded(&self) -> &[u32] {
        &self.expanded
    }

    fn memory_bytes(&self) -> usize {
        self.g.capacity() * std::mem::size_of::<Cost>()
            + self.flags.capacity()
            + self.tiles.memory_bytes()
            + self.queue.memory_bytes()
            + (self.expanded.capacity() + self.start_ids.capacity()) * 4
            + (self.starts.capacity() + self.exact.capacity()) * std::mem::size_of::<usize>()
            + self.unsettled.capacity() * 4
    }

    recorder_methods!(rec);

    fn inspect(&self, grid: &Grid, cell: usize) -> Option<CellInfo> {
        if cell >= grid.len() {
            return None;
        }
        let (x, y) = self.tiles.cell_xy(cell);
        let id = self.tiles.id(x, y);
        let key = self.queue.queued_key(id).map(Into::into);
        Some(CellInfo {
            g: self.g[id as usize],
            rhs: Some(self.rhs_at(id)),
            h: Some(self.h_xy(x, y)),
            key,
            queued: key.is_some(),
            state: None,
        })
    }

    fn km(&self) -> Cost {
        self.km
    }
}
