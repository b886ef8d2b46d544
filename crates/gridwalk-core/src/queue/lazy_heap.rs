//! A lazy-deletion heap (in progress).
use super::CellQueue;
use crate::stats::SearchStats;
/// Placeholder.
pub struct LazyHeap<K>(std::collections::BTreeMap<u32, K>, SearchStats);
impl<K: Ord + Copy> CellQueue<K> for LazyHeap<K> {
    fn with_capacity(_: usize) -> Self {
        LazyHeap(Default::default(), SearchStats::default())
    }
    fn insert_or_update(&mut self, cell: u32, key: K) {
        self.0.insert(cell, key);
    }
    fn remove(&mut self, cell: u32) -> bool {
        self.0.remove(&cell).is_some()
    }
    fn top(&mut self) -> Option<(K, u32)> {
        self.0.iter().map(|(&c, &k)| (k, c)).min()
    }
    fn pop(&mut self) -> Option<(K, u32)> {
        let t = self.top()?;
        self.0.remove(&t.1);
        Some(t)
    }
    fn contains(&self, cell: u32) -> bool {
        self.0.contains_key(&cell)
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn clear(&mut self) {
        self.0.clear()
    }
    fn stats(&self) -> SearchStats {
        self.1
    }
    fn memory_bytes(&self) -> usize {
        0
    }
}
