//! The anytime part of a LaCAM run, after its first solution: the best plan so far, refined
//! between the search's budgets by large neighbourhood search ([`Refiner`]), and now and then
//! restarted from one of its configurations, lacam3's "recursive LaCAM": a new search from
//! the configuration at a random timestep to the goals, whose plan replaces the old one's
//! rest when that lowers the soc. Everything is counted in rounds and tries, not timed, so a
//! run replays for its seed up to where the time limit cuts it.

use web_time::Instant;

use super::{Limits, Progress, Search, TRIES_PER_CLOCK};
use crate::grid::{Connectivity, Grid};
use crate::mapf::dist::DistanceTables;
use crate::mapf::refine::Refiner;
use crate::mapf::result::Metrics;
use crate::rng::{Draw, SplitMix64};

/// The seed of the refiner's draws, beside the search's own (so that the search's stream, and
/// its first solution, do not depend on refinement).
pub(super) const REFINER_SEED: u64 = 0x5EED_0F2E_F14E_5000;

/// The search's tries between two series of refinement rounds: after the first solution
/// LaCAM\* improves far less than the refiner on large instances (on random-32-32-20 with 409
/// agents, nothing in 10 s), so it gets a small share.
pub(super) const TRIES_BESIDE_REFINER: usize = 16;

/// Refinement rounds between two budgets of the search.
const ROUNDS: u64 = 8;

/// Refinement rounds between two restarts (of 80, 400 and 2,000, 80 and 400 did about as well
/// on the instances of docs/benchmarks.md's anytime table; 2,000 never restarted on room).
const ROUNDS_PER_RESTART: u64 = 80;

/// The most tries a restart's search may take.
const RESTART_TRIES: usize = 10_000;

/// The most expansions a restart's scatter may take.
const RESTART_SCATTER: u64 = 500_000;

/// What an anytime run works on: the grid, the goals and their tables, the limits and when
/// the caller's clock started.
pub(super) struct Run<'a> {
    pub at: (&'a Grid, Connectivity),
    pub goals: &'a [u32],
    pub dist: &'a DistanceTables,
    pub limits: Limits,
    pub began: Instant,
}

impl Run<'_> {
    fn out_of_time(&self) -> bool {
        self.began.elapsed() >= self.limits.time
    }
}

/// The best plan of an anytime run: from the search, refined, or restarted.
#[derive(Default)]
pub(super) struct Best {
    pub soc: Option<u64>,
    plan: Vec<Vec<u32>>,
    refiner: Option<Refiner>,
    /// The refiner holds a better plan than `plan`.
    refined: bool,
    /// Refinement rounds so far.
    rounds: u64,
    pub history: Vec<(u64, u64)>,
}

impl Best {
    /// Takes `plan` if its soc is lower; with `refines`, refinement starts from it, its layers
    /// within a quarter of the memory limit.
    pub fn offer(&mut self, plan: Vec<Vec<u32>>, run: &Run, refines: bool) {
        let soc = Metrics::of(&plan, run.goals).soc;
        if self.soc.is_some_and(|b| soc >= b) {
            return;
        }
        self.soc = Some(soc);
        self.history
            .push((run.began.elapsed().as_millis() as u64, soc));
        let (cells, most) = (run.at.0.len(), run.limits.memory / 4);
        self.refiner = refines
            .then(|| Refiner::new(&plan, run.goals, cells, most))
            .flatten();
        self.refined = false;
        self.plan = plan;
    }

    /// A few rounds of refinement, if there is a plan to refine, and now and then a restart
    /// (its search within a quarter of the memory the run's search, taking `used`, leaves).
    pub fn refine(&mut self, run: &Run, used: usize, rng: &mut SplitMix64) {
        let Some(refiner) = &mut self.refiner else {
            return;
        };
        for _ in 0..ROUNDS {
            if refiner.round(run.dist, rng) {
                let soc = refiner.soc();
                self.soc = Some(soc);
                self.history
                    .push((run.began.elapsed().as_millis() as u64, soc));
                self.refined = true;
            }
        }
        self.rounds += ROUNDS;
        if self.rounds.is_multiple_of(ROUNDS_PER_RESTART) {
            self.restart(run, run.limits.memory.saturating_sub(used) / 4, rng);
        }
    }

    /// A new search from the best plan's configuration at a random timestep; its plan, after
    /// the old one's start, is offered.
    fn restart(&mut self, run: &Run, memory: usize, rng: &mut SplitMix64) {
        let plan = match (&self.refiner, self.refined) {
            (Some(refiner), true) => refiner.plan(),
            _ => self.plan.clone(),
        };
        if plan.len() < 4 {
            return;
        }
        let t = rng.range(1..plan.len() - 2);
        let limits = Limits {
            seed: rng.below(usize::MAX) as u64,
            memory,
            max_ticks: None,
            first: true,
            scatter_work: Some(RESTART_SCATTER),
            ..run.limits
        };
        let mut search = Search::with_limits(run.at, &plan[t], run.goals, run.dist, limits);
        let mut tries = 0;
        while tries < RESTART_TRIES && !run.out_of_time() {
            match search.expand(run.at.0, run.dist, TRIES_PER_CLOCK) {
                Progress::Open => tries += TRIES_PER_CLOCK,
                Progress::Solved(goal) => {
                    let mut spliced = plan[..t].to_vec();
                    spliced.extend(search.plan(goal));
                    self.offer(spliced, run, true);
                    return;
                }
                _ => return,
            }
        }
    }

    /// The best plan, if any.
    pub fn plan(self) -> Option<Vec<Vec<u32>>> {
        match (self.refined, self.refiner) {
            (true, Some(refiner)) => Some(refiner.plan()),
            _ => self.soc.map(|_| self.plan),
        }
    }
}
