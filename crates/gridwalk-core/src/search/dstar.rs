//! D* (Stentz 1994): placeholder until the real implementation lands.
use crate::grid::{Connectivity, Grid, GridError, Pos};
use crate::search::dstar_lite::DStarLite;
/// Placeholder.
pub struct DStar;
impl DStar {
    /// Placeholder constructor.
    pub fn new(grid: &Grid, goal: Pos, conn: Connectivity) -> Result<DStarLite, GridError> {
        DStarLite::new(grid, goal, conn, crate::Heuristic::Zero)
    }
}
