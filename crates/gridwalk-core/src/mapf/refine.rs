//! Refinement of a plan by large neighbourhood search (Li et al., MAPF-LNS, IJCAI 2021), the
//! kind of refiner lacam3 runs beside LaCAM\*: take a few agents out of the plan, plan them
//! again one after another by space-time A* around everyone else (prioritized planning), and
//! keep the new paths when their sum of costs is lower. Each agent's cost is the first timestep
//! from which it stays on its goal, so a round never raises the plan's soc.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use super::dist::DistanceTables;
use crate::crowd::NONE;
use crate::rng::{Draw, SplitMix64};

/// How many agents a round replans at most (of 3, 4, 6, 8 and 16 on random-32-32-20 with 409
/// agents, 3 and 4 lowered the soc most in a given time).
const GROUP: usize = 4;

/// Expansions one agent's space-time search may take before the round gives up.
const EXPANSIONS: usize = 4_000;

/// A multiply-and-fold hasher for the (cell, timestep) keys: the standard hasher's
/// protection against chosen keys is not needed here, and it was most of a round's time.
#[derive(Default)]
struct CellTime(u64);

impl Hasher for CellTime {
    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).rotate_left(5);
        }
    }

    fn write_u32(&mut self, v: u32) {
        self.0 = self.0.rotate_left(32) ^ v as u64;
    }
}

/// A map keyed by (cell, timestep).
type ByCellTime<V> = HashMap<(u32, u32), V, BuildHasherDefault<CellTime>>;

/// A plan as one path per agent, each ending where the agent arrives for good.
pub(super) struct Refiner {
    paths: Vec<Vec<u32>>,
    goals: Vec<u32>,
    /// Who stands on (cell, timestep), over all paths but their tails on the goals.
    at: ByCellTime<u32>,
    /// Per cell: the timestep from which an agent whose goal it is stands there for good.
    parked: Vec<u32>,
    /// Per cell: the agent whose goal it is, or [`NONE`].
    goal_of: Vec<u32>,
}

impl Refiner {
    /// The refiner of `plan` (configurations from timestep 0) towards `goals` on a grid of
    /// `cells` cells.
    pub(super) fn new(plan: &[Vec<u32>], goals: &[u32], cells: usize) -> Refiner {
        let mut paths = Vec::with_capacity(goals.len());
        for (a, &goal) in goals.iter().enumerate() {
            let mut end = plan.len() - 1;
            while end > 0 && plan[end - 1][a] == goal {
                end -= 1;
            }
            paths.push(plan[..=end].iter().map(|c| c[a]).collect());
        }
        let mut goal_of = vec![NONE; cells];
        for (a, &g) in goals.iter().enumerate() {
            goal_of[g as usize] = a as u32;
        }
        let mut r = Refiner {
            paths,
            goals: goals.to_vec(),
            at: ByCellTime::default(),
            parked: vec![NONE; cells],
            goal_of,
        };
        for a in 0..goals.len() {
            r.enroll(a);
        }
        r
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

    fn enroll(&mut self, a: usize) {
        let path = &self.paths[a];
        for (t, &c) in path.iter().enumerate() {
            self.at.insert((c, t as u32), a as u32);
        }
        self.parked[self.goals[a] as usize] = path.len() as u32 - 1;
    }

    fn withdraw(&mut self, a: usize) {
        let path = &self.paths[a];
        for (t, &c) in path.iter().enumerate() {
            self.at.remove(&(c, t as u32));
        }
        self.parked[self.goals[a] as usize] = NONE;
    }

    /// One round on a group of agents drawn with `rng` (most of them delayed ones); true when
    /// it lowered the soc.
    pub(super) fn round(&mut self, dist: &DistanceTables, rng: &mut SplitMix64) -> bool {
        let n = self.goals.len();
        let delayed: Vec<usize> = (0..n)
            .filter(|&a| self.paths[a].len() as u32 - 1 > dist.get(a, self.paths[a][0] as usize))
            .collect();
        if delayed.is_empty() {
            return false;
        }
        let first = delayed[rng.below(delayed.len())];
        let mut group = self.neighbourhood(first, dist, rng);
        rng.shuffle(&mut group);
        let before: u64 = group.iter().map(|&a| self.paths[a].len() as u64 - 1).sum();
        let old: Vec<Vec<u32>> = group.iter().map(|&a| self.paths[a].clone()).collect();
        for &a in &group {
            self.withdraw(a);
        }
        let horizon = self.paths.iter().map(Vec::len).max().unwrap_or(1) as u32 + 64;
        let mut after = 0u64;
        let mut done = 0;
        // The least the agents still to plan can cost: their own distances.
        let mut rest: u64 = group
            .iter()
            .map(|&a| dist.get(a, self.paths[a][0] as usize) as u64)
            .sum();
        for &a in &group {
            rest -= dist.get(a, self.paths[a][0] as usize) as u64;
            // Past this, the group cannot cost less than before.
            let bound = before.saturating_sub(after + rest + 1);
            match self.search(a, dist, horizon, bound) {
                Some(path) => {
                    after += path.len() as u64 - 1;
                    self.paths[a] = path;
                    self.enroll(a);
                    done += 1;
                }
                None => break,
            }
        }
        if done == group.len() && after < before {
            return true;
        }
        for &a in &group[..done] {
            self.withdraw(a);
        }
        for (&a, path) in group.iter().zip(old) {
            self.paths[a] = path;
            self.enroll(a);
        }
        false
    }

    /// Agent `first` and the agents in its way, as MAPF-LNS's agent-based neighbourhood: walking
    /// each member's shortest path from its start (ties at random), whoever stands on a cell of
    /// it at that timestep or the next joins, up to [`GROUP`] agents.
    fn neighbourhood(
        &self,
        first: usize,
        dist: &DistanceTables,
        rng: &mut SplitMix64,
    ) -> Vec<usize> {
        let moves = dist.moves();
        let mut group = vec![first];
        let mut k = 0;
        while k < group.len() && group.len() < GROUP {
            let a = group[k];
            k += 1;
            let (mut cell, mut t) = (self.paths[a][0], 0u32);
            while cell != self.goals[a] && group.len() < GROUP {
                for s in [t, t + 1] {
                    let here = self.at.get(&(cell, s)).copied().or_else(|| {
                        let p = self.parked[cell as usize];
                        (p != NONE && p <= s).then(|| self.goal_of[cell as usize])
                    });
                    if let Some(b) = here.filter(|&b| !group.contains(&(b as usize))) {
                        group.push(b as usize);
                    }
                }
                let d = dist.get(a, cell as usize);
                let on: Vec<u32> = moves
                    .of(cell as usize)
                    .iter()
                    .copied()
                    .filter(|&m| dist.get(a, m as usize) < d)
                    .collect();
                cell = on[rng.below(on.len())];
                t += 1;
            }
        }
        group.truncate(GROUP);
        group
    }

    /// Whether agent `a` may be on `cell` at timestep `t`.
    fn free(&self, a: usize, cell: u32, t: u32) -> bool {
        let p = self.parked[cell as usize];
        (p == NONE || t < p) && self.at.get(&(cell, t)).is_none_or(|&b| b as usize == a)
    }

    /// The first timestep from which nobody else stands on `cell` (up to `horizon`).
    fn free_from(&self, a: usize, cell: u32, horizon: u32) -> u32 {
        (0..=horizon)
            .rev()
            .find(|&s| !self.free(a, cell, s))
            .map_or(0, |s| s + 1)
    }

    /// Agent `a`'s cheapest path around the others (space-time A* on the distance tables),
    /// arriving for good at most `bound` timesteps in; `None` if there is none within the
    /// search's limits.
    fn search(
        &self,
        a: usize,
        dist: &DistanceTables,
        horizon: u32,
        bound: u64,
    ) -> Option<Vec<u32>> {
        let start = self.paths[a][0];
        let goal = self.goals[a];
        let moves = dist.moves();
        let mut open = BinaryHeap::new();
        let mut parent: ByCellTime<u32> =
            ByCellTime::with_capacity_and_hasher(4 * EXPANSIONS, Default::default());
        // The agent can stay on its goal from `settle` on: arrival before that is no arrival.
        let settle = self.free_from(a, goal, horizon);
        if settle as u64 > bound {
            return None;
        }
        let h = |c: u32, t: u32| dist.get(a, c as usize).max(settle.saturating_sub(t));
        open.push(Reverse((h(start, 0), Reverse(0u32), start)));
        parent.insert((start, 0), NONE);
        let mut expansions = 0;
        while let Some(Reverse((f, Reverse(t), cell))) = open.pop() {
            if f as u64 > bound || t >= horizon {
                return None;
            }
            if cell == goal && t >= settle {
                let mut path = vec![cell];
                let (mut c, mut s) = (cell, t);
                while s > 0 {
                    c = parent[&(c, s)];
                    s -= 1;
                    path.push(c);
                }
                path.reverse();
                return Some(path);
            }
            expansions += 1;
            if expansions > EXPANSIONS {
                return None;
            }
            for &next in moves.of(cell as usize).iter().chain([&cell]) {
                let key = (next, t + 1);
                if parent.contains_key(&key) || !self.free(a, next, t + 1) {
                    continue;
                }
                // No trading cells with the agent on `next` now.
                let swap = self
                    .at
                    .get(&(next, t))
                    .is_some_and(|&b| b as usize != a && self.at.get(&(cell, t + 1)) == Some(&b));
                if swap {
                    continue;
                }
                parent.insert(key, cell);
                open.push(Reverse((t + 1 + h(next, t + 1), Reverse(t + 1), next)));
            }
        }
        None
    }
}
