//! Trap handling's two checks: whether pushing an agent on would trap it ([`would_trap`]), and
//! whether an agent can retreat to a branching cell ([`can_retreat`]).

use super::{Guidance, NONE};
use crate::grid::{Connectivity, Grid};

/// How far the checks walk along a corridor: a bound that keeps a step's cost per agent
/// constant. A corridor longer than this is treated as if it opened up.
pub(super) const WALK_LIMIT: usize = 64;

/// The neighbours of cell `c` under `conn`, and how many there are.
#[inline]
pub(super) fn neighbours(grid: &Grid, conn: Connectivity, c: u32) -> ([u32; 8], usize) {
    let mut out = [NONE; 8];
    let mut n = 0;
    grid.for_each_neighbor(c as usize, conn, |m, _| {
        out[n] = m as u32;
        n += 1;
    });
    (out, n)
}

/// Whether agent `i`, at `p`, must not push agent `j` on its best cell `q`: pushing `j` along
/// `i`'s way (each time to `i`'s best next cell) finds no cell where `j` could step aside
/// before it is stuck in a dead end with `i` short of its goal, or before `i` stops on its goal
/// with `j` beyond it and `j`'s own goal behind (so `j` must come back through `i`).
pub(super) fn would_trap(
    grid: &Grid,
    conn: Connectivity,
    guidance: &impl Guidance,
    i: usize,
    j: usize,
    mut p: u32,
    mut q: u32,
) -> bool {
    for _ in 0..WALK_LIMIT {
        let (ns, n) = neighbours(grid, conn, q);
        // Where `i` goes after `q`: its best neighbour, none once `q` is its goal.
        let at_goal = guidance.distance(i, q as usize) == 0;
        if at_goal && guidance.distance(j, p as usize) < guidance.distance(j, q as usize) {
            return true; // `i` parks on `q`, and `j` must pass it to get home
        }
        let mut r = NONE;
        if !at_goal {
            let mut best = u64::MAX;
            for &m in &ns[..n] {
                let d = guidance.distance(i, m as usize);
                if d < best {
                    (best, r) = (d, m);
                }
            }
        }
        let mut ahead = false;
        for &m in &ns[..n] {
            if m == r {
                ahead = true;
            } else if m != p {
                return false; // the pushed agent can step aside here
            }
        }
        if !ahead {
            return true; // stuck: a dead end, or `i`'s goal with no room beside it
        }
        (p, q) = (q, r);
    }
    false
}

/// Whether an agent at `p` can retreat away from `from` to a branching cell (one with at least
/// two ways on besides the way back), following the only way on while there is one.
pub(super) fn can_retreat(grid: &Grid, conn: Connectivity, mut p: u32, mut from: u32) -> bool {
    for _ in 0..WALK_LIMIT {
        let (ns, n) = neighbours(grid, conn, p);
        let mut on = NONE;
        let mut ways = 0;
        for &m in &ns[..n] {
            if m != from {
                on = m;
                ways += 1;
            }
        }
        match ways {
            0 => return false,
            1 => (from, p) = (p, on),
            _ => return true,
        }
    }
    false
}
