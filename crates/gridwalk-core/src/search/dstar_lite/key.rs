//! D\* Lite's queue key, and the experimental variant whose plateau ties go toward the agents.

use super::DStarLite;
use crate::cost::{Cost, INFINITY};
use crate::queue::IndexedHeap;

/// A D* Lite priority: `[min(g, rhs) + h + km, min(g, rhs)]`, compared lexicographically,
/// exactly like the tuple `(k1, k2)`. Compared as one 128-bit number, which compiles to a
/// couple of branch-free instructions where the tuple comparison branches.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// `min(g, rhs) + h + km`.
    pub k1: Cost,
    /// `min(g, rhs)`.
    pub k2: Cost,
    /// The cell's `rhs` when the key was made: a queued cell's `rhs` lives here, not in a
    /// per-cell array (a cell not queued is consistent, its `rhs` is its `g`). A payload:
    /// it takes no part in the order, only in equality.
    pub rhs: Cost,
}

impl Key {
    /// The key of a cell with no path: above every other.
    pub const INFINITE: Key = Key {
        k1: INFINITY,
        k2: INFINITY,
        rhs: INFINITY,
    };

    /// `[k1, k2]` as one number, the order.
    #[inline(always)]
    fn wide(self) -> u128 {
        ((self.k1 as u128) << 64) | self.k2 as u128
    }
}

impl PartialEq for Key {
    /// Equal keys and equal payloads: a queue skips an update only when nothing changed.
    /// The non-short-circuit `&` makes it one branch for the caller, not two.
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        (self.k1 == other.k1) & (self.k2 == other.k2) & (self.rhs == other.rhs)
    }
}

impl Eq for Key {}

/// By `[k1, k2]` only: two keys can be neither smaller nor equal when just their payloads
/// differ, which the queues allow for (see [`crate::queue::CellQueue`]).
impl Ord for Key {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.wide().cmp(&other.wide())
    }
}

impl PartialOrd for Key {
    #[inline(always)]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl From<Key> for (Cost, Cost) {
    fn from(k: Key) -> (Cost, Cost) {
        (k.k1, k.k2)
    }
}

/// **Experimental.** D* Lite whose plateau ties go toward the agents.
///
/// `k2` is "under-consistent first, then larger `min(g, rhs)`", which on a plateau (equal
/// `k1 = min(g, rhs) + h + km`) means smaller `h`: the raises come first, then the cells
/// nearer the agents, so the search runs along the plateau to a start instead of sweeping
/// all of it. Paths stay optimal, but among paths of equal cost
/// another one may be taken, so results are not those of [`DStarLite`]'s standard key
/// `[k1, min(g, rhs)]` (on a plateau, the cell nearer the goal first).
///
/// Why it stays correct: the proofs of LPA*/D* Lite use `k2` only when a vertex `w` that
/// makes another one wrong has the same `k1`. An over-consistent top `u` whose rhs is too
/// high has such a `w` (over-consistent, on its optimal path) with a *smaller* `k1`, since
/// `rhs(u) > g*(u)`; one whose rhs is too low, or a settled start whose g is too low,
/// leads down a chain of consistent cells to an inconsistent `w` with `k1(w) ≤ k1`,
/// strictly unless `w` is under-consistent. Ranking under-consistent cells first among
/// equal `k1` is therefore all the proofs need: every LOWER expansion still sets an exact
/// g and the stopping rule still holds. Stored keys stay lower bounds of current ones
/// (class and `min(g, rhs)` change only through a requeue). Tie-breaking by `h` itself
/// would not: after the agents move, a stored `h` can overstate the current one, and a
/// start queued with such a key would never be reached (compute would spin).
pub type DStarLiteTowardStarts = DStarLite<IndexedHeap<Key>, true>;

/// The benchmark-only bucketed queue buckets D\* Lite's keys on `k1`.
#[cfg(feature = "bench-queues")]
impl crate::queue::Leading for Key {
    #[inline(always)]
    fn leading(&self) -> u64 {
        self.k1
    }
}
