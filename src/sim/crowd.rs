//! Crowd mode on the game's side: agents that a rebuild places on one cell are spread to the
//! nearest free cells first, so that a crowd segment's scenario (`crowd: true`) never has two
//! agents due at tick 0 on one cell, which `gridwalk-cli simulate` would refuse.

use std::collections::VecDeque;

use gridwalk_core::{Connectivity, Grid, Pos};

/// Moves every cell after the first of its kind to the nearest passable cell (breadth first
/// over `conn`'s moves) none of the others holds, in the same component, so the agent starting
/// there keeps its goal in reach; as the core separates agents when crowd mode comes on. A cell
/// with no free cell in reach stays.
pub(crate) fn separate_cells<'a>(
    grid: &Grid,
    conn: Connectivity,
    cells: impl IntoIterator<Item = &'a mut Pos>,
) {
    let mut taken = vec![false; grid.len()];
    let mut seen = vec![false; grid.len()];
    for cell in cells {
        let Ok(c) = grid.index(*cell) else {
            continue;
        };
        if !taken[c] {
            taken[c] = true;
            continue;
        }
        seen.iter_mut().for_each(|s| *s = false);
        let mut queue = VecDeque::from([c]);
        seen[c] = true;
        while let Some(u) = queue.pop_front() {
            if !taken[u] && grid.is_passable(grid.pos(u)) {
                taken[u] = true;
                *cell = grid.pos(u);
                break;
            }
            grid.for_each_neighbor(u, conn, |n, _| {
                if !seen[n] {
                    seen[n] = true;
                    queue.push_back(n);
                }
            });
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
