//! A map's *trunk*: the free cells with the most through-traffic, where parked robots would
//! stand in everyone's way.
//!
//! Through-traffic is estimated from shortest paths between random cells: [`TRUNK_SAMPLES`]
//! breadth-first searches from random sources, each walked back from as many random targets,
//! every cell counting the paths through it. One search keeps one parent a cell, so its paths
//! crowd onto a few lines; a cell's count is therefore summed over the square of
//! [`TRUNK_RADIUS`] cells around it, and a corridor counts whole. The [`TRUNK_SHARE`] of free
//! cells with the highest sums are the trunk. On brc202d it is the chain of corridors and
//! halls that joins the rooms (docs/benchmarks.md, "Parked robots off the trunk").
//!
//! Cost: O(samples × cells) time, two arrays of the grid's size.

use std::collections::VecDeque;

use crate::grid::{Connectivity, Grid};
use crate::rng::{Draw, SeedableRng, SplitMix64};

/// The share of free cells, those with the most through-traffic, that make the trunk.
const TRUNK_SHARE: f64 = 0.25;

/// Breadth-first searches, and paths walked back from each, that estimate the traffic.
const TRUNK_SAMPLES: usize = 128;

/// Cells each side of a cell over which its count is summed.
const TRUNK_RADIUS: usize = 6;

/// Per cell of `grid`: whether it lies on the trunk (see the module doc). Random sources and
/// targets come from `seed`. Walls and a grid without free cells give no trunk.
pub fn trunk(grid: &Grid, seed: u64) -> Vec<bool> {
    let sums = square_sums(grid, &path_counts(grid, seed), TRUNK_RADIUS);
    let mut free: Vec<u64> = (0..grid.len())
        .filter(|&c| grid.weight(c) != 0)
        .map(|c| sums[c])
        .collect();
    let take = (free.len() as f64 * TRUNK_SHARE).round() as usize;
    if take == 0 {
        return vec![false; grid.len()];
    }
    let at = free.len() - take;
    let (_, &mut cut, _) = free.select_nth_unstable(at);
    (0..grid.len())
        .map(|c| grid.weight(c) != 0 && sums[c] >= cut)
        .collect()
}

/// Per cell: the sampled shortest paths that pass through it (their sources excluded).
fn path_counts(grid: &Grid, seed: u64) -> Vec<u32> {
    let n = grid.len();
    let free: Vec<usize> = (0..n).filter(|&c| grid.weight(c) != 0).collect();
    let mut count = vec![0u32; n];
    if free.is_empty() {
        return count;
    }
    let mut rng = SplitMix64::seed_from_u64(seed);
    let mut parent = vec![usize::MAX; n];
    let mut queue = VecDeque::new();
    for _ in 0..TRUNK_SAMPLES {
        let source = free[rng.below(free.len())];
        parent.fill(usize::MAX);
        parent[source] = source;
        queue.push_back(source);
        while let Some(c) = queue.pop_front() {
            grid.for_each_neighbor(c, Connectivity::Four, |m, _| {
                if parent[m] == usize::MAX {
                    parent[m] = c;
                    queue.push_back(m);
                }
            });
        }
        for _ in 0..TRUNK_SAMPLES {
            let mut c = free[rng.below(free.len())];
            if parent[c] == usize::MAX {
                continue;
            }
            while c != source {
                count[c] += 1;
                c = parent[c];
            }
        }
    }
    count
}

/// Per cell: the sum of `counts` over the square of `radius` cells around it.
fn square_sums(grid: &Grid, counts: &[u32], radius: usize) -> Vec<u64> {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    // Prefix sums over rows and columns: `sum[y][x]` holds the cells above and left.
    let mut sum = vec![0u64; (w + 1) * (h + 1)];
    for y in 0..h {
        let mut row = 0;
        for x in 0..w {
            row += u64::from(counts[y * w + x]);
            sum[(y + 1) * (w + 1) + x + 1] = sum[y * (w + 1) + x + 1] + row;
        }
    }
    let at = |x: usize, y: usize| sum[y * (w + 1) + x];
    (0..w * h)
        .map(|c| {
            let (x, y) = (c % w, c / w);
            let (x0, y0) = (x.saturating_sub(radius), y.saturating_sub(radius));
            let (x1, y1) = ((x + radius + 1).min(w), (y + radius + 1).min(h));
            at(x1, y1) + at(x0, y0) - at(x1, y0) - at(x0, y1)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Pos, Terrain};

    /// Two 30 × 30 rooms joined by a corridor 3 wide and 40 long.
    fn two_rooms() -> Grid {
        let mut grid = Grid::new(100, 30).unwrap();
        for y in 0..30 {
            for x in 30..70 {
                if !(13..16).contains(&y) {
                    grid.set(Pos::new(x, y), Terrain::Wall).unwrap();
                }
            }
        }
        grid
    }

    #[test]
    fn the_corridor_between_two_rooms_is_trunk_and_far_corners_are_not() {
        let grid = two_rooms();
        let t = trunk(&grid, 1);
        let at = |x: u32, y: u32| t[grid.index(Pos::new(x, y)).unwrap()];
        for x in 30..70 {
            for y in 13..16 {
                assert!(at(x, y), "corridor cell ({x}, {y})");
            }
        }
        for (x, y) in [(0, 0), (0, 29), (99, 0), (99, 29)] {
            assert!(!at(x, y), "corner ({x}, {y})");
        }
        let free = (0..grid.len()).filter(|&c| grid.weight(c) != 0).count();
        let share = t.iter().filter(|&&b| b).count() as f64 / free as f64;
        assert!((0.24..0.3).contains(&share), "share {share}");
        assert!(
            (0..grid.len()).all(|c| grid.weight(c) != 0 || !t[c]),
            "a wall on the trunk"
        );
    }

    #[test]
    fn square_sums_agree_with_plain_sums() {
        let grid = Grid::new(7, 5).unwrap();
        let counts: Vec<u32> = (0..35).map(|c| (c * 7 % 11) as u32).collect();
        let sums = square_sums(&grid, &counts, 2);
        for (c, &sum) in sums.iter().enumerate() {
            let (x, y) = (c as i64 % 7, c as i64 / 7);
            let plain: u64 = (counts.iter().enumerate())
                .filter(|&(d, _)| {
                    let (dx, dy) = (d as i64 % 7, d as i64 / 7);
                    (dx - x).abs() <= 2 && (dy - y).abs() <= 2
                })
                .map(|(_, &k)| u64::from(k))
                .sum();
            assert_eq!(sum, plain, "cell {c}");
        }
        assert_eq!(sums.len(), 35);
    }

    #[test]
    fn a_map_without_free_cells_has_no_trunk() {
        let mut grid = Grid::new(3, 1).unwrap();
        for x in 0..3 {
            grid.set(Pos::new(x, 0), Terrain::Wall).unwrap();
        }
        assert_eq!(trunk(&grid, 0), [false; 3]);
    }
}
