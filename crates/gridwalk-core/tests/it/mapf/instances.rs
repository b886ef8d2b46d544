//! Random MAPF instances for the property tests of `mapf`, `realtime` and `crowd_search`: a
//! grid with random walls, and agents with distinct starts and distinct goals, each goal
//! reachable from its start by the validator's own search.

use gridwalk_core::mapf::Problem;
use gridwalk_core::rng::{Draw, SplitMix64};
use gridwalk_core::{Connectivity, Grid, Pos, Terrain};

use super::validate::bfs;

/// A `w` by `h` grid in which each cell, in row order, is a wall with probability `walls`.
pub fn walled_grid(rng: &mut SplitMix64, w: u32, h: u32, walls: f64) -> Grid {
    let mut grid = Grid::new(w, h).unwrap();
    for i in 0..grid.len() {
        if rng.chance(walls) {
            grid.set(grid.pos(i), Terrain::Wall).unwrap();
        }
    }
    grid
}

/// Agents on `grid`: `agents(rng, free)` of them, given the number of free cells, with
/// starts and goals drawn (in that order) as two shuffles of the free cells. `None` when there
/// are no agents or a goal cannot be reached from its start.
pub fn place_agents(
    grid: Grid,
    conn: Connectivity,
    rng: &mut SplitMix64,
    agents: impl FnOnce(&mut SplitMix64, usize) -> usize,
) -> Option<Problem> {
    let free: Vec<Pos> = (0..grid.len())
        .map(|i| grid.pos(i))
        .filter(|&p| grid.is_passable(p))
        .collect();
    let n = agents(rng, free.len());
    if n == 0 {
        return None;
    }
    let mut pick = || -> Vec<Pos> {
        let mut v = free.clone();
        for i in (1..v.len()).rev() {
            v.swap(i, rng.below(i + 1));
        }
        v.truncate(n);
        v
    };
    let (starts, goals) = (pick(), pick());
    // `solve` refuses unreachable goals; keep only instances where each can be reached.
    let xy = |p: Pos| (p.x as i64, p.y as i64);
    for (s, g) in starts.iter().zip(&goals) {
        if !bfs(&grid, conn, xy(*g)).contains_key(&xy(*s)) {
            return None;
        }
    }
    Problem::new(grid, conn, starts, goals).ok()
}
