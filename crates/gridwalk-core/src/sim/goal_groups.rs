//! The groups part of a [`Simulation`](super::Simulation): one [`Group`] per goal with
//! walking agents (incremental algorithms only), the pool their planners come from, each
//! goal's slot in a replan, and the scratch every replan reuses.
//!
//! Invariants:
//! - `by_goal` holds a group exactly for the goal cells some agent heads to, once a replan
//!   made it (the agents' `new_goals` list the goals still without one);
//! - between a replan and the next, `slot[g]` is the rank of goal `g` in `by_goal` for every
//!   goal in `slotted` (the goals of the last replan), and [`NO_SLOT`] elsewhere;
//! - `marks.listed[c] < marks.base + 1` for every cell, so [`Marks::new_range`] hands out
//!   marks no cell holds yet;
//! - `tracking` says whether some group is tracked ([`Group::tracked`]); `all_tracked`, that
//!   every agent heads to a tracked group in this replan;
//! - `settle_pending` is set by a replan that left the agents of large groups unsettled: the
//!   next call is then `settle_and_advance`;
//! - `costs_only` is set only during crowd mode's step, whose move phase drops every planned
//!   step: its replan settles the agents' costs and looks up no next move.

use std::collections::BTreeMap;

use super::config::SimConfig;
use super::group::{Group, Planned, forget_moves};
use super::history::History;
use crate::cost::{Cost, INFINITY};
use crate::grid::{Grid, Pos};
use crate::planner::PlannerPool;

/// [`GoalGroups::slot`] of a cell that is no group's goal.
pub(super) const NO_SLOT: u32 = u32::MAX;

/// The planners by goal and what a replan needs beside them.
#[derive(Default)]
pub(super) struct GoalGroups {
    /// Incremental planners by goal cell.
    pub(super) by_goal: BTreeMap<usize, Group>,
    /// Makes the planners, and keeps dropped D* Lite planners' arrays for new goals.
    pub(super) pool: PlannerPool,
    /// The serial of the last group made.
    pub(super) next_serial: u64,
    /// Some group is tracked.
    pub(super) tracking: bool,
    /// Every agent heads to a tracked group ([`Group::here`]) in this replan: no loop over
    /// the agents lists the starts.
    pub(super) all_tracked: bool,
    /// The last replan left the agents of large groups to be settled as they move.
    pub(super) settle_pending: bool,
    /// This replan settles each walking agent's status and cost but not its next move
    /// ([`settle_cost`](super::settle::settle_cost)): crowd mode's step rule moves the agents.
    pub(super) costs_only: bool,
    /// Per cell, the group slot of the goal there during a replan; [`NO_SLOT`] elsewhere.
    pub(super) slot: Vec<u32>,
    /// The goal cells given a slot by the last replan.
    pub(super) slotted: Vec<usize>,
    /// Which group's starts listed each cell last.
    pub(super) marks: Marks,
    /// Refilled by each replan.
    pub(super) scratch: Scratch,
    /// Some group's planner may be unbuilt ([`Group::unbuilt`]).
    pub(super) unbuilt: bool,
}

/// What each replan refills, per group slot or per agent place, kept for its room.
#[derive(Default)]
pub(super) struct Scratch {
    /// Per group, in goal order, the cells of its walking agents.
    pub(super) starts: Vec<Vec<usize>>,
    /// Per group with fewer than [`MEMO_MIN_AGENTS`](super::group::MEMO_MIN_AGENTS) walking
    /// agents, their places in the slab. A group with more is settled in agent order instead.
    pub(super) members: Vec<Vec<u32>>,
    /// Scratch of the starts loop: per agent, at most, (group slot, cell).
    pub(super) firsts: Vec<(u32, u32)>,
    /// Per group, how many walking agents it serves.
    pub(super) counts: Vec<u32>,
    /// Per agent place, its group's slot if it is among the group's walking agents this
    /// replan, else [`NO_SLOT`].
    pub(super) member_slot: Vec<u32>,
    /// Per group slot, whether its walking agents are settled after all computes (in agent
    /// order) rather than right after its own.
    pub(super) settle_late: Vec<bool>,
    /// (cell, next cell, agents) of each tracked start that moves.
    pub(super) shifts: Vec<(u32, u32, u32)>,
    /// Per agent place, its memoised move and its cost where the move is learnt this replan, while
    /// settling and moving at once.
    pub(super) moves: Vec<Planned>,
    pub(super) costs: Vec<Cost>,
}

impl Scratch {
    /// Sizes the per-agent moves for `n` agents, every one skipped until gathered.
    pub(super) fn size_moves(&mut self, n: usize) {
        self.moves.clear();
        self.moves.resize(n, Planned::SKIP);
        self.costs.resize(n, INFINITY);
        self.member_slot.resize(n, NO_SLOT);
    }
}

/// Marks that tell, without clearing, whether a replan's listing of a group's starts has
/// met a cell already: each replan takes a new range of marks, one per group.
#[derive(Default)]
pub(super) struct Marks {
    /// Per cell, `base + 1 + slot` of the group whose starts listed it last.
    pub(super) listed: Vec<u32>,
    /// The last mark handed out.
    base: u32,
}

impl Marks {
    /// A new range of `groups` marks in `listed` (on a map of `cells` cells), returned as
    /// its base: `base + slot`.
    pub(super) fn new_range(&mut self, cells: usize, groups: usize) -> u32 {
        if self.listed.len() != cells || self.base.checked_add(groups as u32 + 1).is_none() {
            self.listed = vec![0; cells];
            self.base = 0;
        }
        let base = self.base + 1;
        self.base += groups as u32;
        base
    }
}

impl GoalGroups {
    /// A new group toward `goal`, its planner tracing when `trace`. D* Lite reuses a dropped
    /// planner's arrays when the pool has one.
    pub(super) fn make(
        &mut self,
        grid: &Grid,
        config: &SimConfig,
        goal: Pos,
        trace: bool,
    ) -> Option<Group> {
        let (conn, h) = (config.connectivity, config.heuristic);
        let mut planner = (self.pool)
            .make(config.algorithm, grid, goal, conn, h)
            .ok()?;
        planner.get_mut().set_tracing(trace);
        self.next_serial += 1;
        Some(Group::new(planner, self.next_serial))
    }

    /// A new group toward goal cell `goal` whose planner is built at its first compute.
    pub(super) fn make_unbuilt(&mut self, goal: usize) -> Group {
        self.next_serial += 1;
        self.unbuilt = true;
        Group::unbuilt(goal, self.next_serial)
    }

    /// Drops the group of goal cell `g` if no agent heads there any more (`goals` agents do).
    pub(super) fn drop_if_unused(&mut self, g: usize, goals: u32, history: &mut History) {
        if goals == 0
            && let Some(group) = self.by_goal.remove(&g)
        {
            self.recycle(group, history);
        }
    }

    /// Forgets a dropped group's kept computes and keeps its planner for the pool.
    fn recycle(&mut self, group: Group, history: &mut History) {
        history.forget(&group);
        self.pool.recycle(group.planner);
    }

    /// Drops every group, keeping some planners for the pool.
    pub(super) fn drop_all(&mut self, history: &mut History) {
        for (_, group) in std::mem::take(&mut self.by_goal) {
            self.recycle(group, history);
        }
    }

    /// Gives every group its slot, its rank in goal order, clearing the last replan's; a
    /// group's memo forgets the moves that the `changed` cells of `grid` can change.
    #[inline]
    pub(super) fn assign_slots(&mut self, grid: &Grid, changed: &[usize]) {
        let cells = grid.len();
        if self.slot.len() != cells {
            self.slot = vec![NO_SLOT; cells];
        }
        // Slots stay set until the next replan: settling after it reads them.
        for &goal in &self.slotted {
            self.slot[goal] = NO_SLOT;
        }
        self.slotted.clear();
        self.slotted.extend(self.by_goal.keys());
        for (k, (&goal, group)) in self.by_goal.iter_mut().enumerate() {
            self.slot[goal] = k as u32;
            // An edit changes the moves of its 3×3 block.
            if !group.memo.is_empty() {
                for &c in changed {
                    forget_moves(&mut group.memo, grid, c);
                }
            }
        }
    }

    /// Stops tracking every group.
    pub(super) fn untrack_all(&mut self) {
        if std::mem::take(&mut self.tracking) {
            self.by_goal.values_mut().for_each(Group::untrack);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::Algorithm;

    #[test]
    fn marks_are_new_until_they_wrap() {
        let mut groups = GoalGroups::default();
        let a = groups.marks.new_range(10, 3);
        let b = groups.marks.new_range(10, 3);
        assert_eq!((a, b), (1, 4), "each range starts past the last");
        groups.marks.listed[2] = b + 2;
        groups.marks.base = u32::MAX - 1;
        assert_eq!(
            groups.marks.new_range(10, 3),
            1,
            "wrapped: the marks start over"
        );
        assert!(groups.marks.listed.iter().all(|&m| m == 0));
    }

    #[test]
    fn slots_follow_goal_order_and_groups_go_to_the_pool() {
        let grid = Grid::new(6, 6).unwrap();
        let config = SimConfig::default();
        assert_eq!(config.algorithm, Algorithm::DStarLite);
        let mut groups = GoalGroups {
            pool: PlannerPool::tiled(),
            ..GoalGroups::default()
        };
        let mut history = History::default();
        for g in [30, 4, 17] {
            let group = groups.make(&grid, &config, grid.pos(g), false).unwrap();
            groups.by_goal.insert(g, group);
        }
        groups.assign_slots(&grid, &[]);
        assert_eq!(
            (groups.slot[4], groups.slot[17], groups.slot[30]),
            (0, 1, 2)
        );
        groups.drop_if_unused(17, 1, &mut history);
        assert_eq!(groups.by_goal.len(), 3, "17 still has an agent");
        groups.drop_if_unused(17, 0, &mut history);
        assert_eq!((groups.by_goal.len(), groups.pool.len()), (2, 1));
        groups.assign_slots(&grid, &[]);
        assert_eq!(
            (groups.slot[4], groups.slot[17], groups.slot[30]),
            (0, NO_SLOT, 1)
        );
        groups.drop_all(&mut history);
        assert_eq!((groups.by_goal.len(), groups.pool.len()), (0, 3));
        assert_eq!(groups.next_serial, 3);
    }
}
