//! A monotone integer queue: a radix heap over `u64` keys, for searches whose keys never go
//! below the last key popped (A* with a consistent heuristic, and Dijkstra).
//!
//! Entries live in 65 buckets. Bucket 0 holds the entries whose key equals the last key popped;
//! bucket `i > 0` holds those whose key first differs from it in bit `i - 1` (counting from the
//! least significant). When bucket 0 runs dry, the lowest non-empty bucket is emptied: its
//! smallest key becomes the new last key and every entry of it drops to a lower bucket. An
//! entry can only ever move down, so it moves at most 64 times, and in practice once or twice.
//!
//! There are no handles: a cell whose key improves is simply pushed again, and the caller
//! skips the out-of-date entries when they come out (a "lazy" decrease-key). Entries with equal
//! keys come out last in, first out, which makes a search on a plateau of equal keys dive
//! rather than spread.

use crate::stats::SearchStats;

/// Number of buckets: one for "equal to the last key" and one per bit of a `u64`.
const BUCKETS: usize = 65;

/// One queued (key, cell) pair: 12 bytes, the key kept as two halves so that the entry is
/// only 4-byte aligned (entries moved between buckets are most of the queue's memory traffic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    key: [u32; 2],
    cell: u32,
}

impl Entry {
    #[inline(always)]
    fn new(key: u64, cell: u32) -> Entry {
        Entry {
            key: [key as u32, (key >> 32) as u32],
            cell,
        }
    }

    #[inline(always)]
    fn key(self) -> u64 {
        self.key[0] as u64 | (self.key[1] as u64) << 32
    }
}

/// A radix heap of (key, cell) entries. Keys pushed must not be below the last key popped;
/// one that is anyway is queued as if it were equal to it (see [`RadixHeap::push`]).
///
/// [`SearchStats::pushes`] counts entries pushed, [`SearchStats::pops`] entries popped and
/// [`SearchStats::sift_moves`] entries moved from one bucket to a lower one.
#[derive(Clone, Debug)]
pub struct RadixHeap {
    /// A fixed array, so a bucket number (at most 64 by construction) needs no bounds check.
    buckets: [Vec<Entry>; BUCKETS],
    /// Bit `i - 1` is set when bucket `i > 0` may be non-empty (it is cleared when the bucket
    /// is emptied by a refill). Bucket 0 is checked by its length.
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

/// The bucket of `key` when the last key popped is `last`, and its bit in `occupied` (none
/// for bucket 0).
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
            occupied: 0,
            last: 0,
            len: 0,
            stats: SearchStats::default(),
        }
    }

    /// Queues `cell` with `key`. `key` should be at least [`last`](Self::last); a smaller one
    /// is queued as if it were equal to `last` (so it comes out next, not in key order). A
    /// search with a consistent heuristic never pushes one.
    #[inline]
    pub fn push(&mut self, key: u64, cell: u32) {
        let key = key.max(self.last);
        let (b, bit) = bucket_of(key, self.last);
        self.buckets[b].push(Entry::new(key, cell));
        self.occupied |= bit;
        self.len += 1;
        self.stats.pushes += 1;
    }

    /// Removes and returns an entry with the smallest key, as (key, cell). Among equal keys
    /// the one pushed last comes out first.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, u32)> {
        if self.buckets[0].is_empty() && !self.refill() {
            return None;
        }
        let e = self.buckets[0].pop()?;
        self.len -= 1;
        self.stats.pops += 1;
        Some((e.key(), e.cell))
    }

    /// Empties the lowest non-empty bucket into the ones below it, making its smallest key
    /// the last key; returns false when the queue is empty.
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
            let last = from.iter().map(|e| e.key()).min().expect("non-empty");
            self.last = last;
            let mut occupied = 0u64;
            for &e in &from {
                let (b, bit) = bucket_of(e.key(), last);
                debug_assert!(b < i, "an entry must move to a lower bucket");
                self.buckets[b].push(e);
                occupied |= bit;
            }
            self.occupied |= occupied;
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
        self.buckets[0].clear();
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
    use std::collections::BTreeMap;

    #[test]
    fn pops_in_key_order_and_ties_last_in_first_out() {
        let mut q = RadixHeap::new();
        assert_eq!(q.pop(), None);
        for (k, c) in [(7, 0), (3, 1), (u64::MAX, 2), (3, 3), (0, 4), (1 << 40, 5)] {
            q.push(k, c);
        }
        assert_eq!(q.len(), 6);
        assert_eq!(q.pop(), Some((0, 4)));
        assert_eq!(q.pop(), Some((3, 3)));
        q.push(3, 6);
        assert_eq!(q.pop(), Some((3, 6)));
        assert_eq!(q.pop(), Some((3, 1)));
        assert_eq!(q.last(), 3);
        assert_eq!(q.pop(), Some((7, 0)));
        assert_eq!(q.pop(), Some((1 << 40, 5)));
        assert_eq!(q.pop(), Some((u64::MAX, 2)));
        assert_eq!(q.pop(), None);
        assert!(q.is_empty());
        let s = q.stats();
        assert_eq!((s.pushes, s.pops), (7, 7));
    }

    #[test]
    fn a_key_below_the_last_one_comes_out_next() {
        let mut q = RadixHeap::new();
        q.push(10, 0);
        q.push(20, 1);
        assert_eq!(q.pop(), Some((10, 0)));
        q.push(5, 2);
        assert_eq!(q.pop(), Some((10, 2)));
        assert_eq!(q.pop(), Some((20, 1)));
    }

    #[test]
    fn clear_forgets_entries_and_the_last_key() {
        let mut q = RadixHeap::new();
        q.push(100, 0);
        q.push(200, 1);
        assert_eq!(q.pop(), Some((100, 0)));
        q.clear();
        assert!(q.is_empty());
        assert_eq!(q.last(), 0);
        q.push(1, 2);
        assert_eq!(q.pop(), Some((1, 2)));
        assert_eq!(q.pop(), None);
        assert!(q.memory_bytes() > 0);
    }

    #[derive(Debug, Clone)]
    enum Op {
        /// Push a cell with the last key plus this much.
        Push(u32, u64),
        Pop,
        Clear,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0u32..50, prop_oneof![0u64..4, 0u64..1000, any::<u64>().prop_map(|k| k >> 3)])
                .prop_map(|(c, d)| Op::Push(c, d)),
            3 => Just(Op::Pop),
            1 => Just(Op::Clear),
        ]
    }

    proptest! {
        /// A monotone sequence of pushes and pops against a multiset model: every pop returns a
        /// smallest key, equal keys come out last in first out, and the counts agree.
        #[test]
        fn matches_a_sorted_model(ops in prop::collection::vec(op(), 0..400)) {
            let mut q = RadixHeap::new();
            // key -> cells with that key, in push order.
            let mut model: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
            let mut last = 0u64;
            let (mut pushes, mut pops) = (0u64, 0u64);
            for op in ops {
                match op {
                    Op::Push(c, d) => {
                        let k = last.saturating_add(d);
                        q.push(k, c);
                        model.entry(k).or_default().push(c);
                        pushes += 1;
                    }
                    Op::Pop => {
                        let want = model.first_entry().map(|mut e| {
                            let k = *e.key();
                            let c = e.get_mut().pop().expect("no empty lists");
                            if e.get().is_empty() {
                                e.remove();
                            }
                            (k, c)
                        });
                        if let Some((k, _)) = want {
                            last = k;
                            pops += 1;
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
                prop_assert_eq!(q.len(), model.values().map(Vec::len).sum::<usize>());
            }
            let s = q.stats();
            prop_assert_eq!((s.pushes, s.pops), (pushes, pops));
        }
    }
}
