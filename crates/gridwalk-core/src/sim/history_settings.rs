//! The settings and queries of the planners' history, what a [`Simulation`] keeps of its
//! planners' work for explain: kept computes and tracing (see
//! [`History`](super::history::History)).

use std::collections::VecDeque;

use super::Simulation;
use super::agents::AgentId;
use super::history::SearchRun;
use super::report::ComputeRecord;

/// Kept computes and tracing: the settings and what they kept.
impl Simulation {
    /// Keeps the last `computes` computes that expanded any cell, per planner, for hold at most
    /// [`HISTORY_BUDGET`](super::HISTORY_BUDGET) bytes after a replan: past it, the oldest go
    /// first. Keeping history costs time: off by default.
    pub fn set_history(&mut self, computes: usize) {
        self.history.keep = computes;
        let on = self.history.planners_trace();
        for g in self.groups.by_goal.values_mut() {
            g.planner.get_mut().set_tracing(on);
            while g.history.len() > computes {
                g.history.pop_front();
            }
        }
        self.history.recount(&self.groups.by_goal);
    }

    /// Sets how many bytes all kept computes may hold together
    /// ([`HISTORY_BUDGET`](super::HISTORY_BUDGET) unless set); the oldest are forgotten at the next
    /// replan.
    pub fn set_history_budget(&mut self, bytes: usize) {
        self.history.budget = bytes;
    }

    /// Bytes the kept computes hold now.
    pub fn history_bytes(&self) -> usize {
        self.history.bytes
    }

    /// Records every search run of each replan, for [`last_runs`](Self::last_runs).
    pub fn set_tracing(&mut self, on: bool) {
        self.history.tracing = on;
        let on = self.history.planners_trace();
        for g in self.groups.by_goal.values_mut() {
            g.planner.get_mut().set_tracing(on);
        }
        if !self.history.tracing {
            self.history.clear_runs();
        }
    }

    /// The search runs of the last replan, in the order they ran (with tracing on); when
    /// [`runs_complete`](Self::runs_complete) is false, only those that fit in
    /// [`MAX_RUN_STEPS`](super::MAX_RUN_STEPS).
    pub fn last_runs(&self) -> &[SearchRun] {
        &self.history.runs
    }

    /// Whether [`last_runs`](Self::last_runs) holds every run of the last replan, each whole.
    pub fn runs_complete(&self) -> bool {
        !self.history.runs_cut
    }

    /// The recent computes of the planner serving agent `id`, oldest first (with
    /// [`set_history`](Self::set_history) on and an incremental algorithm).
    pub fn history(&self, id: AgentId) -> Option<&VecDeque<ComputeRecord>> {
        Some(&self.group_of(id)?.history)
    }
}
