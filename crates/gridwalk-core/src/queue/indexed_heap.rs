//! The default queue: a `D`-ary heap (binary unless told) with a handle per cell, so
//! decrease-key, increase-key and remove are O(log n) and nothing stale is ever left in it.
//! Entries carry their cell (the tie-break) and their id (the handle, see [`CellQueue`]); the
//! slot array is indexed by id. Entries come out in (key, cell) order whatever `D` is.

use super::{CellQueue, binary, less};
use crate::stats::SearchStats;

const NONE: u32 = u32::MAX;

/// A `D`-ary min-heap of (key, cell, id) with each id's heap slot stored in a flat array.
#[derive(Clone, Debug)]
pub struct IndexedHeap<K, const D: usize = 2> {
    heap: Vec<(K, u32, u32)>,
    slot: Vec<u32>,
    stats: SearchStats,
}

impl<K: Ord + Copy, const D: usize> IndexedHeap<K, D> {
    /// The heap, reordered with each moved cell's slot kept.
    #[inline(always)]
    fn sift(&mut self) -> binary::Sift<'_, K, impl FnMut(u32, usize) + '_, D> {
        let slot = &mut self.slot[..];
        let placed = move |c: u32, at: usize| slot[c as usize] = at as u32;
        binary::Sift {
            heap: &mut self.heap,
            placed,
        }
    }

    /// Moves the item at `i` up to its place.
    #[inline]
    fn sift_up(&mut self, i: usize) {
        self.stats.sift_moves += self.sift().up(i);
    }

    /// Moves the item at `i` down to its place.
    #[inline]
    fn sift_down(&mut self, i: usize) {
        self.stats.sift_moves += self.sift().down(i);
    }

    /// Moves the item at `i`, known to belong low, down to its place (see [`binary::Sift::sink`]).
    #[inline]
    fn sink(&mut self, i: usize) {
        self.stats.sift_moves += self.sift().sink(i);
    }

    /// Removes the item at heap index `i` and restores order.
    fn take(&mut self, i: usize) -> (K, u32, u32) {
        let item = self.heap[i];
        self.slot[item.2 as usize] = NONE;
        let last = self.heap.pop().expect("take on a non-empty heap");
        if i < self.heap.len() {
            self.heap[i] = last;
            if less(&last, &item) {
                self.sift_up(i);
            } else {
                self.sink(i);
            }
        }
        item
    }
}

impl<K: Ord + Copy, const D: usize> CellQueue<K> for IndexedHeap<K, D> {
    fn with_capacity(capacity: usize) -> Self {
        IndexedHeap {
            heap: Vec::new(),
            slot: vec![NONE; capacity],
            stats: SearchStats::default(),
        }
    }

    fn grow(&mut self, capacity: usize) {
        // As the planner's own arrays grow, rather than doubling.
        super::grow(&mut self.slot, capacity, NONE);
    }

    #[inline]
    fn insert_or_update_as(&mut self, id: u32, cell: u32, key: K) {
        let i = self.slot[id as usize];
        if i == NONE {
            self.stats.pushes += 1;
            self.heap.push((key, cell, id));
            let n = self.heap.len() - 1;
            self.sift_up(n);
        } else {
            let i = i as usize;
            let old = self.heap[i].0;
            if old == key {
                return;
            }
            if old.cmp(&key).is_eq() {
                // Only a payload changed (see CellQueue): the entry keeps its place.
                self.heap[i].0 = key;
                return;
            }
            self.stats.updates += 1;
            self.heap[i].0 = key;
            if key < old {
                self.sift_up(i);
            } else if i == 0 {
                // A raised top (D* Lite's stale keys) usually belongs far down.
                self.sink(0);
            } else {
                self.sift_down(i);
            }
        }
    }

    #[inline]
    fn remove(&mut self, id: u32) -> bool {
        let i = self.slot[id as usize];
        if i == NONE {
            return false;
        }
        self.stats.removes += 1;
        self.take(i as usize);
        true
    }

    #[inline]
    fn replace_as(&mut self, out: u32, id: u32, cell: u32, key: K) {
        let i = self.slot[out as usize];
        if i == NONE || self.slot[id as usize] != NONE {
            self.remove(out);
            self.insert_or_update_as(id, cell, key);
            return;
        }
        self.stats.removes += 1;
        self.stats.pushes += 1;
        self.slot[out as usize] = NONE;
        let i = i as usize;
        let old = std::mem::replace(&mut self.heap[i], (key, cell, id));
        // The sift records `id`'s slot wherever it stops.
        if less(&(key, cell, id), &old) {
            self.sift_up(i);
        } else {
            self.sift_down(i);
        }
    }

    #[inline]
    fn top_as(&mut self) -> Option<(K, u32, u32)> {
        self.heap.first().copied()
    }

    #[inline]
    fn top(&mut self) -> Option<(K, u32)> {
        self.heap.first().map(|&(k, c, _)| (k, c))
    }

    #[inline]
    fn pop(&mut self) -> Option<(K, u32)> {
        if self.heap.is_empty() {
            return None;
        }
        self.stats.pops += 1;
        let (k, c, _) = self.take(0);
        Some((k, c))
    }

    #[inline]
    fn contains(&self, id: u32) -> bool {
        self.slot[id as usize] != NONE
    }

    fn len(&self) -> usize {
        self.heap.len()
    }

    fn clear(&mut self) {
        for &(_, _, id) in &self.heap {
            self.slot[id as usize] = NONE;
        }
        self.heap.clear();
    }

    #[inline]
    fn queued_key(&self, id: u32) -> Option<K> {
        match self.slot[id as usize] {
            NONE => None,
            i => Some(self.heap[i as usize].0),
        }
    }

    fn queued_cells(&self, out: &mut Vec<u32>) {
        out.extend(self.heap.iter().map(|&(_, c, _)| c));
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.heap.capacity() * std::mem::size_of::<(K, u32, u32)>() + self.slot.capacity() * 4
    }
}
