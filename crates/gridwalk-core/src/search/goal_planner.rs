//! The interface every incremental planner implements ([`GoalPlanner`]), and a planner's
//! view of one cell ([`CellInfo`]). It sits beside the searches that implement it, below
//! [`crate::planner`], which re-exports it with the menu and the factory that builds them.
//!
//! A planner serves one goal and every agent heading to it. It keeps its own arrays and never
//! borrows the grid: each call receives the grid, and [`GoalPlanner::cells_changed`] tells it
//! which cells changed since the last call, so it can repair only what they affect.

use crate::cost::Cost;
use crate::grid::Grid;
use crate::path::Path;
use crate::stats::SearchStats;
use crate::trace::Trace;

/// An incremental planner for one goal, shared by a group of agents.
///
/// The protocol, each tick: [`set_starts`](Self::set_starts) with the agents' cells,
/// [`cells_changed`](Self::cells_changed) with the edited cells (the grid already holds the
/// new terrain), then [`compute`](Self::compute). Afterwards [`cost_to_goal`](Self::cost_to_goal),
/// [`next_step`](Self::next_step) and [`path`](Self::path) are exact for every start, and
/// `cost_to_goal` for every cell given to [`set_exact`](Self::set_exact) too.
///
/// Its methods come in three groups:
/// - the protocol: [`goal`](Self::goal), [`set_starts`](Self::set_starts),
///   [`set_exact`](Self::set_exact), [`cells_changed`](Self::cells_changed),
///   [`compute`](Self::compute) and [`compute_within`](Self::compute_within);
/// - the answers: [`cost_to_goal`](Self::cost_to_goal), [`next_move`](Self::next_move),
///   [`next_step`](Self::next_step) and [`path`](Self::path);
/// - introspection: explain ([`last_expanded`](Self::last_expanded),
///   [`set_tracing`](Self::set_tracing), [`last_trace`](Self::last_trace),
///   [`take_last_trace`](Self::take_last_trace), [`inspect`](Self::inspect),
///   [`km`](Self::km)), memory ([`memory_bytes`](Self::memory_bytes)) and prefetch
///   ([`prefetch_cost`](Self::prefetch_cost)).
///
/// They stay one trait on purpose. The simulation holds every planner as one
/// `Box<dyn GoalPlanner>` and uses all three groups on it each tick: the memory budget reads
/// `memory_bytes` of every planner, the replan records `last_expanded` and traces, and crowd
/// mode's step calls `prefetch_cost` in its hot loop. A split into a protocol trait and an
/// introspection trait would need the second as a supertrait (a trait object cannot name two
/// traits), so every planner would still implement both and every caller still see both: more
/// names, no less surface. The optional methods have defaults instead (`set_exact`,
/// `compute_within`, `prefetch_cost`, `next_step`, `take_last_trace`, `km`), so a new planner
/// implements the protocol, the answers and five short introspection methods.
pub trait GoalPlanner: Send + Sync {
    /// The goal cell's flat index.
    fn goal(&self) -> usize;

    /// The cells of the agents this planner must serve. May repeat cells.
    fn set_starts(&mut self, grid: &Grid, starts: &[usize]);

    /// Cells whose cost to the goal must be exact after every compute besides the starts:
    /// crowd mode gives the cells one move from each start, which its step rule ranks.
    /// Replaces the last list; none until called. Only the planners of the algorithms that
    /// [`honour`](crate::Algorithm::honours_exact) it do: one that searches forward from each
    /// start (MPGAA\*) could make other cells exact only by searching from each of them, so it
    /// keeps this default and ignores the list.
    fn set_exact(&mut self, grid: &Grid, cells: &[usize]) {
        let _ = (grid, cells);
    }

    /// Cells whose terrain changed since the last call.
    fn cells_changed(&mut self, grid: &Grid, cells: &[usize]);

    /// Repairs (or on the first call, computes) until the cost of every start, and of every
    /// cell given to [`set_exact`](Self::set_exact), is exact:
    /// [`compute_within`](Self::compute_within) without a limit.
    fn compute(&mut self, grid: &Grid) -> SearchStats {
        self.compute_within(grid, u64::MAX).0
    }

    /// [`compute`](Self::compute) that stops after `max_expansions` expansions: returns its
    /// work and [`Progress::Pending`] when it stopped with a start not yet exact. The next
    /// call (after any [`set_starts`](Self::set_starts) and
    /// [`cells_changed`](Self::cells_changed)) continues where it stopped, so a search spread
    /// over many calls ends exactly as one [`compute`](Self::compute) would. With
    /// `max_expansions` 0 it only says whether the starts are exact already. A planner that
    /// cannot stop early computes fully and returns [`Progress::Done`].
    fn compute_within(&mut self, grid: &Grid, max_expansions: u64) -> (SearchStats, Progress);

    /// The planner's current cost from `cell` to the goal; [`crate::cost::INFINITY`] when
    /// unknown or unreachable. Exact for the starts and the cells given to
    /// [`set_exact`](Self::set_exact) after [`compute`](Self::compute).
    fn cost_to_goal(&self, cell: usize) -> Cost;

    /// A hint that [`cost_to_goal`](Self::cost_to_goal) of `cell` will be asked soon, given
    /// in two stages for state behind an index: stage 0 well ahead (start loading the index),
    /// stage 1 nearer the read (read the index, start loading the value). Does nothing by
    /// default.
    fn prefetch_cost(&self, cell: usize, stage: u8) {
        let _ = (cell, stage);
    }

    /// The first move of an optimal path from a start and its cost, or `None` at the goal
    /// or with no path.
    fn next_move(&self, grid: &Grid, cell: usize) -> Option<(usize, Cost)>;

    /// The cell of [`next_move`](Self::next_move).
    fn next_step(&self, grid: &Grid, cell: usize) -> Option<usize> {
        self.next_move(grid, cell).map(|(next, _)| next)
    }

    /// An optimal path from a start to the goal, or `None` when there is none.
    fn path(&self, grid: &Grid, from: usize) -> Option<Path>;

    /// The cells expanded by the last [`compute`](Self::compute), in order.
    fn last_expanded(&self) -> &[u32];

    /// Bytes held by the planner's arrays and queue.
    fn memory_bytes(&self) -> usize;

    /// Records every later [`compute`](Self::compute) step by step (see [`crate::trace`]),
    /// or stops recording.
    fn set_tracing(&mut self, on: bool);

    /// The recording of the last [`compute`](Self::compute); empty when not recording.
    fn last_trace(&self) -> &Trace;

    /// Moves the recording of the last compute out, leaving [`last_trace`](Self::last_trace)
    /// empty: a caller that keeps it saves a copy, and the planner stops holding the memory
    /// of its largest recording.
    fn take_last_trace(&mut self) -> Trace {
        self.last_trace().clone()
    }

    /// What the planner holds for `cell`, for an inspector. `None` off the planner's map.
    fn inspect(&self, grid: &Grid, cell: usize) -> Option<CellInfo>;

    /// The key modifier `km` of D\* Lite; 0 for planners without one.
    fn km(&self) -> Cost {
        0
    }
}

/// Whether a [`GoalPlanner::compute_within`] finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Every start's cost is exact.
    Done,
    /// The budget ran out first; the next call continues.
    Pending,
}

/// A planner's view of one cell (see [`GoalPlanner::inspect`]). Costs are
/// [`crate::cost::INFINITY`] when infinite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellInfo {
    /// The cost to the goal the planner holds: D\* Lite's g, D\*'s h, MPGAA\*'s h where its
    /// path from the cell is known to be exact (∞ elsewhere).
    pub g: Cost,
    /// D\* Lite's one-step lookahead; `None` for D\*.
    pub rhs: Option<Cost>,
    /// The heuristic toward the agents (D\* Lite), or the learned heuristic toward the goal
    /// (MPGAA\*); `None` for D\*, which has none.
    pub h: Option<Cost>,
    /// The cell's queue key, when queued: D\* Lite's `[k1, k2]`, D\*'s `(k, h)`.
    pub key: Option<(Cost, Cost)>,
    /// Whether the cell is queued.
    pub queued: bool,
    /// D\*'s state (`new`, `open`, `closed`, with `raise` or `lower` when open); MPGAA\*'s
    /// `next` pointer (`next N` … `next NW`, `no next`, `goal`; see
    /// [`crate::search::mpgaa::next_direction`]); `None` for D\* Lite, whose state is `g`
    /// against `rhs`.
    pub state: Option<&'static str>,
}

impl CellInfo {
    /// Whether the cell is locally inconsistent (D\* Lite's g ≠ rhs).
    pub fn inconsistent(&self) -> bool {
        self.rhs.is_some_and(|rhs| rhs != self.g)
    }
}
