//! What keeps a simulation alive without input: what agents do on arrival, and a dynamic
//! world whose doors close on agents' paths and open again. Both draw from seeded
//! generators of their own, so a run replays exactly from its scenario.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::grid::{Connectivity, Grid, Pos};

/// What an agent does once it stands on its goal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OnArrival {
    /// It stays there.
    #[default]
    Stay,
    /// It walks to a new random goal it can reach.
    Wander,
    /// It walks back to its start, then to its goal again, and so on.
    Patrol,
}

impl OnArrival {
    /// Every policy, in menu order.
    pub const ALL: [OnArrival; 3] = [OnArrival::Stay, OnArrival::Wander, OnArrival::Patrol];

    /// `stay`, `wander` or `patrol`.
    pub fn name(self) -> &'static str {
        match self {
            OnArrival::Stay => "stay",
            OnArrival::Wander => "wander",
            OnArrival::Patrol => "patrol",
        }
    }
}

named_enum!(OnArrival, name, "arrival policy");

/// The dynamic world's setting: every `every` ticks a wall drops on a random free cell of a
/// walking agent's path ahead of it, and once more than `walls` such walls stand, the oldest
/// is lifted (doors closing and opening).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DynamicWorld {
    /// Ticks between two dropped walls, at least 1.
    pub every: u32,
    /// How many dropped walls may stand at once, at least 1.
    pub walls: u32,
}

impl DynamicWorld {
    /// The gentle setting the game starts with: a wall every 4 ticks, at most 6 standing.
    pub const GENTLE: DynamicWorld = DynamicWorld { every: 4, walls: 6 };

    /// How far ahead of an agent, in cells of its path, a wall may drop.
    pub const AHEAD: usize = 12;

    /// The setting with both numbers at least 1.
    pub fn clamped(self) -> DynamicWorld {
        DynamicWorld {
            every: self.every.max(1),
            walls: self.walls.max(1),
        }
    }
}

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

    /// A number in `0..n`; 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// The cells reachable from `from` by legal moves, `from` included, in search order.
/// Empty when `from` is off the map or a wall.
pub fn reachable(grid: &Grid, from: Pos, conn: Connectivity) -> Vec<usize> {
    let Ok(start) = grid.index(from) else {
        return Vec::new();
    };
    if grid.weight(start) == 0 {
        return Vec::new();
    }
    let mut seen = vec![false; grid.len()];
    let mut out = vec![start];
    seen[start] = true;
    let mut at = 0;
    while at < out.len() {
        let u = out[at];
        at += 1;
        grid.for_each_neighbor(u, conn, |n, _| {
            if !seen[n] {
                seen[n] = true;
                out.push(n);
            }
        });
    }
    out
}

/// The walls the dynamic world dropped and has not lifted yet, oldest first, each with the
/// terrain it replaced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Doors {
    /// (cell, terrain before the wall), oldest first.
    pub standing: VecDeque<(Pos, crate::grid::Terrain)>,
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
    fn reachable_stops_at_walls() {
        let mut g = Grid::new(5, 1).unwrap();
        g.set(Pos::new(2, 0), crate::grid::Terrain::Wall).unwrap();
        let r = reachable(&g, Pos::new(0, 0), Connectivity::Eight);
        assert_eq!(r, vec![0, 1]);
        assert!(reachable(&g, Pos::new(2, 0), Connectivity::Eight).is_empty());
        assert!(reachable(&g, Pos::new(9, 0), Connectivity::Eight).is_empty());
    }

    #[test]
    fn policies_parse_by_name() {
        for p in OnArrival::ALL {
            assert_eq!(p.name().parse::<OnArrival>(), Ok(p));
        }
        assert!("roam".parse::<OnArrival>().unwrap_err().contains("roam"));
    }
}
