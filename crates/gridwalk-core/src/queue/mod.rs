//! Priority queues of cells: the handle-based [`CellQueue`]s (insert, change key, remove) and
//! the monotone [`BucketQueue`].
//!
//! [`IndexedHeap`] is the default handle-based queue: the incremental planners use it, and so
//! do greedy best-first and A* with an inadmissible heuristic, whose keys can go down.
//! [`BucketQueue`] is the open list of A* with a consistent heuristic and of Dijkstra, whose keys
//! never go below the last one popped; it has no handles (an improved cell is pushed again).
//! `SortedList`, `LazyHeap` and `BucketedHeap` (bucketed on D\* Lite's `k1`, measured slower
//! than the indexed heap in D\* Lite: see docs/benchmarks.md) are **benchmark-only**, behind
//! the `bench-queues` feature (which the compare bench and the tests turn on): they implement
//! the same trait so the queue comparison (`cargo bench -p gridwalk-core --bench compare`) can
//! swap them in; nothing else should pick them.

mod binary;
mod bucket_queue;
#[cfg(feature = "bench-queues")]
mod bucketed;
mod indexed_heap;
#[cfg(feature = "bench-queues")]
mod lazy_heap;
#[cfg(feature = "bench-queues")]
mod sorted_list;

pub use bucket_queue::BucketQueue;
#[cfg(feature = "bench-queues")]
pub use bucketed::{BucketedHeap, Leading};
pub use indexed_heap::IndexedHeap;
#[cfg(feature = "bench-queues")]
pub use lazy_heap::LazyHeap;
#[cfg(feature = "bench-queues")]
pub use sorted_list::SortedList;

use crate::stats::SearchStats;

/// `a < b` for heap entries (key, cell, id): by key, then by cell, the order every queue pops
/// in. The non-short-circuit `|` and `&` let it compile without branches, which matters in the
/// sift loops, where the outcome of a comparison is a coin toss.
#[inline(always)]
pub(crate) fn less<K: Ord>(a: &(K, u32, u32), b: &(K, u32, u32)) -> bool {
    (a.0 < b.0) | ((a.0 <= b.0) & (a.1 < b.1))
}

/// Grows `v` to `n` items of `fill` when it is shorter, reserving a quarter again ahead (at
/// least 64) rather than doubling as `Vec` does: the room held stays within 1.25 times the
/// room used (about 1.1 on average), and growing copies each item about five times, a few
/// microseconds for a planner's first plan. The per-id arrays of the planners (see
/// `search::cells`; D\* Lite's rounds big room up to huge pages, `huge::HugeVec::grow`) and
/// the queues' handle arrays grow by this rule.
#[inline]
pub(crate) fn grow<T: Copy>(v: &mut Vec<T>, n: usize, fill: T) {
    if v.len() < n {
        if n > v.capacity() {
            v.reserve_exact(room_ahead(n) - v.len());
        }
        v.resize(n, fill);
    }
}

/// The room [`grow`] reserves when `n` items no longer fit: a quarter again, at least 64 more.
#[inline]
pub(crate) fn room_ahead(n: usize) -> usize {
    n + (n / 4).max(64)
}

/// A min-priority queue of cells, each queued at most once.
///
/// Every queued cell has a handle, its *id* in `0..capacity`, which the per-cell arrays of the
/// queue are indexed by: [`remove`](Self::remove), [`contains`](Self::contains) and
/// [`queued_key`](Self::queued_key) take it. The plain calls use the cell as its own id; a
/// planner whose state is sparse ([`crate::search::dstar_lite`]) gives each cell a dense id
/// of its own with the `*_as` calls. Ties between equal keys are broken by the smaller *cell*,
/// whatever the ids, so every implementation pops in exactly the same order.
///
/// A key may carry a payload that takes part in `==` but not in the order (D\* Lite's keys
/// carry a queued cell's `rhs`): "equal" in the order means neither is smaller, and an update
/// that changes only the payload must store it.
pub trait CellQueue<K: Ord + Copy> {
    /// An empty queue for ids `0..capacity`.
    fn with_capacity(capacity: usize) -> Self
    where
        Self: Sized;

    /// Makes room for ids `0..capacity` (never shrinks).
    fn grow(&mut self, capacity: usize);

    /// Queues `cell` with `key`, or changes its key if it is already queued. Its id is itself.
    fn insert_or_update(&mut self, cell: u32, key: K) {
        self.insert_or_update_as(cell, cell, key);
    }

    /// Queues `cell` under id `id` with `key`, or changes its key if `id` is queued.
    fn insert_or_update_as(&mut self, id: u32, cell: u32, key: K);

    /// `remove(out)` then `insert_or_update_as(id, cell, key)` (ids).
    fn replace_as(&mut self, out: u32, id: u32, cell: u32, key: K) {
        self.remove(out);
        self.insert_or_update_as(id, cell, key);
    }

    /// The smallest (key, cell, id) without removing it.
    fn top_as(&mut self) -> Option<(K, u32, u32)>;

    /// Takes the cell of id `id` out of the queue; returns whether it was queued.
    fn remove(&mut self, id: u32) -> bool;

    /// `remove(out)` then `insert_or_update(cell, key)`. A queue may do it in one step when
    /// `out` is queued and `cell` is not: the indexed heap puts `cell` in `out`'s place.
    fn replace(&mut self, out: u32, cell: u32, key: K) {
        self.replace_as(out, cell, cell, key);
    }

    /// The smallest (key, cell) without removing it.
    fn top(&mut self) -> Option<(K, u32)> {
        self.top_as().map(|(k, c, _)| (k, c))
    }

    /// Removes and returns the smallest (key, cell).
    fn pop(&mut self) -> Option<(K, u32)>;

    /// Whether the cell of id `id` is queued.
    fn contains(&self, id: u32) -> bool {
        self.queued_key(id).is_some()
    }

    /// The key the cell of id `id` is queued with, if it is.
    fn queued_key(&self, id: u32) -> Option<K>;

    /// Number of queued cells.
    fn len(&self) -> usize;

    /// Whether no cell is queued.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Empties the queue (counters are kept).
    fn clear(&mut self);

    /// Appends every queued cell to `out`, in no particular order (for recordings).
    fn queued_cells(&self, out: &mut Vec<u32>);

    /// Counters of pushes, pops, updates, removes and sift moves since creation.
    fn stats(&self) -> SearchStats;

    /// Bytes held, for the memory report.
    fn memory_bytes(&self) -> usize;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[derive(Debug, Clone)]
    enum Op {
        Set(u32, u32),
        Remove(u32),
        Pop,
        Replace(u32, u32, u32),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0u32..40, 0u32..30).prop_map(|(c, k)| Op::Set(c, k)),
            (0u32..40).prop_map(Op::Remove),
            Just(Op::Pop),
            (0u32..40, 0u32..40, 0u32..30).prop_map(|(o, c, k)| Op::Replace(o, c, k)),
        ]
    }

    /// Runs `ops` on `Q` and on a BTreeMap model; both must agree at every step.
    fn check<Q: CellQueue<u32>>(ops: &[Op]) {
        let mut q = Q::with_capacity(40);
        let mut model: BTreeMap<u32, u32> = BTreeMap::new();
        for op in ops {
            match *op {
                Op::Set(c, k) => {
                    q.insert_or_update(c, k);
                    model.insert(c, k);
                }
                Op::Remove(c) => assert_eq!(q.remove(c), model.remove(&c).is_some()),
                Op::Replace(o, c, k) => {
                    q.replace(o, c, k);
                    model.remove(&o);
                    model.insert(c, k);
                }
                Op::Pop => {
                    let want = model.iter().map(|(&c, &k)| (k, c)).min();
                    if let Some((_, c)) = want {
                        model.remove(&c);
                    }
                    assert_eq!(q.pop(), want);
                }
            }
            assert_eq!(q.len(), model.len());
            let want = model.iter().map(|(&c, &k)| (k, c)).min();
            assert_eq!(q.top(), want);
            for c in 0..40 {
                assert_eq!(q.contains(c), model.contains_key(&c));
            }
        }
    }

    proptest! {
        #[test]
        fn indexed_heap_matches_a_model(ops in prop::collection::vec(op(), 0..300)) {
            check::<IndexedHeap<u32>>(&ops);
        }

        #[test]
        fn four_ary_indexed_heap_matches_a_model(ops in prop::collection::vec(op(), 0..300)) {
            check::<IndexedHeap<u32, 4>>(&ops);
        }

        #[cfg(feature = "bench-queues")]
        #[test]
        fn sorted_list_matches_a_model(ops in prop::collection::vec(op(), 0..300)) {
            check::<SortedList<u32>>(&ops);
        }

        #[cfg(feature = "bench-queues")]
        #[test]
        fn lazy_heap_matches_a_model(ops in prop::collection::vec(op(), 0..300)) {
            check::<LazyHeap<u32>>(&ops);
        }
    }
}
