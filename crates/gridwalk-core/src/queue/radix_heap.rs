//! A monotone integer queue: a radix heap over `u64` keys, for searches whose keys never go
//! below the last key popped (A* with a consistent heuristic, and Dijkstra).
//!
//! Entries live in 64 buckets above a sorted stack. The stack holds the entries whose key
//! equals the last key popped, ordered by a second number (the tie) and then by cell, the
//! smallest on top; bucket `i` holds those whose key first differs from the last key in bit
//! `i - 1` (counting from the least significant). When the stack runs dry, the lowest
//! non-empty bucket is emptied: its smallest key becomes the new last key, the entries with
//! that key are sorted onto the stack, and every other one drops to a lower bucket. An entry
//! only ever moves down, so it moves at most 64 times, and in practice once or twice.
//!
//! Entries pushed with the last key wait until the next pop, then go onto the stack sorted.
//! In A* they are the children of the cell just expanded with the same f, so their h, the
//! tie, is below that of every entry on the stack: they go on top without a search. Any
//! other push is merged into its place.
//!
//! Entries come out in exactly the order of (key, tie, cell), the order of the indexed heap
//! with a (key, tie) key, so a search gives the same expansions and paths on either queue.
//!
//! There are no handles: a cell whose key improves is simply pushed again, and the caller
//! skips the out-of-date entries when they come out (a "lazy" decrease-key).

use crate::stats::SearchStats;

/// Number of buckets: index 0 is unused (its entries live in the heap), one per bit of a
/// `u64` after it.
const BUCKETS: usize = 65;

/// One queued entry: 20 bytes, 4-byte aligned (entries moved between buckets are most of the
/// queue's memory traffic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    key: [u32; 2],
    tie: [u32; 2],
    cell: u32,
}

#[inline(always)]
fn split(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

#[inline(always)]
fn join(v: [u32; 2]) -> u64 {
    v[0] as u64 | (v[1] as u64) << 32
}

/// A radix heap of (key, tie, cell) entries. Keys pushed must not be below the last key
/// popped; one that is anyway is queued as if it were equal to it (see [`RadixHeap::push`]).
///
/// [`SearchStats::pushes`] counts entries pushed, [`SearchStats::pops`] entries popped and
/// [`SearchStats::sift_moves`] entries moved from one bucket to a lower one or into the heap.
#[derive(Clone, Debug)]
pub struct RadixHeap {
    /// A fixed array, so a bucket number (at most 64 by construction) needs no bounds check.
    buckets: [Vec<Entry>; BUCKETS],
    /// The entries whose key is `last`, sorted by (tie, cell), the smallest last.
    current: Vec<(u64, u32)>,
    /// Entries pushed with key `last` since the last pop.
    pending: Vec<(u64, u32)>,
    /// Bit `i - 1` is set when bucket `i` may be non-empty (it is cleared when the bucket is
    /// emptied by a refill).
    occupied: u64,
    /// The last key popped (0 before the first pop).
    last: u64,
    len: usize,
    stats: SearchStats,
}

impl Default for RadixHeap {
    fn default() -> Self {
        Self::new()
    }
}

/// The bucket of `key` when the last key popped is `last` (0: equal, the heap), and its bit
/// in `occupied` (none for 0).
#[inline(always)]
fn bucket_of(key: u64, last: u64) -> (usize, u64) {
    let x = key ^ last;
    let zeros = x.leading_zeros();
    let bit = ((1u64 << 63) >> (zeros & 63)) & 0u64.wrapping_sub((x != 0) as u64);
    ((u64::BITS - zeros) as usize, bit)
}

impl RadixHeap {
    /// An empty queue.
    pub fn new() -> Self {
        RadixHeap {
            buckets: std::array::from_fn(|_| Vec::new()),
            current: Vec::new(),
            pending: Vec::new(),
            occupied: 0,
            last: 0,
            len: 0,
            stats: SearchStats::default(),
        }
    }

    /// Queues `cell` with `key` and `tie`. `key` should be at least [`last`](Self::last); a
    /// smaller one is queued as if it were equal to `last` (so it comes out among the next,
    /// not in key order). A search with a consistent heuristic never pushes one.
    #[inline]
    pub fn push(&mut self, key: u64, tie: u64, cell: u32) {
        let key = key.max(self.last);
        let (b, bit) = bucket_of(key, self.last);
        if b == 0 {
            self.pending.push((tie, cell));
        } else {
            self.buckets[b].push(Entry {
                key: split(key),
                tie: split(tie),
                cell,
            });
            self.occupied |= bit;
        }
        self.len += 1;
        self.stats.pushes += 1;
    }

    /// Removes and returns the entry with the smallest (key, tie, cell), as (key, cell).
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, u32)> {
        if !self.pending.is_empty() {
            self.settle_pending();
        }
        if self.current.is_empty() && !self.refill() {
            return None;
        }
        let (_, cell) = self.current.pop()?;
        self.len -= 1;
        self.stats.pops += 1;
        Some((self.last, cell))
    }

    /// Puts the pending entries onto the stack in order: on top when all of them sort before
    /// its top (A*'s case), else each at its place.
    fn settle_pending(&mut self) {
        // Largest first, so the smallest ends on top.
        self.pending.sort_unstable_by(|a, b| b.cmp(a));
        let below_all = self.current.last().is_none_or(|&top| self.pending[0] < top);
        if below_all {
            self.current.append(&mut self.pending);
            return;
        }
        for e in self.pending.drain(..) {
            let at = self.current.partition_point(|&x| x > e);
            self.current.insert(at, e);
        }
    }

    /// Empties the lowest non-empty bucket into the stack and the buckets below it, making its
    /// smallest key the last key; returns false when the queue is empty.
    #[cold]
    fn refill(&mut self) -> bool {
        loop {
            if self.occupied == 0 {
                return false;
            }
            let i = self.occupied.trailing_zeros() as usize + 1;
            self.occupied &= self.occupied - 1;
            let mut from = std::mem::take(&mut self.buckets[i]);
            if from.is_empty() {
                self.buckets[i] = from;
                continue;
            }
            let last = from.iter().map(|e| join(e.key)).min().expect("non-empty");
            self.last = last;
            let mut occupied = 0u64;
            for &e in &from {
                let (b, bit) = bucket_of(join(e.key), last);
                debug_assert!(b < i, "an entry must move to a lower bucket");
                if b == 0 {
                    self.current.push((join(e.tie), e.cell));
                } else {
                    self.buckets[b].push(e);
                    occupied |= bit;
                }
            }
            self.occupied |= occupied;
            self.current.sort_unstable_by(|a, b| b.cmp(a));
            self.stats.sift_moves += from.len() as u64;
            from.clear();
            self.buckets[i] = from;
            return true;
        }
    }

    /// The last key popped: no entry is below it (0 before the first pop or after a clear).
    pub fn last(&self) -> u64 {
        self.last
    }

    /// Number of queued entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no entry is queued.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the queue and resets the last key to 0, keeping memory and counters.
    pub fn clear(&mut self) {
        let mut bits = self.occupied;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize + 1;
            bits &= bits - 1;
            self.buckets[i].clear();
        }
        self.current.clear();
        self.pending.clear();
        self.occupied = 0;
        self.last = 0;
        self.len = 0;
    }

    /// Counters of pushes, pops and bucket moves since creation.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Bytes held, for the memory report.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&self.buckets)
            + (self.current.capacity() + self.pending.capacity())
                * std::mem::size_of::<(u64, u32)>()
            + self
                .buckets
                .iter()
                .map(|b| b.capacity() * std::mem::size_of::<Entry>())
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[test]
    fn pops_by_key_then_tie_then_cell() {
        let mut q = RadixHeap::new();
        assert_eq!(q.pop(), None);
        for (k, t, c) in [
            (7, 0, 0),
            (3, 5, 1),
            (u64::MAX, 0, 2),
            (3, 2, 3),
            (0, 9, 4),
            (1 << 40, 0, 5),
        ] {
            q.push(k, t, c);
        }
        assert_eq!(q.len(), 6);
        assert_eq!(q.pop(), Some((0, 4)));
        assert_eq!(q.pop(), Some((3, 3)));
        q.push(3, 1, 6);
        q.push(3, 1, 0);
        assert_eq!(q.pop(), Some((3, 0)));
        assert_eq!(q.pop(), Some((3, 6)));
        assert_eq!(q.pop(), Some((3, 1)));
        assert_eq!(q.last(), 3);
        assert_eq!(q.pop(), Some((7, 0)));
        assert_eq!(q.pop(), Some((1 << 40, 5)));
        assert_eq!(q.pop(), Some((u64::MAX, 2)));
        assert_eq!(q.pop(), None);
        assert!(q.is_empty());
        let s = q.stats();
        assert_eq!((s.pushes, s.pops), (8, 8));
    }

    #[test]
    fn a_low_key_counts_as_the_last_and_clear_forgets_it() {
        let mut q = RadixHeap::new();
        q.push(10, 0, 0);
        q.push(20, 0, 1);
        assert_eq!(q.pop(), Some((10, 0)));
        // Below the last key popped: it comes out as if it had the last key.
        q.push(5, 0, 2);
        assert_eq!(q.pop(), Some((10, 2)));
        q.clear();
        assert!(q.is_empty());
        assert_eq!(q.last(), 0);
        q.push(1, 0, 2);
        assert_eq!(q.pop(), Some((1, 2)));
        assert_eq!(q.pop(), None);
        assert!(q.memory_bytes() > 0);
    }

    #[derive(Debug, Clone)]
    enum Op {
        /// Push a cell with the last key plus this much, and a tie.
        Push(u32, u64, u64),
        Pop,
        Clear,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (
                0u32..50,
                prop_oneof![0u64..4, 0u64..1000, any::<u64>().prop_map(|k| k >> 3)],
                0u64..4,
            )
                .prop_map(|(c, d, t)| Op::Push(c, d, t)),
            3 => Just(Op::Pop),
            1 => Just(Op::Clear),
        ]
    }

    proptest! {
        /// A monotone sequence of pushes and pops against an ordered multiset: every pop
        /// returns the smallest (key, tie, cell), and the counts agree.
        #[test]
        fn matches_an_ordered_model(ops in prop::collection::vec(op(), 0..400)) {
            let mut q = RadixHeap::new();
            // (key, tie, cell, push number): the push number keeps duplicates apart.
            let mut model: BTreeSet<(u64, u64, u32, usize)> = BTreeSet::new();
            let mut last = 0u64;
            for (n, op) in ops.into_iter().enumerate() {
                match op {
                    Op::Push(c, d, t) => {
                        let k = last.saturating_add(d);
                        q.push(k, t, c);
                        model.insert((k, t, c, n));
                    }
                    Op::Pop => {
                        let want = model.pop_first().map(|(k, _, c, _)| (k, c));
                        if let Some((k, _)) = want {
                            last = k;
                        }
                        prop_assert_eq!(q.pop(), want);
                        prop_assert_eq!(q.last(), last);
                    }
                    Op::Clear => {
                        q.clear();
                        model.clear();
                        last = 0;
                    }
                }
                prop_assert_eq!(q.len(), model.len());
            }
        }
    }
}
