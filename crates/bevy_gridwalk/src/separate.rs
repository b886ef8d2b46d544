//! Crowd mode's starts: agents that a rebuild places on one cell are spread to the nearest
//! free cells first, so that a crowd segment's scenario (`crowd: true`) never has two agents
//! due at tick 0 on one cell, which `gridwalk-cli simulate` would refuse. The core separates
//! its agents the same way when crowd mode comes on; this copy goes when the core offers its
//! rule as a public function.

use gridwalk_core::grid::Flood;
use gridwalk_core::{Connectivity, Grid, Pos};

/// Moves every cell after the first of its kind to the nearest passable cell (breadth first
/// over `conn`'s moves) none of the others holds, in the same component, so the agent starting
/// there keeps its goal in reach; as the core separates agents when crowd mode comes on. A cell
/// with no free cell in reach stays.
pub fn separate_cells<'a>(
    grid: &Grid,
    conn: Connectivity,
    cells: impl IntoIterator<Item = &'a mut Pos>,
) {
    let mut taken = vec![false; grid.len()];
    let mut flood = Flood::default();
    for cell in cells {
        let Ok(c) = grid.index(*cell) else {
            continue;
        };
        if !taken[c] {
            taken[c] = true;
        } else if let Some(u) = flood.nearest(grid, c, conn, |u| !taken[u]) {
            taken[u] = true;
            *cell = grid.pos(u);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_on_one_cell_spread_to_free_neighbours() {
        let grid = Grid::new(5, 5).unwrap();
        let at = Pos::new(2, 2);
        let goal = Pos::new(4, 4);
        let mut agents: Vec<(Pos, Pos)> = (0..4).map(|_| (at, goal)).collect();
        separate_cells(
            &grid,
            Connectivity::Eight,
            agents.iter_mut().map(|a| &mut a.0),
        );
        let mut cells: Vec<Pos> = agents.iter().map(|a| a.0).collect();
        assert_eq!(agents[0].0, at, "the first keeps its cell");
        cells.sort_by_key(|p| (p.x, p.y));
        cells.dedup();
        assert_eq!(cells.len(), 4, "no two share a cell");
        assert!(
            agents
                .iter()
                .all(|a| a.0.x.abs_diff(2) <= 1 && a.0.y.abs_diff(2) <= 1)
        );
    }
}
