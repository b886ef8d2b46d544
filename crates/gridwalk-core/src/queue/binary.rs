//! The sift loops of a binary min-heap of (key, cell, id) entries, ordered by (key, cell),
//! shared by the heaps in this module.

use super::less;

/// A heap being reordered; `placed(id, index)` hears of every entry that lands somewhere
/// new, so an indexed heap can keep its slots.
pub(super) struct Sift<'a, K, F> {
    pub heap: &'a mut [(K, u32, u32)],
    pub placed: F,
}

impl<K: Ord + Copy, F: FnMut(u32, usize)> Sift<'_, K, F> {
    /// Moves the entry at `i` up to its place. Returns the entries moved one level.
    #[inline(always)]
    pub fn up(mut self, mut i: usize) -> u64 {
        let item = self.heap[i];
        let start = i;
        while i > 0 && less(&item, &self.heap[(i - 1) / 2]) {
            self.heap[i] = self.heap[(i - 1) / 2];
            (self.placed)(self.heap[i].2, i);
            i = (i - 1) / 2;
        }
        self.heap[i] = item;
        (self.placed)(item.2, i);
        // One entry moved per level climbed.
        ((start + 1).ilog2() - (i + 1).ilog2()) as u64
    }

    /// The smaller child of `i` if it sorts before `item`. Arithmetic rather than a branch
    /// picks the child: which one is smaller is a coin toss.
    #[inline(always)]
    fn smaller_child(&self, i: usize, item: &(K, u32, u32)) -> Option<usize> {
        let (heap, l) = (&*self.heap, 2 * i + 1);
        if l >= heap.len() {
            return None;
        }
        let c = l + (l + 1 < heap.len() && less(&heap[l + 1], &heap[l])) as usize;
        less(&heap[c], item).then_some(c)
    }

    /// Moves the entry at `i` down to its place by first moving the hole it leaves down to a
    /// leaf along the smaller children, then the entry up from there. One comparison per level
    /// on the way down instead of two: cheaper than [`down`](Self::down) for an entry that
    /// belongs near the bottom (a former last entry, a key raised past most others). Returns
    /// the entries moved one level.
    #[inline(always)]
    pub fn sink(mut self, mut i: usize) -> u64 {
        let item = self.heap[i];
        let n = self.heap.len();
        let mut moves = 0;
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let c = l + (l + 1 < n && less(&self.heap[l + 1], &self.heap[l])) as usize;
            self.heap[i] = self.heap[c];
            (self.placed)(self.heap[i].2, i);
            moves += 1;
            i = c;
        }
        while i > 0 && less(&item, &self.heap[(i - 1) / 2]) {
            self.heap[i] = self.heap[(i - 1) / 2];
            (self.placed)(self.heap[i].2, i);
            moves += 1;
            i = (i - 1) / 2;
        }
        self.heap[i] = item;
        (self.placed)(item.2, i);
        moves
    }

    /// Moves the entry at `i` down to its place. Returns the entries moved one level.
    #[inline(always)]
    pub fn down(mut self, mut i: usize) -> u64 {
        let item = self.heap[i];
        let mut moves = 0;
        while let Some(c) = self.smaller_child(i, &item) {
            self.heap[i] = self.heap[c];
            (self.placed)(self.heap[i].2, i);
            moves += 1;
            i = c;
        }
        self.heap[i] = item;
        (self.placed)(item.2, i);
        moves
    }
}
