//! The sift loops of a binary min-heap of (key, cell), shared by the heaps in this module.

use super::less;

/// Moves the entry at `i` up to its place; `placed(cell, index)` hears of every entry that
/// lands somewhere new. Returns the entries moved one level.
#[inline(always)]
pub(super) fn sift_up<K: Ord + Copy>(
    heap: &mut [(K, u32)],
    mut i: usize,
    mut placed: impl FnMut(u32, usize),
) -> u64 {
    let item = heap[i];
    let start = i;
    while i > 0 && less(&item, &heap[(i - 1) / 2]) {
        heap[i] = heap[(i - 1) / 2];
        placed(heap[i].1, i);
        i = (i - 1) / 2;
    }
    heap[i] = item;
    placed(item.1, i);
    // Each level up moved one entry: the levels between the two depths.
    ((start + 1).ilog2() - (i + 1).ilog2()) as u64
}

/// The smaller child of `i` if it sorts before `item`. Arithmetic rather than a branch picks
/// the child: which one is smaller is a coin toss.
#[inline(always)]
fn smaller_child<K: Ord + Copy>(heap: &[(K, u32)], i: usize, item: &(K, u32)) -> Option<usize> {
    let l = 2 * i + 1;
    if l >= heap.len() {
        return None;
    }
    let c = l + (l + 1 < heap.len() && less(&heap[l + 1], &heap[l])) as usize;
    less(&heap[c], item).then_some(c)
}

/// Moves the entry at `i` down to its place; `placed` as in [`sift_up`].
#[inline(always)]
pub(super) fn sift_down<K: Ord + Copy>(
    heap: &mut [(K, u32)],
    mut i: usize,
    mut placed: impl FnMut(u32, usize),
) -> u64 {
    let item = heap[i];
    let mut moves = 0;
    while let Some(c) = smaller_child(heap, i, &item) {
        heap[i] = heap[c];
        placed(heap[i].1, i);
        moves += 1;
        i = c;
    }
    heap[i] = item;
    placed(item.1, i);
    moves
}
