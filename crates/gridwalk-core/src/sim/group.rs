//! A goal's group: its planner, the per-cell memo of its next moves that large groups keep,
//! and the passes that settle and move agents by it (see [`Simulation::step`]).

use super::*;

/// A goal's planner: D* Lite by its own type, so that per-agent reads are direct calls; any
/// other through the trait.
pub(super) enum Planner {
    Lite(Box<DStarLite>),
    Other(Box<dyn GoalPlanner>),
}

impl Planner {
    pub(super) fn get(&self) -> &dyn GoalPlanner {
        match self {
            Planner::Lite(p) => &**p,
            Planner::Other(p) => &**p,
        }
    }

    pub(super) fn get_mut(&mut self) -> &mut dyn GoalPlanner {
        match self {
            Planner::Lite(p) => &mut **p,
            Planner::Other(p) => &mut **p,
        }
    }
}

/// A memoised [`GoalPlanner::next_move`] of one cell, one byte: the direction of the move,
/// `(dy + 1) * 3 + (dx + 1)`, or [`NO_MOVE`], or [`UNKNOWN`]. A byte per cell keeps a goal's
/// memo in cache; the step's cost and the next cell follow from the direction and the grid.
pub(super) type Move = u8;

/// [`Move`]: not computed since the cell's neighbourhood last changed.
pub(super) const UNKNOWN: Move = u8::MAX;
/// [`Move`]: the planner has no move from the cell (the direction code of staying put).
pub(super) const NO_MOVE: Move = 4;
/// [`Move`] of a cell in a pocket without the goal, while a tracked group's agents are
/// settled: they have no path.
pub(super) const CUT: Move = 0xFB;
/// [`Simulation::moves`] of an agent that no large group settles.
pub(super) const SKIP: Move = 0xFE;
/// [`Simulation::moves`] of an agent of a large group without a memo (not D* Lite).
pub(super) const GENERIC: Move = 0xFD;
/// [`Simulation::moves`] of an agent of a tracked group that its group does not serve now
/// (on its goal, or in a pocket without it).
pub(super) const EXCLUDED: Move = 0xFC;
/// The (dx, dy) of each [`Move`] code.
pub(super) const DIRECTIONS: [(i32, i32); 9] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (0, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// [`Move`] bit: computed in this replan, after its compute (which may have changed the
/// cell's `g`).
pub(super) const FRESH: Move = 0x10;

/// A D* Lite group with at least this many walking agents memoises its next moves per cell:
/// agents of one goal walk the same cells, tick after tick.
pub(super) const MEMO_MIN_AGENTS: usize = 32;

/// A goal's planner and its recent computes.
pub(super) struct Group {
    pub(super) planner: Planner,
    /// Per cell, the planner's next move from there while nothing it reads changed: the
    /// cell's and its neighbours' `g` (a compute that expands a cell forgets the moves of its
    /// 3×3 block) and the terrain of that block (an edit forgets the same). Empty when off.
    pub(super) memo: Vec<Move>,
    /// The cells whose memo is [`FRESH`].
    pub(super) fresh: Vec<usize>,
    pub(super) history: VecDeque<ComputeRecord>,
    /// Unique per group made, so the history's eviction order can tell a goal's old group
    /// from a newer one.
    pub(super) serial: u64,
    /// Cells changed while none of the group's agents walked: told to the planner only when
    /// one walks again, so a group whose agents all arrived costs nothing per edit.
    pub(super) deferred: Vec<usize>,
    /// Per cell, how many of the agents heading to this goal stand there: kept, for a group
    /// with a memo, while ticks move its agents (see [`Simulation::tick`]), so that its
    /// starts are found among the cells, not among the agents. Empty when not kept.
    pub(super) here: Vec<u32>,
    /// The cells where `here` may be above 0, with repeats and stale ones.
    pub(super) spots: Vec<u32>,
    /// The cells of its agents in a pocket without its goal, found by
    /// [`Simulation::list_tracked_starts`]: their memo reads [`CUT`] while they are settled.
    pub(super) cut: Vec<u32>,
}

impl Group {
    /// Whether [`here`](Group::here) is kept.
    pub(super) fn tracked(&self) -> bool {
        !self.here.is_empty()
    }

    /// One more of its agents stands on `cell`.
    pub(super) fn enter(&mut self, cell: usize) {
        if let Some(h) = self.here.get_mut(cell) {
            if *h == 0 {
                self.spots.push(cell as u32);
            }
            *h += 1;
        }
    }

    /// One of its agents no longer stands on `cell`.
    pub(super) fn leave(&mut self, cell: usize) {
        if let Some(h) = self.here.get_mut(cell) {
            *h -= 1;
        }
    }

    /// Stops keeping [`here`](Group::here).
    pub(super) fn untrack(&mut self) {
        self.here = Vec::new();
        self.spots = Vec::new();
        self.cut = Vec::new();
    }
}

/// The groups (in slot order) settled late ([`Simulation::settle_late`]); `None` for the
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

/// Whether `agents` on `starts` cells are at least `share` per cell: enough that counting
/// them by cell ([`Group::here`]) costs less than reading each.
pub(super) fn crowded(agents: u32, starts: usize, share: f64) -> bool {
    agents as f64 >= share * starts as f64
}

/// Clears the [`FRESH`] bits of the moves the groups computed, once their agents are settled.
pub(super) fn unfresh<'a>(groups: impl Iterator<Item = &'a mut Group>) {
    for group in groups {
        for c in group.fresh.drain(..) {
            group.memo[c] &= !FRESH;
        }
    }
}

/// Forgets the memoised moves that cell `c` can change: those of its 3×3 block.
pub(super) fn forget_moves(memo: &mut [Move], grid: &Grid, c: usize) {
    for v in grid.affected_by(c) {
        memo[v] = UNKNOWN;
    }
}

/// The [`Move`] of `cell` in `group`, whose memo is on (a large D* Lite group), computed
/// now if unknown.
#[inline(always)]
pub(super) fn memo_move(group: &mut Group, grid: &Grid, cell: usize) -> Move {
    match group.memo[cell] {
        UNKNOWN => learn_move(group, grid, cell),
        m => m,
    }
}

/// [`memo_move`] of a cell whose move is unknown: asks the planner and memoises the answer.
#[cold]
#[inline(never)]
pub(super) fn learn_move(group: &mut Group, grid: &Grid, cell: usize) -> Move {
    let Planner::Lite(p) = &group.planner else {
        unreachable!("only D* Lite groups memoise moves");
    };
    group.fresh.push(cell);
    let m = FRESH | direction(p, grid, cell);
    group.memo[cell] = m;
    m
}

/// The direction code of D* Lite's next move from `cell`, or [`NO_MOVE`].
pub(super) fn direction(p: &DStarLite, grid: &Grid, cell: usize) -> Move {
    match p.next_move(grid, cell) {
        Some((next, _)) => {
            let w = grid.width() as usize;
            let (dx, dy) = (
                (next % w) as isize - (cell % w) as isize,
                next as isize / w as isize - (cell / w) as isize,
            );
            ((dy + 1) * 3 + dx + 1) as Move
        }
        None => NO_MOVE,
    }
}

/// An agent's [`Move`] in a large group and the summed weights of the two cells of its step
/// (0 with no step): [`Simulation::moves`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Planned {
    pub(super) m: Move,
    pub(super) weights: u8,
}

impl Planned {
    /// An agent that no large group settles.
    pub(super) const SKIP: Planned = Planned {
        m: SKIP,
        weights: 0,
    };
}

/// The group planner's cost to the goal from `cell` (D* Lite's `g`).
#[inline]
pub(super) fn group_g(group: &Group, cell: usize) -> Cost {
    match &group.planner {
        Planner::Lite(p) => p.g(cell),
        Planner::Other(p) => p.cost_to_goal(cell),
    }
}

/// What the first loop of [`Simulation::settle_and_advance`] reads.
pub(super) struct Gather<'a> {
    pub(super) places: &'a [Place],
    pub(super) slot: &'a [u32],
    pub(super) pocket: &'a [u32],
    pub(super) grid: &'a Grid,
    /// Flat offset of each [`Move`] code.
    pub(super) offsets: &'a [isize; 9],
}

impl Gather<'_> {
    /// Fills, per agent, its [`Planned`] move, its cost where the move is [`FRESH`], and its
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
            let dir = m & !FRESH;
            if dir != NO_MOVE {
                // On a plain map every cell weighs 1: no scattered reads of the step's cells.
                planned.weights = if self.grid.unweighted() {
                    2
                } else {
                    let n = cell.wrapping_add_signed(self.offsets[dir as usize]);
                    self.grid.weight(cell) + self.grid.weight(n)
                };
            }
            if m & FRESH != 0 {
                *cost = group_g(group, cell);
            }
            planned.m = m;
        }
    }
}

/// Moves agents one cell along their plans: [`Simulation::advance`]'s borrows.
pub(super) struct Mover<'a> {
    pub(super) grid: &'a Grid,
    pub(super) conn: Connectivity,
    /// The map has not changed since the replan: every planned step is legal at its cost.
    pub(super) planned: bool,
    pub(super) occupied: &'a mut [u32],
    /// The paths of the from-scratch algorithms, when there are any.
    pub(super) fresh_paths: Option<&'a mut BTreeMap<AgentId, Path>>,
    /// Agents on their goal with a wander or patrol policy.
    pub(super) arrived: &'a mut Vec<AgentId>,
}

impl Mover<'_> {
    /// Moves `a` (on `p`) to its next cell if it has one and the step is still legal.
    #[inline]
    pub(super) fn step(&mut self, a: &mut Agent, p: &mut Place) {
        a.carried = false;
        if let Some(next) = a.next.take() {
            let (from, to) = (p.cell as usize, a.next_cell as usize);
            let step = match self.planned {
                true => Some(a.step_cost),
                false => self.grid.move_cost(from, to, self.conn),
            };
            a.carried = step == Some(a.step_cost);
            if let Some(step) = step {
                self.occupied[from] -= 1;
                self.occupied[to] += 1;
                a.pos = next;
                p.cell = to as u32;
                a.remaining = a.remaining.map(|r| r.saturating_sub(step));
                if a.pos == a.goal {
                    a.status = AgentStatus::Arrived;
                    a.remaining = Some(0);
                }
                if let Some(paths) = self.fresh_paths.as_deref_mut()
                    && let Some(p) = paths.get_mut(&a.id)
                    && p.cells.len() > 1
                {
                    p.cells.remove(0);
                    p.cost = p.cost.saturating_sub(step);
                }
            }
        }
        if a.pos == a.goal && a.on_arrival != OnArrival::Stay {
            self.arrived.push(a.id);
        }
    }
}

/// The group's answer for an agent on `pos` (cell `cell`): (cost to the goal, next cell, its
/// index, the step's cost), or `None` with no path. Memoised per cell for large D* Lite groups;
/// `carried` is the agent's `g` of `cell` as of the last replan, if it knows it: unless this
/// compute changed that `g` (the memo then is [`FRESH`] or unknown), it is `g` still.
pub(super) fn next_move(
    group: &mut Group,
    grid: &Grid,
    pos: Pos,
    cell: usize,
    carried: Option<Cost>,
) -> Option<(Cost, Pos, u32, Cost)> {
    match &group.planner {
        Planner::Lite(p) => {
            let Some(memo) = group.memo.get_mut(cell) else {
                let cost = p.g(cell);
                let (next, step) = p.next_move(grid, cell)?;
                return (cost != INFINITY).then(|| (cost, grid.pos(next), next as u32, step));
            };
            if *memo == UNKNOWN {
                group.fresh.push(cell);
                *memo = FRESH | direction(p, grid, cell);
            }
            let cost = match carried {
                Some(g) if *memo & FRESH == 0 => g,
                _ => p.g(cell),
            };
            let m = *memo & !FRESH;
            if m == NO_MOVE || cost == INFINITY {
                return None;
            }
            let (dx, dy) = DIRECTIONS[m as usize];
            let next = Pos::new(pos.x.wrapping_add_signed(dx), pos.y.wrapping_add_signed(dy));
            let n = cell.wrapping_add_signed(dy as isize * grid.width() as isize + dx as isize);
            let step = step_cost(dx != 0 && dy != 0, grid.weight(cell), grid.weight(n));
            Some((cost, next, n as u32, step))
        }
        Planner::Other(p) => {
            let cost = p.cost_to_goal(cell);
            let (next, step) = p.next_move(grid, cell)?;
            (cost != INFINITY).then(|| (cost, grid.pos(next), next as u32, step))
        }
    }
}

/// The passes of large groups: their starts from the counts of agents per cell, and their
/// agents settled by the memo as they move.
impl Simulation {
    /// [`list_starts`](Self::list_starts) when every agent's group is tracked: each group's
    /// starts are the cells where its agents stand ([`Group::here`]), but its goal and cells
    /// in a pocket without it ([`Group::cut`]). Settles no agent: that waits for
    /// [`settle_and_advance`](Self::settle_and_advance).
    pub(super) fn list_tracked_starts(&mut self) {
        let groups = self.groups.len();
        self.starts.resize_with(groups, Vec::new);
        self.starts.iter_mut().for_each(Vec::clear);
        self.members.iter_mut().for_each(Vec::clear);
        self.counts.clear();
        self.counts.resize(groups, 0);
        let base = self.fresh_marks(groups);
        let (listed, pocket) = (&mut self.listed[..], &self.pocket[..]);
        for (k, (&goal, group)) in self.groups.iter_mut().enumerate() {
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
                self.starts[k].push(c);
                self.counts[k] += here[c];
            }
        }
    }

    /// Starts tracking ([`Group::here`]) the groups not tracked yet, in a tick, when every
    /// group with agents is tracked or can be: it is settled late, has a memo and at least
    /// two agents per start. Their agents are counted once here, then followed as they move.
    /// Tracking pays only when it spares the loop over the agents that lists the starts: all
    /// groups with agents are tracked, or none.
    pub(super) fn track_groups(&mut self) {
        if self.all_tracked {
            return;
        }
        let starts = self.counts.iter().zip(&self.starts);
        let all = (self.groups.iter().zip(&self.settle_late).zip(starts)).all(
            |(((&goal, g), &late), (&n, starts))| {
                self.goals[goal] == 0
                    || g.tracked()
                    || (late && !g.memo.is_empty() && crowded(n, starts.len(), 1.5))
            },
        );
        if !all {
            self.untrack_all();
            return;
        }
        let slot = &self.slot;
        let goals = &self.goals;
        let mut new: Vec<Option<&mut Group>> = (self.groups.iter_mut())
            .map(|(&goal, g)| (goals[goal] > 0 && !g.tracked()).then_some(g))
            .collect();
        for g in new.iter_mut().flatten() {
            g.here = vec![0; self.grid.len()];
        }
        for p in self.agents.hot() {
            if let Some(Some(g)) = new.get_mut(slot[p.goal as usize] as usize) {
                g.enter(p.cell as usize);
            }
        }
        self.tracking = true;
    }

    /// Stops tracking every group.
    pub(super) fn untrack_all(&mut self) {
        if std::mem::take(&mut self.tracking) {
            self.groups.values_mut().for_each(Group::untrack);
        }
    }

    /// Whether every tracked group's counts match its agents (for debug assertions).
    pub(super) fn trackers_agree(&self) -> bool {
        self.groups
            .iter()
            .filter(|(_, g)| g.tracked())
            .all(|(&goal, g)| {
                let mut here = vec![0; self.grid.len()];
                for p in self.agents.hot().iter().filter(|p| p.goal as usize == goal) {
                    here[p.cell as usize] += 1;
                }
                let spots: std::collections::HashSet<u32> = g.spots.iter().copied().collect();
                here == g.here
                    && (0..here.len()).all(|c| here[c] == 0 || spots.contains(&(c as u32)))
            })
    }

    /// Settles the walking agents of the groups with at least [`MEMO_MIN_AGENTS`] of them, in
    /// agent order: the agents are read once, front to back, while the groups' memos stay
    /// in cache. Then the moves computed here are no longer [`FRESH`].
    pub(super) fn settle_large_groups(&mut self) {
        let mut large = large_groups(&mut self.groups, &self.settle_late);
        let (agents, places) = self.agents.as_mut_slices();
        for ((a, p), &k) in agents.iter_mut().zip(places).zip(&self.member_slot) {
            if let Some(Some(group)) = large.get_mut(k as usize) {
                Self::settle_member(a, p.cell, group, &self.grid);
            }
        }
        unfresh(large.into_iter().flatten());
    }

    /// Settles walking agent `a`, on `cell`, by its `group`'s answer for the cell.
    #[inline]
    pub(super) fn settle_member(a: &mut Agent, cell: u32, group: &mut Group, grid: &Grid) {
        let (pos, cell) = (a.pos, cell as usize);
        let carried = a.remaining.filter(|_| a.carried);
        Self::settle(a, || next_move(group, grid, pos, cell, carried));
    }

    /// [`advance`](Self::advance) right after a replan that left the agents of large groups
    /// unsettled ([`replan_deferring`](Self::replan_deferring)): each is settled by its memo
    /// and moved at once, so that the agents are read once per tick, not twice.
    pub(super) fn settle_and_advance(&mut self) {
        debug_assert!(self.changed.is_empty() && self.fresh_paths.is_empty());
        // Marks to list each tracked group's starts once below.
        let base = self.fresh_marks(self.groups.len());
        let grid = &self.grid;
        let mut large = large_groups(&mut self.groups, &self.settle_late);
        let n = self.agents.len();
        self.moves.clear();
        self.moves.resize(n, Planned::SKIP);
        self.costs.resize(n, INFINITY);
        self.member_slot.resize(n, NO_SLOT);
        // First every member's memoised move, its step's weights, and its cost where its
        // planner may have changed it: in a loop of its own, so that these scattered reads of
        // many agents overlap. With every group tracked, the members are found here.
        let width = grid.width() as isize;
        let offsets = DIRECTIONS.map(|(dx, dy)| dy as isize * width + dx as isize);
        if self.all_tracked {
            for group in large.iter_mut().flatten() {
                for &c in &group.cut {
                    group.memo[c as usize] = CUT;
                }
            }
        }
        let gather = Gather {
            places: self.agents.hot(),
            slot: &self.slot,
            pocket: &self.pocket,
            grid,
            offsets: &offsets,
        };
        let out = (
            &mut self.moves[..],
            &mut self.costs[..],
            &mut self.member_slot[..],
        );
        match self.all_tracked {
            true => gather.run::<true>(out, &mut large),
            false => gather.run::<false>(out, &mut large),
        }
        // A tracked group's agents on a start all take its move: the counts of cells move
        // once per start, not once per agent (all leave, then all enter).
        for (k, (group, starts)) in large.iter_mut().zip(&self.starts).enumerate() {
            let Some(group) = group.as_deref_mut().filter(|g| g.tracked()) else {
                continue;
            };
            let mark = base + k as u32;
            self.shifts.clear();
            for &c in starts {
                if std::mem::replace(&mut self.listed[c], mark) == mark {
                    continue;
                }
                // Its agents looked its move up above.
                let dir = group.memo[c] & !FRESH;
                debug_assert!((dir as usize) < DIRECTIONS.len());
                if dir != NO_MOVE {
                    let n = c.wrapping_add_signed(offsets[dir as usize]);
                    self.shifts.push((c as u32, n as u32, group.here[c]));
                }
            }
            for &(c, _, count) in &self.shifts {
                group.here[c as usize] -= count;
                self.occupied[c as usize] -= count;
            }
            for &(_, n, count) in &self.shifts {
                // Listed even if already there: the next listing drops repeats.
                group.spots.push(n);
                group.here[n as usize] += count;
                self.occupied[n as usize] += count;
            }
        }
        self.arrived.clear();
        let mut mover = Mover {
            grid,
            conn: self.config.connectivity,
            planned: true,
            occupied: &mut self.occupied,
            fresh_paths: None,
            arrived: &mut self.arrived,
        };
        let (agents, places) = self.agents.as_mut_slices();
        let members = agents.iter_mut().zip(places).zip(&self.moves);
        for (i, (((a, p), &planned), &k)) in members.zip(&self.member_slot).enumerate() {
            let m = planned.m;
            match m {
                SKIP => {}
                EXCLUDED => Self::settle(a, || None),
                GENERIC => {
                    if let Some(Some(group)) = large.get_mut(k as usize) {
                        Self::settle_member(a, p.cell, group, grid);
                    }
                }
                _ => {
                    // As `settle_member` then `Mover::step` would: a member walks (it is not
                    // on its goal) and, the map unchanged since the replan, takes its step.
                    let cell = p.cell as usize;
                    let group = large.get_mut(k as usize).and_then(Option::as_deref_mut);
                    let cost = match (m & FRESH != 0, a.carried, a.remaining) {
                        (true, _, _) => self.costs[i],
                        (false, true, Some(g)) => g,
                        _ => group.as_deref().map_or(INFINITY, |g| group_g(g, cell)),
                    };
                    let tracked = group.as_deref().is_some_and(Group::tracked);
                    let dir = m & !FRESH;
                    if dir == NO_MOVE || cost == INFINITY {
                        if dir != NO_MOVE
                            && tracked
                            && let Some(group) = group
                        {
                            // Counted as moving with its start: it stays after all.
                            let n = cell.wrapping_add_signed(offsets[dir as usize]);
                            group.leave(n);
                            group.enter(cell);
                            mover.occupied[n] -= 1;
                            mover.occupied[cell] += 1;
                        }
                        a.status = AgentStatus::NoPath;
                        a.remaining = None;
                        a.next = None;
                        a.carried = false;
                        continue;
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
                        mover.occupied[cell] -= 1;
                        mover.occupied[n] += 1;
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
                    continue;
                }
            }
            mover.step(a, p);
        }
        unfresh(large.iter_mut().flatten().map(|g| &mut **g));
        if self.all_tracked {
            for group in large.iter_mut().flatten() {
                for &c in &group.cut {
                    group.memo[c as usize] = UNKNOWN;
                }
            }
        }
        // Counting by cell pays while agents share cells: once a group spreads out, none is
        // tracked.
        let groups = large.iter().zip(&self.counts).zip(&self.starts);
        let spread = groups.into_iter().any(|((group, &n), starts)| {
            group.as_deref().is_some_and(Group::tracked) && !crowded(n, starts.len(), 1.25)
        });
        if spread {
            self.groups.values_mut().for_each(Group::untrack);
            self.tracking = false;
        }
        self.after_moves();
    }
}
