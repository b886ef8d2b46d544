//! D* (Stentz 1994): placeholder until the real implementation lands; delegates nothing.
use crate::grid::{Connectivity, Grid, GridError, Pos};
/// Placeholder.
pub type DStar = super::dstar_lite::DStarLite;
/// Placeholder constructor.
pub fn new_dstar(grid: &Grid, goal: Pos, conn: Connectivity) -> Result<DStar, GridError> {
    DStar::new(grid, goal, conn, crate::Heuristic::Zero)
}
