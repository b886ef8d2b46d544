//! The only factory of planners: [`new_planner`] for a one-off planner behind the trait, and
//! [`PlannerPool`], which makes the simulation's planners and keeps the arrays of dropped
//! D\* Lite planners for new goals.
//!
//! The simulation holds a goal's planner as a [`Planner`]: D\* Lite by its own type (one per
//! store), so that the per-agent reads of the hot path (`g`, `next_move`) are direct calls;
//! D\* and MPGAA\* through the trait. This is the only place that matches on [`Algorithm`] to
//! build one, and the only place that picks a planner's store ([`Storage::by_size`]): D\* Lite
//! and MPGAA\* keep whole-map arrays while every planner of the budget could, tiles beyond.

use std::fmt;

use super::{Algorithm, GoalPlanner};
use crate::grid::{Connectivity, Grid, GridError, Pos};
use crate::heuristic::Heuristic;
use crate::search::cells::Storage;
use crate::search::dstar::DStar;
use crate::search::dstar_lite::{DStarLite, FlatDStarLite};
use crate::search::mpgaa::{FlatMpgaa, Mpgaa};

/// The planner-memory budget unless one is set: 2 GiB. The simulation's [`Budget`] starts
/// from it, and [`new_planner`] chooses a lone planner's store under it.
///
/// [`Budget`]: crate::sim::Budget
pub const DEFAULT_PLANNER_MEMORY: usize = 2 << 30;

/// Why [`new_planner`] made no planner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlannerError {
    /// The algorithm plans from scratch; it has no goal planner.
    NotIncremental(Algorithm),
    /// The goal is off the map.
    Grid(GridError),
}

impl fmt::Display for PlannerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlannerError::NotIncremental(a) => {
                write!(f, "{a} plans from scratch and has no goal planner")
            }
            PlannerError::Grid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlannerError {}

/// A new incremental planner toward `goal`: D\* Lite or MPGAA\* (with `heuristic`) or D\*
/// (which uses none), behind the trait; its store is chosen by size for a lone planner under
/// the default memory budget ([`Storage::by_size`]).
pub fn new_planner(
    algorithm: Algorithm,
    grid: &Grid,
    goal: Pos,
    conn: Connectivity,
    heuristic: Heuristic,
) -> Result<Box<dyn GoalPlanner>, PlannerError> {
    let storage = Storage::by_size(grid.len(), 1, DEFAULT_PLANNER_MEMORY);
    new_planner_in(algorithm, grid, goal, conn, heuristic, storage)
}

/// [`new_planner`] with its per-cell state in `storage`, whatever the sizes (D\* keeps its own
/// arrays and ignores it): for the tests and the benchmarks that measure each store.
pub fn new_planner_in(
    algorithm: Algorithm,
    grid: &Grid,
    goal: Pos,
    conn: Connectivity,
    heuristic: Heuristic,
    storage: Storage,
) -> Result<Box<dyn GoalPlanner>, PlannerError> {
    match Planner::new(algorithm, grid, goal, conn, heuristic, (storage, None))? {
        Planner::Lite(p) => Ok(p),
        Planner::FlatLite(p) => Ok(p),
        Planner::Other(p) => Ok(p),
    }
}

/// A goal's planner as the simulation holds it: D\* Lite by its own type, so that per-agent
/// reads are direct calls; any other through the trait.
pub(crate) enum Planner {
    /// D\* Lite, its state in tiles.
    Lite(Box<DStarLite>),
    /// D\* Lite, its state in whole-map arrays.
    FlatLite(Box<FlatDStarLite>),
    /// Any other incremental planner (D\*, MPGAA\*).
    Other(Box<dyn GoalPlanner>),
}

impl Planner {
    /// A planner of `algorithm` toward `goal`, its state in `storage`; a tiled D\* Lite reuses
    /// `reuse`'s allocation when given.
    fn new(
        algorithm: Algorithm,
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
        (storage, reuse): (Storage, Option<Box<DStarLite>>),
    ) -> Result<Planner, PlannerError> {
        let e = PlannerError::Grid;
        let (flat, h) = (storage == Storage::Flat, heuristic);
        Ok(match algorithm {
            Algorithm::DStarLite if flat => Planner::FlatLite(Box::new(
                FlatDStarLite::with_queue(grid, goal, conn, h).map_err(e)?,
            )),
            Algorithm::DStarLite => Planner::Lite(match reuse {
                Some(mut p) => {
                    p.reset(grid, goal, conn, heuristic).map_err(e)?;
                    p
                }
                None => Box::new(DStarLite::new(grid, goal, conn, heuristic).map_err(e)?),
            }),
            Algorithm::DStar => Planner::Other(Box::new(DStar::new(grid, goal, conn).map_err(e)?)),
            Algorithm::Mpgaa if flat => Planner::Other(Box::new(
                FlatMpgaa::with_store(grid, goal, conn, h).map_err(e)?,
            )),
            Algorithm::Mpgaa => Planner::Other(Box::new(
                Mpgaa::new(grid, goal, conn, heuristic).map_err(e)?,
            )),
            a => return Err(PlannerError::NotIncremental(a)),
        })
    }

    /// The planner behind the trait.
    pub(crate) fn get(&self) -> &dyn GoalPlanner {
        match self {
            Planner::Lite(p) => &**p,
            Planner::FlatLite(p) => &**p,
            Planner::Other(p) => &**p,
        }
    }

    /// The planner behind the trait, to change.
    pub(crate) fn get_mut(&mut self) -> &mut dyn GoalPlanner {
        match self {
            Planner::Lite(p) => &mut **p,
            Planner::FlatLite(p) => &mut **p,
            Planner::Other(p) => &mut **p,
        }
    }

    /// Whether it is D\* Lite, in either store.
    pub(crate) fn is_lite(&self) -> bool {
        matches!(self, Planner::Lite(_) | Planner::FlatLite(_))
    }
}

/// Dropped D\* Lite planners kept for new goals: enough for the goals that change in a tick
/// of thousands of wandering agents, without holding much memory idle.
const POOL_MAX: usize = 128;

/// Makes the simulation's planners, each in the store its size calls for under the memory
/// budget, and keeps up to 128 dropped tiled D\* Lite planners whose allocations new goals
/// reuse, holding at most an eighth of the budget together. Boxed as the simulation holds
/// them, so a planner moves in and out of the pool as a pointer.
pub(crate) struct PlannerPool {
    #[allow(clippy::vec_box)]
    kept: Vec<Box<DStarLite>>,
    /// Bytes the kept planners hold.
    bytes: usize,
    /// The most bytes they may hold.
    cap: usize,
    /// The planners' memory budget, for the choice of store.
    budget: usize,
    /// How many planners the simulation expects to hold, for the choice of store.
    planners: usize,
}

impl Default for PlannerPool {
    fn default() -> Self {
        PlannerPool {
            kept: Vec::new(),
            bytes: 0,
            cap: usize::MAX,
            budget: DEFAULT_PLANNER_MEMORY,
            planners: 1,
        }
    }
}

impl PlannerPool {
    /// A planner of `algorithm` toward `goal`: flat or tiled by [`Storage::by_size`], for the
    /// planners expected ([`set_planners`](Self::set_planners)) under the budget; reusing a
    /// kept one's allocation when it is tiled.
    pub(crate) fn make(
        &mut self,
        algorithm: Algorithm,
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<Planner, PlannerError> {
        let storage = Storage::by_size(grid.len(), self.planners, self.budget);
        let reuse = match (algorithm, storage) {
            (Algorithm::DStarLite, Storage::Tiles) => self.kept.pop(),
            _ => None,
        };
        if let Some(p) = &reuse {
            self.bytes -= p.memory_bytes();
        }
        Planner::new(algorithm, grid, goal, conn, heuristic, (storage, reuse))
    }

    /// Keeps a dropped planner's arrays for a later goal, while the pool has room.
    pub(crate) fn recycle(&mut self, planner: Planner) {
        if let Planner::Lite(p) = planner
            && self.kept.len() < POOL_MAX
        {
            let bytes = p.memory_bytes();
            if self.bytes + bytes <= self.cap {
                self.bytes += bytes;
                self.kept.push(p);
            }
        }
    }

    /// Sets how many planners the simulation expects to hold (its goals, those new included):
    /// the planners made from now on choose their store for that many.
    pub(crate) fn set_planners(&mut self, planners: usize) {
        self.planners = planners.max(1);
    }

    /// Sets the planners' memory budget: new planners choose their store by it, and the kept
    /// ones may hold an eighth of it (the last kept past that are dropped).
    pub(crate) fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        let cap = budget / 8;
        self.cap = cap;
        while self.bytes > cap
            && let Some(p) = self.kept.pop()
        {
            self.bytes -= p.memory_bytes();
        }
    }

    /// Bytes the kept planners hold.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// How many planners are kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.kept.len()
    }

    /// A pool whose planners are all tiled: one that expects more planners than any budget
    /// holds whole.
    #[cfg(test)]
    pub(crate) fn tiled() -> PlannerPool {
        PlannerPool {
            planners: usize::MAX,
            ..PlannerPool::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_reuses_dropped_lite_planners_up_to_its_bound() {
        let grid = Grid::new(8, 8).unwrap();
        let (conn, h) = (Connectivity::Eight, Heuristic::Octile);
        let mut pool = PlannerPool::tiled();
        let made: Vec<Planner> = (0..POOL_MAX + 3)
            .map(|i| {
                let goal = Pos::new(i as u32 % 8, i as u32 / 8 % 8);
                let p = pool
                    .make(Algorithm::DStarLite, &grid, goal, conn, h)
                    .unwrap();
                assert_eq!(p.get().goal(), grid.index(goal).unwrap());
                p
            })
            .collect();
        made.into_iter().for_each(|p| pool.recycle(p));
        assert_eq!(pool.len(), POOL_MAX);
        let reused = pool.make(Algorithm::DStarLite, &grid, Pos::new(3, 3), conn, h);
        assert_eq!(reused.unwrap().get().goal(), 27);
        assert_eq!(pool.len(), POOL_MAX - 1);
        // D* is never pooled, and the from-scratch algorithms have no planner.
        let d = pool
            .make(Algorithm::DStar, &grid, Pos::new(1, 1), conn, h)
            .unwrap();
        pool.recycle(d);
        assert_eq!(pool.len(), POOL_MAX - 1);
        let e = new_planner(Algorithm::AStar, &grid, Pos::new(1, 1), conn, h);
        assert_eq!(
            e.err(),
            Some(PlannerError::NotIncremental(Algorithm::AStar))
        );
        let off = pool.make(Algorithm::DStarLite, &grid, Pos::new(9, 1), conn, h);
        assert!(matches!(off, Err(PlannerError::Grid(_))));
    }

    #[test]
    fn few_planners_are_flat_and_many_tiled_and_flat_ones_are_not_kept() {
        let grid = Grid::new(100, 100).unwrap();
        let (conn, h) = (Connectivity::Eight, Heuristic::Octile);
        let mut pool = PlannerPool::default();
        // 10,000 cells at 48 bytes: 480 kB whole per planner; a quarter of 64 MiB holds 34.
        pool.set_budget(64 << 20);
        for (planners, flat) in [(1, true), (34, true), (35, false)] {
            pool.set_planners(planners);
            for algorithm in [Algorithm::DStarLite, Algorithm::Mpgaa] {
                let p = pool
                    .make(algorithm, &grid, Pos::new(5, 5), conn, h)
                    .unwrap();
                let bytes = p.get().memory_bytes();
                // Flat holds the whole map's state from the start; tiles only a table.
                assert_eq!(bytes >= 13 * grid.len(), flat, "{planners} {algorithm}");
                assert_eq!(
                    matches!(p, Planner::FlatLite(_)),
                    flat && algorithm == Algorithm::DStarLite
                );
                pool.recycle(p);
            }
        }
        assert_eq!(pool.len(), 1, "only the tiled D* Lite is kept");
    }
}
