//! The history part of a [`Simulation`](super::Simulation): what it keeps of the planners' work for
//! explaining it afterwards. The recent computes of every planner (in its [`Group`], within one
//! memory budget for all), and with tracing on every search run of the last replan.
//!
//! Invariants: `bytes` is the sum of [`record_bytes`] over every group's kept computes, and
//! at most `budget` after a replan; `order` lists (goal, group serial) of every kept compute,
//! oldest first, among entries of computes already forgotten, which are skipped; it is
//! rebuilt without them once longer than `rebuild_at`. Planners record their computes
//! exactly while [`History::planners_trace`].

use std::collections::{BTreeMap, VecDeque};

use super::agents::AgentId;
use super::group::Group;
use super::report::ComputeRecord;
use crate::grid::Pos;
use crate::trace::Trace;

/// Whose search a recorded run was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunSource {
    /// The shared planner of this goal (D* Lite, D*).
    Goal(Pos),
    /// A from-scratch search from this agent's cell (A*, Dijkstra).
    Agent(AgentId),
}

/// One search run during a replan, recorded when
/// [`Simulation::set_tracing`](super::Simulation::set_tracing) is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchRun {
    /// Whose search.
    pub source: RunSource,
    /// What it did.
    pub trace: Trace,
}

/// The most memory the kept computes of all planners hold together after a replan, unless
/// [`Simulation::set_history_budget`](super::Simulation::set_history_budget) says otherwise;
/// the oldest are forgotten first.
pub const HISTORY_BUDGET: usize = 64 << 20;

/// Bytes a kept compute holds.
pub(super) fn record_bytes(r: &ComputeRecord) -> usize {
    std::mem::size_of::<ComputeRecord>()
        + r.trace.initial_open.capacity() * std::mem::size_of::<u32>()
        + r.trace.steps.capacity() * std::mem::size_of::<crate::trace::Step>()
}

/// Kept computes, tracing and the runs of the last replan.
#[derive(Debug)]
pub(super) struct History {
    /// Computes kept per planner (0: none).
    pub(super) keep: usize,
    /// Bytes the kept computes hold, at most `budget` after a replan.
    pub(super) bytes: usize,
    pub(super) budget: usize,
    /// (goal cell, group serial) of each kept compute, oldest first: whose to forget first
    /// when over budget. Entries of computes already forgotten are skipped.
    pub(super) order: VecDeque<(usize, u64)>,
    /// `order`'s length past which it is rebuilt without its forgotten entries.
    pub(super) rebuild_at: usize,
    /// Whether every search run of a replan is recorded into `runs`.
    pub(super) tracing: bool,
    pub(super) runs: Vec<SearchRun>,
    /// The steps `runs` hold together.
    pub(super) run_steps: usize,
    /// Whether a run of the last replan was left out of `runs` ([`MAX_RUN_STEPS`]).
    pub(super) runs_cut: bool,
}

impl Default for History {
    fn default() -> Self {
        History {
            keep: 0,
            bytes: 0,
            budget: HISTORY_BUDGET,
            order: VecDeque::new(),
            rebuild_at: 1024,
            tracing: false,
            runs: Vec::new(),
            run_steps: 0,
            runs_cut: false,
        }
    }
}

/// The most steps the search runs of one replan hold together
/// ([`Simulation::last_runs`](super::Simulation::last_runs)): 2^26, a GiB at 16 bytes a step. A
/// replan of thousands of long searches takes more; it then keeps the runs that fit and says the
/// record is cut ([`Simulation::runs_complete`](super::Simulation::runs_complete)).
pub const MAX_RUN_STEPS: usize = 1 << 26;

impl History {
    /// Forgets the last replan's runs.
    pub(super) fn clear_runs(&mut self) {
        self.runs.clear();
        self.run_steps = 0;
        self.runs_cut = false;
    }

    /// Records a run of this replan, unless its trace was cut or the runs would pass
    /// [`MAX_RUN_STEPS`]: then the record is marked cut instead.
    pub(super) fn push_run(&mut self, source: RunSource, trace: &Trace) {
        let steps = self.run_steps + trace.steps.len();
        if trace.truncated || steps > MAX_RUN_STEPS || self.runs_cut {
            self.runs_cut = true;
            return;
        }
        self.run_steps = steps;
        self.runs.push(SearchRun {
            source,
            trace: trace.clone(),
        });
    }

    /// Whether planners record their computes: for the kept computes or for tracing.
    pub(super) fn planners_trace(&self) -> bool {
        self.keep > 0 || self.tracing
    }

    /// Keeps `record`, a compute of `group` (toward goal cell `goal`), forgetting the group's
    /// oldest when it holds [`keep`](Self::keep) already.
    pub(super) fn push(&mut self, group: &mut Group, goal: usize, record: ComputeRecord) {
        if group.history.len() >= self.keep
            && let Some(old) = group.history.pop_front()
        {
            self.bytes -= record_bytes(&old);
        }
        self.bytes += record_bytes(&record);
        group.history.push_back(record);
        self.order.push_back((goal, group.serial));
    }

    /// A group is dropped with its kept computes.
    pub(super) fn forget(&mut self, group: &Group) {
        self.bytes -= group.history.iter().map(record_bytes).sum::<usize>();
    }

    /// Counts the bytes of every kept compute again.
    pub(super) fn recount(&mut self, groups: &BTreeMap<usize, Group>) {
        self.bytes = groups
            .values()
            .flat_map(|g| g.history.iter())
            .map(record_bytes)
            .sum();
    }

    /// Forgets the oldest kept computes, whichever planner they belong to, until the rest
    /// fit in the budget ([`HISTORY_BUDGET`] by default): with thousands of planners, 32
    /// computes each would hold gigabytes.
    pub(super) fn trim(&mut self, groups: &mut BTreeMap<usize, Group>) {
        while self.bytes > self.budget {
            let Some((goal, serial)) = self.order.pop_front() else {
                break;
            };
            if let Some(group) = groups.get_mut(&goal)
                && group.serial == serial
                && let Some(old) = group.history.pop_front()
            {
                self.bytes -= record_bytes(&old);
            }
        }
        // Entries of computes forgotten otherwise (a full history, a dropped planner) are
        // left behind: rebuilt from the kept computes each time the list doubles, so the
        // rebuild costs O(1) per compute kept.
        if self.order.len() > self.rebuild_at {
            let mut order: Vec<(u64, usize, u64)> = groups
                .iter()
                .flat_map(|(&goal, g)| g.history.iter().map(move |r| (r.tick, goal, g.serial)))
                .collect();
            order.sort_unstable();
            self.order = order.into_iter().map(|(_, g, s)| (g, s)).collect();
            self.rebuild_at = 2 * self.order.len() + 1024;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::planner::{Algorithm, PlannerPool};
    use crate::stats::SearchStats;
    use crate::{Connectivity, Heuristic};

    fn group(serial: u64) -> Group {
        let grid = Grid::new(4, 4).unwrap();
        let (conn, h) = (Connectivity::Eight, Heuristic::Octile);
        let planner = PlannerPool::default()
            .make(Algorithm::DStarLite, &grid, Pos::new(0, 0), conn, h)
            .unwrap();
        Group::new(planner, serial)
    }

    fn record(tick: u64) -> ComputeRecord {
        ComputeRecord {
            tick,
            goal: Pos::new(0, 0),
            trace: Trace::default(),
            stats: SearchStats::default(),
            km: 0,
            agents: 1,
            micros: 0,
        }
    }

    #[test]
    fn the_oldest_computes_go_first_over_budget() {
        let mut h = History {
            keep: 3,
            ..History::default()
        };
        let mut groups = BTreeMap::from([(0, group(1)), (5, group(2))]);
        for tick in 0..4 {
            for (&goal, g) in groups.iter_mut() {
                h.push(g, goal, record(tick));
            }
        }
        assert!(
            groups.values().all(|g| g.history.len() == 3),
            "at most `keep` per group"
        );
        let one = record_bytes(&record(0));
        assert_eq!(h.bytes, 6 * one);
        h.budget = 4 * one;
        h.trim(&mut groups);
        assert_eq!(h.bytes, 4 * one);
        let ticks = |g: &Group| g.history.iter().map(|r| r.tick).collect::<Vec<_>>();
        assert_eq!(
            (ticks(&groups[&0]), ticks(&groups[&5])),
            (vec![2, 3], vec![2, 3])
        );
        h.forget(&groups[&0]);
        assert_eq!(h.bytes, 2 * one);
        h.recount(&groups);
        assert_eq!(h.bytes, 4 * one);
    }

    #[test]
    fn a_dropped_group_s_entries_are_skipped_and_rebuilt_away() {
        let mut h = History {
            keep: 1,
            rebuild_at: 4,
            ..History::default()
        };
        let mut groups = BTreeMap::from([(0, group(1))]);
        for tick in 0..6 {
            let g = groups.get_mut(&0).unwrap();
            h.push(g, 0, record(tick));
        }
        // A newer group on the same goal: the old entries name serial 1 and are skipped.
        groups.insert(0, group(2));
        h.trim(&mut groups);
        assert_eq!(h.order.len(), 0, "rebuilt from the kept computes: none");
        assert!(!h.planners_trace() || h.keep > 0);
    }

    #[test]
    fn a_replans_runs_stop_at_their_limit_and_say_so() {
        use crate::trace::Step;
        let mut h = History::default();
        let at = RunSource::Goal(Pos::new(1, 2));
        let mut small = Trace::default();
        small.push(Step::Open(3));
        h.push_run(at, &small);
        assert_eq!((h.runs.len(), h.runs_cut), (1, false));
        let cut = Trace {
            truncated: true,
            ..Trace::default()
        };
        h.push_run(at, &cut);
        h.push_run(at, &small);
        assert_eq!((h.runs.len(), h.runs_cut), (1, true), "none after a cut");
        h.clear_runs();
        assert_eq!((h.runs.len(), h.run_steps, h.runs_cut), (0, 0, false));
        // Past the limit by steps: the run that would cross it is left out.
        h.run_steps = MAX_RUN_STEPS;
        h.push_run(at, &small);
        assert!(h.runs.is_empty() && h.runs_cut);
    }
}
