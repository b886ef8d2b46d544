//! The only factory of planners: [`new_planner`] for a one-off planner behind the trait, and
//! [`PlannerPool`], which makes the simulation's planners and keeps the arrays of dropped
//! D\* Lite planners for new goals.
//!
//! The simulation holds a goal's planner as a [`Planner`]: D\* Lite by its own type, so that
//! the per-agent reads of the hot path (`g`, `next_move`) are direct calls; D\* (rare, and
//! slower anyway) through the trait. This is the only place that matches on [`Algorithm`] to
//! build one.

use std::fmt;

use super::{Algorithm, GoalPlanner};
use crate::grid::{Connectivity, Grid, GridError, Pos};
use crate::heuristic::Heuristic;
use crate::search::dstar::DStar;
use crate::search::dstar_lite::DStarLite;
use crate::search::mpgaa::Mpgaa;

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

/// A new incremental planner toward `goal`: D\* Lite (with `heuristic`) or D\* (which uses
/// none), behind the trait.
pub fn new_planner(
    algorithm: Algorithm,
    grid: &Grid,
    goal: Pos,
    conn: Connectivity,
    heuristic: Heuristic,
) -> Result<Box<dyn GoalPlanner>, PlannerError> {
    match Planner::new(algorithm, grid, goal, conn, heuristic, None)? {
        Planner::Lite(p) => Ok(p),
        Planner::Other(p) => Ok(p),
    }
}

/// A goal's planner as the simulation holds it: D\* Lite by its own type, so that per-agent
/// reads are direct calls; any other through the trait.
pub(crate) enum Planner {
    /// D\* Lite.
    Lite(Box<DStarLite>),
    /// Any other incremental planner (D\*, MPGAA\*).
    Other(Box<dyn GoalPlanner>),
}

impl Planner {
    /// A planner of `algorithm` toward `goal`; D\* Lite reuses `reuse`'s arrays when given.
    fn new(
        algorithm: Algorithm,
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
        reuse: Option<Box<DStarLite>>,
    ) -> Result<Planner, PlannerError> {
        let e = PlannerError::Grid;
        Ok(match algorithm {
            Algorithm::DStarLite => Planner::Lite(match reuse {
                Some(mut p) => {
                    p.reset(grid, goal, conn, heuristic).map_err(e)?;
                    p
                }
                None => Box::new(DStarLite::new(grid, goal, conn, heuristic).map_err(e)?),
            }),
            Algorithm::DStar => Planner::Other(Box::new(DStar::new(grid, goal, conn).map_err(e)?)),
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
            Planner::Other(p) => &**p,
        }
    }

    /// The planner behind the trait, to change.
    pub(crate) fn get_mut(&mut self) -> &mut dyn GoalPlanner {
        match self {
            Planner::Lite(p) => &mut **p,
            Planner::Other(p) => &mut **p,
        }
    }
}

/// Dropped D\* Lite planners kept for new goals: enough for the goals that change in a tick
/// of thousands of wandering agents, without holding much memory idle.
const POOL_MAX: usize = 128;

/// Makes the simulation's planners, and keeps up to 128 dropped D\* Lite planners
/// whose arrays new goals reuse, holding at most `cap` bytes together. Boxed as the simulation
/// holds them, so a planner moves in and out of the pool as a pointer.
pub(crate) struct PlannerPool {
    #[allow(clippy::vec_box)]
    kept: Vec<Box<DStarLite>>,
    /// Bytes the kept planners hold.
    bytes: usize,
    /// The most bytes they may hold.
    cap: usize,
}

impl Default for PlannerPool {
    fn default() -> Self {
        PlannerPool {
            kept: Vec::new(),
            bytes: 0,
            cap: usize::MAX,
        }
    }
}

impl PlannerPool {
    /// A planner of `algorithm` toward `goal`, reusing a kept one's arrays when it can.
    pub(crate) fn make(
        &mut self,
        algorithm: Algorithm,
        grid: &Grid,
        goal: Pos,
        conn: Connectivity,
        heuristic: Heuristic,
    ) -> Result<Planner, PlannerError> {
        let reuse = match algorithm {
            Algorithm::DStarLite => self.kept.pop(),
            _ => None,
        };
        if let Some(p) = &reuse {
            self.bytes -= p.memory_bytes();
        }
        Planner::new(algorithm, grid, goal, conn, heuristic, reuse)
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

    /// Sets the most bytes the kept planners may hold, dropping the last kept past it.
    pub(crate) fn set_cap(&mut self, cap: usize) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_reuses_dropped_lite_planners_up_to_its_bound() {
        let grid = Grid::new(8, 8).unwrap();
        let (conn, h) = (Connectivity::Eight, Heuristic::Octile);
        let mut pool = PlannerPool::default();
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
}
