//! The move phase of a tick: every agent with a path moves one cell along it. Right after a
//! replan that deferred them, the agents of large groups are settled by their group's memo
//! and moved in the same pass ([`Simulation::settle_and_advance`]), so the agents are read
//! once per tick, not twice; a tracked group's counts of agents per cell move once per
//! start, not once per agent.

use std::collections::BTreeMap;

use super::Simulation;
use super::agents::{Agent, AgentCells, AgentId, AgentStatus, Occupancy, settle};
use super::from_scratch::Paths;
use super::goal_groups::Scratch;
use super::group::{
    CUT, DIRECTIONS, EXCLUDED, GENERIC, Group, LEARNT, Move, NO_MOVE, Planned, SKIP, UNKNOWN,
    clear_learnt, crowded, group_g, memo_move, next_move,
};
use super::living::OnArrival;
use crate::cost::{Cost, DIAGONAL, INFINITY, STRAIGHT};
use crate::grid::{Connectivity, Grid, Pos};

/// The groups (in slot order) settled late ([`Scratch::settle_late`]); `None` for the
/// others.
pub(super) fn large_groups<'a>(
    groups: &'a mut BTreeMap<usize, Group>,
    late: &[bool],
) -> Vec<Option<&'a mut Group>> {
    groups
        .values_mut()
        .zip(late)
        .map(|(g, &late)| late.then_some(g))
        .collect()
}

/// What the first loop of [`Simulation::settle_and_advance`] reads.
pub(super) struct SettleBorrows<'a> {
    pub(super) places: &'a [AgentCells],
    pub(super) slot: &'a [u32],
    pub(super) pocket: &'a [u32],
    pub(super) grid: &'a Grid,
    /// Flat offset of each [`Move`] code.
    pub(super) offsets: &'a [isize; 9],
}

impl SettleBorrows<'_> {
    /// Fills, per agent, its [`Planned`] move, its cost where the move is [`LEARNT`], and its
    /// group's slot: found here when `ALL` groups are tracked, else already there.
    #[inline(always)]
    pub(super) fn run<const ALL: bool>(
        &self,
        (moves, costs, member_slot): (&mut [Planned], &mut [Cost], &mut [u32]),
        large: &mut [Option<&mut Group>],
    ) {
        let agents = moves.iter_mut().zip(costs).zip(member_slot);
        for (((planned, cost), k), p) in agents.zip(self.places) {
            let cell = p.cell as usize;
            if ALL {
                let goal = p.goal as usize;
                *k = self.slot[goal];
                if cell == goal {
                    planned.m = EXCLUDED;
                    continue;
                }
            }
            let Some(Some(group)) = large.get_mut(*k as usize) else {
                continue;
            };
            if group.memo.is_empty() {
                // (A group that dropped its memo in this replan: no longer tracked.)
                let apart = ALL && self.pocket[cell] != self.pocket[p.goal as usize];
                planned.m = if apart { EXCLUDED } else { GENERIC };
                continue;
            }
            let m = memo_move(group, self.grid, cell);
            if ALL && m == CUT {
                planned.m = EXCLUDED;
                continue;
            }
            let dir = m & !LEARNT;
            if dir != NO_MOVE {
                // On a plain map every cell weighs 1: no scattered reads of the step's cells.
                planned.weights = if self.grid.unweighted() {
                    2
                } else {
                    let n = cell.wrapping_add_signed(self.offsets[dir as usize]);
                    self.grid.weight(cell) + self.grid.weight(n)
                };
            }
            if m & LEARNT != 0 {
                *cost = group_g(group, cell);
            }
            planned.m = m;
        }
    }
}

/// Moves agents one cell along their plans: [`Simulation::advance`]'s borrows.
pub(super) struct AdvanceBorrows<'a> {
    pub(super) grid: &'a Grid,
    pub(super) conn: Connectivity,
    /// The map has not changed since the replan: every planned step is legal at its cost.
    pub(super) planned: bool,
    pub(super) occupied: &'a mut Occupancy,
    /// The paths of the from-scratch algorithms, when there are any.
    pub(super) kept_paths: Option<&'a mut Paths>,
    /// Agents on their goal with a wander or patrol policy.
    pub(super) arrived: &'a mut Vec<AgentId>,
}

impl AdvanceBorrows<'_> {
    /// Moves `a` (on `p`) to its next cell if it has one and the step is still legal.
    #[inline]
    pub(super) fn step(&mut self, a: &mut Agent, p: &mut AgentCells) {
        a.carried = false;
        if let Some(next) = a.next.take() {
            let (from, to) = (p.cell as usize, a.next_cell as usize);
            let step = match self.planned {
                true => Some(a.step_cost),
                false => self.grid.move_cost(from, to, self.conn),
            };
            a.carried = step == Some(a.step_cost);
            if let Some(step) = step {
                self.occupied.shift(from, to, 1);
                a.pos = next;
                p.cell = to as u32;
                a.remaining = a.remaining.map(|r| r.saturating_sub(step));
                if a.pos == a.goal {
                    a.status = AgentStatus::Arrived;
                    a.remaining = Some(0);
                }
                if let Some(paths) = self.kept_paths.as_deref_mut() {
                    paths.advance(&a.id, step);
                }
            }
        }
        if a.pos == a.goal && a.on_arrival != OnArrival::Stay {
            self.arrived.push(a.id);
        }
    }
}

/// Settles walking agent `a`, on `cell`, by its `group`'s answer for the cell.
#[inline]
pub(super) fn settle_member(a: &mut Agent, cell: u32, group: &mut Group, grid: &Grid) {
    let (pos, cell) = (a.pos, cell as usize);
    let carried = a.remaining.filter(|_| a.carried);
    settle(a, || next_move(group, grid, pos, cell, carried));
}

/// Settles walking agent `a`, on `cell`, by its `group`'s cost to the goal alone: its status
/// and remaining cost are [`settle_member`]'s, but it gets no next move. For crowd mode's step,
/// whose step rule reads only costs and moves every agent itself.
#[inline]
pub(super) fn settle_cost(a: &mut Agent, cell: u32, group: &Group) {
    let (pos, cost) = (a.pos, group_g(group, cell as usize));
    settle(a, || (cost != INFINITY).then_some((cost, pos, cell, 0)));
    a.next = None;
}

/// The passes of large groups: settled in agent order, and settled as they move.
impl Simulation {
    /// Moves every agent that has a path one cell along it, then lets arrived agents follow
    /// their policy and the dynamic world act. A planned step that is no longer legal (the map
    /// changed since the replan) is not taken: the agent waits for the next replan.
    pub fn advance(&mut self) {
        if self.crowd.is_some() {
            return self.crowd_advance();
        }
        // Agents moved one by one are not followed by the groups' counts.
        self.groups.untrack_all();
        self.agents.arrived.clear();
        let mut mover = AdvanceBorrows {
            // Moves are checked on the true map.
            grid: self.knowledge.truth(&self.grid),
            conn: self.config.connectivity,
            // Unless the map changed since the replan, every planned step is legal at its cost.
            planned: self.changed.is_empty(),
            occupied: &mut self.agents.occupied,
            kept_paths: (!self.from_scratch.paths.is_empty())
                .then_some(&mut self.from_scratch.paths),
            arrived: &mut self.agents.arrived,
        };
        let (agents, places) = self.agents.slab.as_mut_slices();
        for (a, p) in agents.iter_mut().zip(places) {
            mover.step(a, p);
        }
        self.after_moves();
    }

    /// Settles the walking agents of the groups with at least
    /// [`MEMO_MIN_AGENTS`](super::group::MEMO_MIN_AGENTS) of them, in agent order: the agents
    /// are read once, front to back, while the groups' memos stay in cache. Then the moves
    /// computed here are no longer [`LEARNT`].
    pub(super) fn settle_large_groups(&mut self) {
        let scratch = &self.groups.scratch;
        let mut large = large_groups(&mut self.groups.by_goal, &scratch.settle_late);
        let (agents, places) = self.agents.slab.as_mut_slices();
        let costs_only = self.groups.costs_only;
        for ((a, p), &k) in agents.iter_mut().zip(places).zip(&scratch.member_slot) {
            match large.get_mut(k as usize) {
                Some(Some(group)) if costs_only => settle_cost(a, p.cell, group),
                Some(Some(group)) => settle_member(a, p.cell, group, &self.grid),
                _ => {}
            }
        }
        clear_learnt(large.into_iter().flatten());
    }

    /// [`advance`](Self::advance) right after a replan that left the agents of large groups
    /// unsettled ([`replan_deferring`](Self::replan_deferring)): each is settled by its memo
    /// and moved at once, so that the agents are read once per tick, not twice.
    pub(super) fn settle_and_advance(&mut self) {
        debug_assert!(self.changed.is_empty() && self.from_scratch.paths.is_empty());
        // Marks to list each tracked group's starts once below.
        let base = (self.groups.marks).new_range(self.grid.len(), self.groups.by_goal.len());
        let grid = &self.grid;
        let groups = &mut self.groups;
        let all_tracked = groups.all_tracked;
        let mut large = large_groups(&mut groups.by_goal, &groups.scratch.settle_late);
        let scratch = &mut groups.scratch;
        scratch.size_moves(self.agents.slab.len());
        // First every member's memoised move, its step's weights, and its cost where its
        // planner may have changed it: in a loop of its own, so that these scattered reads of
        // many agents overlap. With every group tracked, the members are found here.
        let width = grid.width() as isize;
        let offsets = DIRECTIONS.map(|(dx, dy)| dy as isize * width + dx as isize);
        if all_tracked {
            mark_cut(&mut large, CUT);
        }
        let gather = SettleBorrows {
            places: self.agents.slab.hot(),
            slot: &groups.slot,
            pocket: &self.pockets.pocket,
            grid,
            offsets: &offsets,
        };
        let out = (
            &mut scratch.moves[..],
            &mut scratch.costs[..],
            &mut scratch.member_slot[..],
        );
        match all_tracked {
            true => gather.run::<true>(out, &mut large),
            false => gather.run::<false>(out, &mut large),
        }
        let occupied = &mut self.agents.occupied;
        shift_tracked_starts(
            &mut large,
            scratch,
            &mut groups.marks.listed,
            occupied,
            base,
            &offsets,
        );
        self.agents.arrived.clear();
        let mut mover = AdvanceBorrows {
            grid,
            conn: self.config.connectivity,
            planned: true,
            occupied,
            kept_paths: None,
            arrived: &mut self.agents.arrived,
        };
        let (agents, places) = self.agents.slab.as_mut_slices();
        let members = agents.iter_mut().zip(places).zip(&scratch.moves);
        for (i, (((a, p), &planned), &k)) in members.zip(&scratch.member_slot).enumerate() {
            match planned.m {
                SKIP => {}
                EXCLUDED => settle(a, || None),
                GENERIC => {
                    if let Some(Some(group)) = large.get_mut(k as usize) {
                        settle_member(a, p.cell, group, grid);
                    }
                }
                _ => {
                    let group = large.get_mut(k as usize).and_then(Option::as_deref_mut);
                    let learnt_cost = scratch.costs[i];
                    take_memo_move(a, p, planned, learnt_cost, group, &offsets, &mut mover);
                    continue;
                }
            }
            mover.step(a, p);
        }
        if after_large_moves(&mut large, scratch, all_tracked) {
            groups.by_goal.values_mut().for_each(Group::untrack);
            groups.tracking = false;
        }
        self.after_moves();
    }

    /// The end of [`advance`](Self::advance), once the agents moved.
    pub(super) fn after_moves(&mut self) {
        self.arrivals();
        self.dynamic_world();
        self.tick += 1;
    }
}

/// After the large groups' agents moved: their moves learnt now are no longer [`LEARNT`], and
/// their cut cells' moves unknown again. Returns whether some tracked group spread out:
/// counting by cell pays while agents share cells; once a group spreads out, none is tracked.
fn after_large_moves(large: &mut [Option<&mut Group>], scratch: &Scratch, all: bool) -> bool {
    clear_learnt(large.iter_mut().flatten().map(|g| &mut **g));
    if all {
        mark_cut(large, UNKNOWN);
    }
    let sizes = large.iter().zip(&scratch.counts).zip(&scratch.starts);
    sizes.into_iter().any(|((group, &n), starts)| {
        group.as_deref().is_some_and(Group::tracked) && !crowded(n, starts.len(), 1.25)
    })
}

/// Sets the memo of every large group's cells in a pocket without its goal ([`Group::cut`])
/// to `m`: [`CUT`] while its agents are settled, [`UNKNOWN`] after.
fn mark_cut(large: &mut [Option<&mut Group>], m: Move) {
    for group in large.iter_mut().flatten() {
        for &c in &group.cut {
            group.memo[c as usize] = m;
        }
    }
}

/// A tracked group's agents on a start all take its move: the counts of cells move once per
/// start, not once per agent (all leave, then all enter).
#[inline(always)]
fn shift_tracked_starts(
    large: &mut [Option<&mut Group>],
    scratch: &mut Scratch,
    listed: &mut [u32],
    occupied: &mut Occupancy,
    base: u32,
    offsets: &[isize; 9],
) {
    for (k, (group, starts)) in large.iter_mut().zip(&scratch.starts).enumerate() {
        let Some(group) = group.as_deref_mut().filter(|g| g.tracked()) else {
            continue;
        };
        let mark = base + k as u32;
        scratch.shifts.clear();
        for &c in starts {
            if std::mem::replace(&mut listed[c], mark) == mark {
                continue;
            }
            // Its agents looked its move up above.
            let dir = group.memo[c] & !LEARNT;
            debug_assert!((dir as usize) < DIRECTIONS.len());
            if dir != NO_MOVE {
                let n = c.wrapping_add_signed(offsets[dir as usize]);
                scratch.shifts.push((c as u32, n as u32, group.here[c]));
            }
        }
        for &(c, _, count) in &scratch.shifts {
            group.here[c as usize] -= count;
        }
        for &(c, n, count) in &scratch.shifts {
            // Listed even if already there: the next listing drops repeats.
            group.spots.push(n);
            group.here[n as usize] += count;
            occupied.shift(c as usize, n as usize, count);
        }
    }
}

/// Settles member `a` (on `p`) of `group` by its memoised move `planned` and takes the step at
/// once, as `settle_member` then [`AdvanceBorrows::step`] would: a member walks (it is not on its
/// goal) and, the map unchanged since the replan, takes its step. `learnt_cost` is its cost where
/// the move is [`LEARNT`].
#[inline(always)]
fn take_memo_move(
    a: &mut Agent,
    p: &mut AgentCells,
    planned: Planned,
    learnt_cost: Cost,
    group: Option<&mut Group>,
    offsets: &[isize; 9],
    mover: &mut AdvanceBorrows,
) {
    let m = planned.m;
    let cell = p.cell as usize;
    let cost = match (m & LEARNT != 0, a.carried, a.remaining) {
        (true, _, _) => learnt_cost,
        (false, true, Some(g)) => g,
        _ => group.as_deref().map_or(INFINITY, |g| group_g(g, cell)),
    };
    let tracked = group.as_deref().is_some_and(Group::tracked);
    let dir = m & !LEARNT;
    if dir == NO_MOVE || cost == INFINITY {
        if dir != NO_MOVE
            && tracked
            && let Some(group) = group
        {
            // Counted as moving with its start: it stays after all.
            let n = cell.wrapping_add_signed(offsets[dir as usize]);
            group.leave(n);
            group.enter(cell);
            mover.occupied.shift(n, cell, 1);
        }
        a.status = AgentStatus::NoPath;
        a.remaining = None;
        a.next = None;
        a.carried = false;
        return;
    }
    let (dx, dy) = DIRECTIONS[dir as usize];
    let n = cell.wrapping_add_signed(offsets[dir as usize]);
    let unit = if dx != 0 && dy != 0 {
        DIAGONAL
    } else {
        STRAIGHT
    };
    let step = unit * planned.weights as Cost;
    a.pos = Pos::new(
        a.pos.x.wrapping_add_signed(dx),
        a.pos.y.wrapping_add_signed(dy),
    );
    if !tracked {
        mover.occupied.shift(cell, n, 1);
    }
    p.cell = n as u32;
    a.next = None;
    a.next_cell = n as u32;
    a.step_cost = step;
    a.carried = true;
    if n as u32 == p.goal {
        a.status = AgentStatus::Arrived;
        a.remaining = Some(0);
        if a.on_arrival != OnArrival::Stay {
            mover.arrived.push(a.id);
        }
    } else {
        a.status = AgentStatus::Walking;
        a.remaining = Some(cost.saturating_sub(step));
    }
}

#[cfg(test)]
mod tests {
    use crate::grid::{Grid, Pos, Terrain};
    use crate::sim::{SimConfig, Simulation};

    /// What the agents show, tick by tick.
    fn seen(sim: &Simulation) -> Vec<(Pos, &'static str, Option<i64>)> {
        (sim.agents())
            .map(|a| (a.pos, a.status.name(), a.remaining.map(|r| r as i64)))
            .collect()
    }

    #[test]
    fn settling_as_they_move_equals_settling_then_moving() {
        let mut grid = Grid::new(24, 16).unwrap();
        for y in 2..14 {
            grid.set(Pos::new(12, y), Terrain::Wall).unwrap();
        }
        let mut one = Simulation::new(grid.clone(), SimConfig::default());
        let mut two = Simulation::new(grid, SimConfig::default());
        // Two crowds (memo and tracking on), and a few walkers alone.
        for i in 0..105 {
            let (start, goal) = match i % 3 {
                0 => (Pos::new(i % 4, i % 16), Pos::new(23, 8)),
                1 => (Pos::new(i % 5, 15 - i % 16), Pos::new(20, 1)),
                _ => (Pos::new(6, i % 16), Pos::new(13 + i % 8, i % 16)),
            };
            one.add_agent(start, goal).unwrap();
            two.add_agent(start, goal).unwrap();
        }
        for t in 0..40 {
            if t == 10 {
                for sim in [&mut one, &mut two] {
                    let _ = sim.edit(Pos::new(12, 14), Terrain::Wall);
                }
            }
            one.step();
            two.replan();
            two.advance();
            assert_eq!(seen(&one), seen(&two), "tick {t}");
        }
        assert!(one.agents().all(|a| a.pos == a.goal), "all arrived");
    }
}
