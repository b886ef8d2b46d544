//! [`Commitment`]: the rotation planner's next cells carried out before they are decided
//! again, as WPPL's executor carries out LaCAM's configurations, and each decision the best
//! of several PIBT steps over perturbed priorities.
//!
//! One PIBT step over cells decides the robots' next cells. The robots then turn toward their
//! cells and move in ([`RotationStep::step_committed`]): at most three timesteps, two turns
//! and a move. A robot whose cell is held by one still turning waits facing it rather than
//! turning away, so the robots behind it follow in one train, and cycles of robots move round
//! together. A robot gets a new cell once every robot stands on its own
//! ([`Redecide::Together`]) or once it stands on its own ([`Redecide::Alone`]). Replanned
//! every timestep instead, a robot that began to turn toward a cell often turned away the
//! next, as the step before it changed its mind, and dense crowds and warehouses knotted.

use crate::crowd::{NONE, RotationGuidance, RotationStep};
use crate::grid::Grid;
use crate::rng::{Draw, SeedableRng, SplitMix64};

use super::Action;
use super::near::{Gathered, Near};

/// Robot decisions one decision may take: it tries this many PIBT steps divided by the
/// robots (at least one).
pub const SAMPLE_WORK: usize = 102_400;

/// Random swaps of neighbours in the priority order, per robot, between two tries.
pub const SHUFFLE_SWAPS: usize = 2;

/// When a committed planner gives robots new next cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redecide {
    /// Once every robot stands on its cell: robots move in whole trains and cycles, which
    /// pays on dense small maps (docs/benchmarks.md, "Committed steps").
    Together,
    /// Each robot as soon as it stands on its own, the robots still on their way kept: a
    /// robot does not wait for the slowest of thousands, which pays on the warehouses.
    Alone,
}

/// What a committed planner keeps between timesteps.
#[derive(Clone, Debug)]
pub(super) struct Commitment {
    rng: SplitMix64,
    /// Per robot: its cell when it was last given a next cell.
    origin: Vec<u32>,
    /// Per robot: the next cell it was given then.
    targets: Vec<u32>,
    /// Per robot this timestep: the cell it keeps, or [`NONE`] on a decision.
    fixed: Vec<u32>,
    /// The priority order perturbed, for the tries of a decision.
    shuffled: Vec<u32>,
    /// When robots get new next cells.
    redecide: Redecide,
    /// Each robot's costs near its cell, gathered for a decision's tries ([`Near`]).
    kept: Vec<Gathered>,
    /// Timesteps planned, and those on which next cells were decided.
    steps: u64,
    decided: u64,
}

impl Commitment {
    /// A commitment that decides again as `redecide` says, its tries drawn from `seed`.
    pub(super) fn new(redecide: Redecide, seed: u64) -> Commitment {
        Commitment {
            rng: SplitMix64::seed_from_u64(seed ^ 0xC0_44_17),
            origin: Vec::new(),
            targets: Vec::new(),
            fixed: Vec::new(),
            shuffled: Vec::new(),
            redecide,
            kept: Vec::new(),
            steps: 0,
            decided: 0,
        }
    }

    /// Every robot's action this timestep (in `actions`, cleared first): toward its next
    /// cell while it has not reached it (together: while any robot has not), the others by
    /// a new decision of [`SAMPLE_WORK`] / robots PIBT steps, each over the priority order
    /// [`SHUFFLE_SWAPS`] swaps per robot further from `order`, the one of most [`progress`]
    /// kept. With every robot fixed, one step carries their cells out. Returns `false`,
    /// `actions` left empty, when no step could be made.
    pub(super) fn plan<G: RotationGuidance + Sync>(
        &mut self,
        step: &mut RotationStep,
        grid: &Grid,
        states: &[(u32, u8)],
        order: &[u32],
        guidance: &G,
        actions: &mut Vec<Action>,
    ) -> bool {
        actions.clear();
        self.steps += 1;
        let n = states.len();
        let tries = if self.carry_on(states) {
            1
        } else {
            self.decided += 1;
            (SAMPLE_WORK / n.max(1)).max(1)
        };
        self.shuffled.clear();
        self.shuffled.extend_from_slice(order);
        let mut kept = std::mem::take(&mut self.kept);
        let found = if tries > 1 {
            let near = Near::gather(guidance, grid, states, &mut kept);
            self.best_of(tries, step, grid, states, &near, actions)
        } else {
            self.best_of(tries, step, grid, states, guidance, actions)
        };
        self.kept = kept;
        self.origin.clear();
        self.origin.extend(states.iter().map(|s| s.0));
        if !found {
            actions.clear();
            self.targets.clear();
        }
        found
    }

    /// The best of `tries` PIBT steps (see [`plan`](Self::plan)) into `actions` and
    /// `targets`; `false` when none could be made.
    fn best_of<G: RotationGuidance>(
        &mut self,
        tries: usize,
        step: &mut RotationStep,
        grid: &Grid,
        states: &[(u32, u8)],
        guidance: &G,
        actions: &mut Vec<Action>,
    ) -> bool {
        let n = states.len();
        let mut best = None;
        for t in 0..tries {
            if t > 0 && n > 1 {
                for _ in 0..SHUFFLE_SWAPS * n {
                    let i = self.rng.below(n - 1);
                    self.shuffled.swap(i, i + 1);
                }
            }
            let (fixed, rng) = (&self.fixed, &mut self.rng);
            if (step.step_committed(grid, states, &self.shuffled, fixed, guidance, rng)).is_err() {
                continue;
            }
            let score = progress(guidance, states, step.next_cells());
            if best.is_none_or(|b| score > b) {
                best = Some(score);
                actions.clear();
                actions.extend_from_slice(step.actions());
                self.targets.clear();
                self.targets.extend_from_slice(step.next_cells());
            }
        }
        best.is_some()
    }

    /// A line on the decisions made, for the run's summary.
    pub(super) fn summary(&self) -> String {
        format!(
            "committed: next cells decided on {} of {} timesteps",
            self.decided, self.steps
        )
    }

    /// Fills `fixed`: a robot that has not reached its next cell keeps it, and under
    /// [`Redecide::Together`] so does every robot while one has not (it stays); the others
    /// get [`NONE`], to be decided. Says whether every robot is fixed. Every robot gets
    /// `NONE` when one stands anywhere else (the caller moved it otherwise, or the robots
    /// changed).
    fn carry_on(&mut self, states: &[(u32, u8)]) -> bool {
        let n = states.len();
        self.fixed.clear();
        let known = self.origin.len() == n && self.targets.len() == n;
        let on_way = |a: usize, c: u32| c == self.origin[a] || c == self.targets[a];
        if !known || !states.iter().enumerate().all(|(a, s)| on_way(a, s.0)) {
            self.fixed.resize(n, NONE);
            return false;
        }
        let en_route = states.iter().zip(&self.targets).any(|(s, &t)| s.0 != t);
        let together = en_route && self.redecide == Redecide::Together;
        let fixed = states
            .iter()
            .zip(&self.targets)
            .map(|(s, &t)| if together || s.0 != t { t } else { NONE });
        self.fixed.extend(fixed);
        self.fixed.iter().all(|&t| t != NONE)
    }
}

/// How much nearer their goals the robots get by moving to `next`: per robot that moves, its
/// best cost over facings on its cell less that on its next cell, summed (unreachable
/// counted as 2^40).
fn progress<G: RotationGuidance>(guidance: &G, states: &[(u32, u8)], next: &[u32]) -> i64 {
    let best = |a: usize, c: u32| {
        let cost = (0..4).map(|f| guidance.cost(a, c, f)).min();
        cost.unwrap_or(u64::MAX).min(1 << 40) as i64
    };
    let moved = states.iter().zip(next).enumerate();
    moved
        .filter(|(_, (s, t))| s.0 != **t)
        .map(|(a, (s, &t))| best(a, s.0) - best(a, t))
        .sum()
}
