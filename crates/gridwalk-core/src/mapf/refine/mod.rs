//! Refinement of a plan by large neighbourhood search (Li et al., MAPF-LNS, IJCAI 2021), the
//! kind of refiner lacam3 runs beside LaCAM\*: take a few agents out of the plan, plan them
//! again one after another by space-time A* around everyone else (prioritized planning,
//! [`spacetime`]), and keep the new paths when their sum of costs is not higher. Each agent's
//! cost is the first timestep from which it stays on its goal, so a round never raises the
//! plan's soc; equal costs are kept too, which lets the plan drift across plateaus.
//!
//! Which agents a round takes is learnt as it goes, as MAPF-LNS2's adaptive LNS does: each
//! *arm* is a neighbourhood ([`Kind`]) and a group size, drawn in proportion to a weight that
//! follows how much soc the arm has removed per unit of work (space-time expansions) lately.
//! Everything is drawn from the caller's generator and work is counted, not timed, so a run
//! of a given number of rounds is the same for a given seed.

mod spacetime;

use super::dist::{DistanceTables, Moves};
use crate::rng::{Draw, SplitMix64};
use spacetime::{Planner, Table};

/// Timesteps past the plan's length that repaired paths may use.
const SLACK: usize = 64;

/// The most bytes a refiner's layers may take, below the caller's own limit; a longer plan on
/// a larger grid is not refined.
const MAX_BYTES: usize = 256 << 20;

/// How a round picks the agents it replans, beside a delayed agent drawn at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The agent and those in its way along one of its shortest paths (MAPF-LNS's
    /// agent-based neighbourhood).
    Blockers,
    /// Other delayed agents drawn at random.
    Random,
    /// The agents near a place and time on the agent's path (a map-based neighbourhood).
    Place,
}

/// The arms: each neighbourhood with each group size.
const ARMS: [(Kind, usize); 9] = [
    (Kind::Blockers, 4),
    (Kind::Blockers, 8),
    (Kind::Blockers, 16),
    (Kind::Random, 4),
    (Kind::Random, 8),
    (Kind::Random, 16),
    (Kind::Place, 4),
    (Kind::Place, 8),
    (Kind::Place, 16),
];

/// How fast an arm's weight follows its latest reward.
const REACTION: f64 = 0.1;

/// The least weight an arm keeps, so that none is dropped for good.
const FLOOR: f64 = 0.02;

/// A plan as one path per agent, each ending where the agent arrives for good.
pub(super) struct Refiner {
    paths: Vec<Vec<u32>>,
    goals: Vec<u32>,
    table: Table,
    planner: Planner,
    weights: [f64; ARMS.len()],
}

impl Refiner {
    /// The refiner of `plan` (configurations from timestep 0) towards `goals` on a grid of
    /// `cells` cells; `None` when its layers would pass `most` bytes or [`MAX_BYTES`].
    pub(super) fn new(
        plan: &[Vec<u32>],
        goals: &[u32],
        cells: usize,
        most: usize,
    ) -> Option<Refiner> {
        let layers = plan.len() + SLACK;
        if Table::bytes_needed(cells, layers) > most.min(MAX_BYTES) {
            return None;
        }
        let mut paths = Vec::with_capacity(goals.len());
        for (a, &goal) in goals.iter().enumerate() {
            let mut end = plan.len() - 1;
            while end > 0 && plan[end - 1][a] == goal {
                end -= 1;
            }
            paths.push(plan[..=end].iter().map(|c| c[a]).collect::<Vec<u32>>());
        }
        let mut table = Table::new(cells, layers, goals);
        for (a, path) in paths.iter().enumerate() {
            table.enroll(a, path);
        }
        let planner = Planner::new(&table);
        Some(Refiner {
            paths,
            goals: goals.to_vec(),
            table,
            planner,
            weights: [1.0; ARMS.len()],
        })
    }

    /// The sum of costs.
    pub(super) fn soc(&self) -> u64 {
        self.paths.iter().map(|p| p.len() as u64 - 1).sum()
    }

    /// The plan as configurations from timestep 0.
    pub(super) fn plan(&self) -> Vec<Vec<u32>> {
        let len = self.paths.iter().map(Vec::len).max().unwrap_or(1);
        (0..len)
            .map(|t| self.paths.iter().map(|p| p[t.min(p.len() - 1)]).collect())
            .collect()
    }

    /// Agent `a`'s delay: its cost over its own distance.
    fn delay(&self, a: usize, dist: &DistanceTables) -> u32 {
        self.paths[a].len() as u32 - 1 - dist.get(a, self.paths[a][0] as usize)
    }

    /// One round on a group of agents drawn with `rng` by an arm; true when it lowered the soc.
    pub(super) fn round(&mut self, dist: &DistanceTables, rng: &mut SplitMix64) -> bool {
        let delayed: Vec<usize> = (0..self.goals.len())
            .filter(|&a| self.delay(a, dist) > 0)
            .collect();
        if delayed.is_empty() {
            return false;
        }
        let arm = self.pick(rng);
        let (kind, size) = ARMS[arm];
        let first = delayed[rng.below(delayed.len())];
        let mut group = match kind {
            Kind::Blockers => self.blockers(first, size, dist, rng),
            Kind::Random => random(first, &delayed, size, rng),
            Kind::Place => self.place(first, size, dist.moves(), rng),
        };
        rng.shuffle(&mut group);
        let work = self.planner.expansions;
        let gain = self.repair(&group, dist);
        let work = (self.planner.expansions - work + group.len() as u64) as f64;
        let reward = 1000.0 * gain as f64 / work;
        let w = &mut self.weights[arm];
        *w = ((1.0 - REACTION) * *w + REACTION * reward).max(FLOOR);
        gain > 0
    }

    /// An arm drawn in proportion to the weights.
    fn pick(&self, rng: &mut SplitMix64) -> usize {
        let total: f64 = self.weights.iter().sum();
        let mut x = rng.unit() * total;
        for (arm, &w) in self.weights.iter().enumerate() {
            if x < w {
                return arm;
            }
            x -= w;
        }
        ARMS.len() - 1
    }

    /// Plans `group` again one agent after another, in its order; keeps the new paths when they
    /// cost no more than the old, and returns how much less.
    fn repair(&mut self, group: &[usize], dist: &DistanceTables) -> u64 {
        let before: u64 = group.iter().map(|&a| self.paths[a].len() as u64 - 1).sum();
        for &a in group {
            self.table.withdraw(&self.paths[a]);
        }
        // The least the agents still to plan can cost: their own distances.
        let mut rest: u64 = group
            .iter()
            .map(|&a| dist.get(a, self.paths[a][0] as usize) as u64)
            .sum();
        let mut fresh = Vec::with_capacity(group.len());
        let mut after = 0u64;
        for &a in group {
            let start = self.paths[a][0];
            rest -= dist.get(a, start as usize) as u64;
            // Past this, the group would cost more than before.
            let Some(bound) = before.checked_sub(after + rest) else {
                break;
            };
            let ends = (a, start, self.goals[a]);
            match self.planner.search(&self.table, dist, ends, bound) {
                Some(path) => {
                    after += path.len() as u64 - 1;
                    self.table.enroll(a, &path);
                    fresh.push(path);
                }
                None => break,
            }
        }
        let kept = fresh.len() == group.len() && after <= before;
        for (&a, path) in group.iter().zip(&fresh) {
            self.table.withdraw(path);
            if kept {
                self.paths[a] = path.clone();
            }
        }
        for &a in group {
            self.table.enroll(a, &self.paths[a]);
        }
        if kept { before - after } else { 0 }
    }

    /// Agent `first` and the agents in its way, as MAPF-LNS's agent-based neighbourhood: walking
    /// each member's shortest path from its start (ties at random), whoever stands on a cell of
    /// it at that timestep or the next joins, up to `size` agents.
    fn blockers(
        &self,
        first: usize,
        size: usize,
        dist: &DistanceTables,
        rng: &mut SplitMix64,
    ) -> Vec<usize> {
        let moves = dist.moves();
        let mut group = vec![first];
        let mut k = 0;
        let mut on = Vec::new();
        while k < group.len() && group.len() < size {
            let a = group[k];
            k += 1;
            let (mut cell, mut t) = (self.paths[a][0], 0u32);
            while cell != self.goals[a] && group.len() < size {
                for s in [t, t + 1] {
                    let here = self.table.who(cell, s);
                    if let Some(b) = here.filter(|&b| !group.contains(&(b as usize))) {
                        group.push(b as usize);
                    }
                }
                let d = dist.get(a, cell as usize);
                on.clear();
                on.extend(
                    moves
                        .of(cell as usize)
                        .iter()
                        .copied()
                        .filter(|&m| dist.get(a, m as usize) < d),
                );
                cell = on[rng.below(on.len())];
                t += 1;
            }
        }
        group.truncate(size);
        group
    }

    /// Agent `first` and the agents within two moves of a cell of its path, at most two
    /// timesteps before or after it stands there (the time drawn at random), up to `size`.
    fn place(&self, first: usize, size: usize, moves: &Moves, rng: &mut SplitMix64) -> Vec<usize> {
        let path = &self.paths[first];
        let t = rng.below(path.len()) as u32;
        let mut near = vec![path[t as usize]];
        let mut k = 0;
        for _ in 0..2 {
            let end = near.len();
            while k < end {
                for &m in moves.of(near[k] as usize) {
                    if !near.contains(&m) {
                        near.push(m);
                    }
                }
                k += 1;
            }
        }
        let mut group = vec![first];
        let mut found = Vec::new();
        for s in t.saturating_sub(2)..=t + 2 {
            for &c in &near {
                if let Some(b) = self.table.who(c, s) {
                    let b = b as usize;
                    if !group.contains(&b) && !found.contains(&b) {
                        found.push(b);
                    }
                }
            }
        }
        rng.shuffle(&mut found);
        group.extend(found.into_iter().take(size - 1));
        group
    }
}

/// Agent `first` and other delayed agents drawn at random, up to `size`.
fn random(first: usize, delayed: &[usize], size: usize, rng: &mut SplitMix64) -> Vec<usize> {
    let mut group = vec![first];
    if delayed.len() <= size {
        group.extend(delayed.iter().copied().filter(|&a| a != first));
        return group;
    }
    while group.len() < size {
        let a = delayed[rng.below(delayed.len())];
        if !group.contains(&a) {
            group.push(a);
        }
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Connectivity, Grid, Pos, Terrain};
    use crate::mapf::result::Metrics;
    use crate::mapf::{Options, Problem, solve};
    use crate::rng::SeedableRng;

    /// A crowded 16×16 instance with scattered walls: 70 agents, starts and goals drawn.
    fn crowded() -> Problem {
        let mut grid = Grid::new(16, 16).unwrap();
        for (x, y) in (0..16).flat_map(|y| (0..16).map(move |x| (x, y))) {
            if (x * 5 + y * 3) % 7 == 0 && x % 15 != 0 && y % 15 != 0 {
                grid.set(Pos::new(x, y), Terrain::Wall).unwrap();
            }
        }
        let mut free: Vec<Pos> = (0..grid.len())
            .map(|c| grid.pos(c))
            .filter(|&p| grid.is_passable(p))
            .collect();
        SplitMix64::seed_from_u64(5).shuffle(&mut free);
        let n = 70;
        let (starts, goals) = (free[..n].to_vec(), free[n..2 * n].to_vec());
        Problem::new(grid, Connectivity::Four, starts, goals).unwrap()
    }

    /// Panics unless `plan` is a legal plan of `problem`: moves to neighbours or stays, no
    /// shared cell, no swap, from the starts to the goals.
    fn check(problem: &Problem, dist: &DistanceTables, plan: &[Vec<u32>]) {
        assert_eq!(plan[0], problem.starts);
        assert_eq!(plan.last().unwrap(), &problem.goals);
        for (t, w) in plan.windows(2).enumerate() {
            let mut seen = std::collections::HashSet::new();
            for a in 0..problem.agents() {
                let (u, v) = (w[0][a], w[1][a]);
                assert!(u == v || dist.moves().of(u as usize).contains(&v), "t {t}");
                assert!(seen.insert(v), "t {t}: two agents on {v}");
                let swap = (0..problem.agents()).any(|b| b != a && w[0][b] == v && w[1][b] == u);
                assert!(u == v || !swap, "t {t}: agent {a} swaps");
            }
        }
    }

    #[test]
    fn rounds_keep_the_plan_legal_lower_its_soc_and_replay_for_a_seed() {
        let problem = crowded();
        let dist = DistanceTables::of(&problem);
        let first = solve(&problem, &Options::default()).unwrap();
        let plan = first.plan.unwrap();
        let cells = problem.grid().len();
        let refined = |seed: u64| {
            let mut r = Refiner::new(&plan, &problem.goals, cells, usize::MAX).unwrap();
            let mut rng = SplitMix64::seed_from_u64(seed);
            let mut soc = r.soc();
            for _ in 0..400 {
                let lowered = r.round(&dist, &mut rng);
                assert_eq!(lowered, r.soc() < soc, "a round reports what it did");
                assert!(r.soc() <= soc, "a round never raises the soc");
                soc = r.soc();
            }
            r.plan()
        };
        let a = refined(1);
        check(&problem, &dist, &a);
        let soc = Metrics::of(&a, &problem.goals).soc;
        assert!(
            soc < first.soc,
            "{soc} not below the first plan's {}",
            first.soc
        );
        assert_eq!(a, refined(1));
    }
}
