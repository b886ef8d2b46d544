//! The one random generator of gridwalk: SplitMix64, seeded, the same numbers on every
//! platform and version. Replays depend on its streams: never change what a draw returns.
//!
//! The simulation draws wander goals and the dynamic world's walls from it; the game's map
//! generators and the benches draw their maps and agents from it too. Random maps have their
//! one home here too ([`Grid::random`]), for the game, the benches and the tests.

use crate::grid::{Grid, GridError, Pos, Terrain};

/// A small seeded generator (SplitMix64): the same seed gives the same numbers on every
/// platform and version, which exact replays need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (by multiply and shift, one draw); 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A number in `range` (one draw, as [`below`](Self::below)); `range.start` when empty.
    pub fn range(&mut self, range: std::ops::Range<usize>) -> usize {
        range.start + self.below(range.end.saturating_sub(range.start))
    }

    /// A float in `[0, 1)` from the top 53 bits of one draw.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `true` with probability `p` (one draw): always for `p >= 1`, never for `p <= 0`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }
}

impl Grid {
    /// A `width`×`height` map where each cell, row by row, is a wall with probability
    /// `walls` (one [`Rng::chance`] draw per cell, so the generator goes on from there), and
    /// plain ground otherwise. A `walls` that is not a number counts as 0.
    ///
    /// ```
    /// use gridwalk_core::{Grid, rng::Rng};
    /// let a = Grid::random(30, 20, 0.25, &mut Rng::new(4)).unwrap();
    /// assert_eq!(a, Grid::random(30, 20, 0.25, &mut Rng::new(4)).unwrap());
    /// assert!((100..200).contains(&a.wall_count()));
    /// ```
    pub fn random(width: u32, height: u32, walls: f64, rng: &mut Rng) -> Result<Grid, GridError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_seeded_and_spread() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(Rng::new(8).next_u64(), xs[0]);
        let mut counts = [0u32; 4];
        let mut r = Rng::new(1);
        for _ in 0..4000 {
            counts[r.below(4)] += 1;
        }
        assert!(counts.iter().all(|&c| c > 800), "{counts:?}");
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn the_stream_is_splitmix64() {
        // The first outputs of SplitMix64 from seed 0 (the reference values).
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn ranges_floats_and_chances_stay_in_bounds() {
        let mut r = Rng::new(5);
        for _ in 0..1000 {
            assert!((3..9).contains(&r.range(3..9)));
            let f = r.next_f64();
            assert!((0.0..1.0).contains(&f));
        }
        assert_eq!(r.range(4..4), 4);
        assert!((0..100).all(|_| r.chance(1.0)));
        assert!((0..100).all(|_| !r.chance(0.0)));
        let hits = (0..4000).filter(|_| r.chance(0.25)).count();
        assert!((800..1200).contains(&hits), "{hits}");
    }
}
