//! Random maps: the one home of [`Grid::random`], for the game, the benches and the tests.

use super::{Grid, GridError, Pos, Terrain};
use crate::rng::Draw;

impl Grid {
    /// A `width`×`height` map where each cell, row by row, is a wall with probability
    /// `walls` (one [`Draw::chance`] per cell, so the generator goes on from there), and
    /// plain ground otherwise. A `walls` that is not a number counts as 0.
    ///
    /// ```
    /// use gridwalk_core::Grid;
    /// use gridwalk_core::rng::{SeedableRng, SplitMix64};
    /// let a = Grid::random(30, 20, 0.25, &mut SplitMix64::seed_from_u64(4)).unwrap();
    /// assert_eq!(a, Grid::random(30, 20, 0.25, &mut SplitMix64::seed_from_u64(4)).unwrap());
    /// assert!((100..200).contains(&a.wall_count()));
    /// ```
    pub fn random(
        width: u32,
        height: u32,
        walls: f64,
        rng: &mut impl Draw,
    ) -> Result<Grid, GridError> {
        let mut grid = Grid::new(width, height)?;
        let walls = if walls.is_nan() { 0.0 } else { walls };
        for y in 0..height {
            for x in 0..width {
                if rng.chance(walls) {
                    grid.set(Pos::new(x, y), Terrain::Wall)?;
                }
            }
        }
        Ok(grid)
    }
}
