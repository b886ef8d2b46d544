//! The window's bookkeeping for [`WindowLns`](super::WindowLns): a reservation table of who
//! stands where at each timestep of the window ([`Reservations`]), and a space-time A\* over
//! (cell, facing, timestep) that plans one robot against it ([`SpaceTimeAstar`]).
//!
//! **A window path** is `window + 1` states, index 0 the robot's state now. Its cost toward a
//! goal is the timestep it first stands on the goal (at least 1), or, if it does not get there
//! within the window, `window` plus the exact cost to go from its last state. A robot without
//! a goal costs 0 whatever it does. Every action costs one timestep, so the exact (cell,
//! facing) tables are a consistent heuristic and A\* returns a path of least cost.
//!
//! **Conflicts** are LoRR's: no two robots on one cell at one timestep, no two swapping cells
//! between two timesteps. Following is allowed.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::crowd::{Action, NONE, RotationGuidance};

use crate::grid::Grid;

/// A robot's state: cell and facing.
pub type St = (u32, u8);

/// Who stands on each cell at each timestep of the window.
#[derive(Clone, Debug)]
pub struct Reservations {
    cells: usize,
    window: usize,
    /// `t × cells + cell`: the robot there at timestep t, or [`NONE`].
    at: Vec<u32>,
}

impl Reservations {
    /// An empty table for `cells` cells and timesteps `0..=window`.
    pub fn new(cells: usize, window: usize) -> Reservations {
        Reservations {
            cells,
            window,
            at: vec![NONE; cells * (window + 1)],
        }
    }

    /// The robot on `cell` at timestep `t`, or [`NONE`].
    #[inline]
    pub fn get(&self, t: usize, cell: u32) -> u32 {
        self.at[t * self.cells + cell as usize]
    }

    /// Marks robot `a` along `path`.
    pub fn add(&mut self, a: u32, path: &[St]) {
        for (t, &(c, _)) in path.iter().enumerate().take(self.window + 1) {
            self.at[t * self.cells + c as usize] = a;
        }
    }

    /// Unmarks robot `a` along `path` (cells another robot holds stay his).
    pub fn remove(&mut self, a: u32, path: &[St]) {
        for (t, &(c, _)) in path.iter().enumerate().take(self.window + 1) {
            let slot = &mut self.at[t * self.cells + c as usize];
            if *slot == a {
                *slot = NONE;
            }
        }
    }

    /// Whether robot `a` may step from `from` at timestep `t` to `to` at `t + 1`: `to` is
    /// nobody else's at `t + 1`, and nobody steps from `to` to `from` meanwhile.
    #[inline]
    pub fn free(&self, a: u32, t: usize, from: u32, to: u32) -> bool {
        let there = self.get(t + 1, to);
        if there != NONE && there != a {
            return false;
        }
        if from != to {
            let b = self.get(t, to);
            if b != NONE && b != a && self.get(t + 1, from) == b {
                return false;
            }
        }
        true
    }

    /// Unmarks every robot.
    pub fn clear(&mut self) {
        self.at.fill(NONE);
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.at.capacity() * 4
    }
}

/// A robot's guidance over the window: its cost to go from a state, and what each action
/// costs (one by default: every timestep alike). The cost to go must be consistent with the
/// action costs (no action lowers it by more than it costs).
pub trait WindowGuidance: RotationGuidance + Sync {
    /// What `act` costs from state `s`.
    fn action_cost(&self, s: St, act: Action) -> u64 {
        let _ = (s, act);
        1
    }
}

impl WindowGuidance for crate::mapf::ToGoals<'_> {}

impl<F: Fn(usize, u32, u8) -> u64 + Sync> WindowGuidance for F {}

/// How much a timestep weighs against the distances summed along a path (see
/// [`path_cost`]).
pub const STEP_WEIGHT: u64 = 1024;

/// The cost of `path` toward `goal` (see the module doc), times [`STEP_WEIGHT`], plus the
/// cost to go from each state along it until it arrives: of two paths that arrive or end
/// alike, the one that gets nearer sooner costs less. `u64::MAX` if the goal is out of reach
/// from its last state.
pub fn path_cost<G: WindowGuidance + ?Sized>(
    guidance: &G,
    a: usize,
    goal: Option<u32>,
    path: &[St],
) -> u64 {
    let Some(goal) = goal else {
        return 0;
    };
    let (mut along, mut spent) = (0u64, 0u64);
    for w in path.windows(2) {
        let act = action_between_states(w[0], w[1]);
        spent = spent.saturating_add(guidance.action_cost(w[0], act));
        let (c, f) = w[1];
        if c == goal {
            return spent.saturating_mul(STEP_WEIGHT).saturating_add(along);
        }
        along = along.saturating_add(guidance.cost(a, c, f));
    }
    let &(c, f) = path.last().expect("a path has a state");
    let rest = guidance.cost(a, c, f);
    rest.saturating_add(spent)
        .saturating_mul(STEP_WEIGHT)
        .saturating_add(along)
}

/// The action between two states of a path, by their cells and facings alone: a change of
/// cell is a forward move, a change of facing a turn, else a wait.
fn action_between_states(s: St, n: St) -> Action {
    if s.0 != n.0 {
        Action::Forward
    } else if n.1 == (s.1 + 1) % 4 {
        Action::Clockwise
    } else if n.1 == (s.1 + 3) % 4 {
        Action::CounterClockwise
    } else {
        Action::Wait
    }
}

/// The action that leads from `s` to `next` (a wait if it is none of them).
pub fn action_between(grid: &Grid, s: St, next: St) -> Action {
    [Action::Forward, Action::Clockwise, Action::CounterClockwise]
        .into_iter()
        .find(|a| a.apply(grid, s) == Some(next))
        .unwrap_or(Action::Wait)
}

/// A heap entry: least `f` first, then the later timestep (deeper first), then first in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Node {
    f: Reverse<u64>,
    t: u32,
    seq: Reverse<u32>,
    idx: u32,
}

/// Space-time A\* over (cell, facing, timestep, arrived) for one robot against the
/// [`Reservations`] of the others, its buffers reused.
#[derive(Clone, Debug)]
pub struct SpaceTimeAstar {
    window: usize,
    cells: usize,
    /// Per search state: the generation that last reached it.
    seen: Vec<u32>,
    closed: Vec<u32>,
    parent: Vec<u32>,
    /// Per search state: its cost so far.
    g: Vec<u64>,
    generation: u32,
    heap: BinaryHeap<Node>,
    /// Expansions a search may make before it gives up.
    pub cap: usize,
    /// Expansions made since the counter was last read.
    pub expanded: u64,
}

impl SpaceTimeAstar {
    /// A search for `grid`'s cells over timesteps `0..=window`.
    pub fn new(grid: &Grid, window: usize) -> SpaceTimeAstar {
        let cells = grid.len();
        let states = (window + 1) * cells * 8;
        SpaceTimeAstar {
            window,
            cells,
            seen: vec![0; states],
            closed: vec![0; states],
            parent: vec![NONE; states],
            g: vec![0; states],
            generation: 0,
            heap: BinaryHeap::new(),
            cap: 50_000,
            expanded: 0,
        }
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.seen.capacity() * 20 + self.heap.capacity() * std::mem::size_of::<Node>()
    }

    #[inline]
    fn index(&self, t: usize, (c, f): St, arrived: bool) -> usize {
        ((t * self.cells + c as usize) * 4 + f as usize) * 2 + arrived as usize
    }

    #[inline]
    fn decode(&self, idx: usize) -> (usize, St, bool) {
        let arrived = idx % 2 == 1;
        let s = idx / 2;
        let f = (s % 4) as u8;
        let s = s / 4;
        ((s / self.cells), ((s % self.cells) as u32, f), arrived)
    }

    /// Robot `a`'s least-cost window path from `start` toward `goal` clear of `res`, written
    /// into `out` (`window + 1` states); returns its cost ([`path_cost`]), or `None` if there
    /// is none within the expansion cap.
    #[allow(clippy::too_many_arguments)]
    pub fn search<G: WindowGuidance + ?Sized>(
        &mut self,
        grid: &Grid,
        res: &Reservations,
        guidance: &G,
        a: u32,
        start: St,
        goal: Option<u32>,
        out: &mut Vec<St>,
    ) -> Option<u64> {
        let q = Query {
            grid,
            res,
            guidance,
            a,
            goal,
        };
        let gen_ = self.begin();
        self.seed(&q, start)?;
        let mut seq = 0u32;
        let mut budget = self.cap;
        while let Some(node) = self.heap.pop() {
            let idx = node.idx as usize;
            if self.closed[idx] == gen_ {
                continue;
            }
            self.closed[idx] = gen_;
            let at = self.decode(idx);
            if at.0 == self.window {
                self.reconstruct(idx, out);
                return Some(node.f.0);
            }
            if budget == 0 {
                break;
            }
            budget -= 1;
            self.expanded += 1;
            self.expand(&q, idx, at, &mut seq);
        }
        None
    }

    /// Starts a search: a new generation (the marks cleared when it wraps) and an empty heap.
    #[inline]
    fn begin(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.fill(0);
            self.closed.fill(0);
            self.generation = 1;
        }
        self.heap.clear();
        self.generation
    }

    /// Reaches and pushes the start state; `None` if the goal is out of reach from it.
    #[inline]
    fn seed<G: WindowGuidance + ?Sized>(&mut self, q: &Query<'_, G>, start: St) -> Option<()> {
        let start_arrived = q.goal.is_none();
        let i0 = self.index(0, start, start_arrived);
        self.seen[i0] = self.generation;
        self.parent[i0] = NONE;
        self.g[i0] = 0;
        let f0 = if start_arrived {
            0
        } else {
            q.rest(start).saturating_mul(STEP_WEIGHT)
        };
        if f0 == u64::MAX {
            return None;
        }
        self.heap.push(Node {
            f: Reverse(f0),
            t: 0,
            seq: Reverse(0),
            idx: i0 as u32,
        });
        Some(())
    }

    /// Pushes each successor of search state `idx` (timestep, state, arrived: `at`) that is
    /// clear of the others and reached cheaper than before.
    #[inline]
    fn expand<G: WindowGuidance + ?Sized>(
        &mut self,
        q: &Query<'_, G>,
        idx: usize,
        (t, s, arrived): (usize, St, bool),
        seq: &mut u32,
    ) {
        let g0 = self.g[idx];
        // Once arrived, every way costs alike: staying is tried first, so that a robot
        // that has arrived waits there unless it must make way.
        let acts = if arrived { ARRIVED_ORDER } else { TRAVEL_ORDER };
        for act in acts {
            let Some(n) = act.apply(q.grid, s) else {
                continue;
            };
            if !q.res.free(q.a, t, s.0, n.0) {
                continue;
            }
            let Some((now_arrived, g1, f)) = q.successor(g0, arrived, s, act, n) else {
                continue;
            };
            let j = self.index(t + 1, n, now_arrived);
            self.relax(j, t + 1, idx, g1, f, seq);
        }
    }

    /// Reaches search state `j` at timestep `t` from `parent` at cost `g` and pushes it with
    /// priority `f`, unless it is closed or was reached as cheaply already.
    #[inline]
    fn relax(&mut self, j: usize, t: usize, parent: usize, g: u64, f: u64, seq: &mut u32) {
        let gen_ = self.generation;
        if self.closed[j] == gen_ || (self.seen[j] == gen_ && self.g[j] <= g) {
            return;
        }
        self.seen[j] = gen_;
        self.parent[j] = parent as u32;
        self.g[j] = g;
        *seq += 1;
        self.heap.push(Node {
            f: Reverse(f),
            t: t as u32,
            seq: Reverse(*seq),
            idx: j as u32,
        });
    }

    /// Writes into `out` the window path that ends at search state `idx`, by its parents.
    fn reconstruct(&self, idx: usize, out: &mut Vec<St>) {
        let h = self.window;
        out.clear();
        out.resize(h + 1, self.decode(idx).1);
        let mut i = idx;
        for k in (0..=h).rev() {
            out[k] = self.decode(i).1;
            i = self.parent[i] as usize;
        }
    }
}

/// The order actions are tried in before the robot has arrived.
const TRAVEL_ORDER: [Action; 4] = [
    Action::Forward,
    Action::Clockwise,
    Action::CounterClockwise,
    Action::Wait,
];

/// The order actions are tried in once it has arrived: staying first.
const ARRIVED_ORDER: [Action; 4] = [
    Action::Wait,
    Action::Forward,
    Action::Clockwise,
    Action::CounterClockwise,
];

/// What one search holds fixed: the map, the others' reservations, the guidance, the robot
/// and its goal.
struct Query<'a, G: ?Sized> {
    grid: &'a Grid,
    res: &'a Reservations,
    guidance: &'a G,
    a: u32,
    goal: Option<u32>,
}

impl<G: WindowGuidance + ?Sized> Query<'_, G> {
    /// The robot's cost to go from `s`.
    #[inline]
    fn rest(&self, (c, f): St) -> u64 {
        self.guidance.cost(self.a as usize, c, f)
    }

    /// Whether the robot has arrived at `n`, reached by `act` from `s` at cost so far `g0`,
    /// its cost so far there and its priority; `None` if the goal is out of reach from `n`.
    #[inline]
    fn successor(
        &self,
        g0: u64,
        arrived: bool,
        s: St,
        act: Action,
        n: St,
    ) -> Option<(bool, u64, u64)> {
        // Arrived: the cost is frozen. Arriving now: its timestep. Otherwise one more
        // timestep and the cost to go from here.
        if arrived {
            Some((true, g0, g0))
        } else if Some(n.0) == self.goal {
            let g1 = g0 + STEP_WEIGHT * self.guidance.action_cost(s, act);
            Some((true, g1, g1))
        } else {
            let r = self.rest(n);
            if r == u64::MAX {
                return None;
            }
            let g1 = g0 + STEP_WEIGHT * self.guidance.action_cost(s, act) + r;
            Some((false, g1, g1 + r * STEP_WEIGHT))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cost by cells along a 1-wide row, facings ignored.
    fn row(goal: u32) -> impl Fn(usize, u32, u8) -> u64 {
        move |_, c, _| u64::from(c.abs_diff(goal))
    }

    #[test]
    fn a_free_robot_walks_straight_to_its_goal() {
        let grid = Grid::new(6, 1).unwrap();
        let res = Reservations::new(6, 4);
        let mut st = SpaceTimeAstar::new(&grid, 4);
        let mut path = Vec::new();
        let cost = st.search(&grid, &res, &row(3), 0, (0, 0), Some(3), &mut path);
        // Three timesteps, and the cells passed were 2 and 1 away.
        assert_eq!(cost, Some(3 * STEP_WEIGHT + 2 + 1));
        assert_eq!(cost, Some(path_cost(&row(3), 0, Some(3), &path)));
        assert_eq!(path[..4], [(0, 0), (1, 0), (2, 0), (3, 0)]);
        // Out of reach within the window: the window plus what is left.
        let cost = st.search(&grid, &res, &row(5), 0, (0, 0), Some(5), &mut path);
        assert_eq!(cost, Some(5 * STEP_WEIGHT + 4 + 3 + 2 + 1));
        assert_eq!(path[4], (4, 0));
    }

    #[test]
    fn a_robot_waits_behind_one_that_holds_the_way_and_never_swaps() {
        let grid = Grid::new(6, 1).unwrap();
        let mut res = Reservations::new(6, 4);
        // Robot 1 stands on cell 2 for two timesteps, then leaves eastward.
        res.add(1, &[(2, 0), (2, 0), (2, 0), (3, 0), (4, 0)]);
        let mut st = SpaceTimeAstar::new(&grid, 4);
        let mut path = Vec::new();
        let cost = st.search(&grid, &res, &row(4), 0, (1, 0), Some(4), &mut path);
        // Following is allowed: into 2 at timestep 3, 3 at 4 (robot 1 is on 4 then).
        assert_eq!(cost.map(|c| c / STEP_WEIGHT), Some(5));
        assert_eq!(path[3], (2, 0));
        // A robot coming the other way may not swap with robot 2 on cell 3.
        let mut res = Reservations::new(6, 4);
        res.add(2, &[(3, 2), (2, 2), (1, 2), (0, 2), (0, 2)]);
        let found = st.search(&grid, &res, &row(5), 0, (2, 0), Some(5), &mut path);
        assert_eq!(found, None);
    }

    #[test]
    fn reaching_the_goal_costs_its_timestep_and_the_rest_is_free() {
        let grid = Grid::new(4, 1).unwrap();
        let res = Reservations::new(4, 5);
        let mut st = SpaceTimeAstar::new(&grid, 5);
        let mut path = Vec::new();
        let cost = st.search(&grid, &res, &row(1), 0, (0, 2), Some(1), &mut path);
        // Facing west: two turns, then one forward.
        assert_eq!(cost, Some(3 * STEP_WEIGHT + 1 + 1));
        assert_eq!(path[3].0, 1);
        assert_eq!(path_cost(&row(1), 0, Some(1), &path), cost.unwrap());
        assert_eq!(path_cost(&row(1), 0, None, &path), 0);
    }
}
