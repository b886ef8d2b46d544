//! Every random draw of gridwalk: [`SplitMix64`] from the rand family, driven through rand's
//! traits, and the project's own small draws over any [`Rng`] ([`Draw`]).
//!
//! The simulation draws wander goals and the dynamic world's walls here; the game's map
//! generators and the benches draw their maps and agents here too. Replays depend on these
//! streams, so never change what a draw returns: `rand_xoshiro` documents SplitMix64's stream
//! as stable, and [`Draw`]'s arithmetic is the project's own (rand's `random_range` and
//! `random_bool` compute differently).
//!
//! ```
//! use gridwalk_core::rng::{Draw, SeedableRng, SplitMix64};
//! let mut a = SplitMix64::seed_from_u64(7);
//! let mut b = SplitMix64::seed_from_u64(7);
//! assert_eq!(a.below(10), b.below(10));
//! ```

pub use rand_core::{Rng, SeedableRng};
pub use rand_xoshiro::SplitMix64;

/// The project's draws over any generator, each taking exactly one 64-bit draw (a shuffle
/// one per item after the first).
pub trait Draw: Rng {
    /// A number in `0..n` (by multiply and shift); 0 when `n` is 0.
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A number in `range` (as [`below`](Self::below)); `range.start` when empty.
    fn range(&mut self, range: std::ops::Range<usize>) -> usize {
        range.start + self.below(range.end.saturating_sub(range.start))
    }

    /// A float in `[0, 1)` from the top 53 bits.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `true` with probability `p`: always for `p >= 1`, never for `p <= 0`.
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Shuffles `items` in place (Fisher and Yates, from the back): for each position `i`
    /// from the last down to 1, one draw modulo `i + 1` picks the item swapped into it. The
    /// modulo (not [`below`](Self::below)) is what the MAPF track's plans were made with.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

impl<R: Rng + ?Sized> Draw for R {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_seeded_and_spread() {
        let mut a = SplitMix64::seed_from_u64(7);
        let mut b = SplitMix64::seed_from_u64(7);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(SplitMix64::seed_from_u64(8).next_u64(), xs[0]);
        let mut counts = [0u32; 4];
        let mut r = SplitMix64::seed_from_u64(1);
        for _ in 0..4000 {
            counts[r.below(4)] += 1;
        }
        assert!(counts.iter().all(|&c| c > 800), "{counts:?}");
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn the_stream_is_splitmix64_from_the_seed_itself() {
        // The first outputs of SplitMix64 from state 0 (the reference values), which recordings
        // made before the switch to rand_xoshiro depend on.
        let mut r = SplitMix64::seed_from_u64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn draws_keep_their_arithmetic() {
        // `below` is multiply-and-shift of one draw; `unit` is its top 53 bits.
        let mut r = SplitMix64::seed_from_u64(0);
        assert_eq!(
            r.below(1000),
            ((0xE220_A839_7B1D_CDAFu128 * 1000) >> 64) as usize
        );
        assert_eq!(
            r.unit(),
            (0x6E78_9E6A_A1B9_65F4u64 >> 11) as f64 / (1u64 << 53) as f64
        );
    }

    #[test]
    fn ranges_floats_and_chances_stay_in_bounds() {
        let mut r = SplitMix64::seed_from_u64(5);
        for _ in 0..1000 {
            assert!((3..9).contains(&r.range(3..9)));
            let f = r.unit();
            assert!((0.0..1.0).contains(&f));
        }
        assert_eq!(r.range(4..4), 4);
        assert!((0..100).all(|_| r.chance(1.0)));
        assert!((0..100).all(|_| !r.chance(0.0)));
        let hits = (0..4000).filter(|_| r.chance(0.25)).count();
        assert!((800..1200).contains(&hits), "{hits}");
    }

    #[test]
    fn shuffles_permute_with_one_draw_per_swap() {
        let mut r = SplitMix64::seed_from_u64(3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let mut v = [0, 1, 2, 3];
            r.shuffle(&mut v);
            let mut sorted = v;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3]);
            seen.insert(v);
        }
        // All 24 orders turn up in 200 shuffles.
        assert_eq!(seen.len(), 24);
        // The arithmetic: position 2 of three takes item `draw % 3`.
        let mut a = SplitMix64::seed_from_u64(9);
        let mut b = SplitMix64::seed_from_u64(9);
        let mut v = [10, 11, 12];
        a.shuffle(&mut v[..]);
        let j = (b.next_u64() % 3) as usize;
        let mut w = [10, 11, 12];
        w.swap(2, j);
        w.swap(1, (b.next_u64() % 2) as usize);
        assert_eq!(v, w);
        let mut empty: [u8; 0] = [];
        a.shuffle(&mut empty);
    }
}
