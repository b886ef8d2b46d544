//! A monotone integer queue over `u64` keys, for searches whose keys never go below the last
//! key popped (A* with a consistent heuristic, and Dijkstra).
//!
//! Keys are grouped by their high bits, the "slot" `key >> SHIFT`. The slots from the current
//! one (that of the last key popped) to [`WINDOW`] − 1 past it each have a bucket, in a ring;
//! an entry further ahead waits in a small binary heap, the far list, until the window
//! reaches it. A search moves a key at most twice the cost of a move past its parent's, which
//! stays well inside the window, so in practice nothing waits there.
//!
//! An entry is one `u128`: the key's low [`SHIFT`] bits, the tie and the cell, so comparing
//! two entries of one slot compares (key, tie, cell). The current slot's entries are sorted
//! into a stack, the smallest on top; when it runs dry, the next non-empty bucket (found
//! through a bitmap) is sorted into its place. Each entry is written once and sorted once,
//! where a radix heap would move it from bucket to bucket several times.
//!
//! Entries pushed into the current slot wait until the next pop, then go onto the stack in
//! order. In A* they are the children of the cell just expanded with the same f, so their h,
//! the tie, is below that of every entry on the stack: they go on top without a search. Any
//! other push is merged into its place.
//!
//! Entries come out in exactly the order of (key, tie, cell), the order of the indexed heap
//! with a (key, tie) key, so a search gives the same expansions and paths on either queue.
//!
//! There are no handles: a cell whose key improves is simply pushed again (a "lazy"
//! decrease-key). [`BucketQueue::pop_live`] lets the caller drop the out-of-date entries of a
//! bucket all at once when it comes up, before the sort; any left are skipped as they come out.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::stats::SearchStats;

/// Low key bits kept in an entry; the rest is the slot. 2³⁰ is an eighth of a plain move.
const SHIFT: u32 = 30;

/// Slots with a bucket, from the current one on: 2⁸ × 2³⁰ = 2³⁸ key units, more than twice
/// the dearest move (a diagonal between two weight-9 cells, about 2³⁶·⁷).
const WINDOW: usize = 256;

/// Words of the bitmap of non-empty buckets (at most 64: one summary word covers them).
const WORDS: usize = WINDOW / 64;
const _: () = assert!(WORDS >= 1 && WORDS <= 64 && WINDOW.is_multiple_of(64));

/// An entry: (key's low bits, tie, cell) from the most significant bits down.
type Entry = u128;

#[inline(always)]
fn pack(key: u64, tie: u64, cell: u32) -> Entry {
    ((key & ((1 << SHIFT) - 1)) as u128) << 96 | (tie as u128) << 32 | cell as u128
}

/// A queue of (key, tie, cell) entries popped in that order. Keys pushed must not be below
/// the last key popped; one that is anyway is queued as if it were equal to it (see
/// [`BucketQueue::push`]).
///
/// [`SearchStats::pushes`] counts entries pushed, [`SearchStats::pops`] entries popped or
/// dropped, [`SearchStats::stale_pops`] entries dropped by [`BucketQueue::pop_live`] and
/// [`SearchStats::sift_moves`] entries sorted when their bucket became current, plus entries
/// moved from the far list into a bucket.
#[derive(Clone, Debug)]
pub struct BucketQueue {
    /// Bucket `s % WINDOW` holds the entries of slot `s`, for `s` in `slot + 1 .. slot +
    /// WINDOW`; that of `slot` itself is empty (its entries are in `current`).
    buckets: Box<[Vec<Entry>; WINDOW]>,
    /// Bit `i` of the word `i / 64` is set when bucket `i` is non-empty.
    occupied: [u64; WORDS],
    /// Bit `w` is set when word `w` of `occupied` is non-zero.
    summary: u64,
    /// The entries of slot `slot`, sorted, the smallest last.
    current: Vec<Entry>,
    /// Entries pushed into slot `slot` since the last pop.
    pending: Vec<Entry>,
    /// Entries at least `WINDOW` slots ahead of `slot` (as of the last refill), smallest first.
    far: BinaryHeap<Reverse<(u64, u64, u32)>>,
    /// The current slot: that of `last`, or of the next key once `current` is refilled.
    slot: u64,
    /// The last key popped (0 before the first pop).
    last: u64,
    len: usize,
    stats: SearchStats,
}

impl Default for BucketQueue {
    fn default() -> Self {
        Self::new()
    }
}

impl BucketQueue {
    /// An empty queue.
    pub fn new() -> Self {
        BucketQueue {
            buckets: Box::new([const { Vec::new() }; WINDOW]),
            occupied: [0; WORDS],
            summary: 0,
            current: Vec::new(),
            pending: Vec::new(),
            far: BinaryHeap::new(),
            slot: 0,
            last: 0,
            len: 0,
            stats: SearchStats::default(),
        }
    }

    /// Queues `cell` with `key` and `tie`. `key` should be at least [`last`](Self::last); a
    /// smaller one is queued as if it were equal to `last` (so it comes out among the next,
    /// not in key order). A search with a consistent heuristic never pushes one.
    #[inline(always)]
    pub fn push(&mut self, key: u64, tie: u64, cell: u32) {
        let key = key.max(self.last);
        // A pop leaves `last` in slot `slot`, so this does not wrap.
        let ahead = (key >> SHIFT) - self.slot;
        if ahead == 0 {
            self.pending.push(pack(key, tie, cell));
        } else if ahead < WINDOW as u64 {
            let b = (key >> SHIFT) as usize % WINDOW;
            self.buckets[b].push(pack(key, tie, cell));
            self.mark(b);
        } else {
            self.push_far(key, tie, cell);
        }
        self.len += 1;
        self.stats.pushes += 1;
    }

    /// Queues an entry beyond the window (out of line: searches hardly ever get here).
    #[cold]
    #[inline(never)]
    fn push_far(&mut self, key: u64, tie: u64, cell: u32) {
        self.far.push(Reverse((key, tie, cell)));
    }

    /// Removes and returns the entry with the smallest (key, tie, cell), as (key, cell).
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, u32)> {
        self.pop_live(|_, _, _| true)
    }

    /// [`pop`](Self::pop), where a bucket about to be sorted first drops its entries for which
    /// `live(cell, key, tie)` is false: out-of-date ones, which a lazy decrease-key leaves
    /// behind. Asking when the bucket comes up, for all its entries in one go, lets the
    /// caller's look-ups overlap, and the sort and the stack skip them. They are counted as
    /// [`SearchStats::stale_pops`] and [`SearchStats::pops`].
    #[inline]
    pub fn pop_live(&mut self, mut live: impl FnMut(u32, u64, u64) -> bool) -> Option<(u64, u32)> {
        if !self.pending.is_empty() {
            self.settle_pending();
        }
        while self.current.is_empty() {
            if !self.refill(&mut live) {
                return None;
            }
        }
        let e = self.current.pop()?;
        self.last = self.slot << SHIFT | (e >> 96) as u64;
        self.len -= 1;
        self.stats.pops += 1;
        Some((self.last, e as u32))
    }

    /// A cell about to come out: the second on the stack (the first when it is alone), a hint
    /// for prefetching. Two ahead gives the loads time to land; cells pushed meanwhile may
    /// still come first.
    #[inline(always)]
    pub fn peek_cell(&self) -> Option<u32> {
        let n = self.current.len();
        (n > 0).then(|| self.current[n - n.min(2)] as u32)
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

    /// Makes the next non-empty slot current and sorts its live entries onto the stack (see
    /// [`pop_live`](Self::pop_live)); returns false when the queue is empty. `current` and
    /// `pending` are empty.
    #[cold]
    fn refill(&mut self, mut live: impl FnMut(u32, u64, u64) -> bool) -> bool {
        let next = match self.next_occupied() {
            Some(b) => self.slot + ((b + WINDOW - self.slot as usize % WINDOW) % WINDOW) as u64,
            None => match self.far.peek() {
                Some(Reverse((key, _, _))) => key >> SHIFT,
                None => return false,
            },
        };
        self.slot = next;
        // Far entries now inside the window move to their buckets.
        while let Some(&Reverse((key, tie, cell))) = self.far.peek() {
            if (key >> SHIFT) - next >= WINDOW as u64 {
                break;
            }
            self.far.pop();
            let b = (key >> SHIFT) as usize % WINDOW;
            self.buckets[b].push(pack(key, tie, cell));
            self.mark(b);
            self.stats.sift_moves += 1;
        }
        let b = next as usize % WINDOW;
        self.occupied[b / 64] &= !(1 << (b % 64));
        if self.occupied[b / 64] == 0 {
            self.summary &= !(1 << (b / 64));
        }
        // `current` is empty: swapping keeps both allocations.
        std::mem::swap(&mut self.current, &mut self.buckets[b]);
        let all = self.current.len();
        let base = next << SHIFT;
        self.current
            .retain(|&e| live(e as u32, base | (e >> 96) as u64, (e >> 32) as u64));
        let dropped = (all - self.current.len()) as u64;
        self.len -= dropped as usize;
        self.stats.pops += dropped;
        self.stats.stale_pops += dropped;
        self.current.sort_unstable_by(|a, b| b.cmp(a));
        self.stats.sift_moves += self.current.len() as u64;
        true
    }

    /// The first non-empty bucket from the current slot's on, in ring order.
    #[inline]
    fn next_occupied(&self) -> Option<usize> {
        let start = self.slot as usize % WINDOW;
        let (w0, bit0) = (start / 64, start % 64);
        let first = |w: usize| w * 64 + self.occupied[w].trailing_zeros() as usize;
        // Ring order: word w0 from bit0 on, the words after it, those before, then the low
        // bits of w0.
        let here = self.occupied[w0] & (!0u64 << bit0);
        if here != 0 {
            return Some(w0 * 64 + here.trailing_zeros() as usize);
        }
        let after = self.summary & (!0u64).checked_shl(w0 as u32 + 1).unwrap_or(0);
        if after != 0 {
            return Some(first(after.trailing_zeros() as usize));
        }
        let before = self.summary & ((1u64 << w0) - 1);
        if before != 0 {
            return Some(first(before.trailing_zeros() as usize));
        }
        let wrapped = self.occupied[w0] & ((1u64 << bit0) - 1);
        (wrapped != 0).then(|| w0 * 64 + wrapped.trailing_zeros() as usize)
    }

    /// Marks bucket `b` non-empty.
    #[inline(always)]
    fn mark(&mut self, b: usize) {
        self.occupied[b / 64] |= 1 << (b % 64);
        self.summary |= 1 << (b / 64);
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
        while self.summary != 0 {
            let w = self.summary.trailing_zeros() as usize;
            self.summary &= self.summary - 1;
            let mut bits = std::mem::take(&mut self.occupied[w]);
            while bits != 0 {
                self.buckets[w * 64 + bits.trailing_zeros() as usize].clear();
                bits &= bits - 1;
            }
        }
        self.current.clear();
        self.pending.clear();
        self.far.clear();
        self.slot = 0;
        self.last = 0;
        self.len = 0;
    }

    /// Counters of pushes, pops and bucket moves since creation.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Bytes held, for the memory report.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.buckets)
            + (self.current.capacity()
                + self.pending.capacity()
                + self.buckets.iter().map(Vec::capacity).sum::<usize>())
                * std::mem::size_of::<Entry>()
            + self.far.capacity() * std::mem::size_of::<(u64, u64, u32)>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[test]
    fn pops_by_key_then_tie_then_cell() {
        let mut q = BucketQueue::new();
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
        let mut q = BucketQueue::new();
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
                prop_oneof![0u64..4, 0u64..1000, 0u64..1 << 40, any::<u64>().prop_map(|k| k >> 3)],
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
            let mut q = BucketQueue::new();
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
