//! Initial paths that spread the agents out, lacam3's "scatter" (after Han and Yu's space
//! utilisation optimisation, ICRA 2022): each agent gets a path from start to goal at most a
//! margin longer than its shortest, chosen to cross the other agents' paths as little as
//! possible, replanned agent by agent while that lowers the collision count. LaCAM's PIBT then
//! tries first, from a cell on its path, the path's next cell ([`Guide`]).
//!
//! The paths are simple (no waits, no cell twice), so a path is a map from cell to next cell,
//! and an agent pushed off its path falls back to its distance table.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use web_time::Instant;

use super::dist::{DistanceTables, Moves, UNREACHABLE};
use crate::crowd::{Guidance, NONE};
use crate::grid::Grid;
use crate::rng::Draw;

/// Each agent's path as (cell, next cell) pairs sorted by cell.
pub(super) struct Scatter {
    /// Agent a's pairs are `pairs[offset[a]..offset[a + 1]]`.
    offset: Vec<u32>,
    pairs: Vec<(u32, u32)>,
    /// Collisions among the paths (read by the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    collisions: u64,
    /// Expansions of the path searches it took (read by the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    expansions: u64,
}

impl Scatter {
    /// An upper bound on the bytes [`build`] takes for paths of at most `moves` moves in all on
    /// a grid of `cells` cells: per cell two lists, per move a collision entry, two copies of
    /// the path and a pair.
    pub(super) fn bytes_needed(cells: usize, moves: usize) -> usize {
        cells
            .saturating_mul(48)
            .saturating_add(moves.saturating_mul(8 + 8 + 8 + 12))
    }

    /// The cell after `cell` on agent `agent`'s path, [`NONE`] when `cell` is off it (or its
    /// goal).
    #[inline]
    pub(super) fn next(&self, agent: usize, cell: u32) -> u32 {
        let s = &self.pairs[self.offset[agent] as usize..self.offset[agent + 1] as usize];
        match s.binary_search_by_key(&cell, |p| p.0) {
            Ok(k) => s[k].1,
            Err(_) => NONE,
        }
    }
}

/// Who stands where when, over all enrolled paths.
struct Collisions {
    /// Per cell: (timestep, agent) of every path through it.
    at: Vec<Vec<(u32, u32)>>,
    /// Per cell: the last timesteps of the paths that end there.
    ends: Vec<Vec<u32>>,
    /// Collisions among the enrolled paths.
    count: u64,
}

impl Collisions {
    /// Collisions of a move from `from` at timestep `t` to `to` at `t + 1`: agents on `to`
    /// then, agents making the opposite move, and agents whose paths ended on `to` before.
    fn cost(&self, paths: &[Vec<u32>], from: u32, to: u32, t: u32) -> u64 {
        let mut c = 0;
        for &(s, j) in &self.at[to as usize] {
            let here_then = s == t + 1;
            let swaps = s == t && paths[j as usize].get(t as usize + 1) == Some(&from);
            c += (here_then || swaps) as u64;
        }
        c + self.ends[to as usize]
            .iter()
            .filter(|&&e| t + 1 > e)
            .count() as u64
    }

    /// Adds agent `i`'s path and its collisions with the others.
    fn enroll(&mut self, paths: &[Vec<u32>], i: usize) {
        let path = &paths[i];
        let Some(&goal) = path.last() else { return };
        for (t, &v) in path.iter().enumerate() {
            if t > 0 {
                self.count += self.cost(paths, path[t - 1], v, t as u32 - 1);
            }
            self.at[v as usize].push((t as u32, i as u32));
        }
        let end = path.len() as u32 - 1;
        self.ends[goal as usize].push(end);
        self.count += self.at[goal as usize]
            .iter()
            .filter(|&&(s, _)| s > end)
            .count() as u64;
    }

    /// Removes agent `i`'s path and its collisions; returns how many there were.
    fn clear(&mut self, paths: &[Vec<u32>], i: usize) -> u64 {
        let before = self.count;
        let path = &paths[i];
        let Some(&goal) = path.last() else { return 0 };
        for (t, &v) in path.iter().enumerate() {
            let entry = &mut self.at[v as usize];
            if let Some(k) = entry
                .iter()
                .position(|&(s, j)| s == t as u32 && j == i as u32)
            {
                entry.swap_remove(k);
            }
            if t > 0 {
                self.count -= self.cost(paths, path[t - 1], v, t as u32 - 1);
            }
        }
        let end = path.len() as u32 - 1;
        let ends = &mut self.ends[goal as usize];
        if let Some(k) = ends.iter().position(|&e| e == end) {
            ends.swap_remove(k);
        }
        self.count -= self.at[goal as usize]
            .iter()
            .filter(|&&(s, _)| s > end)
            .count() as u64;
        before - self.count
    }
}

/// When [`build`] stops before its rounds end on their own: checked before each agent's path.
#[derive(Clone, Copy, Debug)]
pub(super) enum Stop {
    /// At this time (a run cut by it does not replay).
    Deadline(Instant),
    /// After this many expansions of the path searches in all (a run replays exactly).
    Work(u64),
}

/// The paths: rounds of replanning the agents in a random order (after the first round, only
/// those whose paths collide), at least two, and on while a round lowers the collision count
/// (none left, or `stop`, ends it). The round with the fewest collisions is kept.
pub(super) fn build<R: Draw + ?Sized>(
    grid: &Grid,
    (starts, goals): (&[u32], &[u32]),
    dist: &DistanceTables,
    margin: u32,
    stop: Stop,
    rng: &mut R,
) -> Scatter {
    let mut rounds = Rounds::new(grid.len(), (starts, goals), margin);
    rounds.advance(dist, stop, u64::MAX, rng);
    rounds.finish()
}

/// [`build`]'s rounds in progress, so that a caller can spread them over several calls
/// ([`advance`](Self::advance)): the paths come out the same however the calls cut them.
pub(super) struct Rounds {
    starts: Vec<u32>,
    goals: Vec<u32>,
    margin: u32,
    table: Collisions,
    paths: Vec<Vec<u32>>,
    /// The fewest collisions at the end of a round, and that round's paths.
    best: (u64, Vec<Vec<u32>>),
    search: PathSearch,
    order: Vec<usize>,
    /// Rounds begun, and the collisions when the last one began.
    rounds: u32,
    last: u64,
    /// The place in `order` of the next agent of the round under way; `None` between rounds.
    next: Option<usize>,
    ended: bool,
}

impl Rounds {
    /// Rounds for agents from `starts` to `goals` on a grid of `cells` cells, none begun.
    pub(super) fn new(cells: usize, (starts, goals): (&[u32], &[u32]), margin: u32) -> Rounds {
        let n = starts.len();
        Rounds {
            starts: starts.to_vec(),
            goals: goals.to_vec(),
            margin,
            table: Collisions {
                at: vec![Vec::new(); cells],
                ends: vec![Vec::new(); cells],
                count: 0,
            },
            paths: vec![Vec::new(); n],
            best: (u64::MAX, Vec::new()),
            search: PathSearch::new(cells),
            order: (0..n).collect(),
            rounds: 0,
            last: u64::MAX,
            next: None,
            ended: false,
        }
    }

    /// Expansions of the path searches so far ([`Stop::Work`]'s measure).
    pub(super) fn expansions(&self) -> u64 {
        self.search.expansions
    }

    /// Goes on with the rounds, `dist` the tables of the goals, until they end (on their own
    /// or by `stop`) or, before an agent's path, `pause` expansions have been made in all;
    /// true once they have ended. `rng` must be the same generator from call to call.
    pub(super) fn advance<R: Draw + ?Sized>(
        &mut self,
        dist: &DistanceTables,
        stop: Stop,
        pause: u64,
        rng: &mut R,
    ) -> bool {
        while !self.ended {
            let Some(k) = self.next else {
                self.begin_round(rng);
                continue;
            };
            if k == self.order.len() {
                self.end_round();
                continue;
            }
            self.ended = match stop {
                Stop::Deadline(at) => Instant::now() >= at,
                Stop::Work(most) => self.search.expansions >= most,
            };
            if self.ended || self.search.expansions >= pause {
                break;
            }
            self.replan(dist, self.order[k]);
            self.next = Some(k + 1);
        }
        self.ended
    }

    /// Begins a round in a new random order, or ends the rounds when the last did not lower
    /// the collision count (after two).
    fn begin_round<R: Draw + ?Sized>(&mut self, rng: &mut R) {
        if self.rounds >= 2 && self.table.count >= self.last {
            self.ended = true;
            return;
        }
        self.rounds += 1;
        self.last = self.table.count;
        rng.shuffle(&mut self.order);
        self.next = Some(0);
    }

    /// Keeps the round's paths if they are the best yet; no collision left ends the rounds.
    fn end_round(&mut self) {
        if self.table.count < self.best.0 {
            self.best = (self.table.count, self.paths.clone());
        }
        self.ended = self.table.count == 0;
        self.next = None;
    }

    /// Replans agent `i`'s path, unless it collides with none after the first round.
    fn replan(&mut self, dist: &DistanceTables, i: usize) {
        // A path without collisions is kept: replanning cannot lower the count.
        if self.table.clear(&self.paths, i) == 0 && self.rounds > 1 {
            self.table.enroll(&self.paths, i);
            return;
        }
        let bound = dist.get(i, self.starts[i] as usize) + self.margin;
        if let Some(path) = self.search.run(
            dist.moves(),
            &self.table,
            &self.paths,
            (self.starts[i], self.goals[i]),
            |c| dist.get(i, c),
            bound,
        ) {
            self.paths[i] = path;
        }
        self.table.enroll(&self.paths, i);
    }

    /// The paths: the best round's, or the paths as they stand if no round ended.
    pub(super) fn finish(self) -> Scatter {
        let (collisions, paths) = if self.best.1.is_empty() {
            (self.table.count, self.paths)
        } else {
            self.best
        };
        let mut offset = Vec::with_capacity(paths.len() + 1);
        let mut pairs = Vec::new();
        offset.push(0);
        for path in &paths {
            let from = pairs.len();
            pairs.extend(path.windows(2).map(|w| (w[0], w[1])));
            pairs[from..].sort_unstable();
            offset.push(pairs.len() as u32);
        }
        Scatter {
            offset,
            pairs,
            collisions,
            expansions: self.search.expansions,
        }
    }
}

/// A best-first search over cells, fewest collisions first, then the least estimate of the
/// path's length, then the fewest moves to go (deepest first, so that on open ground it walks
/// one shortest path instead of all): the scatter's single-agent planner.
struct PathSearch {
    /// Per cell: the cell it was reached from ([`NONE`] not yet, itself for the start).
    parent: Vec<u32>,
    used: Vec<u32>,
    /// Open entries: (collisions, estimated length, moves to go, node), packed by [`entry`].
    open: BinaryHeap<Reverse<u128>>,
    /// Nodes: (cell, the cell it comes from, moves from the start).
    nodes: Vec<(u32, u32, u32)>,
    /// Cells expanded over all runs: [`Stop::Work`]'s measure.
    expansions: u64,
}

impl PathSearch {
    fn new(cells: usize) -> PathSearch {
        PathSearch {
            parent: vec![NONE; cells],
            used: Vec::new(),
            open: BinaryHeap::new(),
            nodes: Vec::new(),
            expansions: 0,
        }
    }

    /// A path from `start` to `goal` of at most `bound` moves, or `None` if there is none;
    /// `h` is the exact distance to `goal`.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        moves: &Moves,
        table: &Collisions,
        paths: &[Vec<u32>],
        (start, goal): (u32, u32),
        h: impl Fn(usize) -> u32,
        bound: u32,
    ) -> Option<Vec<u32>> {
        self.open.clear();
        self.nodes.clear();
        self.open.push(Reverse(entry(0, h(start as usize), 0, 0)));
        self.nodes.push((start, start, 0));
        let mut found = false;
        while let Some(Reverse(e)) = self.open.pop() {
            let (c, key) = ((e >> 96) as u64, e as u32);
            let (cell, parent, g) = self.nodes[key as usize];
            if self.parent[cell as usize] != NONE {
                continue;
            }
            self.parent[cell as usize] = parent;
            self.used.push(cell);
            self.expansions += 1;
            if cell == goal {
                found = true;
                break;
            }
            for &u in moves.of(cell as usize) {
                let hu = h(u as usize);
                if u == start
                    || self.parent[u as usize] != NONE
                    || hu == UNREACHABLE
                    || g + 1 + hu > bound
                {
                    continue;
                }
                let cu = c + table.cost(paths, cell, u, g);
                let node = self.nodes.len() as u32;
                self.open.push(Reverse(entry(cu, g + 1 + hu, hu, node)));
                self.nodes.push((u, cell, g + 1));
            }
        }
        let path = found.then(|| {
            let mut path = vec![goal];
            let mut at = goal;
            while at != start {
                at = self.parent[at as usize];
                path.push(at);
            }
            path.reverse();
            path
        });
        for &c in &self.used {
            self.parent[c as usize] = NONE;
        }
        self.used.clear();
        path
    }
}

/// An open entry as one number that orders as the tuple `(collisions, estimate, to go, node)`
/// (one comparison, where the tuple's branches on each field); collisions past `u32::MAX`
/// count as `u32::MAX`.
#[inline]
fn entry(collisions: u64, estimate: u32, to_go: u32, node: u32) -> u128 {
    let c = collisions.min(u32::MAX as u64) as u128;
    c << 96 | (estimate as u128) << 64 | (to_go as u128) << 32 | node as u128
}

/// LaCAM's guidance with the scatter: an agent's guidance (its distance table, or any
/// [`Guidance`] in moves), except that the next cell of its path from where it stands comes
/// before every other candidate. Values are tripled so that room is left below them: the
/// path's next cell gets three times the agent's distance less two, every other cell three
/// times its own plus two, and the goal 0.
pub(super) struct Guide<'a, G: Guidance = DistanceTables> {
    pub dist: &'a G,
    /// Each agent's cell now.
    pub cur: &'a [u32],
    /// Each agent's path cell after its cell now, or [`NONE`].
    pub pref: &'a [u32],
}

impl<G: Guidance> Guidance for Guide<'_, G> {
    #[inline]
    fn distance(&self, agent: usize, cell: usize) -> u64 {
        let d = self.dist.distance(agent, cell);
        if d == u64::MAX {
            u64::MAX
        } else if d == 0 {
            0
        } else if self.pref[agent] == cell as u32 {
            let here = self.dist.distance(agent, self.cur[agent] as usize);
            here.saturating_mul(3).saturating_sub(2)
        } else {
            d.saturating_mul(3).saturating_add(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Connectivity, Pos, Terrain};
    use crate::rng::{SeedableRng, SplitMix64};

    /// Collisions counted pair by pair from the paths: two agents on one cell at one timestep,
    /// a swap, or an agent on another's goal after that one arrived for good.
    fn recount(paths: &[Vec<u32>]) -> u64 {
        let mut c = 0;
        for (i, p) in paths.iter().enumerate() {
            for (j, q) in paths.iter().enumerate() {
                if i == j {
                    continue;
                }
                let end = p.len() - 1;
                c += q.iter().skip(end + 1).filter(|&&v| v == p[end]).count() as u64;
                if i < j {
                    for t in 0..p.len().min(q.len()) {
                        c += (p[t] == q[t]) as u64;
                        let swap =
                            t + 1 < p.len().min(q.len()) && p[t] == q[t + 1] && p[t + 1] == q[t];
                        c += swap as u64;
                    }
                }
            }
        }
        c
    }

    #[test]
    fn paths_are_short_simple_walks_and_their_collisions_add_up() {
        let mut grid = Grid::new(12, 12).unwrap();
        for (x, y) in (0..12).flat_map(|y| (0..12).map(move |x| (x, y))) {
            if (x * 7 + y * 5) % 6 == 0 && x % 11 != 0 {
                grid.set(Pos::new(x, y), Terrain::Wall).unwrap();
            }
        }
        let free: Vec<u32> = (0..grid.len() as u32)
            .filter(|&c| grid.weight(c as usize) != 0)
            .collect();
        let (mut checked, mut colliding) = (0, 0);
        for seed in 0..20u64 {
            let mut rng = SplitMix64::seed_from_u64(seed);
            let mut cells = free.clone();
            rng.shuffle(&mut cells);
            let n = 30;
            let starts = &cells[..n];
            let mut goals = cells[n..2 * n].to_vec();
            goals.reverse();
            let conn = Connectivity::Four;
            let dist = DistanceTables::new(&grid, conn, &goals);
            if (0..n).any(|i| dist.get(i, starts[i] as usize) == UNREACHABLE) {
                continue;
            }
            let margin = 3;
            let s = build(
                &grid,
                (starts, &goals),
                &dist,
                margin,
                Stop::Work(u64::MAX),
                &mut rng,
            );
            let mut paths = Vec::new();
            for i in 0..n {
                let mut path = vec![starts[i]];
                while let Some(&at) = path.last() {
                    let next = s.next(i, at);
                    if next == NONE {
                        break;
                    }
                    let mut ns = Vec::new();
                    grid.for_each_neighbor(at as usize, conn, |m, _| ns.push(m as u32));
                    assert!(ns.contains(&next), "seed {seed}, agent {i}: not a move");
                    assert!(
                        !path.contains(&next),
                        "seed {seed}, agent {i}: a cell twice"
                    );
                    path.push(next);
                }
                assert_eq!(path.last(), Some(&goals[i]), "seed {seed}, agent {i}");
                let d = dist.get(i, starts[i] as usize) as usize;
                assert!(
                    path.len() - 1 <= d + margin as usize,
                    "seed {seed}, agent {i}"
                );
                paths.push(path);
            }
            assert_eq!(s.collisions, recount(&paths), "seed {seed}");
            checked += 1;
            colliding += (s.collisions > 0) as u32;
        }
        // The instances are crowded enough that some paths must collide.
        assert!(
            checked >= 10 && colliding >= 1,
            "{checked} checked, {colliding} colliding"
        );
    }

    /// A crowded 12×12 instance of `n` agents drawn with `seed`, and its tables.
    fn crowded(seed: u64, n: usize) -> (Grid, Vec<u32>, Vec<u32>, DistanceTables) {
        let grid = Grid::new(12, 12).unwrap();
        let mut cells: Vec<u32> = (0..grid.len() as u32).collect();
        let mut rng = SplitMix64::seed_from_u64(seed);
        rng.shuffle(&mut cells);
        let (starts, goals) = (cells[..n].to_vec(), cells[n..2 * n].to_vec());
        let dist = DistanceTables::new(&grid, Connectivity::Four, &goals);
        (grid, starts, goals, dist)
    }

    #[test]
    fn rounds_spread_over_many_calls_give_the_paths_of_one() {
        for seed in 0..6 {
            let (grid, starts, goals, dist) = crowded(seed, 50);
            let ends = (&starts[..], &goals[..]);
            let whole = build(&grid, ends, &dist, 3, Stop::Work(u64::MAX), &mut rng(seed));
            let mut rounds = Rounds::new(grid.len(), ends, 3);
            let (mut draws, mut calls) = (rng(seed), 0);
            while !rounds.advance(
                &dist,
                Stop::Work(u64::MAX),
                rounds.expansions() + 40,
                &mut draws,
            ) {
                calls += 1;
            }
            assert!(calls > 10, "seed {seed}: {calls} calls");
            let parts = rounds.finish();
            assert_eq!((parts.pairs, parts.offset), (whole.pairs, whole.offset));
            assert_eq!(parts.expansions, whole.expansions);
        }
    }

    fn rng(seed: u64) -> SplitMix64 {
        SplitMix64::seed_from_u64(seed ^ 0xABCD)
    }

    #[test]
    fn a_work_bound_replays_and_does_not_change_paths_it_does_not_cut() {
        let (grid, starts, goals, dist) = crowded(7, 60);
        let run = |stop| {
            let mut rng = SplitMix64::seed_from_u64(3);
            build(&grid, (&starts, &goals), &dist, 3, stop, &mut rng)
        };
        let free = run(Stop::Work(u64::MAX));
        assert!(free.expansions > 1_000, "{} expansions", free.expansions);
        // A bound checked before each path: one past the total never cuts.
        let uncut = run(Stop::Work(free.expansions + 1));
        assert_eq!(
            (uncut.pairs, uncut.offset),
            (free.pairs.clone(), free.offset)
        );
        let half = run(Stop::Work(free.expansions / 2));
        let again = run(Stop::Work(free.expansions / 2));
        assert!(half.expansions < free.expansions);
        assert_eq!((half.pairs, half.offset), (again.pairs, again.offset));
    }
}
