//! PIBT with the swap operation (Okumura, lacam3): LaCAM's configuration generator for the
//! densest instances, where the crowd's step rule ([`crate::crowd`]) stalls. Two agents that
//! face each other in a corridor, each needing the other's side, cannot pass under plain PIBT:
//! the one with priority pushes the other back for ever. With the swap, the agent with priority
//! walks *away* from its goal instead, pulling the other into its cell, until they reach a cell
//! with a third way out where they can pass; a pusher likewise clears the way for an agent
//! behind it that needs to get past.
//!
//! The generator takes one configuration to a successor, as [`crate::crowd::StepRule::step`]
//! does, under the same constraints (cells fixed for some agents): no two agents on a cell, no
//! two agents trading cells. It works with 4 moves only (no diagonals to keep from crossing).

use super::dist::{DistanceTables, Moves};
use crate::crowd::NONE;
use crate::rng::{Draw, SplitMix64};

/// The most candidates of an agent: its cell and four neighbours.
const CANDIDATES: usize = 5;

/// How many successors [`SwapPibt::best_step`] draws (lacam3's number of PIBT runs).
const DRAWS: usize = 10;

/// PIBT with swaps, its buffers sized for one grid and one number of agents.
pub(super) struct SwapPibt {
    occ_now: Vec<u32>,
    occ_next: Vec<u32>,
    next: Vec<u32>,
    /// The best successor of [`best_step`](SwapPibt::best_step).
    best: Vec<u32>,
    goals: Vec<u32>,
}

/// What one step reads: the configuration, the move graph, the distances, and each agent's
/// preferred next cell (its scatter path's, or [`NONE`]).
struct View<'a> {
    cur: &'a [u32],
    moves: &'a Moves,
    dist: &'a DistanceTables,
    pref: &'a [u32],
}

impl SwapPibt {
    /// The generator for a grid of `cells` cells and agents heading for `goals`.
    pub(super) fn new(cells: usize, goals: &[u32]) -> SwapPibt {
        SwapPibt {
            occ_now: vec![NONE; cells],
            occ_next: vec![NONE; cells],
            next: vec![NONE; goals.len()],
            best: vec![NONE; goals.len()],
            goals: goals.to_vec(),
        }
    }

    /// The best of [`DRAWS`] successors ([`step`](Self::step), each with its own random
    /// tie-breaks), as lacam3 picks: the fewest moves off the goals this step plus the sum of
    /// the agents' distances after it. `None` when no draw finds one.
    pub(super) fn best_step(
        &mut self,
        cur: &[u32],
        order: &[u32],
        fixed: &[Option<u32>],
        dist: &DistanceTables,
        pref: &[u32],
        rng: &mut SplitMix64,
    ) -> Option<&[u32]> {
        let view = View {
            cur,
            moves: dist.moves(),
            dist,
            pref,
        };
        let mut best = u64::MAX;
        for _ in 0..DRAWS {
            if !self.step(&view, order, fixed, rng) {
                continue;
            }
            let mut f = 0u64;
            for (i, (&c, &n)) in cur.iter().zip(&self.next).enumerate() {
                let g = self.goals[i];
                f += (c != g || n != g) as u64 + dist.get(i, n as usize) as u64;
            }
            if f < best {
                best = f;
                self.best.copy_from_slice(&self.next);
            }
        }
        (best < u64::MAX).then_some(&self.best[..])
    }

    /// Sets `next` to a successor of `view.cur` in which the agents of `fixed` (an entry per
    /// agent, `None` for free ones) take their cells, the others moved by PIBT with swaps in
    /// `order`; false (and `next` cleared) when the constraints collide or an agent that must
    /// move cannot.
    fn step(
        &mut self,
        view: &View,
        order: &[u32],
        fixed: &[Option<u32>],
        rng: &mut SplitMix64,
    ) -> bool {
        let cur = view.cur;
        let ok = self.place_fixed(cur, fixed)
            && order
                .iter()
                .all(|&i| self.next[i as usize] != NONE || self.push(view, i, rng));
        for (i, &c) in cur.iter().enumerate() {
            self.occ_now[c as usize] = NONE;
            if self.next[i] != NONE {
                self.occ_next[self.next[i] as usize] = NONE;
            }
        }
        if !ok {
            self.next.fill(NONE);
        }
        ok
    }

    /// Marks who stands where and reserves the fixed cells; false when two fixed cells collide
    /// or two fixed agents trade cells.
    fn place_fixed(&mut self, cur: &[u32], fixed: &[Option<u32>]) -> bool {
        self.next.fill(NONE);
        for (i, &c) in cur.iter().enumerate() {
            self.occ_now[c as usize] = i as u32;
        }
        for (i, f) in fixed.iter().enumerate() {
            let Some(f) = *f else { continue };
            if self.occ_next[f as usize] != NONE {
                return false;
            }
            let j = self.occ_now[f as usize];
            if j != NONE && j as usize != i && self.next[j as usize] == cur[i] {
                return false;
            }
            self.occ_next[f as usize] = i as u32;
            self.next[i] = f;
        }
        true
    }

    /// PIBT's call for agent `i`: its candidates best first (reversed when it must swap), the
    /// first free one taken, pushing its occupant on; false when it had to stay.
    fn push(&mut self, v: &View, i: u32, rng: &mut SplitMix64) -> bool {
        let iu = i as usize;
        let here = v.cur[iu];
        let mut cands = [(0.0f64, here); CANDIDATES];
        let mut k = 0;
        for &u in v.moves.of(here as usize).iter().chain([&here]) {
            let key = if u == v.pref[iu] {
                -1.0
            } else {
                v.dist.get(iu, u as usize) as f64 + rng.unit()
            };
            cands[k] = (key, u);
            k += 1;
        }
        let cands = &mut cands[..k];
        cands.sort_by(|a, b| a.0.total_cmp(&b.0));
        let partner = self.swap_partner(v, i, cands[0].1);
        if partner != NONE {
            cands.reverse();
        }
        for (rank, &(_, u)) in cands.iter().enumerate() {
            if self.occ_next[u as usize] != NONE {
                continue;
            }
            let j = self.occ_now[u as usize];
            if j != NONE && self.next[j as usize] == here {
                continue;
            }
            self.occ_next[u as usize] = i;
            self.next[iu] = u;
            if j != NONE && u != here && self.next[j as usize] == NONE && !self.push(v, j, rng) {
                continue;
            }
            if rank == 0 && partner != NONE {
                self.pull(partner, here);
            }
            return true;
        }
        self.occ_next[here as usize] = i;
        self.next[iu] = here;
        false
    }

    /// The swap's second half: `partner` takes the cell its puller left, if both are free.
    fn pull(&mut self, partner: u32, cell: u32) {
        if self.next[partner as usize] == NONE && self.occ_next[cell as usize] == NONE {
            self.occ_next[cell as usize] = partner;
            self.next[partner as usize] = cell;
        }
    }

    /// The agent agent `i` should swap with, given its best cell `best`, or [`NONE`]: the
    /// agent on `best` when the two must pass and can; else a neighbour that needs to get past
    /// `i` going the way `i` goes (clearing the way, as in push and swap).
    fn swap_partner(&self, v: &View, i: u32, best: u32) -> u32 {
        let here = v.cur[i as usize];
        let j = self.occ_now[best as usize];
        if j != NONE
            && j != i
            && self.next[j as usize] == NONE
            && self.must_swap(v, (i, here), (j, v.cur[j as usize]))
            && self.can_swap(v, v.cur[j as usize], here)
        {
            return j;
        }
        if best == here {
            return NONE;
        }
        for &u in v.moves.of(here as usize) {
            let k = self.occ_now[u as usize];
            if k != NONE
                && best != v.cur[k as usize]
                && self.must_swap(v, (k, here), (i, best))
                && self.can_swap(v, best, here)
            {
                return k;
            }
        }
        NONE
    }

    /// The cell beyond `at` going away from `from`, when `at` has exactly one such way out
    /// (neighbours that are agents settled in dead ends do not count): `Ok(cell)`; `Err(n)`
    /// with the number of ways out otherwise.
    fn way_on(&self, moves: &Moves, from: u32, at: u32) -> Result<u32, usize> {
        let mut ways = 0;
        let mut beyond = NONE;
        for &u in moves.of(at as usize) {
            let a = self.occ_now[u as usize];
            let settled =
                moves.of(u as usize).len() == 1 && a != NONE && self.goals[a as usize] == u;
            if u != from && !settled {
                ways += 1;
                beyond = u;
            }
        }
        if ways == 1 { Ok(beyond) } else { Err(ways) }
    }

    /// Whether `pusher` (at its cell) and `puller` (at its) must trade places: walking on from
    /// the puller's cell along the corridor while that brings the pusher nearer its goal, no
    /// cell lets them pass, and then each needs the other's side.
    fn must_swap(&self, v: &View, (pusher, from): (u32, u32), (puller, to): (u32, u32)) -> bool {
        let d = |a: u32, c: u32| v.dist.get(a as usize, c as usize);
        let (mut back, mut ahead) = (from, to);
        let mut steps = 0;
        while d(pusher, ahead) < d(pusher, back) && steps < self.occ_now.len() {
            steps += 1;
            match self.way_on(v.moves, back, ahead) {
                Ok(beyond) => (back, ahead) = (ahead, beyond),
                Err(0) => break,
                Err(_) => return false,
            }
        }
        d(puller, back) < d(puller, ahead)
            && (d(pusher, back) == 0 || d(pusher, ahead) < d(pusher, back))
    }

    /// Whether the pair can trade places: walking from `pusher`'s cell through `puller`'s and
    /// on along the corridor reaches a cell with two ways out.
    fn can_swap(&self, v: &View, pusher: u32, puller: u32) -> bool {
        let (mut back, mut ahead) = (pusher, puller);
        let mut steps = 0;
        while ahead != pusher && steps < self.occ_now.len() {
            steps += 1;
            match self.way_on(v.moves, back, ahead) {
                Ok(beyond) => (back, ahead) = (ahead, beyond),
                Err(0) => return false,
                Err(_) => return true,
            }
        }
        false
    }
}
