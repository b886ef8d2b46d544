//! [`Epibt`]: Enhanced PIBT over multi-step operations for lifelong robots, refined by LNS
//! for the rest of the step, after Yukhnevich and Andreychuk's EPIBT (the 2024 winner).
//!
//! **Operations.** The crowd's operations ([`operations`]) of `D` steps, 3 to 5, whose every
//! turn is followed by a forward move within them: 17, 48 and 136 of them. A robot either
//! waits in place or moves, and never turns where it cannot go on. With turns that lead
//! nowhere allowed, blocked robots turned to face one another and knotted
//! (docs/benchmarks.md).
//!
//! **Kept plans.** Every robot holds a reservation of its cells over the next `D`
//! timesteps: the operation it chose last step, its first action done and a wait added. At
//! the first step, and whenever a robot does not stand where its plan took it (a lost
//! step), every robot holds waiting in place. The reservations never conflict, so a robot
//! that finds nothing better keeps its plan and the joint step stays valid.
//!
//! **Ranking.** A robot's operations rank by the timestep it stands on its goal, if it gets
//! there, else `D` plus the guidance's cost from the state it ends in; ties go to the
//! one that gets nearer sooner (the sum of the costs along it), then to a draw. A robot
//! without a goal prefers to stay.
//!
//! **Guidance.** Its tables may price moves by traffic rules ([`EdgeCosts`]) and by the
//! traffic the robots make ([`Epibt::with_traffic`]).
//!
//! **Priorities.** A robot that has stood on one cell for [`EpibtConfig::stall_steps`] steps
//! ([`STALL_STEPS`] by default) goes first, the longest first; then the robot nearest its
//! goal. Nearest first alone knots: a robot far from its goal that others block keeps its
//! rank for ever. A robot's *power* is its rank's share from the back raised to
//! [`EpibtConfig::power`] (squared by default); a robot without a goal has none.
//!
//! **The pass.** In priority order a robot drops its plan and takes its best operation that
//! meets no reservation, or that meets exactly one robot's, of lower priority than the robot
//! that began the chain: that robot drops its plan and chooses the same way (the chain goes
//! on), and if it finds nothing the chooser tries its next operation. A robot may be asked
//! again at most [`EpibtConfig::revisits`] times a pass; a chain is at most [`MAX_CHAIN`]
//! deep. A robot whose chain fails keeps its plan.
//!
//! **Refining.** Then, until [`EpibtConfig::work`] choices or the step's time are spent,
//! robots in a random order choose again the same way with no priority bound, and a chain is
//! kept only if the robots' powers times their operations' gains (against waiting) do not
//! fall.
//!
//! **Cost.** Laying out and ranking the operations is O(robots × operations × `D`)
//! guidance reads; each operation's slots in the one reservation table (a cell and an edge a
//! timestep) are laid out then. A choice reads O(operations × `D`) slots a robot of its
//! chain, and the deadline bounds the chains. A choice over 5 steps costs about 13 times one
//! over 3.

use std::time::{Duration, Instant};

use crate::crowd::{Action, NONE, Operation, RotationGuidance, operations, shape};
use crate::grid::Grid;
use crate::rng::{Draw, Rng, SeedableRng, SplitMix64};

use super::planner::Planner;
use super::tables::Tables;
use super::traffic::{Traffic, TrafficConfig};
use super::weighted::EdgeCosts;
use super::{DEFAULT_PLAN_SHARE, State};

/// Steps a robot stands on one cell before it goes first, by default (see the module doc).
pub const STALL_STEPS: u32 = 5;

/// The exponent of a robot's power, by default (see the module doc).
pub const DEFAULT_POWER: f64 = 2.0;

/// The deepest chain one choice may start.
pub const MAX_CHAIN: usize = 256;

/// How [`Epibt`] spends a step.
#[derive(Clone, Copy, Debug)]
pub struct EpibtConfig {
    /// How often a robot may be asked to choose again in one pass.
    pub revisits: u32,
    /// Steps a robot stands on one cell before it goes first, before the robots nearest
    /// their goals.
    pub stall_steps: u32,
    /// The exponent of a robot's power: its rank's share from the back raised to it weighs
    /// its gains in the refining. The lower, the more the refining weighs every robot alike.
    pub power: f64,
    /// Choices the refining makes a step at most (`None`: until `plan_time`).
    pub work: Option<u64>,
    /// Time the planner takes a step, refining included.
    pub plan_time: Duration,
}

impl Default for EpibtConfig {
    fn default() -> EpibtConfig {
        EpibtConfig {
            revisits: 10,
            stall_steps: STALL_STEPS,
            power: DEFAULT_POWER,
            work: None,
            plan_time: Duration::from_secs(1).mul_f64(DEFAULT_PLAN_SHARE),
        }
    }
}

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

/// Enhanced PIBT with LNS over operations of `D` steps (see the module doc), its buffers kept
/// from step to step.
pub struct Epibt<const D: usize> {
    grid: Grid,
    tables: Tables,
    budget: usize,
    cfg: EpibtConfig,
    rng: SplitMix64,
    ops: Vec<Operation<D>>,
    /// Per operation: the index of the operation that goes on with it (its first action done
    /// and a wait added).
    next_of: Vec<u16>,
    /// Per robot: its operation, and the state its first action leads to.
    desire: Vec<u16>,
    expect: Vec<(u32, u8)>,
    s: Search<D>,
    /// Per robot: steps it has stood on its cell, and that cell.
    stalled: Vec<u32>,
    last_cell: Vec<u32>,
    /// Traffic learnt from the robots' moves, pricing the tables' moves (`None`: fixed).
    traffic: Option<Traffic>,
}

/// One step's search state.
#[derive(Default)]
struct Search<const D: usize> {
    m: usize,
    /// Per robot × operation and timestep 1 to `D`: the slots of [`held`](Self::held) it
    /// takes, its cell's and the edge's it crosses (its cell's again when it does not move;
    /// `NONE` first: not possible); and the rank's cost.
    slots: Vec<[[u32; 2]; D]>,
    cost: Vec<i64>,
    /// Per robot: its possible operations, best first (`m` slots each), and how many.
    prefs: Vec<u16>,
    npref: Vec<u16>,
    /// Per robot: its operation now, its priority (lower goes first; `u64::MAX` without a
    /// goal) and its power.
    desire: Vec<u16>,
    prio: Vec<u64>,
    power: Vec<f64>,
    /// Reservations: per cell × timestep, then per edge × timestep, the robot or `NONE`.
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
    deadline: Option<Instant>,
}

impl<const D: usize> Search<D> {
    /// A new step: no robot asked yet, choices until `deadline`.
    fn begin(&mut self, n: usize, revisits: u32, deadline: Instant) {
        for v in [&mut self.stamp, &mut self.visits, &mut self.chain] {
            v.clear();
            v.resize(n, 0);
        }
        self.pass = 1;
        self.revisits = revisits;
        self.calls = 0;
        self.deadline = Some(deadline);
    }

    /// Whether the deadline has passed.
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The pass: robots in `order` choose, each displacing only robots of lower priority.
    fn first_pass(&mut self, order: &[u32]) {
        for &r in order {
            let r = r as usize;
            if self.stamp[r] != self.pass {
                self.redecide(r, Some(self.prio[r]));
            }
        }
    }

    /// The refining: passes in random orders until `work` choices (if set) or the deadline.
    fn refine(&mut self, order: &mut [u32], rng: &mut SplitMix64, work: Option<u64>) {
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
                    self.redecide(r, None);
                    tries += 1;
                }
            }
        }
    }
}

impl<const D: usize> Epibt<D> {
    /// A planner for robots on `grid`, its tables held to about `budget` bytes, priced by
    /// `costs` if given.
    pub fn new(
        grid: &Grid,
        budget: usize,
        seed: u64,
        cfg: EpibtConfig,
        costs: Option<EdgeCosts>,
    ) -> Epibt<D> {
        const { assert!(D >= 2, "an operation spans at least two steps") };
        let mut ops = operations();
        ops.retain(moves_after_turning);
        let next_of = ops.iter().map(|op| successor(&ops, op)).collect();
        Epibt {
            grid: grid.clone(),
            tables: Tables::new(grid, costs),
            budget,
            cfg,
            rng: SplitMix64::seed_from_u64(seed),
            ops,
            next_of,
            desire: Vec::new(),
            expect: Vec::new(),
            s: Search::default(),
            stalled: Vec::new(),
            last_cell: Vec::new(),
            traffic: None,
        }
    }

    /// The same planner with its moves priced by the traffic it sees (see [`Traffic`]).
    pub fn with_traffic(mut self, cfg: TrafficConfig) -> Epibt<D> {
        self.traffic = Some(Traffic::over(&self.grid, &mut self.tables, cfg));
        self
    }

    /// Each robot's kept operation, or waiting for all when some robot is not where its plan
    /// took it.
    fn kept(&mut self, states: &[State]) {
        let n = states.len();
        let on_plan = self.desire.len() == n
            && states
                .iter()
                .zip(&self.expect)
                .all(|(s, &e)| (s.cell, s.facing) == e);
        if on_plan {
            for d in &mut self.desire {
                *d = self.next_of[*d as usize];
            }
        } else {
            self.desire.clear();
            self.desire.resize(n, 0);
        }
    }
}

/// The index in `ops` of the operation with `op`'s cells and final facing once its first
/// action is done and a wait added (`ops` holds one of each such class).
fn successor<const D: usize>(ops: &[Operation<D>], op: &Operation<D>) -> u16 {
    let mut rest = [Action::Wait; D];
    rest[..D - 1].copy_from_slice(&op[1..]);
    let want = shape(&rest);
    ops.iter().position(|o| shape(o) == want).unwrap_or(0) as u16
}

impl<const D: usize> Epibt<D> {
    /// Counts the steps each robot has stood on its cell, and puts those that have stood
    /// [`EpibtConfig::stall_steps`] or more before the others, the longest first.
    fn lift_stalled(&mut self, states: &[State]) {
        if self.stalled.len() != states.len() {
            self.stalled = vec![0; states.len()];
            self.last_cell = states.iter().map(|s| s.cell).collect();
        }
        for (r, st) in states.iter().enumerate() {
            if st.cell == self.last_cell[r] {
                self.stalled[r] = self.stalled[r].saturating_add(1);
            } else {
                self.stalled[r] = 0;
                self.last_cell[r] = st.cell;
            }
            let p = &mut self.s.prio[r];
            if *p == u64::MAX {
                continue;
            }
            // Stalled robots below 2^32, the longest first; the others above, nearest first.
            *p = match self.stalled[r] {
                k if k >= self.cfg.stall_steps => u64::from(u32::MAX - k),
                _ => (1 << 32) + (*p).min(1 << 31),
            };
        }
    }
}

/// Whether every turn of `op` is followed by a forward move within it: turning and then
/// standing still only tells the others less about where the robot goes.
fn moves_after_turning<const D: usize>(op: &Operation<D>) -> bool {
    let last_move = op.iter().rposition(|&a| a == Action::Forward);
    op.iter().enumerate().all(|(t, &a)| {
        matches!(a, Action::Forward | Action::Wait) || last_move.is_some_and(|m| m > t)
    })
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

impl<const D: usize> Search<D> {
    /// Lays out every robot's operations over `grid` and ranks them under `g`.
    fn rank<G: RotationGuidance>(
        &mut self,
        grid: &Grid,
        ops: &[Operation<D>],
        states: &[State],
        goals: &[Option<u32>],
        g: &G,
        rng: &mut SplitMix64,
    ) {
        let (n, m, w) = (states.len(), ops.len(), grid.width());
        self.m = m;
        self.slots.clear();
        self.slots.resize(n * m, [[NONE; 2]; D]);
        let cells = grid.len();
        self.cost.clear();
        self.cost.resize(n * m, i64::MAX);
        self.prefs.clear();
        self.prefs.resize(n * m, 0);
        self.npref.clear();
        self.npref.resize(n, 0);
        self.prio.clear();
        let unit = g.action() as i64;
        let mut keyed: Vec<(i64, i64, u32, u16)> = Vec::with_capacity(m);
        for (r, (s, goal)) in states.iter().zip(goals).enumerate() {
            let h = |c: u32, f: u8| g.cost(r, c, f).min(i64::MAX as u64 / 4) as i64;
            self.prio.push(match goal {
                Some(_) => h(s.cell, s.facing) as u64,
                None => u64::MAX,
            });
            keyed.clear();
            for (o, op) in ops.iter().enumerate() {
                let i = r * m + o;
                let mut at = (s.cell, s.facing);
                let (mut reached, mut along, mut busy) = (None, 0i64, 0i64);
                let mut ok = true;
                for (d, act) in op.iter().enumerate() {
                    let Some(next) = act.apply(grid, at) else {
                        ok = false;
                        break;
                    };
                    let vertex = (next.0 as usize * D + d) as u32;
                    let crossed = if next.0 != at.0 {
                        ((cells + edge(at.0, next.0, w) as usize) * D + d) as u32
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
                        if reached.is_none() && Some(at.0) == *goal {
                            reached = Some(d as i64 + 1);
                        }
                    }
                }
                if !ok {
                    self.slots[i][0][0] = NONE;
                    continue;
                }
                let cost = match goal {
                    None => busy,
                    Some(_) => match reached {
                        Some(t) => t * unit,
                        None => h(at.0, at.1).saturating_add(D as i64 * unit),
                    },
                };
                self.cost[i] = cost;
                keyed.push((cost, along, rng.next_u32(), o as u16));
            }
            keyed.sort_unstable();
            for (k, &(_, _, _, o)) in keyed.iter().enumerate() {
                self.prefs[r * m + k] = o;
            }
            self.npref[r] = keyed.len() as u16;
        }
    }

    /// Powers from priorities (lower goes first), raised to `exponent`, and the order of the
    /// pass.
    fn powers(&mut self, order: &mut Vec<u32>, exponent: f64) {
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

    /// Reserves every robot's `desire` afresh; false if two meet (then nothing is held).
    fn reserve_all(&mut self, cells: usize, desire: &[u16]) -> bool {
        self.held.clear();
        self.held.resize(3 * cells * D, NONE);
        self.desire.clear();
        self.desire.extend_from_slice(desire);
        self.score = 0.0;
        for (r, &d) in desire.iter().enumerate() {
            let i = r * self.m + d as usize;
            if self.slots[i][0][0] == NONE || self.meets(r) != Meets::Nobody {
                return false;
            }
            self.add(r);
        }
        true
    }

    /// Robot `r`'s power times what its operation gains against waiting.
    fn gain(&self, r: usize) -> f64 {
        let base = self.cost[r * self.m];
        let mine = self.cost[r * self.m + self.desire[r] as usize];
        self.power[r] * (base.saturating_sub(mine)) as f64
    }

    /// Reserves robot `r`'s operation.
    fn add(&mut self, r: usize) {
        self.hold(r, r as u32);
        self.score += self.gain(r);
    }

    /// Drops robot `r`'s reservation.
    fn remove(&mut self, r: usize) {
        self.hold(r, NONE);
        self.score -= self.gain(r);
    }

    /// Marks the slots of robot `r`'s operation with `who`.
    fn hold(&mut self, r: usize, who: u32) {
        let i = r * self.m + self.desire[r] as usize;
        for slot in self.slots[i].iter().flatten() {
            self.held[*slot as usize] = who;
        }
    }

    /// Whom robot `r`'s current `desire` meets among the reservations.
    fn meets(&self, r: usize) -> Meets {
        let i = r * self.m + self.desire[r] as usize;
        let mut who = NONE;
        for slot in self.slots[i].iter().flatten() {
            let x = self.held[*slot as usize];
            if x == NONE || x == who {
                continue;
            }
            if who != NONE {
                return Meets::Many;
            }
            who = x;
        }
        match who {
            NONE => Meets::Nobody,
            x => Meets::One(x as usize),
        }
    }

    /// Whether the deadline has passed, read every eighth choice.
    fn late(&self) -> bool {
        self.calls.is_multiple_of(8) && self.past_deadline()
    }

    /// Robot `r` (its reservation dropped) chooses; `bound`: the priority a robot it
    /// displaces must be below (`None` when refining, where `floor` is the score to keep).
    fn choose(&mut self, r: usize, bound: Option<u64>, floor: f64, depth: usize) -> Ret {
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
        for k in 0..self.npref[r] as usize {
            self.desire[r] = self.prefs[r * self.m + k];
            match self.meets(r) {
                Meets::Many => continue,
                Meets::Nobody => {
                    self.add(r);
                    if bound.is_none() && self.score < floor - 1e-9 {
                        self.remove(r);
                        self.desire[r] = old;
                        self.chain[r] = 0;
                        return Ret::Rejected;
                    }
                    return Ret::Accepted;
                }
                Meets::One(x) => {
                    let busy = self.chain[x] == self.pass
                        || (self.stamp[x] == self.pass && self.visits[x] >= self.revisits);
                    let senior = bound.is_some_and(|b| self.prio[x] <= b);
                    if busy || senior || depth >= MAX_CHAIN {
                        continue;
                    }
                    self.remove(x);
                    self.add(r);
                    match self.choose(x, bound, floor, depth + 1) {
                        Ret::Accepted => return Ret::Accepted,
                        Ret::Rejected => {
                            self.remove(r);
                            self.add(x);
                            self.desire[r] = old;
                            self.chain[r] = 0;
                            return Ret::Rejected;
                        }
                        Ret::Failed => {
                            self.remove(r);
                            self.add(x);
                        }
                    }
                }
            }
        }
        self.desire[r] = old;
        self.chain[r] = 0;
        Ret::Failed
    }

    /// Robot `r` chooses again from scratch, keeping its plan if it finds nothing.
    fn redecide(&mut self, r: usize, bound: Option<u64>) {
        let floor = self.score;
        self.remove(r);
        if self.choose(r, bound, floor, 0) != Ret::Accepted {
            self.add(r);
        }
    }
}

/// Whom an operation meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Meets {
    Nobody,
    One(usize),
    Many,
}

impl<const D: usize> Planner for Epibt<D> {
    fn preprocess(&mut self, _states: &[State], goals: &[Option<u32>]) {
        let _ = self.tables.ensure_all(goals.iter().flatten().copied());
    }

    /// Every robot waits when a goal is off the map or a wall.
    fn plan(&mut self, states: &[State], goals: &[Option<u32>], actions: &mut Vec<Action>) {
        let started = Instant::now();
        actions.clear();
        let n = states.len();
        if let Some(t) = &mut self.traffic {
            t.watch(&self.grid, &mut self.tables, states, goals);
        }
        (self.tables).hold_to(self.budget, goals.iter().flatten().copied());
        let ranked = match self.tables.guidance_or_none(goals) {
            Ok(g) => {
                (self.s).rank(&self.grid, &self.ops, states, goals, &g, &mut self.rng);
                true
            }
            Err(_) => false,
        };
        if !ranked || goals.len() != n {
            actions.resize(n, Action::Wait);
            self.desire.clear();
            return;
        }
        self.lift_stalled(states);
        let mut order = Vec::with_capacity(n);
        self.s.powers(&mut order, self.cfg.power);
        self.kept(states);
        if !self.s.reserve_all(self.grid.len(), &self.desire) {
            self.desire.iter_mut().for_each(|d| *d = 0);
            let ok = self.s.reserve_all(self.grid.len(), &self.desire);
            debug_assert!(ok, "robots on distinct cells can all wait");
        }
        let deadline = started + self.cfg.plan_time;
        self.s.begin(n, self.cfg.revisits, deadline);
        self.s.first_pass(&order);
        (self.s).refine(&mut order, &mut self.rng, self.cfg.work);
        self.desire.clone_from(&self.s.desire);
        self.expect.clear();
        for (r, st) in states.iter().enumerate() {
            let act = self.ops[self.desire[r] as usize][0];
            actions.push(act);
            let to = act.apply(&self.grid, (st.cell, st.facing));
            self.expect.push(to.unwrap_or((st.cell, st.facing)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Refining a fixed number of choices, so that runs do not hang on time.
    fn config() -> EpibtConfig {
        EpibtConfig {
            work: Some(200),
            plan_time: Duration::from_secs(60),
            ..EpibtConfig::default()
        }
    }

    /// A planner over operations of `D` steps, without traffic rules.
    fn planner<const D: usize>(grid: &Grid, seed: u64) -> Box<dyn Planner> {
        Box::new(Epibt::<D>::new(grid, 1 << 24, seed, config(), None))
    }

    #[test]
    fn every_step_is_valid_from_sparse_to_packed() {
        super::super::check_sparse_to_packed(planner::<3>);
        super::super::check_sparse_to_packed(planner::<5>);
    }

    #[test]
    fn robots_reach_goals_on_open_ground() {
        super::super::check_open_ground(planner::<3>);
        super::super::check_open_ground(planner::<5>);
    }

    #[test]
    fn every_step_is_valid_with_traffic_priced_again() {
        // The tables made again every five steps, on the traffic and on traffic rules.
        super::super::check_sparse_to_packed(|grid, seed| {
            let traffic = TrafficConfig {
                period: 5,
                ..TrafficConfig::default()
            };
            let costs = EdgeCosts::highways(grid, 2, 10);
            let p = Epibt::<3>::new(grid, 1 << 24, seed, config(), Some(costs));
            Box::new(p.with_traffic(traffic))
        });
    }

    /// On open ground, each operation's successor crosses the cells it had left.
    fn check_kept_plans<const D: usize>() {
        let grid = Grid::new(11, 11).unwrap();
        let ops = operations::<D>();
        assert_eq!(ops[0], [Action::Wait; D], "waiting comes first");
        let walk = |op: &Operation<D>, mut at: (u32, u8)| {
            op.map(|a| {
                at = a.apply(&grid, at).unwrap();
                at.0
            })
        };
        for op in &ops {
            let start = (60, 0);
            let cells = walk(op, start);
            let then = op[0].apply(&grid, start).unwrap();
            let next = walk(&ops[successor(&ops, op) as usize], then);
            assert_eq!(next[..D - 1], cells[1..], "{op:?}");
            assert_eq!(next[D - 1], cells[D - 1], "{op:?}");
        }
    }

    #[test]
    fn a_kept_plan_goes_on_with_the_same_cells() {
        check_kept_plans::<3>();
        check_kept_plans::<4>();
        check_kept_plans::<5>();
    }

    #[test]
    fn operations_that_turn_only_to_move_on_are_the_authors_sets() {
        // Yukhnevich and Andreychuk count 17, 48 and 136 operations over 3, 4 and 5 steps.
        let kept = |mut ops: Vec<Operation<5>>| {
            ops.retain(moves_after_turning);
            ops.len()
        };
        assert_eq!(kept(operations::<5>()), 136);
        let p4 = Epibt::<4>::new(&Grid::new(3, 3).unwrap(), 1 << 16, 0, config(), None);
        let p3 = Epibt::<3>::new(&Grid::new(3, 3).unwrap(), 1 << 16, 0, config(), None);
        assert_eq!((p3.ops.len(), p4.ops.len()), (17, 48));
    }

    #[test]
    fn a_lost_step_plans_afresh() {
        // Robots that did not carry out the last step (every one waited) are planned from
        // where they stand: the step is still valid.
        let grid = Grid::new(5, 1).unwrap();
        let cfg = EpibtConfig {
            work: Some(50),
            ..EpibtConfig::default()
        };
        let mut p = Epibt::<4>::new(&grid, 1 << 20, 1, cfg, None);
        let s = |cell, facing| State { cell, facing };
        let states = [s(0, 0), s(1, 0), s(3, 2)];
        let goals = [Some(4), Some(4), Some(0)];
        let mut actions = Vec::new();
        let mut scratch = vec![[NONE; 2]; grid.len()];
        for _ in 0..3 {
            p.plan(&states, &goals, &mut actions);
            assert_eq!(
                super::super::check_step(&grid, &states, &actions, &mut scratch),
                Ok(())
            );
        }
    }
}
