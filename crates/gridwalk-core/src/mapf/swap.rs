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
//! It is a move model of the one PIBT ([`crate::crowd::core`]): its candidates, and the swap
//! as the core's pass, so its chains of pushes run on the core's explicit stack too.

use super::dist::{DistanceTables, Moves};
use crate::crowd::NONE;
use crate::crowd::core::{Board, Candidates, MAX_CANDIDATES, MoveModel, Pibt};
use crate::rng::{Draw, SplitMix64};

/// How many successors [`SwapPibt::best_step`] draws (lacam3's number of PIBT runs).
const DRAWS: usize = 10;

/// PIBT with swaps, its buffers sized for one grid and one number of agents.
pub(super) struct SwapPibt {
    pibt: Pibt,
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

/// The swap's move model for one step: 4 moves, candidates by distance (an agent's preferred
/// cell first), ties drawn from `rng`, and the swap as the core's pass.
struct Swapping<'a, 'v> {
    view: &'a View<'v>,
    goals: &'a [u32],
    rng: &'a mut SplitMix64,
}

impl SwapPibt {
    /// The generator for a grid of `cells` cells and agents heading for `goals`.
    pub(super) fn new(cells: usize, goals: &[u32]) -> SwapPibt {
        SwapPibt {
            pibt: Pibt::new(cells),
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
            for (i, (&c, &n)) in cur.iter().zip(&self.pibt.board.next).enumerate() {
                let g = self.goals[i];
                f += (c != g || n != g) as u64 + dist.get(i, n as usize) as u64;
            }
            if f < best {
                best = f;
                self.best.copy_from_slice(&self.pibt.board.next);
            }
        }
        (best < u64::MAX).then_some(&self.best[..])
    }

    /// Sets the core's next cells to a successor of `view.cur` in which the agents of `fixed`
    /// (an entry per agent, `None` for free ones) take their cells, the others moved by PIBT
    /// with swaps in `order`; false when the constraints collide or an agent that must move
    /// cannot.
    fn step(
        &mut self,
        view: &View,
        order: &[u32],
        fixed: &[Option<u32>],
        rng: &mut SplitMix64,
    ) -> bool {
        let cur = view.cur;
        self.pibt.reset(cur.len());
        let mut model = Swapping {
            view,
            goals: &self.goals,
            rng,
        };
        let pibt = &mut self.pibt;
        let ok = place_fixed(pibt, cur, fixed)
            && order.iter().all(|&i| {
                pibt.board.next[i as usize] != NONE || pibt.decide(&mut model, cur, i).is_ok()
            });
        pibt.clear(cur);
        ok
    }
}

/// Marks who stands where and reserves the fixed cells; false when two fixed cells collide
/// or two fixed agents trade cells.
fn place_fixed(pibt: &mut Pibt, cur: &[u32], fixed: &[Option<u32>]) -> bool {
    for (i, &c) in cur.iter().enumerate() {
        pibt.board.occ_now[c as usize] = i as u32;
    }
    for (i, f) in fixed.iter().enumerate() {
        let Some(f) = *f else { continue };
        let b = &pibt.board;
        let j = b.occ_now[f as usize];
        let swaps = j != NONE && j as usize != i && b.next[j as usize] == cur[i];
        if swaps || pibt.fix(i as u32, f).is_err() {
            return false;
        }
    }
    true
}

impl MoveModel for Swapping<'_, '_> {
    /// Agent `i`'s neighbours and cell, its preferred cell first, then by distance with a
    /// random fraction for ties.
    fn candidates(&mut self, _board: &Board, cur: &[u32], i: u32, _pusher: u32) -> Candidates {
        let v = self.view;
        let iu = i as usize;
        let here = cur[iu];
        let mut keyed = [(0.0f64, here); MAX_CANDIDATES];
        let mut k = 0;
        for &u in v.moves.of(here as usize).iter().chain([&here]) {
            let key = if u == v.pref[iu] {
                -1.0
            } else {
                v.dist.get(iu, u as usize) as f64 + self.rng.unit()
            };
            keyed[k] = (key, u);
            k += 1;
        }
        keyed[..k].sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut cells = [NONE; MAX_CANDIDATES];
        for (c, &(_, u)) in cells.iter_mut().zip(&keyed[..k]) {
            *c = u;
        }
        (cells, k as u8)
    }

    /// The swap: with a partner, the agent tries its candidates worst first and pulls the
    /// partner into its cell.
    fn pass(&mut self, board: &Board, cur: &[u32], i: u32, _pusher: u32, cands: &mut [u32]) -> u32 {
        let partner = self.swap_partner(board, cur, i, cands[0]);
        if partner != NONE {
            cands.reverse();
        }
        partner
    }

    /// The swap's second half happens only when the agent took its first candidate.
    fn pulls_after(&self, chosen: usize) -> bool {
        chosen == 0
    }
}

impl Swapping<'_, '_> {
    /// The agent agent `i` should swap with, given its best cell `best`, or [`NONE`]: the
    /// agent on `best` when the two must pass and can; else a neighbour that needs to get past
    /// `i` going the way `i` goes (clearing the way, as in push and swap).
    fn swap_partner(&self, b: &Board, cur: &[u32], i: u32, best: u32) -> u32 {
        let v = self.view;
        let here = cur[i as usize];
        let j = b.occ_now[best as usize];
        if j != NONE
            && j != i
            && b.next[j as usize] == NONE
            && self.must_swap(b, (i, here), (j, cur[j as usize]))
            && self.can_swap(b, cur[j as usize], here)
        {
            return j;
        }
        if best == here {
            return NONE;
        }
        for &u in v.moves.of(here as usize) {
            let k = b.occ_now[u as usize];
            if k != NONE
                && best != cur[k as usize]
                && self.must_swap(b, (k, here), (i, best))
                && self.can_swap(b, best, here)
            {
                return k;
            }
        }
        NONE
    }

    /// The cell beyond `at` going away from `from`, when `at` has exactly one such way out
    /// (neighbours that are agents settled in dead ends do not count): `Ok(cell)`; `Err(n)`
    /// with the number of ways out otherwise.
    fn way_on(&self, b: &Board, from: u32, at: u32) -> Result<u32, usize> {
        let moves = self.view.moves;
        let mut ways = 0;
        let mut beyond = NONE;
        for &u in moves.of(at as usize) {
            let a = b.occ_now[u as usize];
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
    fn must_swap(&self, b: &Board, (pusher, from): (u32, u32), (puller, to): (u32, u32)) -> bool {
        let v = self.view;
        let d = |a: u32, c: u32| v.dist.get(a as usize, c as usize);
        let (mut back, mut ahead) = (from, to);
        let mut steps = 0;
        while d(pusher, ahead) < d(pusher, back) && steps < b.occ_now.len() {
            steps += 1;
            match self.way_on(b, back, ahead) {
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
    fn can_swap(&self, b: &Board, pusher: u32, puller: u32) -> bool {
        let (mut back, mut ahead) = (pusher, puller);
        let mut steps = 0;
        while ahead != pusher && steps < b.occ_now.len() {
            steps += 1;
            match self.way_on(b, back, ahead) {
                Ok(beyond) => (back, ahead) = (ahead, beyond),
                Err(0) => return false,
                Err(_) => return true,
            }
        }
        false
    }
}
