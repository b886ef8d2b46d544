//! [`Tables`]: a lifelong planner's guidance tables over (cell, facing), exact
//! ([`RotationTables`], breadth-first) or with traffic rules ([`WeightedTables`], Dijkstra),
//! with the bookkeeping every planner does on either kind, and [`Guidance`] from them.

use crate::crowd::RotationGuidance;
use crate::grid::Grid;
use crate::mapf::{RotationTables, ToGoals};

use super::weighted::{EdgeCosts, WeightedGoals, WeightedTables};

/// A planner's tables: exact, or with traffic rules. Planners whose step is generic over its
/// guidance match on the two kinds themselves, so that each is compiled for its own.
pub(super) enum Tables {
    Exact(RotationTables),
    Weighted(WeightedTables),
}

/// Guidance from either kind of [`Tables`], for planners that take one type.
pub(super) enum Guidance<'a> {
    Exact(ToGoals<'a>),
    Weighted(WeightedGoals<'a>),
}

impl RotationGuidance for Guidance<'_> {
    #[inline]
    fn cost(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        match self {
            Guidance::Exact(g) => g.cost(agent, cell, facing),
            Guidance::Weighted(g) => g.cost(agent, cell, facing),
        }
    }

    #[inline]
    fn action(&self) -> u64 {
        match self {
            Guidance::Exact(g) => g.action(),
            Guidance::Weighted(g) => g.action(),
        }
    }

    #[inline]
    fn forward(&self, agent: usize, cell: u32, facing: u8) -> u64 {
        match self {
            Guidance::Exact(g) => g.forward(agent, cell, facing),
            Guidance::Weighted(g) => g.forward(agent, cell, facing),
        }
    }
}

impl Tables {
    /// No tables yet for `grid`: with traffic rules when `costs` are given, else exact.
    pub(super) fn new(grid: &Grid, costs: Option<EdgeCosts>) -> Tables {
        match costs {
            Some(c) => Tables::Weighted(WeightedTables::new(grid, c)),
            None => Tables::Exact(RotationTables::new(grid)),
        }
    }

    /// Makes every passable goal's table (weighted ones on every core), reporting the first
    /// goal off the grid or on a wall.
    pub(super) fn ensure_all(&mut self, goals: impl Iterator<Item = u32>) -> Result<(), String> {
        match self {
            Tables::Exact(t) => goals
                .filter_map(|g| t.ensure(g).err())
                .reduce(|first, _| first)
                .map_or(Ok(()), Err),
            Tables::Weighted(t) => t.ensure_all(goals),
        }
    }

    /// The tables made again, as they are needed, with traffic rules `costs`: every table
    /// is dropped.
    pub(super) fn reprice(&mut self, grid: &Grid, costs: EdgeCosts) {
        match self {
            Tables::Weighted(t) => t.set_costs(costs),
            Tables::Exact(_) => *self = Tables::new(grid, Some(costs)),
        }
    }

    /// The traffic rules the tables are made with: plain moves in halves for exact ones.
    pub(super) fn costs(&self, grid: &Grid) -> EdgeCosts {
        match self {
            Tables::Weighted(t) => t.costs().clone(),
            Tables::Exact(_) => EdgeCosts::highways(grid, 2, 2),
        }
    }

    /// Bytes the tables hold.
    pub(super) fn memory_bytes(&self) -> usize {
        match self {
            Tables::Exact(t) => t.memory_bytes(),
            Tables::Weighted(t) => t.memory_bytes(),
        }
    }

    /// When the tables hold more than `budget` bytes, drops all but the tables of `goals`.
    pub(super) fn hold_to(&mut self, budget: usize, goals: impl Iterator<Item = u32>) {
        if self.memory_bytes() <= budget {
            return;
        }
        let mut keep: Vec<u32> = goals.collect();
        keep.sort_unstable();
        keep.dedup();
        let keep = |g: u32| keep.binary_search(&g).is_ok();
        match self {
            Tables::Exact(t) => t.retain(keep),
            Tables::Weighted(t) => t.retain(keep),
        }
    }

    /// Guidance for robots heading for `goals` (one per robot), making the missing tables;
    /// a robot without a goal gets no table (every state reads as unreachable for it).
    pub(super) fn guidance_or_none(
        &mut self,
        goals: &[Option<u32>],
    ) -> Result<Guidance<'_>, String> {
        Ok(match self {
            Tables::Exact(t) => Guidance::Exact(t.guidance_or_none(goals)?),
            Tables::Weighted(t) => Guidance::Weighted(t.guidance_or_none(goals)?),
        })
    }
}
