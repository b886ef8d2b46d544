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

mod search;

use std::time::{Duration, Instant};

use crate::crowd::{Action, Operation, operations, shape};
use crate::grid::Grid;
use crate::rng::{SeedableRng, SplitMix64};

use super::planner::Planner;
use super::tables::Tables;
use super::traffic::{Traffic, TrafficConfig};
use super::weighted::EdgeCosts;
use super::{DEFAULT_PLAN_SHARE, State};
use search::{Layout, Search};

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
    /// The step's operations laid out, and the robots' choices over them.
    lay: Layout<D>,
    s: Search,
    /// Per robot: steps it has stood on its cell.
    stalls: Stalls,
    /// Traffic learnt from the robots' moves, pricing the tables' moves (`None`: fixed).
    traffic: Option<Traffic>,
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
            lay: Layout::default(),
            s: Search::default(),
            stalls: Stalls::new(cfg.stall_steps),
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

/// Per robot: the steps it has stood on one cell, which lift its priority (see the module
/// doc).
struct Stalls {
    steps: Vec<u32>,
    last_cell: Vec<u32>,
    /// Steps on one cell after which a robot goes first.
    after: u32,
}

impl Stalls {
    fn new(after: u32) -> Stalls {
        Stalls {
            steps: Vec::new(),
            last_cell: Vec::new(),
            after,
        }
    }

    /// Counts a step: robots on the cell they stood on last step have stood one step more.
    fn count(&mut self, states: &[State]) {
        if self.steps.len() != states.len() {
            self.steps = vec![0; states.len()];
            self.last_cell = states.iter().map(|s| s.cell).collect();
        }
        for (r, st) in states.iter().enumerate() {
            if st.cell == self.last_cell[r] {
                self.steps[r] = self.steps[r].saturating_add(1);
            } else {
                self.steps[r] = 0;
                self.last_cell[r] = st.cell;
            }
        }
    }

    /// Robot `r`'s priority (lower goes first) from its guidance cost to its goal (`None`:
    /// it has none, and goes last): stalled robots below 2^32, the longest first; the others
    /// above, nearest first.
    fn priority(&self, r: usize, cost: Option<u64>) -> u64 {
        match (cost, self.steps[r]) {
            (None, _) => u64::MAX,
            (Some(_), k) if k >= self.after => u64::from(u32::MAX - k),
            (Some(c), _) => (1 << 32) + c.min(1 << 31),
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
        let ranked = goals.len() == n
            && match self.tables.guidance_or_none(goals) {
                Ok(g) => {
                    (self.lay).rank(&self.grid, &self.ops, states, goals, &g, &mut self.rng);
                    self.stalls.count(states);
                    (self.lay).prioritise(states, goals, &g, &self.stalls);
                    true
                }
                Err(_) => false,
            };
        if !ranked {
            actions.resize(n, Action::Wait);
            self.desire.clear();
            return;
        }
        let mut order = Vec::with_capacity(n);
        self.lay.powers(&mut order, self.cfg.power);
        self.kept(states);
        if !self.s.reserve_all(&self.lay, &self.desire) {
            self.desire.iter_mut().for_each(|d| *d = 0);
            let ok = self.s.reserve_all(&self.lay, &self.desire);
            debug_assert!(ok, "robots on distinct cells can all wait");
        }
        let deadline = started + self.cfg.plan_time;
        self.s.begin(n, self.cfg.revisits, deadline);
        self.s.first_pass(&self.lay, &order);
        (self.s).refine(&self.lay, &mut order, &mut self.rng, self.cfg.work);
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
    use crate::crowd::NONE;

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
