//! The sift loops of a `D`-ary min-heap of (key, cell, id) entries, ordered by (key, cell),
//! shared by the heaps in this module (binary by default; the indexed heap can be 4-ary).

use super::less;

/// A heap being reordered; `placed(id, index)` hears of every entry that lands somewhere
/// new, so an indexed heap can keep its slots. The children of `i` are `D·i + 1 ..= D·i + D`.
pub(super) struct Sift<'a, K, F, const D: usize = 2> {
    pub heap: &'a mut [(K, u32, u32)],
    pub placed: F,
}

impl<K: Ord + Copy, F: FnMut(u32, usize), const D: usize> Sift<'_, K, F, D> {
    /// The parent of `i > 0`.
    #[inline(always)]
    fn parent(i: usize) -> usize {
        (i - 1) / D
    }

    /// Moves the entry at `from` into the hole at `to`, counting the move; the hole is then at
    /// `from`, which it returns.
    #[inline(always)]
    fn shift(&mut self, from: usize, to: usize, moves: &mut u64) -> usize {
        self.heap[to] = self.heap[from];
        (self.placed)(self.heap[to].2, to);
        *moves += 1;
        from
    }

    /// Moves the entry at `i` up to its place. Returns the entries moved one level.
    #[inline(always)]
    pub fn up(mut self, mut i: usize) -> u64 {
        let item = self.heap[i];
        let mut moves = 0;
        while i > 0 && less(&item, &self.heap[Self::parent(i)]) {
            let p = Self::parent(i);
            i = self.shift(p, i, &mut moves);
        }
        self.heap[i] = item;
        (self.placed)(item.2, i);
        moves
    }

    /// The smallest child of `i`, if it has one. Binary: arithmetic rather than a branch
    /// picks the child, since which one is smaller is a coin toss.
    #[inline(always)]
    fn least_child(&self, i: usize) -> Option<usize> {
        let (heap, first) = (&*self.heap, D * i + 1);
        let n = heap.len();
        if first >= n {
            return None;
        }
        if D == 2 {
            return Some(first + (first + 1 < n && less(&heap[first + 1], &heap[first])) as usize);
        }
        if D == 4 && first + 3 < n {
            // A tournament of two pairs: two independent comparisons, then one.
            let a = first + less(&heap[first + 1], &heap[first]) as usize;
            let b = first + 2 + less(&heap[first + 3], &heap[first + 2]) as usize;
            return Some(if less(&heap[b], &heap[a]) { b } else { a });
        }
        let mut c = first;
        for j in first + 1..(first + D).min(n) {
            c = if less(&heap[j], &heap[c]) { j } else { c };
        }
        Some(c)
    }

    /// Moves the entry at `i` down to its place by first moving the hole it leaves down to a
    /// leaf along the smallest children, then the entry up from there. One comparison per
    /// level on the way down fewer: cheaper than [`down`](Self::down) for an entry that
    /// belongs near the bottom (a former last entry, a key raised past most others). Returns
    /// the entries moved one level.
    #[inline(always)]
    pub fn sink(mut self, mut i: usize) -> u64 {
        let item = self.heap[i];
        let mut moves = 0;
        while let Some(c) = self.least_child(i) {
            i = self.shift(c, i, &mut moves);
        }
        // The hole is at a leaf: the entry goes there, then up to its place.
        self.heap[i] = item;
        moves + self.up(i)
    }

    /// Moves the entry at `i` down to its place. Returns the entries moved one level.
    #[inline(always)]
    pub fn down(mut self, mut i: usize) -> u64 {
        let item = self.heap[i];
        let mut moves = 0;
        while let Some(c) = self.least_child(i).filter(|&c| less(&self.heap[c], &item)) {
            i = self.shift(c, i, &mut moves);
        }
        self.heap[i] = item;
        (self.placed)(item.2, i);
        moves
    }
}
