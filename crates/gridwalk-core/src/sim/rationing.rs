//! Where a [`Simulation`](super::Simulation)'s planning stands against its budgets
//! ([`Rationing`]). The rationed replan that keeps to them is in `replan_budgeted.rs`.

use super::agents::AgentId;
use super::budget::Budget;

/// The rationing of a [`Simulation`](super::Simulation)'s planning: its budgets, and where
/// its planning stands against them (whom to serve first, who waits, what was dropped).
#[derive(Debug, Default)]
pub(super) struct Rationing {
    pub(super) budget: Budget,
    /// The goal cell whose group is served first among those not ready: the first one the
    /// last replan left pending, so that every search ends in turn.
    pub(super) cursor: usize,
    /// The agent served first by the next budgeted replan of A* or Dijkstra.
    pub(super) scratch_cursor: AgentId,
    /// Agents the last replan left waiting for their plan.
    pub(super) backlog: usize,
    /// Planners dropped to keep the memory budget, over the whole run.
    pub(super) dropped: u64,
}
