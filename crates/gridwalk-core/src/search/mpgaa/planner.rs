//! MPGAA\* behind the [`GoalPlanner`] trait: what the simulation asks of every incremental
//! planner (starts, changed cells, computes, and the reads of costs, moves and paths).

use super::state::{DX, DY, NO_DIR, link};
use super::{Mpgaa, NEXT_STATES};
use crate::cost::{Cost, INFINITY};
use crate::grid::{Grid, Pos};
use crate::path::Path;
use crate::queue::CellQueue;
use crate::search::cells::Store;
use crate::search::goal_planner::{CellInfo, GoalPlanner, Progress};
use crate::stats::SearchStats;
use crate::trace::Trace;

impl<S: Store> GoalPlanner for Mpgaa<S> {
    fn goal(&self) -> usize {
        self.goal.unwrap_or(usize::MAX)
    }

    fn set_starts(&mut self, grid: &Grid, starts: &[usize]) {
        self.sync(grid);
        self.starts.clear();
        self.starts.extend(
            starts
                .iter()
                .filter(|&&s| s < grid.len())
                .map(|&s| s as u32),
        );
        self.starts.sort_unstable();
        self.starts.dedup();
    }

    fn cells_changed(&mut self, grid: &Grid, cells: &[usize]) {
        if grid.width() != self.width || grid.height() != self.height {
            self.reset(grid);
            return;
        }
        if cells.is_empty() {
            return;
        }
        self.abandon_search();
        self.new_epoch();
        for &c in cells {
            if c >= grid.len() {
                continue;
            }
            let at = self.cells.at(c);
            let (cx, cy) = (at.x as i64, at.y as i64);
            for a in grid.affected_by(c) {
                // Every move whose cost may have changed has both ends in the block.
                let a = self.cells.at(a);
                let d = self.next_dir(a.id);
                if d != NO_DIR {
                    // A `next` pointer is written only to an owned cell.
                    let nx = a.x as i64 + DX[d as usize];
                    let ny = a.y as i64 + DY[d as usize];
                    if (nx - cx).abs() <= 1 && (ny - cy).abs() <= 1 {
                        self.set_next(a.id, NO_DIR);
                    }
                }
                self.pending.push(a.cell as u32);
            }
        }
    }

    /// The consistency pass, then a search from each start not yet known to be on a tight
    /// chain, until `max` expansions: a search the budget stops goes on at the next call
    /// (before the other starts), unless cells changed or its start left in between.
    fn compute_within(&mut self, grid: &Grid, max: u64) -> (SearchStats, Progress) {
        self.sync(grid);
        self.expanded.clear();
        self.rec.begin();
        self.rec.snapshot(|_| {});
        let before = self.open.stats();
        let mut stats = SearchStats::default();
        let progress = self.serve(grid, &mut stats, max);
        stats.set_queue_work(before, self.open.stats());
        (stats, progress)
    }

    fn cost_to_goal(&self, cell: usize) -> Cost {
        // Verification is dropped by every change and given only while the goal is open.
        match self.on_map(cell) {
            Some(s) if self.verified(s.id) => self.h(s),
            _ => INFINITY,
        }
    }

    fn next_move(&self, grid: &Grid, cell: usize) -> Option<(usize, Cost)> {
        let goal = self.goal_open(grid)?;
        if cell == goal || cell >= grid.len() {
            return None;
        }
        let s = self.cells.at(cell);
        if !self.verified(s.id) {
            return None;
        }
        link(grid, self.conn, cell, self.next_dir(s.id))
    }

    fn path(&self, grid: &Grid, from: usize) -> Option<Path> {
        let goal = self.goal_open(grid)?;
        if from >= grid.len() || grid.weight(from) == 0 {
            return None;
        }
        let mut at = self.cells.at(from);
        if from != goal && !self.verified(at.id) {
            return None;
        }
        let mut cells = vec![grid.pos(from)];
        let mut cost = 0;
        while at.cell != goal {
            let (n, c) = self.step(grid, at, self.next_dir(at.id))?;
            cost += c;
            cells.push(Pos::new(n.x, n.y));
            at = n;
            if cells.len() > grid.len() {
                return None;
            }
        }
        Some(Path { cells, cost })
    }

    fn last_expanded(&self) -> &[u32] {
        &self.expanded
    }

    fn memory_bytes(&self) -> usize {
        self.cells.bytes()
            + self.open.memory_bytes()
            + (self.starts.capacity()
                + self.pending.capacity()
                + self.expanded.capacity()
                + self.carried.capacity())
                * 4
    }

    fn set_tracing(&mut self, on: bool) {
        self.rec.set(on);
        self.tracing = on;
    }

    fn last_trace(&self) -> &Trace {
        self.rec.trace()
    }

    fn take_last_trace(&mut self) -> Trace {
        self.rec.take()
    }

    fn inspect(&self, _grid: &Grid, cell: usize) -> Option<CellInfo> {
        let s = self.on_map(cell)?;
        let d = self.next_dir(s.id);
        let state = match (Some(cell) == self.goal, NEXT_STATES.get(d as usize)) {
            (true, _) => "goal",
            (false, Some(&s)) => s,
            (false, None) => "no next",
        };
        Some(CellInfo {
            g: self.cost_to_goal(cell),
            rhs: None,
            h: Some(self.h(s)),
            key: None,
            queued: false,
            state: Some(state),
        })
    }
}
