//! A goal's group: its planner, its kept computes, and the per-cell memo of its next moves
//! that large groups keep, with the reads that settle agents by it.
//!
//! Invariants of a [`Group`]:
//! - `memo` is empty (off) or has one [`Move`] per cell; a cell's move is [`UNKNOWN`] or is
//!   what the planner's `next_move` answers now: every compute forgets the moves of the 3×3
//!   blocks of the cells it expanded, every edit those of its block;
//! - `learnt` lists the cells whose memo has the [`LEARNT`] bit, cleared once agents are settled;
//! - `here` is empty (untracked) or counts, per cell, the group's agents there; `spots` then
//!   holds every cell where `here` is above 0 (with repeats and stale ones);
//! - `deferred` holds the cells changed while none of its agents walked, for its next compute.

use std::collections::VecDeque;

use super::placeholder::PlaceholderPlanner;
use super::report::ComputeRecord;
use crate::cost::{Cost, INFINITY, step_cost};
use crate::grid::{Grid, Pos};
use crate::planner::{GoalPlanner, Planner};
use crate::queue::IndexedHeap;
use crate::search::Store;
use crate::search::dstar_lite::{DStarLite, Key};
use crate::trace::Trace;

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
/// `Scratch::moves` of an agent that no large group settles.
pub(super) const SKIP: Move = 0xFE;

/// An agent's [`Move`] in a large group and the summed weights of the two cells of its step
/// (0 with no step): `Scratch::moves`.
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
/// `Scratch::moves` of an agent of a large group without a memo (not D* Lite).
pub(super) const GENERIC: Move = 0xFD;
/// `Scratch::moves` of an agent of a tracked group that its group does not serve now
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
pub(super) const LEARNT: Move = 0x10;

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
    /// The cells whose memo is [`LEARNT`].
    pub(super) learnt: Vec<usize>,
    pub(super) history: VecDeque<ComputeRecord>,
    /// Unique per group made, so the history's eviction order can tell a goal's old group
    /// from a newer one.
    pub(super) serial: u64,
    /// Cells changed while none of the group's agents walked: told to the planner only when
    /// one walks again, so a group whose agents all arrived costs nothing per edit.
    pub(super) deferred: Vec<usize>,
    /// Per cell, how many of the agents heading to this goal stand there: kept, for a group with a
    /// memo, while ticks move its agents (see [`Simulation::tick`](super::Simulation::tick)), so
    /// that its starts are found among the cells, not among the agents. Empty when not kept.
    pub(super) here: Vec<u32>,
    /// The cells where `here` may be above 0, with repeats and stale ones.
    pub(super) spots: Vec<u32>,
    /// The cells of its agents in a pocket without its goal, found by
    /// [`Simulation::list_tracked_starts`](super::Simulation::list_tracked_starts): their memo
    /// reads [`CUT`] while they are settled.
    pub(super) cut: Vec<u32>,
    /// The tick of the last compute with walking agents: the memory budget drops the planners
    /// used least recently first.
    pub(super) last_used: u64,
    /// The planner is a [`PlaceholderPlanner`]: dropped to keep the
    /// memory budget, or not built yet; its next compute builds it.
    pub(super) unbuilt: bool,
    /// The planner's last compute finished (it did not stop on the planning budget).
    pub(super) ready: bool,
}

impl Group {
    /// A group around `planner`, with nothing memoised, kept or tracked yet.
    pub(super) fn new(planner: Planner, serial: u64) -> Group {
        Group {
            planner,
            memo: Vec::new(),
            learnt: Vec::new(),
            history: VecDeque::new(),
            serial,
            deferred: Vec::new(),
            here: Vec::new(),
            spots: Vec::new(),
            cut: Vec::new(),
            last_used: 0,
            unbuilt: false,
            ready: false,
        }
    }

    /// A group toward goal cell `goal` whose planner is not built yet.
    pub(super) fn unbuilt(goal: usize, serial: u64) -> Group {
        let planner = Planner::Other(Box::new(PlaceholderPlanner {
            goal,
            trace: Trace::default(),
        }));
        Group {
            unbuilt: true,
            ..Group::new(planner, serial)
        }
    }

    /// Bytes its planner, its per-cell memo and counts, and its deferred changes hold: what
    /// the memory budget counts.
    pub(super) fn bytes(&self) -> usize {
        self.planner.get().memory_bytes()
            + self.memo.capacity()
            + self.here.capacity() * 4
            + self.deferred.capacity() * std::mem::size_of::<usize>()
    }

    /// Drops its planner (returned, for the pool) and what it memoised, keeping its agents'
    /// counts and its kept computes: the next compute builds a planner again.
    pub(super) fn unbuild(&mut self) -> Planner {
        let goal = self.planner.get().goal();
        let old = std::mem::replace(&mut self.planner, Group::unbuilt(goal, 0).planner);
        self.unbuilt = true;
        self.ready = false;
        self.memo = Vec::new();
        self.learnt = Vec::new();
        self.deferred = Vec::new();
        self.untrack();
        old
    }

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

/// Whether `agents` on `starts` cells are at least `share` per cell: enough that counting
/// them by cell ([`Group::here`]) costs less than reading each.
pub(super) fn crowded(agents: u32, starts: usize, share: f64) -> bool {
    agents as f64 >= share * starts as f64
}

/// Clears the [`LEARNT`] bits of the moves the groups computed, once their agents are settled.
pub(super) fn clear_learnt<'a>(groups: impl Iterator<Item = &'a mut Group>) {
    for group in groups {
        for c in group.learnt.drain(..) {
            group.memo[c] &= !LEARNT;
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
    let d = match &group.planner {
        Planner::Lite(p) => direction(&**p, grid, cell),
        Planner::FlatLite(p) => direction(&**p, grid, cell),
        Planner::Other(_) => unreachable!("only D* Lite groups memoise moves"),
    };
    group.learnt.push(cell);
    let m = LEARNT | d;
    group.memo[cell] = m;
    m
}

/// D\* Lite as the simulation holds it, in store `S`.
type Lite<S> = DStarLite<IndexedHeap<Key>, false, S>;

/// The direction code of D* Lite's next move from `cell`, or [`NO_MOVE`].
pub(super) fn direction<S: Store>(p: &Lite<S>, grid: &Grid, cell: usize) -> Move {
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

/// The group planner's cost to the goal from `cell` (D* Lite's `g`).
#[inline]
pub(super) fn group_g(group: &Group, cell: usize) -> Cost {
    match &group.planner {
        Planner::Lite(p) => p.g(cell),
        Planner::FlatLite(p) => p.g(cell),
        Planner::Other(p) => p.cost_to_goal(cell),
    }
}

/// The group's answer for an agent on `pos` (cell `cell`): (cost to the goal, next cell, its
/// index, the step's cost), or `None` with no path. Memoised per cell for large D* Lite groups;
/// `carried` is the agent's `g` of `cell` as of the last replan, if it knows it: unless this
/// compute changed that `g` (the memo then is [`LEARNT`] or unknown), it is `g` still.
pub(super) fn next_move(
    group: &mut Group,
    grid: &Grid,
    pos: Pos,
    cell: usize,
    carried: Option<Cost>,
) -> Option<(Cost, Pos, u32, Cost)> {
    let memo = &mut group.memo;
    match &group.planner {
        Planner::Lite(p) => lite_next_move(p, memo, &mut group.learnt, grid, (pos, cell), carried),
        Planner::FlatLite(p) => {
            lite_next_move(p, memo, &mut group.learnt, grid, (pos, cell), carried)
        }
        Planner::Other(p) => {
            let cost = p.cost_to_goal(cell);
            let (next, step) = p.next_move(grid, cell)?;
            (cost != INFINITY).then(|| (cost, grid.pos(next), next as u32, step))
        }
    }
}

/// [`next_move`] of a D\* Lite group, in either store.
#[inline]
fn lite_next_move<S: Store>(
    p: &Lite<S>,
    memo: &mut [Move],
    learnt: &mut Vec<usize>,
    grid: &Grid,
    (pos, cell): (Pos, usize),
    carried: Option<Cost>,
) -> Option<(Cost, Pos, u32, Cost)> {
    let Some(memo) = memo.get_mut(cell) else {
        let cost = p.g(cell);
        let (next, step) = p.next_move(grid, cell)?;
        return (cost != INFINITY).then(|| (cost, grid.pos(next), next as u32, step));
    };
    if *memo == UNKNOWN {
        learnt.push(cell);
        *memo = LEARNT | direction(p, grid, cell);
    }
    let cost = match carried {
        Some(g) if *memo & LEARNT == 0 => g,
        _ => p.g(cell),
    };
    let m = *memo & !LEARNT;
    if m == NO_MOVE || cost == INFINITY {
        return None;
    }
    let (dx, dy) = DIRECTIONS[m as usize];
    let next = Pos::new(pos.x.wrapping_add_signed(dx), pos.y.wrapping_add_signed(dy));
    let n = cell.wrapping_add_signed(dy as isize * grid.width() as isize + dx as isize);
    let step = step_cost(dx != 0 && dy != 0, grid.weight(cell), grid.weight(n));
    Some((cost, next, n as u32, step))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::{Algorithm, PlannerPool};
    use crate::{Connectivity, Heuristic, Terrain};

    fn lite_group(grid: &Grid, goal: Pos) -> Group {
        let (conn, h) = (Connectivity::Eight, Heuristic::Octile);
        let p = PlannerPool::default().make(Algorithm::DStarLite, grid, goal, conn, h);
        Group::new(p.unwrap(), 1)
    }

    #[test]
    fn the_memo_answers_as_the_planner_does() {
        let mut grid = Grid::new(8, 5).unwrap();
        grid.set(Pos::new(4, 2), Terrain::Wall).unwrap();
        let goal = Pos::new(7, 2);
        let mut group = lite_group(&grid, goal);
        let starts: Vec<usize> = (0..grid.len()).filter(|&c| grid.weight(c) != 0).collect();
        let planner = group.planner.get_mut();
        planner.set_starts(&grid, &starts);
        planner.compute(&grid);
        let plain: Vec<_> = (0..grid.len())
            .map(|c| next_move(&mut group, &grid, grid.pos(c), c, None))
            .collect();
        group.memo = vec![UNKNOWN; grid.len()];
        for (c, want) in plain.iter().enumerate() {
            let m = next_move(&mut group, &grid, grid.pos(c), c, None);
            assert_eq!(&m, want, "cell {c}");
            assert_eq!(group.memo[c] & LEARNT, LEARNT, "learnt now");
            assert_eq!(memo_move(&mut group, &grid, c), group.memo[c], "memoised");
        }
        clear_learnt(std::iter::once(&mut group));
        assert!(group.learnt.is_empty() && group.memo.iter().all(|&m| m & LEARNT == 0));
        forget_moves(&mut group.memo, &grid, grid.index(Pos::new(4, 2)).unwrap());
        let unknown = group.memo.iter().filter(|&&m| m == UNKNOWN).count();
        assert_eq!(unknown, 9, "an edit forgets its 3×3 block");
    }

    #[test]
    fn tracking_counts_agents_per_cell() {
        let grid = Grid::new(4, 4).unwrap();
        let mut group = lite_group(&grid, Pos::new(0, 0));
        group.enter(3);
        assert!(
            !group.tracked() && group.spots.is_empty(),
            "untracked: nothing counted"
        );
        group.here = vec![0; grid.len()];
        group.enter(3);
        group.enter(3);
        group.leave(3);
        assert_eq!((group.here[3], group.spots.clone()), (1, vec![3]));
        group.untrack();
        assert!(!group.tracked());
        assert!(crowded(3, 2, 1.5) && !crowded(2, 2, 1.5));
    }
}
