//! PIBT alone, step after step, as a baseline: the crowd's step rule with PIBT's priorities
//! (each agent's count of steps since it last stood on its goal, ties by a first random
//! fraction), until every agent stands on its goal or the tick limit passes. Incomplete: it
//! can oscillate for ever, which is why [`solve`](super::solve) searches with LaCAM.

use super::Problem;
use super::dist::DistanceTables;
use crate::crowd::{StepOptions, StepRule};
use crate::rng::{Draw, SeedableRng, SplitMix64};

/// Runs PIBT (with `options`) from the problem's starts for at most `max_ticks` steps; the configurations
/// from timestep 0, and whether the last has every agent on its goal.
pub(super) fn run(
    problem: &Problem,
    dist: &DistanceTables,
    options: StepOptions,
    max_ticks: u32,
    seed: u64,
) -> (Vec<Vec<u32>>, bool) {
    let (grid, conn) = (&problem.grid, problem.conn);
    let (starts, goals) = (&problem.starts[..], &problem.goals[..]);
    let n = starts.len();
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut rule = StepRule::new(grid, conn, options);
    let mut prio: Vec<f64> = (0..n).map(|_| rng.unit()).collect();
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut plan = vec![starts.to_vec()];
    for _ in 0..max_ticks {
        let cur = plan.last().expect("the plan starts with the starts");
        if cur.iter().zip(goals).all(|(c, g)| c == g) {
            return (plan, true);
        }
        order.sort_by(|&a, &b| prio[b as usize].total_cmp(&prio[a as usize]));
        let next = match rule.step(grid, cur, &order, None, dist, &mut rng) {
            Ok(next) => next.to_vec(),
            Err(_) => break,
        };
        for (a, p) in prio.iter_mut().enumerate() {
            *p = if next[a] == goals[a] {
                p.fract()
            } else {
                *p + 1.0
            };
        }
        plan.push(next);
    }
    let done = plan
        .last()
        .is_some_and(|c| c.iter().zip(goals).all(|(c, g)| c == g));
    (plan, done)
}
