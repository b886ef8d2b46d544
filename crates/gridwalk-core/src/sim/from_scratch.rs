//! [`FromScratch`]: the paths the from-scratch algorithms keep by agent, and their search
//! buffers. Their replan is in `replan_from_scratch.rs`.
//!
//! Invariants of [`FromScratch`]: `paths` holds, for the from-scratch algorithms, the path
//! of the last replan of every agent that has one, shortened by one cell each time the agent
//! moves; for the incremental algorithms, only the paths of agents whose planner was dropped
//! to keep the memory budget (see `rationing.rs`), while the map does not change. The
//! from-scratch algorithms' paths hold at most the memory budget: past it, a path keeps only
//! its first cells (at least its next move), since its agent searches again every tick.

use std::collections::BTreeMap;

use super::agents::AgentId;
use crate::cost::Cost;
use crate::grid::Pos;
use crate::path::Path;
use crate::search::best_first::SearchSpace;

/// Paths by agent, and the bytes they hold, counted as they come and go.
#[derive(Default)]
pub(super) struct Paths {
    map: BTreeMap<AgentId, Path>,
    bytes: usize,
}

impl Paths {
    /// Bytes a path's entry holds besides its cells.
    pub(super) const ENTRY: usize = std::mem::size_of::<(AgentId, Path)>();

    /// Bytes a path holds here, its entry included.
    pub(super) fn bytes_of(path: &Path) -> usize {
        path.cells.capacity() * std::mem::size_of::<Pos>() + Self::ENTRY
    }

    /// Bytes all the paths hold.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    pub(super) fn get(&self, id: &AgentId) -> Option<&Path> {
        self.map.get(id)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Sets `id`'s path.
    pub(super) fn insert(&mut self, id: AgentId, path: Path) {
        self.bytes += Self::bytes_of(&path);
        if let Some(old) = self.map.insert(id, path) {
            self.bytes -= Self::bytes_of(&old);
        }
    }

    pub(super) fn remove(&mut self, id: &AgentId) -> Option<Path> {
        let old = self.map.remove(id)?;
        self.bytes -= Self::bytes_of(&old);
        Some(old)
    }

    pub(super) fn clear(&mut self) {
        self.map.clear();
        self.bytes = 0;
    }

    /// `id` moved one cell along its path, at `step`: the path starts there now.
    pub(super) fn advance(&mut self, id: &AgentId, step: Cost) {
        if let Some(p) = self.map.get_mut(id)
            && p.cells.len() > 1
        {
            p.cells.remove(0);
            p.cost = p.cost.saturating_sub(step);
        }
    }
}

/// The from-scratch algorithms' paths and the search buffers.
#[derive(Default)]
pub(super) struct FromScratch {
    /// Paths of the from-scratch algorithms, by agent (see the module docs).
    pub(super) paths: Paths,
    /// The buffers of the from-scratch searches.
    pub(super) space: SearchSpace,
    /// The buffers of the baseline's A*
    /// ([`SimConfig::measure_baseline`](super::config::SimConfig)).
    pub(super) baseline: SearchSpace,
}
