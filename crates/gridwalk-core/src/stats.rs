//! Work counters reported by every search and repair.

use serde::{Deserialize, Serialize};

/// How much work a search or a repair did. Sift moves are the measure of Koenig and
/// Likhachev's papers: every element moved one level in a heap (or one link in a list).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchStats {
    /// Cells expanded (taken from the queue and their neighbours examined).
    pub expanded: u64,
    /// Insertions into the queue.
    pub pushes: u64,
    /// Removals of the top element.
    pub pops: u64,
    /// Key changes of an element already queued.
    pub updates: u64,
    /// Removals of an element that is not the top.
    pub removes: u64,
    /// Elements moved while restoring queue order (for the bucket queue: entries sorted when
    /// their bucket became current).
    pub sift_moves: u64,
    /// Pops that found an out-of-date entry and threw it away (queues with lazy key changes);
    /// these are included in `pops`.
    #[serde(default)]
    pub stale_pops: u64,
}

impl SearchStats {
    /// All queue operations: pushes, pops, updates and removes.
    pub fn queue_ops(&self) -> u64 {
        self.pushes + self.pops + self.updates + self.removes
    }

    /// Copies the queue counters of `after - before` (two readings of one queue's
    /// counters) into `self`, keeping `expanded` and `stale_pops`.
    pub fn set_queue_work(&mut self, before: SearchStats, after: SearchStats) {
        self.pushes = after.pushes - before.pushes;
        self.pops = after.pops - before.pops;
        self.updates = after.updates - before.updates;
        self.removes = after.removes - before.removes;
        self.sift_moves = after.sift_moves - before.sift_moves;
    }
}

add_fields!(SearchStats: expanded, pushes, pops, updates, removes, sift_moves, stale_pops);
