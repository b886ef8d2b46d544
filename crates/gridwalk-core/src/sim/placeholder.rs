//! The planner of a goal whose planner was dropped to keep the memory budget, or is not built
//! yet: a placeholder that knows no cost and holds no memory.

use crate::cost::{Cost, INFINITY};
use crate::grid::Grid;
use crate::path::Path;
use crate::planner::{CellInfo, GoalPlanner, Progress};
use crate::stats::SearchStats;
use crate::trace::Trace;

/// The planner of a goal whose planner was dropped to keep the memory budget, or not built
/// yet: it knows no cost and holds no memory. Its group builds a real one before a compute.
pub(super) struct PlaceholderPlanner {
    pub(super) goal: usize,
    pub(super) trace: Trace,
}

impl GoalPlanner for PlaceholderPlanner {
    fn goal(&self) -> usize {
        self.goal
    }

    fn set_starts(&mut self, _grid: &Grid, _starts: &[usize]) {}

    fn cells_changed(&mut self, _grid: &Grid, _cells: &[usize]) {}

    fn compute_within(&mut self, _grid: &Grid, _max: u64) -> (SearchStats, Progress) {
        (SearchStats::default(), Progress::Done)
    }

    fn cost_to_goal(&self, _cell: usize) -> Cost {
        INFINITY
    }

    fn next_move(&self, _grid: &Grid, _cell: usize) -> Option<(usize, Cost)> {
        None
    }

    fn path(&self, _grid: &Grid, _from: usize) -> Option<Path> {
        None
    }

    fn last_expanded(&self) -> &[u32] {
        &[]
    }

    fn memory_bytes(&self) -> usize {
        0
    }

    fn set_tracing(&mut self, _on: bool) {}

    fn last_trace(&self) -> &Trace {
        &self.trace
    }

    fn inspect(&self, _grid: &Grid, _cell: usize) -> Option<CellInfo> {
        None
    }
}
