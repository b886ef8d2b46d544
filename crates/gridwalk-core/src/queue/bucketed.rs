//! A handle-based queue bucketed on the first key component, for D\* Lite's keys: pushes,
//! updates and removes away from the front cost O(1), and only the front bucket is a heap.
//!
//! A key's *slot* is its [`Leading`] component shifted right by [`SHIFT`]; a smaller slot
//! means a smaller key. The slots `base .. base + WINDOW` each have a bucket, in a ring
//! (bucket `slot % WINDOW`); entries further ahead wait unordered in the *far* list. The
//! *current* slot `cur` is at most every queued slot, and its bucket alone is kept as a
//! binary heap by (key, cell); the others are plain vectors (swap-remove). When the current
//! bucket runs dry, the next non-empty one (found through a bitmap) is heapified in one go;
//! when the window is exhausted, it moves to the far list's least slot and takes in every far
//! entry that now fits.
//!
//! Keys below `cur` are allowed at any time (D\* Lite meets them after edits, or when a
//! budgeted compute resumes): such a key's bucket is empty, so it simply becomes the current
//! one. A key below `base` first moves the window down, sending the buckets that leave it to
//! the far list. Entries come out in exactly the (key, cell) order of [`super::IndexedHeap`].
//!
//! Benchmark-only: in D\* Lite it measured no faster than the indexed heap (docs/benchmarks.md,
//! "A bucketed queue for D\* Lite"); the queue comparison times it.

use super::{CellQueue, binary, less};
use crate::stats::SearchStats;

/// Low bits of the leading component below the slot: 2³² is half a plain move.
const SHIFT: u32 = 32;

/// Buckets in the ring: 2¹² × 2³² = 2⁴⁴, 2048 plain moves of the leading component, so
/// that the far list is seldom used.
const WINDOW: usize = 4096;

/// How far below a key under `base` the window moves down to (slots) when it must give up
/// buckets, so that a few more such keys land inside it.
const MARGIN: u64 = WINDOW as u64 / 4;

/// Words of the bitmap of non-empty buckets (one summary word covers them).
const WORDS: usize = WINDOW / 64;
const _: () = assert!(WORDS <= 64 && WINDOW.is_multiple_of(64));

/// The bucket index of the far list.
const FAR: u32 = WINDOW as u32;

/// The bucket of an id not queued.
const NONE: u32 = u32::MAX;

/// A key with a leading component: `a < b` implies `a.leading() <= b.leading()`.
pub trait Leading: Ord + Copy {
    /// The leading component, which the queue buckets on.
    fn leading(&self) -> u64;
}

impl Leading for u32 {
    #[inline(always)]
    fn leading(&self) -> u64 {
        *self as u64
    }
}

impl Leading for u64 {
    #[inline(always)]
    fn leading(&self) -> u64 {
        *self
    }
}

#[inline(always)]
fn slot<K: Leading>(key: &K) -> u64 {
    key.leading() >> SHIFT
}

/// Where an id's entry is: its bucket ([`FAR`] for the far list, [`NONE`] when not queued)
/// and its index there.
#[derive(Clone, Copy, Debug)]
struct Loc {
    bucket: u32,
    pos: u32,
}

const NOWHERE: Loc = Loc {
    bucket: NONE,
    pos: 0,
};

/// A queue of (key, cell, id) bucketed on the key's leading component; see the module docs.
///
/// [`SearchStats::sift_moves`] counts entries moved by the front heap's sifts and heapifies,
/// and entries moved between the window and the far list.
#[derive(Clone, Debug)]
pub struct BucketedHeap<K> {
    /// `WINDOW` ring buckets, then the far list.
    buckets: Box<[Vec<(K, u32, u32)>]>,
    /// Per ring bucket other than the front: its first `heaped[b]` entries are a heap, left
    /// from when it was the front, so it need not be heapified all over when it is again.
    heaped: Box<[u32]>,
    /// Bit `i % 64` of word `i / 64` is set when ring bucket `i` is non-empty.
    occupied: [u64; WORDS],
    /// Bit `w` is set when word `w` of `occupied` is non-zero.
    summary: u64,
    /// The first slot of the window.
    base: u64,
    /// The current slot: `base <= cur <= ` every queued slot; its bucket is a heap.
    cur: u64,
    /// Per id: where its entry is.
    loc: Vec<Loc>,
    len: usize,
    stats: SearchStats,
}

impl<K: Leading> BucketedHeap<K> {
    /// The bucket of slot `s`, which is not below `base`.
    #[inline(always)]
    fn bucket_of(&self, s: u64) -> usize {
        if s - self.base < WINDOW as u64 {
            (s % WINDOW as u64) as usize
        } else {
            FAR as usize
        }
    }

    /// The current slot's bucket, the heap.
    #[inline(always)]
    fn front(&self) -> usize {
        (self.cur % WINDOW as u64) as usize
    }

    /// Makes slot `t` current; the old front stays a heap.
    #[inline(always)]
    fn set_cur(&mut self, t: u64) {
        let old = self.front();
        self.heaped[old] = self.buckets[old].len() as u32;
        self.cur = t;
    }

    /// Bucket `b` reordered as a heap, with each moved entry's position kept.
    #[inline(always)]
    fn sift(&mut self, b: usize) -> binary::Sift<'_, K, impl FnMut(u32, usize) + '_> {
        let loc = &mut self.loc[..];
        binary::Sift {
            heap: &mut self.buckets[b],
            placed: move |id: u32, at: usize| loc[id as usize].pos = at as u32,
        }
    }

    #[inline(always)]
    fn mark(&mut self, b: usize) {
        self.occupied[b / 64] |= 1 << (b % 64);
        self.summary |= 1 << (b / 64);
    }

    #[inline(always)]
    fn unmark(&mut self, b: usize) {
        self.occupied[b / 64] &= !(1 << (b % 64));
        if self.occupied[b / 64] == 0 {
            self.summary &= !(1 << (b / 64));
        }
    }

    /// The first non-empty ring bucket at or after `p` in index order.
    #[inline]
    fn first_set_from(&self, p: usize) -> Option<usize> {
        let w = p / 64;
        let here = self.occupied[w] & (!0u64 << (p % 64));
        if here != 0 {
            return Some(w * 64 + here.trailing_zeros() as usize);
        }
        let after = self.summary & (!0u64).checked_shl(w as u32 + 1).unwrap_or(0);
        (after != 0).then(|| {
            let w = after.trailing_zeros() as usize;
            w * 64 + self.occupied[w].trailing_zeros() as usize
        })
    }

    /// The least non-empty slot of the window (every one is at least `cur`).
    #[inline]
    fn next_occupied(&self) -> Option<u64> {
        let p = self.front();
        let q = self.first_set_from(p).or_else(|| self.first_set_from(0))?;
        Some(self.cur + ((q + WINDOW - p) % WINDOW) as u64)
    }

    /// Appends `e` to bucket `b` (its slot's), keeping its position; sifts it up if `b` is
    /// the front.
    #[inline(always)]
    fn put(&mut self, b: usize, e: (K, u32, u32)) {
        let v = &mut self.buckets[b];
        v.push(e);
        let i = v.len() - 1;
        self.loc[e.2 as usize] = Loc {
            bucket: b as u32,
            pos: i as u32,
        };
        if b != FAR as usize {
            self.mark(b);
            if b == self.front() {
                self.stats.sift_moves += self.sift(b).up(i);
            }
        }
    }

    /// Queues the entry `e` (its id not queued), moving the window or the current slot down
    /// if its key is below them.
    #[inline]
    fn place(&mut self, e: (K, u32, u32)) {
        let s = slot(&e.0);
        if s < self.cur {
            if s < self.base {
                self.move_window_down(s);
            }
            // No entry has slot `s`: its bucket is empty, a heap as it is.
            self.set_cur(s);
        }
        let b = self.bucket_of(s);
        self.put(b, e);
    }

    /// Takes the entry at `i` of bucket `b` out of the queue.
    #[inline]
    fn take(&mut self, b: usize, i: usize) -> (K, u32, u32) {
        let front = b == self.front();
        let v = &mut self.buckets[b];
        let item = v[i];
        self.loc[item.2 as usize] = NOWHERE;
        let last = v.pop().expect("take from a non-empty bucket");
        let left = v.len();
        if i < left {
            v[i] = last;
            self.loc[last.2 as usize].pos = i as u32;
            if front {
                self.stats.sift_moves += if less(&last, &item) {
                    self.sift(b).up(i)
                } else {
                    self.sift(b).sink(i)
                };
            }
        }
        if b != FAR as usize {
            if !front {
                // The heap part ends before the hole.
                self.heaped[b] = self.heaped[b].min(i as u32);
            }
            if left == 0 {
                self.unmark(b);
            }
        }
        item
    }

    /// Moves every entry of bucket `b` to the far list.
    fn send_far(&mut self, b: usize) {
        let moved = std::mem::take(&mut self.buckets[b]);
        self.unmark(b);
        self.heaped[b] = 0;
        self.stats.sift_moves += moved.len() as u64;
        for e in &moved {
            let far = &mut self.buckets[FAR as usize];
            self.loc[e.2 as usize] = Loc {
                bucket: FAR,
                pos: far.len() as u32,
            };
            far.push(*e);
        }
        // Keep the bucket's room for its next slot.
        let mut moved = moved;
        moved.clear();
        self.buckets[b] = moved;
    }

    /// Moves the window down to take in slot `s` (below `base`): as far down as it can
    /// without losing its highest non-empty bucket, or else to [`MARGIN`] below `s`, the
    /// buckets of the slots that leave it going to the far list.
    #[cold]
    #[inline(never)]
    fn move_window_down(&mut self, s: u64) {
        let top = self.occupied_slots().max();
        let base = match top {
            Some(t) if t - s < WINDOW as u64 => t + 1 - WINDOW as u64,
            _ => s.saturating_sub(MARGIN),
        }
        .min(s);
        let keep_below = base + WINDOW as u64;
        if top.is_some_and(|t| t >= keep_below) {
            for b in 0..WINDOW {
                if self.occupied[b / 64] & (1 << (b % 64)) != 0
                    && slot(&self.buckets[b][0].0) >= keep_below
                {
                    self.send_far(b);
                }
            }
        }
        self.base = base;
    }

    /// The slots of the non-empty ring buckets.
    fn occupied_slots(&self) -> impl Iterator<Item = u64> + '_ {
        (0..WORDS).flat_map(move |w| {
            let mut bits = self.occupied[w];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    slot(&self.buckets[b][0].0)
                })
            })
        })
    }

    /// Makes bucket `b`, the new front, a heap: its entries past the heap part are sifted
    /// up one by one when they are few, else the whole bucket is heapified.
    fn heapify(&mut self, b: usize) {
        let n = self.buckets[b].len();
        let h = (self.heaped[b] as usize).min(n);
        if n - h <= n / 8 {
            for i in h..n {
                self.stats.sift_moves += self.sift(b).up(i);
            }
        } else {
            for i in (0..n / 2).rev() {
                self.stats.sift_moves += self.sift(b).down(i);
            }
        }
    }

    /// Makes the least non-empty slot current (the front bucket is empty, the queue not):
    /// the next ring bucket, or else the far list's least slot, which the window moves to.
    #[cold]
    fn advance(&mut self) {
        if let Some(t) = self.next_occupied() {
            self.set_cur(t);
            self.heapify(self.front());
            return;
        }
        let far = FAR as usize;
        let m = self.buckets[far]
            .iter()
            .map(|e| slot(&e.0))
            .min()
            .expect("a non-empty queue with an empty window has far entries");
        self.set_cur(m);
        self.base = m;
        let mut i = 0;
        while i < self.buckets[far].len() {
            let s = slot(&self.buckets[far][i].0);
            if s - m < WINDOW as u64 {
                let e = self.take(far, i);
                self.stats.sift_moves += 1;
                let b = self.bucket_of(s);
                // Not sifted as it goes in: the front is heapified below.
                let v = &mut self.buckets[b];
                v.push(e);
                self.loc[e.2 as usize] = Loc {
                    bucket: b as u32,
                    pos: (v.len() - 1) as u32,
                };
                self.mark(b);
            } else {
                i += 1;
            }
        }
        self.heapify(self.front());
    }
}

impl<K: Leading> CellQueue<K> for BucketedHeap<K> {
    fn with_capacity(capacity: usize) -> Self {
        BucketedHeap {
            buckets: (0..=WINDOW).map(|_| Vec::new()).collect(),
            heaped: vec![0; WINDOW].into_boxed_slice(),
            occupied: [0; WORDS],
            summary: 0,
            base: 0,
            cur: 0,
            loc: vec![NOWHERE; capacity],
            len: 0,
            stats: SearchStats::default(),
        }
    }

    fn grow(&mut self, capacity: usize) {
        super::grow(&mut self.loc, capacity, NOWHERE);
    }

    #[inline]
    fn insert_or_update_as(&mut self, id: u32, cell: u32, key: K) {
        let at = self.loc[id as usize];
        if at.bucket == NONE {
            self.stats.pushes += 1;
            self.len += 1;
            self.place((key, cell, id));
            return;
        }
        let (b, i) = (at.bucket as usize, at.pos as usize);
        let old = self.buckets[b][i];
        if old.0 == key {
            return;
        }
        if old.0.cmp(&key).is_eq() {
            // Only a payload changed (see CellQueue): the entry keeps its place.
            self.buckets[b][i].0 = key;
            return;
        }
        self.stats.updates += 1;
        let s = slot(&key);
        if s >= self.cur && self.bucket_of(s) == b {
            // Same bucket: in the front heap, a sift; elsewhere nothing to order.
            self.buckets[b][i].0 = key;
            if b != self.front() {
                if b != FAR as usize {
                    self.heaped[b] = self.heaped[b].min(i as u32);
                }
            } else {
                self.stats.sift_moves += if key < old.0 {
                    self.sift(b).up(i)
                } else if i == 0 {
                    self.sift(b).sink(0)
                } else {
                    self.sift(b).down(i)
                };
            }
            return;
        }
        self.take(b, i);
        self.place((key, old.1, id));
    }

    #[inline]
    fn remove(&mut self, id: u32) -> bool {
        let at = self.loc[id as usize];
        if at.bucket == NONE {
            return false;
        }
        self.stats.removes += 1;
        self.len -= 1;
        self.take(at.bucket as usize, at.pos as usize);
        true
    }

    #[inline]
    fn top_as(&mut self) -> Option<(K, u32, u32)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[self.front()].is_empty() {
            self.advance();
        }
        self.buckets[self.front()].first().copied()
    }

    #[inline]
    fn pop(&mut self) -> Option<(K, u32)> {
        let (k, c, _) = self.top_as()?;
        self.stats.pops += 1;
        self.len -= 1;
        self.take(self.front(), 0);
        Some((k, c))
    }

    #[inline]
    fn contains(&self, id: u32) -> bool {
        self.loc[id as usize].bucket != NONE
    }

    #[inline]
    fn queued_key(&self, id: u32) -> Option<K> {
        let at = self.loc[id as usize];
        (at.bucket != NONE).then(|| self.buckets[at.bucket as usize][at.pos as usize].0)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        for v in self.buckets.iter_mut() {
            for &(_, _, id) in v.iter() {
                self.loc[id as usize] = NOWHERE;
            }
            v.clear();
        }
        self.occupied = [0; WORDS];
        self.heaped.fill(0);
        self.summary = 0;
        self.len = 0;
    }

    fn queued_cells(&self, out: &mut Vec<u32>) {
        for v in self.buckets.iter() {
            out.extend(v.iter().map(|&(_, c, _)| c));
        }
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        let entries: usize = self.buckets.iter().map(Vec::capacity).sum();
        entries * std::mem::size_of::<(K, u32, u32)>()
            + self.buckets.len() * std::mem::size_of::<Vec<(K, u32, u32)>>()
            + self.loc.capacity() * std::mem::size_of::<Loc>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::INFINITY;
    use crate::queue::IndexedHeap;
    use proptest::prelude::*;
    use std::cmp::Ordering;

    /// A key shaped like D\* Lite's: ordered by `(k1, k2)`, with a payload (`rhs`) that takes
    /// part in equality only, so two keys can be neither smaller nor equal.
    #[derive(Clone, Copy, Debug)]
    struct Key {
        k1: u64,
        k2: u64,
        rhs: u64,
    }

    impl PartialEq for Key {
        fn eq(&self, o: &Self) -> bool {
            (self.k1, self.k2, self.rhs) == (o.k1, o.k2, o.rhs)
        }
    }

    impl Eq for Key {}

    impl Ord for Key {
        fn cmp(&self, o: &Self) -> Ordering {
            (self.k1, self.k2).cmp(&(o.k1, o.k2))
        }
    }

    impl PartialOrd for Key {
        fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
            Some(self.cmp(o))
        }
    }

    impl Leading for Key {
        fn leading(&self) -> u64 {
            self.k1
        }
    }

    const IDS: u32 = 64;

    /// Ids of the crowded runs ([`crowded_key`]).
    const MANY: u32 = 256;

    /// The cell of an id: a fixed permutation, so ids and cells order differently.
    fn cell(id: u32) -> u32 {
        (id * 37) % MANY + 100
    }

    #[derive(Debug, Clone)]
    enum Op {
        Set(u32, Key),
        Remove(u32),
        Pop,
        Top,
        Replace(u32, u32, Key),
        Clear,
    }

    /// Keys from a few slots apart (ties, several per bucket) to far beyond the window, and
    /// infinite ones; payloads that differ while the order does not.
    fn key() -> impl Strategy<Value = Key> + Clone {
        let k1 = prop_oneof![
            4 => (0u64..8).prop_map(|a| (1 << 40) + a * (1 << (SHIFT - 1))),
            3 => (0u64..4 * WINDOW as u64).prop_map(|a| a << SHIFT),
            2 => any::<u64>().prop_map(|a| a >> 10),
            1 => Just(INFINITY),
        ];
        (k1, 0u64..3, 0u64..3).prop_map(|(k1, k2, rhs)| Key { k1, k2, rhs })
    }

    /// Keys crowded into three slots, one of them below the others (an edit's key), with
    /// many ties on `k1`: big buckets that leave the front and come back.
    fn crowded_key() -> impl Strategy<Value = Key> + Clone {
        let k1 = prop_oneof![
            5 => Just(10u64 << SHIFT),
            3 => Just((11u64 << SHIFT) + 7),
            1 => Just(4u64 << SHIFT),
        ];
        (k1, 0u64..40, 0u64..2).prop_map(|(k1, k2, rhs)| Key { k1, k2, rhs })
    }

    /// Operations on ids `0..ids`, a clear once in about `150 / clear` of them.
    fn op_with(
        ids: u32,
        key: impl Strategy<Value = Key> + Clone,
        clear: u32,
    ) -> impl Strategy<Value = Op> {
        prop_oneof![
            60 => (0..ids, key.clone()).prop_map(|(i, k)| Op::Set(i, k)),
            20 => (0..ids).prop_map(Op::Remove),
            40 => Just(Op::Pop),
            10 => Just(Op::Top),
            20 => (0..ids, 0..ids, key).prop_map(|(o, i, k)| Op::Replace(o, i, k)),
            clear => Just(Op::Clear),
        ]
    }

    fn op() -> impl Strategy<Value = Op> {
        op_with(IDS, key(), 10)
    }

    /// Runs `ops` on the bucketed queue and on the indexed heap: every answer must agree.
    fn check(ops: &[Op]) {
        let mut a = BucketedHeap::<Key>::with_capacity(8);
        let mut b = IndexedHeap::<Key>::with_capacity(8);
        a.grow(MANY as usize);
        b.grow(MANY as usize);
        for op in ops {
            match *op {
                Op::Set(i, k) => {
                    a.insert_or_update_as(i, cell(i), k);
                    b.insert_or_update_as(i, cell(i), k);
                }
                Op::Remove(i) => assert_eq!(a.remove(i), b.remove(i)),
                Op::Pop => assert_eq!(a.pop(), b.pop()),
                Op::Top => assert_eq!(a.top_as(), b.top_as()),
                Op::Replace(o, i, k) => {
                    a.replace_as(o, i, cell(i), k);
                    b.replace_as(o, i, cell(i), k);
                }
                Op::Clear => {
                    a.clear();
                    b.clear();
                }
            }
            assert_eq!(a.len(), b.len());
            for i in 0..MANY {
                assert_eq!(a.queued_key(i), b.queued_key(i), "id {i} after {op:?}");
                assert_eq!(a.contains(i), b.contains(i));
            }
        }
        // Drained, both give the same order to the end.
        while let Some(t) = b.pop() {
            assert_eq!(a.pop(), Some(t));
        }
        assert_eq!(a.pop(), None);
    }

    proptest! {
        #[test]
        fn pops_as_the_indexed_heap(ops in prop::collection::vec(op(), 0..400)) {
            check(&ops);
        }

        #[test]
        fn crowded_buckets_pop_as_the_indexed_heap(
            ops in prop::collection::vec(op_with(MANY, crowded_key(), 1), 0..1500),
        ) {
            check(&ops);
        }
    }

    /// A search-like run: keys rise by small steps from the last popped, with sometimes one
    /// far below (an edit), across many windows.
    #[test]
    fn long_monotone_runs_with_drops_match() {
        let mut a = BucketedHeap::<Key>::with_capacity(0);
        let mut b = IndexedHeap::<Key>::with_capacity(0);
        a.grow(4096);
        b.grow(4096);
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut last = 0u64;
        for step in 0..200_000u32 {
            let r = next();
            let id = (r % 4096) as u32;
            let k1 = if step % 997 == 0 {
                last / 2
            } else {
                last + (r >> 40) % (3 << 33)
            };
            let k = Key {
                k1,
                k2: (r >> 20) % 4,
                rhs: 0,
            };
            a.insert_or_update_as(id, id ^ 5, k);
            b.insert_or_update_as(id, id ^ 5, k);
            if r % 3 != 0 {
                let p = b.pop();
                assert_eq!(a.pop(), p);
                last = p.map_or(last, |(k, _)| k.k1);
            }
        }
        while let Some(t) = b.pop() {
            assert_eq!(a.pop(), Some(t));
        }
    }
}
