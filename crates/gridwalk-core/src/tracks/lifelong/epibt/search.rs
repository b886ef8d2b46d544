//! One step of [`Epibt`](super::Epibt): every robot's operations laid out in the reservation
//! table and ranked ([`Layout`], read-only once made), and the robots' choices over them
//! ([`Search`], the reservations and the score).

use std::time::Instant;

use crate::crowd::{Action, NONE, Operation, RotationGuidance};
use crate::grid::Grid;
use crate::rng::{Draw, Rng, SplitMix64};

use super::super::State;
use super::{MAX_CHAIN, Stalls};

/// How a choice ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ret {
    /// The chain found room: keep it.
    Accepted,
    /// This robot found nothing: its chooser tries its next operation.
    Failed,
    /// Out of time, or the refining's score fell: undo the whole chain.
    Rejected,
}

/// Whom an operation meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Meets {
    Nobody,
    One(usize),
    Many,
}

/// The step's operations laid out over the grid and ranked, per robot; read-only while the
/// robots choose.
#[derive(Default)]
pub(super) struct Layout<const D: usize> {
    /// Operations a robot, and the grid's cells.
    m: usize,
    cells: usize,
    /// Per robot × operation and timestep 1 to `D`: the slots of the reservation table it
    /// takes, its cell's and the edge's it crosses (its cell's again when it does not move;
    /// `NONE` first: not possible; see [`slot`](Self::slot)); and the rank's cost.
    slots: Vec<[[u32; 2]; D]>,
    cost: Vec<i64>,
    /// Per robot: its possible operations, best first (`m` slots each), and how many.
    prefs: Vec<u16>,
    npref: Vec<u16>,
    /// Per robot: its priority (lower goes first; `u64::MAX` without a goal) and its power.
    prio: Vec<u64>,
    power: Vec<f64>,
}

/// What one operation does, walked from a robot's state.
struct Walk {
    /// The state it ends in, and the timestep it first stands on the goal, if it does.
    end: (u32, u8),
    reached: Option<i64>,
    /// The guidance's costs summed along it (the ranking's tie-break, in `epibt`'s module
    /// doc), and its actions that are not waits.
    along: i64,
    busy: i64,
}

/// The undirected edge between neighbours `a` and `b` of a grid `width` wide.
fn edge(a: u32, b: u32, width: u32) -> u32 {
    let lo = a.min(b);
    if a.abs_diff(b) == width {
        2 * lo + 1
    } else {
        2 * lo
    }
}

impl<const D: usize> Layout<D> {
    /// Lays out every robot's operations over `grid` and ranks them under `g`.
    pub(super) fn rank<G: RotationGuidance>(
        &mut self,
        grid: &Grid,
        ops: &[Operation<D>],
        states: &[State],
        goals: &[Option<u32>],
        g: &G,
        rng: &mut SplitMix64,
    ) {
        let (n, m) = (states.len(), ops.len());
        self.m = m;
        self.cells = grid.len();
        self.slots.clear();
        self.slots.resize(n * m, [[NONE; 2]; D]);
        self.cost.clear();
        self.cost.resize(n * m, i64::MAX);
        self.prefs.clear();
        self.prefs.resize(n * m, 0);
        self.npref.clear();
        self.npref.resize(n, 0);
        let unit = g.action() as i64;
        let mut keyed: Vec<(i64, i64, u32, u16)> = Vec::with_capacity(m);
        for (r, (s, goal)) in states.iter().zip(goals).enumerate() {
            let h = |c: u32, f: u8| g.cost(r, c, f).min(i64::MAX as u64 / 4) as i64;
            keyed.clear();
            for (o, op) in ops.iter().enumerate() {
                let i = r * m + o;
                let Some(walk) = self.lay_out(grid, i, op, s, *goal, &h) else {
                    continue;
                };
                let cost = match (goal, walk.reached) {
                    (None, _) => walk.busy,
                    (Some(_), Some(t)) => t * unit,
                    (Some(_), None) => h(walk.end.0, walk.end.1).saturating_add(D as i64 * unit),
                };
                self.cost[i] = cost;
                keyed.push((cost, walk.along, rng.next_u32(), o as u16));
            }
            keyed.sort_unstable();
            for (k, &(_, _, _, o)) in keyed.iter().enumerate() {
                self.prefs[r * m + k] = o;
            }
            self.npref[r] = keyed.len() as u16;
        }
    }

    /// Lays out operation `op` of a robot in state `s` at index `i`, or `None` if it leaves
    /// the free cells.
    fn lay_out(
        &mut self,
        grid: &Grid,
        i: usize,
        op: &Operation<D>,
        s: &State,
        goal: Option<u32>,
        h: &impl Fn(u32, u8) -> i64,
    ) -> Option<Walk> {
        let w = grid.width();
        let mut at = (s.cell, s.facing);
        let (mut reached, mut along, mut busy) = (None, 0i64, 0i64);
        for (d, act) in op.iter().enumerate() {
            let Some(next) = act.apply(grid, at) else {
                self.slots[i][0][0] = NONE;
                return None;
            };
            let vertex = self.slot(next.0 as usize, d);
            let crossed = if next.0 != at.0 {
                self.slot(self.cells + edge(at.0, next.0, w) as usize, d)
            } else {
                vertex
            };
            self.slots[i][d] = [vertex, crossed];
            if *act != Action::Wait {
                busy += 1;
            }
            at = next;
            if goal.is_some() {
                along = along.saturating_add(h(at.0, at.1));
                if reached.is_none() && Some(at.0) == goal {
                    reached = Some(d as i64 + 1);
                }
            }
        }
        Some(Walk {
            end: at,
            reached,
            along,
            busy,
        })
    }

    /// Gives each robot its priority (see [`Stalls::priority`]) from its cost to its goal
    /// under `g`.
    pub(super) fn prioritise<G: RotationGuidance>(
        &mut self,
        states: &[State],
        goals: &[Option<u32>],
        g: &G,
        stalls: &Stalls,
    ) {
        self.prio.clear();
        for (r, (s, goal)) in states.iter().zip(goals).enumerate() {
            let cost = goal.map(|_| g.cost(r, s.cell, s.facing).min(i64::MAX as u64 / 4));
            self.prio.push(stalls.priority(r, cost));
        }
    }

    /// Powers from priorities (lower goes first), raised to `exponent`, and the order of the
    /// pass.
    pub(super) fn powers(&mut self, order: &mut Vec<u32>, exponent: f64) {
        let n = self.prio.len();
        order.clear();
        order.extend(0..n as u32);
        order.sort_by_key(|&r| (self.prio[r as usize], r));
        self.power.clear();
        self.power.resize(n, 0.0);
        for (k, &r) in order.iter().enumerate() {
            if self.prio[r as usize] != u64::MAX {
                let p = (n + 1 - k) as f64 / (n + 1) as f64;
                // Squaring exactly: `powf` may round the last bit otherwise.
                self.power[r as usize] = if exponent == 2.0 {
                    p * p
                } else {
                    p.powf(exponent)
                };
            }
        }
    }

    /// The slot of the reservation table for `key` at timestep `d + 1`: `key` is a cell, or
    /// `cells` plus an edge (two a cell).
    fn slot(&self, key: usize, d: usize) -> u32 {
        (key * D + d) as u32
    }

    /// The reservation table's length: every [`slot`](Self::slot), for each cell and each of
    /// two edges a cell.
    fn table_len(&self) -> usize {
        3 * self.cells * D
    }

    /// The index of robot `r`'s operation `o`.
    fn at_op(&self, r: usize, o: u16) -> usize {
        r * self.m + o as usize
    }
}

/// The robots' choices over a [`Layout`]: the reservations, the score, and the bookkeeping
/// of passes and chains.
pub(super) struct Search {
    /// Per robot: its operation now.
    pub(super) desire: Vec<u16>,
    /// The reservation table: per slot (see [`Layout::slots`]), the robot or `NONE`.
    held: Vec<u32>,
    /// Per robot: the pass that last asked it, how often, and whether it is in the chain.
    stamp: Vec<u32>,
    visits: Vec<u32>,
    chain: Vec<u32>,
    pass: u32,
    /// The robots' powers times their operations' gains against waiting, summed.
    score: f64,
    /// Choices made this step (the deadline is read every eighth), the revisits allowed, and
    /// the deadline.
    calls: u64,
    revisits: u32,
    deadline: Instant,
}

impl Default for Search {
    fn default() -> Search {
        Search {
            desire: Vec::new(),
            held: Vec::new(),
            stamp: Vec::new(),
            visits: Vec::new(),
            chain: Vec::new(),
            pass: 0,
            score: 0.0,
            calls: 0,
            revisits: 0,
            deadline: Instant::now(),
        }
    }
}

impl Search {
    /// A new step: no robot asked yet, choices until `deadline`.
    pub(super) fn begin(&mut self, n: usize, revisits: u32, deadline: Instant) {
        for v in [&mut self.stamp, &mut self.visits, &mut self.chain] {
            v.clear();
            v.resize(n, 0);
        }
        self.pass = 1;
        self.revisits = revisits;
        self.calls = 0;
        self.deadline = deadline;
    }

    /// Whether the deadline has passed.
    fn past_deadline(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// The pass: robots in `order` choose, each displacing only robots of lower priority.
    pub(super) fn first_pass<const D: usize>(&mut self, l: &Layout<D>, order: &[u32]) {
        for &r in order {
            let r = r as usize;
            if self.stamp[r] != self.pass {
                self.redecide(l, r, Some(l.prio[r]));
            }
        }
    }

    /// The refining: passes in random orders until `work` choices (if set) or the deadline.
    pub(super) fn refine<const D: usize>(
        &mut self,
        l: &Layout<D>,
        order: &mut [u32],
        rng: &mut SplitMix64,
        work: Option<u64>,
    ) {
        let mut tries = 0u64;
        while !order.is_empty() && !self.past_deadline() {
            self.pass += 1;
            rng.shuffle(order);
            for &r in order.iter() {
                let late = tries.is_multiple_of(16) && self.past_deadline();
                if late || work.is_some_and(|w| tries >= w) {
                    return;
                }
                let r = r as usize;
                if self.stamp[r] != self.pass {
                    self.redecide(l, r, None);
                    tries += 1;
                }
            }
        }
    }

    /// Reserves every robot's `desire` afresh; false if two meet (then nothing is held).
    pub(super) fn reserve_all<const D: usize>(&mut self, l: &Layout<D>, desire: &[u16]) -> bool {
        self.held.clear();
        self.held.resize(l.table_len(), NONE);
        self.desire.clear();
        self.desire.extend_from_slice(desire);
        self.score = 0.0;
        for (r, &d) in desire.iter().enumerate() {
            if l.slots[l.at_op(r, d)][0][0] == NONE || self.meets(l, r) != Meets::Nobody {
                return false;
            }
            self.add(l, r);
        }
        true
    }

    /// Robot `r`'s power times what its operation gains against waiting.
    fn gain<const D: usize>(&self, l: &Layout<D>, r: usize) -> f64 {
        let base = l.cost[l.at_op(r, 0)];
        let mine = l.cost[l.at_op(r, self.desire[r])];
        l.power[r] * (base.saturating_sub(mine)) as f64
    }

    /// Reserves robot `r`'s operation.
    fn add<const D: usize>(&mut self, l: &Layout<D>, r: usize) {
        self.hold(l, r, r as u32);
        self.score += self.gain(l, r);
    }

    /// Drops robot `r`'s reservation.
    fn remove<const D: usize>(&mut self, l: &Layout<D>, r: usize) {
        self.hold(l, r, NONE);
        self.score -= self.gain(l, r);
    }

    /// Marks the slots of robot `r`'s operation with `who`.
    fn hold<const D: usize>(&mut self, l: &Layout<D>, r: usize, who: u32) {
        for slot in l.slots[l.at_op(r, self.desire[r])].iter().flatten() {
            self.held[*slot as usize] = who;
        }
    }

    /// Whom robot `r`'s current `desire` meets among the reservations.
    ///
    /// Without a branch on what it reads: the holders fall as they will, and a branch on each
    /// was mispredicted so often that the scan took three quarters of a dense map's step.
    fn meets<const D: usize>(&self, l: &Layout<D>, r: usize) -> Meets {
        let (mut who, mut many) = (NONE, false);
        for slot in l.slots[l.at_op(r, self.desire[r])].iter().flatten() {
            let x = self.held[*slot as usize];
            who = if who == NONE { x } else { who };
            many |= x != NONE && x != who;
        }
        match (who, many) {
            (_, true) => Meets::Many,
            (NONE, false) => Meets::Nobody,
            (x, false) => Meets::One(x as usize),
        }
    }

    /// Whether the deadline has passed, read every eighth choice.
    fn late(&self) -> bool {
        self.calls.is_multiple_of(8) && self.past_deadline()
    }

    /// Robot `r` (its reservation dropped) chooses; `bound`: the priority a robot it
    /// displaces must be below (`None` when refining, where `floor` is the score to keep).
    fn choose<const D: usize>(
        &mut self,
        l: &Layout<D>,
        r: usize,
        bound: Option<u64>,
        floor: f64,
        depth: usize,
    ) -> Ret {
        self.calls += 1;
        if self.late() {
            return Ret::Rejected;
        }
        if self.stamp[r] != self.pass {
            self.stamp[r] = self.pass;
            self.visits[r] = 0;
        }
        self.visits[r] += 1;
        self.chain[r] = self.pass;
        let old = self.desire[r];
        for k in 0..l.npref[r] as usize {
            let o = l.prefs[r * l.m + k];
            self.desire[r] = o;
            match self.meets(l, r) {
                Meets::Many => continue,
                Meets::Nobody => {
                    self.add(l, r);
                    if bound.is_none() && self.score < floor - 1e-9 {
                        self.remove(l, r);
                        return self.undo(r, old, Ret::Rejected);
                    }
                    return Ret::Accepted;
                }
                Meets::One(x) => {
                    let busy = self.chain[x] == self.pass
                        || (self.stamp[x] == self.pass && self.visits[x] >= self.revisits);
                    let senior = bound.is_some_and(|b| l.prio[x] <= b);
                    if busy || senior || depth >= MAX_CHAIN {
                        continue;
                    }
                    self.remove(l, x);
                    self.add(l, r);
                    let ret = self.choose(l, x, bound, floor, depth + 1);
                    if ret == Ret::Accepted {
                        return ret;
                    }
                    self.remove(l, r);
                    self.add(l, x);
                    if ret == Ret::Rejected {
                        return self.undo(r, old, ret);
                    }
                }
            }
        }
        self.undo(r, old, Ret::Failed)
    }

    /// Robot `r` takes back operation `old` and leaves the chain; returns `ret`.
    fn undo(&mut self, r: usize, old: u16, ret: Ret) -> Ret {
        self.desire[r] = old;
        self.chain[r] = 0;
        ret
    }

    /// Robot `r` chooses again from scratch, keeping its plan if it finds nothing.
    fn redecide<const D: usize>(&mut self, l: &Layout<D>, r: usize, bound: Option<u64>) {
        let floor = self.score;
        self.remove(l, r);
        if self.choose(l, r, bound, floor, 0) != Ret::Accepted {
            self.add(l, r);
        }
    }
}
