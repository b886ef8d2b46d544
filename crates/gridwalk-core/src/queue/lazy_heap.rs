//! Benchmark-only: a binary heap with lazy deletion, the "deletable heap" of many D* Lite
//! implementations, kept to compare against the indexed heap.
//!
//! The heap holds (key, cell) entries and a flat array holds each cell's current key. A key
//! change pushes a new entry and leaves the old one in the heap, stale; a removal only clears
//! the cell's current key. An entry is live when its key is its cell's current key, and
//! [`top`](CellQueue::top) and [`pop`](CellQueue::pop) throw away stale entries that reach
//! the top. When stale entries outnumber live ones by far, the heap is rebuilt without them,
//! so memory stays proportional to the queued cells.

use super::{CellQueue, binary};
use crate::stats::SearchStats;

/// Rebuild once the heap holds more than this many entries per queued cell (plus a margin).
const COMPACT_RATIO: usize = 4;
/// Heaps this small are never rebuilt: discarding at the top is cheap enough.
const COMPACT_MARGIN: usize = 1024;

/// A binary min-heap of (key, cell) entries where key changes and removals leave stale
/// entries behind instead of moving anything.
///
/// [`SearchStats::sift_moves`] counts entries moved one level (including by rebuilds);
/// [`LazyHeap::stale_discarded`] counts the stale entries thrown away.
#[derive(Clone, Debug)]
pub struct LazyHeap<K> {
    heap: Vec<(K, u32, u32)>,
    /// Each id's current key; `None` when it is not queued.
    current: Vec<Option<K>>,
    len: usize,
    stale_discarded: u64,
    stats: SearchStats,
}

impl<K: Ord + Copy> LazyHeap<K> {
    /// Stale entries thrown away so far, at the top or by a rebuild.
    pub fn stale_discarded(&self) -> u64 {
        self.stale_discarded
    }

    /// Entries in the heap, live and stale.
    pub fn entries(&self) -> usize {
        self.heap.len()
    }

    /// Whether `entry` still stands for its cell.
    #[inline]
    fn is_live(&self, entry: (K, u32, u32)) -> bool {
        self.current[entry.2 as usize] == Some(entry.0)
    }

    /// The heap, reordered by the indexed heap's own loops, so the queue comparison
    /// measures the queues, not their tuning.
    fn sift(&mut self) -> binary::Sift<'_, K, impl FnMut(u32, usize)> {
        binary::Sift {
            heap: &mut self.heap,
            placed: |_, _| (),
        }
    }

    /// Removes the root entry, whatever it is.
    fn take_root(&mut self) -> (K, u32, u32) {
        let last = self.heap.pop().expect("take_root on a non-empty heap");
        if self.heap.is_empty() {
            return last;
        }
        let root = std::mem::replace(&mut self.heap[0], last);
        self.stats.sift_moves += self.sift().down(0);
        root
    }

    /// Throws away stale entries at the top until the root is live or the heap is empty.
    fn discard_stale_top(&mut self) {
        while let Some(&root) = self.heap.first() {
            if self.is_live(root) {
                break;
            }
            self.take_root();
            self.stale_discarded += 1;
        }
    }

    /// Rebuilds the heap from its live entries when stale ones dominate.
    fn maybe_compact(&mut self) {
        if self.heap.len() <= COMPACT_RATIO * self.len + COMPACT_MARGIN {
            return;
        }
        let before = self.heap.len();
        // A cell can have several identical live-looking entries (its key changed and came
        // back); keep one per cell.
        let mut kept = vec![false; self.current.len()];
        let mut entries = std::mem::take(&mut self.heap);
        entries.retain(|&(k, _, c)| {
            let keep = self.current[c as usize] == Some(k) && !kept[c as usize];
            kept[c as usize] |= keep;
            keep
        });
        self.heap = entries;
        self.stale_discarded += (before - self.heap.len()) as u64;
        for i in (0..self.heap.len() / 2).rev() {
            self.stats.sift_moves += self.sift().down(i);
        }
    }
}

impl<K: Ord + Copy> CellQueue<K> for LazyHeap<K> {
    fn with_capacity(capacity: usize) -> Self {
        LazyHeap {
            heap: Vec::new(),
            current: vec![None; capacity],
            len: 0,
            stale_discarded: 0,
            stats: SearchStats::default(),
        }
    }

    fn grow(&mut self, capacity: usize) {
        if self.current.len() < capacity {
            self.current.resize(capacity, None);
        }
    }

    fn insert_or_update_as(&mut self, id: u32, cell: u32, key: K) {
        match self.current[id as usize] {
            None => {
                self.stats.pushes += 1;
                self.len += 1;
            }
            Some(old) if old == key => return,
            Some(_) => self.stats.updates += 1,
        }
        self.current[id as usize] = Some(key);
        self.heap.push((key, cell, id));
        let n = self.heap.len() - 1;
        self.stats.sift_moves += self.sift().up(n);
        self.maybe_compact();
    }

    fn remove(&mut self, id: u32) -> bool {
        if self.current[id as usize].take().is_none() {
            return false;
        }
        self.stats.removes += 1;
        self.len -= 1;
        true
    }

    fn top_as(&mut self) -> Option<(K, u32, u32)> {
        self.discard_stale_top();
        self.heap.first().copied()
    }

    fn pop(&mut self) -> Option<(K, u32)> {
        self.discard_stale_top();
        if self.heap.is_empty() {
            return None;
        }
        let (k, c, id) = self.take_root();
        self.current[id as usize] = None;
        self.len -= 1;
        self.stats.pops += 1;
        Some((k, c))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        for &(_, _, id) in &self.heap {
            self.current[id as usize] = None;
        }
        self.heap.clear();
        self.len = 0;
    }

    fn queued_key(&self, id: u32) -> Option<K> {
        self.current[id as usize]
    }

    fn queued_cells(&self, out: &mut Vec<u32>) {
        // One live entry per queued id: its cell.
        let start = out.len();
        out.extend(
            self.heap
                .iter()
                .filter(|e| self.is_live(**e))
                .map(|&(_, c, _)| c),
        );
        out[start..].sort_unstable();
        let mut kept = start;
        for i in start..out.len() {
            if i == start || out[i] != out[kept - 1] {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.heap.capacity() * std::mem::size_of::<(K, u32, u32)>()
            + self.current.capacity() * std::mem::size_of::<Option<K>>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_entries_are_discarded_and_compacted() {
        let mut q = LazyHeap::<u32>::with_capacity(4);
        q.insert_or_update(0, 5);
        q.insert_or_update(0, 3);
        q.insert_or_update(1, 4);
        q.insert_or_update(0, 5);
        assert_eq!(q.entries(), 4);
        assert_eq!(q.pop(), Some((4, 1)));
        assert_eq!(q.stale_discarded(), 1);
        assert_eq!(q.pop(), Some((5, 0)));
        assert_eq!(q.pop(), None);
        assert_eq!(q.stale_discarded(), 2);

        // Many key changes of one cell never hold more than the compaction bound.
        for k in 0..10_000u32 {
            q.insert_or_update(2, k % 7 + 1);
        }
        assert!(q.entries() <= COMPACT_RATIO + COMPACT_MARGIN + 1);
        assert_eq!(q.len(), 1);
        q.insert_or_update(3, 0);
        assert_eq!(q.pop(), Some((0, 3)));
        assert_eq!(q.pop(), Some(((10_000 - 1) % 7 + 1, 2)));
        assert!(q.is_empty());
        assert_eq!(q.top(), None);
    }

    #[test]
    fn matches_a_model_across_many_rebuilds() {
        use std::collections::BTreeMap;
        let mut q = LazyHeap::<u32>::with_capacity(64);
        let mut model: BTreeMap<u32, u32> = BTreeMap::new();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let before = q.stale_discarded();
        for _ in 0..200_000 {
            let r = next();
            let c = (r % 64) as u32;
            match (r >> 8) % 10 {
                0 => assert_eq!(q.remove(c), model.remove(&c).is_some()),
                1 => {
                    let want = model.iter().map(|(&c, &k)| (k, c)).min();
                    if let Some((_, c)) = want {
                        model.remove(&c);
                    }
                    assert_eq!(q.pop(), want);
                }
                _ => {
                    let k = ((r >> 16) % 50) as u32;
                    q.insert_or_update(c, k);
                    model.insert(c, k);
                }
            }
            assert_eq!(q.len(), model.len());
            assert!(q.entries() <= COMPACT_RATIO * 64 + COMPACT_MARGIN + 1);
        }
        assert!(q.stale_discarded() > before);
        let mut drained = Vec::new();
        while let Some(e) = q.pop() {
            drained.push(e);
        }
        let mut want: Vec<(u32, u32)> = model.iter().map(|(&c, &k)| (k, c)).collect();
        want.sort();
        assert_eq!(drained, want);
    }
}
