//! What a [`Simulation`](super::Simulation) reports: the work of its replans, the computes it
//! keeps for explain, and what a tick refused.

use serde::{Deserialize, Serialize};

use super::error::SimError;
use crate::cost::Cost;
use crate::grid::Pos;
use crate::stats::SearchStats;
use crate::trace::Trace;

/// One compute of one goal planner, kept for explaining it afterwards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputeRecord {
    /// Ticks completed when it ran ([`Simulation::tick_count`](super::Simulation::tick_count)
    /// then).
    pub tick: u64,
    /// The planner's goal.
    pub goal: Pos,
    /// Every step it took.
    pub trace: Trace,
    /// Its work counters.
    pub stats: SearchStats,
    /// D* Lite's `km` after it (0 for D*).
    pub km: Cost,
    /// How many walking agents the planner served.
    pub agents: usize,
    /// Its wall-clock time, in microseconds.
    pub micros: u64,
}

/// The work of one replan (or a sum of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickStats {
    /// Work of the configured planner.
    pub search: SearchStats,
    /// Wall-clock time of the planner's work, in microseconds.
    pub micros: u64,
    /// What A* from scratch expanded for the same agents (when measured).
    pub baseline_expanded: u64,
    /// What A* from scratch took, in microseconds (when measured).
    pub baseline_micros: u64,
    /// Number of replans summed here.
    pub replans: u64,
    /// Wall-clock time of the incremental planners' computes alone, in nanoseconds (a part
    /// of `micros`, for the navigate track's search-alone timer). Not serialized.
    #[serde(skip)]
    pub search_nanos: u64,
}

add_fields!(TickStats: search, micros, baseline_expanded, baseline_micros, replans, search_nanos);

/// What [`Simulation::tick`](super::Simulation::tick) did: its refused edits and its
/// planners' work. (A replay's tick, with its timeline's share, is
/// [`scenario::TickReport`](crate::scenario::TickReport).)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickOutcome {
    /// The edits refused, with why.
    pub refused: Vec<(Pos, SimError)>,
    /// The planners' work.
    pub stats: TickStats,
}
