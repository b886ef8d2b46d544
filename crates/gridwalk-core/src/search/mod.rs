//! The searches: one-shot best-first (A*, Dijkstra, greedy) and the incremental planners, and
//! [`new_planner`], the one place that makes an incremental planner.

pub mod best_first;
pub mod dstar;
pub mod dstar_lite;

pub use best_first::{Mode, SearchRequest, SearchResult, SearchSpace, astar, dijkstra};
pub use dstar::DStar;

use std::fmt;

use crate::grid::{Connectivity, Grid, GridError, Pos};
use crate::heuristic::Heuristic;
use crate::planner::{Algorithm, GoalPlanner};
use dstar_lite::DStarLite;

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

/// The one place that makes an incremental planner: D\* Lite (with `heuristic`) or D\* (which
/// uses none) toward `goal`.
pub fn new_planner(
    algorithm: Algorithm,
    grid: &Grid,
    goal: Pos,
    conn: Connectivity,
    heuristic: Heuristic,
) -> Result<Box<dyn GoalPlanner>, PlannerError> {
    match algorithm {
        Algorithm::DStarLite => Ok(Box::new(
            DStarLite::new(grid, goal, conn, heuristic).map_err(PlannerError::Grid)?,
        )),
        Algorithm::DStar => Ok(Box::new(
            DStar::new(grid, goal, conn).map_err(PlannerError::Grid)?,
        )),
        a => Err(PlannerError::NotIncremental(a)),
    }
}
