//! [`Commitment`]: the rotation planner's next cells carried out before the next are decided,
//! as WPPL's executor carries out LaCAM's configurations, and each decision the best of
//! several PIBT steps over perturbed priorities.
//!
//! One PIBT step over cells decides every robot's next cell. The robots then turn toward
//! their cells and move in ([`RotationStep::step_committed`]), all waiting until every one
//! stands on its cell: at most three timesteps, two turns and a move. A robot whose cell is
//! held by one still turning waits facing it rather than turning away, so the robots behind
//! it follow in one train, and cycles of robots move round together. Replanned every
//! timestep instead, a robot that began to turn toward a cell often turned away the next, as
//! the step before it changed its mind.

use crate::crowd::{NONE, RotationGuidance, RotationStep};
use crate::grid::Grid;
use crate::rng::{Draw, SeedableRng, SplitMix64};

use super::Action;

/// Robot decisions one decision may take: it tries this many PIBT steps divided by the
/// robots (at least one).
pub const SAMPLE_WORK: usize = 102_400;

/// Random swaps of neighbours in the priority order, per robot, between two tries.
pub const SHUFFLE_SWAPS: usize = 2;

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
    /// Timesteps planned, and those on which next cells were decided.
    steps: u64,
    decided: u64,
}

impl Commitment {
    /// A commitment whose tries draw from `seed`.
    pub(super) fn new(seed: u64) -> Commitment {
        Commitment {
            rng: SplitMix64::seed_from_u64(seed ^ 0xC0_44_17),
            origin: Vec::new(),
            targets: Vec::new(),
            fixed: Vec::new(),
            shuffled: Vec::new(),
            steps: 0,
            decided: 0,
        }
    }

    /// Every robot's action this timestep (in `actions`, cleared first): toward its next
    /// cell while some robot has not reached its own, else by a new decision. Returns
    /// `false`, `actions` left empty, when no step could be made.
    pub(super) fn plan<G: RotationGuidance>(
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
        let ok = if self.carry_on(states) {
            let fixed = &self.fixed;
            let rng = &mut self.rng;
            match step.step_committed(grid, states, order, fixed, guidance, rng) {
                Ok(acts) => {
                    actions.extend_from_slice(acts);
                    true
                }
                Err(_) => false,
            }
        } else {
            self.decided += 1;
            self.origin.clear();
            self.origin.extend(states.iter().map(|s| s.0));
            self.decide(step, grid, states, order, guidance, actions)
        };
        if !ok {
            actions.clear();
            self.targets.clear();
        }
        ok
    }

    /// A line on the decisions made, for the run's summary.
    pub(super) fn summary(&self) -> String {
        format!(
            "committed: next cells decided on {} of {} timesteps",
            self.decided, self.steps
        )
    }

    /// Fills `fixed` with every robot's next cell and says `true` while some robot still
    /// stands where it was given one it has not reached. Says `false` when a decision is
    /// due: every robot on its cell, or one standing anywhere else (the caller moved it
    /// otherwise, or the robots changed).
    fn carry_on(&mut self, states: &[(u32, u8)]) -> bool {
        let n = states.len();
        self.fixed.clear();
        if self.origin.len() != n || self.targets.len() != n {
            return false;
        }
        let mut en_route = false;
        for (a, &(c, _)) in states.iter().enumerate() {
            let (o, t) = (self.origin[a], self.targets[a]);
            if c != t && c != o {
                return false;
            }
            en_route |= c != t;
            self.fixed.push(t);
        }
        en_route
    }

    /// Decides every robot's next cell: [`SAMPLE_WORK`] / robots PIBT steps, each over the
    /// priority order [`SHUFFLE_SWAPS`] swaps per robot further from `order`, the one of
    /// most [`progress`] kept (its actions in `actions`, its cells in `targets`). Returns
    /// whether any step succeeded.
    fn decide<G: RotationGuidance>(
        &mut self,
        step: &mut RotationStep,
        grid: &Grid,
        states: &[(u32, u8)],
        order: &[u32],
        guidance: &G,
        actions: &mut Vec<Action>,
    ) -> bool {
        let n = states.len();
        self.fixed.clear();
        self.fixed.resize(n, NONE);
        self.shuffled.clear();
        self.shuffled.extend_from_slice(order);
        let tries = (SAMPLE_WORK / n.max(1)).max(1);
        let mut best = None;
        for t in 0..tries {
            if t > 0 && self.shuffled.len() > 1 {
                for _ in 0..SHUFFLE_SWAPS * n {
                    let i = self.rng.below(self.shuffled.len() - 1);
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
}

/// How much nearer their goals the robots get by moving to `next`: per robot that moves, its
/// best cost over facings on its cell less that on its next cell, summed (unreachable
/// counted as 2^40).
pub(super) fn progress<G: RotationGuidance>(
    guidance: &G,
    states: &[(u32, u8)],
    next: &[u32],
) -> i64 {
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
