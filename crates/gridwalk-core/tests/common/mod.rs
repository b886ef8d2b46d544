//! Helpers shared by the integration tests: an independent reference for costs.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use gridwalk_core::cost::{Cost, INFINITY};
use gridwalk_core::{Connectivity, Grid};

/// Costs from cell `from` to every cell by a plain Dijkstra over the grid's legal moves, written
/// apart from the crate's searches. Moves cost the same both ways, so these are also the costs
/// *to* `from`. [`INFINITY`] where unreachable; all of it when `from` is a wall.
pub fn reference_costs(grid: &Grid, from: usize, conn: Connectivity) -> Vec<Cost> {
    let mut dist = vec![INFINITY; grid.len()];
    if grid.weight(from) == 0 {
        return dist;
    }
    let mut heap = BinaryHeap::from([Reverse((0, from))]);
    dist[from] = 0;
    while let Some(Reverse((d, u))) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        grid.for_each_neighbor(u, conn, |v, c| {
            if d + c < dist[v] {
                dist[v] = d + c;
                heap.push(Reverse((d + c, v)));
            }
        });
    }
    dist
}
