//! Benchmark-only: a sorted doubly linked list queue, the open list of the original D* Lite
//! implementations, kept to compare against the heaps.
//!
//! The links live in flat arrays indexed by cell (a `prev` and a `next` per cell, plus a
//! head), so nothing is allocated per insertion. Inserting walks from the head to the new
//! element's place, O(n); a key change unlinks the cell and inserts it again; removing any
//! cell is O(1); the minimum is always the head.

use super::CellQueue;
use crate::stats::SearchStats;

const NONE: u32 = u32::MAX;

/// A min-priority queue kept as a list sorted by (key, cell), linked through per-cell arrays.
///
/// [`SearchStats::sift_moves`] counts the links walked while looking for insertion places.
#[derive(Clone, Debug)]
pub struct SortedList<K> {
    /// The key of each queued id; `None` when it is not queued.
    key: Vec<Option<K>>,
    /// The cell of each queued id.
    cell: Vec<u32>,
    /// The previous cell in the list, or `NONE` for the head.
    prev: Vec<u32>,
    /// The next cell in the list, or `NONE` for the tail.
    next: Vec<u32>,
    head: u32,
    len: usize,
    stats: SearchStats,
}

impl<K: Ord + Copy> SortedList<K> {
    /// The (key, cell) pair of a queued id.
    #[inline]
    fn entry(&self, id: u32) -> (K, u32) {
        (
            self.key[id as usize].expect("a linked id has a key"),
            self.cell[id as usize],
        )
    }

    /// Links `cell` under `id`, which must not be queued, at its sorted place, walking from
    /// the head.
    fn link(&mut self, id: u32, cell: u32, key: K) {
        let c = id as usize;
        self.key[c] = Some(key);
        self.cell[c] = cell;
        let item = (key, cell);
        // Find the first element greater than `item` (there are no equal ones: cells differ).
        let mut before = NONE;
        let mut at = self.head;
        while at != NONE && self.entry(at) < item {
            before = at;
            at = self.next[at as usize];
            self.stats.sift_moves += 1;
        }
        self.connect(before, id);
        self.connect(id, at);
        self.len += 1;
    }

    /// Makes `b` follow `a`; `NONE` for `a` is the head, for `b` the end.
    fn connect(&mut self, a: u32, b: u32) {
        match a {
            NONE => self.head = b,
            a => self.next[a as usize] = b,
        }
        if b != NONE {
            self.prev[b as usize] = a;
        }
    }

    /// Unlinks a queued `cell` in O(1) and forgets its key.
    fn unlink(&mut self, cell: u32) {
        let c = cell as usize;
        self.connect(self.prev[c], self.next[c]);
        self.prev[c] = NONE;
        self.next[c] = NONE;
        self.key[c] = None;
        self.len -= 1;
    }
}

impl<K: Ord + Copy> CellQueue<K> for SortedList<K> {
    fn with_capacity(capacity: usize) -> Self {
        SortedList {
            key: vec![None; capacity],
            cell: vec![0; capacity],
            prev: vec![NONE; capacity],
            next: vec![NONE; capacity],
            head: NONE,
            len: 0,
            stats: SearchStats::default(),
        }
    }

    fn grow(&mut self, capacity: usize) {
        if self.key.len() < capacity {
            self.key.resize(capacity, None);
            self.cell.resize(capacity, 0);
            self.prev.resize(capacity, NONE);
            self.next.resize(capacity, NONE);
        }
    }

    fn insert_or_update_as(&mut self, id: u32, cell: u32, key: K) {
        match self.key[id as usize] {
            None => {
                self.stats.pushes += 1;
                self.link(id, cell, key);
            }
            Some(old) if old == key => {}
            Some(_) => {
                self.stats.updates += 1;
                self.unlink(id);
                self.link(id, cell, key);
            }
        }
    }

    fn remove(&mut self, id: u32) -> bool {
        if self.key[id as usize].is_none() {
            return false;
        }
        self.stats.removes += 1;
        self.unlink(id);
        true
    }

    fn top_as(&mut self) -> Option<(K, u32, u32)> {
        (self.head != NONE).then(|| {
            let (k, c) = self.entry(self.head);
            (k, c, self.head)
        })
    }

    fn pop(&mut self) -> Option<(K, u32)> {
        let (k, c, id) = self.top_as()?;
        self.stats.pops += 1;
        self.unlink(id);
        Some((k, c))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn clear(&mut self) {
        let mut at = self.head;
        while at != NONE {
            let a = at as usize;
            at = self.next[a];
            self.prev[a] = NONE;
            self.next[a] = NONE;
            self.key[a] = None;
        }
        self.head = NONE;
        self.len = 0;
    }

    fn queued_key(&self, id: u32) -> Option<K> {
        self.key[id as usize]
    }

    fn queued_cells(&self, out: &mut Vec<u32>) {
        let mut at = self.head;
        while at != NONE {
            out.push(self.cell[at as usize]);
            at = self.next[at as usize];
        }
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.key.capacity() * std::mem::size_of::<Option<K>>()
            + (self.cell.capacity() + self.prev.capacity() + self.next.capacity()) * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_links_walked_and_unlinks_anywhere() {
        let mut q = SortedList::<u32>::with_capacity(8);
        for (c, k) in [(0, 5), (1, 1), (2, 3), (3, 3)] {
            q.insert_or_update(c, k);
        }
        // 0: walks nothing; 1: nothing (goes first); 2: passes 1; 3: passes 1 and 2.
        assert_eq!(q.stats().sift_moves, 3);
        assert!(q.remove(2));
        assert!(!q.remove(2));
        q.insert_or_update(0, 0);
        assert_eq!(q.stats().updates, 1);
        assert_eq!(q.pop(), Some((0, 0)));
        assert_eq!(q.pop(), Some((1, 1)));
        assert_eq!(q.pop(), Some((3, 3)));
        assert_eq!(q.pop(), None);
        let s = q.stats();
        assert_eq!((s.pushes, s.pops, s.removes), (4, 3, 1));
    }
}
