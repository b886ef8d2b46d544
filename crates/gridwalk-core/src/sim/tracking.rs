//! Tracking large groups: while the agents of every group with agents crowd onto few cells,
//! each group counts its agents per cell ([`Group::here`]) and follows them as they move, so
//! that a replan lists a group's starts from its cells instead of reading every agent.
//! Tracking pays only when it spares that loop over the agents: all groups with agents are
//! tracked, or none.

use super::Simulation;
use super::group::{Group, crowded};

/// Tracking: the starts of large groups from their counts of agents per cell.
impl Simulation {
    /// [`list_starts`](Self::list_starts) when every agent's group is tracked: each group's
    /// starts are the cells where its agents stand ([`Group::here`]), but its goal and cells
    /// in a pocket without it ([`Group::cut`]). Settles no agent: that waits for
    /// [`settle_and_advance`](Self::settle_and_advance).
    pub(super) fn list_tracked_starts(&mut self) {
        let groups = self.groups.by_goal.len();
        self.groups.scratch.starts.resize_with(groups, Vec::new);
        self.groups.scratch.starts.iter_mut().for_each(Vec::clear);
        self.groups.scratch.members.iter_mut().for_each(Vec::clear);
        self.groups.scratch.counts.clear();
        self.groups.scratch.counts.resize(groups, 0);
        let base = self.groups.marks.new_range(self.grid.len(), groups);
        let (listed, pocket) = (&mut self.groups.marks.listed[..], &self.pockets.pocket[..]);
        for (k, (&goal, group)) in self.groups.by_goal.iter_mut().enumerate() {
            let mark = base + k as u32;
            let here = &group.here;
            group.spots.retain(|&c| {
                here[c as usize] > 0 && std::mem::replace(&mut listed[c as usize], mark) != mark
            });
            group.cut.clear();
            for &c in &group.spots {
                let c = c as usize;
                if c == goal {
                    continue;
                }
                if pocket[c] != pocket[goal] {
                    group.cut.push(c as u32);
                    continue;
                }
                self.groups.scratch.starts[k].push(c);
                self.groups.scratch.counts[k] += here[c];
            }
        }
    }

    /// Starts tracking ([`Group::here`]) the groups not tracked yet, in a tick, when every
    /// group with agents is tracked or can be: it is settled late, has a memo and at least
    /// two agents per start. Their agents are counted once here, then followed as they move.
    /// Tracking pays only when it spares the loop over the agents that lists the starts: all
    /// groups with agents are tracked, or none.
    pub(super) fn track_groups(&mut self) {
        if self.groups.all_tracked {
            return;
        }
        let starts = self
            .groups
            .scratch
            .counts
            .iter()
            .zip(&self.groups.scratch.starts);
        let all = (self
            .groups
            .by_goal
            .iter()
            .zip(&self.groups.scratch.settle_late)
            .zip(starts))
        .all(|(((&goal, g), &late), (&n, starts))| {
            self.agents.goals[goal] == 0
                || g.tracked()
                || (late && !g.memo.is_empty() && crowded(n, starts.len(), 1.5))
        });
        if !all {
            self.groups.untrack_all();
            return;
        }
        let slot = &self.groups.slot;
        let goals = &self.agents.goals;
        let mut new: Vec<Option<&mut Group>> = (self.groups.by_goal.iter_mut())
            .map(|(&goal, g)| (goals[goal] > 0 && !g.tracked()).then_some(g))
            .collect();
        for g in new.iter_mut().flatten() {
            g.here = vec![0; self.grid.len()];
        }
        for p in self.agents.slab.hot() {
            if let Some(Some(g)) = new.get_mut(slot[p.goal as usize] as usize) {
                g.enter(p.cell as usize);
            }
        }
        self.groups.tracking = true;
    }

    /// Whether every tracked group's counts match its agents (for debug assertions).
    pub(super) fn trackers_agree(&self) -> bool {
        self.groups
            .by_goal
            .iter()
            .filter(|(_, g)| g.tracked())
            .all(|(&goal, g)| {
                let mut here = vec![0; self.grid.len()];
                for p in self
                    .agents
                    .slab
                    .hot()
                    .iter()
                    .filter(|p| p.goal as usize == goal)
                {
                    here[p.cell as usize] += 1;
                }
                let spots: std::collections::HashSet<u32> = g.spots.iter().copied().collect();
                here == g.here
                    && (0..here.len()).all(|c| here[c] == 0 || spots.contains(&(c as u32)))
            })
    }
}
